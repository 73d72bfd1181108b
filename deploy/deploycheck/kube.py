"""Validate rendered manifests against the Kubernetes OpenAPI schemas (kubernetes-validate, strict mode)."""

from __future__ import annotations

from collections.abc import Iterable

from kubernetes_validate import utils as kubernetes_validate

from deploycheck.chart import Manifest

# Custom resources of the Prometheus Operator: no schema in kubernetes-validate; deploycheck.crds checks them.
# cert-manager's Certificate and Issuer (tls.mode=cert-manager) have no offline schema either.
CRD_KINDS = frozenset({"ServiceMonitor", "PrometheusRule", "Certificate", "Issuer"})


def validate_manifests(manifests: Iterable[Manifest], kube_version: str) -> tuple[list[str], int]:
    """Strict schema problems of every non-CRD manifest (unknown fields are errors), and how many were validated."""
    problems: list[str] = []
    validated = 0
    for manifest in manifests:
        if manifest.kind in CRD_KINDS:
            continue
        try:
            kubernetes_validate.validate(manifest.doc, kube_version, strict=True)
        except kubernetes_validate.ValidationError as error:
            path = ".".join(str(part) for part in error.path)
            problems.append(f"{manifest} ({manifest.template}): {path}: {error.message}")
        except kubernetes_validate.SchemaNotFoundError as error:
            problems.append(f"{manifest} ({manifest.template}): {error.message}")
        validated += 1
    return problems, validated
