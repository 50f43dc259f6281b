"""Python strategies of the simulator: what they see (:class:`Decision`), and their games
played in Python with the one dice stream (:mod:`solver.game.stream`, drawn by its
compiled form :mod:`solver.kernels.stream`: the same games as the built-in strategies
see).

A strategy is a callable ``strategy(decision: Decision)``: while ``decision.rolls_left >
0`` it returns the faces to keep (any iterable of ints, a sub-multiset of
``decision.dice``; all five keeps the dice as they are and uses the roll) or a box name to
score now; with ``rolls_left == 0`` it returns a box name (any alias). It may also return
a :class:`~solver.game.move.Move`. An illegal answer raises
:class:`~solver.errors.IllegalStrategyMoveError` naming the move and the state.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import IllegalStrategyMoveError, StrategyError, Terminated, YahtzeeError, shown
from ..game.card import Scorecard
from ..game.dice import FIRST_ROLL_KEEP, KEEP_INDEX, ROLLS, counts_of
from ..game.move import Move
from ..game.rules import UPPER_TARGET, Placement, RuleSet
from ..game.trace import new_traces, put_box, put_reroll, start_turn
from ..kernels.stream import game_stream, roll_from
from .judge import GameJudge

PYTHON_JUDGE_BATCH = 250
"""Games of a Python strategy judged at once (and a worker process's task: small, so that
the processes finish together)."""
PROGRESS_STEP = 20_000
"""Progress is reported at least every this many games (and every 1 % of them)."""
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Decision:
    """What a user strategy sees at each decision: the scorecard so far (``card``; its
    ``entries``, ``yahtzee_bonuses``, ``total``, ... are also the decision's), the dice
    and the rolls left."""

    card: Scorecard
    dice: tuple[int, ...]
    """The five faces showing, ascending."""
    rolls_left: int

    @property
    def rules(self) -> RuleSet:
        return self.card.rules

    @property
    def entries(self) -> tuple[int | None, ...]:
        """The entry of each box in scorecard order, None while open."""
        return self.card.entries

    @property
    def yahtzee_bonuses(self) -> int:
        return self.card.yahtzee_bonuses

    @property
    def turn(self) -> int:
        """1 .. number of boxes."""
        return self.card.turn

    @property
    def filled_mask(self) -> int:
        return self.card.mask

    @property
    def open_boxes(self) -> tuple[str, ...]:
        return tuple(self.rules.boxes[b].name for b in self.card.open_boxes())

    @property
    def upper_total(self) -> int:
        """Sum of the upper entries so far (not capped)."""
        return self.card.upper_subtotal

    @property
    def yahtzee_holds_50(self) -> bool:
        return self.card.yahtzee_holds_50

    @property
    def total(self) -> int:
        """The grand total so far (entries, upper bonus if earned, Yahtzee bonuses)."""
        return self.card.total

    def placements(self) -> list[Placement]:
        """The boxes the rules allow for the dice showing, with points and bonus."""
        return self.card.placements(self.dice)


UserStrategy = Callable[[Decision], Any]


def describe(decision: Decision) -> str:
    """The decision in words, for an error message."""
    card = ", ".join(f"{box.name}={e}" for box, e in zip(decision.rules.boxes,
                                                          decision.entries, strict=True)
                     if e is not None) or "empty"
    dice = "".join(str(f) for f in decision.dice)
    return (f"turn {decision.turn}, dice {dice}, rolls left {decision.rolls_left}, "
            f"card [{card}], Yahtzee bonuses {decision.yahtzee_bonuses}")


def _parse_move(answer: Any, decision: Decision) -> Move:
    """The strategy's answer as a checked :class:`Move` (box names made canonical), or
    raise IllegalStrategyMoveError. Answers: a Move, a box name, or faces to keep."""
    def illegal(why: str) -> IllegalStrategyMoveError:
        return IllegalStrategyMoveError(f"illegal move {shown(answer, 40)} ({why}) at "
                                        f"{describe(decision)}")

    if isinstance(answer, str):
        try:
            move = Move.scoring(answer, decision.rules)
        except YahtzeeError as exc:
            raise illegal("not a box") from exc
    elif isinstance(answer, Move):
        move = answer
        if move.box is not None:
            try:
                move = Move.scoring(move.box, decision.rules)
            except YahtzeeError as exc:
                raise illegal("not a box of these rules") from exc
    else:
        try:
            given = list(itertools.islice(iter(answer), 6))
            faces = [operator.index(f) for f in given if not isinstance(f, bool)]
        except Exception as exc:  # noqa: BLE001  (any object a strategy may return)
            raise illegal("neither a box name nor faces to keep") from exc
        if len(faces) != len(given) or any(not 1 <= f <= 6 for f in faces):
            raise illegal("faces are 1..6")
        if len(faces) > 5:
            raise illegal("the keep is not part of the dice showing")
        move = Move(keep=tuple(faces))
    if move.box is not None:
        if _placement(move, decision) is None:
            raise illegal("that box is filled or the Joker rule forbids it")
        return move
    if decision.rolls_left == 0:
        raise illegal("no rolls are left: a box name is needed")
    have = counts_of(decision.dice)
    if any(c > h for c, h in zip(counts_of(move.keep or ()), have, strict=True)):
        raise illegal("the keep is not part of the dice showing")
    return move


def _ask(strategy: UserStrategy, decision: Decision) -> Any:
    """The strategy's answer; any error it raises becomes a :class:`StrategyError`."""
    try:
        return strategy(decision)
    except (Exception, SystemExit) as exc:  # noqa: BLE001  (the user's code may raise anything)
        if isinstance(exc, Terminated):  # SIGTERM while the strategy ran: not its failure
            raise
        name = getattr(strategy, "__name__", "the strategy")
        raise StrategyError(f"strategy {shown(name, 40)} failed with {type(exc).__name__}: "
                            f"{shown(exc, 60)} at {describe(decision)}") from exc


def _placement(move: Move, decision: Decision) -> Placement | None:
    """The placement of a box move for the decision's dice, or None if not allowed."""
    box = decision.rules.box_index(move.box or "")
    return next((p for p in decision.placements() if p.box == box), None)


class _Dice:
    """The dice of game ``game`` of seed ``seed``: :class:`solver.game.stream.DiceStream`'s,
    drawn by the compiled stream (a roll in about 0.7 µs instead of 3.5 µs)."""

    __slots__ = ("state",)

    def __init__(self, seed: int, game: int) -> None:
        self.state = np.uint64(game_stream(np.uint64(seed), np.uint64(game)))

    def complete(self, keep: int) -> int:
        """The roll (its keep index) after keeping ``keep`` and rolling the other dice."""
        roll, state = roll_from(keep, self.state)
        self.state = np.uint64(state)  # (numba hands a uint64 back as a Python int)
        return int(roll)


def _play_python(rules: RuleSet, strategy: UserStrategy, stream: _Dice,
                 trace: np.ndarray) -> tuple[int | None, ...]:
    """One game; its moves go to ``trace`` (:mod:`solver.game.trace`)."""
    card = Scorecard.new(rules)
    fives = 0
    for turn in range(rules.n_boxes):
        row = trace[turn]
        roll = stream.complete(0)
        start_turn(row, roll)
        rolls_left = rules.rolls_per_turn - 1
        while True:
            decision = Decision(card, tuple(int(f) for f in ROLLS[roll - FIRST_ROLL_KEEP]),
                                rolls_left)
            move = _parse_move(_ask(strategy, decision), decision)
            if move.keep is None:
                break
            keep = int(KEEP_INDEX[counts_of(move.keep)])
            roll = stream.complete(keep)
            put_reroll(row, rules.rolls_per_turn - 1 - rolls_left, keep, roll)
            rolls_left -= 1
        placement = _placement(move, decision)
        assert placement is not None  # checked by _parse_move
        put_box(row, placement.box)
        card = card.placed(*placement)
        fives += max(decision.dice.count(f) for f in range(1, 7)) == 5
    return (card.total, int(card.upper_subtotal >= UPPER_TARGET), fives, card.yahtzee_bonuses,
            *card.entries)


def play_python(rules: RuleSet, strategy: UserStrategy, games: int,
                     seed: int, progress: Progress | None, traces: np.ndarray,
                     judge: GameJudge | None, first: int = 0) -> tuple[np.ndarray, ...]:
    """Games ``first .. first + games - 1`` of ``seed`` (``traces`` and ``judge`` hold
    them from row 0); judged ``PYTHON_JUDGE_BATCH`` games at a time from ``first``."""
    rows = []
    step = max(1, min(PROGRESS_STEP, games // 100))
    recorded = traces.shape[0] > 0
    batch = new_traces(0 if recorded else PYTHON_JUDGE_BATCH, rules)
    for g in range(games):
        row = g % PYTHON_JUDGE_BATCH
        trace = traces[g] if recorded else batch[row]
        rows.append(_play_python(rules, strategy, _Dice(seed, first + g), trace))
        if judge is not None and (row + 1 == PYTHON_JUDGE_BATCH or g + 1 == games):
            judge.add(g - row, traces[g - row:g + 1] if recorded else batch[:row + 1])
        if progress is not None and ((g + 1) % step == 0 or g + 1 == games):
            progress(g + 1, games)
    data = np.array(rows, dtype=np.int64).reshape(games, 4 + rules.n_boxes)
    return (data[:, 0], data[:, 1].astype(np.int8), data[:, 2].astype(np.int8),
            data[:, 3].astype(np.int8), data[:, 4:].astype(np.int8))
