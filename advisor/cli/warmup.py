"""``yahtzee warmup``: build the table and compile the kernels ahead, so no command waits."""

from __future__ import annotations

import click

from solver.warmup import Piece, done, warm_up

from ..request.params import options
from ._progress import load_table


@click.command()
@options("rules", "all")
def warmup(rules_name: str, everything: bool) -> None:
    """Build the table of the rule set if missing, compile the everyday numba kernels
    (advise, play, analyze, strategy, stats, the why) and the simulator's, and compute
    the figures `advise --why` and `stats` read (cached beside the table), so no later
    command waits; with --all also the kernels of the target and win objectives
    (--target, --beat, --opponent, --objective win). numba keeps the compiled code on
    disk: run it once after installing (or upgrading); `make run` runs it. A kernel not
    compiled ahead compiles the first time a command needs it, which says so on stderr.

    Example: yahtzee warmup --all
    """
    load_table(rules_name)  # a missing table is built with a progress bar

    def note(piece: Piece) -> None:
        click.echo(f"{piece.doing} for {rules_name} (first run only, about "
                   f"{piece.seconds} s)...", err=True)

    seconds = warm_up(rules_name, everything=everything, note=note)
    click.echo(f"warm-up {rules_name}: {done(everything)} ({seconds:.1f} s)")
