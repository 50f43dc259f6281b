"""The lines a player types into ``yahtzee play`` and
``yahtzee train``, read with a bound on their length.

At a terminal, click's prompt reads the line (the terminal bounds it and offers line
editing). From a file or a pipe, each line read is echoed after its prompt (the output
reads as a transcript; a line over 80 characters cut), and at most :data:`MAX_LINE`
bytes of a line are kept: a longer line is refused (the rest of it skipped), and input
with no line break in its first :data:`MAX_SKIPPED` bytes (``play </dev/zero``) is not
lines of text at all and ends the game as the end of input does. Bytes that are not UTF-8
become U+FFFD, so the line is refused as a move rather than failing to decode.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from solver.errors import ECHO_LIMIT, LimitError

MAX_LINE = 1000
"""Longest line of input kept, in bytes (a move is a few words)."""
MAX_SKIPPED = 64 * 1024
"""Bytes of one line skipped before the input is taken for something other than text."""


def ask(prompt: str) -> str:
    """The next line typed after ``prompt> `` (without its line end). Raises click's
    Abort at the end of input (or for input that is not text) and LimitError for a line
    over :data:`MAX_LINE` bytes (the caller asks again)."""
    stream = sys.stdin
    if stream is None:
        raise click.exceptions.Abort
    if _is_terminal(stream):
        return str(click.prompt(prompt, default="", show_default=False, prompt_suffix="> "))
    click.echo(f"{prompt}> ", nl=False)
    try:
        line = read_line(stream)
    except LimitError:
        click.echo("")
        raise
    except (KeyboardInterrupt, EOFError):  # Ctrl-C: stop as at the end of input
        raise click.exceptions.Abort from None
    if line is None:
        raise click.exceptions.Abort
    # a transcript: what was read follows its prompt, as typed at a terminal (a long line
    # cut to ECHO_LIMIT characters, as error messages quote input)
    click.echo(line if len(line) <= ECHO_LIMIT else f"{line[:ECHO_LIMIT - 3]}...")
    return line


def read_line(stream: Any) -> str | None:
    """One line of ``stream`` (None at its end), at most :data:`MAX_LINE` bytes."""
    source = getattr(stream, "buffer", stream)
    data = source.readline(MAX_LINE + 2)  # (the line and its end, "\r\n" too)
    if not data:
        return None
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogateescape")
    if len(data.rstrip(b"\r\n")) > MAX_LINE:
        if not data.endswith(b"\n"):
            _skip_rest(source, len(data))
        raise LimitError(f"a line of more than {MAX_LINE} characters is not a move; type the "
                         f"dice or the move (help lists them)")
    return data.decode("utf-8", "replace").rstrip("\r\n")


def _skip_rest(source: Any, skipped: int) -> None:
    """Read past the end of an overlong line; Abort when it has no end in sight."""
    while skipped <= MAX_SKIPPED:
        more = source.readline(MAX_LINE + 1)
        if not more or more.endswith(b"\n" if isinstance(more, bytes) else "\n"):
            return
        skipped += len(more)
    click.echo(f"\nthe input is not lines of text (no line break in {MAX_SKIPPED:,} bytes): "
               f"stopping as at its end", err=True)
    raise click.exceptions.Abort


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (OSError, ValueError, AttributeError):
        return False
