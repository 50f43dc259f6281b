"""``yahtzee help [TOPIC]``: the documentation pages shipped with the package."""

from __future__ import annotations

import click

from ..docs import listing, page


@click.command("help")
@click.argument("topic", required=False, metavar="[TOPIC]")
def help_command(topic: str | None) -> None:
    """Print the documentation page TOPIC (notation, boxes, records, analyze, json,
    objectives, web, files, export ...), or list the topics.

    Example: yahtzee help records
    """
    click.echo(page(topic) if topic is not None else listing())
