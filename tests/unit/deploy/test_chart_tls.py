"""The chart's transport security (tls.mode): off declares plaintext; cert-manager (ci/all-features.yaml) gives every
service a Certificate naming it (the identity gamehall.runtime.callers checks) and its Service names, mounts it
read-only as whole Secret volumes (a subPath mount would never see a renewal), points the service's settings at
the files, and probes the plaintext health-only port."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from gamehall.launcher.nats import nats_server_binary


def _deployments(manifests: list[Any]) -> dict[str, dict[str, Any]]:
    return {m.labels["app.kubernetes.io/component"]: m.doc for m in manifests if m.kind == "Deployment"}


def _env(doc: dict[str, Any]) -> dict[str, str]:
    return {e["name"]: e.get("value", "") for e in doc["spec"]["template"]["spec"]["containers"][0]["env"]}


def test_off_declares_plaintext_and_mounts_nothing(rendered: dict) -> None:
    for name, doc in _deployments(rendered["default"]).items():
        env = _env(doc)
        assert env.get("GAMEHALL_ALLOW_PLAINTEXT") == "true", name
        assert not any(k.startswith("GAMEHALL_TLS_") for k in env), name
    assert not {m.kind for m in rendered["default"]} & {"Certificate", "Issuer"}


def test_cert_manager_gives_each_service_its_identity(rendered: dict) -> None:
    manifests = rendered["all-features"]
    certificates = {m.doc["spec"]["secretName"]: m.doc["spec"] for m in manifests if m.kind == "Certificate"}
    for name, doc in _deployments(manifests).items():
        env = _env(doc)
        assert "GAMEHALL_ALLOW_PLAINTEXT" not in env, name
        assert env["GAMEHALL_TLS_CERT_FILE"] == "/etc/gamehall/tls/tls.crt"
        pod = doc["spec"]["template"]["spec"]
        secret = next(v["secret"]["secretName"] for v in pod["volumes"] if v["name"] == "tls")
        spec = certificates[secret]
        assert spec["uris"] == [f"spiffe://gamehall/{name}"] and spec["commonName"] == name
        assert doc["metadata"]["name"] in spec["dnsNames"]  # the Service shares the Deployment's name
        assert {"server auth", "client auth"} <= set(spec["usages"])
        container = pod["containers"][0]
        assert {"name": "tls", "mountPath": "/etc/gamehall/tls", "readOnly": True} in container["volumeMounts"]
        for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
            assert container[probe]["grpc"]["port"] == int(env["GAMEHALL_HEALTH_PORT"])
        if name.startswith("rules-"):
            assert f"{doc['metadata']['name']}-replicas" in spec["dnsNames"]  # the gateway dials the headless name
        if name == "gateway":
            assert env["GAMEHALL_PUBLIC_TLS_CERT_FILE"] == "/etc/gamehall/public-tls/tls.crt"
            public_mount = {"name": "public-tls", "mountPath": "/etc/gamehall/public-tls", "readOnly": True}
            assert public_mount in container["volumeMounts"]  # a whole volume (no subPath): renewals reach it
    public = next(s for s in certificates.values() if "play.example.com" in s.get("dnsNames", []))
    assert public["issuerRef"]["name"] == "letsencrypt" and "client auth" not in public["usages"]


def test_the_chart_makes_its_own_ca_without_an_issuer(rendered: dict) -> None:
    issuers = {m.doc["metadata"]["name"]: m.doc["spec"] for m in rendered["all-features"] if m.kind == "Issuer"}
    assert any("selfSigned" in spec for spec in issuers.values())
    assert any("ca" in spec for spec in issuers.values())


@pytest.fixture(scope="module")
def bundled_tls() -> list[Any]:
    """One render of the bundled NATS and PostgreSQL with cert-manager TLS (both bundled checks read it)."""
    from deploycheck import chart

    return list(chart.render({"bundled": {"enabled": True}, "tls": {"mode": "cert-manager"}}))


def test_the_bundled_nats_serves_tls_with_the_platform_ca(bundled_tls: list[Any]) -> None:
    nats = next(
        m.doc for m in bundled_tls if m.kind == "StatefulSet" and m.labels["app.kubernetes.io/component"] == "nats"
    )
    args = nats["spec"]["template"]["spec"]["containers"][0]["args"]
    assert args[args.index("--tlscert") + 1] == "/etc/nats/tls/tls.crt"
    secret = next(v for v in nats["spec"]["template"]["spec"]["volumes"] if v["name"] == "tls")["secret"]["secretName"]
    assert any(m.kind == "Certificate" and m.doc["spec"]["secretName"] == secret for m in bundled_tls)
    for name, doc in _deployments(bundled_tls).items():
        assert _env(doc)["GAMEHALL_NATS_URL"].startswith("tls://"), name


def test_the_bundled_nats_has_one_user_per_service_that_nats_server_accepts(
    bundled_tls: list[Any], tmp_path: Path
) -> None:
    config = next(
        m.doc for m in bundled_tls if m.kind == "Secret" and m.doc["metadata"]["name"].endswith("users-config")
    )
    users = config["stringData"]["users.conf"]
    for name, doc in _deployments(bundled_tls).items():
        env = _env(doc)
        if name == "web":  # it forwards to the gateway and never touches NATS: no user, no password
            assert "GAMEHALL_NATS_USER" not in env and "GAMEHALL_NATS_PASSWORD" not in env
            assert '{user: "web"' not in users
            continue
        assert env["GAMEHALL_NATS_USER"] == name and f'{{user: "{name}", password: ' in users
    path = tmp_path / "users.conf"
    path.write_text(users)
    checked = subprocess.run([nats_server_binary(), "-c", str(path), "-t"], capture_output=True, text=True, timeout=30)
    assert checked.returncode == 0, checked.stderr + checked.stdout
