"""A Python strategy's games played in several processes (``simulate(..., workers=N)``).

The games are cut into blocks of ``PYTHON_JUDGE_BATCH`` games, played in order by a pool
of ``N`` fresh (spawned) processes, each with one numba thread; a block's games are the
same whichever process plays it (each game has its own dice stream) and are judged as
one batch, as in one process, so the results are identical game for game and figure for
figure. The strategy goes to the processes by name (pickled): a function defined at the
top level of an importable module, as ``yahtzee simulate --strategy module:function``
names it.
"""

from __future__ import annotations

import multiprocessing
import pickle
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
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
    """A worker's set-up: one numba thread, the table, the strategy."""
    import numba

    from .game.rules import get_rules
    from .table import Table

    numba.set_num_threads(1)
    table = Table(get_rules(rules_name), values)
    _state.update(table=table, strategy=strategy, seed=seed, record=record, judged=judged,
                  references=References(table) if judged else None)


def _block(first: int, games: int) -> tuple[Any, ...]:
    """Games ``first .. first + games - 1`` in a worker: (outcomes, traces, per-game
    losses, judged chunks)."""

    table = _state["table"]
    rules = table.rules
    traces = np.full((games if _state["record"] else 0, rules.n_boxes,
                      2 * rules.rolls_per_turn), -1, dtype=np.int16)
    judge = GameJudge(table, games, first, _state["references"]) if _state["judged"] else None
    strategy = _state["strategy"]
    play = play_batch if is_batch(strategy) else play_python
    out = play(rules, strategy, games, _state["seed"], None, traces, judge, first)
    if judge is None:
        return out, traces, None, None
    return out, traces, judge.per_game, judge.chunks


def play_in_workers(table: Any, strategy: Callable[..., Any], games: int, seed: int,
                    workers: int, block: int, record: bool, judged: bool,
                    progress: Callable[[int, int], None] | None
                    ) -> tuple[tuple[np.ndarray, ...], np.ndarray, np.ndarray | None,
                               list[np.ndarray]]:
    """(outcomes, traces, per-game losses or None, judged chunks) of ``games`` games of
    ``seed`` played by ``strategy`` in ``workers`` processes, ``block`` games a task."""
    check_picklable(strategy)
    tasks = [(first, min(block, games - first)) for first in range(0, games, block)]
    context = multiprocessing.get_context("spawn")
    parts = []
    with ProcessPoolExecutor(min(workers, len(tasks)), mp_context=context,
                             initializer=_start,
                             initargs=(table.rules.name, np.asarray(table.values), strategy,
                                       seed, record, judged)) as pool:
        pending = [pool.submit(_block, *task) for task in tasks]
        done = 0
        try:
            for future in pending:  # in game order, each as soon as it is done
                part = future.result()
                parts.append(part)
                done += part[0][0].shape[0]
                if progress is not None:
                    progress(done, games)
        except BrokenProcessPool as exc:
            raise StrategyError(f"a worker process of strategy {_name(strategy)} stopped "
                                f"({shown(exc, 80)}); try workers=1") from None
        finally:
            for future in pending:
                future.cancel()
    outcomes = tuple(np.concatenate([p[0][k] for p in parts]) for k in range(5))
    traces = np.concatenate([p[1] for p in parts])
    if not judged:
        return outcomes, traces, None, []
    return (outcomes, traces, np.concatenate([p[2] for p in parts]),
            [chunk for p in parts for chunk in p[3]])
