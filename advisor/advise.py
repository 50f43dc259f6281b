"""Advice for one turn: every keep and every allowed box, ranked by expected final score.

For a card in state ``s = (m, u, y)`` with total ``T`` and the solver's turn values
(:func:`solver.table.turn_values`, the kernels that built the table):

    keep k with j rolls left:  expected_final = T + K_j(k)
    box b for final dice r:    expected_final = T + points + upper_bonus + yahtzee_bonus
                                                + E(m | b, u', y')

The best option for dice ``r`` with ``j`` rolls left is ``T + V_j(r)``, so averaging the
best option over the first roll gives back ``T + E(s)``.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from solver.dice import DICE, KEEP_COUNTS, KEEP_SIZE, faces_of, sub_keeps
from solver.errors import IllegalMoveError, InvalidCardError, InvalidDiceError, TableError

from .model import Advice, Dice, Keep, Option, Scorecard

if TYPE_CHECKING:
    from solver.table import Table

_DEFAULT_TABLES: dict[str, Table] = {}


def default_table(rules_name: str) -> Table:
    """The cached table of a rule set, loaded once per process (built when missing)."""
    if rules_name not in _DEFAULT_TABLES:
        from solver.table import open_table

        _DEFAULT_TABLES[rules_name] = open_table(rules_name, build=True)
    return _DEFAULT_TABLES[rules_name]


@cache
def _rerolls_of(roll: int) -> tuple[tuple[int, Keep], ...]:
    """(keep index, Keep) of every distinct keep of 0 to 4 dice of roll ``roll``."""
    found = [(k, Keep(faces_of(KEEP_COUNTS[k]))) for k in sub_keeps(roll) if KEEP_SIZE[k] < DICE]
    found.sort(key=lambda item: (-len(item[1]), item[0]))
    return tuple(found)


def question_rolls_left(card: Scorecard, rolls_left: int | None = None) -> int:
    """The rolls left of a question about ``card``, checked: ``None`` means after the first
    roll of a turn (``rolls_per_turn - 1``). Raises :class:`IllegalMoveError` for a full
    card or rolls left out of range."""
    card.check_not_full()
    per_turn = card.rules.rolls_per_turn
    rolls_left = per_turn - 1 if rolls_left is None else rolls_left
    check_rolls_left(rolls_left, per_turn)
    return rolls_left


def check_rolls_left(rolls_left: int, rolls_per_turn: int) -> None:
    """Raise :class:`IllegalMoveError` unless ``0 <= rolls_left < rolls_per_turn``."""
    top = rolls_per_turn - 1
    if isinstance(rolls_left, bool) or not isinstance(rolls_left, int) or \
            not 0 <= rolls_left <= top:
        raise IllegalMoveError(f"rolls left {rolls_left!r} is outside 0..{top}: {top} after the "
                               f"first roll of a turn, 0 after the last")


class TurnAdvisor:
    """Advice for every roll of one turn of ``card``: the turn is solved once, lazily.

    Use :func:`advise` for a single question; a ``TurnAdvisor`` answers many (a strategy
    sheet, the rolls of a guided turn) for the price of one.
    """

    def __init__(self, card: Scorecard, table: Table | None = None) -> None:
        card.check_not_full()
        table = default_table(card.rules_name) if table is None else table
        if table.rules.name != card.rules_name:
            raise TableError(f"the table is for rules {table.rules.name!r}, "
                             f"the scorecard for {card.rules_name!r}")
        self.card = card
        self.table = table
        self.rules = card.rules
        self._turn: np.ndarray | None = None

    @property
    def turn(self) -> np.ndarray:
        """(rolls_per_turn, 462) float64 from :func:`solver.table.turn_values`."""
        if self._turn is None:
            from solver.table import turn_values

            card = self.card
            self._turn = turn_values(self.table, card.mask, card.upper, card.flag)
        return self._turn

    def box_values(self, dice: Dice) -> list[tuple[float, int, int, int]]:
        """(points to come, box, points, bonus) of every box the rules allow for ``dice``."""
        card, rules, values = self.card, self.rules, self.table.values
        found = []
        for box, points, bonus in rules.placements(dice.faces, card.mask, card.yahtzee_holds_50):
            m, u, y, upper_bonus = rules.after_box(card.mask, card.upper, card.flag, box, points)
            to_come = points + upper_bonus + bonus + float(values[m, u, y])
            found.append((to_come, box, points, bonus))
        return found

    def advise(self, dice: Dice | str, rolls_left: int) -> Advice:
        """Every distinct choice for ``dice`` (a Dice or its text) with ``rolls_left``,
        best first."""
        dice = as_dice(dice)
        check_rolls_left(rolls_left, self.rules.rolls_per_turn)
        total = self.card.total
        names = self.rules.boxes
        ranked: list[tuple] = []
        for to_come, box, points, bonus in self.box_values(dice):
            ranked.append((-(total + to_come), 0, box, None, names[box].name, points, bonus))
        if rolls_left:
            row = self.turn[rolls_left]
            for order, (k, keep) in enumerate(_rerolls_of(dice.roll_index)):
                ranked.append((-(total + float(row[k])), 1, order, keep, None, 0, 0))
        ranked.sort(key=lambda item: item[:3])
        best = -ranked[0][0]
        options = tuple(Option("keep" if keep is not None else "score", -neg, best + neg, keep,
                               box, points, bonus)
                        for neg, _, _, keep, box, points, bonus in ranked)
        return Advice(self.card, dice, rolls_left, options)


def advise(card: Scorecard | str, dice: Dice | str, *, rolls_left: int | None = None,
           table: Table | None = None) -> Advice:
    """Rank every keep of 0 to 4 dice (while rolls are left) and every allowed box.

    ``card`` is a :class:`Scorecard` or its text (``"twos=6,3k=20"``, official rules);
    ``dice`` a :class:`Dice` or its text (``"22256"``). ``rolls_left`` defaults to the
    first roll of a turn (2 under the official rules); ``table`` defaults to the cached
    table of the card's rules, built when missing. Raises a ``ValueError`` subclass for
    bad text, a full card, rolls left out of range or a table of other rules.
    """
    card = as_card(card)
    dice = as_dice(dice)
    rolls_left = question_rolls_left(card, rolls_left)
    return TurnAdvisor(card, table).advise(dice, rolls_left)


def as_dice(dice: Dice | str) -> Dice:
    """``dice`` itself, or parsed from text; anything else is an InvalidDiceError."""
    if isinstance(dice, Dice):
        return dice
    if isinstance(dice, str):
        return Dice.parse(dice)
    raise InvalidDiceError(f"dice must be a Dice or text such as '22256', not "
                           f"{type(dice).__name__} {dice!r}"[:160])


def as_card(card: Scorecard | str) -> Scorecard:
    """``card`` itself, or parsed from text; anything else is an InvalidCardError."""
    if isinstance(card, Scorecard):
        return card
    if isinstance(card, str):
        return Scorecard.parse(card)
    raise InvalidCardError(f"card must be a Scorecard or text such as 'twos=6,3k=20', not "
                           f"{type(card).__name__} {card!r}"[:160])
