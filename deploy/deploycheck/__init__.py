"""Offline checks of gamehall's deployment: the Helm chart, compose stack, alerts and Grafana dashboard.

`deploy/check_chart.py` runs them all and prints a table; tests/unit/deploy calls the same functions.
"""
