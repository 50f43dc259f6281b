"""The one order of every "best": which option wins when several are equally good.

An option of a turn is a keep (0 to 4 dice, while rolls are left) or a box (scoring the
dice now). Every ranking of options (``advise``, the strategy sheet, ``analyze``, the
statistics, the simulator, the target strategy) follows these rules:

1. The higher value of the objective first: the expected final score, or a probability
   (reaching a target, winning). Values within the objective's tolerance (``EV_TIE``
   points, ``P_TIE`` for a probability) are equal: mathematically equal values may
   differ in their last bits.
2. Among options equal by a probability, the higher expected final score (within
   ``EV_TIE``).
3. Then the fixed order :func:`rank`: keeps before boxes; keeps by keep index (fewest
   dice first, then by their faces, lowest first: ``solver.game.dice``); boxes in
   scorecard order.

Keeping all five dice while rolls are left is scoring now: it ranks after every keep of
fewer dice, with the boxes. This order gives the published standard deviation 59.6079
of the official rules (keeps with the most dice first would give 59.6076).

:func:`ranked` is the whole ranking (plain Python, for the advisor); :func:`best` its
first option (compiled for the kernels by :mod:`solver.kernels.readout`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .dice import N_KEEPS

EV_TIE = 1e-9
"""Expected scores closer than this (points) are equal."""
P_TIE = 1e-12
"""Probabilities closer than this are equal."""


def rank(keep: int, box: int) -> int:
    """The fixed order of an option (lower first): a keep's index (0 to 4 dice), or
    ``N_KEEPS + box`` for a box (``keep`` is then ignored)."""
    return N_KEEPS + box if box >= 0 else keep


def best(values: Sequence[float], evs: Sequence[float], ranks: Sequence[int], n: int,
         tie: float) -> int:
    """The index of the best of options ``0 .. n-1`` (``n >= 1``): of those whose value
    is within ``tie`` of the largest, those whose expected final score is within
    ``EV_TIE`` of their largest; of those the lowest rank. (``top - v <= tie`` is the
    one comparison, in :func:`ranked` too.)"""
    top = values[0]
    for i in range(1, n):
        top = max(top, values[i])
    top_ev = -1e300
    for i in range(n):
        if top - values[i] <= tie:
            top_ev = max(top_ev, evs[i])
    pick = -1
    for i in range(n):
        if top - values[i] <= tie and top_ev - evs[i] <= EV_TIE and \
                (pick < 0 or ranks[i] < ranks[pick]):
            pick = i
    return pick


def ranked(values: Sequence[float], evs: Sequence[float], ranks: Sequence[int],
           tie: float) -> list[int]:
    """Every option's index, best first (the first is :func:`best`): by value, highest
    first, where the values within ``tie`` of the first of a run count as equal; inside
    a run by expected final score the same way (``EV_TIE``); inside that by rank."""
    order = sorted(range(len(values)), key=lambda i: -values[i])
    return [i for run in _runs(order, values, tie)
            for ev_run in _runs(sorted(run, key=lambda i: -evs[i]), evs, EV_TIE)
            for i in sorted(ev_run, key=lambda i: ranks[i])]


def _runs(order: list[int], values: Sequence[float], tie: float) -> list[list[int]]:
    """``order`` (by value, highest first) cut into runs within ``tie`` of their first."""
    runs: list[list[int]] = []
    for i in order:
        if runs and values[runs[-1][0]] - values[i] <= tie:
            runs[-1].append(i)
        else:
            runs.append([i])
    return runs
