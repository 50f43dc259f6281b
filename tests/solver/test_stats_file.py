"""The new-game statistics cached beside the table (``tables/<rules>.ystats``): read back
bit for bit the computed figures, so ``stats`` and ``stats --target X`` from a new game
print exactly what the computation gives; a file that does not fit is computed again,
and nothing but a file of its own kind is ever replaced."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

import solver.stats_file as stats_file
from advisor.cli import cli
from advisor.model import Scorecard
from advisor.target_stats import target_rows, target_stats
from solver.stats_file import default_stats_path, forget_stats, new_game_stats

P_EV = {200: 0.8635693272119355, 250: 0.48368068744722, 300: 0.14326405016752514}
"""P(final >= X) of expected-score play from a new game, official rules (the tail of the
computed distribution, ``optimal_stats``)."""


def same_stats(a, b) -> None:
    assert np.array_equal(a.distribution, b.distribution)
    assert np.array_equal(a.box_means, b.box_means)
    assert np.array_equal(a.box_zero, b.box_zero)
    assert (a.upper_bonus_probability, a.yahtzees, a.yahtzee_bonuses) == (
        b.upper_bonus_probability, b.yahtzees, b.yahtzee_bonuses)
    one, two = a.to_json(), b.to_json()
    one.pop("seconds"), two.pop("seconds")
    assert one == two


@pytest.fixture
def at(tmp_path, monkeypatch):
    """The cache is looked for at ``tmp_path / official.ystats`` (returned)."""
    path = tmp_path / "official.ystats"
    monkeypatch.setattr(stats_file, "default_stats_path", lambda rules: path)
    forget_stats()
    yield path
    forget_stats()


@pytest.fixture
def computed(official_stats, monkeypatch):
    """What a computation gives, counted (``computed.count``), without computing again."""
    calls = []

    def fake(table, progress=None):
        calls.append(table)
        return official_stats

    monkeypatch.setattr(stats_file, "optimal_stats", fake)
    return calls


def test_read_back_bit_for_bit(official_table, official_stats, at, computed):
    notes: list[str] = []
    first = new_game_stats(official_table, note=notes.append)
    assert len(computed) == 1 and at.exists()
    assert len(notes) == 1 and "computing" in notes[0] and "once" in notes[0]
    forget_stats()
    again = new_game_stats(official_table, note=notes.append)
    assert len(computed) == 1 and len(notes) == 1  # read, not computed; nothing to say
    same_stats(again, official_stats)
    same_stats(first, official_stats)


def test_the_ev_chances_are_pinned(official_stats):
    tail = np.cumsum(official_stats.distribution[::-1])[::-1]
    for x, p in P_EV.items():
        assert float(min(tail[x], 1.0)) == p


def test_stats_target_from_a_new_game_is_the_computed_one(official_table, official_stats,
                                                          at, computed, monkeypatch):
    """With the cache: ``p_target_ev`` (the expected-score column) is the slow path's (the
    distribution computed from the card), and pinned. (The best strategy's column is the
    target DP's, whole-game and slow without a target table: here every target is left
    to it as out of reach; tests/solver/target_table/test_target_table.py compares that column.)"""
    import advisor.target_stats as ts

    monkeypatch.setattr(ts, "asked_targets", lambda *args: [])
    card = Scorecard.new("official")
    read = target_stats(official_table, card, 300).to_json()
    assert at.exists() and len(computed) == 1
    monkeypatch.setattr(ts, "new_game_stats", lambda table, progress=None: official_stats)
    slow = target_stats(official_table, card, 300).to_json()
    read.pop("seconds"), slow.pop("seconds")
    assert read == slow
    assert read["p_target_ev"] == P_EV[300]
    rows = {row["target"]: row["p_target_ev"] for row in read["targets"]}
    assert set(rows) == set(target_rows("official"))
    assert all(rows[x] == p for x, p in P_EV.items())


def test_cli_stats_reads_the_cache(official_table, official_stats, at, computed):
    result = CliRunner().invoke(cli, ["stats", "--json"])
    assert result.exit_code == 0, result.output
    assert "note: no new-game statistics for rules 'official' yet" in result.stderr
    want = official_stats.to_json()
    got = json.loads(result.stdout)
    got.pop("seconds"), want.pop("seconds")
    assert got == json.loads(json.dumps(want))
    forget_stats()
    again = CliRunner().invoke(cli, ["stats"])
    assert again.exit_code == 0 and "note:" not in again.stderr and len(computed) == 1
    assert "254.5877287345" in again.stdout


@pytest.mark.parametrize("change", ["value", "header", "other table"])
def test_a_file_that_does_not_fit_is_computed_again(official_table, official_stats, at,
                                                    computed, change):
    new_game_stats(official_table)
    forget_stats()
    data = bytearray(at.read_bytes())
    line = data.index(b"\n")
    if change == "value":
        data[-5] ^= 0x40
    elif change == "header":
        data[:line] = data[:line].replace(b'"version": 1', b'"version": 9')
    else:
        data[:line] = data[:line].replace(b'"table_sha256": "', b'"table_sha256": "0')
    at.write_bytes(bytes(data))
    notes: list[str] = []
    same_stats(new_game_stats(official_table, note=notes.append), official_stats)
    assert len(computed) == 2 and len(notes) == 1 and "computing them again" in notes[0]
    forget_stats()
    new_game_stats(official_table)  # written again: it fits now
    assert len(computed) == 2


def test_another_file_is_never_replaced(official_table, official_stats, at, computed):
    at.write_text("my notes\n")
    notes: list[str] = []
    same_stats(new_game_stats(official_table, note=notes.append), official_stats)
    assert at.read_text() == "my notes\n"
    assert any("using the figures computed in memory" in n for n in notes), notes


def test_the_default_path_is_beside_the_table():
    assert default_stats_path("yatzy").name == "yatzy.ystats"
