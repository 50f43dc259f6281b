"""Advice for one turn: every keep and every allowed box, ranked, as the user reads it.

The solver values and ranks every choice of a roll in one call
(:func:`solver.turn_face.turn_options`: the expected final score of each, and under a
target, win or tournament objective its probability, best first by the one order of
:mod:`solver.game.ties`); this module turns them into :class:`~advisor.advice.Option`
values (keeps as dice, boxes by name, losses against the best) and keeps one
:class:`TurnAdvisor` per turn so that its other rolls are answered without solving
again.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np

from solver.errors import (
    IllegalMoveError,
    InvalidCardError,
    InvalidDiceError,
    ObjectiveError,
    TableError,
    shown,
)
from solver.game.dice import KEEP_COUNTS, faces_of
from solver.game.move import Move
from solver.moments import StateMoments, get_moments
from solver.solved_turn import SolvedTurn, solve_turn
from solver.table import Table, get_table, turn_values
from solver.turn_face import NO_KEEP, TurnOptions, turn_options

from .advice import Advice, Option
from .caches import Caches, or_new
from .model import Dice, Keep, Scorecard
from .objective import EV, Objective
from .why import Outcome, TurnOutcomes, is_by_objective


@cache
def _keep(k: int) -> Keep:
    """The dice of keep index ``k``."""
    return Keep(faces_of(KEEP_COUNTS[k]))


def question_rolls_left(card: Scorecard, rolls_left: int | None = None) -> int:
    """The rolls left of a question about ``card``, checked: ``None`` means after the first
    roll of a turn (``rolls_per_turn - 1``). Raises :class:`IllegalMoveError` for a full
    card or rolls left out of range."""
    card.check_not_full()
    per_turn = card.rules.rolls_per_turn
    return check_rolls_left(per_turn - 1 if rolls_left is None else rolls_left, per_turn)


def check_rolls_left(rolls_left: int, rolls_per_turn: int) -> int:
    """``rolls_left`` as an int; raise :class:`IllegalMoveError` unless it is a whole
    number (numpy's included) with ``0 <= rolls_left < rolls_per_turn``."""
    top = rolls_per_turn - 1
    try:  # numpy's integers too; not a bool, a float or text
        whole = None if isinstance(rolls_left, bool) else operator.index(rolls_left)
    except TypeError:
        whole = None
    if whole is None or not 0 <= whole <= top:
        raise IllegalMoveError(f"rolls left {shown(rolls_left, 30)} is outside 0..{top}: {top} "
                               f"after the first roll of a turn, 0 after the last")
    return whole


class TurnAdvisor:
    """Advice for every roll of one turn of ``card``: the turn is solved once, lazily.

    Use :func:`advise` for a single question; a ``TurnAdvisor`` answers many (a strategy
    sheet, the rolls of a guided turn) for the price of one.
    """

    def __init__(self, card: Scorecard, table: Table | None = None,
                 objective: Objective = EV, *, memory: Caches | None = None,
                 progress: Callable[[int, int], None] | None = None,
                 solved: SolvedTurn | None = None, whole_game: bool = True) -> None:
        """``memory``: the caches its solve reads and fills (the opponents' distributions,
        the game's vectors; None: a fresh :class:`~advisor.caches.Caches` of its own, pass
        one to share work with other questions); ``progress(steps_done, steps_total)``
        follows the objective's solve; ``solved``: the turn already solved under
        ``objective`` (:mod:`solver.solved_turn`); ``whole_game``: keep the vectors for the
        later turns of the game (False: an objective that changes every turn)."""
        card = as_card(card)
        card.check_not_full()
        if not isinstance(objective, Objective):
            raise ObjectiveError(f"objective must be an Objective (advisor.objective), not "
                                 f"{type(objective).__name__}")
        if table is None:
            table = get_table(card.rules_name)
        if not isinstance(table, Table):
            raise TableError(f"table must be a Table (solver.table.get_table(rules)), not "
                             f"{type(table).__name__}")
        if table.rules.name != card.rules_name:
            raise TableError(f"the table is for rules {table.rules.name!r}, "
                             f"the scorecard for {card.rules_name!r}")
        self.card = card
        self.table = table
        self.rules = card.rules
        self.objective = objective
        self.memory = or_new(memory)
        self.progress = progress
        self.whole_game = whole_game
        self._turn: np.ndarray | None = None
        """The turn's expected-score values, once known."""
        self._solved = solved
        self._outcomes: TurnOutcomes | None = None

    @property
    def turn(self) -> np.ndarray:
        """(rolls_per_turn, 462) float64 from :func:`solver.table.turn_values`."""
        if self._turn is None:
            card = self.card
            self._turn = turn_values(self.table, card.mask, card.upper, card.flag)
        return self._turn

    @property
    def is_solved(self) -> bool:
        """True when the objective's figures of this turn are at hand (always under the
        expected score, and for a target out of reach)."""
        return self._solved is not None or not self.objective.needs_solve(self.card)

    @property
    def solved(self) -> SolvedTurn:
        """This turn under the objective (solved once; the vectors of the game are kept
        for its later turns: see :mod:`solver.vector_cache`)."""
        return self.solve()

    def solve(self, progress: Callable[[int, int], None] | None = None) -> SolvedTurn:
        """:attr:`solved`, solved now if it is not yet (``progress``, else the advisor's
        own callback, follows the solve)."""
        if self._solved is None:
            self._solved = solve_turn(self.card, self.table, self.objective.goal, self.memory,
                                      progress=progress or self.progress,
                                      whole_game=self.whole_game)
        return self._solved

    def outcomes(self, moments: StateMoments | None = None) -> TurnOutcomes:
        """What every option of this turn leads to (:class:`advisor.why.TurnOutcomes`),
        from the per-state figures ``moments`` (default: the cached ones of the table,
        :func:`solver.moments.get_moments`); computed once per turn."""
        if self._outcomes is None:
            card, objective = self.card, self.objective
            keep_values = self.solved.keep_values if is_by_objective(card, objective) else None
            self._outcomes = TurnOutcomes(card, self.table, moments or get_moments(self.table),
                                          self.turn, objective, keep_values)
        return self._outcomes

    def probability(self) -> float:
        """The objective's probability (a target's, or the chance to win) of this card
        before the turn's first roll, under the objective's best strategy."""
        if not self.objective.solves_turns:
            raise ValueError("the expected-score objective has no probability")
        return self.value_before_turn()

    def value_before_turn(self) -> float:
        """The objective's value of this card before the turn's first roll: the expected
        final score, or the objective's probability (solved when it needs a solve)."""
        return self.objective.value_before_turn(self.card, self.table,
                                                lambda: self.solved.value)

    def box_values(self, dice: Dice) -> list[tuple[float, int, int, int]]:
        """(points to come, box, points, bonus) of every box the rules allow for ``dice``."""
        card, rules, values = self.card, self.rules, self.table.values
        mask, upper, flag = card.mask, card.upper, card.flag
        found = []
        for box, points, bonus in card.placements(dice.faces):
            m, u, y, upper_bonus = rules.after_box(mask, upper, flag, box, points)
            to_come = points + upper_bonus + bonus + float(values[m, u, y])
            found.append((to_come, box, points, bonus))
        return found

    def advise(self, dice: Dice | str, rolls_left: int, *, why: bool = False,
               note: Callable[[str], None] | None = None) -> Advice:
        """Every distinct choice for ``dice`` (a Dice or its text) with ``rolls_left``,
        best first (ties: :mod:`solver.game.ties`); with ``why`` each option carries its
        :class:`~advisor.why.Outcome`. ``note(text)`` is first told what a user is to know
        before the answer (:func:`solver.solved_turn.solve_notes`)."""
        dice = as_dice(dice)
        rolls_left = check_rolls_left(rolls_left, self.rules.rolls_per_turn)
        objective = self.objective
        priced = self._options(dice, rolls_left, ranked=True, note=note)
        order = priced.order
        best = max(priced.expected_finals)
        best_p = _unit(priced.probabilities[order[0]])
        if not why:
            options = tuple(self._option(priced, i, best, best_p) for i in order)
            return Advice(self.card, dice, rolls_left, options, objective)
        outcomes = self.outcomes()
        options = tuple(self._option(priced, i, best, best_p,
                                     outcomes.of_keep(keep, rolls_left)
                                     if (keep := priced.keeps[i]) != NO_KEEP
                                     else outcomes.of_box(priced.boxes[i], priced.points[i],
                                                          priced.bonuses[i]))
                        for i in order)
        return Advice(self.card, dice, rolls_left, options, objective, outcomes.strategy)

    def chosen_and_best(self, dice: Dice | str, rolls_left: int,
                        move: Move) -> tuple[Option | None, Option]:
        """(the option making ``move``, None when no option does; the best option) for
        ``dice`` with ``rolls_left``: the very options :meth:`advise` lists, without
        ranking the others (``analyze`` asks this of every decision)."""
        dice = as_dice(dice)
        rolls_left = check_rolls_left(rolls_left, self.rules.rolls_per_turn)
        priced = self._options(dice, rolls_left, ranked=False)
        top = priced.order[0]  # advise's first (ties.ranked)
        best = max(priced.expected_finals)
        best_p = _unit(priced.probabilities[top])
        keeps = priced.keeps
        if move.keep is not None:
            pick = next((i for i, keep in enumerate(keeps)
                         if keep != NO_KEEP and _keep(keep).faces == move.keep), None)
        else:
            box = next((b for b, spec in enumerate(self.rules.boxes) if spec.name == move.box),
                       None)
            pick = next((i for i, b in enumerate(priced.boxes)
                         if keeps[i] == NO_KEEP and b == box), None)
        chosen = None if pick is None else self._option(priced, pick, best, best_p)
        return chosen, self._option(priced, top, best, best_p)

    def _options(self, dice: Dice, rolls_left: int, *, ranked: bool,
                 note: Callable[[str], None] | None = None) -> TurnOptions:
        """Every distinct choice for ``dice``, valued by the solver (the turn solved the
        first time; its values kept for the turn's other rolls)."""
        priced = turn_options(self.table, self.objective.goal, self.card, dice, rolls_left,
                              memory=self.memory, expected=self._turn, solved=self._solved,
                              progress=self.progress, note=note,
                              whole_game=self.whole_game, ranked=ranked)
        self._turn, self._solved = priced.expected, priced.solved
        return priced

    def _option(self, priced: TurnOptions, i: int, best: float, best_p: float,
                outcome: Outcome | None = None) -> Option:
        """Choice ``i`` of ``priced`` as an :class:`Option` (its box by name), given the
        best expected final score and the best probability of the roll."""
        key = self.objective.key
        expected_final, k, p = (priced.expected_finals[i], priced.keeps[i],
                                priced.probabilities[i])
        keep = None if k == NO_KEEP else _keep(k)
        box = None if keep is not None else self.rules.boxes[priced.boxes[i]].name
        return Option("keep" if keep is not None else "score", expected_final,
                      best - expected_final, keep, box, priced.points[i], priced.bonuses[i],
                      p_target=_unit(p) if key == "p_target" else None,
                      win_share=_unit(p) if key == "win_share" else None,
                      p_loss=max(best_p - _unit(p), 0.0) if key is not None else None,
                      outcome=outcome)


def turn_advisor(card: Scorecard, table: Table | None = None, objective: Objective = EV, *,
                 memory: Caches,
                 build: Callable[[Table], TurnAdvisor] | None = None) -> TurnAdvisor:
    """The one :class:`TurnAdvisor` of ``card`` under ``objective`` kept in ``memory``
    (``memory.advisors``), for the turn's other rolls, an undo back into it, a later
    review (the turn is solved once); the least recently used go beyond
    :data:`advisor.caches.ADVISORS_KEPT`. ``table`` defaults to the cached table of the
    card's rules; ``build(table)`` makes a missing advisor (default: ``TurnAdvisor(card,
    table, objective, memory=memory)``; a ``build`` of its own hands it ``memory`` too)."""
    if table is None:
        table = get_table(card.rules_name)
    key = (table, card, objective)
    light = not objective.solves_turns  # (else an advisor holds the vectors of its game)
    kept = memory.advisors[light]
    return kept.make(key, lambda: build(table) if build is not None
                     else TurnAdvisor(card, table, objective, memory=memory))


def _unit(p: float) -> float:
    """A probability clipped to [0, 1] (sums of exact terms may pass 1 by an ulp)."""
    return min(max(float(p), 0.0), 1.0)


def advise(card: Scorecard | str, dice: Dice | str, *, rolls_left: int | None = None,
           table: Table | None = None, objective: Objective = EV,
           target: int | None = None, why: bool = False,
           memory: Caches | None = None) -> Advice:
    """Rank every keep of 0 to 4 dice (while rolls are left) and every allowed box.

    ``card`` is a :class:`Scorecard` or its text (``"twos=6,3k=20"``, official rules);
    ``dice`` a :class:`Dice` or its text (``"22256"``). ``rolls_left`` defaults to the
    first roll of a turn (2 under the official rules); ``table`` defaults to the cached
    table of the card's rules, built when missing. ``objective`` (or ``target=X``, short
    for ``Objective.for_target(X)``) ranks by a probability instead of the expected score.
    ``why`` gives every option its :class:`~advisor.why.Outcome` (what it leads to).
    ``memory``: the caches the solve reads and fills (None: a fresh one; pass one
    :class:`~advisor.caches.Caches` to share work between calls, e.g. the rolls of one
    turn under a win objective, solved once).
    Raises a ``ValueError`` subclass for bad text, a full card, rolls left out of range,
    a table of other rules or a bad objective.
    """
    card = as_card(card)
    dice = as_dice(dice)
    rolls_left = question_rolls_left(card, rolls_left)
    if target is not None and isinstance(objective, Objective):  # another value: refused below
        if objective != EV:
            raise ObjectiveError("give objective=... or target=..., not both")
        objective = Objective.for_target(target)
    return TurnAdvisor(card, table, objective, memory=memory).advise(dice, rolls_left, why=why)


def as_dice(dice: Dice | str) -> Dice:
    """``dice`` itself, or parsed from text; anything else is an InvalidDiceError."""
    return _parsed(dice, Dice, "dice", "22256", InvalidDiceError)


def as_card(card: Scorecard | str) -> Scorecard:
    """``card`` itself, or parsed from text; anything else is an InvalidCardError."""
    return _parsed(card, Scorecard, "card", "twos=6,3k=20", InvalidCardError)


def _parsed(value: Any, kind: Any, what: str, example: str, error: type[Exception]) -> Any:
    if isinstance(value, kind):
        return value
    if isinstance(value, str):
        return kind.parse(value)
    raise error(f"{what} must be a {kind.__name__} or text such as {example!r}, not "
                f"{type(value).__name__} {value!r}"[:160])
