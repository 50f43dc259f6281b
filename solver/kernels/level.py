"""The one container of a level's stored values, as the kernels take it."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class LevelStore(NamedTuple):
    """The values stored for the states of one level (or of several, one after the
    other); ``slot[m, u, y]`` (a table beside it) is a state's index ``i``.

    State ``i`` = (``m[i]``, ``u[i]``, ``y[i]``) (int64 (n,): filled mask, capped upper
    subtotal, flag) holds a vector over a column ``a`` (points so far for the target DP,
    points still to come for the statistics) on ``lo[i] <= a <= hi[i]`` at
    ``vals[start[i] + a - lo[i]]`` (``start`` (n + 2,), ``lo``, ``hi`` (n + 1,) int64;
    ``vals`` flat float64); outside, the reader knows the value (0 below, the utility's
    top above). State ``n`` is an empty placeholder (``lo > hi``). ``extra`` (n, k): ``k``
    figures per state (the statistics' expected counts), or (n, 0).
    """

    m: np.ndarray
    u: np.ndarray
    y: np.ndarray
    start: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    vals: np.ndarray
    extra: np.ndarray


def new_store(m: np.ndarray, u: np.ndarray, y: np.ndarray, lo: np.ndarray, hi: np.ndarray, *,
              step: int = 1, n_extra: int = 0) -> LevelStore:
    """A zeroed :class:`LevelStore` for states (m, u, y) (int64 arrays) on columns
    ``lo..hi``, each range padded to a multiple of ``step`` columns, with an empty
    placeholder state after them (index ``n``)."""
    n = m.shape[0]
    lengths = np.where(hi >= lo, -(-(hi - lo + 1) // step) * step, 0)
    start = np.zeros(n + 2, dtype=np.int64)
    np.cumsum(lengths, out=start[1:n + 1])
    start[n + 1] = start[n]
    size = int(start[n])
    return LevelStore(m, u, y, start, np.append(lo, 1 << 40).astype(np.int64),
                      np.append(hi, -(1 << 40)).astype(np.int64), np.zeros(size),
                      np.zeros((n, n_extra)))
