"""The chart's web service: its HTTP port on the pod and its Service, and an Ingress to it that is off by default."""

from __future__ import annotations

import helm_python
import pytest
from deploycheck import chart

from tests.unit.deploy.support import find


def _container(manifests: list[chart.Manifest], component: str = "web") -> dict:
    container: dict = find(manifests, "Deployment", component).doc["spec"]["template"]["spec"]["containers"][0]
    return container


def test_the_web_service_serves_http_on_its_own_port(rendered: dict) -> None:
    container = _container(rendered["default"])
    assert {"name": "http", "containerPort": 8080, "protocol": "TCP"} in container["ports"]
    env = {e["name"]: e.get("value") for e in container["env"]}
    assert env["GAMEHALL_HTTP_PORT"] == "8080" and env["GAMEHALL_GATEWAY_ADDR"] == "gamehall-gateway:50051"
    service = find(rendered["default"], "Service", "web").doc
    assert {"name": "http", "port": 8080, "targetPort": "http"}.items() <= next(
        p for p in service["spec"]["ports"] if p["name"] == "http"
    ).items()
    gateway = _container(rendered["default"], "gateway")
    assert all(p["name"] != "http" for p in gateway["ports"])


def test_the_ingress_is_off_by_default_and_routes_to_the_web_http_port(rendered: dict) -> None:
    assert not [m for m in rendered["default"] if m.kind == "Ingress"]
    ingress = find(rendered["all-features"], "Ingress", "web").doc
    assert ingress["spec"]["ingressClassName"] == "nginx"
    path = ingress["spec"]["rules"][0]["http"]["paths"][0]
    assert path["backend"]["service"] == {"name": "gamehall-web", "port": {"name": "http"}}
    assert ingress["spec"]["tls"][0]["hosts"] == ["games.example.org"]
    assert ingress["metadata"]["annotations"]["nginx.ingress.kubernetes.io/proxy-buffering"] == "off"


def test_an_ingress_without_the_web_service_is_refused() -> None:
    with pytest.raises(helm_python.HelmError, match=r"needs services\.web"):
        chart.render({"ingress": {"enabled": True}, "services": {"web": {"enabled": False}}})
