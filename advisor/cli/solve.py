"""``yahtzee solve`` and ``yahtzee export``."""

from __future__ import annotations

import time

import click

from ..request.params import options
from ._base import cli, emit_json, load_table, progress_bar


@cli.command(short_help="Build (or load) the table of a rule set.")
@options("rules", "table_out", "force", "json")
def solve(rules_name: str, out: str | None, force: bool, as_json: bool) -> None:
    """Build the table of a rule set and print the new-game expected score.

    Example: yahtzee solve --rules yatzy
    """
    from solver.formats.tablefile import check_table_target
    from solver.game.rules import get_rules
    from solver.table import SolveSummary, build_table, default_table_path

    rules = get_rules(rules_name)
    if out is not None:
        check_table_target(out, rules, force=force)
    else:
        check_table_target(default_table_path(rules), rules, force=True)
    update, close = progress_bar(f"solving {rules_name}")
    start = time.perf_counter()
    try:
        table, build_seconds = build_table(rules, path=out, progress=update, force=force)
    finally:
        close()
    summary = SolveSummary(table, build_seconds, time.perf_counter() - start)
    if as_json:
        emit_json(summary.to_json())
        return
    click.echo(f"rules:          {table.rules.name}")
    click.echo(f"expected score: {table.expected_score:.6f}")
    click.echo(f"states:         {table.states:,}")
    click.echo(f"wall time:      {summary.seconds:.2f} s (solve {build_seconds:.2f} s)")
    click.echo(f"table:          {table.path}")


@cli.command(short_help="Write the whole table as npy or csv.")
@options("rules", "export_format", "export_out", "force", "table")
def export(rules_name: str, fmt: str, out: str, force: bool, table_path: str | None) -> None:
    """Write the whole table of a rule set (layout: `yahtzee help export`).

    Example: yahtzee export --format npy --out official.npy
    """
    from solver.formats.export import check_export_target, export_table

    check_export_target(out, fmt, force=force)
    table = load_table(rules_name, table_path)
    export_table(table, out, fmt, force=force)
    click.echo(f"wrote {out} ({fmt}, rules {table.rules.name})", err=True)
