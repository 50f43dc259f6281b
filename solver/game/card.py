"""The scorecard: the boxes filled under one rule set and the Yahtzee bonuses collected.

A frozen, hashable value validated when built (every entry possible in its box, every
bonus reachable by some filling order), with a text form that parses back
(``Scorecard.parse("twos=6,yahtzee=50")``, ``str(card)``) and a ``repr`` that is a
working constructor. Bad input raises :class:`~solver.errors.InvalidCardError`.
"""

from __future__ import annotations

import itertools
import operator
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..errors import IllegalMoveError, InvalidCardError, shown
from .faces import Dice
from .rules import (
    DEFAULT_RULES,
    UPPER_TARGET,
    Placement,
    RuleSet,
    filled_mask,
    get_rules,
    upper_subtotal,
)
from .states import bonus_counts

BONUS_KEY = "yahtzee_bonus"
_POINTS = re.compile(r"-?[0-9]{1,4}")


def box_label(name: str) -> str:
    """Display name of a box: ``three_of_a_kind`` -> ``Three of a Kind``."""
    small = {"of", "a"}
    return " ".join(w if w in small else w.capitalize() for w in name.split("_"))


def _whole_entries(entries: Any, rules: RuleSet) -> tuple[int | None, ...]:
    """A card's entries as a tuple of ints (numpy's included) or None, one per box;
    anything else (a float, a bool, text) is an InvalidCardError."""
    if isinstance(entries, (str, bytes)) or not isinstance(entries, Iterable):
        raise InvalidCardError(f"a card's entries are a sequence of {rules.n_boxes} points "
                               f"or None, not {type(entries).__name__}")
    given = tuple(itertools.islice(entries, rules.n_boxes + 1))
    if len(given) != rules.n_boxes:
        raise InvalidCardError(f"a {rules.name} scorecard has {rules.n_boxes} boxes, got "
                               f"{len(given)}{'+' if len(given) > rules.n_boxes else ''} "
                               f"entries")
    out: list[int | None] = []
    for b, points in enumerate(given):
        if points is None:
            out.append(None)
            continue
        try:
            whole = None if isinstance(points, bool) else operator.index(points)
        except TypeError:
            whole = None
        if whole is None:
            raise InvalidCardError(f"{rules.boxes[b].name}={shown(points, 20)}: points are "
                                   f"whole numbers (int), or None for an empty box")
        out.append(whole)
    return tuple(out)


def _count(n: Any) -> Any:
    """An int (numpy's too) as a plain int; anything else unchanged (checked later)."""
    if isinstance(n, bool):
        return n
    try:
        return operator.index(n)
    except TypeError:
        return n


@dataclass(frozen=True)
class Scorecard:
    """The boxes filled so far under one rule set, and the Yahtzee bonuses collected.

    ``entries[b]`` is the points in box ``b`` (``None`` while empty). Build one with
    :meth:`parse` (``"twos=6,fours=12,yahtzee=50,yahtzee_bonus=1"``, empty = new game)
    or :meth:`new`; :meth:`place` and :meth:`with_entry` return new cards.
    """

    entries: tuple[int | None, ...]
    yahtzee_bonuses: int = 0
    rules_name: str = DEFAULT_RULES

    def __post_init__(self) -> None:
        rules = get_rules(self.rules_name)
        object.__setattr__(self, "rules_name", rules.name)
        object.__setattr__(self, "entries", _whole_entries(self.entries, rules))
        object.__setattr__(self, "yahtzee_bonuses", _count(self.yahtzee_bonuses))
        for b, points in enumerate(self.entries):
            if points is not None and points not in rules.possible_points(b):
                allowed = ", ".join(map(str, sorted(rules.possible_points(b))))
                raise InvalidCardError(f"{rules.boxes[b].name}={points} cannot occur; "
                                       f"{rules.boxes[b].name} holds one of: {allowed}")
        self._check_bonuses(rules)

    def _check_bonuses(self, rules: RuleSet) -> None:
        n = self.yahtzee_bonuses
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise InvalidCardError(f"{BONUS_KEY}={n!r}: give a count 0 or more")
        if n == 0:
            return
        if rules.n_flags == 1:
            raise InvalidCardError(f"rules {rules.name!r} have no Yahtzee bonus; "
                                   f"remove {BONUS_KEY}={n}")
        if self.entries[rules.yahtzee_box] != 50:
            raise InvalidCardError(f"{BONUS_KEY}={n} needs 50 in the "
                                   f"{rules.boxes[rules.yahtzee_box].name} box")
        others = sum(e is not None for e in self.entries) - 1
        if n > others:
            raise InvalidCardError(f"{BONUS_KEY}={n}: each bonus fills another box, but only "
                                   f"{others} other boxes are filled")
        counts = bonus_counts(rules, self.entries)
        if not counts >> n & 1:
            most = counts.bit_length() - 1
            joker = {"forced": "under the forced Joker a bonus fills the upper box of its "
                               "face, or, once that box is filled, a lower box for Joker "
                               "points (an upper box for 0 when the lower ones are full)",
                     "free": "a bonus fills a box for its Joker points"}.get(rules.joker, "")
            raise InvalidCardError(f"{BONUS_KEY}={n} cannot occur with these boxes ({joker}); "
                                   f"at most {max(most, 0)} bonuses fit this card")

    # ------------------------------------------------------------------ building
    @classmethod
    def new(cls, rules: str | RuleSet = DEFAULT_RULES) -> Scorecard:
        """An empty card (a new game)."""
        rules = get_rules(rules)
        return cls((None,) * rules.n_boxes, 0, rules.name)

    @classmethod
    def parse(cls, text: str, rules: str | RuleSet = DEFAULT_RULES) -> Scorecard:
        """A card from ``box=points`` pairs separated by commas (empty text: a new game)."""
        if not isinstance(text, str):
            raise InvalidCardError(f"a scorecard is text such as 'twos=6,fours=12' (empty for "
                                   f"a new game), not {type(text).__name__}")
        rules = get_rules(rules)
        entries: list[int | None] = [None] * rules.n_boxes
        bonuses: int | None = None
        hint = "write box=points pairs separated by commas, e.g. twos=6,fours=12,yahtzee=50"
        pairs = [p.strip(" \t") for p in text.split(",")] if text.strip(" \t") else []
        for pair in pairs:
            if not pair:
                raise InvalidCardError(f"scorecard {shown(text)}: an empty entry (a comma too "
                                       f"many); {hint}")
            name, sep, value = (s.strip(" \t") for s in pair.partition("="))
            if not sep or not name or not _POINTS.fullmatch(value):
                raise InvalidCardError(f"bad scorecard entry {shown(pair, 40)}: {hint} "
                                       f"(points are whole numbers 0 to 9999)")
            if name.lower().replace("-", "_") == BONUS_KEY:
                if bonuses is not None:
                    raise InvalidCardError(f"{BONUS_KEY} is given twice")
                bonuses = int(value)
                continue
            b = rules.box_index(name)
            if entries[b] is not None:
                raise InvalidCardError(f"box {rules.boxes[b].name} is given twice")
            entries[b] = int(value)
        return cls(tuple(entries), bonuses or 0, rules.name)

    def with_entry(self, box: int | str, points: int, yahtzee_bonus: int = 0) -> Scorecard:
        """A new card with ``points`` in the empty ``box``, plus one bonus if ``yahtzee_bonus``."""
        rules = self.rules
        b = rules.box_index(box) if isinstance(box, str) else box
        if self.entries[b] is not None:
            raise IllegalMoveError(f"box {rules.boxes[b].name} is already filled "
                                   f"({self.entries[b]}); open boxes: {self._open_names()}")
        entries = list(self.entries)
        entries[b] = points
        return Scorecard(tuple(entries), self.yahtzee_bonuses + (1 if yahtzee_bonus else 0),
                         self.rules_name)

    def place(self, dice: Dice, box: int | str) -> Scorecard:
        """The card after scoring ``dice`` in ``box``, as the rules (and the Joker) allow."""
        rules = self.rules
        self.check_not_full()
        b = rules.box_index(box) if isinstance(box, str) else box
        if self.entries[b] is not None:
            raise IllegalMoveError(f"box {rules.boxes[b].name} is already filled "
                                   f"({self.entries[b]}); open boxes: {self._open_names()}")
        allowed = self.placements(dice.faces)
        for p in allowed:
            if p.box == b:
                return self.placed(b, p.points, p.yahtzee_bonus)
        names = ", ".join(rules.boxes[p.box].name for p in allowed)
        raise IllegalMoveError(f"the Joker rule forbids {rules.boxes[b].name} for {dice}; "
                               f"allowed now: {names}")

    def placed(self, box: int, points: int, yahtzee_bonus: int) -> Scorecard:
        """The card after the rules placed ``points`` (and a bonus) in the open ``box``
        (a :class:`~solver.game.rules.Placement` of :meth:`placements`), not checked."""
        entries = list(self.entries)
        entries[box] = points
        bonuses = self.yahtzee_bonuses + (1 if yahtzee_bonus else 0)
        return Scorecard.played(tuple(entries), bonuses, self.rules_name)

    @staticmethod
    def played(entries: tuple[int | None, ...], yahtzee_bonuses: int,
               rules_name: str) -> Scorecard:
        """A card reached by play, built without the checks of a typed card (above all the
        search over filling orders that checks the Yahtzee bonuses)."""
        card = object.__new__(Scorecard)
        object.__setattr__(card, "entries", entries)
        object.__setattr__(card, "yahtzee_bonuses", yahtzee_bonuses)
        object.__setattr__(card, "rules_name", rules_name)
        return card

    # ------------------------------------------------------------------ state
    @cached_property
    def rules(self) -> RuleSet:
        return get_rules(self.rules_name)

    @cached_property
    def mask(self) -> int:
        """Filled-boxes mask: bit ``b`` set when box ``b`` is filled."""
        return filled_mask(self.entries)

    @cached_property
    def upper_subtotal(self) -> int:
        """Sum of the upper entries (not capped)."""
        return upper_subtotal(self.entries)

    @property
    def upper(self) -> int:
        """Upper subtotal capped at 63, as in a solver state."""
        return min(self.upper_subtotal, UPPER_TARGET)

    @property
    def yahtzee_holds_50(self) -> bool:
        return self.entries[self.rules.yahtzee_box] == 50

    def placements(self, faces: tuple[int, ...] | list[int]) -> list[Placement]:
        """The boxes the rules allow for five final ``faces`` on this card (the Joker
        included), with points and Yahtzee bonus."""
        return self.rules.placements(faces, self.mask, self.yahtzee_holds_50)

    @property
    def flag(self) -> int:
        """The state's flag: 1 when the Yahtzee box holds 50 and the rules pay a bonus."""
        return int(self.yahtzee_holds_50 and self.rules.n_flags == 2)

    @property
    def upper_bonus(self) -> int:
        return self.rules.upper_bonus_earned(self.upper_subtotal)

    @cached_property
    def total(self) -> int:
        """Grand total so far: entries, upper bonus if earned, Yahtzee bonuses."""
        return self.rules.total(self.entries, self.yahtzee_bonuses)

    @property
    def is_full(self) -> bool:
        return all(e is not None for e in self.entries)

    @property
    def turn(self) -> int:
        """Number of the turn about to be played (1-based)."""
        return sum(e is not None for e in self.entries) + 1

    def open_boxes(self) -> list[int]:
        return [b for b, e in enumerate(self.entries) if e is None]

    def _open_names(self) -> str:
        return ", ".join(self.rules.boxes[b].name for b in self.open_boxes()) or "none"

    def check_not_full(self) -> None:
        if self.is_full:
            raise IllegalMoveError(f"the scorecard is full (final total {self.total}): "
                                   f"there is nothing left to advise")

    # ------------------------------------------------------------------ text
    def filled(self) -> dict[str, int]:
        """Box name -> points of the filled boxes, in card order."""
        return {self.rules.boxes[b].name: e for b, e in enumerate(self.entries) if e is not None}

    def __str__(self) -> str:
        pairs = [f"{name}={points}" for name, points in self.filled().items()]
        if self.yahtzee_bonuses:
            pairs.append(f"{BONUS_KEY}={self.yahtzee_bonuses}")
        return ",".join(pairs)

    def __repr__(self) -> str:
        return f"Scorecard.parse({str(self)!r}, rules={self.rules_name!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its fields alone (not the cached rule set), e.g. for a worker process."""
        return Scorecard, (self.entries, self.yahtzee_bonuses, self.rules_name)

    def to_json(self) -> dict[str, Any]:
        return {"text": str(self), "entries": self.filled(), BONUS_KEY: self.yahtzee_bonuses,
                "upper_subtotal": self.upper_subtotal, "upper_bonus": self.upper_bonus,
                "total": self.total}
