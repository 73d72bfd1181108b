#!/usr/bin/env python3
"""Check gamehall's deployment offline: render and lint the Helm chart, validate every manifest against the
Kubernetes schemas, inspect NetworkPolicies, alerts, the Grafana dashboard, metric names and compose.yaml.

Run with the project's venv: `.venv/bin/python deploy/check_chart.py`; exits 1 on any problem.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from deploycheck.run import main

if __name__ == "__main__":
    sys.exit(main())
