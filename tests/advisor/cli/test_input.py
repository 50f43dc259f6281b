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
