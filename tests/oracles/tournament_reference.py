"""The share of first place in a tournament, straight from its definition (pure Python).

A final score ``a`` among ``n`` players, the ``n - 1`` others independent draws from a
distribution: ``j`` of them level with ``a`` and the rest below has probability
``C(n-1, j) p^j F^(n-1-j)`` (``F = P(other < a)``, ``p = P(other = a)``), and the first
place is then shared among ``j + 1``. The share is the sum of those terms over ``j``,
each term worked out in logarithms (the binomial coefficient built factor by factor)
so that no power under- or overflows, summed with ``math.fsum``; the terms beyond the
largest that fall below 1e-40 of the sum are left out (a binomial's terms only shrink
from there on). No closed form.
"""

from __future__ import annotations

import math


def tournament_share(distribution: list[float], players: int, a: int) -> float:
    """The expected share of first place of the final score ``a`` (``distribution``
    sums to 1: ``F`` is worked out as 1 less the mass at and above ``a``, in ``log1p``,
    so that its logarithm keeps its digits when ``F`` is near 1 and ``n`` large)."""
    at_or_above = math.fsum(distribution[a:])
    below = 1.0 - at_or_above
    before = math.fsum(distribution[:a])
    log_below = math.log1p(-at_or_above) if at_or_above < 0.5 else \
        math.log(before) if before > 0.0 else -math.inf
    level = distribution[a] if 0 <= a < len(distribution) else 0.0
    others = players - 1
    if level == 0.0:
        return math.exp(others * log_below)
    if below <= 0.0 or log_below == -math.inf:
        return level ** others / players
    terms: list[float] = []
    best = -math.inf
    log_comb = 0.0  # log C(others, j), built term by term (no lgamma of a large n)
    for j in range(others + 1):
        if j:
            log_comb += math.log((others - j + 1) / j)
        log_term = (log_comb + j * math.log(level) + (others - j) * log_below
                    - math.log(j + 1))
        best = max(best, log_term)
        if log_term < best - 92.0 and j > others * level / (level + max(below, 0.0)) + 1:
            break  # 1e-40 of the largest term, past the mode: the rest only shrink
        terms.append(math.exp(log_term))
    return math.fsum(terms)


def tournament_utility(distribution: list[float], players: int) -> list[float]:
    """The share of every final score 0 .. len(distribution) (the last: above them all)."""
    return [tournament_share(distribution, players, a) for a in range(len(distribution) + 1)]
