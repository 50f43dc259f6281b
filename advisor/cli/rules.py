"""``yahtzee rules [NAME]``: a rule set in plain words, generated from the rule set."""

from __future__ import annotations

import click

from solver.game.rules import RULE_NAMES, get_rules
from solver.game.ruletext import describe, listing


@click.command("rules")
@click.argument("name", required=False, metavar="[NAME]",
                type=click.Choice(RULE_NAMES, case_sensitive=False))
def rules_command(name: str | None) -> None:
    """Print the rules of NAME (with the boxes' short names), or list the rule sets.

    Example: yahtzee rules official
    """
    click.echo(describe(get_rules(name)) if name else listing())
