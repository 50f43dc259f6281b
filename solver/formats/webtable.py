"""The table file of a static site (``yahtzee site``): every reachable state's ``E``,
float64, in a compact layout the page's JavaScript (``advisor/web/static/engine.js``) reads.

Layout: the values of the states that can occur, one per class of upper subtotals that
share their values (:func:`solver.game.states.upper_classes`: subtotals from which 63 is out of
reach share one value, and all subtotals once the upper section is full), by mask, then
subtotal (the class's smallest member), then flag (0, and 1 where the Yahtzee box is
filled under rules that pay a bonus). The ``n`` values are stored as eight byte planes:
byte ``i`` (least significant first, little-endian) of every value, then byte ``i + 1``;
the sign and exponent bytes of similar values then sit together and a static host's
gzip packs them better (2.1 MB instead of 2.3 MB for official). No header: the reader
counts the states of the rule set itself and refuses a file of another size.

A file format, below the table driver: it reads a table's ``rules`` and ``values``
and imports nothing above it.
"""

from __future__ import annotations

import numpy as np

from ..errors import CorruptTableError
from ..game.rules import N_UPPER, RuleSet
from ..game.states import reachable_states, upper_classes
from .export import Solved

SUFFIX = ".f64planes"


def stored_states(rules: RuleSet) -> np.ndarray:
    """``rules.table_shape`` bool: the states whose value the file stores (a reachable
    state that is its class's representative)."""
    classes = upper_classes()
    masks = np.arange(rules.n_masks)
    representative = classes[masks & ((1 << N_UPPER) - 1)] == np.arange(classes.shape[1])
    return reachable_states(rules) & representative[:, :, None]


def web_table_bytes(table: Solved) -> bytes:
    """The file's bytes for ``table``. Raises :class:`CorruptTableError` when a reachable
    state has no finite value or a state differs from its class's representative (then
    the file could not give back every value)."""
    rules = table.rules
    values = np.asarray(table.values, dtype=np.float64)
    reach = reachable_states(rules)
    if not np.isfinite(values[reach]).all():
        raise CorruptTableError(f"the {rules.name} table has no value for some reachable "
                                f"state; rebuild it with yahtzee solve --rules {rules.name}")
    classes = upper_classes()
    rep = classes[np.arange(rules.n_masks) & ((1 << N_UPPER) - 1)]
    shared = np.take_along_axis(values, np.maximum(rep, 0)[:, :, None].repeat(
        values.shape[2], axis=2), axis=1)
    if not (shared[reach] == values[reach]).all():
        raise CorruptTableError(f"the {rules.name} table gives different values to "
                                f"subtotals that must share one")
    stored = values[stored_states(rules)].astype("<f8")
    return np.frombuffer(stored.tobytes(), dtype=np.uint8).reshape(-1, 8).T.tobytes()


def read_web_table(data: bytes, rules: RuleSet) -> np.ndarray:
    """The stored values (float64, in file order) of a file's bytes; the inverse of
    :func:`web_table_bytes` (for checks)."""
    n = int(stored_states(rules).sum())
    if len(data) != 8 * n:
        raise CorruptTableError(f"a {rules.name} site table holds {8 * n} bytes, "
                                f"not {len(data)}")
    planes = np.frombuffer(data, dtype=np.uint8).reshape(8, n)
    return np.ascontiguousarray(planes.T).view("<f8").reshape(n).astype(np.float64)
