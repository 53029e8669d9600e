"""Statistics of surveys: the Wilson score interval of a win rate, and the range it widens to
when some deals are undecided."""

from __future__ import annotations

import math

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (0, 1 when there are no trials); the
    successes may be a sum of outcomes between 0 and 1 (its interval is then wide enough: such a
    mean varies at most as a proportion of the same mean does)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # At p = 0 the lower bound is exactly 0 and at p = 1 the upper exactly 1; floating point
    # gave 0.9999999999999999 for 30 of 30 deals.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    return low, 1.0 if successes == trials else min(1.0, centre + half)


def rate_range(successes: int, undecided: int, trials: int, *, z: float = Z95) -> tuple[float, float]:
    """Where the rate lies when ``undecided`` trials could go either way: from the Wilson lower
    bound of ``successes`` to the Wilson upper bound of ``successes + undecided`` (the two-sided
    range Solvitaire's ``--solvability`` reports); the plain interval when nothing is undecided."""
    return wilson(successes, trials, z)[0], wilson(successes + undecided, trials, z)[1]


def nearest_rank(count: int, share: float) -> int:
    """The 0-based position, in ascending order, of the ``share`` quantile of ``count`` values by
    the nearest-rank method (the smallest value with at least that share at or below it)."""
    return max(0, math.ceil(share * count) - 1)
