"""``yahtzee site``: the page as a folder of static files (docs/web.md)."""

from __future__ import annotations

import shlex
import socket
import time

import click

from solver.game.rules import RULE_NAMES

from ..request.params import PARAMS, options
from ..site import build_site
from ._base import emit_json
from ._progress import load_table


def _size(n: int) -> str:
    return f"{n / 1e6:.2f} MB" if n >= 1e5 else f"{n / 1e3:.1f} kB"


LOOPBACK = "127.0.0.1"
FIRST_TRY_PORT = 8080
"""Where :func:`free_port` starts looking (``yahtzee serve`` listens on 8000)."""


def free_port(first: int = FIRST_TRY_PORT, tries: int = 100) -> int:
    """A port loopback can listen on now: the first of ``first..first+tries-1`` (never
    ``yahtzee serve``'s default), else one the system picks."""
    taken_by_serve = PARAMS["port"].default
    for port in [p for p in range(first, first + tries) if p != taken_by_serve] + [0]:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            try:
                sock.bind((LOOPBACK, port))
            except OSError:
                continue
            return int(sock.getsockname()[1])
    raise OSError("no free port on loopback")


def try_it(folder: str, port: int) -> str:
    """The command that serves ``folder`` on loopback only, and the address to open."""
    return (f"python3 -m http.server --bind {LOOPBACK} -d {shlex.quote(folder)} {port}, "
            f"then open http://{LOOPBACK}:{port}/")


@click.command()
@options("site_out", "site_rules", "force", "json",
         force={"help": "Write the site in a folder that is not a site (its own files kept)."})
def site(out: str, rules_names: tuple[str, ...], force: bool, as_json: bool) -> None:
    """Write the page, its scripts and the expected-score tables of the rule sets as
    files any static host serves (or `python3 -m http.server`); after the first visit
    the page works offline. Advice, the guided game, practice and reviews are by
    expected score; play to win, targets and "why" need `yahtzee serve`.

    Example: yahtzee site --out site; yahtzee site --out site --rules official --rules yatzy
    """
    names = [n.lower() for n in rules_names] or ["official"]
    if "all" in names:
        names = list(RULE_NAMES)
    start = time.perf_counter()
    summary = build_site(out, names, table_of=load_table, force=force)
    seconds = time.perf_counter() - start
    if as_json:
        emit_json({**summary.to_json(), "seconds": round(seconds, 3)})
        return
    click.echo(f"site:       {summary.out} ({len(summary.files)} files, {seconds:.1f} s)")
    click.echo(f"rules:      {', '.join(summary.rules)}")
    click.echo(f"size:       {_size(summary.size)} ({_size(summary.gzipped)} gzipped)")
    for name in summary.rules:
        size, zipped = summary.first_load(name)
        click.echo(f"first load: {name}: {_size(size)} ({_size(zipped)} gzipped)")
    click.echo(f"try it:     {try_it(str(summary.out), free_port())}")
