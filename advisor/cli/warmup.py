"""``yahtzee warmup``: build the table and compile the kernels ahead, so no command waits."""

from __future__ import annotations

import click

from ..request.params import options
from ._base import cli, load_table


@cli.command(short_help="Compile the kernels ahead (once after installing).")
@options("rules")
def warmup(rules_name: str) -> None:
    """Build the table of the rule set if missing and compile the numba kernels that the
    commands use (advise, play, analyze, strategy, stats, the target and win objectives,
    simulate), so no later command waits on compilation. numba keeps the compiled code
    on disk: run it once after installing (or upgrading); it takes about half a minute.

    Example: yahtzee warmup
    """
    from solver.warmup import warm_up

    load_table(rules_name)  # a missing table is built with a progress bar
    click.echo(f"compiling the kernels for {rules_name} (first run only)...", err=True)
    seconds = warm_up(rules_name)
    click.echo(f"warm-up {rules_name}: kernels compiled and cached ({seconds:.1f} s)")
