"""A Python strategy's games played in several processes (``simulate(..., workers=N)``).

The games are cut into blocks (``PYTHON_JUDGE_BATCH`` games for a Python strategy, the
lockstep ``BATCH_GAMES`` for a batch strategy) played by N processes: this one and a
pool of N - 1 fresh (spawned) ones, each with one numba thread. The pool takes the
blocks from the first on; this process, which has nothing to start, plays the last
blocks while the pool starts, and every block from the end that the pool has not begun.
A block's games are the same whichever process plays it (each game has its own dice
stream) and are judged as one batch, as in one process, so the results are identical
game for game and figure for figure. The strategy goes to the processes by name
(pickled): a function defined at the top level of an importable module, as ``yahtzee
simulate --strategy module:function`` names it.
"""

from __future__ import annotations

import multiprocessing
import pickle
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import numpy as np

from .errors import StrategyError, shown
from .judge import GameJudge, References
from .numbers import check_count
from .simulate_batch import is_batch, play_batch
from .simulate_python import play_python

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


def _start(rules_name: str, values: np.ndarray, strategy: Any, seed: int, record: bool,
           judged: bool) -> None:
    """A worker's set-up: one numba thread, the table, the strategy, the judge's
    references."""
    import numba

    from .game.rules import get_rules
    from .table import Table

    numba.set_num_threads(1)
    table = Table(get_rules(rules_name), values)
    _state.update(table=table, strategy=strategy, seed=seed, record=record, judged=judged,
                  references=References(table) if judged else None)


def _block(first: int, games: int) -> Part:
    """Games ``first .. first + games - 1`` in a worker."""
    return play_block(_state, first, games)


def play_block(state: dict[str, Any], first: int, games: int) -> Part:
    """Games ``first .. first + games - 1`` of ``state`` (``table``, ``strategy``,
    ``seed``, ``record``, ``judged``, ``references``): (outcomes, traces, per-game losses,
    judged chunks)."""
    table = state["table"]
    rules = table.rules
    traces = np.full((games if state["record"] else 0, rules.n_boxes,
                      2 * rules.rolls_per_turn), -1, dtype=np.int16)
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
    here = {"table": table, "strategy": strategy, "seed": seed, "record": record,
            "judged": judged, "references": References(table) if judged else None}
    context = multiprocessing.get_context("spawn")
    parts: list[Part | None] = [None] * len(tasks)
    done = 0

    def finished(i: int, part: Part) -> None:
        nonlocal done
        parts[i] = part
        done += part[0][0].shape[0]
        if progress is not None:
            progress(done, games)

    if len(tasks) == 1:  # nothing to share
        finished(0, play_block(here, *tasks[0]))
        return _joined([p for p in parts if p is not None], judged)
    with ProcessPoolExecutor(min(workers - 1, len(tasks) - 1), mp_context=context,
                             initializer=_start,
                             initargs=(table.rules.name, np.asarray(table.values), strategy,
                                       seed, record, judged)) as pool:
        pending: list[Future[Part]] = [pool.submit(_block, *task) for task in tasks]
        try:
            for i in range(len(tasks) - 1, -1, -1):  # from the end, each block not begun
                if not pending[i].cancel():
                    break
                finished(i, play_block(here, *tasks[i]))
            for i, future in enumerate(pending):
                if parts[i] is None:
                    finished(i, future.result())
        except BrokenProcessPool as exc:
            raise StrategyError(f"a worker process of strategy {_name(strategy)} stopped "
                                f"({shown(exc, 80)}); try workers=1") from None
        finally:
            for future in pending:
                future.cancel()
    return _joined([p for p in parts if p is not None], judged)


def _joined(parts: list[Part], judged: bool) -> tuple[tuple[np.ndarray, ...], np.ndarray,
                                                       np.ndarray | None, list[Any]]:
    """The blocks' parts (in game order) as one."""
    outcomes = tuple(np.concatenate([p[0][k] for p in parts]) for k in range(5))
    traces = np.concatenate([p[1] for p in parts])
    if not judged:
        return outcomes, traces, None, []
    return (outcomes, traces, np.concatenate([p[2] for p in parts]),
            [chunk for p in parts for chunk in p[3]])
