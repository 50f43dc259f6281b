"""A tournament's whole-game solve on disk: one file per (rules, field, players).

A tournament's utility never changes during a game (nobody sees anybody), so one solve of
the DP from a new game (:func:`solver.target.solve_vectors` with the tournament's utility
and ``total=0``, every level kept) answers every turn of every game against that field.
``yahtzee solve --tournament N [--field S | --field-scores FILE]`` writes it to
:func:`tournament_path`: ``tables/official.tournament-10000-optimal.ytournament``; a field
of observed scores is named by the sha256 of the scores themselves
(``...-scores-<16 hex>.ytournament``), so a changed scores file never reuses an older
solve.

The file is in the table format (:mod:`solver.formats.tablefile`, kind
``yahtzee-tournament``) with the layout of a target table (:mod:`solver.target_table`:
``slot``, an ``index`` row ``m, u, y, lo, hi, start`` per stored state, then each level's
values), and these header fields: ``players``, ``field`` (the field's name in the file
name), the checksums of the index and of each level, the checksum of the expected-score
table it was built beside and ``utility_sha256``, the checksum of the utility it was
solved for. Opening checks the header against the table and against the utility
computed again from the field and the number of players, and the index against its
checksum; a level's values are read the first time a question reads them, and used only
once their checksum, their range ([0, 1]), their rows (exactly the states and columns the
solve from a new game gives) and their slots are checked. A file that fails a check is
refused (:class:`~solver.errors.CorruptTableError`, naming the command that rebuilds
it), never used.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from .errors import CorruptTableError, TableError, shown_path
from .field import Field, check_players
from .formats.files import check_target
from .formats.tablefile import DataFile, FileKind, is_table_of, open_data
from .game.rules import RuleSet
from .moments import table_checksum
from .table import Table, tables_dir
from .target_table import (
    INDEX_COLUMNS,
    _lengths,
    _level_size,
    _Levels,
    _memory,
    _slot_fault,
    level_fault,
    level_places,
    read_index,
    read_level,
    write_levelled,
)

Progress = Callable[[int, int], None]
Note = Callable[[str], None]

SUFFIX = ".ytournament"
MAGIC = "yahtzee-tournament"
VERSION = 1
_EXTRA = (("players", int), ("field", str), ("states", int), ("level_states", list),
          ("level_sha256", list), ("index_sha256", str), ("table_sha256", str),
          ("utility_sha256", str))


def field_name(field: Field) -> str:
    """The field's part of the file name: its strategy (``optimal``), or ``scores-`` and
    the first 16 hex digits of the sha256 of its scores (each score and times seen)."""
    if field.strategy is not None:
        return field.strategy
    text = json.dumps(field.to_json(), sort_keys=True, separators=(",", ":"))
    return "scores-" + hashlib.sha256(text.encode()).hexdigest()[:16]


def tournament_path(rules: RuleSet, players: int, field: Field) -> Path:
    """Where the solve of a tournament of ``players`` against ``field`` is kept."""
    return tables_dir() / f"{rules.name}.tournament-{check_players(players)}-" \
                          f"{field_name(field)}{SUFFIX}"


def build_command(rules_name: str, players: int, field: Field) -> str:
    """The command that builds (or rebuilds) the file."""
    if field.strategy is None:
        how = " --field-scores FILE"
    else:
        how = "" if field == Field() else f" --field {field.strategy}"
    return f"yahtzee solve --tournament {players}{how} --rules {rules_name}"


def utility_checksum(utility: Any) -> str:
    """The sha256 of a utility: its values, its value above them and where it is 0."""
    h = hashlib.sha256(np.ascontiguousarray(utility.values, dtype="<f8").data)
    h.update(json.dumps([float(utility.above).hex(), int(utility.zero_below)]).encode())
    return h.hexdigest()


def _kind(players: int, field: Field) -> FileKind:
    return FileKind(MAGIC, VERSION, "tournament file", lambda rules: (0,), lambda *_: None,
                    lambda name, _path: build_command(name, players, field), _EXTRA)


def solve_tournament(table: Table, utility: Any, progress: Progress | None = None) -> Any:
    """The tournament DP from a new game (``total=0``), every level kept (Vectors)."""
    from .target import solve_vectors  # numba: not on every start

    return solve_vectors(table, utility, start=(0, 0, 0), total=0,
                         keep=tuple(range(table.rules.n_boxes + 1)), progress=progress)


def write_tournament(path: Path | str, table: Table, players: int, field: Field,
                     vectors: Any, *, force: bool = False) -> int:
    """Write ``vectors`` (of :func:`solve_tournament`) at ``path``, atomically; returns
    its size in bytes. Replaces only a tournament file of the same rules unless
    ``force``."""
    return write_levelled(path, table, vectors, _kind(players, field),
                          {"players": int(players), "field": field_name(field)},
                          {"utility_sha256": utility_checksum(vectors.utility)}, force=force)


def check_tournament_target(path: Path | str, rules: RuleSet, players: int, field: Field, *,
                            force: bool = False) -> None:
    """Raise :class:`~solver.errors.WriteError` now if :func:`write_tournament` would
    refuse."""
    check_target(path, force=force,
                 replaceable=lambda p: is_table_of(p, rules, _kind(players, field)))


class StoredTournament:
    """A tournament file opened: :meth:`vectors` are the whole-game solve's, each level
    read and checked when first used (:meth:`level_values`)."""

    def __init__(self, table: Table, path: Path, utility: Any, slot: np.ndarray,
                 index: list[np.ndarray], data: DataFile, first: list[int],
                 shas: list[str], unusable: Callable[[str], CorruptTableError]) -> None:
        self.table, self.rules, self.path, self.utility = table, table.rules, path, utility
        self.slot, self.index = slot, index
        self._data, self._first, self._sha256 = data, first, shas
        self._unusable = unusable
        self._checked: dict[int, np.ndarray] = {}
        self._lock = threading.Lock()
        self.broken = False
        """True once a level failed its checks: the file is no longer used."""

    def answers(self, state: tuple[int, int, int], total: int) -> bool:
        """True when the file holds the turn of a card in ``state`` with ``total`` points:
        the state solved and ``total`` no higher than its last column (below its first
        the share is 0); read from the index only."""
        from .game.rules import UPPER_TARGET

        m, u, y = state
        n = bin(m).count("1")
        if not 0 <= n < self.rules.n_boxes:
            return False
        if n == 0:
            return (m, u, y) == (0, 0, 0) and total == 0
        rows = self.index[n - 1]
        i = int(self.slot[m, min(u, UPPER_TARGET), y])
        return 0 <= i < rows.shape[0] and 0 <= total <= int(rows[i, 4])

    def level_fault(self, n: int) -> str | None:
        """Why level ``n`` (the one a turn with ``n - 1`` boxes filled reads) is unusable,
        reading and checking it now (None: it is sound; the full cards' level always is).
        A level that fails makes the file :attr:`broken`."""
        fault = level_fault(self.level_values, n, self.rules.n_boxes)
        if fault is not None:
            self.broken = True
        return fault

    def is_sound(self, n: int) -> bool:
        """True when :meth:`level_fault` finds nothing wrong with level ``n``."""
        return self.level_fault(n) is None

    def level_values(self, n: int) -> np.ndarray:
        """The values of level ``n`` (1 to n_boxes - 1), read and checked the first
        time: their checksum, their range, their rows against the solve's plan and their
        slots; a level that fails is refused (:class:`CorruptTableError`), never used."""
        with self._lock:
            if n in self._checked:
                return self._checked[n]
            rows = self.index[n - 1]
            vals = _memory(_level_size(rows))
            read_level(self._data, self._first[n - 1], vals, self._sha256[n - 1], n,
                       self.path, "tournament file", self._unusable, _not_shares)
            fault = _rows_fault(self.table, self.utility, rows, n) \
                or _slot_fault(self.slot, rows, n, self.rules)
            if fault is not None:
                raise self._unusable(fault)
            self._checked[n] = vals
            return vals

    def vectors(self) -> Any:
        """The solve's :class:`solver.target.Vectors` (levels read when first used)."""
        from .target import Vectors  # numba: not on every start

        return Vectors(self.rules, self.utility, _Levels(self, 0, self.utility),
                       self.slot, 0.0, 0)


def _not_shares(vals: np.ndarray, n: int) -> str:
    return f"values of level {n} are not shares of first place"


def _rows_fault(table: Table, utility: Any, rows: np.ndarray, n: int) -> str | None:
    """What is wrong in level ``n``'s rows (None: nothing): they must be the states and
    columns the solve from a new game plans (:class:`solver.target._Plan`), each row's
    values where the row before it ends."""
    from .levels import masks_by_level
    from .target import _Plan  # numba: not on every start

    plan = _Plan(table, (0, 0, 0), 0, utility)
    want = np.stack(plan.level_states(masks_by_level(table.rules.n_boxes)[n]), axis=1)
    if want.shape != rows[:, :5].shape or not np.array_equal(want, rows[:, :5]):
        return f"the rows of level {n} are not the states and columns of the solve"
    lo, hi, start = rows[:, 3], rows[:, 4], rows[:, 5]
    if rows.shape[0] and (start[0] != 0
                          or not np.array_equal(np.diff(start), _lengths(lo, hi)[:-1])):
        return f"a row's values in level {n} do not start where the row before it ends"
    return None


def open_tournament(path: Path | str, table: Table, players: int, field: Field,
                    utility: Any) -> StoredTournament:
    """Open the tournament file at ``path`` for ``table``'s rules, ``players`` and
    ``field`` (``utility``: theirs, :meth:`solver.target.Utility.tournament`): the
    header (rules, fingerprint, version, the table's and the utility's checksums, the
    size) and the index (its checksum, whole numbers, the level sizes against the
    file's) are checked now, the levels when first read.

    Raises :class:`~solver.errors.MissingTableError` (nothing there) or
    :class:`~solver.errors.CorruptTableError` / :class:`~solver.errors.TableError`,
    naming the command that rebuilds it."""
    path = Path(path)
    kind = _kind(players, field)
    header, data = open_data(path, table.rules, kind=kind,
                             expect={"table_sha256": table_checksum(table),
                                     "utility_sha256": utility_checksum(utility),
                                     "players": int(players), "field": field_name(field)})
    rules = table.rules

    def unusable(why: str) -> CorruptTableError:
        return CorruptTableError(f"tournament file {shown_path(path)} is unusable ({why}); "
                                 f"rebuild it with: "
                                 f"{build_command(rules.name, players, field)}")

    counts, shas = header["level_states"], header["level_sha256"]
    n_levels = rules.n_boxes - 1
    if (len(counts) != n_levels or len(shas) != n_levels
            or not all(type(c) is int and 0 <= c <= rules.full_mask * 128 for c in counts)
            or not all(isinstance(s, str) for s in shas) or sum(counts) != header["states"]):
        raise unusable("its header does not describe the levels of the rules")
    slot_size = int(np.prod(rules.table_shape))
    whole = read_index(data, path, header, slot_size, "tournament file", unusable)
    head_size = whole.size
    slot = whole[:slot_size].reshape(rules.table_shape)
    rows = whole[slot_size:].reshape(-1, INDEX_COLUMNS)
    index = np.split(rows, np.cumsum(counts)[:-1])
    if any((r[:, 3:] < 0).any() for r in index):
        raise unusable("its index holds negative columns")
    _, first = level_places(data, head_size, index, unusable)
    return StoredTournament(table, path, utility, slot, index, data, first, shas, unusable)


_OPEN: dict[str, tuple[Table, str, tuple, StoredTournament | None]] = {}
_OPEN_LOCK = threading.Lock()


def get_tournament(table: Table, players: int, field: Field, utility: Any,
                   note: Note | None = None) -> StoredTournament | None:
    """The tournament file of ``table``'s rules, ``players`` and ``field`` at
    :func:`tournament_path`, opened once per process (again when the file changes);
    None when there is none, or when it is unusable (``note`` then says why and how to
    rebuild it). Thread-safe."""
    path = tournament_path(table.rules, players, field)
    try:
        info = os.stat(path)
        stamp: tuple = (info.st_ino, info.st_size, info.st_mtime_ns)
    except OSError:
        stamp = ()
    key = os.path.abspath(path)
    digest = utility_checksum(utility)
    with _OPEN_LOCK:
        found = _OPEN.get(key)
        if found is not None and found[0] is table and found[1] == digest \
                and found[2] == stamp:
            return None if found[3] is None or found[3].broken else found[3]
        opened = None
        if stamp:
            try:
                opened = open_tournament(path, table, players, field, utility)
            except TableError as exc:
                if note is not None:
                    note(f"note: {exc}; solving the tournament instead")
        _OPEN[key] = (table, digest, stamp, opened)
        return opened


def forget_tournaments() -> None:
    """Forget the opened tournament files (the next question opens the file again)."""
    with _OPEN_LOCK:
        _OPEN.clear()
