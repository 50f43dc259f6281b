"""Options shared by the advisor's commands (``advise``, ``play``, ``strategy``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from ._base import table_option

__all__ = ["card_option", "objective_options", "parse_objective", "rolls_left_option",
           "table_option"]


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


def objective_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--target X``, ``--beat N``, ``--opponent CARD`` (at most one): what to maximise.
    The command receives ``target``, ``beat`` and ``opponent`` (text or None); build the
    objective with :func:`parse_objective`."""
    func = click.option(
        "--opponent", "opponent", default=None, metavar="CARD",
        help="Maximise P(beating this opponent's final score): their card, same notation "
             "as --card (a full card is a finished game).")(func)
    func = click.option(
        "--beat", "beat", default=None, metavar="N",
        help="Maximise P(final score > N) (same as --target N+1).")(func)
    return click.option(
        "--target", "target", default=None, metavar="X",
        help="Maximise P(final score >= X) instead of the expected score.")(func)


def parse_objective(target: str | None, beat: str | None, opponent: str | None,
                    rules_name: str) -> Any:
    """The :class:`advisor.objective.Objective` of the options (the expected score when
    none is given); bad input raises an ObjectiveError (exit code 2)."""
    from advisor.objective import Objective

    return Objective.parse_options(target=target, beat=beat, opponent=opponent,
                                   rules=rules_name)
