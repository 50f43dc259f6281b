"""Solves in a worker process, while the front end goes on answering its user.

A turn under the win objective is a DP of seconds to minutes from an early card. The
terminal game (``yahtzee play --objective win``) and the web server's jobs
(:mod:`advisor.web.jobs`) run it in a process of their own: the player goes on typing
dice, keeps and boxes meanwhile, without sharing the interpreter lock with the solve,
and a solve no longer wanted (the turn was left, the game quit, Ctrl-C) ends at once
with its process, where a thread could only stop between two levels of the DP.

:class:`TurnSolves` is the terminal's client of the one worker runtime
(:class:`advisor.workers.WorkerService`):
it starts a turn's solve when the turn starts, answers at once whether the solve is done
(and with what), and says how far it is. A turn's solve is kept, so every roll of the
turn, an undo back into it and the review of the game share it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from typing import Any

from solver.errors import YahtzeeError
from solver.solved_turn import SolvedTurn, solve_turn
from solver.table import get_table

from .caches import Caches
from .model import Scorecard
from .objective import Objective
from .workers import JobFunc, Work, WorkerService

Solve = Work
"""One turn's solve and what it has reported: ``state`` is ``running``, ``done``
(``result``), ``failed`` (``error``) or ``cancelled``; ``done`` of ``total`` work
units (:func:`solver.solved_turn.solve_turn`'s progress)."""


def solve_turn_in_worker(arg: tuple[Scorecard, Objective, str | None, bool],
                         progress: Callable[[int, int], None], memory: Caches) -> SolvedTurn:
    """``solve_turn`` of ``(card, objective, table_path, whole_game)`` in the worker, with
    the worker's ``memory`` (the opponents' distributions kept for the game's next turns)."""
    card, objective, table_path, whole_game = arg
    return solve_turn(card, get_table(card.rules_name, table_path), objective.goal,
                      memory, progress=progress, whole_game=whole_game)


class TurnSolves:
    """A game's turn solves, one at a time in a worker process (spawned on first use).

    :meth:`start` asks for a turn (a new one ends the solve under way: the game has
    moved on; a turn asked again is not solved again); :meth:`get` says where a turn
    stands; :meth:`wait` blocks until it is done. ``on_change(solve)`` is called (on a
    reader thread) when a solve ends by its worker's word (done, failed, the worker
    died). ``func`` runs in the worker: :func:`solve_turn_in_worker` by default.
    """

    def __init__(self, table_path: str | None = None, *,
                 on_change: Callable[[Solve], None] | None = None,
                 func: JobFunc = solve_turn_in_worker) -> None:
        self.table_path = table_path
        self.on_change = on_change
        self.func = func
        self._solves: dict[Hashable, Solve] = {}
        self.worker = WorkerService("yahtzee-play-solves", on_end=self._ended,
                                   start_failed="the worker process could not be started: ")

    @property
    def process(self) -> Any:
        """The worker process now, if any."""
        return self.worker.process

    def start(self, card: Scorecard, objective: Objective, *, whole_game: bool = False
              ) -> Solve:
        """The solve of ``card``'s turn under ``objective``: the one running or done, else
        a new one (a failed or cancelled one is started again), which ends the one under
        way. A worker that cannot be started (no file descriptor or memory left) fails
        this solve, with the reason, and the next start tries again."""
        key = (card, objective)
        with self.worker.lock:
            found = self._solves.get(key)
            if found is not None and found.state in ("running", "done"):
                return found
            for running in self.worker.live():
                self.worker.cancel(running)
            solve = Solve(key, self.func, (card, objective, self.table_path, whole_game),
                          started=time.monotonic())
            self._solves[key] = solve
            return self.worker.submit(solve)

    def running(self) -> list[Solve]:
        """The solve under way, if any (a list of at most one)."""
        return self.worker.live()

    def get(self, card: Scorecard, objective: Objective) -> Solve | None:
        return self._solves.get((card, objective))

    def wait(self, card: Scorecard, objective: Objective,
             progress: Callable[[int, int], None] | None = None) -> SolvedTurn:
        """The turn solved (started when it is not under way), once done; a solve that
        failed raises :class:`~solver.errors.YahtzeeError` (an input error) or
        RuntimeError. ``progress(done, total)`` follows it."""
        solve = self.start(card, objective)
        with self.worker.changed:
            while solve.is_live:
                if progress is not None and solve.total:
                    progress(solve.done, solve.total)
                self.worker.changed.wait(0.5)
        if solve.state == "done":
            return solve.result
        raise YahtzeeError(f"the chance to win could not be worked out: {solve.error}")

    def close(self) -> None:
        """End the worker (a solve under way is abandoned)."""
        self.worker.close()

    def _ended(self, solve: Solve, by_worker: bool) -> None:
        if by_worker and self.on_change is not None:
            self.on_change(solve)
