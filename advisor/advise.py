"""Advice for one turn: every keep and every allowed box, ranked by expected final score.

For a card in state ``s = (m, u, y)`` with total ``T`` and the solver's turn values
(:func:`solver.table.turn_values`, the kernels that built the table):

    keep k with j rolls left:  expected_final = T + K_j(k)
    box b for final dice r:    expected_final = T + points + upper_bonus + yahtzee_bonus
                                                + E(m | b, u', y')

The best option for dice ``r`` with ``j`` rolls left is ``T + V_j(r)``, so averaging the
best option over the first roll gives back ``T + E(s)``.

Under a target or win objective (:mod:`advisor.objective`) each option also carries its
probability from the same turn recurrence on vectors (:mod:`solver.target`, solved for
the states this card can reach), and the options are ranked by it. Ties, under any
objective, follow the one order of :mod:`solver.game.ties`.
"""

from __future__ import annotations

import operator
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np

from solver.errors import (
    IllegalMoveError,
    InvalidCardError,
    InvalidDiceError,
    InvalidOptionError,
    ObjectiveError,
    TableError,
    shown,
)
from solver.game import ties
from solver.game.dice import DICE, KEEP_COUNTS, KEEP_SIZE, faces_of, sub_keeps
from solver.game.move import Move

from .model import Dice, Keep, Scorecard, box_label
from .objective import EV, Objective

if TYPE_CHECKING:
    from solver.moments import StateMoments
    from solver.table import Table

    from .solved_turn import SolvedTurn
    from .why import Outcome, TurnOutcomes


@dataclass(frozen=True)
class Option:
    """One choice of a turn: keep some dice and reroll, or score a box now.

    ``expected_final`` is the card's total plus the points expected to come after this
    choice under optimal play; ``loss`` is how much less that is than the option with
    the highest ``expected_final``. Under a target objective ``p_target`` is the
    probability of reaching the target after this choice (then playing for it); under a
    win objective ``win_share`` the chance to win, a tie counting as a share (half a win
    against one opponent, ``1/k`` when ``k`` players tie at the top) (None under the
    expected-score objective).
    """

    action: str
    expected_final: float
    loss: float = 0.0
    keep: Keep | None = None
    box: str | None = None
    points: int = 0
    bonus: int = 0
    p_target: float | None = None
    win_share: float | None = None
    p_loss: float | None = None
    outcome: Outcome | None = None
    """What the option leads to (:mod:`advisor.why`), when asked for (``why=True``)."""

    def __post_init__(self) -> None:
        if self.action not in ("keep", "score"):
            raise InvalidOptionError(f"action {self.action!r}: use 'keep' or 'score'")
        if (self.action == "keep") != (self.keep is not None) or \
                (self.action == "score") != (self.box is not None):
            raise InvalidOptionError("a keep option needs keep=..., a score option box=...")

    @property
    def is_keep(self) -> bool:
        return self.action == "keep"

    @property
    def move(self) -> Move:
        """This option as a :class:`~solver.game.move.Move` (``Move.parse(describe())``
        equals it)."""
        if self.keep is not None:
            return Move(keep=self.keep.faces)
        return Move(box=self.box)

    def describe(self) -> str:
        """``keep 2 2 2``, ``reroll all``, ``score Twos 6`` or ``score Chance 30 +100 bonus``."""
        if self.keep is not None:
            if not self.keep.faces:
                return "reroll all"
            return f"keep {self.keep.spaced()}"
        text = f"score {box_label(self.box or '')} {self.points}"
        return text + (f" +{self.bonus} bonus" if self.bonus else "")

    def __str__(self) -> str:
        return self.describe()

    @property
    def probability(self) -> float | None:
        """The objective's probability (``p_target`` or ``win_share``), None for ``ev``."""
        return self.p_target if self.p_target is not None else self.win_share

    def to_json(self) -> dict[str, Any]:
        if self.keep is not None:
            out: dict[str, Any] = {"action": "keep", "keep": list(self.keep.faces),
                                   "expected_final": self.expected_final, "loss": self.loss}
        else:
            out = {"action": "score", "box": self.box, "points": self.points,
                   "expected_final": self.expected_final, "bonus": self.bonus,
                   "loss": self.loss}
        for key in ("p_target", "win_share", "p_loss"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.outcome is not None:
            out["outcome"] = self.outcome.to_json()
        return out


@dataclass(frozen=True, repr=False)
class Advice:
    """Every distinct choice for ``dice`` on ``card`` with ``rolls_left``, best first."""

    card: Scorecard
    dice: Dice
    rolls_left: int
    options: tuple[Option, ...] = ()
    objective: Objective = EV
    outcome_strategy: dict[str, Any] | None = None
    """Whose play the options' outcomes follow (``{"kind": "ev"}`` or the objective's),
    None without outcomes."""

    @property
    def best(self) -> Option:
        return self.options[0]

    @property
    def ev_best(self) -> Option:
        """The option with the highest expected final score (the first listed, on ties)."""
        return min(self.options, key=lambda o: o.loss)

    def top(self, n: int | None) -> tuple[Option, ...]:
        """The ``n`` best options (all when ``n`` is None or 0)."""
        return self.options[:n] if n else self.options

    SHOWN = 3
    """Options ``str(advice)`` lists."""

    def __str__(self) -> str:
        """A short summary: the question, the best options and how many there are."""
        from .text import advice_table

        card = self.card
        left = f"{self.rolls_left} roll{'' if self.rolls_left == 1 else 's'} left"
        where = f"card {card}" if card.turn > 1 else "a new game"
        lines = [f"dice {self.dice.spaced()}, {left}, {where} ({card.rules_name}"
                 + ("" if self.objective.is_ev else f", {self.objective.describe()}") + "):"]
        lines += advice_table(self, self.SHOWN, more_hint="advice.options holds them all")
        return "\n".join(lines)

    def __repr__(self) -> str:
        """``advise(Scorecard.parse(...), Dice(...), rolls_left=N)``: the call that gives
        this advice again (with the names of :mod:`advisor` imported)."""
        objective = "" if self.objective.is_ev else f", objective={self.objective!r}"
        why = "" if self.outcome_strategy is None else ", why=True"
        return (f"advise({self.card!r}, {self.dice!r}, rolls_left={self.rolls_left}"
                f"{objective}{why})")

    def to_json(self, top: int | None = None) -> dict[str, Any]:
        out = {"rules": self.card.rules_name, "objective": self.objective.to_json(),
               "dice": list(self.dice.faces), "rolls_left": self.rolls_left,
               "card": self.card.to_json(), "options": [o.to_json() for o in self.top(top)]}
        if self.outcome_strategy is not None:
            out["outcome_strategy"] = self.outcome_strategy
        return out


@cache
def _rerolls_of(roll: int) -> tuple[np.ndarray, tuple[tuple[int, Keep], ...]]:
    """(their keep indices, (rank, Keep) of each) of every distinct keep of 0 to 4 dice
    of roll ``roll``."""
    ks = [k for k in sub_keeps(roll) if KEEP_SIZE[k] < DICE]
    return (np.array(ks, dtype=np.int64),
            tuple((ties.rank(k, -1), Keep(faces_of(KEEP_COUNTS[k]))) for k in ks))


_NO_P = 0.0
"""The probability of every option under the expected score (or a target out of reach)."""


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
                 objective: Objective = EV, *,
                 progress: Callable[[int, int], None] | None = None,
                 solved: SolvedTurn | None = None, whole_game: bool = True) -> None:
        """``progress(steps_done, steps_total)`` follows the objective's solve; ``solved``:
        the turn already solved under ``objective`` (:mod:`advisor.solved_turn`);
        ``whole_game``: keep the vectors for the later turns of the game (False: an
        objective that changes every turn)."""
        card = as_card(card)
        card.check_not_full()
        if not isinstance(objective, Objective):
            raise ObjectiveError(f"objective must be an Objective (advisor.objective), not "
                                 f"{type(objective).__name__}")
        from solver.table import Table, get_table

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
        self.progress = progress
        self.whole_game = whole_game
        self._turn: np.ndarray | None = None
        self._solved = solved
        self._outcomes: TurnOutcomes | None = None

    @property
    def turn(self) -> np.ndarray:
        """(rolls_per_turn, 462) float64 from :func:`solver.table.turn_values`."""
        if self._turn is None:
            from solver.table import turn_values

            card = self.card
            self._turn = turn_values(self.table, card.mask, card.upper, card.flag)
        return self._turn

    @property
    def is_solved(self) -> bool:
        """True when the objective's figures of this turn are at hand (always under the
        expected score, and for a target out of reach)."""
        return (self.objective.is_ev or self._solved is not None
                or self.objective.is_out_of_reach(self.card))

    @property
    def solved(self) -> SolvedTurn:
        """This turn under the objective (solved once; the vectors of the game are kept
        for its later turns: see :mod:`advisor.vector_cache`)."""
        return self.solve()

    def solve(self, progress: Callable[[int, int], None] | None = None) -> SolvedTurn:
        """:attr:`solved`, solved now if it is not yet (``progress``, else the advisor's
        own callback, follows the solve)."""
        if self._solved is None:
            from .solved_turn import solve_turn

            self._solved = solve_turn(self.card, self.table, self.objective,
                                      progress=progress or self.progress,
                                      whole_game=self.whole_game)
        return self._solved

    def outcomes(self, moments: StateMoments | None = None) -> TurnOutcomes:
        """What every option of this turn leads to (:class:`advisor.why.TurnOutcomes`),
        from the per-state figures ``moments`` (default: the cached ones of the table,
        :func:`solver.moments.get_moments`); computed once per turn."""
        if self._outcomes is None:
            from solver.moments import get_moments

            from .why import TurnOutcomes, is_by_objective

            card, objective = self.card, self.objective
            keep_values = self.solved.keep_values if is_by_objective(card, objective) else None
            self._outcomes = TurnOutcomes(card, self.table, moments or get_moments(self.table),
                                          self.turn, objective, keep_values)
        return self._outcomes

    def probability(self) -> float:
        """The objective's probability (a target's, or the chance to win) of this card
        before the turn's first roll, under the objective's best strategy."""
        if self.objective.is_ev:
            raise ValueError("the expected-score objective has no probability")
        if self.objective.is_out_of_reach(self.card):
            return 0.0
        return self.solved.value

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

    def advise(self, dice: Dice | str, rolls_left: int, *, why: bool = False) -> Advice:
        """Every distinct choice for ``dice`` (a Dice or its text) with ``rolls_left``,
        best first (ties: :mod:`solver.game.ties`); with ``why`` each option carries its
        :class:`~advisor.why.Outcome`."""
        dice = as_dice(dice)
        rolls_left = check_rolls_left(rolls_left, self.rules.rolls_per_turn)
        objective = self.objective
        found = self._priced(dice, rolls_left)
        evs = [item[0] for item in found]
        order = ties.ranked(*self._ranking_keys(found, evs))
        best = max(evs)
        best_p = _unit(found[order[0]][-1])
        options = tuple(self._option(best, best_p, *found[i]) for i in order)
        if not why:
            return Advice(self.card, dice, rolls_left, options, objective)
        outcomes = self.outcomes()
        options = tuple(replace(o, outcome=outcomes.of(o, rolls_left)) for o in options)
        return Advice(self.card, dice, rolls_left, options, objective, outcomes.strategy)

    def chosen_and_best(self, dice: Dice | str, rolls_left: int,
                        move: Move) -> tuple[Option | None, Option]:
        """(the option making ``move``, None when no option does; the best option) for
        ``dice`` with ``rolls_left``: the very options :meth:`advise` lists, without
        building and ranking the others (``analyze`` asks this of every decision)."""
        dice = as_dice(dice)
        rolls_left = check_rolls_left(rolls_left, self.rules.rolls_per_turn)
        found = self._priced(dice, rolls_left)
        evs = [item[0] for item in found]
        values, evs, ranks, tie = self._ranking_keys(found, evs)
        top = ties.best(values, evs, ranks, len(found), tie)  # advise's first (ties.ranked)
        best = max(evs)
        best_p = _unit(found[top][-1])
        if move.keep is not None:
            pick = next((i for i, item in enumerate(found)
                         if item[2] is not None and item[2].faces == move.keep), None)
        else:
            pick = next((i for i, item in enumerate(found)
                         if item[2] is None and item[3] == move.box), None)
        chosen = None if pick is None else self._option(best, best_p, *found[pick])
        return chosen, self._option(best, best_p, *found[top])

    def _priced(self, dice: Dice, rolls_left: int) -> list[tuple]:
        """(expected final, rank, keep, box name, points, bonus, p) of every
        distinct choice for ``dice``: the allowed boxes, then the keeps while rolls are
        left (p is 0 under the expected score)."""
        total = self.card.total
        names = self.rules.boxes
        objective = self.objective
        solve = not objective.is_ev and not objective.is_out_of_reach(self.card)  # else p = 0
        found: list[tuple] = []
        for to_come, box, points, bonus in self.box_values(dice):
            p = self.solved.box(box, points, bonus) if solve else _NO_P
            found.append((total + to_come, ties.rank(-1, box), None, names[box].name, points,
                          bonus, p))
        if rolls_left:
            ks, keeps = _rerolls_of(dice.roll_index)
            evs = (total + self.turn[rolls_left][ks]).tolist()  # total + K_j(k), each keep
            if solve:
                ps = self.solved.keep_values[rolls_left][ks].tolist()
            else:
                ps = [_NO_P] * len(evs)
            found += [(ev, rank, keep, None, 0, 0, p)
                      for ev, (rank, keep), p in zip(evs, keeps, ps, strict=True)]
        return found

    def _ranking_keys(self, found: list[tuple], evs: list[float]) -> tuple[list, list, list,
                                                                          float]:
        """(values, expected finals, fixed ranks, tolerance) of ``found`` for
        :mod:`solver.game.ties`: ranked by the objective's probability, else by ``evs``."""
        ranks = [item[1] for item in found]
        if self.objective.is_ev:
            return evs, evs, ranks, ties.EV_TIE
        return [item[-1] for item in found], evs, ranks, ties.P_TIE

    def _option(self, best: float, best_p: float, expected_final: float, _rank: int,
                keep: Keep | None, box: str | None, points: int, bonus: int,
                p: float) -> Option:
        kind = self.objective.kind
        with_p = kind != "ev"
        return Option("keep" if keep is not None else "score", expected_final,
                      best - expected_final, keep, box, points, bonus,
                      p_target=_unit(p) if kind == "target" else None,
                      win_share=_unit(p) if kind == "win" else None,
                      p_loss=max(best_p - _unit(p), 0.0) if with_p else None)


ADVISORS_KEPT = {True: 512, False: 8}
"""Turn advisors kept by :func:`turn_advisor`: under the expected score (a few KB each),
and under another objective (each holds the vectors of its game, up to hundreds of MB)."""
_advisors: dict[bool, OrderedDict[tuple[Table, Scorecard, Objective], TurnAdvisor]] = {
    True: OrderedDict(), False: OrderedDict()}
_advisors_lock = threading.Lock()


def turn_advisor(card: Scorecard, table: Table | None = None, objective: Objective = EV, *,
                 build: Callable[[Table], TurnAdvisor] | None = None) -> TurnAdvisor:
    """The process's one :class:`TurnAdvisor` of ``card`` under ``objective``, kept for the
    turn's other rolls, an undo back into it, a later review (the turn is solved once);
    the least recently used go beyond :data:`ADVISORS_KEPT`. ``table`` defaults to the
    cached table of the card's rules; ``build(table)`` makes a missing advisor (default:
    ``TurnAdvisor(card, table, objective)``)."""
    if table is None:
        from solver.table import get_table

        table = get_table(card.rules_name)
    key = (table, card, objective)
    kept = _advisors[objective.is_ev]
    with _advisors_lock:
        advisor = kept.pop(key, None)
    if advisor is None:
        advisor = build(table) if build is not None else TurnAdvisor(card, table, objective)
    with _advisors_lock:
        kept[key] = advisor
        while len(kept) > ADVISORS_KEPT[objective.is_ev]:
            kept.popitem(last=False)
    return advisor


def _unit(p: float) -> float:
    """A probability clipped to [0, 1] (sums of exact terms may pass 1 by an ulp)."""
    return min(max(float(p), 0.0), 1.0)


def advise(card: Scorecard | str, dice: Dice | str, *, rolls_left: int | None = None,
           table: Table | None = None, objective: Objective = EV,
           target: int | None = None, why: bool = False) -> Advice:
    """Rank every keep of 0 to 4 dice (while rolls are left) and every allowed box.

    ``card`` is a :class:`Scorecard` or its text (``"twos=6,3k=20"``, official rules);
    ``dice`` a :class:`Dice` or its text (``"22256"``). ``rolls_left`` defaults to the
    first roll of a turn (2 under the official rules); ``table`` defaults to the cached
    table of the card's rules, built when missing. ``objective`` (or ``target=X``, short
    for ``Objective.for_target(X)``) ranks by a probability instead of the expected score.
    ``why`` gives every option its :class:`~advisor.why.Outcome` (what it leads to).
    Raises a ``ValueError`` subclass for bad text, a full card, rolls left out of range,
    a table of other rules or a bad objective.
    """
    card = as_card(card)
    dice = as_dice(dice)
    rolls_left = question_rolls_left(card, rolls_left)
    if target is not None and isinstance(objective, Objective):  # another value: refused below
        if not objective.is_ev:
            raise ObjectiveError("give objective=... or target=..., not both")
        objective = Objective.for_target(target)
    return TurnAdvisor(card, table, objective).advise(dice, rolls_left, why=why)


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
