"""`advise --why`: the outcome of every option in JSON and text, consistent with the exact
statistics of a new game, and the cached figures checked and rebuilt like the tables."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

from advisor.cli import cli
from advisor.model import Dice, Scorecard
from advisor.ranking import TurnAdvisor
from solver import moments as sm
from solver.game.dice import ROLL_PROBABILITY, ROLLS
from tests.oracles.why_reference import ReferenceOutcomes, summary

LATE = "aces=3,twos=6,threes=9,fours=12,3k=20,4k=20,fh=25,ss=30,yahtzee=50"


@pytest.fixture(autouse=True)
def _figures(official_moments):
    """The cached official table and figures exist, so no command computes them."""


def advise(*args):
    result = CliRunner().invoke(cli, ["advise", *args])
    assert result.exit_code == 0, result.output
    return result


def test_json_outcomes_equal_the_twin_and_sum_to_one():
    card = Scorecard.parse(LATE)
    data = json.loads(advise("12346", "--card", LATE, "--why", "--json", "--top", "0").stdout)
    assert data["outcome_strategy"] == {"kind": "ev"}
    twin = ReferenceOutcomes("official")
    state = (card.mask, card.upper, card.flag)
    open_names = [card.rules.boxes[b].name for b in card.open_boxes()]
    for option in data["options"]:
        outcome = option["outcome"]
        assert set(outcome) == {"boxes", "zeros", "upper_bonus", "yahtzee_50",
                                "yahtzee_bonuses", "sd"}
        assert list(outcome["zeros"]) == open_names
        assert list(outcome["boxes"]) == open_names  # every open box, in card order
        assert sum(outcome["boxes"].values()) == pytest.approx(1.0, abs=1e-12)
        what = option["keep"] if option["action"] == "keep" else option["box"]
        ref = summary(twin.option(state, "12346", 2, option["action"], what), 13, True, 0)
        for b, name in enumerate(card.rules.boxes):
            if name.name in outcome["boxes"]:
                assert outcome["boxes"][name.name] == pytest.approx(ref["boxes"][b], abs=1e-12)
                assert outcome["zeros"][name.name] == pytest.approx(ref["zeros"][b], abs=1e-12)
        for key in ("upper_bonus", "yahtzee_50", "yahtzee_bonuses", "sd"):
            assert outcome[key] == pytest.approx(ref[key], abs=1e-12), key
        assert outcome["yahtzee_50"] == 1.0  # 50 already in the box
    plain = json.loads(advise("12346", "--card", LATE, "--json").stdout)
    assert "outcome_strategy" not in plain and "outcome" not in plain["options"][0]


def test_text_has_one_line_per_option():
    out = advise("22256", "--why", "--top", "3").stdout
    lines = out.splitlines()
    assert any(line.startswith("under each choice, with optimal play from then on") for line in
               lines)
    rows = [i for i, line in enumerate(lines) if line[:3].strip().isdigit()]
    assert len(rows) == 3
    for i in rows:
        assert lines[i + 1].startswith("     this turn: Twos ")
        assert " | upper bonus " in lines[i + 1] and " | SD " in lines[i + 1]


def test_new_game_mixture_of_the_best_first_roll_options_is_the_exact_statistics(
        official_table, official_stats):
    advisor = TurnAdvisor(Scorecard.new(), official_table)
    mean = second = upper = bonuses = 0.0
    for r in range(len(ROLLS)):
        best = advisor.advise(Dice(tuple(int(f) for f in ROLLS[r])), 2, why=True).best
        p, o = float(ROLL_PROBABILITY[r]), best.outcome
        mean += p * best.expected_final
        second += p * (o.sd ** 2 + best.expected_final ** 2)
        upper += p * o.upper_bonus
        bonuses += p * o.yahtzee_bonuses
    sd = math.sqrt(second - mean ** 2)
    assert (round(100 * upper, 2), round(mean, 4), round(sd, 4)) == (68.12, 254.5877, 59.6079)
    assert mean == pytest.approx(official_stats.mean, abs=1e-9)
    assert sd == pytest.approx(official_stats.sd, abs=1e-9)
    assert upper == pytest.approx(official_stats.upper_bonus_probability, abs=1e-12)
    assert bonuses == pytest.approx(official_stats.yahtzee_bonuses, abs=1e-12)


def test_new_game_figures_equal_the_statistics(official_moments, official_stats):
    u, z, b, v = official_moments.at(0, 0, 0)
    assert u == pytest.approx(official_stats.upper_bonus_probability, abs=1e-12)
    assert b == pytest.approx(official_stats.yahtzee_bonuses, abs=1e-12)
    assert z == pytest.approx(official_stats.box_means[11] / 50, abs=1e-12)
    assert math.sqrt(v) == pytest.approx(official_stats.sd, abs=1e-9)


# ---------------------------------------------------------------------- the cache file
@pytest.fixture
def cache(tmp_path, monkeypatch, official_moments):
    """An empty table cache; computing the figures hands back the session's (fast)."""
    monkeypatch.setenv("YAHTZEE_TABLES", str(tmp_path))
    computed = []

    def compute(table, progress=None, **kwargs):
        computed.append(table.rules.name)
        return official_moments

    monkeypatch.setattr(sm, "compute_moments", compute)
    sm._CACHE.clear()
    yield tmp_path, computed
    sm._CACHE.clear()


def test_figures_are_computed_once_written_and_read_back(cache, official_table,
                                                         official_moments):
    folder, computed = cache
    notes = []
    first = sm.get_moments(official_table, note=notes.append)
    assert computed == ["official"] and "no why figures for rules 'official' yet" in notes[0]
    path = folder / "official.ymoments"
    header = json.loads(path.read_bytes().split(b"\n", 1)[0])
    assert header["format"] == "yahtzee-moments" and header["shape"] == [8192, 64, 2, 4]
    assert header["table_sha256"] == sm.table_checksum(official_table)
    sm._CACHE.clear()
    again = sm.get_moments(official_table, note=notes.append)
    assert computed == ["official"]  # read, not computed
    assert np.array_equal(again.figures, first.figures, equal_nan=True)
    assert not again.figures.flags.writeable


@pytest.mark.parametrize("damage, why", [
    (lambda data: data[:-8], "truncated"),
    (lambda data: data[:-1] + bytes([data[-1] ^ 1]), "checksum mismatch"),
    (lambda data: b"not a figures file\n" + data, "not a yahtzee why figures file"),
])
def test_damaged_figures_are_computed_again(cache, official_table, damage, why):
    folder, computed = cache
    sm.get_moments(official_table)
    path = folder / "official.ymoments"
    path.write_bytes(damage(path.read_bytes()))
    sm._CACHE.clear()
    notes = []
    sm.get_moments(official_table, note=notes.append)
    assert computed == ["official", "official"]
    assert why in notes[0] and "computing them again" in notes[0]
    sm._CACHE.clear()
    sm.get_moments(official_table)
    assert computed == ["official", "official"]  # the new file is good


def test_figures_of_another_table_are_computed_again(cache, official_table):
    folder, computed = cache
    sm.get_moments(official_table)
    path = folder / "official.ymoments"
    head, body = path.read_bytes().split(b"\n", 1)
    header = json.loads(head)
    header["table_sha256"] = "0" * 64
    path.write_bytes(json.dumps(header).encode() + b"\n" + body)
    sm._CACHE.clear()
    notes = []
    sm.get_moments(official_table, note=notes.append)
    assert computed == ["official", "official"]
    assert "computed from another table" in notes[0]


def test_a_cache_that_cannot_be_written_keeps_the_figures_in_memory(cache, official_table,
                                                                    official_moments):
    folder, computed = cache
    (folder / "official.ymoments").mkdir()  # a folder where the file should be
    notes = []
    got = sm.get_moments(official_table, note=notes.append)
    assert got is official_moments
    assert any("using the figures computed in memory" in n for n in notes)
