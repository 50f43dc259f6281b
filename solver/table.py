"""Solved tables: where they live, how to open (or build) one, and what they answer."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .errors import TableError, WriteError, shown_path
from .formats.files import remove_stale_temporaries
from .formats.tablefile import check_table_target, read_table, write_table
from .game.rules import UPPER_TARGET, RuleSet, get_rules
from .levels import Progress

TABLES_ENV = "YAHTZEE_TABLES"
SUFFIX = ".ytable"


CACHE_NAME = "yahtzee-solver"
_CHECKOUT = Path(__file__).resolve().parent.parent


def is_source_checkout() -> bool:
    """True when running from a source checkout (editable install), not an installed wheel."""
    return (_CHECKOUT / "pyproject.toml").is_file() and (_CHECKOUT / "tables").is_dir()


def user_cache_dir() -> Path:
    """The platform's per-user cache folder for this program.

    Linux and other Unix: ``$XDG_CACHE_HOME/yahtzee-solver`` (default
    ``~/.cache/yahtzee-solver``); macOS: ``~/Library/Caches/yahtzee-solver``; Windows:
    ``%LOCALAPPDATA%\\yahtzee-solver\\Cache``.
    """
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / CACHE_NAME / "Cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / CACHE_NAME
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".cache"
    return base / CACHE_NAME


def tables_dir() -> Path:
    """Where tables are cached: ``$YAHTZEE_TABLES`` if set; else ``tables/`` in a source
    checkout; else the user's cache folder (:func:`user_cache_dir`)."""
    env = os.environ.get(TABLES_ENV)
    if env:
        return Path(env)
    if is_source_checkout():
        return _CHECKOUT / "tables"
    return user_cache_dir()


def default_table_path(rules: RuleSet | str) -> Path:
    """The cached table file of a rule set, e.g. ``tables/official.ytable``."""
    return tables_dir() / f"{get_rules(rules).name}{SUFFIX}"


@dataclass(frozen=True, eq=False)
class Table:
    """The solved values of one rule set.

    ``values[mask, upper, flag]`` (float64, read-only) is ``E(state)``: the expected
    points still to come from the start of a turn, under optimal play (docs/export.md);
    NaN for states that cannot occur.
    """

    rules: RuleSet
    values: np.ndarray
    path: Path | None = None

    @property
    def expected_score(self) -> float:
        """Expected final score of a new game under optimal play."""
        return float(self.values[0, 0, 0])

    @property
    def states(self) -> int:
        """Number of states that can occur (the non-NaN entries)."""
        return int(np.count_nonzero(~np.isnan(self.values)))

    def value(self, mask: int, upper: int, flag: int = 0) -> float:
        """E of one turn-start state (upper subtotal capped at 63 here)."""
        return float(self.values[mask, min(upper, UPPER_TARGET), flag])


def build_table(rules: RuleSet | str = "official", *, path: Path | str | None = None,
                progress: Progress | None = None, force: bool = False) -> tuple[Table, float]:
    """Solve ``rules``, write the table file atomically; (table, build seconds).

    The path is checked before the build (:func:`solver.files.check_target`): an existing
    file is replaced only when it is a table of the same rules, or the default cache
    file, or with ``force``. Raises :class:`~solver.errors.WriteError`.
    """
    rules = get_rules(rules)
    default = path is None
    path = Path(path) if path is not None else default_table_path(rules)
    force = force or default  # the cache file is the program's own
    check_table_target(path, rules, force=force)
    table, seconds = build_in_memory(rules, progress)
    write_table(path, rules, table.values, force=force)
    return Table(rules, table.values, path), seconds


def build_in_memory(rules: RuleSet | str = "official",
                    progress: Progress | None = None) -> tuple[Table, float]:
    """Solve ``rules`` without writing anything; (table, build seconds)."""
    from .builder import build_values  # numba: only when building

    rules = get_rules(rules)
    result = build_values(rules, progress)
    result.values.flags.writeable = False
    return Table(rules, result.values, None), result.seconds


def open_table(rules: RuleSet | str = "official", *, path: Path | str | None = None,
               build: bool = False, progress: Progress | None = None) -> Table:
    """Load the table of ``rules`` (checked, not cached); with ``build=True`` a missing one
    is built and written. Most callers want :func:`get_table`, which caches.

    Raises :class:`~solver.errors.MissingTableError` when it is missing and not built,
    :class:`~solver.errors.CorruptTableError` when it is corrupt or of other rules.
    """
    rules = get_rules(rules)
    path = Path(path) if path is not None else default_table_path(rules)
    if build and not os.path.lexists(path):
        return build_table(rules, path=path, progress=progress)[0]
    return Table(rules, read_table(path, rules), path)


Note = Callable[[str], None]
"""note(text): tells the user something worth knowing (the CLI prints it on stderr)."""

_CACHE: dict[tuple[str, str], tuple[Table, tuple[int, ...] | None]] = {}
_CACHE_LOCK = threading.Lock()


def _signature(path: Path) -> tuple[int, ...] | None:
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


def get_table(rules: RuleSet | str = "official", path: Path | str | None = None, *,
              progress: Progress | None = None, note: Note | None = None) -> Table:
    """The one table factory: the table of ``rules``, loaded once per process.

    - ``path`` given: that file must exist and be a valid table of ``rules``.
    - ``path`` None: the cached table (:func:`default_table_path`), built when missing
      or unusable (damaged, of another version; ``progress`` follows the build, ``note``
      says why). When the cache cannot be written (a read-only folder, a full disk), the
      table built in memory is used and ``note`` says why.

    A file changed on disk since it was loaded is loaded again. Thread-safe.
    Raises the :class:`~solver.errors.TableError` of :func:`read_table`.
    """
    rules = get_rules(rules)
    default = path is None
    if path is not None and not os.fspath(path):
        raise TableError("the table path is empty; give the path of a table file")
    file = default_table_path(rules) if default else Path(path)  # type: ignore[arg-type]
    key = (rules.name, os.path.abspath(file))
    with _CACHE_LOCK:
        if default:
            remove_stale_temporaries(file)
        signature = _signature(file)
        cached = _CACHE.get(key)
        if cached is not None and (cached[1] is None and signature is None
                                   or cached[1] == signature):
            return cached[0]
        if not default or os.path.lexists(file):
            try:
                table = Table(rules, read_table(file, rules), file)
            except TableError as exc:
                if not default:
                    raise
                if note is not None:  # the cache is the program's own: built again
                    why = str(exc).split("; rebuild it", 1)[0]  # the hint is what follows
                    note(f"note: {why}; building it again (the cached table)")
                table = _build_cache(rules, file, progress, note, announce=False)
        else:
            table = _build_cache(rules, file, progress, note)
        _CACHE[key] = (table, _signature(file) if table.path is not None else None)
        return table


def _build_cache(rules: RuleSet, file: Path, progress: Progress | None,
                 note: Note | None, *, announce: bool = True) -> Table:
    if note is not None and announce:
        note(f"note: no table for rules {rules.name!r} yet; building {shown_path(file)} "
             f"(seconds)")
    table, _ = build_in_memory(rules, progress)
    try:
        write_table(file, rules, table.values, force=True)
    except WriteError as exc:
        if note is not None:
            note(f"note: {exc}; using the table built in memory (it is built again by "
                 f"the next command)")
        return table
    return Table(rules, table.values, file)


def clear_table_cache() -> None:
    """Forget every table loaded by :func:`get_table` (tests, long-running servers)."""
    with _CACHE_LOCK:
        _CACHE.clear()


def turn_values(table: Table, mask: int, upper: int, flag: int) -> np.ndarray:
    """The whole turn of one state, from the same kernels as the solver.

    Returns ``(rolls_per_turn, 462)`` float64: row 0 holds, at the roll rows
    (``dice.ROLL_KEEP``), the value of each final roll (best box); row ``j >= 1`` holds the
    value of keeping each keep (0 to 5 dice) with ``j`` rolls left. Values are points
    still to come from the start of this turn (add the card's total for a final score).
    """
    from .kernels import expected as kn

    rules = table.rules
    out = np.empty((rules.rolls_per_turn, kn.N_KEEPS, 1))
    kn.turn_snapshots(mask, min(upper, UPPER_TARGET), flag, table.values, rules.arrays, out)
    return out[:, :, 0]


@dataclass(frozen=True, eq=False)
class SolveSummary:
    """What ``yahtzee solve`` reports: the table just built and how long it took."""

    table: Table
    build_seconds: float
    """The backward induction alone."""
    seconds: float
    """The whole solve: build and file write."""

    def to_json(self) -> dict[str, object]:
        """JSON-ready (docs/json.md keys ``rules``, ``expected_score``, ``states``,
        ``seconds``, ``build_seconds``, ``path``)."""
        table = self.table
        return {"rules": table.rules.name, "expected_score": table.expected_score,
                "states": table.states, "seconds": round(self.seconds, 4),
                "build_seconds": round(self.build_seconds, 4), "path": str(table.path)}
