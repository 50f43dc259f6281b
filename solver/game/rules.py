"""Rule sets as data: boxes, score tables, bonuses and the Joker procedure.

A :class:`RuleSet` holds everything the kernels need as plain arrays, so a variant of
the rule book (docs/rules.md) is a new ``RuleSet``, never a new kernel:

- ``scores[r, b]``: points of roll ``r`` (index into ``dice.ROLLS``) in box ``b`` for an
  ordinary placement.
- The Joker, which applies to five alike when the rule set has one and the Yahtzee box is
  filled: ``joker_tier[f, b]`` and ``joker_points[g, f, b]`` for face ``f + 1``, where ``g``
  is 1 when the upper box of that face is filled. The allowed boxes are the open boxes of
  the lowest tier that has any open box; each scores ``joker_points``.
- The Yahtzee bonus: ``yahtzee_bonus`` points for five alike when the Yahtzee box holds 50.
  Only rule sets with a bonus track the "holds 50" flag (``n_flags == 2``).
- The upper bonus: ``upper_bonus`` points once the upper entries reach ``UPPER_TARGET``;
  upper subtotals are capped there, so a state has ``UPPER_TARGET + 1`` subtotals.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import NamedTuple

import numpy as np

from ..errors import IllegalMoveError, InvalidCardError, UnknownRulesError, shown
from . import boxes as bx
from .dice import FACES, N_ROLLS, ROLL_COUNTS, ROLL_FIVE_FACE, ROLL_INDEX, counts_of

UPPER_TARGET = 63
N_UPPER = 6
DEFAULT_RULES = "official"
_JOKER_FIXED_POINTS = {"full_house": 25, "small_straight": 30, "large_straight": 40}


def next_state(m: int, u: int, y: int, b: int, e: int, upper_bonus: float, yahtzee_box: int,
               n_flags: int) -> tuple[int, int, int, float]:
    """Entering ``e`` points in open box ``b`` in state (m, u, y): (next mask, next capped
    upper subtotal, next flag, upper bonus earned now).

    The one place this transition is coded: plain Python, compiled for the kernels by
    :mod:`solver.kernels.basics` and called as is by :meth:`RuleSet.after_box`.
    """
    nu = u
    ny = y
    bonus = 0.0
    if b < N_UPPER:
        nu = min(UPPER_TARGET, u + e)
        if u < UPPER_TARGET <= u + e:
            bonus = upper_bonus
    elif b == yahtzee_box and e > 0 and n_flags == 2:
        ny = 1
    return m | (1 << b), nu, ny, bonus


def joker_lowest_tier(f: int, m: int, joker_tier: np.ndarray) -> int:
    """The Joker's tier for five alike of face index ``f`` under filled mask ``m``: the
    lowest ``joker_tier[f, b]`` of an open box ``b``. The Joker allows exactly the open
    boxes of this tier. Plain Python, compiled for the kernels by :mod:`solver.kernels.basics`."""
    low = 1 << 30
    for b in range(joker_tier.shape[1]):
        if not (m >> b & 1) and joker_tier[f, b] < low:
            low = joker_tier[f, b]
    return low


Entries = tuple[int | None, ...] | list[int | None]
"""The entry of each box in scorecard order, None while open."""


def filled_mask(entries: Entries) -> int:
    """The filled-boxes mask of a card: bit ``b`` set when box ``b`` holds an entry."""
    return sum(1 << b for b, e in enumerate(entries) if e is not None)


def upper_subtotal(entries: Entries) -> int:
    """The sum of a card's upper entries (not capped)."""
    return sum(e for e in entries[:N_UPPER] if e is not None)


class RuleArrays(NamedTuple):
    """A rule set's data as every numba kernel takes it, in one argument.

    Built once per rule set (:attr:`RuleSet.arrays`). Every field has the same type for
    every rule set, so all rule sets share the compiled kernels.
    """

    box_scores: np.ndarray
    """(n_boxes, 252) int32: ``box_scores[b, r]`` = points of roll ``r`` in box ``b``
    (``RuleSet.scores`` transposed)."""
    joker_tier: np.ndarray
    """(6, n_boxes) int64: as ``RuleSet.joker_tier``."""
    joker_points: np.ndarray
    """(2, 6, n_boxes) int64: as ``RuleSet.joker_points``."""
    upper_bonus: float
    yahtzee_box: int
    yahtzee_bonus: float
    has_joker: bool
    n_flags: int
    """2 when states track "the Yahtzee box holds 50", else 1."""
    n_rerolls: int
    """Rolls per turn - 1."""
    unit: float = 1.0
    """1.0, read at run time: the kernels multiply running maxima by it so that LLVM keeps
    them vector maxima (see ``solver.kernels.expected``)."""


def placement_entry(r: int, b: int, m: int, rules: RuleArrays, low: int) -> int:
    """The entry of final roll ``r`` in open box ``b`` under filled mask ``m``, or -1 when
    the Joker forbids the box. ``low`` is :func:`joker_lowest_tier` of the roll when it is
    five alike (unused otherwise). Plain Python, compiled for the kernels by
    :mod:`solver.kernels.basics` and called as is by :meth:`RuleSet.placements`."""
    f = ROLL_FIVE_FACE[r]
    if rules.has_joker and f >= 0 and (m >> rules.yahtzee_box) & 1:
        if rules.joker_tier[f, b] != low:
            return -1
        return rules.joker_points[(m >> f) & 1, f, b]
    return rules.box_scores[b, r]


class Placement(NamedTuple):
    """One way to fill a box with the dice showing."""

    box: int
    points: int
    yahtzee_bonus: int


@dataclass(frozen=True, eq=False)
class RuleSet:
    """A named rule set of docs/rules.md. Build one with :func:`get_rules`."""

    name: str
    summary: str
    boxes: tuple[bx.Box, ...]
    rolls_per_turn: int = 3
    upper_bonus: int = 35
    yahtzee_bonus: int = 100
    joker: str = "forced"
    """``forced`` (1996 sheet), ``free`` (any open box, research convention) or ``none``."""
    yahtzee_box: int = field(init=False)
    scores: np.ndarray = field(init=False, repr=False)
    joker_tier: np.ndarray = field(init=False, repr=False)
    joker_points: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        names = [b.name for b in self.boxes]
        yz = names.index("yahtzee") if "yahtzee" in names else names.index("yatzy")
        object.__setattr__(self, "yahtzee_box", yz)
        scores = np.array([[b.score(tuple(int(c) for c in ROLL_COUNTS[r])) for b in self.boxes]
                           for r in range(N_ROLLS)], dtype=np.int64)
        scores.flags.writeable = False
        object.__setattr__(self, "scores", scores)
        tier, points = self._joker_tables()
        object.__setattr__(self, "joker_tier", tier)
        object.__setattr__(self, "joker_points", points)

    # ------------------------------------------------------------------ shape
    @property
    def n_boxes(self) -> int:
        return len(self.boxes)

    @property
    def n_masks(self) -> int:
        return 1 << self.n_boxes

    @property
    def full_mask(self) -> int:
        return self.n_masks - 1

    @property
    def n_flags(self) -> int:
        """2 when the state tracks "the Yahtzee box holds 50", else 1."""
        return 2 if self.yahtzee_bonus else 1

    @property
    def has_joker(self) -> bool:
        return self.joker != "none"

    @property
    def table_shape(self) -> tuple[int, ...]:
        return (self.n_masks, UPPER_TARGET + 1, self.n_flags)

    @cached_property
    def arrays(self) -> RuleArrays:
        """The rule data every numba kernel takes (built on first use, then reused)."""
        box_scores = np.ascontiguousarray(self.scores.T.astype(np.int32))
        box_scores.flags.writeable = False
        return RuleArrays(box_scores, self.joker_tier, self.joker_points,
                          float(self.upper_bonus), self.yahtzee_box, float(self.yahtzee_bonus),
                          self.has_joker, self.n_flags, self.rolls_per_turn - 1)

    # ------------------------------------------------------------------ joker data
    def _joker_tables(self) -> tuple[np.ndarray, np.ndarray]:
        n = self.n_boxes
        tier = np.zeros((FACES, n), dtype=np.int64)
        points = np.zeros((2, FACES, n), dtype=np.int64)
        for f in range(FACES):
            five = tuple(5 if i == f else 0 for i in range(FACES))
            ordinary = [b.score(five) for b in self.boxes]
            joker = list(ordinary)
            for b, box in enumerate(self.boxes):
                if box.name in _JOKER_FIXED_POINTS and self.has_joker:
                    joker[b] = _JOKER_FIXED_POINTS[box.name]
            if self.joker == "forced":
                for b, box in enumerate(self.boxes):
                    tier[f, b] = 0 if box.face == f + 1 else (2 if box.is_upper else 1)
                    if box.is_upper and box.face != f + 1:
                        joker[b] = 0
                points[0, f] = joker
                points[1, f] = joker
            elif self.joker == "free":
                points[0, f] = ordinary  # matching upper box open: an ordinary roll
                points[1, f] = joker
            else:
                points[0, f] = ordinary
                points[1, f] = ordinary
        tier.flags.writeable = False
        points.flags.writeable = False
        return tier, points

    # ------------------------------------------------------------------ names
    def box_index(self, name: str) -> int:
        """Index of the box called ``name`` (a name or alias, any case, ``-`` or ``_``)."""
        key = name.strip().lower().replace("-", "_").replace(" ", "_")
        for i, box in enumerate(self.boxes):
            if key == box.name or key in box.aliases:
                return i
        valid = ", ".join(b.name for b in self.boxes)
        guess = self.closest_box(key)
        hint = f"did you mean {guess}? " if guess else ""
        raise InvalidCardError(f"unknown box {shown(name, 40)} for rules {self.name!r}; "
                               f"{hint}boxes are: {valid}")

    def closest_box(self, name: str) -> str | None:
        """The canonical name of the box whose name or alias is closest to the misspelt
        ``name`` (``chanse`` -> ``chance``), or None when nothing is close."""
        key = name.strip().lower().replace("-", "_").replace(" ", "_")[:40]
        spelled = {alias: box.name for box in self.boxes for alias in (box.name, *box.aliases)
                   if len(alias) > 2}
        found = difflib.get_close_matches(key, list(spelled), n=1, cutoff=0.7)
        return spelled[found[0]] if found else None

    def possible_points(self, box: int) -> frozenset[int]:
        """Every entry box ``box`` can hold under these rules (0 unless the box is Chance)."""
        return self._possible_points[box]

    @cached_property
    def _possible_points(self) -> tuple[frozenset[int], ...]:
        found = []
        for box in range(self.n_boxes):
            values = {int(v) for v in np.unique(self.scores[:, box])}
            if self.has_joker:
                values |= {int(v) for v in np.unique(self.joker_points[:, :, box])}
            found.append(frozenset(values))
        return tuple(found)

    # ------------------------------------------------------------------ scoring
    def placements(self, dice: tuple[int, ...] | list[int], filled_mask: int,
                   yahtzee_holds_50: bool) -> list[Placement]:
        """Every box the rules allow for these final dice, with points and Yahtzee bonus.

        ``dice`` are five faces 1..6; ``filled_mask`` has bit ``b`` set when box ``b`` is
        filled; ``yahtzee_holds_50`` says whether the Yahtzee box holds 50.
        """
        counts = counts_of(dice)
        if filled_mask & ~self.full_mask or filled_mask == self.full_mask:
            raise IllegalMoveError("the scorecard is full: no box is left to fill")
        if yahtzee_holds_50 and not filled_mask >> self.yahtzee_box & 1:
            raise InvalidCardError(f"the {self.boxes[self.yahtzee_box].name} box cannot hold 50 "
                                   "while it is open")
        roll = ROLL_INDEX[counts]
        f = int(ROLL_FIVE_FACE[roll])
        bonus = self.yahtzee_bonus if f >= 0 and yahtzee_holds_50 and self.n_flags == 2 else 0
        low = joker_lowest_tier(f, filled_mask, self.joker_tier) if f >= 0 else 0
        found = []
        for b in range(self.n_boxes):
            if not filled_mask >> b & 1:
                points = int(placement_entry(roll, b, filled_mask, self.arrays, low))
                if points >= 0:
                    found.append(Placement(b, points, bonus))
        return found

    def score_all(self, dice: tuple[int, ...] | list[int]) -> dict[str, int]:
        """Ordinary points of every box for five dice (no Joker): box name -> points."""
        roll = ROLL_INDEX[counts_of(dice)]
        return {box.name: int(self.scores[roll, b]) for b, box in enumerate(self.boxes)}

    def after_box(self, filled_mask: int, upper: int, flag: int, box: int,
                  points: int) -> tuple[int, int, int, int]:
        """The state after entering ``points`` in open box ``box`` of state (filled mask,
        capped upper subtotal, flag): (mask, upper, flag, upper bonus earned now), as the
        kernels' ``next_state``."""
        m, u, y, bonus = next_state(filled_mask, upper, flag, box, points, self.upper_bonus,
                                    self.yahtzee_box, self.n_flags)
        return m, u, y, int(bonus)

    def upper_bonus_earned(self, upper_subtotal: int) -> int:
        """The upper bonus a card with this (uncapped) upper subtotal has earned."""
        return self.upper_bonus if upper_subtotal >= UPPER_TARGET else 0

    def total(self, entries: Entries, yahtzee_bonuses: int) -> int:
        """Grand total of a card: ``entries`` (one per box, None while open), the upper bonus
        once the upper entries reach 63, and ``yahtzee_bonuses`` Yahtzee bonuses."""
        return (sum(e for e in entries if e is not None)
                + self.upper_bonus_earned(upper_subtotal(entries))
                + self.yahtzee_bonus * yahtzee_bonuses)

    def check_mask(self, filled_mask: int) -> None:
        if not 0 <= filled_mask <= self.full_mask:
            raise InvalidCardError(f"filled mask {filled_mask} is outside 0..{self.full_mask}")


def _yahtzee_boxes() -> tuple[bx.Box, ...]:
    return bx.upper_boxes("aces") + (
        bx.THREE_OF_A_KIND, bx.FOUR_OF_A_KIND, bx.FULL_HOUSE, bx.SMALL_STRAIGHT,
        bx.LARGE_STRAIGHT, bx.YAHTZEE, bx.CHANCE)


def _yatzy_boxes() -> tuple[bx.Box, ...]:
    return bx.upper_boxes("ones") + (
        bx.ONE_PAIR, bx.TWO_PAIRS, bx.YATZY_THREE, bx.YATZY_FOUR, bx.YATZY_SMALL,
        bx.YATZY_LARGE, bx.YATZY_FULL_HOUSE, bx.CHANCE, bx.YATZY)


# name -> (one-line summary, how to build it). Rule sets are built on first use (their
# score tables take a few milliseconds each), so a command pays only for the one it uses.
_DEFINITIONS: dict[str, tuple[str, Callable[[str, str], RuleSet]]] = {
    "official": ("1996 Hasbro rule sheet: three rolls, 35 upper bonus, 100 Yahtzee bonus, "
                 "forced Joker",
                 lambda n, s: RuleSet(n, s, _yahtzee_boxes())),
    "free-joker": ("as official, but a Joker may go in any open box (the convention of most "
                   "published research)",
                   lambda n, s: RuleSet(n, s, _yahtzee_boxes(), joker="free")),
    "no-bonus": ("as official, but no 100 Yahtzee bonus and no Joker",
                 lambda n, s: RuleSet(n, s, _yahtzee_boxes(), yahtzee_bonus=0, joker="none")),
    "two-rolls": ("as official, but at most two rolls per turn",
                  lambda n, s: RuleSet(n, s, _yahtzee_boxes(), rolls_per_turn=2)),
    "yatzy": ("Scandinavian Yatzy: 15 boxes, 50 upper bonus, no Yahtzee bonus, no Joker",
              lambda n, s: RuleSet(n, s, _yatzy_boxes(), upper_bonus=50, yahtzee_bonus=0,
                                   joker="none")),
}
RULE_NAMES: tuple[str, ...] = tuple(_DEFINITIONS)
RULE_SUMMARIES: dict[str, str] = {name: d[0] for name, d in _DEFINITIONS.items()}


@cache
def _named_rules(key: str) -> RuleSet:
    summary, build = _DEFINITIONS[key]
    return build(key, summary)


def get_rules(name: str | RuleSet = DEFAULT_RULES) -> RuleSet:
    """The rule set called ``name`` (case-insensitive; ``_`` or ``-``)."""
    if isinstance(name, RuleSet):
        return name
    key = str(name).strip().lower().replace("_", "-")
    if key not in _DEFINITIONS:
        raise UnknownRulesError(
            f"unknown rule set {shown(name, 40)}; valid rule sets: {', '.join(RULE_NAMES)}")
    return _named_rules(key)
