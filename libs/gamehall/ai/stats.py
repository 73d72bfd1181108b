"""Win-rate statistics for bot matches: the Wilson score interval."""

from __future__ import annotations

import math

Z95 = 1.959963984540054
"""The 97.5% quantile of the standard normal: two-sided 95% confidence."""


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion; `successes` may be fractional (a tie counts half).

    Unlike the normal approximation it stays inside [0, 1] and behaves at rates near 0 or 1.
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return (low, high)
