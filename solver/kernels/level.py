"""The one container of a level's stored values, as the kernels take it."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class LevelStore(NamedTuple):
    """The values stored for the states of one level (or of several, one after the
    other); ``slot[m, u, y]`` (a table beside it) is a state's index ``i``.

    State ``i`` holds a vector over a column ``a`` (points so far for the target DP,
    points still to come for the statistics) on ``lo[i] <= a <= hi[i]``, at
    ``vals[start[i] + a - lo[i]]``; outside, the reader knows the value (0 below, the
    utility's top above). Where the container ends, a state may be an empty placeholder
    (``lo > hi``).
    """

    m: np.ndarray
    """(n,) int64 filled mask of each state."""
    u: np.ndarray
    """(n,) int64 capped upper subtotal."""
    y: np.ndarray
    """(n,) int64 flag (the Yahtzee box holds 50)."""
    start: np.ndarray
    """(n + 2,) int64 offsets into ``vals``."""
    lo: np.ndarray
    """(n + 1,) int64 first column stored."""
    hi: np.ndarray
    """(n + 1,) int64 last column stored."""
    vals: np.ndarray
    """flat float64: the primary values."""
    vals2: np.ndarray
    """flat float64: the secondary values (win objective: P(tie)), at the same offsets,
    or empty."""
    extra: np.ndarray
    """(n, k) float64: ``k`` figures per state (the statistics' expected counts), or
    (n, 0)."""


def new_store(m: np.ndarray, u: np.ndarray, y: np.ndarray, lo: np.ndarray, hi: np.ndarray, *,
              step: int = 1, pair: bool = False, n_extra: int = 0) -> LevelStore:
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
                      np.zeros(size if pair else 0), np.zeros((n, n_extra)))
