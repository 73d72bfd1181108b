"""Where the deployment files live, and which Kubernetes versions the chart is validated against."""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
DEPLOY_DIR = REPO_ROOT / "deploy"
CHART_DIR = REPO_ROOT / "helm" / "gamehall"
CI_VALUES_DIR = CHART_DIR / "ci"
DASHBOARD_PATH = CHART_DIR / "dashboards" / "gamehall.json"
COMPOSE_PATH = DEPLOY_DIR / "compose.yaml"
PROMETHEUS_CONFIG_PATH = DEPLOY_DIR / "prometheus" / "prometheus.yml"

# The chart's minimum (Chart.yaml kubeVersion, for native preStop sleep) and the newest schema bundled with
# kubernetes-validate.
KUBE_VERSIONS = ("1.30.0", "1.37.0")

RELEASE = "gamehall"
NAMESPACE = "games"
