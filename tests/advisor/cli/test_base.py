"""The ``yahtzee`` group (``advisor/cli/_base.py``) loads its commands lazily (``COMMANDS``):
the list of ``yahtzee --help`` comes from the entries, a command's module is imported
when the command is used, and each entry is the command it names. What it guards for
every command (issue 22): closed standard streams, environment settings, SIGTERM, the
peak memory of bad input (measured in a subprocess), long paths in one error line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from advisor.cli import cli
from advisor.cli._base import COMMANDS
from tests.cli_checks import one_error_line, run_cli
from tests.cli_process import YAHTZEE, python_script

NAMES = ["advise", "analyze", "export", "help", "play", "rules", "serve", "simulate", "site",
         "solve", "stats", "strategy", "train", "warmup"]


def test_help_lists_every_command_and_imports_none():
    code = ("import sys\nfrom advisor.cli import main\ntry:\n    main(['--help'])\n"
            "except SystemExit:\n    pass\n"
            "loaded = [m for m in sys.modules if m.startswith('advisor.cli.') and "
            "m not in ('advisor.cli._base',)]\n"
            "print(loaded, 'numba' in sys.modules, 'advisor.record_file' in sys.modules, "
            "file=sys.stderr)\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert run.stderr.strip() == "[] False False"
    listed = run.stdout.split("Commands:\n")[1].splitlines()
    assert [line.split()[0] for line in listed] == NAMES
    for line, name in zip(listed, NAMES, strict=True):
        assert line.split(None, 1)[1] == COMMANDS[name].short_help


def test_each_entry_is_the_command_it_names_with_its_line_of_help():
    ctx = click.Context(cli)
    assert cli.list_commands(ctx) == NAMES == sorted(COMMANDS)
    for name in NAMES:
        command = cli.get_command(ctx, name)
        assert isinstance(command, click.Command) and command.name == name
        assert command.get_short_help_str(80) == COMMANDS[name].short_help
        shown = CliRunner().invoke(cli, [name, "--help"], prog_name="yahtzee")
        assert shown.exit_code == 0 and shown.stdout.startswith(f"Usage: yahtzee {name} ")


def test_an_unknown_command_is_refused_as_click_refuses_it():
    result = CliRunner().invoke(cli, ["advice", "22256"])
    assert result.exit_code == 2
    assert "No such command 'advice'" in result.stderr


def run_input(*args: str, input: str | None = None):  # noqa: A002
    """Any ``yahtzee`` command line, given ``input`` on stdin."""
    return CliRunner().invoke(cli, list(args), input=input)


LATE_CARD = ("aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30,"
             "ls=40,yahtzee=0")


@pytest.fixture(autouse=True)
def _tables(official_table):
    """The cached official table exists, so commands read it."""


def _closing(*fds: int):  # noqa: ANN202
    def close() -> None:
        for fd in fds:
            os.close(fd)
    return close


STREAM_COMMANDS = [["--help"], ["--version"], ["advise", "22256"], ["advise", "--help"],
            ["rules"], ["strategy", "--card", LATE_CARD], ["stats", "--card", LATE_CARD],
            ["simulate", "--games", "5"], ["play", "--help"], ["solve"],
            ["advise", "22256", "--target", "x"]]


@pytest.mark.parametrize("closed", [1, 2, 0])
def test_every_command_with_a_closed_stream(closed: int) -> None:
    for args in STREAM_COMMANDS:
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


MEASURE = textwrap.dedent("""
    import json, sys
    from click.testing import CliRunner
    from advisor.cli import cli
    from tests.cli_process import own_peak_mb as peak_mb

    def run_input(*args, input=None):
        result = CliRunner().invoke(cli, list(args), input=input)
        assert "Traceback" not in result.output, (args, result.output[-500:])
        assert result.exit_code in (0, 1, 2), (args, result.exit_code, result.output[-500:])
        assert not isinstance(result.exception, (MemoryError, AssertionError)), args

    run_input("advise", "22256", "--json")           # tables, kernels, the advisor: the baseline
    run_input("advise", "22256", "--card", sys.argv[1], "--target", "300", "--json")
    run_input("stats", "--card", sys.argv[1], "--target", "250")
    run_input("analyze", "-", input="Ann: 22256 twos\\n")
    run_input("simulate", "--games", "10", "--strategy", "target:2000")
    base = peak_mb()
    huge = "99999999999999999999999"
    for option in ("--target", "--beat"):
        for value in (huge, "1000000000", "1576", "9" * 5000, "３００"):
            run_input("advise", "22256", option, value, "--json")
    run_input("advise", "22256", "--opponent", "twos=" + "9" * 5000)
    run_input("stats", "--card", sys.argv[1], "--target", huge)
    run_input("stats", "--card", sys.argv[1], "--target", "9" * 5000)
    run_input("simulate", "--games", "10", "--strategy", "target:" + huge)
    run_input("simulate", "--games", "10", "--strategy", "target:" + "9" * 5000)
    run_input("simulate", "--games", "99999999999999999999999")
    run_input("simulate", "--seed", "9" * 5000)
    run_input("advise", "22256", "--rolls-left", "9" * 5000)
    run_input("advise", "22256", "--top", "9" * 5000)
    run_input("play", "--players", "9" * 5000)
    run_input("play", "--names", "A" * 100000)
    run_input("play", input="22256\\n" + "9" * 900 + "\\n" + "7" * 200000 + "\\nq\\n")
    run_input("analyze", "-", input='{"turns": [' + "9" * 5000 + "]}")
    run_input("analyze", "-", input='{"players": ["\\\\ud800"]}')
    run_input("analyze", "-", input="players Ann\\n" + "Ann: 22256 twos\\n" * 50000)
    run_input("analyze", "-", input="[" * 500000)
    print(json.dumps({"base": base, "peak": peak_mb()}))
""")


def test_no_bad_number_name_or_stream_allocates_100_mb() -> None:
    result = subprocess.run(python_script(MEASURE, LATE_CARD), capture_output=True,
                            timeout=900)
    assert result.returncode == 0, result.stderr.decode()[-3000:]
    figures = json.loads(result.stdout.decode().strip().splitlines()[-1])
    assert figures["peak"] - figures["base"] < 100, figures


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
        result = run_input(*args, input="")
        lines = [line for line in result.stderr.splitlines() if line.startswith("Error")]
        assert result.exit_code == 2 and len(lines) == 1, (args, result.output)
        longest = max(len(word.strip(":;,()")) for word in lines[0].replace("'", " ").split())
        assert longest <= 80, lines[0]
        assert "..." in lines[0]


def test_output_to_a_full_device_is_one_error_line() -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run([*YAHTZEE, "rules", "official"], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "Error: cannot write the output: No space left on device"]


def test_advise_to_a_full_device(tables_dir: str) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run([*YAHTZEE, "advise", "--dice", "22256"], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=300)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: cannot write the output")


def test_closed_pipe_is_silent() -> None:
    proc = subprocess.Popen([*YAHTZEE, "rules", "official"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    proc.stdout.close()  # the reader goes away before anything is written
    _, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 1  # as click answers a closed pipe: no message
    assert stderr == ""


@pytest.mark.parametrize("value", ["0", "-1", "abc", "1.5", "99999999", " "])
def test_invalid_numba_num_threads(value: str) -> None:
    line = one_error_line(run_cli("advise", "--dice", "22256", env={"NUMBA_NUM_THREADS": value}))
    assert "NUMBA_NUM_THREADS" in line


def test_valid_numba_num_threads_is_accepted() -> None:
    assert run_cli("advise", "--dice", "22256", env={"NUMBA_NUM_THREADS": "1"}).exit_code == 0


@pytest.mark.parametrize("args", [
    ("advise", "--dice", "2" * 100_000),
    ("advise", "--dice", "7" * 100_000),
    ("advise", "--dice", "2," * 50_000),
    ("advise", "--dice", "22256", "--card", "x" * 100_000 + "=1"),
    ("advise", "--dice", "22256", "--card", "twos=6," * 20_000),
    ("advise", "--dice", "22256", "--rules", "r" * 100_000),
    ("simulate", "--strategy", "s" * 100_000),
    ("simulate", "--strategy", "m" * 100_000 + ":f"),
    ("simulate", "--games", "g" * 100_000),
    ("export", "--format", "x" * 100_000, "--out", "x"),
])
def test_long_input_is_echoed_at_most_80_characters(args) -> None:
    line = one_error_line(run_cli(*args))
    longest = max(len(run_) for run_ in line.replace("'", " ").split())
    assert longest <= 80, line[:300]
    assert len(line) < 400
