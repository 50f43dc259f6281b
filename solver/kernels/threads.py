"""Parallel loops without numba's parallel compiler: a serial kernel over blocks of work,
on numba's number of threads.

A ``parallel=True`` kernel costs seconds more to compile than the same loop written
serially (numba's parfor passes and the gufunc they generate: 6 to 7 CPU seconds each for
the statistics' level, the simulator's games and the target DP's level, cold, at load 9;
7.3 for the solver's level at load 1.2).
Their work comes in coarse blocks, so Python threads running a ``nogil`` kernel per block
do as well. Each block writes only its own outputs, so the results do not depend on the
threads or on the order the blocks run in.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numba


def run_blocks(kernel: Callable[..., Any], n: int, n_blocks: int, *args: Any) -> None:
    """``kernel(begin, end, *args)`` for ``n_blocks`` blocks of ``range(n)`` (contiguous,
    within one item of the same size), on ``numba.get_num_threads()`` threads. ``kernel``
    is compiled with ``nogil=True``."""
    n_blocks = max(1, min(n, n_blocks))
    bounds = [(b * n // n_blocks, (b + 1) * n // n_blocks) for b in range(n_blocks)]
    threads = min(numba.get_num_threads(), n_blocks)
    if threads <= 1:
        for begin, end in bounds:
            kernel(begin, end, *args)
        return
    with ThreadPoolExecutor(threads) as pool:
        for done in [pool.submit(kernel, begin, end, *args) for begin, end in bounds]:
            done.result()


PIECE_BLOCKS_PER_THREAD = 8
"""Blocks per thread of one even piece of a level (:func:`piece_blocks`)."""


def piece_blocks() -> int:
    """The blocks to cut one even piece of a level's tasks into (a solve reports its
    progress after each of about 200 pieces): a few per thread. Each block is a call
    into numba from Python (its arguments checked, its scratch allocated: about 20
    microseconds); 256 blocks per piece, as for a whole level, spent a fifth of the
    CPU time of a mid-game turn's solve on them (measured: Ann's turn 5 of the review
    benchmark, 4.0 s against 3.2 s in 8 blocks, the same values)."""
    return PIECE_BLOCKS_PER_THREAD * numba.get_num_threads()
