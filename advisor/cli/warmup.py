"""``yahtzee warmup``: build the table and compile the kernels ahead, so no command waits."""

from __future__ import annotations

import click

from ..request.params import options
from ._base import cli, load_table


@cli.command(short_help="Compile the kernels ahead (once after installing).")
@options("rules", "all")
def warmup(rules_name: str, everything: bool) -> None:
    """Build the table of the rule set if missing and compile the everyday numba kernels
    (advise, play, analyze, strategy, stats, the why), so no later command waits on
    compilation; with --all also those of simulate and of the target and win objectives
    (--target, --beat, --opponent, --objective win). numba keeps the compiled code on
    disk: run it once after installing (or upgrading). A kernel not compiled ahead
    compiles the first time a command needs it, which says so on stderr.

    Example: yahtzee warmup --all
    """
    from solver._jit_cache import Kind
    from solver.warmup import warm_up

    load_table(rules_name)  # a missing table is built with a progress bar

    def note(kind: Kind) -> None:
        click.echo(f"compiling {kind.what} for {rules_name} (first run only, about "
                   f"{kind.seconds} s)...", err=True)

    seconds = warm_up(rules_name, everything=everything, note=note)
    which = "every kernel" if everything else "the everyday kernels"
    click.echo(f"warm-up {rules_name}: {which} compiled and cached ({seconds:.1f} s)")
