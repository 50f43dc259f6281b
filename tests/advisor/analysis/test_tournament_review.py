"""A game played for the top of a tournament: ``play --tournament N`` advises by the share
of first place and notes it in the record's ``# objective:`` line; ``analyze`` reads it
back (or is given ``--tournament N``) and judges every decision by it; ``advise --game
--tournament N`` advises at a record's position.

A small field of observed scores keeps the whole-game solve to seconds (shared by the
module: the vectors are kept in the process). The game scores 0 in eleven boxes, so its
last turns are on cards whose shares are neither 0 nor 1; their decisions are checked
against the plain-Python DP twin with the tie-enumerating utility (tests/oracles).
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from advisor.cli import cli
from advisor.model import Scorecard
from advisor.objective import Objective
from advisor.ranking import TurnAdvisor
from solver.game.dice import KEEP_INDEX, counts_of
from solver.game.rules import get_rules
from tests.oracles.target_reference import TwinDP
from tests.oracles.tournament_reference import tournament_utility

SCORES = "5 12 20 26 26\n"
TURNS = [("23456", "aces"), ("13456", "twos"), ("12456", "threes"), ("12356", "fours"),
         ("12346", "fives"), ("12345", "sixes"), ("12346", "3k"), ("12346", "4k"),
         ("12346", "fh"), ("12246", "ls"), ("12246", "yahtzee"), ("12246", "ss"),
         ("22256", "chance")]
"""Eleven boxes scored 0, small straight 0, chance 17: a game of 17 points."""


def run_cli(*args: str, text: str | None = None):
    return CliRunner().invoke(cli, list(args), input=text)


@pytest.fixture(scope="module")
def scores_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("field") / "scores.txt"
    path.write_text(SCORES)
    return path


@pytest.fixture(scope="module")
def objective(official_table, scores_file) -> Objective:
    """The tournament of 3 against the small field, its whole game solved once (kept in
    the process for every test of the module)."""
    objective = Objective.parse_options(tournament="3", field_scores=str(scores_file))
    TurnAdvisor(Scorecard.new(), official_table, objective).probability()
    return objective


@pytest.fixture(scope="module")
def twin(official_table, objective) -> TwinDP:
    field = objective.field.distribution(official_table)
    utility = np.array(tournament_utility(field.tolist(), 3))
    return TwinDP(get_rules("official"), utility, 1.0, utility.shape[0] + 1)


@pytest.fixture(scope="module")
def played(objective, scores_file, tmp_path_factory):
    """``play --tournament 3 --field-scores F --record R`` of :data:`TURNS`: (the output,
    the record's text)."""
    path = tmp_path_factory.mktemp("game") / "game.txt"
    lines = [line for dice, box in TURNS for line in (dice, f"score {box}")]
    result = run_cli("play", "--tournament", "3", "--field-scores", str(scores_file),
                     "--record", str(path), text="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    return result.stdout, path.read_text()


def twin_share(twin: TwinDP, card: Scorecard, option: dict, rolls_left: int) -> float:
    """An option's share of first place by the twin: a keep's value with those rolls
    left, a box's the value of the state after it at the points it leaves."""
    rules = card.rules
    if option["action"] == "keep":
        keep = KEEP_INDEX[counts_of(option["keep"])]
        return float(twin.keeps(card.mask, card.upper, card.flag)[rolls_left][keep][card.total])
    b = rules.box_index(option["box"])
    m, u, y, upper_bonus = rules.after_box(card.mask, card.upper, card.flag, b,
                                           option["points"])
    points = card.total + option["points"] + upper_bonus + option["bonus"]
    after = twin.value(m, u, y)
    return float(after[points]) if points < after.shape[0] else twin.above


def test_play_notes_the_tournament_in_the_record(played, objective):
    """The record's first line names the tournament and its field, as its JSON; the game
    is the one typed; the advice was ranked by the share of first place."""
    out, text = played
    first, rest = text.split("\n", 1)
    assert first == f"# objective: {json.dumps(objective.to_json())}"
    assert [line.split()[-1] for line in rest.strip().splitlines()[-13:]] == \
        [get_rules("official").boxes[get_rules("official").box_index(b)].name
         for _, b in TURNS]
    assert "share of 1st" in out


def test_analyze_reads_the_tournament_back_and_judges_by_it(played, objective, twin,
                                                            official_table, tmp_path):
    """``analyze`` of the record judges by the tournament its line names; ``analyze
    --tournament 3 --field-scores F`` of the record without the line gives the same
    JSON; the last two turns' decisions against the twin (1e-12)."""
    _, text = played
    path = tmp_path / "game.txt"
    path.write_text(text)
    result = run_cli("analyze", str(path), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["objective"] == objective.to_json()
    bare = tmp_path / "bare.txt"
    bare.write_text(text.split("\n", 1)[1])
    scores = tmp_path / "scores.txt"
    scores.write_text(SCORES)
    again = run_cli("analyze", str(bare), "--tournament", "3", "--field-scores", str(scores),
                    "--json")
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout) == data
    late = [d for d in data["decisions"] if d["turn"] >= 12]
    assert len(late) == 2
    for decision in late:
        card = Scorecard.parse(decision["card"]["text"])
        for key in ("chosen", "best"):
            want = twin_share(twin, card, decision[key], decision["rolls_left"])
            assert decision[key]["win_share"] == pytest.approx(want, abs=1e-12, rel=0)
        assert decision["loss"] == pytest.approx(
            decision["best"]["win_share"] - decision["chosen"]["win_share"], abs=1e-15)
    assert any(0.01 < d["best"]["win_share"] < 0.99 for d in late)


def test_advise_game_takes_the_tournament(played, objective, twin, tmp_path):
    """``advise --game R --tournament 3 --field-scores F``: the position of the record
    (before its last turn), every option against the twin."""
    _, text = played
    path = tmp_path / "game.txt"
    path.write_text(text.rsplit("\n", 2)[0] + "\n")  # the last turn left out
    scores = tmp_path / "scores.txt"
    scores.write_text(SCORES)
    result = run_cli("advise", "22256", "--game", str(path), "--tournament", "3",
                     "--field-scores", str(scores), "--json", "--top", "0")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["objective"] == objective.to_json()
    card = Scorecard.parse(data["card"]["text"])
    assert card.open_boxes() == [get_rules("official").box_index("chance")]
    for option in data["options"]:
        assert option["win_share"] == pytest.approx(twin_share(twin, card, option, 2),
                                                    abs=1e-12, rel=0)


@pytest.mark.parametrize(("args", "why"), [
    (("--tournament", "0"), "2 to 100,000 players"),
    (("--tournament", "100001"), "2 to 100,000 players"),
    (("--tournament", "ten"), "whole number of players"),
    (("--field", "optimal"), "with --tournament"),
    (("--tournament", "3", "--target", "300"), "choose one objective"),
    (("--tournament", "3", "--objective", "win"), "choose one objective"),
])
def test_analyze_refuses_a_bad_tournament_in_one_line(played, tmp_path, args, why):
    path = tmp_path / "game.txt"
    path.write_text(played[1])
    result = run_cli("analyze", str(path), *args)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and why in lines[0], lines


@pytest.mark.parametrize(("content", "why"), [(b"", "holds no score"),
                                              (b"\x00\xff", "not text"),
                                              (b"300\n-1\n", "not a final score"),
                                              (b"300 9999", "0 to 1575")])
def test_play_refuses_a_bad_file_of_scores_in_one_line(tmp_path, content, why):
    path = tmp_path / "scores.txt"
    path.write_bytes(content)
    result = run_cli("play", "--tournament", "3", "--field-scores", str(path), text="")
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and why in lines[0], lines


def test_a_big_tournaments_review_writes_its_losses_with_their_decimals(played, tmp_path):
    """``analyze --tournament 10000``: each decision's loss and the player's figures in
    percentage points with 4 decimals (a share of first place among 10,000 is about
    0.01 %: two decimals wrote 0.00 for every loss), each the JSON's value rounded."""
    _, text = played
    bare = tmp_path / "bare.txt"
    bare.write_text(text.split("\n", 1)[1])
    scores = tmp_path / "scores.txt"
    scores.write_text(SCORES)
    args = ("analyze", str(bare), "--tournament", "10000", "--field-scores", str(scores))
    data = json.loads(run_cli(*args, "--json").stdout)
    assert data["loss_decimals"] == 4  # (the page writes its review with them)
    result = run_cli(*args)
    assert result.exit_code == 0, result.output
    rows = [line for line in result.stdout.splitlines()
            if line[:4].strip().isdigit() and line[4:16] == "  Player 1  "]
    assert len(rows) == len(data["decisions"]) == 13
    for row, decision in zip(rows, data["decisions"], strict=True):
        assert row.rstrip(" *").endswith(f"{100 * decision['loss']:.4f} pp"), row
    total = data["players"][0]["total_loss"]
    assert f"loss {100 * total:.4f} percentage points in all" in result.stdout
