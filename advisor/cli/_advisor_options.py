"""Options shared by the advisor's commands (``advise``, ``play``, ``strategy``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from ._base import table_option

__all__ = ["card_option", "rolls_left_option", "table_option"]


def card_option(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--card C``: the scorecard so far (default: a new game)."""
    return click.option(
        "--card", "card_text", default="", metavar="C",
        help="Boxes filled so far, e.g. twos=6,fours=12,yahtzee=50,yahtzee_bonus=1 "
             "(default: a new game).")(func)


def rolls_left_option(help_text: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--rolls-left N``: checked against the rule set by the command."""
    return click.option("--rolls-left", "rolls_left", type=int, default=None, metavar="N",
                        help=help_text)
