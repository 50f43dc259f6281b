"""Solves in a worker process, while the front end goes on answering its user.

A turn under the win objective is a DP of seconds to minutes from an early card. The
terminal game (``yahtzee play --objective win``) and the web server's jobs
(:mod:`advisor.web.jobs`) run it in a process of their own: the player goes on typing
dice, keeps and boxes meanwhile, without sharing the interpreter lock with the solve,
and a solve no longer wanted (the turn was left, the game quit, Ctrl-C) ends at once
with its process, where a thread could only stop between two levels of the DP.

:func:`worker_main` is the worker's loop (one job at a time, reporting progress, then the
result or the error); :class:`TurnSolves` is the terminal's client of one such worker:
it starts a turn's solve when the turn starts, answers at once whether the solve is done
(and with what), and says how far it is. A turn's solve is kept, so every roll of the
turn, an undo back into it and the review of the game share it.
"""

from __future__ import annotations

import multiprocessing
import signal
import threading
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from solver.errors import YahtzeeError
from solver.table import get_table

from .model import Scorecard
from .objective import Objective
from .solved_turn import SolvedTurn, solve_turn

JobFunc = Callable[[Any, Callable[[int, int], None]], Any]
"""``func(arg, progress)``: a picklable module-level function of the worker."""


class WorkerFailed(RuntimeError):
    """A worker process could not be started, or ended while it worked (out of memory?):
    the server's fault, not the input's; asked again, the work is tried in a new one."""


class Reporter:
    """The progress callback of a job in the worker: each change goes to the client."""

    def __init__(self, conn: Any, job_id: str) -> None:
        self.conn, self.job_id, self.last = conn, job_id, (-1, -1)

    def __call__(self, done: int, total: int) -> None:
        if (done, total) != self.last:
            self.last = (done, total)
            self.conn.send(("progress", self.job_id, done, total))


def worker_main(conn: Any) -> None:
    """The worker process: run each ``(job_id, func, arg)`` received, sending
    ``("progress", id, done, total)`` as it goes, then ``("done", id, result, False)``
    or ``("failed", id, message, is_input_error)``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the client's to act on
    while True:
        try:
            job_id, func, arg = conn.recv()
        except (EOFError, OSError):
            return
        try:
            result = func(arg, Reporter(conn, job_id))
        except YahtzeeError as exc:
            conn.send(("failed", job_id, str(exc), True))
        except Exception as exc:  # noqa: BLE001 - reported to the client
            conn.send(("failed", job_id, f"{type(exc).__name__}: {exc}", False))
        else:
            conn.send(("done", job_id, result, False))


def spawn_worker(name: str) -> tuple[Any, Any]:
    """A new worker process running :func:`worker_main` and our end of its pipe; raises
    (OSError, ...) when it cannot be started, with both ends of the pipe closed."""
    context = multiprocessing.get_context("spawn")
    mine, theirs = context.Pipe()
    try:
        process = context.Process(target=worker_main, args=(theirs,), daemon=True, name=name)
        process.start()
    except BaseException:  # (no file descriptor or memory left): nothing left open
        mine.close()
        raise
    finally:
        theirs.close()
    return process, mine


# ---------------------------------------------------------------------- the terminal's
@dataclass
class Solve:
    """One turn's solve and what it has reported: ``state`` is ``running``, ``done``
    (``result``), ``failed`` (``error``) or ``cancelled``; ``done`` of ``total`` work
    units (:func:`advisor.solved_turn.solve_turn`'s progress)."""

    key: Hashable
    state: str = "running"
    done: int = 0
    total: int = 0
    started: float = 0.0
    ended: float | None = None
    result: Any = None
    error: str | None = None

    @property
    def seconds(self) -> float:
        return (self.ended or time.monotonic()) - self.started

    def seconds_left(self) -> float | None:
        """The time still to go at the rate of the work done so far (the units are
        work, :func:`advisor.solved_turn.turn_work`), or None before a first
        estimate can be made (under a twentieth of the work done, or in the first 3
        seconds)."""
        if self.state != "running" or not self.total or self.done * 20 < self.total:
            return None
        spent = time.monotonic() - self.started  # (a long level under way slows the rate)
        if spent < 3.0:
            return None
        return max((self.total - self.done) * spent / self.done, 1.0)


def solve_turn_in_worker(arg: tuple[Scorecard, Objective, str | None, bool],
                         progress: Callable[[int, int], None]) -> SolvedTurn:
    """``solve_turn`` of ``(card, objective, table_path, whole_game)`` in the worker."""
    card, objective, table_path, whole_game = arg
    return solve_turn(card, get_table(card.rules_name, table_path), objective,
                      progress=progress, whole_game=whole_game)


class TurnSolves:
    """A game's turn solves, one at a time in a worker process (spawned on first use).

    :meth:`start` asks for a turn (a new one ends the solve under way: the game has
    moved on; a turn asked again is not solved again); :meth:`get` says where a turn
    stands; :meth:`wait` blocks until it is done. ``on_change(solve)`` is called (on a
    reader thread) when a solve ends. ``func`` runs in the worker:
    :func:`solve_turn_in_worker` by default.
    """

    def __init__(self, table_path: str | None = None, *,
                 on_change: Callable[[Solve], None] | None = None,
                 func: JobFunc = solve_turn_in_worker) -> None:
        self.table_path = table_path
        self.on_change = on_change
        self.func = func
        self._solves: dict[Hashable, Solve] = {}
        self._running: Solve | None = None
        self._process: Any = None
        self._conn: Any = None
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)

    def start(self, card: Scorecard, objective: Objective, *, whole_game: bool = False
              ) -> Solve:
        """The solve of ``card``'s turn under ``objective``: the one running or done, else
        a new one (a failed or cancelled one is started again), which ends the one under
        way. A worker that cannot be started (no file descriptor or memory left) fails
        this solve, with the reason, and the next start tries again."""
        key = (card, objective)
        with self._lock:
            found = self._solves.get(key)
            if found is not None and found.state in ("running", "done"):
                return found
            if self._running is not None:
                self._cancel_running()
            solve = Solve(key, started=time.monotonic())
            self._solves[key] = solve
            try:
                if self._process is None or not self._process.is_alive():
                    self._spawn()
                self._conn.send((key, self.func, (card, objective, self.table_path,
                                                  whole_game)))
            except Exception as exc:  # noqa: BLE001 - this solve fails, the game goes on
                self._stop_worker()
                solve.state, solve.ended = "failed", time.monotonic()
                solve.error = f"the worker process could not be started: {exc}"
                self._changed.notify_all()
                return solve
            self._running = solve
            return solve

    def running(self) -> list[Solve]:
        """The solve under way, if any (a list of at most one)."""
        with self._lock:
            return [self._running] if self._running is not None else []

    def get(self, card: Scorecard, objective: Objective) -> Solve | None:
        return self._solves.get((card, objective))

    def wait(self, card: Scorecard, objective: Objective,
             progress: Callable[[int, int], None] | None = None) -> SolvedTurn:
        """The turn solved (started when it is not under way), once done; a solve that
        failed raises :class:`~solver.errors.YahtzeeError` (an input error) or
        RuntimeError. ``progress(done, total)`` follows it."""
        solve = self.start(card, objective)
        with self._changed:
            while solve.state == "running":
                if progress is not None and solve.total:
                    progress(solve.done, solve.total)
                self._changed.wait(0.5)
        if solve.state == "done":
            return solve.result
        raise YahtzeeError(f"the chance to win could not be worked out: {solve.error}")

    def close(self) -> None:
        """End the worker (a solve under way is abandoned)."""
        with self._lock:
            if self._running is not None:
                self._running.state, self._running.ended = "cancelled", time.monotonic()
                self._running = None
            self._stop_worker()

    # ------------------------------------------------------------------ the worker
    def _spawn(self) -> None:
        """A new worker and its reader thread (raises when either cannot be started)."""
        self._process, self._conn = spawn_worker("yahtzee-play-solves")
        threading.Thread(target=self._read, args=(self._conn,), daemon=True,
                         name="yahtzee-play-reader").start()

    def _cancel_running(self) -> None:
        """(Under the lock.) The running solve ends with its worker."""
        assert self._running is not None
        self._running.state, self._running.ended = "cancelled", time.monotonic()
        self._running = None
        self._stop_worker()
        self._changed.notify_all()

    def _stop_worker(self) -> None:
        process, conn = self._process, self._conn
        self._process = self._conn = None
        if process is not None:
            process.terminate()
            process.join(5)
        if conn is not None:
            conn.close()

    def _read(self, conn: Any) -> None:
        """The reader thread of one worker: its reports update the solves."""
        while True:
            try:
                message = conn.recv()
            except (EOFError, OSError):
                message = ("gone", None)
            ended = self._on_message(conn, message)
            if ended is not None and self.on_change is not None:
                self.on_change(ended)
            if message[0] == "gone":
                return

    def _on_message(self, conn: Any, message: tuple) -> Solve | None:
        with self._lock:
            solve = self._running
            if conn is not self._conn or solve is None:  # a stopped worker's last words
                return None
            kind = message[0]
            if kind == "progress":
                if message[1] == solve.key:
                    solve.done, solve.total = message[2], message[3]
                return None
            if kind == "gone":
                solve.state, solve.error = "failed", "the worker process ended (out of memory?)"
                self._process = self._conn = None
            elif message[1] != solve.key:
                return None
            elif kind == "done":
                solve.state, solve.result = "done", message[2]
                solve.done = solve.total = max(solve.total, 1)
            else:
                solve.state, solve.error = "failed", message[2]
            solve.ended = time.monotonic()
            self._running = None
            self._changed.notify_all()
            return solve
