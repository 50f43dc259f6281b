"""A build's identity tied to its content: the rule set's fingerprint (in every table
file's header), a table's checksum (named by the statistics, figures and target tables
computed from it) and the source digest that keeps compiled kernels, each the same for
the same content and a new one when any part of it changes."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import solver._jit_cache as jc
from solver.formats.tablefile import PerTableCache, rules_fingerprint
from solver.game.rules import RuleSet, get_rules
from solver.moments import table_checksum
from solver.table import Table

OFFICIAL = get_rules("official")


def with_array(rules: RuleSet, name: str, change) -> RuleSet:
    """A copy of ``rules`` whose array ``name`` has one entry changed by ``change``."""
    other = copy.copy(rules)
    array = getattr(rules, name).copy()
    flat = array.reshape(-1)
    flat[flat.shape[0] // 2] = change(flat[flat.shape[0] // 2])
    object.__setattr__(other, name, array)
    return other


@pytest.mark.parametrize("name", ["scores", "joker_tier", "joker_points"])
def test_the_fingerprint_changes_with_any_entry_of_the_rules_data(name):
    assert rules_fingerprint(get_rules("official")) == rules_fingerprint(OFFICIAL)
    changed = with_array(OFFICIAL, name, lambda v: v + 1)
    assert rules_fingerprint(changed) != rules_fingerprint(OFFICIAL)


@pytest.mark.parametrize("field, value", [("rolls_per_turn", 4), ("upper_bonus", 30),
                                          ("yahtzee_bonus", 50), ("joker", "free")])
def test_the_fingerprint_changes_with_every_rule(field, value):
    def made(**kw):
        return RuleSet("official", OFFICIAL.summary, OFFICIAL.boxes, **kw)
    assert rules_fingerprint(made()) == rules_fingerprint(OFFICIAL)
    assert rules_fingerprint(made(**{field: value})) != rules_fingerprint(OFFICIAL)


def test_a_tables_checksum_follows_every_value_to_its_last_bit(official_table):
    values = official_table.values.copy()
    same = Table(official_table.rules, values.copy())
    assert table_checksum(same) == table_checksum(official_table)
    seen = {table_checksum(official_table)}
    finite = np.argwhere(np.isfinite(values))
    for index in map(tuple, finite[[0, len(finite) // 2, -1]]):  # the first, middle, last
        changed = values.copy()
        changed[index] = np.nextafter(changed[index], np.inf)
        checksum = table_checksum(Table(official_table.rules, changed))
        assert checksum not in seen, index
        seen.add(checksum)


def test_the_kernel_source_digest_follows_content_and_names(tmp_path, monkeypatch):
    package = tmp_path / "pkg"
    (package / "kernels").mkdir(parents=True)
    (package / "kernels" / "a.py").write_text("A = 1\n")
    (package / "b.py").write_text("B = 1\n")
    monkeypatch.setattr(jc, "_PACKAGE", package)
    first = jc._source_digest()
    assert jc._source_digest() == first
    (package / "kernels" / "a.py").write_text("A = 2\n")
    second = jc._source_digest()
    assert second != first
    (package / "kernels" / "a.py").write_text("A = 1\n")
    assert jc._source_digest() == first  # back as it was
    (package / "kernels" / "a.py").rename(package / "kernels" / "c.py")  # same bytes, moved
    assert jc._source_digest() not in (first, second)


def test_the_per_table_cache_holds_one_result_per_table_and_file(official_table, tmp_path):
    """What is read or computed for a table is made once per table object and file:
    another table (other values) with the same file gets its own, and each keeps it."""
    cache = PerTableCache()
    other = Table(official_table.rules, official_table.values.copy())
    made: list[str] = []

    def make(name: str):
        def run() -> str:
            made.append(name)
            return name
        return run

    path = tmp_path / "figures.bin"
    for _ in range(2):
        assert cache.get(official_table, path, make("first")) == "first"
        assert cache.get(other, path, make("other")) == "other"
        assert cache.get(official_table, tmp_path / "more.bin", make("more")) == "more"
    assert made == ["first", "other", "more"]  # each once
    cache.clear()
    assert cache.get(other, path, make("again")) == "again"
