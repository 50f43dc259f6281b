"""The line bound of ``play`` and ``train`` input read from a file or a pipe
(``advisor/cli/_input.py``) at its edges: a line of exactly 1000 characters is a line
(refused as a move, if it is not one, by the move's own words), with or without its line
end ("\n" or "\r\n": once, a line of 1000 characters and "\r\n" was refused as too long);
1001 characters are refused as too long, and the rest of that line skipped."""

from __future__ import annotations

import io

import pytest
from click.testing import CliRunner

from advisor.cli import cli
from advisor.cli._input import MAX_LINE, MAX_SKIPPED, read_line
from solver.errors import LimitError
from tests.cli_process import close_stdin, run_measured

TOO_LONG = "a line of more than 1000 characters is not a move"


@pytest.mark.parametrize("end", ["\n", "\r\n", ""])
def test_a_line_of_exactly_the_limit_is_read_whole(end):
    assert MAX_LINE == 1000  # the number the messages and the docs give
    stream = io.BytesIO(("y" * MAX_LINE + (end + "next\n" if end else "")).encode())
    assert read_line(stream) == "y" * MAX_LINE
    if end:
        assert read_line(stream) == "next"


@pytest.mark.parametrize("end", ["\n", "\r\n", ""])
def test_one_character_more_is_refused_and_the_rest_of_the_line_skipped(end):
    stream = io.BytesIO(("y" * (MAX_LINE + 1) + (end + "next\n" if end else "")).encode())
    with pytest.raises(LimitError, match=TOO_LONG):
        read_line(stream)
    if end:
        assert read_line(stream) == "next"  # the next line is the next move


def test_one_character_less_and_multibyte_characters_count_in_bytes():
    stream = io.BytesIO(("y" * (MAX_LINE - 1) + "\n" + "é" * 500 + "\n" + "é" * 501 + "\n"
                         + "end\n").encode())
    assert read_line(stream) == "y" * (MAX_LINE - 1)
    assert read_line(stream) == "é" * 500  # 1000 bytes
    with pytest.raises(LimitError, match=TOO_LONG):
        read_line(stream)  # 1002 bytes
    assert read_line(stream) == "end"


def test_no_line_end_in_the_first_64_kb_is_not_text():
    import click

    assert MAX_SKIPPED == 64 * 1024
    stream = io.BytesIO(b"y" * (MAX_SKIPPED + 2 * MAX_LINE) + b"\nscore twos\n")
    with pytest.raises(click.exceptions.Abort):
        read_line(stream)


@pytest.mark.parametrize(("length", "words"), [
    (MAX_LINE, "is not a move"), (MAX_LINE + 1, TOO_LONG)])
def test_train_as_the_last_line_of_its_input(official_table, length, words):
    """The last line of a file without its line end: 1000 characters are read as a move
    (and refused as one), 1001 refused as too long."""
    result = CliRunner().invoke(cli, ["train", "--positions", "1", "--seed", "3",
                                      "--no-history"], input="k" * length)
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    refusals = [line for line in result.output.splitlines() if line.lstrip().startswith("!")]
    assert len(refusals) == 1 and words in refusals[0], result.output
    if length == MAX_LINE:
        assert TOO_LONG not in result.output


def run_input(*args: str, input: str | None = None):  # noqa: A002
    """Any ``yahtzee`` command line, given ``input`` on stdin."""
    return CliRunner().invoke(cli, list(args), input=input)


def error_line(result) -> str:
    """The one ``Error:`` line of a refusal, without its prefix."""
    lines = [line for line in result.stderr.splitlines() if line.startswith("Error")]
    assert len(lines) == 1, result.output
    return lines[0].removeprefix("Error: ")


LATE_CARD = ("aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30,"
             "ls=40,yahtzee=0")


def test_train_reads_bounded_lines(official_table) -> None:
    result = run_input("train", "--positions", "1", "--seed", "3", "--no-history",
                 input=f"{'y' * 3000}\n{'y' * 5000}\nquit\n")
    assert result.exit_code == 0 and "Traceback" not in result.output
    assert len(result.output) < 5000
    assert result.output.count("! a line of more than 1000 characters is not a move") == 2
    result = run_input("train", "--positions", "1", "--seed", "3", "--no-history",
                 input="x" * 2_000_000 + "\nscore twos\n")  # 2 MB: not a line of text
    assert result.exit_code == 0 and "not lines of text" in result.stderr
    assert len(result.output) < 5000 and "stopped after 0 of 1" in result.stdout
    result = run_input("train", "--positions", "1", "--seed", "3", "--no-history", "--json",
                 input="k" * 5000 + "\n")
    assert result.exit_code == 2
    assert error_line(result).startswith("position 1: a line of more than 1000 characters")
    result = run_input("train", "--positions", "1", "--seed", "3", "--no-history",
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
