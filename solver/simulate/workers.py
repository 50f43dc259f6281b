"""A Python strategy's games played in several processes (``simulate(..., workers=N)``).

The games are cut into blocks (``PYTHON_JUDGE_BATCH`` games for a Python strategy, the
lockstep ``BATCH_GAMES`` for a batch strategy) played by N processes: this one and a
pool of N - 1 fresh (spawned) ones, each with one numba thread. The pool takes the
blocks from the first on; this process, which has nothing to start, plays the last
blocks while the pool starts (its tasks are submitted from a thread: a spawn waits for
the new process to read the table), and takes blocks from the end until the two meet.
Each block is claimed once, when a process begins it (a shared pair of counters), so no
process waits for a block queued to another: at the end one process waits at most for
the rest of the block another is playing. A block's games are the same whichever
process plays it (each game has its own dice stream) and are judged as one batch, as in
one process, so the results are identical game for game and figure for figure. The
strategy goes to the processes by name (pickled): a function defined at the top level
of an importable module, as ``yahtzee simulate --strategy module:function`` names it.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import pickle
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import numba
import numpy as np

from ..errors import StrategyError, shown
from ..game.rules import get_rules
from ..game.trace import new_traces
from ..numbers import check_count
from ..table import Table
from .batch import is_batch, play_batch
from .judge import GameJudge, References
from .policies import heuristic_pars, take_pars
from .python import play_python

MAX_WORKERS = 64
_state: dict[str, Any] = {}
"""A worker's set-up (:func:`_start`)."""

Part = tuple[Any, ...]
"""A block's (outcomes, traces, per-game losses or None, judged chunks or None)."""


def check_workers(workers: int) -> int:
    return check_count(workers, MAX_WORKERS, "the number of worker processes")


def _name(strategy: Any) -> str:
    return shown(getattr(strategy, "__name__", type(strategy).__name__), 40)


def check_picklable(strategy: Callable[..., Any]) -> None:
    """Raise StrategyError unless ``strategy`` can be sent to another process."""
    try:
        pickle.dumps(strategy)
    except Exception as exc:  # noqa: BLE001  (whatever pickling a user's object raises)
        raise StrategyError(
            f"strategy {_name(strategy)} cannot be sent to worker processes "
            f"({type(exc).__name__}); with workers, use a function defined at the top "
            "level of a module "
            "(module:function), or workers=1") from None


def _start(rules_name: str, values: np.ndarray, pars: np.ndarray, strategy: Any, seed: int,
           record: bool, judged: bool, claims: Any) -> None:
    """A worker's set-up: one numba thread, the table, the heuristic's pars (this
    process's), the strategy, the judge's references, the blocks' claims
    (:func:`_claim_front`)."""
    atexit.register(_leave)
    rules = get_rules(rules_name)
    take_pars(rules, pars)
    numba.set_num_threads(1)
    values.flags.writeable = False  # read-only as a table's own: the kernels' one signature
    table = Table(rules, values)
    _state.update(table=table, strategy=strategy, seed=seed, record=record, judged=judged,
                  references=References(table) if judged else None, claims=claims)


def _leave() -> None:
    """A worker's exit, once the pool has told it to stop (its results are sent and
    multiprocessing has flushed its queues): at once, without Python's finalization of
    numba and every module (about a second in which the first process would wait)."""
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()
    os._exit(0)


def _block(index: int, first: int, games: int) -> Part | None:
    """Block ``index`` (games ``first .. first + games - 1``) in a worker, or None when
    the first process took it."""
    if not _claim_front(_state["claims"], index):
        return None
    return play_block(_state, first, games)


def _claim_front(claims: Any, index: int) -> bool:
    """Claim block ``index`` for a worker unless the first process took it. ``claims``:
    a shared (front, back): one past the last block a worker took, and the first block
    the first process took (it takes them from the end)."""
    with claims.get_lock():
        if index >= claims[1]:
            return False
        claims[0] = max(claims[0], index + 1)
        return True


def _claim_back(claims: Any) -> int | None:
    """The last block no process has taken, claimed for the first process (None: none
    left)."""
    with claims.get_lock():
        if claims[1] - 1 < claims[0]:
            return None
        claims[1] -= 1
        return int(claims[1])


def _stop(claims: Any) -> None:
    """No process takes another block."""
    with claims.get_lock():
        claims[1] = 0


def play_block(state: dict[str, Any], first: int, games: int) -> Part:
    """Games ``first .. first + games - 1`` of ``state`` (``table``, ``strategy``,
    ``seed``, ``record``, ``judged``, ``references``): (outcomes, traces, per-game losses,
    judged chunks)."""
    table = state["table"]
    rules = table.rules
    traces = new_traces(games if state["record"] else 0, rules)
    judge = GameJudge(table, games, first, state["references"]) if state["judged"] else None
    strategy = state["strategy"]
    play = play_batch if is_batch(strategy) else play_python
    out = play(rules, strategy, games, state["seed"], None, traces, judge, first)
    if judge is None:
        return out, traces, None, None
    return out, traces, judge.per_game, judge.chunks


def play_in_workers(table: Any, strategy: Callable[..., Any], games: int, seed: int,
                    workers: int, block: int, record: bool, judged: bool,
                    progress: Callable[[int, int], None] | None
                    ) -> tuple[tuple[np.ndarray, ...], np.ndarray, np.ndarray | None,
                               list[Any]]:
    """(outcomes, traces, per-game losses or None, judged chunks) of ``games`` games of
    ``seed`` played by ``strategy`` in ``workers`` processes (this one included),
    ``block`` games a task."""
    check_picklable(strategy)
    tasks = [(first, min(block, games - first)) for first in range(0, games, block)]
    parts: list[Part | None] = [None] * len(tasks)
    done = 0

    def finished(i: int, part: Part) -> None:
        nonlocal done
        parts[i] = part
        done += part[0][0].shape[0]
        if progress is not None:
            progress(done, games)

    def here() -> dict[str, Any]:
        return {"table": table, "strategy": strategy, "seed": seed, "record": record,
                "judged": judged, "references": References(table) if judged else None}

    if len(tasks) == 1:  # nothing to share
        finished(0, play_block(here(), *tasks[0]))
        return _joined(parts, judged)
    context = multiprocessing.get_context("spawn")
    claims = context.Array("q", [0, len(tasks)])
    pool = ProcessPoolExecutor(min(workers - 1, len(tasks) - 1), mp_context=context,
                               initializer=_start,
                               initargs=(table.rules.name, np.asarray(table.values),
                                         heuristic_pars(table.rules), strategy, seed,
                                         record, judged, claims))
    pending: list[Future[Part | None]] = []
    starting = _Submitter(pool, pending, tasks)
    threads = numba.get_num_threads()
    numba.set_num_threads(1)  # this process's share of the cores while the workers play
    try:
        state = here()
        while (i := _claim_back(claims)) is not None:
            finished(i, play_block(state, *tasks[i]))
            _collect(pending, parts, finished, wait=False)
        starting.finish()
        _collect(pending, parts, finished, wait=True)
    except BrokenProcessPool as exc:
        raise StrategyError(f"a worker process of strategy {_name(strategy)} stopped "
                            f"({shown(exc, 80)}); try workers=1") from None
    finally:
        numba.set_num_threads(threads)
        _stop(claims)
        starting.join()  # what it raised, if not yet raised, gives way to the error here
        pool.shutdown(wait=True, cancel_futures=True)
    return _joined(parts, judged)


class _Submitter(threading.Thread):
    """Submits the blocks' tasks (``pending`` in block order) from its own thread: a
    worker's start (its Python, its imports) delays the first submit, and this process
    plays meanwhile. :meth:`finish` waits for it and re-raises what submitting raised."""

    def __init__(self, pool: ProcessPoolExecutor, pending: list[Future[Part | None]],
                 tasks: list[tuple[int, int]]) -> None:
        super().__init__(name="simulate-workers-submit", daemon=True)
        self.pool, self.pending, self.tasks = pool, pending, tasks
        self.error: BaseException | None = None
        self.start()

    def run(self) -> None:
        try:
            for i, task in enumerate(self.tasks):
                self.pending.append(self.pool.submit(_block, i, *task))
        except BaseException as exc:  # noqa: BLE001  (re-raised by join)
            self.error = exc

    def finish(self) -> None:
        self.join()
        if self.error is not None:
            raise self.error


def _collect(pending: list[Future[Part | None]], parts: list[Part | None],
             finished: Callable[[int, Part], None], wait: bool) -> None:
    """Take the workers' finished blocks (every one with ``wait``) into ``parts``."""
    for i, future in enumerate(list(pending)):
        if parts[i] is None and (wait or future.done()):
            part = future.result()
            if part is not None:
                finished(i, part)


def _joined(parts: list[Part | None], judged: bool) -> tuple[tuple[np.ndarray, ...], np.ndarray,
                                                       np.ndarray | None, list[Any]]:
    """The blocks' parts (in game order, every one played) as one."""
    if any(p is None for p in parts):
        raise RuntimeError("a block of games was not played")  # cannot happen: claimed
    played = [p for p in parts if p is not None]
    outcomes = tuple(np.concatenate([p[0][k] for p in played]) for k in range(5))
    traces = np.concatenate([p[1] for p in played])
    if not judged:
        return outcomes, traces, None, []
    return (outcomes, traces, np.concatenate([p[2] for p in played]),
            [chunk for p in played for chunk in p[3]])
