"""``yahtzee help [TOPIC]``: the documentation pages shipped with the package."""

from __future__ import annotations

import click

from ._base import cli


@cli.command("help", short_help="Documentation: notation, boxes, records, JSON ...")
@click.argument("topic", required=False, metavar="[TOPIC]")
def help_command(topic: str | None) -> None:
    """Print the documentation page TOPIC (notation, boxes, records, analyze, json,
    objectives, web, files, export ...), or list the topics.

    Example: yahtzee help records
    """
    from advisor.docs import listing, page

    click.echo(page(topic) if topic is not None else listing())
