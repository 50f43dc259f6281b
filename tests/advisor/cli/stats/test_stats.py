"""`yahtzee stats` and `yahtzee simulate`: readable text, JSON per docs/json.md, and
one-line errors on bad input."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from advisor.cli import cli
from solver.simulate import Decision
from tests.cli_checks import one_error_line, run_cli
from tests.cli_process import python_script


@pytest.fixture(autouse=True)
def _tables(official_table):
    """The cached official table exists, so no command builds one (and no note is printed)."""


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def run_json(*args: str) -> dict:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def first_open_box(decision: Decision) -> str:
    """A user strategy for the CLI test: score at once, in the first open box."""
    return decision.open_boxes[0]


@pytest.fixture(scope="module")
def stats_text(official_table):
    result = run("stats")
    assert result.exit_code == 0, result.output
    return result.stdout


def test_stats_text_has_the_figures_and_a_histogram(stats_text):
    assert "254.5877287345" in stats_text and "59.6079" in stats_text
    assert "50%: 248" in stats_text and "upper bonus" in stats_text
    bars = [line for line in stats_text.splitlines() if "%" in line and "#" in line]
    assert len(bars) >= 10
    # every box as the card names it (then its mean and P(zero)), in card order
    lines = stats_text.split("  box ", 1)[1].splitlines()[1:14]
    assert [line[2:18].rstrip() for line in lines] == [
        "Aces", "Twos", "Threes", "Fours", "Fives", "Sixes", "Three of a Kind",
        "Four of a Kind", "Full House", "Small Straight", "Large Straight", "Yahtzee",
        "Chance"]
    assert "large_straight" not in stats_text and "three_of_a_kind" not in stats_text


def test_stats_json_on_another_rule_set(table_of):
    table = table_of("two-rolls")
    data = run_json("stats", "--rules", "two-rolls")
    for key in ("rules", "mean", "sd", "percentiles", "most_likely", "boxes"):
        assert key in data
    assert data["rules"] == "two-rolls"
    assert abs(data["mean"] - table.expected_score) < 1e-9
    assert abs(data["mean"] - 190.1296644734) < 5e-11
    assert set(data["percentiles"]) == {"1", "5", "10", "25", "50", "75", "90", "95", "99"}


def test_simulate_json_is_reproducible():
    first = run_json("simulate", "--games", "3000", "--seed", "9")
    again = run_json("simulate", "--games", "3000", "--seed", "9")
    for key in ("games", "strategy", "mean", "sd", "stderr"):
        assert key in first
    assert first["games"] == 3000 and first["strategy"] == "optimal"
    assert first["mean"] == again["mean"] and first["sd"] == again["sd"]


def test_simulate_text():
    result = run("simulate", "--games", "2000", "--strategy", "heuristic", "--seed", "4")
    assert result.exit_code == 0, result.output
    assert "Strategy heuristic" in result.stdout and "standard error" in result.stdout


def test_compare_has_the_exact_reference_line(official_table):
    result = run("simulate", "--games", "1000", "--compare", "optimal,greedy")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    reference = next(line for line in lines if "exact optimal" in line)
    assert "254.5877" in reference
    assert any(line.split()[0] == "greedy" for line in lines[2:])
    data = run_json("simulate", "--games", "500", "--compare", "greedy,heuristic")
    assert [s["strategy"] for s in data["strategies"]] == ["greedy", "heuristic"]
    assert abs(data["exact_optimal_mean"] - 254.5877287345) < 5e-11


def test_a_python_strategy_by_module_and_name():
    data = run_json("simulate", "--games", "50", "--strategy",
                    "tests.advisor.cli.stats.test_stats:first_open_box")
    assert data["strategy"] == "tests.advisor.cli.stats.test_stats:first_open_box"
    assert data["mean"] < 120


def test_the_corrected_estimate_in_text_json_and_compare_and_workers():
    text = run("simulate", "--games", "1500", "--strategy", "greedy-turn", "--seed", "2")
    assert text.exit_code == 0, text.output
    assert "corrected mean" in text.stdout and "loss/decision    keep" in text.stdout
    assert "games for the plain mean to be as precise" in text.stdout
    compare = run("simulate", "--games", "500", "--compare", "optimal,greedy")
    assert "corrected" in compare.stdout.splitlines()[1]
    optimal = next(line for line in compare.stdout.splitlines()
                   if line.split()[:1] == ["optimal"])
    assert optimal.split()[-3:] == ["254.5877", "0.0000", "0.0000"]
    one = run_json("simulate", "--games", "1200", "--strategy",
                   "tests.advisor.cli.stats.test_stats:first_open_box")
    two = run_json("simulate", "--games", "1200", "--strategy",
                   "tests.advisor.cli.stats.test_stats:first_open_box", "--workers", "2")
    for key in ("mean", "corrected_mean", "corrected_stderr", "mean_loss_per_decision",
                "loss_by_turn", "loss_by_box", "box_means"):
        assert one[key] == two[key], key


@pytest.mark.parametrize("args, words", [
    (("--workers", "0"), "--workers"),
    (("--workers", "65"), "--workers"),
    (("--games", "0"), "--games"),
    (("--games", "-4"), "--games"),
    (("--games", "many"), "--games"),
    (("--strategy", "lucky"), "unknown strategy"),
    (("--compare", "optimal,lucky"), "unknown strategy"),
    (("--strategy", "no_such_module:play"), "cannot import"),
    (("--seed", "abc"), "--seed"),
    (("--seed", "-1"), "--seed"),
    (("--rules", "chess"), "--rules"),
])
def test_bad_input_is_one_line_and_exit_2(args, words):
    result = run("simulate", *args)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:") and words in lines[0]


def test_stats_names_the_boxes_as_the_card_does(official_table):
    result = CliRunner().invoke(cli, ["stats", "--card", "aces=3,twos=6,threes=9,fours=12,"
                                      "fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30"])
    assert result.exit_code == 0, result.output
    rows = result.stdout.split("  box ", 1)[1].splitlines()[1:4]
    assert [row[2:18].rstrip() for row in rows] == ["Large Straight", "Yahtzee", "Chance"]


HUGE = "8" * 30  # a target of 30 digits, beyond any game


def run_input(*args: str, input: str | None = None):  # noqa: A002
    """Any ``yahtzee`` command line, given ``input`` on stdin."""
    return CliRunner().invoke(cli, list(args), input=input)


def error_line(result) -> str:
    """The one ``Error:`` line of a refusal, without its prefix."""
    lines = [line for line in result.stderr.splitlines() if line.startswith("Error")]
    assert len(lines) == 1, result.output
    return lines[0].removeprefix("Error: ")


def test_simulate_target_beyond_any_game_from_the_cli(official_table) -> None:
    result = run_input("simulate", "--strategy", f"target:{HUGE}", "--games", "10", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["p_target"] == 0.0 and data["target"] == int(HUGE)
    result = run_input("simulate", "--strategy", "target:" + "8" * 31, "--games", "10")
    assert result.exit_code == 2 and "at most 30 digits" in error_line(result)


def test_a_target_beyond_any_game_takes_no_memory(official_table) -> None:
    """``target:100000000000`` ran out of memory: now a few MB over the baseline."""
    script = ("from advisor.cli import main\n"
              "from tests.cli_process import own_peak_mb\n"
              "sys.argv = ['yahtzee', 'simulate', '--games', '10', '--strategy', "
              "'target:' + sys.argv[1]]\n"
              "try:\n    main()\nexcept SystemExit:\n    pass\n"
              "print(own_peak_mb())\n")
    peaks = []
    for target in ("2000", "100000000000", HUGE):
        out = subprocess.run(python_script(script, target), capture_output=True,
                             timeout=300, text=True)
        assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
        peaks.append(float(out.stdout.splitlines()[-1]))
    assert max(peaks) < peaks[0] + 50, peaks  # MB


@pytest.mark.parametrize("games", [str(2**31), str(2**63), "1" + "0" * 23, "10000001", "0",
                                   "-5", "9" * 5000])
def test_simulate_games_beyond_the_maximum(games: str) -> None:
    line = one_error_line(run_cli("simulate", "--games", games))
    assert "--games" in line and len(line) < 200


def test_strategy_and_compare_together_are_refused() -> None:
    line = one_error_line(run_cli("simulate", "--strategy", "greedy", "--compare", "optimal"))
    assert "--strategy" in line and "--compare" in line


@pytest.mark.parametrize("args, option", [
    (("--strategy", ""), "--strategy"), (("--strategy", "  "), "--strategy"),
    (("--compare", ""), "--compare"), (("--compare", "optimal,,greedy"), "--compare"),
    (("--compare", "optimal,"), "--compare"), (("--compare", "optimal,lucky"), "--compare"),
    (("--strategy", "lucky"), "--strategy"),
])
def test_errors_name_the_option_given(args, option: str) -> None:
    line = one_error_line(run_cli("simulate", "--games", "5", *args))
    assert option in line
    other = "--compare" if option == "--strategy" else "--strategy"
    assert other not in line


STRATEGIES = """
import os
def takes_nothing():
    return "chance"
def raises(decision):
    raise RuntimeError("boom")
def returns_junk(decision):
    return object()
def infinite_keep(decision):
    import itertools
    return itertools.count(1)
def float_faces(decision):
    return [2.5]
class NotAStrategy:
    pass
pi = 3.14
"""


@pytest.mark.parametrize("spec, words", [
    ("hostile_strats:takes_nothing", "TypeError"),
    ("hostile_strats:raises", "RuntimeError"),
    ("hostile_strats:returns_junk", "illegal move"),
    ("hostile_strats:infinite_keep", "illegal move"),
    ("hostile_strats:float_faces", "illegal move"),
    ("hostile_strats:NotAStrategy", "not a strategy"),
    ("hostile_strats:pi", "not a strategy"),
    ("hostile_strats:missing", "cannot import"),
    ("hostile_broken:play", "SyntaxError"),
    (".hostile_strats:raises", "relative"),
    ("..x:y", "relative"),
    (":raises", "module:function"),
    ("hostile_strats:", "module:function"),
    ("os:getcwd", "TypeError"),
    ("sys:exit", "SystemExit"),
])
def test_python_strategies_that_are_not_strategies(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   spec: str, words: str) -> None:
    (tmp_path / "hostile_strats.py").write_text(STRATEGIES)
    (tmp_path / "hostile_broken.py").write_text("def play(:\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    line = one_error_line(run_cli("simulate", "--games", "3", "--strategy", spec))
    assert words in line, line
