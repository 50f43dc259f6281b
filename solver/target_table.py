"""Target tables: ``W(s, r)`` of every turn-start state for every ``r <= R``, on disk.

``W(s, r)`` is the largest probability that the points still to come from the start of a
turn in state ``s`` are at least ``r``; a target ``X`` from a card with total ``t`` is
``r = X - t``. One solve of the target DP for ``R`` from a new game, every level kept
(:func:`solver.target.solve_vectors` with ``Utility.target(R)`` and ``total=None``),
holds them all: its vector of state ``s`` at column ``a`` (points so far) is
``W(s, R - a)``, on the columns any card can need for a target up to ``R``. Each column
of the DP is its own chain of operations on the same numbers, so the answer to a target
``X <= R`` read at column ``t + R - X`` is exactly the one a solve for ``X`` gives
(pinned: ``tests/test_target_table.py``). :meth:`TargetTable.vectors` gives those
vectors shifted to the columns of ``X``, the form every target question reads.

The file (``tables/official.ytargets``) is in the table format
(:mod:`solver.formats.tablefile`, kind ``yahtzee-targets``): a JSON header (rules,
fingerprint, format version, shape, checksums, the checksum of the expected-score table
it was built beside, ``max_target``) and one float64 array of three parts:

- ``slot``: the table's shape, ``slot[m, u, y]`` a state's row in its level (-1: none);
- ``index``: one row per stored state, levels 1 to ``n_boxes - 1`` in turn (the levels'
  sizes: ``level_states``), of ``m, u, y, lo, hi, start``: the state, its columns
  ``lo..hi`` and where its vector starts in the level's values;
- ``values``: each level's vectors, one level after the other.

It is memory-mapped, never read whole: opening checks the header, the size and the
checksum of ``slot`` and ``index`` (a few MB); a level's values are checked (checksum,
values in [0, 1]) the first time a question reads them. A file that does not fit is
refused with the command that rebuilds it (:class:`~solver.errors.CorruptTableError`),
and a rebuild never replaces anything but a target table of the same rules
(:func:`solver.formats.files.atomic_write`).
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np

from .errors import CorruptTableError, InvalidOptionError, TableError, shown_path
from .game.rules import RuleSet, get_rules
from .kernels.level import LevelStore
from .table import Table, tables_dir

Progress = Callable[[int, int], None]
Note = Callable[[str], None]

SUFFIX = ".ytargets"
MAGIC = "yahtzee-targets"
VERSION = 1
DEFAULT_MAX = 500
"""``--max`` by default: every target up to 500 (capped at the highest score of the
rules: 374 for Yatzy)."""
INDEX_COLUMNS = 6
"""m, u, y, lo, hi, start of each stored state."""
_EXTRA = (("max_target", int), ("states", int), ("level_states", list),
          ("level_sha256", list), ("index_sha256", str), ("table_sha256", str))


def default_max(rules: RuleSet | str) -> int:
    """The ``R`` of ``yahtzee solve --targets`` without ``--max``."""
    from .stats import highest_score

    return min(DEFAULT_MAX, highest_score(get_rules(rules)))


def default_targets_path(rules: RuleSet | str) -> Path:
    """The target table of a rule set, beside its table: ``tables/official.ytargets``."""
    return tables_dir() / f"{get_rules(rules).name}{SUFFIX}"


def build_command(rules_name: str, max_target: int | None = None) -> str:
    """The command that builds (or rebuilds) the target table."""
    top = "" if max_target is None else f" --max {max_target}"
    return f"yahtzee solve --targets --rules {rules_name}{top}"


def _kind() -> Any:  # a FileKind (tablefile imports this module's callers lazily)
    from .formats.tablefile import FileKind

    def one_axis(rules: RuleSet) -> tuple[int, ...]:  # (its length is the header's own,
        return (0,)                                     # checked against the file's size)

    return FileKind(MAGIC, VERSION, "target table", one_axis, lambda *_: None,
                    lambda name, _path: build_command(name), _EXTRA)


# ---------------------------------------------------------------------- building
@dataclass(frozen=True)
class _Layout:
    """The parts of a target table's array, from solved vectors (levels 1..n_boxes-1)."""

    slot: np.ndarray
    index: list[np.ndarray]
    values: list[np.ndarray]

    @property
    def size(self) -> int:
        return (self.slot.size + sum(i.size for i in self.index)
                + sum(v.size for v in self.values))

    def parts(self) -> Iterator[np.ndarray]:
        """The array's parts in file order, each as little-endian float64."""
        yield self.slot.astype("<f8")
        for rows in self.index:
            yield rows.astype("<f8")
        for vals in self.values:
            yield np.ascontiguousarray(vals, dtype="<f8")


def _layout(vectors: Any, rules: RuleSet) -> _Layout:
    index, values = [], []
    for n in range(1, rules.n_boxes):
        level = vectors.levels[n]
        k = level.m.shape[0]
        index.append(np.stack([level.m, level.u, level.y, level.lo[:k], level.hi[:k],
                               level.start[:k]], axis=1).astype(np.int64))
        values.append(level.vals[:int(level.start[k])])
    return _Layout(vectors.slot.copy(), index, values)


def solve_targets(table: Table, max_target: int, progress: Progress | None = None) -> Any:
    """The target DP for ``max_target`` from a new game, every level kept (Vectors)."""
    from .target import Utility, solve_vectors

    if max_target < 1:
        raise ValueError("a target table needs a largest target of 1 or more")
    rules = table.rules
    return solve_vectors(table, Utility.target(max_target),
                         keep=tuple(range(rules.n_boxes + 1)), progress=progress)


def write_targets(path: Path | str, table: Table, max_target: int, vectors: Any, *,
                  force: bool = False) -> int:
    """Write the solved ``vectors`` (of :func:`solve_targets`) as the target table at
    ``path``, atomically; returns its size in bytes. Replaces only a target table of the
    same rules (or an empty file) unless ``force``."""
    from .formats.files import atomic_write
    from .formats.tablefile import is_table_of, rules_fingerprint
    from .moments import table_checksum

    rules = table.rules
    layout = _layout(vectors, rules)
    whole = hashlib.sha256()
    head = hashlib.sha256()
    levels = []
    for i, part in enumerate(layout.parts()):
        whole.update(part.data)
        if i <= len(layout.index):
            head.update(part.data)
        else:
            levels.append(hashlib.sha256(part.data).hexdigest())
    header = {"format": MAGIC, "version": VERSION, "rules": rules.name,
              "fingerprint": rules_fingerprint(rules), "shape": [layout.size],
              "dtype": "<f8", "sha256": whole.hexdigest(), "max_target": int(max_target),
              "states": sum(rows.shape[0] for rows in layout.index),
              "level_states": [rows.shape[0] for rows in layout.index],
              "level_sha256": levels, "index_sha256": head.hexdigest(),
              "table_sha256": table_checksum(table)}
    line = json.dumps(header)
    line += " " * (-(len(line) + 1) % 64)  # the data starts 64-byte aligned (mapped as is)

    def write(out: IO[bytes]) -> None:
        out.write((line + "\n").encode())
        for part in layout.parts():
            out.write(part.data)

    atomic_write(path, write, force=force,
                 replaceable=lambda p: is_table_of(p, rules, _kind()))
    return len(line) + 1 + 8 * layout.size


def check_targets_target(path: Path | str, rules: RuleSet, *, force: bool = False) -> None:
    """Raise :class:`~solver.errors.WriteError` now if :func:`write_targets` would refuse."""
    from .formats.files import check_target
    from .formats.tablefile import is_table_of

    check_target(path, force=force, replaceable=lambda p: is_table_of(p, rules, _kind()))


# ---------------------------------------------------------------------- reading
@dataclass(eq=False)
class TargetTable:
    """A target table opened (memory-mapped): :meth:`vectors` answers every target up
    to :attr:`max_target` exactly as the target DP for it does."""

    rules: RuleSet
    path: Path
    max_target: int
    slot: np.ndarray
    index: list[np.ndarray]
    _values: list[np.ndarray]
    _sha256: list[str]
    _all_values: np.ndarray
    """Every level's values, one level after the other (``_values`` are its parts)."""
    _checked: set[int] = field(default_factory=set)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def answers(self, target: int) -> bool:
        """True when the table holds the answers of ``target`` (``1 <= target <= R``)."""
        return 1 <= target <= self.max_target

    def _check_holds(self, target: int) -> None:
        if not self.answers(target):
            raise InvalidOptionError(f"the target table holds targets 1 to "
                                     f"{self.max_target}, not {target}; rebuild it for it "
                                     f"with: {build_command(self.rules.name, target)}")

    def level_values(self, n: int) -> np.ndarray:
        """The values of level ``n`` (1 to n_boxes - 1), checked the first time."""
        vals = self._values[n - 1]
        with self._lock:
            if n not in self._checked:
                if hashlib.sha256(vals.data).hexdigest() != self._sha256[n - 1]:
                    raise self._unusable(f"checksum mismatch in level {n}")
                bad = ~((vals >= 0.0) & (vals <= 1.0 + 1e-9))
                if bad.any():
                    raise self._unusable(f"{int(bad.sum())} values of level {n} are not "
                                         f"probabilities")
                self._checked.add(n)
        return vals

    def _unusable(self, why: str) -> CorruptTableError:
        return CorruptTableError(f"target table {shown_path(self.path)} is unusable ({why}); "
                                 f"rebuild it with: "
                                 f"{build_command(self.rules.name, self.max_target)}")

    def vectors(self, target: int) -> Any:
        """The target DP's vectors for ``target`` (a :class:`solver.target.Vectors` of
        every level; each level checked when first read)."""
        from .target import Utility, Vectors

        self._check_holds(target)
        shift = self.max_target - target
        utility = Utility.target(target)
        levels = _Levels(self, shift, utility)
        return Vectors(self.rules, utility, levels, self.slot, 0.0, 0)

    def store(self, target: int, progress: Progress | None = None
              ) -> tuple[np.ndarray, LevelStore]:
        """Every level's vectors for ``target`` in one :class:`LevelStore`, read in place
        (the values are the mapped file's, not copied; every level checked first), and
        ``slot[m, u, y]``, a state's index there: the form of
        :func:`solver.simulate_target.flatten`. The full cards are one state with no
        stored columns (0 below ``target``, 1 from it on, as the utility itself).
        ``progress(levels_checked, levels)`` follows the checks (a second or two)."""
        self._check_holds(target)
        rules = self.rules
        for n in range(1, rules.n_boxes):
            self.level_values(n)
            if progress is not None:
                progress(n, rules.n_boxes - 1)
        shift = self.max_target - target
        rows = np.concatenate(self.index)
        n_states = rows.shape[0]
        counts = [part.shape[0] for part in self.index]
        sizes = [part.shape[0] for part in self._values]
        base = np.zeros(rules.n_boxes + 1, dtype=np.int64)  # each level's first state
        base[1:] = np.cumsum([0, *counts])
        offset = np.repeat(np.cumsum([0, *sizes[:-1]]), counts)  # where its values begin
        end = self._all_values.shape[0]
        start = np.concatenate((rows[:, 5] + offset, [end, end, end])).astype(np.int64)
        top = (1 << 40, -(1 << 40))  # the placeholder state after the full cards
        store = LevelStore(
            *(np.ascontiguousarray(np.append(rows[:, c], v), dtype=np.int64)
              for c, v in ((0, rules.full_mask), (1, 0), (2, 0))),
            start,
            np.concatenate((rows[:, 3] - shift, [target, top[0]])).astype(np.int64),
            np.concatenate((rows[:, 4] - shift, [target - 1, top[1]])).astype(np.int64),
            self._all_values, np.zeros(0), np.zeros((n_states + 1, 0)))
        filled = np.array([bin(mask).count("1") for mask in range(self.slot.shape[0])])
        slot = np.where(self.slot >= 0, self.slot + base[filled][:, None, None], -1)
        return np.ascontiguousarray(slot, dtype=np.int64), store


class _Levels(dict):
    """The levels of :meth:`TargetTable.vectors`, made on first use (``levels[n]``)."""

    def __init__(self, table: TargetTable, shift: int, utility: Any) -> None:
        super().__init__()
        self.table, self.shift, self.utility = table, shift, utility

    def __missing__(self, n: int) -> Any:
        table, rules = self.table, self.table.rules
        if n == rules.n_boxes:  # full cards: the utility itself on 0..X-1
            top = self.utility.top
            level = _level(np.array([rules.full_mask], dtype=np.int64), np.zeros(1, np.int64),
                           np.zeros(1, np.int64), np.array([0, top, top], dtype=np.int64),
                           np.array([0, 1 << 40]), np.array([top - 1, -(1 << 40)]),
                           self.utility.values.copy())
        elif 1 <= n < rules.n_boxes:
            rows = table.index[n - 1]
            vals = table.level_values(n)
            start = np.append(rows[:, 5], [vals.shape[0], vals.shape[0]])
            level = _level(rows[:, 0].copy(), rows[:, 1].copy(), rows[:, 2].copy(), start,
                           np.append(rows[:, 3] - self.shift, 1 << 40),
                           np.append(rows[:, 4] - self.shift, -(1 << 40)), vals)
        else:
            raise KeyError(n)
        self[n] = level
        return level

    def get(self, n: int, default: Any = None) -> Any:
        try:
            return self[n]
        except KeyError:
            return default

    def __contains__(self, n: object) -> bool:
        return isinstance(n, int) and 1 <= n <= self.table.rules.n_boxes


def _level(m: np.ndarray, u: np.ndarray, y: np.ndarray, start: np.ndarray, lo: np.ndarray,
           hi: np.ndarray, vals: np.ndarray) -> LevelStore:
    """One level of vectors in the kernels' container (the states, the placeholder after
    them, their values; no secondary vector, no extra figures)."""
    return LevelStore(m, u, y, start, lo, hi, vals, np.zeros(0), np.zeros((m.shape[0], 0)))


def open_targets(path: Path | str, table: Table) -> TargetTable:
    """Open (memory-map) the target table at ``path`` for ``table``'s rules.

    Raises :class:`~solver.errors.MissingTableError` (nothing there) or
    :class:`~solver.errors.CorruptTableError` / :class:`~solver.errors.TableError` (of
    other rules, another version, built beside another table, truncated, corrupt), each
    message naming the command that rebuilds it."""
    from .formats.tablefile import map_checked
    from .moments import table_checksum

    rules = table.rules
    header, data = map_checked(path, rules, kind=_kind(),
                               expect={"table_sha256": table_checksum(table)})
    path = Path(path)
    top = header["max_target"]

    def unusable(why: str) -> CorruptTableError:
        return CorruptTableError(f"target table {shown_path(path)} is unusable ({why}); "
                                 f"rebuild it with: {build_command(rules.name, max(top, 1))}")

    counts = header["level_states"]
    shas = header["level_sha256"]
    n_levels = rules.n_boxes - 1
    slot_size = int(np.prod(rules.table_shape))
    if (top < 1 or len(counts) != n_levels or len(shas) != n_levels
            or not all(type(c) is int and c >= 0 for c in counts)
            or not all(isinstance(s, str) for s in shas) or sum(counts) != header["states"]):
        raise unusable("its header does not describe the levels of the rules")
    head_size = slot_size + INDEX_COLUMNS * header["states"]
    if head_size > data.shape[0]:
        raise unusable("shorter than its index")
    head = data[:head_size]
    if hashlib.sha256(head.data).hexdigest() != header["index_sha256"]:
        raise unusable("checksum mismatch in its index")
    slot = head[:slot_size].astype(np.int64).reshape(rules.table_shape)
    rows = head[slot_size:].astype(np.int64).reshape(-1, INDEX_COLUMNS)
    index, values = [], []
    at, offset = 0, head_size
    for n, count in enumerate(counts, start=1):
        mine = rows[at:at + count]
        at += count
        size = _level_size(mine, top)
        if size is None:
            raise unusable(f"level {n}'s index is inconsistent")
        index.append(mine)
        values.append(data[offset:offset + size])
        offset += size
    if offset != data.shape[0]:
        raise unusable(f"{data.shape[0] - offset} values beyond its levels")
    return TargetTable(rules, path, top, slot, index, values, shas, data[head_size:])


def _level_size(rows: np.ndarray, top: int) -> int | None:
    """The number of values of a level whose index is ``rows`` (None: inconsistent)."""
    from .target import STEP

    if rows.shape[0] == 0:
        return 0
    lo, hi, start = rows[:, 3], rows[:, 4], rows[:, 5]
    lengths = np.where(hi >= lo, -(-(hi - lo + 1) // STEP) * STEP, 0)
    if start[0] != 0 or (hi >= top).any() or not np.array_equal(np.diff(start), lengths[:-1]):
        return None
    return int(start[-1] + lengths[-1])


# ---------------------------------------------------------------------- one per process
_OPEN: dict[tuple[int, str], tuple[Table, tuple, TargetTable | None]] = {}
_OPEN_LOCK = threading.Lock()


def get_targets(table: Table, note: Note | None = None) -> TargetTable | None:
    """The target table of ``table``'s rules at :func:`default_targets_path`, opened once
    per process (again when the file changes); None when there is none, or when it is
    unusable (``note`` then says why and how to rebuild it). Thread-safe."""
    path = default_targets_path(table.rules)
    try:
        info = os.stat(path)
        stamp: tuple = (info.st_ino, info.st_size, info.st_mtime_ns)
    except OSError:
        stamp = ()
    key = (id(table), os.path.abspath(path))
    with _OPEN_LOCK:
        found = _OPEN.get(key)
        if found is not None and found[0] is table and found[1] == stamp:
            return found[2]
        opened = None
        if stamp:
            try:
                opened = open_targets(path, table)
            except TableError as exc:
                if note is not None:
                    note(f"note: {exc}; solving each target question instead")
        _OPEN[key] = (table, stamp, opened)
        return opened


def forget_targets() -> None:
    """Forget the opened target tables (the next question opens the file again)."""
    with _OPEN_LOCK:
        _OPEN.clear()
