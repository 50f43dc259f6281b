"""The request layer: one declaration per option, read the same way by the CLI and the API;
the ``--rules`` option through every command: Yatzy's own scorecard, and the bad inputs
of a rule set (unknown name, a box it lacks, a table of another rule set)."""

from __future__ import annotations

import json

import click
import pytest
from click.testing import CliRunner

from advisor.cli import cli
from advisor.request.params import PARAMS, RequestError, read_query
from solver.game.rules import RULE_NAMES
from tests.oracles.independent_scorer import RULE_BOOKS
from tests.solver.test_builder import NEW_GAME


def test_the_bounds_of_games_and_seed_are_the_simulators():
    from solver.simulate import MAX_GAMES, MAX_SEED

    assert (PARAMS["games"].type.low, PARAMS["games"].type.high) == (1, MAX_GAMES)
    assert (PARAMS["seed"].type.low, PARAMS["seed"].type.high) == (0, MAX_SEED)


def test_every_option_of_every_command_comes_from_the_table():
    """Each command's options are those of PARAMS (the one declaration), besides --help."""
    declared = {(p.option_name, p.keyword) for p in PARAMS.values()}
    used = set()
    ctx = click.Context(cli)
    for name in cli.list_commands(ctx):
        command = cli.get_command(ctx, name)
        for param in command.params:
            if param.param_type_name == "option" and param.name != "help":
                assert (param.opts[0], param.name) in declared, (name, param.opts)
                used.add(param.name)
    unused = {p.keyword for p in PARAMS.values()} - used
    # the page's own: /api/place's box, /api/grade's answer, /api/train/session's answers
    assert unused == {"box_name", "answer_text", "answers_text"}


def test_a_query_is_read_as_the_options_are():
    names = ("dice", "rolls_left", "top", "rules")
    assert read_query(names, [("top", "3"), ("rules", "YATZY"), ("top", "4")]) == {
        "dice_text": None, "rolls_left": None, "top": 4, "rules_name": "yatzy"}
    assert read_query(names, [], {"rules": "two-rolls"})["rules_name"] == "two-rolls"
    with pytest.raises(RequestError, match="unknown parameter 'as_json'; accepted: dice, "):
        read_query(names, [("as_json", "1")])
    with pytest.raises(RequestError, match="missing parameter 'box'"):
        read_query(("box",), [])


@pytest.mark.parametrize(("name", "value"), [("top", "-1"), ("top", "many"),
                                             ("rolls_left", ""), ("rules", "x" * 120),
                                             ("games", "0"), ("seed", str(2**64)),
                                             ("players", "9"), ("objective", "best")])
def test_a_bad_value_has_the_message_of_the_cli(name, value):
    command = {"games": "simulate", "seed": "simulate", "players": "play",
               "objective": "play"}.get(name, "advise")
    first = {"advise": ["22256"], "simulate": ["--json"], "play": []}[command]
    result = CliRunner().invoke(cli, [command, *first, PARAMS[name].option_name, value],
                                input="")
    assert result.exit_code == 2
    with pytest.raises(RequestError) as refused:
        read_query((name,), [(name, value)])
    assert result.stderr.strip() == f"Error: {refused.value}"
    assert len(str(refused.value)) < 200  # a long input is cut, for both


# --------------------------------------------------- --rules: every command follows it


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


# ------------------------------------------------ numbers: ASCII digits, one check


def run_input(*args: str, input: str | None = None):  # noqa: A002
    """Any ``yahtzee`` command line, given ``input`` on stdin."""
    return CliRunner().invoke(cli, list(args), input=input)


@pytest.mark.usefixtures("official_table")  # commands read it, none builds it
@pytest.mark.parametrize("text", ["３００", "٣٠٠", "3_00", "+300", "3e2", "9" * 5000, "-1", "²"])
def test_targets_are_ascii_digits_as_dice_and_cards_are(text: str) -> None:
    for args in (["advise", "22256", "--target", text], ["stats", "--target", text],
                 ["advise", "22256", "--beat", text],
                 ["simulate", "--games", "5", "--strategy", f"target:{text}"]):
        result = run_input(*args)
        assert result.exit_code == 2 and "Traceback" not in result.output, args
        assert len(result.stderr) < 300


INT_OPTIONS = [("advise", "22256", "--rolls-left"), ("advise", "22256", "--top"),
               ("play", "--players"), ("simulate", "--games"), ("simulate", "--seed"),
               ("serve", "--port"), ("play", "--names", "A,B", "--objective", "win",
                                     "--win-from")]


@pytest.mark.usefixtures("official_table")  # commands read it, none builds it
@pytest.mark.parametrize("text", ["٢", "２", "1_0", "+1", "²", "9" * 5000, "1.0"])
def test_whole_number_options_take_ascii_digits_only(text: str) -> None:
    for args in INT_OPTIONS:
        result = run_input(*args, text, input="")
        assert result.exit_code == 2 and "Traceback" not in result.output, (args, text)
        assert "not a valid integer" in result.stderr and len(result.stderr) < 300, args


@pytest.mark.usefixtures("official_table")  # commands read it, none builds it
def test_whole_number_options_still_take_spaces_and_range_messages() -> None:
    assert run_input("advise", "22256", "--rolls-left", " 1 ").exit_code == 0
    assert "is not in the range" in run_input("advise", "22256", "--top", "-1").stderr
