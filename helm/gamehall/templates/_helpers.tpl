{{/*
Named templates shared by every manifest. The platform's services and the per-game rules hosts are one list,
"gamehall.components", so every kind (Deployment, Service, HPA, PDB, NetworkPolicy, ServiceMonitor) is one loop.
*/}}

{{/* The chart name (label app.kubernetes.io/name). */}}
{{- define "gamehall.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The release-scoped prefix of every resource name. */}}
{{- define "gamehall.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The name of one component's resources; call with (dict "root" $ "component" "gateway"). */}}
{{- define "gamehall.componentName" -}}
{{- printf "%s-%s" (include "gamehall.fullname" .root) .component | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "gamehall.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Labels selecting every pod of this release (the NetworkPolicies' notion of "the platform's pods"). */}}
{{- define "gamehall.selectorLabels" -}}
app.kubernetes.io/name: {{ include "gamehall.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "gamehall.labels" -}}
helm.sh/chart: {{ include "gamehall.chart" . }}
{{ include "gamehall.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: gamehall
{{- end -}}

{{/* Call with (dict "root" $ "component" name). */}}
{{- define "gamehall.componentSelectorLabels" -}}
{{ include "gamehall.selectorLabels" .root }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "gamehall.componentLabels" -}}
{{ include "gamehall.labels" .root }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{/*
Deep merge of two maps as JSON: keys of "override" win, nested maps merge key by key, anything else (lists, false,
0, "") replaces. Sprig's merge/mergeOverwrite cannot override with false or 0, hence this one.
*/}}
{{- define "gamehall.merge" -}}
{{- $out := deepCopy (.base | default dict) -}}
{{- range $key, $value := (.override | default dict) -}}
{{- $current := get $out $key -}}
{{- if and (kindIs "map" $value) (kindIs "map" $current) -}}
{{- $_ := set $out $key (include "gamehall.merge" (dict "base" $current "override" $value) | fromJson) -}}
{{- else -}}
{{- $_ := set $out $key $value -}}
{{- end -}}
{{- end -}}
{{- toJson $out -}}
{{- end -}}

{{/* true unless the entry sets enabled: false (a game added as `rules.games.<id>: {}` is on). */}}
{{- define "gamehall.enabled" -}}
{{- $entry := . | default dict -}}
{{- if hasKey $entry "enabled" -}}{{ $entry.enabled }}{{- else -}}true{{- end -}}
{{- end -}}

{{/*
Every enabled component as JSON: name -> settings (defaults merged with its own entry) plus
"name", "module" and, for rules hosts, "game". Parse with `include "gamehall.components" . | fromJson`.
*/}}
{{- define "gamehall.components" -}}
{{- $out := dict -}}
{{- range $name, $entry := .Values.services -}}
{{- if eq (include "gamehall.enabled" $entry) "true" -}}
{{- $c := include "gamehall.merge" (dict "base" $.Values.defaults "override" $entry) | fromJson -}}
{{- $_ := set $c "name" $name -}}
{{- $_ := set $c "module" (required (printf "services.%s.module is required" $name) $entry.module) -}}
{{- $_ := set $out $name $c -}}
{{- end -}}
{{- end -}}
{{- range $game, $entry := .Values.rules.games -}}
{{- if eq (include "gamehall.enabled" $entry) "true" -}}
{{- if not (regexMatch "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$" $game) -}}
{{- fail (printf "rules.games: %q is not a valid game id (lower-case letters, digits and '-')" $game) -}}
{{- end -}}
{{- $c := include "gamehall.merge" (dict "base" $.Values.defaults "override" $entry) | fromJson -}}
{{- $_ := set $c "name" (printf "rules-%s" $game) -}}
{{- $_ := set $c "module" $.Values.rules.module -}}
{{- $_ := set $c "game" $game -}}
{{- $_ := set $out (printf "rules-%s" $game) $c -}}
{{- end -}}
{{- end -}}
{{- toJson $out -}}
{{- end -}}

{{/* host:port of a component's gRPC Service. Call with (dict "root" $ "component" name). */}}
{{- define "gamehall.grpcAddr" -}}
{{- printf "%s:%v" (include "gamehall.componentName" .) .root.Values.ports.grpc -}}
{{- end -}}

{{/* GAMEHALL_RULES_ADDRS: JSON map game id -> dns:///<headless Service>:port, which the gateway re-resolves to
every ready replica of that game's rules service and spreads live matches over by rendezvous hashing. */}}
{{- define "gamehall.rulesAddrs" -}}
{{- $addrs := dict -}}
{{- range $game, $entry := .Values.rules.games -}}
{{- if eq (include "gamehall.enabled" $entry) "true" -}}
{{- $headless := include "gamehall.componentName" (dict "root" $ "component" (printf "rules-%s-replicas" $game)) -}}
{{- $_ := set $addrs $game (printf "dns:///%s:%v" $headless $.Values.ports.grpc) -}}
{{- end -}}
{{- end -}}
{{- toJson $addrs -}}
{{- end -}}

{{- define "gamehall.natsUrl" -}}
{{- if .Values.bundled.enabled -}}
{{- /* With TLS the bundled NATS serves the platform CA's certificate; services verify it with GAMEHALL_TLS_CA_FILE. */ -}}
{{- printf "%s://%s:4222" (eq .Values.tls.mode "off" | ternary "nats" "tls") (include "gamehall.componentName" (dict "root" . "component" "nats")) -}}
{{- else -}}
{{- required "nats.url is required (or bundled.enabled)" .Values.nats.url -}}
{{- end -}}
{{- end -}}

{{/* The Secret holding the database DSN, and its key. */}}
{{- define "gamehall.databaseSecretName" -}}
{{- if or .Values.bundled.enabled .Values.database.url -}}
{{- include "gamehall.componentName" (dict "root" . "component" "database") -}}
{{- else -}}
{{- required "set database.url, database.existingSecret or bundled.enabled" .Values.database.existingSecret -}}
{{- end -}}
{{- end -}}

{{- define "gamehall.databaseSecretKey" -}}
{{- if or .Values.bundled.enabled .Values.database.url -}}url{{- else -}}{{ .Values.database.existingSecretKey }}{{- end -}}
{{- end -}}

{{- define "gamehall.authSecretName" -}}
{{- .Values.auth.existingSecret | default (include "gamehall.componentName" (dict "root" . "component" "auth")) -}}
{{- end -}}

{{- define "gamehall.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- .Values.serviceAccount.name | default (include "gamehall.fullname" .) -}}
{{- else -}}
{{- .Values.serviceAccount.name | default "default" -}}
{{- end -}}
{{- end -}}

{{/*
Image reference; call with (dict "root" $ "c" component). A component's `image` overrides the global one, and a
component that names its own tag or repository does not inherit the global digest.
*/}}
{{- define "gamehall.image" -}}
{{- $own := .c.image | default dict -}}
{{- $image := include "gamehall.merge" (dict "base" .root.Values.image "override" $own) | fromJson -}}
{{- if and (or (hasKey $own "tag") (hasKey $own "repository")) (not (hasKey $own "digest")) -}}
{{- $_ := set $image "digest" "" -}}
{{- end -}}
{{- if $image.digest -}}
{{- printf "%s@%s" $image.repository $image.digest -}}
{{- else -}}
{{- printf "%s:%s" $image.repository ($image.tag | default .root.Chart.AppVersion) -}}
{{- end -}}
{{- end -}}

{{- define "gamehall.imagePullPolicy" -}}
{{- $image := include "gamehall.merge" (dict "base" .root.Values.image "override" (.c.image | default dict)) | fromJson -}}
{{- $image.pullPolicy -}}
{{- end -}}

{{/* Rolls the pods when configuration they read at start changes. */}}
{{- define "gamehall.configChecksum" -}}
{{- toJson (list .Values.config .Values.nats .Values.database .Values.auth .Values.bundled.enabled .Values.rules.games) | sha256sum -}}
{{- end -}}

{{/*
The container environment of one component; call with (dict "root" $ "c" component).
Plain settings first (config.extraEnv, then the component's env, override them), then the secrets it is granted.
*/}}
{{- define "gamehall.env" -}}
{{- $root := .root -}}
{{- $c := .c -}}
{{- $vars := dict
  "GAMEHALL_SERVICE" $c.name
  "GAMEHALL_ENVIRONMENT" "production"
  "GAMEHALL_HOST" "0.0.0.0"
  "GAMEHALL_GRPC_PORT" (toString $root.Values.ports.grpc)
  "GAMEHALL_METRICS_PORT" (toString $root.Values.ports.metrics)
  "GAMEHALL_LOG_FORMAT" "json"
  "GAMEHALL_LOG_LEVEL" $root.Values.config.logLevel
  "GAMEHALL_DATA_DIR" $root.Values.config.dataDir
  "GAMEHALL_GRACE_SECONDS" (toString $root.Values.config.graceSeconds)
  "GAMEHALL_NATS_URL" (include "gamehall.natsUrl" $root)
  "GAMEHALL_JETSTREAM_REPLICAS" (ternary "1" (toString ($root.Values.nats.streamReplicas | default 1)) $root.Values.bundled.enabled)
  "GAMEHALL_PERSISTENCE_ADDR" (include "gamehall.grpcAddr" (dict "root" $root "component" "persistence"))
  "GAMEHALL_MATCHMAKING_ADDR" (include "gamehall.grpcAddr" (dict "root" $root "component" "matchmaking"))
  "GAMEHALL_GATEWAY_ADDR" (include "gamehall.grpcAddr" (dict "root" $root "component" "gateway"))
  "GAMEHALL_RULES_ADDRS" (include "gamehall.rulesAddrs" $root)
-}}
{{- if $c.game -}}
{{- $_ := set $vars "GAMEHALL_GAME" $c.game -}}
{{- end -}}
{{- if eq $root.Values.tls.mode "off" -}}
{{- $_ := set $vars "GAMEHALL_ALLOW_PLAINTEXT" "true" -}}
{{- else -}}
{{- $_ := set $vars "GAMEHALL_TLS_CERT_FILE" "/etc/gamehall/tls/tls.crt" -}}
{{- $_ := set $vars "GAMEHALL_TLS_KEY_FILE" "/etc/gamehall/tls/tls.key" -}}
{{- $_ := set $vars "GAMEHALL_TLS_CA_FILE" "/etc/gamehall/tls/ca.crt" -}}
{{- $_ := set $vars "GAMEHALL_HEALTH_PORT" (toString $root.Values.tls.healthPort) -}}
{{- if eq $c.name "gateway" -}}
{{- $_ := set $vars "GAMEHALL_PUBLIC_TLS_CERT_FILE" "/etc/gamehall/public-tls/tls.crt" -}}
{{- $_ := set $vars "GAMEHALL_PUBLIC_TLS_KEY_FILE" "/etc/gamehall/public-tls/tls.key" -}}
{{- end -}}
{{- end -}}
{{- if and $root.Values.bundled.enabled (ne (toString $c.nats) "false") -}}
{{- $_ := set $vars "GAMEHALL_NATS_USER" $c.name -}}
{{- end -}}
{{- if $c.http -}}
{{- $_ := set $vars "GAMEHALL_HTTP_PORT" (toString $root.Values.ports.http) -}}
{{- end -}}
{{- range $name, $value := $root.Values.config.extraEnv -}}
{{- $_ := set $vars $name (toString $value) -}}
{{- end -}}
{{- range $name, $value := $c.env -}}
{{- $_ := set $vars $name (toString $value) -}}
{{- end -}}
{{- range $name := keys $vars | sortAlpha }}
- name: {{ $name }}
  value: {{ get $vars $name | quote }}
{{- end -}}
{{- if $c.game }}
{{- /* A rules replica announces the address the gateways route to it by (the headless Service resolves to pod
IPs), so the replicas agree on who owns which match's clock timers. */}}
- name: GAMEHALL_POD_IP
  valueFrom:
    fieldRef:
      fieldPath: status.podIP
- name: GAMEHALL_ADVERTISE_ADDR
  value: {{ printf "$(GAMEHALL_POD_IP):%v" $root.Values.ports.grpc | quote }}
{{- end -}}
{{- range $secret := $c.secrets -}}
{{- if eq $secret "database" }}
- name: GAMEHALL_DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "gamehall.databaseSecretName" $root }}
      key: {{ include "gamehall.databaseSecretKey" $root }}
{{- else if eq $secret "tokenKey" }}
- name: GAMEHALL_TOKEN_KEY
  valueFrom:
    secretKeyRef:
      name: {{ include "gamehall.authSecretName" $root }}
      key: token-key
{{- else if eq $secret "operatorPassword" }}
- name: GAMEHALL_OPERATOR_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ include "gamehall.authSecretName" $root }}
      key: operator-password
      optional: true
{{- else -}}
{{- fail (printf "%s: unknown secret %q (database, tokenKey or operatorPassword)" $c.name $secret) -}}
{{- end -}}
{{- end -}}
{{- if and $root.Values.bundled.enabled (ne (toString $c.nats) "false") }}
- name: GAMEHALL_NATS_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ include "gamehall.natsUsersSecretName" $root }}
      key: {{ $c.name }}
{{- end -}}
{{- end -}}

{{/* The bundled NATS's per-service passwords (templates/bundled-nats-users.yaml). */}}
{{- define "gamehall.natsUsersSecretName" -}}
{{- printf "%s-users" (include "gamehall.componentName" (dict "root" . "component" "nats")) -}}
{{- end -}}

{{/* Scratch volumes of a read-only-root pod; call with (dict "root" $ "c" component). */}}
{{- define "gamehall.volumes" -}}
- name: tmp
  emptyDir:
    medium: Memory
    sizeLimit: 64Mi
- name: data
  emptyDir:
    sizeLimit: {{ .c.dataVolume.sizeLimit }}
{{- if ne .root.Values.tls.mode "off" }}
- name: tls
  secret:
    secretName: {{ include "gamehall.tlsSecretName" (dict "root" .root "component" .c.name) }}
    defaultMode: 0440
{{- if eq .c.name "gateway" }}
- name: public-tls
  secret:
    secretName: {{ include "gamehall.publicTlsSecretName" .root }}
    defaultMode: 0440
{{- end }}
{{- end }}
{{- end -}}

{{/* The Secret holding a component's mTLS certificate (tls.crt, tls.key, ca.crt). */}}
{{- define "gamehall.tlsSecretName" -}}
{{- printf "%s-tls" (include "gamehall.componentName" .) -}}
{{- end -}}

{{- define "gamehall.publicTlsSecretName" -}}
{{- .Values.tls.public.secretName | default (printf "%s-public-tls" (include "gamehall.componentName" (dict "root" . "component" "gateway"))) -}}
{{- end -}}

{{- define "gamehall.volumeMounts" -}}
- name: tmp
  mountPath: /tmp
- name: data
  mountPath: {{ .root.Values.config.dataDir }}
{{- if ne .root.Values.tls.mode "off" }}
- name: tls
  mountPath: /etc/gamehall/tls
  readOnly: true
{{- if eq .c.name "gateway" }}
- name: public-tls
  mountPath: /etc/gamehall/public-tls
  readOnly: true
{{- end }}
{{- end }}
{{- end -}}

{{/* Pod-level scheduling keys shared by Deployments and the migration Job. */}}
{{- define "gamehall.scheduling" -}}
{{- with .c.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .c.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .c.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/* One gRPC health probe; call with (dict "root" $ "c" component "probe" settings). */}}
{{- define "gamehall.grpcProbe" -}}
grpc:
  {{- /* With TLS the kubelet (which cannot present a certificate) asks the plaintext health-only port. */}}
  port: {{ eq .root.Values.tls.mode "off" | ternary .root.Values.ports.grpc .root.Values.tls.healthPort }}
  service: {{ .c.probes.service | quote }}
{{ toYaml .probe }}
{{- end -}}
