"""One turn for a probability goal, solved once: every figure its advice needs.

A turn of ``card`` for a target, win or tournament goal (:mod:`solver.goals`) reads two
things from the vectors of the target / win DP (:mod:`solver.target`): the turn's own
recurrence at the card's total (:func:`solver.target.turn_at`: the value of every keep
with each number of rolls left) and, for each box the final dice can fill, the next
state's value at the points it leaves. :class:`SolvedTurn` holds both, computed for
every roll at once, so it answers all the rolls of the turn (and an undo back into it)
without the vectors: it is a few tens of KB where the vectors of a whole game take
hundreds of MB, and it can be sent from the process that solved it (the web server's
background jobs) to the one that answers.

``solve_turn`` follows the solve with one progress callback ``(done, total)`` over its
work (:func:`turn_work`, in the operations of the kernels, known before it starts): each
opponent's distribution still to compute, then the DP, each reporting its share done in
even pieces, so that the share done and the time it took give an honest estimate of the
time left. The first turn of a game played to win is the same in every game: it is read
from its file (:mod:`solver.first_turn`), solved only once. What a solve keeps for the
next question (the opponents' distributions, the game's vectors) is kept in the caller's
:class:`~solver.memory.TurnMemory`, handed to every function here.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .first_turn import Parts, first_turn
from .first_turn import is_kept as first_turn_is_kept
from .game.card import Scorecard
from .goals import Goal
from .levels import PROGRESS_STEPS, PhaseProgress
from .memory import TurnMemory
from .points_to_come import NEW_GAME_STATE, is_distribution_known
from .readout import turn_placements
from .stats import stats_operations
from .target_table import build_command, default_max, get_targets

if TYPE_CHECKING:
    from .table import Table
    from .target import Vectors

Progress = Callable[[int, int], None]
"""progress(steps_done, steps_total)."""


@dataclass(frozen=True, eq=False)
class SolvedTurn:
    """A turn's figures for one goal, at the card's total.

    ``keep_values[j, k]``: the goal's probability (a target's, or the chance to win)
    after keeping ``k`` with ``j`` rolls left (rows ``j >= 1``; shape (rolls_per_turn,
    462)); ``value`` the same before the first roll; ``boxes[(box, points, bonus)]``: it
    after filling ``box`` with ``points`` (and that Yahtzee ``bonus``)."""

    keep_values: np.ndarray
    value: float
    boxes: dict[tuple[int, int, int], float]
    seconds: float = 0.0
    """Seconds the solve took (the DP and the opponents' distributions)."""

    def box(self, box: int, points: int, bonus: int) -> float:
        """The probability after scoring ``points`` (+ ``bonus``) in ``box``."""
        return self.boxes[(box, points, bonus)]


def turn_of(vectors: Vectors, card: Scorecard, seconds: float = 0.0) -> SolvedTurn:
    """The figures of ``card``'s turn from vectors that hold the level after its own."""
    from .target import turn_at  # loads numba (about 1 s): only a solve needs it

    rules = card.rules
    turn = turn_at(vectors, card.mask, card.upper, card.flag, card.total)
    boxes: dict[tuple[int, int, int], float] = {}
    for box, points, bonus in turn_placements(rules, card.mask, card.flag).T.tolist():
        m, u, y, upper_bonus = rules.after_box(card.mask, card.upper, card.flag, box, points)
        a = card.total + points + upper_bonus + bonus
        boxes[(box, points, bonus)] = vectors.value(m, u, y, a)
    return SolvedTurn(turn.keep_values, turn.value, boxes, seconds)


def solve_turn(card: Scorecard, table: Table, goal: Goal, memory: TurnMemory, *,
               progress: Progress | None = None, whole_game: bool = True) -> SolvedTurn:
    """``card``'s turn for ``goal`` (a target, win or tournament goal), solved.

    ``memory``: what earlier solves kept (the opponents' distributions, the game's
    vectors), and where this one keeps its own. ``whole_game``: the vectors are kept for
    the later turns of the game (one solve per game, :mod:`solver.vector_cache`); else
    only this turn's level is solved and kept (a goal that changes every turn, as ``play
    --objective win``'s; then the first turn of a game played to win is read from its
    file, :mod:`solver.first_turn`)."""
    began = time.perf_counter()
    stored = stored_vectors(table, goal, card)
    if stored is not None:  # the target table answers it: read, not solved
        return turn_of(stored, card, time.perf_counter() - began)
    players = None if whole_game else goal.first_turn_players(card)
    if players is not None:  # the same in every game: kept on disk
        (keep_values, value, boxes), _ = first_turn(
            table, players,
            lambda: _parts(_solved(card, table, goal, memory, progress, False)))
        return SolvedTurn(keep_values, value, boxes, time.perf_counter() - began)
    return _solved(card, table, goal, memory, progress, whole_game)


def solve_start(card: Scorecard, goal: Goal) -> Scorecard:
    """The card a turn of ``card`` is solved from: a new card for a goal that
    :attr:`~Goal.solves_from_new_game` when ``card`` has :attr:`~Goal.slow_open_boxes`
    or more open (one solve for every later turn and game), else ``card`` itself."""
    if goal.solves_from_new_game and len(card.open_boxes()) >= goal.slow_open_boxes:
        return Scorecard.new(card.rules_name)
    return card


def _parts(solved: SolvedTurn) -> Parts:
    return solved.keep_values, solved.value, solved.boxes


def _solved(card: Scorecard, table: Table, goal: Goal, memory: TurnMemory,
            progress: Progress | None, whole_game: bool) -> SolvedTurn:
    """:func:`solve_turn`'s DP (and the opponents' distributions it needs)."""
    from .target import solve_vectors  # numba (about 1 s to load): as above
    from .vector_cache import is_kept, vectors_for

    began = time.perf_counter()
    start = solve_start(card, goal)
    # a tournament's vectors kept (in the process or on disk): nothing to plan, one step
    kept = goal.solves_from_new_game and is_kept(card, table, goal, memory)
    steps = _Steps(progress, [1.0] if kept else _phases(start, table, goal, memory))
    utility = goal.utility(table, memory, phase=steps.phase)
    if whole_game or start is not card:
        vectors = vectors_for(start, table, goal, memory, steps.phase(), utility=utility,
                              turn=card)
    else:
        vectors = solve_vectors(table, utility, start=(card.mask, card.upper, card.flag),
                                total=card.total, progress=steps.phase())
    solved = turn_of(vectors, card, time.perf_counter() - began)
    steps.finish()
    return solved


def _phases(card: Scorecard, table: Table, goal: Goal, memory: TurnMemory) -> list[float]:
    """The work of each phase of a turn's solve, in the order solved: each opponent's
    distribution still to compute (in the order :meth:`Goal.utility` computes them),
    then the DP."""
    from .target import solve_operations  # numba (about 1 s to load)

    opponents = [stats_operations(table, (c.mask, c.upper, c.flag)) for c in goal.against
                 if not c.is_full and not is_distribution_known(c, table, memory)
                 and (c.mask, c.upper, c.flag) != NEW_GAME_STATE]  # (a new card's: read)
    dp = solve_operations(table, goal.utility_bounds(table),
                          start=(card.mask, card.upper, card.flag), total=card.total)
    return [*opponents, dp]


def turn_work(card: Scorecard, table: Table, goal: Goal, memory: TurnMemory, *,
              opponents: bool = True) -> float:
    """The work of solving ``card``'s turn for ``goal`` (a target, win or tournament
    goal), in operations of the kernels (:func:`solver.target.task_operations`): the
    opponents' distributions still to compute and the DP; 0 when nothing is solved (a
    target out of reach or in the target table, the first turn's file, the game's vectors
    kept in ``memory``). ``opponents``: False leaves the opponents' distributions out
    (worked out apart, :func:`solver.points_to_come.keep_points_to_come`)."""
    from .vector_cache import is_kept  # it loads solver.target (numba, about 1 s)

    if not goal.needs_solve(card) or stored_vectors(table, goal, card) is not None \
            or is_kept(card, table, goal, memory):
        return 0.0
    players = goal.first_turn_players(card)
    if players is not None and first_turn_is_kept(table, players):
        return 0.0
    phases = _phases(card, table, goal, memory)
    return sum(phases) if opponents else phases[-1]


def stored_vectors(table: Table, goal: Goal, card: Scorecard | None = None,
                   note: Callable[[str], None] | None = None) -> Vectors | None:
    """The vectors of a target goal from the rules' target table
    (:mod:`solver.target_table`, ``yahtzee solve --targets``) when it is there and
    holds the target (and, for a turn of ``card``, the level it reads is sound); else
    None: the question is solved (``note`` says why when the table is unusable)."""
    target = goal.target  # (the target table holds targets: no other goal has one)
    if target is None:
        return None
    targets = get_targets(table, note=note)
    if targets is None or not targets.answers(target):
        return None
    level = 0 if card is None else bin(card.mask).count("1") + 1  # what its turn reads
    fault = targets.level_fault(level)
    if fault is not None:
        if note is not None:
            note(f"note: {fault}; solving the question instead")
        return None
    return targets.vectors(target)


def solve_notes(card: Scorecard, table: Table, goal: Goal, memory: TurnMemory,
                solved: Sequence[int] = ()) -> list[str]:
    """What to tell a user before a question about ``card``'s turn for ``goal``, in order:
    a tournament's solve kept on disk that is unusable (:func:`note_stored_solve`), the
    target table unusable (:func:`stored_vectors`'s notes; it is then not used), and how
    to build a target table when the question is solved slowly without one
    (:func:`targets_note`; ``solved``: every target the question solves, when more than
    the goal's)."""
    notes: list[str] = []
    note_stored_solve(card, table, goal, notes.append)
    if goal.target is None:  # (only a target has a target table)
        return notes
    stored_vectors(table, goal, card, note=notes.append)
    text = targets_note(card, table, goal, memory, solved)
    return notes if text is None else [*notes, text]


def note_stored_solve(card: Scorecard, table: Table, goal: Goal,
                      note: Callable[[str], None]) -> None:
    """Before a question for a goal solved once from a new game: say (``note``) when its
    solve kept on disk (:meth:`Goal.stored_solve`) is unusable, its header or the level
    ``card``'s turn reads (read and checked now); it is then not used."""
    stored = goal.stored_solve(table, note=note)
    if stored is None or not stored.answers((card.mask, card.upper, card.flag), card.total):
        return
    fault = stored.level_fault(bin(card.mask).count("1") + 1)
    if fault is not None:
        note(f"note: {fault}; solving the tournament instead")


def targets_note(card: Scorecard, table: Table, goal: Goal, memory: TurnMemory,
                 solved: Sequence[int] = ()) -> str | None:
    """What to tell a user whose target question is solved (slowly) because no target
    table holds it: how to build one; None when nothing is to be said. ``solved``: every
    target the question solves, when more than the goal's (the largest)."""
    if goal.target is None or not solve_is_slow(card, table, goal, memory):
        return None
    rules = table.rules.name
    what = f"P(final score >= {goal.target})"
    if len(solved) > 1:
        what = f"P(final score >= X) for X = {', '.join(map(str, solved))}"
    targets = get_targets(table)
    if targets is None:
        return (f"note: {what} is solved from this card (up to a minute or more from a new "
                f"game); `{build_command(rules)}` stores the answers of every target up to "
                f"{default_max(rules)} once, and target questions then answer at once")
    return (f"note: {what} is solved from this card: the target table holds targets up to "
            f"{targets.max_target}; `{build_command(rules, goal.target)}` rebuilds it "
            f"for this one")


SLOW_OPPONENT_OPEN = 8
"""From this many open boxes an opponent's final-score distribution takes over a second."""


def solve_is_slow(card: Scorecard, table: Table, goal: Goal, memory: TurnMemory) -> bool:
    """True when solving ``card``'s turn for ``goal`` takes more than about a second
    (measured: ``benchmarks/bench_play_win.py``, ``benchmarks/bench_target.py``): nothing
    to solve for the expected score, nor when the game's vectors are kept in ``memory``."""
    from .vector_cache import is_kept  # it loads solver.target (numba, about 1 s)

    if not goal.needs_solve(card):
        return False
    if (goal.keeps_game_vectors or goal.solves_from_new_game) \
            and is_kept(card, table, goal, memory):  # (the game's vectors answer it)
        return False
    if stored_vectors(table, goal, card) is not None:
        return False
    if len(card.open_boxes()) >= goal.slow_open_boxes:
        return True
    return any(len(c.open_boxes()) >= SLOW_OPPONENT_OPEN
               and not is_distribution_known(c, table, memory) for c in goal.against)


class _Steps:
    """One progress callback over several solves (phases) of known work: each reports
    its share done, ``(d, t)``; the whole is reported as ``(done, PROGRESS_STEPS)``, in
    order, each step once."""

    def __init__(self, progress: Progress | None, phases: list[float]) -> None:
        self.progress = progress
        self.phases = [max(float(w), 1.0) for w in phases]
        self.total = sum(self.phases)
        self.reached = 0.0
        self.said = -1

    def phase(self) -> Progress | None:
        """A callback for the next solve: its ``(d, t)`` (share ``d / t`` of its work done)
        advances the whole by that share of the phase's work."""
        if self.progress is None:
            return None
        start = self.reached
        work = self.phases.pop(0) if self.phases else 0.0
        self.reached = min(start + work, self.total)

        def report(d: int, t: int) -> None:
            self._say(start + work * min(d, t) / max(t, 1))

        return PhaseProgress(report, work / self.total)

    def _say(self, done: float) -> None:
        step = min(int(PROGRESS_STEPS * done / max(self.total, 1.0)), PROGRESS_STEPS)
        if self.progress is not None and step > self.said:
            self.said = step
            self.progress(step, PROGRESS_STEPS)

    def finish(self) -> None:
        """The last report: every step done."""
        self._say(self.total)
