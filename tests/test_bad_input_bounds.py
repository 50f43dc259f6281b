"""Issue 22, crashes and blow-ups: closed standard streams, environment settings, numbers
beyond any game, and the peak memory of bad input (measured in a subprocess)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import textwrap
import time
from pathlib import Path

import pytest
from cli_process import YAHTZEE, python_script
from click.testing import CliRunner

from advisor.cli import cli
from advisor.objective import Objective
from solver.game.rules import RULE_NAMES, get_rules
from solver.stats import highest_score

LATE_CARD = ("aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30,"
             "ls=40,yahtzee=0")


@pytest.fixture(autouse=True)
def _tables(official_table):
    """The cached official table exists, so commands read it."""


def run(*args: str, input: str | None = None):  # noqa: A002
    return CliRunner().invoke(cli, list(args), input=input)


def _closing(*fds: int):  # noqa: ANN202
    def close() -> None:
        for fd in fds:
            os.close(fd)
    return close


# ---------------------------------------------------------------- standard streams

COMMANDS = [["--help"], ["--version"], ["advise", "22256"], ["advise", "--help"],
            ["rules"], ["strategy", "--card", LATE_CARD], ["stats", "--card", LATE_CARD],
            ["simulate", "--games", "5"], ["play", "--help"], ["solve"],
            ["advise", "22256", "--target", "x"]]


@pytest.mark.parametrize("closed", [1, 2, 0])
def test_every_command_with_a_closed_stream(closed: int) -> None:
    for args in COMMANDS:
        result = subprocess.run([*YAHTZEE, *args], capture_output=closed != 1 and closed != 2,
                                stdin=subprocess.DEVNULL if closed != 0 else None,
                                preexec_fn=_closing(closed), timeout=300)
        expected = 2 if args[-1] == "x" else 0
        assert result.returncode == expected, (args, closed, result.stderr)
        if result.stderr is not None:
            assert b"Traceback" not in result.stderr, args


def test_commands_that_read_stdin_refuse_a_closed_one(tmp_path: Path) -> None:
    for args in (["play"], ["analyze", "-"], ["play", "--record", str(tmp_path / "g.txt")]):
        result = subprocess.run([*YAHTZEE, *args], capture_output=True,
                                preexec_fn=_closing(0), timeout=300)
        assert result.returncode == 2, result.stderr
        assert result.stderr.decode().startswith("Error: standard input is closed")
    assert not (tmp_path / "g.txt").exists()


def test_a_file_opened_with_stdout_closed_gets_none_of_the_output(tmp_path: Path) -> None:
    """With fd 1 closed, the record file must not become fd 1 and receive the output."""
    path = tmp_path / "g.txt"
    result = subprocess.run([*YAHTZEE, "play", "--record", str(path)], input=b"22256\nq\n",
                            stderr=subprocess.PIPE, preexec_fn=_closing(1), timeout=300)
    assert result.returncode == 0, result.stderr
    assert path.read_text() == "rules official\nplayers Player 1\nPlayer 1: 22256\n"


@pytest.mark.parametrize("layer, words", [("junk", "is not a numba threading layer"),
                                          ("OMP", "is not a numba threading layer")])
def test_a_bad_threading_layer_is_one_line(layer: str, words: str) -> None:
    result = CliRunner().invoke(cli, ["advise", "22256"], env={"NUMBA_THREADING_LAYER": layer})
    assert result.exit_code == 2 and words in result.stderr
    assert "Traceback" not in result.output


def test_a_threading_layer_that_is_not_installed_is_one_line(tmp_path: Path) -> None:
    """tbb is a valid name, but the tbb library is not installed here (no traceback)."""
    env = {**os.environ, "NUMBA_THREADING_LAYER": "tbb", "YAHTZEE_TABLES": str(tmp_path)}
    result = subprocess.run([*YAHTZEE, "solve", "--rules", "yatzy"], capture_output=True,
                            env=env, timeout=600)
    err = result.stderr.decode()
    assert "Traceback" not in err
    if result.returncode:  # tbb missing
        assert result.returncode == 2 and "NUMBA_THREADING_LAYER='tbb' cannot be used" in err


def test_sigterm_during_a_user_strategy_is_not_its_failure(tmp_path: Path) -> None:
    (tmp_path / "slowstrategy.py").write_text(textwrap.dedent("""
        import time
        def slow(decision):
            time.sleep(0.02)
            return decision.open_boxes[0] if not decision.rolls_left else []
    """))
    proc = subprocess.Popen([*YAHTZEE, "simulate", "--strategy", "slowstrategy:slow",
                             "--games", "1000"], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stderr is not None
    proc.stderr.read1(1)  # the games' bar is up: the strategy is being asked
    time.sleep(1)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert b"failed" not in err and b"Traceback" not in err


# ---------------------------------------------------------------- numbers

def test_the_highest_score_is_computed_per_rule_set() -> None:
    found = {name: highest_score(get_rules(name)) for name in RULE_NAMES}
    assert found["official"] == 1575  # 13 boxes at their best, 35, twelve 100 bonuses
    assert found["yatzy"] == 374
    assert found["no-bonus"] == 375 and found["two-rolls"] == 1575


@pytest.mark.parametrize("option, value", [("--target", "99999999999999999999999"),
                                           ("--target", "1000000000"),
                                           ("--beat", "99999999999999999999999"),
                                           ("--target", "1576")])
def test_a_target_beyond_any_game_is_answered_at_once(option: str, value: str) -> None:
    result = run("advise", "22256", option, value, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert all(o["p_target"] == 0.0 for o in data["options"])
    ev = json.loads(run("advise", "22256", "--json").stdout)
    assert [o["expected_final"] for o in data["options"]] == \
        [o["expected_final"] for o in ev["options"]]


@pytest.mark.parametrize("text", ["３００", "٣٠٠", "3_00", "+300", "3e2", "9" * 5000, "-1", "²"])
def test_targets_are_ascii_digits_as_dice_and_cards_are(text: str) -> None:
    for args in (["advise", "22256", "--target", text], ["stats", "--target", text],
                 ["advise", "22256", "--beat", text],
                 ["simulate", "--games", "5", "--strategy", f"target:{text}"]):
        result = run(*args)
        assert result.exit_code == 2 and "Traceback" not in result.output, args
        assert len(result.stderr) < 300


def test_stats_out_of_reach_targets_are_zero(official_table) -> None:
    from advisor.model import Scorecard
    from advisor.target_stats import target_stats

    card = Scorecard.parse(LATE_CARD)
    result = target_stats(official_table, card, 10**20, rows=(250, 263, 264, 10**25))
    assert result.p_target == 0.0 and result.p_target_ev == 0.0
    assert result.rows == ()  # (answered at once: no table of other targets)
    result = target_stats(official_table, card, 263, rows=(250, 263, 264, 10**25))
    rows = {x: (p, q) for x, p, q in result.rows}
    assert rows[264] == rows[10**25] == (0.0, 0.0)
    assert 0 < rows[263][0] < 1 and rows[250][0] > 0


def test_objectives_refuse_numbers_longer_than_thirty_digits() -> None:
    assert Objective.for_target("9" * 30).target == 10**30 - 1
    for value in ("9" * 31, 10**30, "1" * 5000):
        with pytest.raises(ValueError, match="at most 30 digits"):
            Objective.for_target(value)


# ---------------------------------------------------------------- peak memory

MEASURE = textwrap.dedent("""
    import json, sys
    from click.testing import CliRunner
    from advisor.cli import cli
    from cli_process import own_peak_mb as peak_mb

    def run(*args, input=None):
        result = CliRunner().invoke(cli, list(args), input=input)
        assert "Traceback" not in result.output, (args, result.output[-500:])
        assert result.exit_code in (0, 1, 2), (args, result.exit_code, result.output[-500:])
        assert not isinstance(result.exception, (MemoryError, AssertionError)), args

    run("advise", "22256", "--json")           # tables, kernels, the advisor: the baseline
    run("advise", "22256", "--card", sys.argv[1], "--target", "300", "--json")
    run("stats", "--card", sys.argv[1], "--target", "250")
    run("analyze", "-", input="Ann: 22256 twos\\n")
    run("simulate", "--games", "10", "--strategy", "target:2000")
    base = peak_mb()
    huge = "99999999999999999999999"
    for option in ("--target", "--beat"):
        for value in (huge, "1000000000", "1576", "9" * 5000, "３００"):
            run("advise", "22256", option, value, "--json")
    run("advise", "22256", "--opponent", "twos=" + "9" * 5000)
    run("stats", "--card", sys.argv[1], "--target", huge)
    run("stats", "--card", sys.argv[1], "--target", "9" * 5000)
    run("simulate", "--games", "10", "--strategy", "target:" + huge)
    run("simulate", "--games", "10", "--strategy", "target:" + "9" * 5000)
    run("simulate", "--games", "99999999999999999999999")
    run("simulate", "--seed", "9" * 5000)
    run("advise", "22256", "--rolls-left", "9" * 5000)
    run("advise", "22256", "--top", "9" * 5000)
    run("play", "--players", "9" * 5000)
    run("play", "--names", "A" * 100000)
    run("play", input="22256\\n" + "9" * 900 + "\\n" + "7" * 200000 + "\\nq\\n")
    run("analyze", "-", input='{"turns": [' + "9" * 5000 + "]}")
    run("analyze", "-", input='{"players": ["\\\\ud800"]}')
    run("analyze", "-", input="players Ann\\n" + "Ann: 22256 twos\\n" * 50000)
    run("analyze", "-", input="[" * 500000)
    print(json.dumps({"base": base, "peak": peak_mb()}))
""")


def test_no_bad_number_name_or_stream_allocates_100_mb() -> None:
    result = subprocess.run(python_script(MEASURE, LATE_CARD), capture_output=True,
                            timeout=900)
    assert result.returncode == 0, result.stderr.decode()[-3000:]
    figures = json.loads(result.stdout.decode().strip().splitlines()[-1])
    assert figures["peak"] - figures["base"] < 100, figures


# ---------------------------------------------------------------- the program's own cache

def test_a_damaged_cached_table_is_built_again(tmp_path: Path, tables_dir: str,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    from solver.table import clear_table_cache

    cache = tmp_path / "cache"
    cache.mkdir()
    shutil.copy(Path(tables_dir) / "official.ytable", cache / "official.ytable")
    with open(cache / "official.ytable", "r+b") as f:  # a flipped byte in the body
        f.seek(-100, os.SEEK_END)
        f.write(b"\xff\xff")
    monkeypatch.setenv("YAHTZEE_TABLES", str(cache))
    clear_table_cache()
    try:
        result = run("advise", "22256", "--json")
        assert result.exit_code == 0, result.output
        assert "checksum" in result.stderr and "building it again" in result.stderr
        clear_table_cache()
        again = run("advise", "22256", "--json")
        assert again.exit_code == 0 and "note" not in again.stderr  # rebuilt on disk
        assert json.loads(again.stdout) == json.loads(result.stdout)
    finally:
        clear_table_cache()


# ---------------------------------------------------------------- long paths

def test_long_paths_are_shown_in_at_most_80_characters(tmp_path: Path) -> None:
    folder = tmp_path / ("d" * 120) / ("e" * 120)
    folder.mkdir(parents=True)
    missing = folder / ("f" * 60)
    (folder / "t.txt").write_text("players Ann\n")
    cases = [("analyze", str(missing)), ("analyze", str(folder)),
             ("play", "--resume", str(missing)), ("play", "--record", f"{folder}/x/y.txt"),
             ("advise", "--game", f"{folder}/x/y.txt", "22256", "--append", "1"),
             ("solve", "--out", str(folder)),
             ("advise", "22256", "--table", str(missing)),
             ("strategy", "--out", str(folder)),
             ("simulate", "--games", "2", "--records", str(folder)),
             ("play", "--record", str(folder / "t.txt"))]
    for args in cases:
        result = run(*args, input="")
        lines = [line for line in result.stderr.splitlines() if line.startswith("Error")]
        assert result.exit_code == 2 and len(lines) == 1, (args, result.output)
        longest = max(len(word.strip(":;,()")) for word in lines[0].replace("'", " ").split())
        assert longest <= 80, lines[0]
        assert "..." in lines[0]


# ---------------------------------------------------------------- front ends: one check

INT_OPTIONS = [("advise", "22256", "--rolls-left"), ("advise", "22256", "--top"),
               ("play", "--players"), ("simulate", "--games"), ("simulate", "--seed"),
               ("serve", "--port"), ("play", "--names", "A,B", "--objective", "win",
                                     "--win-from")]


@pytest.mark.parametrize("text", ["٢", "２", "1_0", "+1", "²", "9" * 5000, "1.0"])
def test_whole_number_options_take_ascii_digits_only(text: str) -> None:
    for args in INT_OPTIONS:
        result = run(*args, text, input="")
        assert result.exit_code == 2 and "Traceback" not in result.output, (args, text)
        assert "not a valid integer" in result.stderr and len(result.stderr) < 300, args


def test_whole_number_options_still_take_spaces_and_range_messages() -> None:
    assert run("advise", "22256", "--rolls-left", " 1 ").exit_code == 0
    assert "is not in the range" in run("advise", "22256", "--top", "-1").stderr


def test_advise_game_takes_the_objective_and_refuses_other_rules(tmp_path: Path) -> None:
    path = tmp_path / "g.txt"  # one box open: every objective is quick to solve
    path.write_text("players Ann\n" + "".join(
        f"Ann: {dice} {box}\n" for dice, box in (
            ("11123", "aces"), ("22213", "twos"), ("33312", "threes"), ("44412", "fours"),
            ("55512", "fives"), ("66612", "sixes"), ("66612", "3k"), ("66662", "4k"),
            ("22333", "fh"), ("12346", "ss"), ("23456", "ls"), ("12345", "yahtzee"))))
    for option, value, kind in (("--target", "260", "target"), ("--beat", "3000", "target"),
                                ("--opponent", LATE_CARD, "win")):
        data = json.loads(run("advise", "--game", str(path), "12345", option, value,
                              "--json").stdout)
        assert data["objective"]["kind"] == kind and data["player"] == "Ann"
        key = "p_target" if kind == "target" else "win_share"
        assert all(key in o for o in data["options"])
    line = run("advise", "--game", str(path), "12345", "--rules", "yatzy").stderr
    assert "the record is a game of rules 'official'" in line
    assert run("advise", "--game", str(path), "12345", "--rules", "official").exit_code == 0
    result = run("advise", "--game", str(path), "12345", "--target", "260", "--append", "1")
    assert result.exit_code == 0
    assert path.read_text().splitlines()[0] == '# objective: {"kind": "target", "target": 260}'


def test_strategy_out_never_replaces_a_record_unasked(tmp_path: Path) -> None:
    record = tmp_path / "game.txt"
    record.write_text("players Ann\nAnn: 22256 twos\n")
    result = run("strategy", "--card", LATE_CARD, "--out", str(record))
    assert result.exit_code == 2 and "--force" in result.stderr
    assert record.read_text() == "players Ann\nAnn: 22256 twos\n"
    for fmt in (["--format", "md"], ["--format", "csv"], ["--json"]):
        sheet = tmp_path / f"sheet{fmt[-1]}"
        assert run("strategy", "--card", LATE_CARD, *fmt, "--out", str(sheet)).exit_code == 0
        assert run("strategy", "--card", LATE_CARD, *fmt, "--out", str(sheet)).exit_code == 0
    assert run("strategy", "--card", LATE_CARD, "--out", str(record), "--force").exit_code == 0
    assert record.read_text().startswith("# Strategy sheet:")
