"""Which turn-start states ``(mask, upper, flag)`` can occur (pure numpy, no kernels)."""

from __future__ import annotations

from functools import cache, lru_cache

import numpy as np

from .dice import ROLL_INDEX
from .rules import N_UPPER, UPPER_TARGET, RuleSet


def reachable_upper_totals() -> np.ndarray:
    """(64, 64) bool: ``[upper mask, u]`` is True when the filled upper boxes of
    ``upper mask`` can add up to ``u`` (capped at 63). (A copy of the one worked out
    once: every target solve and its plan asks for it.)"""
    return _reachable_upper_totals().copy()


@cache
def _reachable_upper_totals() -> np.ndarray:
    reach = np.zeros((1 << N_UPPER, UPPER_TARGET + 1), dtype=np.bool_)
    reach[0, 0] = True
    for upper_mask in range(1, 1 << N_UPPER):
        low = (upper_mask & -upper_mask).bit_length() - 1
        before = reach[upper_mask & ~(1 << low)]
        face = low + 1
        for u in np.flatnonzero(before):
            for k in range(6):
                reach[upper_mask, min(UPPER_TARGET, int(u) + k * face)] = True
    return reach


def upper_classes(reach: np.ndarray | None = None) -> np.ndarray:
    """(64, 64) int64: ``[upper mask, u]`` -> the subtotal whose value ``u`` shares, or -1.

    Subtotals from which 63 can no longer be reached (even with five of each open face)
    all have the same values, and so do all subtotals once the upper section is full:
    each such class is solved once, at its smallest member.
    """
    if reach is None:
        return _upper_classes().copy()
    classes = np.full(reach.shape, -1, dtype=np.int64)
    for upper_mask in range(reach.shape[0]):
        remaining = sum(5 * (f + 1) for f in range(N_UPPER) if not upper_mask >> f & 1)
        totals = np.flatnonzero(reach[upper_mask])
        hopeless = totals[totals + remaining < UPPER_TARGET]
        for u in totals:
            if remaining == 0:
                classes[upper_mask, u] = totals[0]
            elif u + remaining < UPPER_TARGET:
                classes[upper_mask, u] = hopeless[0]
            else:
                classes[upper_mask, u] = u
    return classes


@cache
def _upper_classes() -> np.ndarray:
    return upper_classes(_reachable_upper_totals())


@cache
def reachable_states(rules: RuleSet) -> np.ndarray:
    """``rules.table_shape`` bool, read-only: True where a state can occur, i.e. where a
    table holds a finite value (and NaN everywhere else).

    The upper subtotal must be a sum the filled upper boxes can make; flag 1 ("the
    Yahtzee box holds 50") needs the Yahtzee box filled.
    """
    masks = np.arange(rules.n_masks)
    upper = reachable_upper_totals()[masks & ((1 << N_UPPER) - 1)]
    out = np.repeat(upper[:, :, None], rules.n_flags, axis=2)
    if rules.n_flags == 2:
        yahtzee_open = (masks >> rules.yahtzee_box & 1) == 0
        out[yahtzee_open, :, 1] = False
    out.flags.writeable = False
    return out


@cache
def _five_alike_rolls() -> tuple[int, ...]:
    """Roll index (``dice.ROLLS``) of five alike of each face 1..6."""
    return tuple(ROLL_INDEX[tuple(5 if i == f else 0 for i in range(6))] for f in range(6))


@cache
def _ordinary_points(rules: RuleSet) -> tuple[frozenset[int], ...]:
    """Per box, the points a roll that is not five alike can score there."""
    five = set(_five_alike_rolls())
    rows = [r for r in range(rules.scores.shape[0]) if r not in five]
    return tuple(frozenset(int(v) for v in rules.scores[rows, b]) for b in range(rules.n_boxes))


@lru_cache(maxsize=4096)
def bonus_counts(rules: RuleSet, entries: tuple[int | None, ...]) -> int:
    """The Yahtzee-bonus counts some game reaches with these entries, as a bit set
    (bit ``n`` set: ``n`` bonuses possible; 0 when no game fills the boxes so).

    Every order of filling the boxes is tried (a search over the subsets of the filled
    boxes). A box takes its entry from a roll that is not five alike, or from five
    alike of some face; once the Yahtzee box is filled, five alike follow the Joker of
    the rules (which boxes, how many points) and, if the box holds 50, earn a bonus.
    So under the forced Joker a bonus needs the upper box of its face open (it takes
    that box, 5 x face) or already filled (then a lower box, or an upper box for 0).
    """
    n = rules.n_boxes
    full = sum(1 << b for b in range(n) if entries[b] is not None)
    yz = rules.yahtzee_box
    pays = rules.n_flags == 2 and entries[yz] == 50
    ordinary, fives = _ordinary_points(rules), _five_alike_rolls()

    def fits(points: np.ndarray) -> int:  # the filled boxes b whose entry is points[b]
        return sum(1 << b for b in range(n) if full >> b & 1 and points[b] == entries[b])

    plain = sum(1 << b for b in range(n) if full >> b & 1 and entries[b] in ordinary[b])
    five = [fits(rules.scores[fives[f]]) for f in range(6)]
    tiers = [[sum(1 << b for b in range(n) if rules.joker_tier[f, b] == t)
              for t in range(int(rules.joker_tier.max()) + 1)] for f in range(6)]
    joker_fit = [[fits(rules.joker_points[g, f]) for f in range(6)] for g in range(2)]
    reach = {0: 1}
    for mask in sorted(_submasks(full)):
        counts = reach.get(mask, 0)
        if not counts or mask == full:
            continue
        todo = full & ~mask
        same = plain
        bumped = 0
        if rules.has_joker and mask >> yz & 1:
            open_boxes = ~mask & ((1 << n) - 1)
            for f in range(6):
                allowed = next((t & open_boxes for t in tiers[f] if t & open_boxes), 0)
                fit = allowed & joker_fit[mask >> f & 1][f]
                if pays:
                    bumped |= fit
                else:
                    same |= fit
        else:
            for f in range(6):
                same |= five[f]
        for targets, added in ((same & todo, counts), (bumped & todo, counts << 1)):
            while targets:
                bit = targets & -targets
                targets ^= bit
                reach[mask | bit] = reach.get(mask | bit, 0) | added
    return reach.get(full, 0)


def _submasks(full: int) -> list[int]:
    out = []
    sub = full
    while True:
        out.append(sub)
        if sub == 0:
            return out
        sub = (sub - 1) & full
