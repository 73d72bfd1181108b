"""Win-rate statistics for bot matches: the Wilson score interval and a sequential test (SPRT)."""

from __future__ import annotations

import math
from dataclasses import dataclass

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


@dataclass(frozen=True)
class Sprt:
    """Wald's sequential probability ratio test of H0 "rate = p0" against H1 "rate = p1".

    Each match adds its score x in [0, 1] (a tie counts half) as x·ln(p1/p0) + (1-x)·ln((1-p1)/(1-p0))
    to the log-likelihood ratio; the test accepts H1 once it reaches ln((1-beta)/alpha) and H0 once it
    falls to ln(beta/(1-alpha)), so a clear difference is settled after a handful of matches. Counting
    a tie as half a win is the usual extension to drawn games; it errs on the side of more matches.
    """

    p0: float = 0.5
    p1: float = 0.75
    alpha: float = 0.05
    """The chance of accepting H1 when the rate is really p0 (a false "stronger")."""
    beta: float = 0.05
    """The chance of accepting H0 when the rate is really p1 (a missed "stronger")."""

    def __post_init__(self) -> None:
        if not 0 < self.p0 < self.p1 < 1:
            raise ValueError(f"need 0 < p0 < p1 < 1, got p0={self.p0} p1={self.p1}")
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise ValueError("alpha and beta must lie in (0, 0.5)")

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / self.alpha)

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    def llr(self, score: float, trials: int) -> float:
        """The log-likelihood ratio of H1 over H0 after `trials` matches scoring `score` in total."""
        win = math.log(self.p1 / self.p0)
        loss = math.log((1 - self.p1) / (1 - self.p0))
        return score * win + (trials - score) * loss

    def decide(self, score: float, trials: int) -> str | None:
        """"H1" or "H0" once the evidence crosses a bound, else None (play on)."""
        value = self.llr(score, trials)
        if value >= self.upper:
            return "H1"
        if value <= self.lower:
            return "H0"
        return None
