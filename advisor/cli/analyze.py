"""``yahtzee analyze FILE``: every decision of a recorded game against the best one."""

from __future__ import annotations

import click

from ..request.params import OBJECTIVE_PARAMS, options
from ._base import cli, emit_json, load_table


@cli.command(short_help="Judge every decision of a recorded game.")
@click.argument("record_path", metavar="FILE")
@options(*OBJECTIVE_PARAMS, "json", "table")
def analyze(record_path: str, target: str | None, beat: str | None, opponent: str | None,
            as_json: bool, table_path: str | None) -> None:
    """Judge every keep and box of a recorded game (FILE, or - for stdin).

    The record is what `yahtzee play --record FILE` writes (format: docs/records.md).
    Each decision is compared with the best one at that moment; per player: errors,
    loss in expected points (mean per decision: aim below 0.2), and luck. With --target,
    --beat or --opponent the best is what maximises that probability, and losses and
    luck are in probability.

    Example: yahtzee analyze game.txt
    """
    from advisor.analyze import analyze as analyze_record
    from advisor.objective import Objective
    from advisor.record import parse_record
    from advisor.record_file import read_record, read_stdin
    from advisor.text import decision_lines, review_lines

    record = parse_record(read_stdin()) if record_path == "-" else read_record(record_path)
    objective = Objective.parse_options(target=target, beat=beat, opponent=opponent,
                                        rules=record.rules)
    analysis = analyze_record(record, objective, table=load_table(record.rules, table_path))
    if as_json:
        emit_json(analysis.to_json())
        return
    new_game = f"{analysis.new_game:.2f}" if analysis.is_ev else f"{analysis.new_game:.4f}"
    click.echo(f"rules {analysis.rules} | objective: {objective.describe()} | "
               f"new game {new_game}")
    for line in ["", *decision_lines(analysis), "", *review_lines(analysis)]:
        click.echo(line)
