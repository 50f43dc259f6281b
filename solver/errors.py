"""Exceptions raised by the library.

Every error a user can cause is a ``ValueError`` subclass whose message says what was
wrong and what is accepted; the CLI turns them into one line and exit code 2.
"""

from __future__ import annotations

import os

ECHO_LIMIT = 80
"""Longest piece of the user's input repeated in an error message."""


def shown(text: object, limit: int = ECHO_LIMIT) -> str:
    """``repr(str(text))`` cut to at most ``limit`` characters (ending ``...'``), for
    quoting the user's input in a message."""
    quoted = repr(str(text))
    return quoted if len(quoted) <= limit else quoted[:max(limit - 4, 1)] + "...'"


def shown_path(path: object, limit: int = ECHO_LIMIT) -> str:
    """A file path for a message: as it is when short and printable, else escaped like a
    Python string (a newline, a byte that is not UTF-8), and cut in the middle to at most
    ``limit`` characters, so the start and the file name stay readable."""
    text = os.fsdecode(path) if isinstance(path, (bytes, os.PathLike)) else str(path)
    if not text.isprintable():
        text = repr(text)
    if len(text) <= limit:
        return text
    head = limit // 3
    return f"{text[:head]}...{text[len(text) - (limit - head - 3):]}"


class YahtzeeError(ValueError):
    """Base class of every input error the library raises."""


class UnknownRulesError(YahtzeeError):
    """A rule-set name that is not one of the named rule sets."""


class InvalidDiceError(YahtzeeError):
    """Dice that are not five faces 1..6."""


class InvalidCardError(YahtzeeError):
    """A scorecard that cannot occur under the rules."""


class IllegalMoveError(YahtzeeError):
    """A keep or a box that the rules do not allow now."""


class IllegalStrategyMoveError(IllegalMoveError):
    """A user strategy (``simulate``) answered with a move the rules do not allow."""


class UnknownStrategyError(YahtzeeError):
    """A strategy name that is not built in."""


class InvalidOptionError(YahtzeeError):
    """An advice option built with fields that do not fit together."""


class TableError(YahtzeeError):
    """A table file that is missing, of another rule set, truncated or corrupt."""


class MissingTableError(TableError):
    """No table file exists yet for a rule set."""


class CorruptTableError(TableError):
    """A table file that fails its header or checksum checks."""


class InvalidMoveError(YahtzeeError):
    """Text that is not a move: neither dice to keep nor a box to fill."""


class InvalidRecordError(YahtzeeError):
    """A game record that cannot be read or breaks the rules; names the line and token."""
class ObjectiveError(YahtzeeError):
    """An objective that cannot be used: two at once, a bad target, a bad opponent card."""


class FieldError(ObjectiveError):
    """A tournament that cannot be played for: a number of players out of range, a field
    strategy whose final scores are not computed exactly, a bad file of observed scores."""


class WriteError(YahtzeeError):
    """A file that cannot or must not be written at a path (see :mod:`solver.files`)."""


class ReadError(YahtzeeError):
    """A file that must not be read: a folder, device or FIFO, or one larger than allowed."""


class StrategyError(YahtzeeError):
    """A strategy of the user's that cannot be loaded, or that failed while playing."""


class LimitError(YahtzeeError):
    """A request beyond a documented limit (a number of games, a size of input)."""


class Terminated(SystemExit):
    """SIGTERM, raised where the program was (the CLI's handler), so that cleanups run;
    unlike a ``SystemExit`` of the user's code (a strategy calling ``sys.exit``), it is
    never reported as an error of that code."""
