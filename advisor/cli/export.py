"""``yahtzee export``: the whole expected-score table as npy or csv."""

from __future__ import annotations

import click

from solver.formats.export import check_export_target, export_table

from ..request.params import options
from ._progress import load_table


@click.command()
@options("rules", "export_format", "export_out", "force", "table")
def export(rules_name: str, fmt: str, out: str, force: bool, table_path: str | None) -> None:
    """Write the whole table of a rule set (layout: `yahtzee help export`).

    Example: yahtzee export --format npy --out official.npy
    """
    check_export_target(out, fmt, force=force)
    table = load_table(rules_name, table_path)
    export_table(table, out, fmt, force=force)
    click.echo(f"wrote {out} ({fmt}, rules {table.rules.name})", err=True)
