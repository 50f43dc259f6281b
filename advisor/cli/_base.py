"""The ``yahtzee`` command group, its commands, its shared helpers and its error handling.

The commands are loaded lazily, as click documents (a ``LazyGroup``): :data:`COMMANDS`
names each one's module and its line of help, ``yahtzee --help`` lists them from there,
and a command's module is imported when that command is used. So each command module
imports what it needs at its top, and ``--help`` stays instant.
Any input error ends as one line ``Error: ...`` on stderr and exit code 2.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import signal
import sys
import threading
from collections.abc import Mapping
from typing import Any, NamedTuple

import click
from click.core import Context
from click.formatting import HelpFormatter

from solver import _jit_cache
from solver.errors import Terminated, YahtzeeError

from ..request.params import click_message

MAX_THREADS = 1024
"""Largest ``NUMBA_NUM_THREADS`` accepted."""
PIPE_CLOSED_EXIT = 1
"""Exit code when the reader of our output went away (silently, as click does)."""


class LazyCommand(NamedTuple):
    """A command of the group, loaded on use: ``function`` of ``advisor.cli.<module>``,
    and the line of help ``yahtzee --help`` shows for it."""

    module: str
    function: str
    short_help: str


COMMANDS: Mapping[str, LazyCommand] = {
    "advise": LazyCommand("advise", "advise", "Rank every keep and box for one roll."),
    "analyze": LazyCommand("analyze", "analyze", "Judge every decision of a recorded game."),
    "export": LazyCommand("export", "export", "Write the whole table as npy or csv."),
    "help": LazyCommand("help", "help_command",
                        "Documentation: notation, boxes, records, JSON ..."),
    "play": LazyCommand("play", "play", "A guided game at a real table (undo, records)."),
    "rules": LazyCommand("rules", "rules_command", "A rule set in plain words, box short names."),
    "serve": LazyCommand("serve", "serve", "Serve the web page and the JSON API until Ctrl-C."),
    "simulate": LazyCommand("simulate", "simulate", "Play seeded games with a strategy."),
    "site": LazyCommand("site", "site", "Write the page as static files that work offline."),
    "solve": LazyCommand("solve", "solve", "Build (or load) the table of a rule set."),
    "stats": LazyCommand("stats", "stats", "Exact score distribution of optimal play."),
    "strategy": LazyCommand("strategy", "strategy", "Best action for all 252 rolls of a card."),
    "train": LazyCommand("train", "train", "Practice: positions to decide, graded exactly."),
    "warmup": LazyCommand("warmup", "warmup",
                          "Compile the kernels ahead (once after installing)."),
}
"""Every command of ``yahtzee`` by name (``yahtzee --help`` lists them in this order)."""


class YahtzeeGroup(click.Group):
    """A click group whose errors are one line on stderr and exit code 2, never a traceback,
    and whose commands (``lazy_commands``) are imported when used.

    Handled: input errors (:class:`~solver.errors.YahtzeeError`, click's usage errors),
    output that cannot be written (a full disk: ``Error:``; a closed pipe: silent, exit
    1 as in click), running out of memory, an invalid ``NUMBA_NUM_THREADS``, and SIGTERM (which
    unwinds like Ctrl-C, so no temporary file is left behind).
    """

    def __init__(self, *args: Any, lazy_commands: Mapping[str, LazyCommand] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy_commands = dict(lazy_commands or {})

    def list_commands(self, ctx: Context) -> list[str]:
        return [*self.lazy_commands, *super().list_commands(ctx)]

    def get_command(self, ctx: Context, cmd_name: str) -> click.Command | None:
        lazy = self.lazy_commands.get(cmd_name)
        if lazy is None:
            return super().get_command(ctx, cmd_name)
        command = getattr(importlib.import_module(f"{__package__}.{lazy.module}"),
                          lazy.function)
        command.short_help = lazy.short_help  # the line `yahtzee --help` shows, everywhere
        return command

    def format_commands(self, ctx: Context, formatter: HelpFormatter) -> None:
        """click's list of the commands, each lazy one shown by its line of help alone
        (its module is not imported)."""
        shown = click.Group(commands=[click.Command(name, short_help=lazy.short_help)
                                      for name, lazy in self.lazy_commands.items()])
        shown.commands.update(self.commands)
        click.Group.format_commands(shown, ctx, formatter)

    def main(self, args: Any = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, **extra: Any) -> Any:
        guard_standard_streams()
        _jit_cache.on_first_compile(_compiling_note)
        previous = _terminate_as_exit()
        try:
            code = self._run(args, prog_name, complete_var, **extra)
        finally:
            _restore_terminate(previous)
        if standalone_mode:
            sys.exit(code)
        return code

    def _run(self, args: Any, prog_name: str | None, complete_var: str | None,
             **extra: Any) -> int:
        try:
            check_environment()
            rv = super().main(args, prog_name or "yahtzee", complete_var,
                              standalone_mode=False, **extra)
            if sys.stdout is not None:
                sys.stdout.flush()
        except click.exceptions.Abort:
            _error_line("Aborted.")
            return 1
        except click.ClickException as exc:
            _error_line(f"Error: {click_message(exc)}")
            return exc.exit_code
        except YahtzeeError as exc:
            _error_line(f"Error: {exc}")
            return 2
        except BrokenPipeError:
            _silence_stdout()
            return PIPE_CLOSED_EXIT
        except OSError as exc:
            _silence_stdout()
            where = f" {exc.filename}" if exc.filename else " the output"
            _error_line(f"Error: cannot write{where}: {exc.strerror or exc}")
            return 2
        except MemoryError:
            _error_line("Error: out of memory; ask for less (fewer games, one rule set)")
            return 2
        except ValueError as exc:
            if not _is_threading_layer_error(exc):
                raise
            layer = os.environ.get("NUMBA_THREADING_LAYER", "")
            _error_line(f"Error: NUMBA_THREADING_LAYER={layer[:20]!r} cannot be used here "
                        f"({str(exc).splitlines()[0]}); unset it, or choose one of "
                        f"{', '.join(THREADING_LAYERS)} that is installed")
            return 2
        return rv if isinstance(rv, int) else 0


THREADING_LAYERS = ("default", "safe", "threadsafe", "forksafe", "tbb", "omp", "workqueue")
"""The values numba takes for ``NUMBA_THREADING_LAYER`` (its threading layer guide)."""


def _is_threading_layer_error(exc: ValueError) -> bool:
    """True for numba's refusal of ``NUMBA_THREADING_LAYER`` (a layer not installed)."""
    text = str(exc)
    return "threading layer" in text and ("could be loaded" in text or "unknown" in text)


def guard_standard_streams() -> None:
    """A closed standard stream (``>&-``, ``2>&-``, ``<&-``) must not break a command:
    its descriptor is pointed at /dev/null, so no file opened later takes its number
    (and gets output meant for the terminal); closed stdout and stderr then discard
    what is printed (as ``>/dev/null`` does), and a closed stdin stays ``None`` for the
    commands that read it (``play``, ``analyze -``) to refuse."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            try:
                null = os.open(os.devnull, os.O_RDWR)
            except OSError:
                continue
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115


def check_environment() -> None:
    """Refuse environment settings the kernels cannot run with, before they load."""
    layer = os.environ.get("NUMBA_THREADING_LAYER")
    if layer and layer not in THREADING_LAYERS:
        raise click.UsageError(f"NUMBA_THREADING_LAYER={layer[:20]!r} is not a numba "
                               f"threading layer; give one of {', '.join(THREADING_LAYERS)}, "
                               f"or unset it")
    threads = os.environ.get("NUMBA_NUM_THREADS")
    if threads is None or threads == "":
        return
    if not re.fullmatch(r"[0-9]{1,6}", threads.strip()) or \
            not 1 <= int(threads) <= MAX_THREADS:
        raise click.UsageError(f"NUMBA_NUM_THREADS={threads[:20]!r} is not a thread count; "
                               f"give a whole number 1 to {MAX_THREADS}, or unset it")


def _error_line(text: str) -> None:
    """One line on stderr (even if stderr itself is broken)."""
    text = " ".join(text.splitlines())
    try:
        click.echo(text, err=True)
    except OSError:
        pass


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no real file descriptor (tests)
        pass


def _terminate_as_exit() -> Any:
    """Make SIGTERM raise SystemExit(143), so cleanups run; returns the old handler."""
    if threading.current_thread() is not threading.main_thread():
        return None

    def terminate(signum: int, frame: Any) -> None:
        raise Terminated(128 + signum)

    return signal.signal(signal.SIGTERM, terminate)


def _restore_terminate(previous: Any) -> None:
    if previous is not None:
        signal.signal(signal.SIGTERM, previous)


def _compiling_note(kind: _jit_cache.Kind) -> None:
    """Say why the command is quiet for a while (to a person: stderr is a terminal):
    ``kind`` (a ``solver._jit_cache.Kind``) is compiled for the first time."""
    if not sys.stderr.isatty():
        return
    from tqdm import tqdm  # here, not at the top: `yahtzee --help` does without it

    # above a progress bar that may be running, not into it
    tqdm.write(f"note: compiling {kind.what}, first run only, about {kind.seconds} s "
               f"(`yahtzee warmup --all` compiles every kernel ahead)...", file=sys.stderr)


@click.group(cls=YahtzeeGroup, lazy_commands=COMMANDS,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="yahtzee-solver", prog_name="yahtzee")
def cli() -> None:
    """Exact optimal-strategy solver and advisor for Yahtzee: the 1996 Hasbro sheet with
    the forced Joker, and named variants (`yahtzee rules`). Notation, box names, game
    records and JSON keys: `yahtzee help`.

    Example: yahtzee advise 22256
    """


def emit_json(obj: dict[str, Any]) -> None:
    click.echo(json.dumps(obj, indent=2))


def note(text: str) -> None:
    """A note for the user on stderr (never on stdout, which may be piped)."""
    click.echo(text, err=True)
