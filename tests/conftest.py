"""Shared fixtures: tables are built once per test session in a temporary folder, so
tests never read or write the user's cache in ``tables/``."""

from __future__ import annotations

import os
import tempfile

import numpy as np
import pytest

_TABLES = tempfile.mkdtemp(prefix="yahtzee-tables-")
os.environ["YAHTZEE_TABLES"] = _TABLES
# the user's data folder (the practice history of `yahtzee train`), away from $HOME
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="yahtzee-data-")


@pytest.fixture(scope="session")
def tables_dir() -> str:
    return _TABLES


@pytest.fixture(scope="session")
def official_table():
    """The solved official table (built once per session)."""
    from solver.table import get_table

    return get_table("official")


@pytest.fixture(scope="session")
def table_of():
    """table_of(name) -> the solved table of any rule set (built once per session)."""
    from solver.table import get_table

    return get_table


@pytest.fixture(scope="session")
def stats_of(table_of):
    """stats_of(name) -> exact statistics of optimal play from a new game under any rule
    set (each computed once per session; tests read them, never change them)."""
    from solver.stats import optimal_stats

    computed: dict = {}

    def of(rules_name: str):
        if rules_name not in computed:
            computed[rules_name] = optimal_stats(table_of(rules_name))
        return computed[rules_name]

    return of


@pytest.fixture(scope="session")
def official_stats(stats_of):
    """Exact statistics of optimal play under the official rules (computed once)."""
    return stats_of("official")


@pytest.fixture(scope="session")
def greedy_turn_stats(official_table):
    """Exact statistics of greedy-turn (official rules): the optimal policy on a table of
    zeros, each state's value 0 where the official table has one (computed once)."""
    from solver.stats import optimal_stats
    from solver.table import Table

    zeros = np.where(np.isnan(official_table.values), np.nan, 0.0)
    return optimal_stats(Table(official_table.rules, zeros))


@pytest.fixture(scope="session")
def official_moments(official_table):
    """The per-state figures of the why, official rules (computed once per session)."""
    from solver.moments import get_moments

    return get_moments(official_table)


@pytest.fixture(scope="session")
def small_targets(official_table, tmp_path_factory):
    """A target table of the official rules for every target up to 30 (low totals only:
    seconds to build; built once per session)."""
    from solver.target_table import solve_targets, write_targets

    path = tmp_path_factory.mktemp("targets") / "official.ytargets"
    write_targets(path, official_table, 30, solve_targets(official_table, 30))
    return path
