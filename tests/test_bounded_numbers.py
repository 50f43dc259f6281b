"""Issue 32, every number and stream bounded: targets beyond any game in every front end
and the library (one cap), ``--win-from``, the number of opponents, the RL env's opponent
strategies, and ``train``'s input read as ``play`` reads it. Each refusal is one message:
exit code 2 from the CLI, a ``ValueError`` subclass from the library (the server's HTTP
400 is in tests/web/app/test_bounds.py)."""

from __future__ import annotations

import json
import subprocess

import pytest
from cli_process import close_stdin, python_script, run_measured
from click.testing import CliRunner

from advisor.cli import cli
from advisor.objective import MAX_OPPONENTS, Objective
from advisor.play_win import WinEachTurn, choose_judging
from solver.errors import YahtzeeError
from solver.game.move import Move
from solver.game.rules import RULE_NAMES, get_rules
from solver.simulate import simulate
from solver.stats import highest_score
from solver.target import Utility, target_cap

HUGE = "8" * 30
LATE_CARD = ("aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30,"
             "ls=40,yahtzee=0")


def run(*args: str, input: str | None = None):  # noqa: A002
    return CliRunner().invoke(cli, list(args), input=input)


def error_line(result) -> str:
    lines = [line for line in result.stderr.splitlines() if line.startswith("Error")]
    assert len(lines) == 1, result.output
    return lines[0].removeprefix("Error: ")


# ---------------------------------------------------------------- targets: one cap

def test_the_cap_is_one_above_the_highest_score_of_each_rule_set() -> None:
    for name in RULE_NAMES:
        rules = get_rules(name)
        assert target_cap(rules) == highest_score(rules) + 1
        assert Utility.target(10**30, rules).top == highest_score(rules) + 1
        assert Utility.target(highest_score(rules), rules).top == highest_score(rules)
    assert target_cap() == max(highest_score(get_rules(n)) for n in RULE_NAMES) + 1 == 1576
    assert Utility.target(10**40).top == 1576 and Utility.target(-5).top == 0
    for bad in (True, 1.5, "300"):
        with pytest.raises(YahtzeeError, match="whole number"):
            Utility.target(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("target", [HUGE, "100000000000", "1576"])
def test_a_target_beyond_any_game_simulates_as_the_expected_score(official_table,
                                                                    target: str) -> None:
    """Never reached: every option has P = 0, so the higher expected score decides every
    choice, and the games are optimal play's games of the same seed."""
    result = simulate(official_table, f"target:{target}", games=20, seed=5, judged=False)
    optimal = simulate(official_table, "optimal", games=20, seed=5, judged=False)
    assert result.p_target == 0.0 and result.target == int(target)
    assert list(result.scores) == list(optimal.scores)


def test_simulate_target_beyond_any_game_from_the_cli(official_table) -> None:
    result = run("simulate", "--strategy", f"target:{HUGE}", "--games", "10", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["p_target"] == 0.0 and data["target"] == int(HUGE)
    result = run("simulate", "--strategy", "target:" + "8" * 31, "--games", "10")
    assert result.exit_code == 2 and "at most 30 digits" in error_line(result)


def test_a_target_beyond_any_game_takes_no_memory(official_table) -> None:
    """``target:100000000000`` ran out of memory: now a few MB over the baseline."""
    script = ("from advisor.cli import main\n"
              "from cli_process import own_peak_mb\n"
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


# ---------------------------------------------------------------- --win-from

WIN_RECORD = "players Ann,Bob\nAnn: 22256 twos\nBob: 33345 threes\n"


@pytest.mark.parametrize("value", ["16", "99999", "99999999999999999999", "0"])
def test_win_from_is_a_number_of_open_boxes(value: str) -> None:
    expected = (f"--win-from {value!r}: give a number of open boxes, 1 to 15 (the number "
                f"of boxes or more: from the first turn)")
    for args in (["analyze", "-", "--objective", "win", "--win-from", value],
                 ["play", "--names", "Ann,Bob", "--objective", "win", "--win-from", value]):
        result = run(*args, input=WIN_RECORD)
        assert result.exit_code == 2 and error_line(result) == expected, args
    with pytest.raises(ValueError) as caught:
        choose_judging(objective_name="win", win_from=int(value), target=None, beat=None,
                       opponent=None, players=("Ann", "Bob"), rules="official")
    assert str(caught.value) == expected


def test_win_from_goes_up_to_the_most_boxes_of_any_rules() -> None:
    def judging(n: int, rules: str) -> object:
        return choose_judging(objective_name="win", win_from=n, target=None, beat=None,
                              opponent=None, players=("Ann", "Bob"), rules=rules)

    assert judging(13, "official") == WinEachTurn(13) and judging(1, "official") == \
        WinEachTurn(1)
    assert judging(15, "yatzy") == WinEachTurn(15) == judging(15, "official")
    with pytest.raises(ValueError, match="1 to 15"):
        judging(16, "yatzy")


def test_a_record_noting_more_open_boxes_than_the_rules_have_is_refused() -> None:
    text = ("# objective: win (each player against the best of the others, from 16 open "
            "boxes on)\n" + WIN_RECORD)
    result = run("analyze", "-", input=text)
    assert result.exit_code == 2 and "names no objective" in error_line(result)


# ---------------------------------------------------------------- opponents

def test_at_most_seven_opponents() -> None:
    seven = ";".join(["twos=6"] * MAX_OPPONENTS)
    assert len(Objective.parse_options(opponents=seven).opponents) == MAX_OPPONENTS
    for count in (8, 50, 5000):
        with pytest.raises(ValueError) as caught:
            Objective.parse_options(opponents=";".join(["twos=6"] * count))
        assert str(caught.value) == (f"{count:,} opponents: a win objective takes 2 to 7 "
                                     f"opponents' cards (the others at a table of eight)")
        with pytest.raises(ValueError, match="2 to 7"):
            Objective.win_against(["twos=6"] * count)
        with pytest.raises(ValueError, match="2 to 7"):
            Objective.from_json({"kind": "win", "opponents": ["twos=6"] * count})


def test_an_empty_card_among_opponents_is_a_new_game() -> None:
    """What the page sends for players who have not played yet (as ``--card ''``)."""
    objective = Objective.parse_options(opponents=";;")
    assert len(objective.opponents) == 3 and all(c.total == 0 and len(c.open_boxes()) == 13
                                                  for c in objective.opponents)


def test_the_rl_env_lists_only_the_opponents_it_takes() -> None:
    import gymnasium

    import advisor.rl  # noqa: F401  (registers the environment)

    for name in ("target:300", "Target:300", "nonsense", "x" * 5000):
        with pytest.raises(ValueError) as caught:
            gymnasium.make("yahtzee/Yahtzee-v0", opponents=[name])
        message = str(caught.value)
        assert "optimal, greedy, greedy-turn, heuristic" in message and len(message) < 200
        assert "not target:X" in message and "and target:X" not in message
    with pytest.raises(ValueError, match="more than 7 opponents"):
        gymnasium.make("yahtzee/Yahtzee-v0", opponents=["greedy"] * 8)
    env = gymnasium.make("yahtzee/Yahtzee-v0", opponents=["greedy"] * 7)
    obs, _ = env.reset(seed=1)
    assert obs["opponent_totals"].shape == (7,)


# ---------------------------------------------------------------- echoes and train's input

def test_a_long_move_is_echoed_at_most_80_characters() -> None:
    for text in ("x" * 2_000_000, "keep " + "7" * 5000, "score " + "q" * 5000):
        with pytest.raises(ValueError) as caught:
            Move.parse(text)
        assert len(str(caught.value)) < 400, str(caught.value)[:500]


def test_train_reads_bounded_lines(official_table) -> None:
    result = run("train", "--positions", "1", "--seed", "3", "--no-history",
                 input=f"{'y' * 3000}\n{'y' * 5000}\nquit\n")
    assert result.exit_code == 0 and "Traceback" not in result.output
    assert len(result.output) < 5000
    assert result.output.count("! a line of more than 1000 characters is not a move") == 2
    result = run("train", "--positions", "1", "--seed", "3", "--no-history",
                 input="x" * 2_000_000 + "\nscore twos\n")  # 2 MB: not a line of text
    assert result.exit_code == 0 and "not lines of text" in result.stderr
    assert len(result.output) < 5000 and "stopped after 0 of 1" in result.stdout
    result = run("train", "--positions", "1", "--seed", "3", "--no-history", "--json",
                 input="k" * 5000 + "\n")
    assert result.exit_code == 2
    assert error_line(result).startswith("position 1: a line of more than 1000 characters")
    result = run("train", "--positions", "1", "--seed", "3", "--no-history",
                 input="x" * 300 + "\nquit\n")
    assert "'" + "x" * 75 + "...'" in result.output and "x" * 81 not in result.output


@pytest.mark.slow
@pytest.mark.parametrize("args, code", [
    (["advise", "22256"], 0), (["analyze", "-"], 2), (["help"], 0), (["rules"], 0),
    (["play"], None), (["train", "--positions", "1", "--no-history"], None),
    (["train", "--positions", "1", "--no-history", "--json"], None),
    (["stats", "--card", LATE_CARD], 0), (["strategy", "--card", LATE_CARD], 0),
    (["simulate", "--games", "5"], 0), (["solve"], 0), (["warmup"], 0)])
def test_every_command_with_closed_stdin_and_with_dev_zero(official_table, args: list[str],
                                                           code: int | None) -> None:
    """Closed: a command that reads stdin says so (exit 2); /dev/zero: not lines of text,
    the end of input (play: stopped, 1; train: 0) or too large (analyze: 2); never a
    traceback, never more memory than a normal run."""
    closed, closed_mb = run_measured(args, preexec_fn=close_stdin)
    err = closed.stderr.decode()
    assert "Traceback" not in err, (args, err)
    reads = args[0] in ("play", "train", "analyze")
    assert closed.returncode == (2 if reads else code), (args, err)
    if reads:
        assert err.startswith("Error: standard input is closed"), err
    with open("/dev/zero", "rb") as zeros:
        zero, zero_mb = run_measured(args, stdin=zeros)
    err = zero.stderr.decode()
    assert "Traceback" not in err, (args, err)
    expected = {"play": 1, "train": 0}.get(args[0], code)
    assert zero.returncode == expected, (args, err)
    if args[0] in ("play", "train"):
        assert "not lines of text" in err
    assert max(closed_mb, zero_mb) < 1500, (args, closed_mb, zero_mb)
