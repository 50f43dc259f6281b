"""The ``yahtzee`` command group, its shared options and its error handling.

Every command module imports ``cli`` from here and registers itself on it. Heavy
imports (numba, the kernels) happen inside the commands, so ``--help`` stays instant.
Any input error ends as one line ``Error: ...`` on stderr and exit code 2.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

import click

from solver.errors import YahtzeeError
from solver.rules import DEFAULT_RULES, RULE_NAMES


class YahtzeeGroup(click.Group):
    """A click group whose errors are one line on stderr, never a traceback."""

    def main(self, args: Any = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, **extra: Any) -> Any:
        from solver import _jit_cache

        _jit_cache.on_first_compile(_compiling_note)
        try:
            rv = super().main(args, prog_name or "yahtzee", complete_var,
                              standalone_mode=False, **extra)
        except click.exceptions.Abort:
            click.echo("Aborted.", err=True)
            code = 1
        except click.ClickException as exc:
            click.echo(f"Error: {exc.format_message()}", err=True)
            code = exc.exit_code
        except YahtzeeError as exc:
            click.echo(f"Error: {exc}", err=True)
            code = 2
        else:
            code = rv if isinstance(rv, int) else 0
        if standalone_mode:
            sys.exit(code)
        return code


def _compiling_note() -> None:
    """Say why the command is quiet for a while (to a person: stderr is a terminal)."""
    if not sys.stderr.isatty():
        return
    click.echo("note: compiling numba kernels for their first use (once; cached "
               "afterwards, `make run` does it ahead)...", err=True)


@click.group(cls=YahtzeeGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="yahtzee-solver", prog_name="yahtzee")
def cli() -> None:
    """Exact optimal-strategy solver and advisor for Yahtzee: the 1996 Hasbro sheet with
    the forced Joker, and named variants (`yahtzee rules`). Notation, box names, game
    records and JSON keys: docs/ in the repository.

    Example: yahtzee advise 22256
    """


def rules_option(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--rules NAME``: one of the named rule sets (default ``official``)."""
    return click.option(
        "--rules", "rules_name", type=click.Choice(RULE_NAMES, case_sensitive=False),
        default=DEFAULT_RULES, show_default=True, help="Rule set (see `yahtzee rules`).",
    )(func)


def json_option(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--json``: print one JSON object instead of readable text."""
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")(func)


def table_option(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--table PATH``: an explicit table file (must exist and be valid)."""
    return click.option(
        "--table", "table_path", type=click.Path(dir_okay=False), default=None,
        help="Table file to read (default: the cached one, built if missing).")(func)


def emit_json(obj: dict[str, Any]) -> None:
    click.echo(json.dumps(obj, indent=2))


def progress_bar(desc: str) -> tuple[Callable[[int, int], None], Callable[[], None]]:
    """A tqdm bar on stderr as a builder progress callback; returns (callback, close)."""
    from tqdm import tqdm

    bar = tqdm(total=None, desc=desc, unit="level", file=sys.stderr, leave=False)

    def update(done: int, total: int) -> None:
        bar.total = total
        bar.n = done
        bar.refresh()

    return update, bar.close


def load_table(rules_name: str, table_path: str | None = None, *, quiet: bool = False):  # noqa: ANN201
    """The table of a rule set for a command: an explicit ``--table`` must exist and be
    valid; the cached default is built when missing, with a note on stderr."""
    from solver.table import default_table_path, open_table

    if table_path is not None:
        return open_table(rules_name, path=table_path)
    path = default_table_path(rules_name)
    if path.exists():
        return open_table(rules_name, path=path)
    if not quiet:
        click.echo(f"note: no table for rules {rules_name!r} yet; building {path} (seconds)",
                   err=True)
    update, close = progress_bar(f"solving {rules_name}")
    try:
        return open_table(rules_name, path=path, build=True, progress=update)
    finally:
        close()
