"""Shared fixtures: tables are built once per test session in a temporary folder, so
tests never read or write the user's cache in ``tables/``."""

from __future__ import annotations

import os
import tempfile

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
def official_stats(official_table):
    """Exact statistics of optimal play under the official rules (computed once)."""
    from solver.stats import optimal_stats

    return optimal_stats(official_table)


@pytest.fixture(scope="session")
def official_moments(official_table):
    """The per-state figures of the why, official rules (computed once per session)."""
    from solver.moments import get_moments

    return get_moments(official_table)
