"""Batch strategies of the simulator: every live game's decision answered at once.

A batch strategy is a callable marked with :func:`batch_strategy` (a true attribute
``batch``). It is called with a :class:`DecisionBatch` (numpy arrays, one row per live
game: the observation of the Gymnasium environment stacked, and its ``action_mask``) and
returns one action per row, an int array of shape ``(len(batch),)`` in the actions of
:mod:`solver.game.actions` (keeps by dice position, then boxes), so that a policy
trained in the environment (a neural network, a table) plays here as is, and fast.
``BATCH_GAMES`` games advance in lockstep, one decision each per call.

An answer of the wrong shape or type, or an illegal action, raises
:class:`~solver.errors.IllegalStrategyMoveError` naming the decision; an error the
strategy raises becomes a :class:`~solver.errors.StrategyError`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from ..errors import IllegalStrategyMoveError, StrategyError, Terminated, shown
from ..game.actions import KEEP_ACTIONS
from ..game.card import Scorecard
from ..game.dice import DICE
from ..game.rules import UPPER_TARGET, RuleSet
from ..game.trace import new_traces
from ..kernels import batch as bk
from .judge import GameJudge
from .python import Decision, Progress, describe

BATCH_GAMES = 1_000
"""Games in lockstep (judged together, and a worker's task)."""
F = TypeVar("F", bound=Callable[..., Any])


def batch_strategy(strategy: F) -> F:
    """Mark ``strategy`` as a batch strategy (it answers a :class:`DecisionBatch`)."""
    strategy.batch = True  # type: ignore[attr-defined]
    return strategy


def is_batch(strategy: Any) -> bool:
    return getattr(strategy, "batch", False) is True


@dataclass(frozen=True, eq=False)
class DecisionBatch:
    """The decisions of the live games of one step, one row each (int64 arrays): ``dice``
    (n, 5) faces, lowest first; ``card`` (n, n_boxes) entries, -1 while open;
    ``upper_subtotal`` (n,) (not capped); ``yahtzee_box`` (n,) 0 open, 1 holding 0, 2
    holding 50; ``rolls_left`` (n,); ``action_mask`` (n, 31 + n_boxes) int8, 1 for each
    legal action; ``yahtzee_bonuses``, ``turn`` (1-based) and ``game`` (the game's number
    in the simulation) (n,)."""

    rules: RuleSet
    dice: np.ndarray
    card: np.ndarray
    upper_subtotal: np.ndarray
    yahtzee_box: np.ndarray
    rolls_left: np.ndarray
    action_mask: np.ndarray
    yahtzee_bonuses: np.ndarray
    turn: np.ndarray
    game: np.ndarray

    def __len__(self) -> int:
        return int(self.dice.shape[0])

    def observation(self) -> dict[str, np.ndarray]:
        """The rows as the environment's observation keys."""
        return {"card": self.card, "upper_subtotal": self.upper_subtotal,
                "yahtzee_box": self.yahtzee_box, "dice": self.dice,
                "rolls_left": self.rolls_left}

    def decision(self, i: int) -> Decision:
        """Row ``i`` as a :class:`~solver.simulate.python.Decision`."""
        entries = tuple(None if e < 0 else int(e) for e in self.card[i])
        card = Scorecard.played(entries, int(self.yahtzee_bonuses[i]), self.rules.name)
        return Decision(card, tuple(int(f) for f in self.dice[i]), int(self.rolls_left[i]))


def _name(strategy: Any) -> str:
    return shown(getattr(strategy, "__name__", type(strategy).__name__), 40)


def _new_board(n: int, rules: RuleSet) -> bk.Board:
    nb = rules.n_boxes
    return bk.Board(np.zeros(n, dtype=np.uint64), np.zeros(n, dtype=np.int64),
                    np.zeros(n, dtype=np.int64), np.zeros((n, 3), dtype=np.int64),
                    np.zeros((n, 5), dtype=np.int64), np.full((n, nb), -1, dtype=np.int64),
                    new_traces(n, rules))


def _observe(rules: RuleSet, board: bk.Board, live: np.ndarray, first: int) -> DecisionBatch:
    n, nb = len(live), rules.n_boxes
    dice = np.empty((n, DICE), dtype=np.int64)
    card = np.empty((n, nb), dtype=np.int64)
    upper = np.empty(n, dtype=np.int64)
    yahtzee = np.empty(n, dtype=np.int64)
    mask = np.empty((n, KEEP_ACTIONS + nb), dtype=np.int8)
    bk.observe(live, board, rules.arrays, dice, card, upper, yahtzee, mask)
    return DecisionBatch(rules, dice, card, upper, yahtzee, board.left[live].copy(), mask,
                         board.tally[live, 3].copy(), board.tally[live, bk.TURN] + 1,
                         live + first)


def _actions(strategy: Any, batch: DecisionBatch) -> np.ndarray:
    """The strategy's actions for ``batch``, checked to be one int per decision."""
    n = len(batch)
    try:
        answer = strategy(batch)
    except (Exception, SystemExit) as exc:  # noqa: BLE001  (the user's code may raise anything)
        if isinstance(exc, Terminated):
            raise
        raise StrategyError(f"batch strategy {_name(strategy)} failed with "
                            f"{type(exc).__name__}: {shown(exc, 60)} at a batch of {n} "
                            f"decisions, first {describe(batch.decision(0))}") from exc
    try:
        actions = np.asarray(answer)
    except Exception:  # noqa: BLE001  (any object a strategy may return)
        actions = np.empty(0, dtype=object)
    if actions.shape != (n,) or actions.dtype.kind not in "iu":
        got = (f"an array of shape {actions.shape} and type {actions.dtype}"
               if actions.dtype != object else shown(type(answer).__name__, 30))
        raise IllegalStrategyMoveError(
            f"batch strategy {_name(strategy)} answered {got} for {n} decisions: return "
            f"integers of shape ({n},), one action per decision (0-{KEEP_ACTIONS - 1} keep "
            f"dice by position, {KEEP_ACTIONS}+ fill a box); first decision: "
            f"{describe(batch.decision(0))}")
    return actions.astype(np.int64)


_WHY = {bk.NO_ROLL_LEFT: "no rolls are left: a box is needed",
        bk.BOX_NOT_ALLOWED: "that box is filled or the Joker rule forbids it"}


def _illegal(strategy: Any, batch: DecisionBatch, actions: np.ndarray, i: int,
             error: int) -> IllegalStrategyMoveError:
    a = int(actions[i])
    width = batch.action_mask.shape[1]
    what = (f"box {batch.rules.boxes[a - KEEP_ACTIONS].name}: " if KEEP_ACTIONS <= a < width
            else "")
    why = _WHY.get(error, f"not an action 0 to {width - 1}")
    legal = ", ".join(map(str, np.flatnonzero(batch.action_mask[i])))
    return IllegalStrategyMoveError(
        f"batch strategy {_name(strategy)}: illegal action {a} ({what}{why}) at "
        f"{describe(batch.decision(i))} (game {int(batch.game[i])}; legal: {legal})")


def play_batch(rules: RuleSet, strategy: Any, games: int, seed: int,
               progress: Progress | None, traces: np.ndarray, judge: GameJudge | None,
               first: int = 0) -> tuple[np.ndarray, ...]:
    """Games ``first .. first + games - 1`` of ``seed`` played by a batch strategy,
    ``BATCH_GAMES`` at a time (``traces`` and ``judge`` hold them from row 0): (scores,
    upper bonus earned, turns five alike, Yahtzee bonuses, entries)."""
    nb = rules.n_boxes
    scores = np.empty(games, dtype=np.int64)
    upper = np.empty(games, dtype=np.int8)
    fives = np.empty(games, dtype=np.int8)
    bonuses = np.empty(games, dtype=np.int8)
    entries = np.empty((games, nb), dtype=np.int8)
    for start in range(0, games, BATCH_GAMES):
        n = min(BATCH_GAMES, games - start)
        board = _new_board(n, rules)
        bk.start_games(np.uint64(seed), np.uint64(first + start), rules.arrays.n_rerolls,
                       board)
        live = np.arange(n, dtype=np.int64)
        errors = np.zeros(n, dtype=np.int64)
        while len(live):
            batch = _observe(rules, board, live, first + start)
            actions = _actions(strategy, batch)
            bk.check_actions(live, board, actions, rules.arrays, errors)
            bad = np.flatnonzero(errors[:len(live)])
            if len(bad):
                i = int(bad[0])
                raise _illegal(strategy, batch, actions, i, int(errors[i]))
            bk.apply_actions(live, board, actions, rules.arrays)
            live = live[board.tally[live, bk.TURN] < nb]
        stop = start + n
        scores[start:stop] = board.tally[:, 0]
        upper[start:stop] = board.tally[:, 1] >= UPPER_TARGET
        fives[start:stop] = board.tally[:, 2]
        bonuses[start:stop] = board.tally[:, 3]
        entries[start:stop] = board.entries
        if traces.shape[0]:
            traces[start:stop] = board.traces
        if judge is not None:
            judge.add(start, board.traces)
        if progress is not None:
            progress(stop, games)
    return scores, upper, fives, bonuses, entries
