"""Issue 5 through the CLI: every command takes --rules, Yatzy's own scorecard, and the
bad inputs of a rule set (unknown name, a box it lacks, a table of another rule set)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from oracles.independent_scorer import RULE_BOOKS

from advisor.cli import cli
from solver.game.rules import RULE_NAMES
from tests.solver.test_builder import NEW_GAME

COMMANDS = ("solve", "export", "advise", "play", "strategy", "stats", "simulate")
REQUIRED = {"export": ["--format", "npy", "--out", "unused.npy"], "advise": ["--dice", "22256"],
            "strategy": ["--card", ""], "simulate": ["--games", "10"]}


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def assert_one_error_line(result, *needles: str) -> None:
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:"), result.output
    assert "Traceback" not in result.output
    for needle in needles:
        assert needle in lines[0]


@pytest.mark.parametrize("rules_name", RULE_NAMES)
def test_every_command_follows_the_rule_set(table_of, rules_name: str) -> None:
    """solve, advise, strategy and simulate under each rule set give that rule set's
    figures (play, export and stats: tests/solver/game/rules/test_every_path.py,
    tests/advisor/cli/stats/test_stats.py)."""
    table_of(rules_name)
    book = RULE_BOOKS[rules_name]
    exact = NEW_GAME[rules_name]
    solved = json.loads(run("solve", "--rules", rules_name, "--json").stdout)
    assert solved["rules"] == rules_name and abs(solved["expected_score"] - exact) < 5e-11
    advice = json.loads(run("advise", "--rules", rules_name, "--dice", "22256", "--json").stdout)
    assert advice["rules"] == rules_name and advice["rolls_left"] == book.rolls - 1
    # The first roll's best option is worth the new-game value give or take this roll's luck.
    assert abs(advice["options"][0]["expected_final"] - exact) < 10
    sheet = run("strategy", "--rules", rules_name, "--format", "csv").stdout.splitlines()
    assert len(sheet) == 1 + 252 * book.rolls
    assert sheet[1].startswith(f"11111,{book.rolls - 1},")
    sim = json.loads(run("simulate", "--rules", rules_name, "--games", "400", "--seed", "3",
                         "--json").stdout)
    assert sim["rules"] == rules_name
    assert abs(sim["mean"] - exact) < 4 * sim["stderr"]
    assert set(sim["box_means"]) == set(book.card)


@pytest.mark.parametrize("command", COMMANDS)
def test_unknown_rule_set_lists_the_valid_ones(command: str) -> None:
    result = run(command, "--rules", "yahtzee-deluxe", *REQUIRED.get(command, []))
    assert_one_error_line(result, *RULE_NAMES)


def test_yatzy_advice_uses_its_own_boxes(table_of) -> None:
    table_of("yatzy")
    data = json.loads(run("advise", "--rules", "yatzy", "--dice", "33355", "--rolls-left", "0",
                          "--card", "ones=3,one_pair=12", "--top", "0", "--json").stdout)
    scores = {o["box"]: o["points"] for o in data["options"] if o["action"] == "score"}
    assert scores["two_pairs"] == 16 and scores["full_house"] == 19
    assert scores["three_of_a_kind"] == 9 and "yatzy" in scores and "one_pair" not in scores
    assert len(scores) == 13  # 15 boxes, two filled


@pytest.mark.parametrize(("rules", "card", "box"), [
    ("yatzy", "yahtzee=50", "yahtzee"),
    ("official", "one_pair=12", "one_pair"),
    ("no-bonus", "two_pairs=16", "two_pairs"),
])
def test_a_box_the_rule_set_lacks_is_refused(rules: str, card: str, box: str) -> None:
    result = run("advise", "--rules", rules, "--dice", "22256", "--card", card)
    assert_one_error_line(result, box, rules)


def test_a_table_of_another_rule_set_is_refused(official_table) -> None:
    for command in (["advise", "--dice", "22256"], ["strategy", "--card", ""],
                    ["stats"], ["simulate", "--games", "10"]):
        result = run(*command, "--rules", "free-joker", "--table", str(official_table.path))
        assert_one_error_line(result, "official", "free-joker", "rebuild")
