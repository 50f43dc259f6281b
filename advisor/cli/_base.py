"""The ``yahtzee`` command group, its shared options and its error handling.

Every command module imports ``cli`` from here and registers itself on it. Heavy
imports (numba, the kernels) happen inside the commands, so ``--help`` stays instant.
Any input error ends as one line ``Error: ...`` on stderr and exit code 2.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from solver.errors import YahtzeeError

from ..request.params import click_message

if TYPE_CHECKING:
    from solver._jit_cache import Kind

MAX_THREADS = 1024
"""Largest ``NUMBA_NUM_THREADS`` accepted."""
PIPE_CLOSED_EXIT = 1
"""Exit code when the reader of our output went away (silently, as click does)."""


class YahtzeeGroup(click.Group):
    """A click group whose errors are one line on stderr and exit code 2, never a traceback.

    Handled: input errors (:class:`~solver.errors.YahtzeeError`, click's usage errors),
    output that cannot be written (a full disk: ``Error:``; a closed pipe: silent, exit
    1 as in click), running out of memory, an invalid ``NUMBA_NUM_THREADS``, and SIGTERM (which
    unwinds like Ctrl-C, so no temporary file is left behind).
    """

    def main(self, args: Any = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, **extra: Any) -> Any:
        from solver import _jit_cache

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
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return None

    from solver.errors import Terminated

    def terminate(signum: int, frame: Any) -> None:
        raise Terminated(128 + signum)

    return signal.signal(signal.SIGTERM, terminate)


def _restore_terminate(previous: Any) -> None:
    import signal

    if previous is not None:
        signal.signal(signal.SIGTERM, previous)


def _compiling_note(kind: Kind) -> None:
    """Say why the command is quiet for a while (to a person: stderr is a terminal):
    ``kind`` (a ``solver._jit_cache.Kind``) is compiled for the first time."""
    if not sys.stderr.isatty():
        return
    from tqdm import tqdm

    # above a progress bar that may be running, not into it
    tqdm.write(f"note: compiling {kind.what}, first run only, about {kind.seconds} s "
               f"(`yahtzee warmup --all` compiles every kernel ahead)...", file=sys.stderr)


@click.group(cls=YahtzeeGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="yahtzee-solver", prog_name="yahtzee")
def cli() -> None:
    """Exact optimal-strategy solver and advisor for Yahtzee: the 1996 Hasbro sheet with
    the forced Joker, and named variants (`yahtzee rules`). Notation, box names, game
    records and JSON keys: `yahtzee help`.

    Example: yahtzee advise 22256
    """


def emit_json(obj: dict[str, Any]) -> None:
    click.echo(json.dumps(obj, indent=2))


def progress_bar(desc: str, unit: str = "level"
                 ) -> tuple[Callable[[int, int], None], Callable[[], None]]:
    """A tqdm bar on stderr, shown from the first call of the progress callback
    ``(done, total)`` on; returns (callback, close)."""
    from tqdm import tqdm

    bars: list[Any] = []

    def update(done: int, total: int) -> None:
        if not bars:
            bars.append(tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, leave=False,
                             unit_scale=unit == "game"))
        bars[0].total = total
        bars[0].n = done
        bars[0].refresh()

    def close() -> None:
        for bar in bars:
            bar.close()

    return update, close


def progress_bar_noted(desc: str, unit: str = "level"
                       ) -> tuple[Callable[[int, int], None], Callable[[str], None],
                                  Callable[[], None]]:
    """:func:`progress_bar` with a note after the bar (``note(text)``: what is under way
    within the current step, "" for none); returns (callback, note, close)."""
    from tqdm import tqdm

    bars: list[Any] = []

    def update(done: int, total: int) -> None:
        if not bars:
            bars.append(tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, leave=False))
        bars[0].total = total
        bars[0].n = done
        bars[0].refresh()

    def noted(text: str) -> None:
        if bars:
            bars[0].set_postfix_str(text)

    def close() -> None:
        for bar in bars:
            bar.close()

    return update, noted, close


def note(text: str) -> None:
    """A note for the user on stderr (never on stdout, which may be piped)."""
    click.echo(text, err=True)


def note_targets(card: Any, table: Any, objective: Any, solved: Any = ()) -> None:
    """Before a target question: say on stderr when the target table is unusable (it is
    then not used) or when the question is solved because no target table holds it
    (``solved``: every target it solves, when more than the objective's)."""
    if objective.kind != "target":
        return
    from advisor.solved_turn import stored_vectors, targets_note

    stored_vectors(table, objective, card, note=note)
    text = targets_note(card, table, objective, solved)
    if text is not None:
        note(text)


def load_table(rules_name: str, table_path: str | None = None):  # noqa: ANN201
    """The table of a rule set for a command, from the one factory
    (:func:`solver.table.get_table`): an explicit ``--table`` must exist and be valid;
    the cached default is built when missing, with a note and a progress bar on stderr."""
    from solver.table import get_table

    update, close = progress_bar(f"solving {rules_name}")
    try:
        return get_table(rules_name, table_path, progress=update, note=note)
    finally:
        close()


def load_new_game_stats(table: Any) -> Any:
    """The exact statistics of a new game for ``table`` (the cached ones, computed when
    missing, with a note and a progress bar on stderr)."""
    from solver.stats_file import new_game_stats

    update, close = progress_bar(f"stats {table.rules.name}")
    try:
        return new_game_stats(table, progress=update, note=note)
    finally:
        close()


def load_moments(table: Any) -> Any:
    """The per-state figures of ``advise --why`` for ``table`` (the cached ones, computed
    when missing, with a note and a progress bar on stderr)."""
    from solver.moments import get_moments

    update, close = progress_bar(f"why figures {table.rules.name}")
    try:
        return get_moments(table, progress=update, note=note)
    finally:
        close()
