"""Shared fixtures: tables are built once per test session in a temporary folder, so
tests never read or write the user's cache in ``tables/``."""

from __future__ import annotations

import os
import tempfile

import pytest

_TABLES = tempfile.mkdtemp(prefix="yahtzee-tables-")
os.environ["YAHTZEE_TABLES"] = _TABLES


@pytest.fixture(scope="session")
def tables_dir() -> str:
    return _TABLES


@pytest.fixture(scope="session")
def official_table():
    """The solved official table (built once per session)."""
    from solver.table import open_table

    return open_table("official", build=True)


@pytest.fixture(scope="session")
def table_of():
    """table_of(name) -> the solved table of any rule set (built once per session)."""
    from solver.table import open_table

    cache = {}

    def get(name: str):
        if name not in cache:
            cache[name] = open_table(name, build=True)
        return cache[name]

    return get


@pytest.fixture(scope="session")
def official_stats(official_table):
    """Exact statistics of optimal play under the official rules (computed once)."""
    from solver.stats import optimal_stats

    return optimal_stats(official_table)
