"""Per-state figures of the rest of a game under the optimal policy (the "why" of advice).

For every turn-start state ``s = (m, u, y)`` the optimal policy (the table's values, with
the tie order of the statistics) plays the rest of the game; besides ``E(s)`` (the
table) it has, exactly:

- ``upper_bonus``: P(the upper bonus is earned by the end of the game): 1 once
  ``u = 63``;
- ``yahtzee_50``: P(the Yahtzee box gets 50 in the rest of the game): 0 once it is filled;
- ``bonuses``: the expected number of Yahtzee bonuses still to come;
- ``variance``: the variance of the points still to come.

Backwards from full cards (``U = [u = 63]``, the others 0), over the turn outcomes
``o`` of ``s`` (box ``b``, entry ``e``, Yahtzee bonus ``c``; probability ``w_o``,
points ``p_o``, next state ``s'_o``), with ``d_o = p_o + E(s'_o) - E(s)``:

    U(s) = sum_o w_o U(s'_o)
    Z(s) = sum_o w_o ([b is the Yahtzee box and e = 50] + Z(s'_o))
    B(s) = sum_o w_o (c + B(s'_o))
    V(s) = sum_o w_o (V(s'_o) + d_o^2) - (sum_o w_o d_o)^2

(the law of total variance, centred on ``E(s)`` so that nothing large cancels).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .formats.tablefile import FileKind, PerTableCache, cached_values
from .game.rules import UPPER_TARGET, RuleSet, get_rules
from .game.states import reachable_states
from .kernels.level import new_store
from .levels import Progress, level_states, mask_runs, masks_by_level, solve_backward
from .table import Table, tables_dir

FIELDS = ("upper_bonus", "yahtzee_50", "bonuses", "variance")
UPPER_BONUS, YAHTZEE_50, BONUSES, VARIANCE = range(len(FIELDS))


@dataclass(frozen=True, eq=False)
class StateMoments:
    """The figures of every state of one rule set.

    ``figures[mask, upper, flag, i]`` (float64, read-only) is field ``FIELDS[i]`` of the
    state; NaN for states that cannot occur.
    """

    rules: RuleSet
    figures: np.ndarray

    def at(self, mask: int, upper: int, flag: int) -> np.ndarray:
        """(4,) the figures of one turn-start state (upper subtotal capped here)."""
        return self.figures[mask, min(upper, UPPER_TARGET), flag]


def compute_moments(table: Table, progress: Progress | None = None, *,
                    open_boxes: int | None = None) -> StateMoments:
    """The figures of every state of the table's rule set: one backward pass, level by
    level from full cards (``progress(levels_done, levels_total)`` after each). With
    ``open_boxes`` only the states with at most that many open boxes (the others NaN)."""
    from .kernels import stats as sk  # numba (half a second): when figures are computed

    rules = table.rules
    values = np.ascontiguousarray(table.values)
    figures = np.full((*values.shape, len(FIELDS)), np.nan)
    slot = np.full(values.shape, -1, dtype=np.int64)
    levels = masks_by_level(rules.n_boxes)

    def level(n: int):  # noqa: ANN202  (a LevelStore of level n, its states' slots set)
        m, u, y = level_states(values, levels[n])
        slot[m, u, y] = np.arange(len(m))
        return new_store(m, u, y, 0 * m, 0 * m - 1, n_extra=len(FIELDS))

    below = level(rules.n_boxes)
    below.extra[below.u == UPPER_TARGET, UPPER_BONUS] = 1.0
    figures[below.m, below.u, below.y] = below.extra

    def step(n: int) -> None:
        nonlocal below
        here = level(n)
        sk.stats_level(mask_runs(here.m, sk.CHUNK), here, below, slot, values, rules.arrays,
                       sk.MOMENTS)
        figures[here.m, here.u, here.y] = here.extra
        below = here

    first = 0 if open_boxes is None else max(rules.n_boxes - open_boxes, 0)
    solve_backward(rules, first, step, progress)
    figures.flags.writeable = False
    return StateMoments(rules, figures)


# ---------------------------------------------------------------------- the cached file
SUFFIX = ".ymoments"


def _check_figures(figures: np.ndarray, rules: RuleSet, unusable: Callable[[str], Exception]
                   ) -> None:
    """Figures where a state can occur (probabilities in [0, 1], counts and variances not
    negative), NaN elsewhere."""
    reach = reachable_states(rules)
    live = figures[reach]
    slack = 1e-9
    bad = ~np.isfinite(live).all(axis=1)
    bad |= (live[:, [UPPER_BONUS, YAHTZEE_50]] < -slack).any(axis=1)
    bad |= (live[:, [UPPER_BONUS, YAHTZEE_50]] > 1 + slack).any(axis=1)
    bad |= (live[:, [BONUSES, VARIANCE]] < -slack).any(axis=1)
    if bad.any():
        raise unusable(f"{int(bad.sum())} reachable states hold impossible figures")
    if not np.isnan(figures[~reach]).all():
        raise unusable("figures where no state can occur")


def _rebuilt_by(rules_name: str, path: object) -> str:
    return (f"yahtzee advise --why --rules {rules_name} (the cached figures are built again "
            f"when missing or unusable)")


def _moments_kind() -> FileKind:
    return FileKind("yahtzee-moments", 1, "why figures",
                    lambda rules: (*rules.table_shape, len(FIELDS)), _check_figures,
                    _rebuilt_by, (("table_sha256", str),))


def default_moments_path(rules: RuleSet | str) -> Path:
    """The cached figures of a rule set, beside its table: ``tables/official.ymoments``."""
    return tables_dir() / f"{get_rules(rules).name}{SUFFIX}"


def table_checksum(table: Table) -> str:
    """The sha256 of a table's values, as its file's header holds it."""
    return hashlib.sha256(np.ascontiguousarray(table.values, dtype="<f8").data).hexdigest()


_CACHE = PerTableCache()


def get_moments(table: Table, *, progress: Progress | None = None,
                note: Callable[[str], None] | None = None) -> StateMoments:
    """The figures of ``table``'s rule set, loaded once per process from the cache file
    (:func:`default_moments_path`), which is checked like a table (header, rules,
    fingerprint, shape, checksum, values) and must name ``table``'s checksum. A missing,
    unusable or outdated file is computed again (``progress`` follows the pass, ``note``
    says why) and written; when it cannot be written the figures computed are used and
    ``note`` says so. Thread-safe."""
    rules = table.rules
    path = default_moments_path(rules)

    def make() -> StateMoments:
        computed: list[StateMoments] = []

        def compute() -> np.ndarray:
            computed.append(compute_moments(table, progress))
            return computed[0].figures

        figures = cached_values(
            path, rules, _moments_kind(), table_checksum(table), compute, force=True,
            note=note, missing=f"note: no why figures for rules {rules.name!r} yet; "
                               f"computing {path} once (about half a minute)")
        return computed[0] if computed else StateMoments(rules, figures)

    return _CACHE.get(table, path, make)
