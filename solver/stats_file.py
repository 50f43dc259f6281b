"""The exact statistics of optimal play from a new game, computed once and kept on disk.

:func:`solver.stats.optimal_stats` from a new game is the whole backward pass over every
state (half a minute); its figures are a few thousand numbers, cached beside the table
as ``tables/<rules>.ystats``, in the table format (:mod:`solver.formats.tablefile`, kind
``yahtzee-stats``: rules, fingerprint, shape, checksum, and ``table_sha256``, the
checksum of the table they were computed from), checked as a table is when read. One
float64 array of, in turn: the distribution of the final score on ``0 ..
highest_score``, the expected entry of each box, the probability of each box ending
with 0, then P(upper bonus), the expected Yahtzees and the expected Yahtzee bonuses. Read
back, they are the computed figures bit for bit.

A missing, damaged or outdated file is computed again and written; the write replaces
only a file of this kind and rules (or an empty one), never anything else: when it
cannot write, the figures computed are used and a note says so.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from .formats.tablefile import FileKind, PerTableCache, cached_values
from .game.rules import RuleSet, get_rules
from .levels import Progress
from .moments import table_checksum
from .stats import OptimalStats, highest_score, optimal_stats
from .table import Table, tables_dir

SUFFIX = ".ystats"
Note = Callable[[str], None]
SCALARS = 3
"""P(upper bonus), Yahtzees, Yahtzee bonuses: after the distribution and the boxes."""


def default_stats_path(rules: RuleSet | str) -> Path:
    """The cached new-game figures of a rule set, beside its table:
    ``tables/official.ystats``."""
    return tables_dir() / f"{get_rules(rules).name}{SUFFIX}"


def _shape(rules: RuleSet) -> tuple[int, ...]:
    return (highest_score(rules) + 1 + 2 * rules.n_boxes + SCALARS,)


def _check(values: np.ndarray, rules: RuleSet, unusable: Callable[[str], Exception]) -> None:
    """Finite figures; probabilities in [0, 1] (the distribution summing to 1), counts
    not negative."""
    slack = 1e-9
    n = highest_score(rules) + 1
    nb = rules.n_boxes
    dist, means, zero = values[:n], values[n:n + nb], values[n + nb:n + 2 * nb]
    bonus, yahtzees, bonuses = values[n + 2 * nb:]
    if not np.isfinite(values).all():
        raise unusable("figures that are not numbers")
    probabilities = np.concatenate((dist, zero, [bonus]))
    if (probabilities < -slack).any() or (probabilities > 1 + slack).any():
        raise unusable("probabilities outside [0, 1]")
    if abs(float(dist.sum()) - 1.0) > slack or (means < 0).any() or min(yahtzees,
                                                                         bonuses) < 0:
        raise unusable("impossible figures")


def _rebuilt_by(rules_name: str, path: object) -> str:
    return (f"yahtzee stats --rules {rules_name} (the cached figures are built again when "
            f"missing or unusable)")


def _kind() -> FileKind:
    return FileKind("yahtzee-stats", 1, "new-game statistics", _shape, _check, _rebuilt_by,
                    (("table_sha256", str),))


def stats_array(result: OptimalStats) -> np.ndarray:
    """The figures of a new game's ``result`` as the file's one array."""
    n = highest_score(result.rules) + 1
    dist = np.zeros(n)
    dist[:result.distribution.shape[0]] = result.distribution
    return np.concatenate((dist, result.box_means, result.box_zero,
                           [result.upper_bonus_probability, result.yahtzees,
                            result.yahtzee_bonuses]))


def stats_of(rules: RuleSet, values: np.ndarray, seconds: float) -> OptimalStats:
    """The :class:`OptimalStats` the file's array holds (the distribution cut after its
    last nonzero entry, as :func:`optimal_stats` cuts it)."""
    n = highest_score(rules) + 1
    nb = rules.n_boxes
    dist = values[:n]
    last = int(np.flatnonzero(dist > 0)[-1])
    return OptimalStats(rules=rules, distribution=dist[:last + 1].copy(),
                        box_means=values[n:n + nb].copy(),
                        box_zero=values[n + nb:n + 2 * nb].copy(),
                        upper_bonus_probability=float(values[n + 2 * nb]),
                        yahtzees=float(values[n + 2 * nb + 1]),
                        yahtzee_bonuses=float(values[n + 2 * nb + 2]), seconds=seconds)


_CACHE = PerTableCache()


def new_game_stats(table: Table, *, progress: Progress | None = None,
                   note: Note | None = None) -> OptimalStats:
    """``optimal_stats(table)`` (from a new game), read from :func:`default_stats_path`
    once per process when the file there fits ``table`` (rules, fingerprint, shape,
    checksums, figures, computed from this table); else computed (``progress`` follows
    the pass, ``note`` says why) and written. ``seconds`` is the time this call took.
    Thread-safe."""
    began = time.perf_counter()
    rules = table.rules
    path = default_stats_path(rules)

    def make() -> OptimalStats:
        values = cached_values(
            path, rules, _kind(), table_checksum(table),
            lambda: stats_array(optimal_stats(table, progress)), force=False, note=note,
            missing=f"note: no new-game statistics for rules {rules.name!r} yet; computing "
                    f"{path} once (about half a minute)")
        return stats_of(rules, values, time.perf_counter() - began)

    return _CACHE.get(table, path, make)


def forget_stats() -> None:
    """Forget the figures read or computed (the next call reads the file again)."""
    _CACHE.clear()
