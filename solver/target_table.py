"""Target tables: ``W(s, r)`` of every turn-start state for every ``r <= R``, on disk.

``W(s, r)`` is the largest probability that the points still to come from the start of a
turn in state ``s`` are at least ``r``; a target ``X`` from a card with total ``t`` is
``r = X - t``. One solve of the target DP for ``R`` from a new game, every level kept
(:func:`solver.target.solve_vectors` with ``Utility.target(R)`` and ``total=None``),
holds them all: its vector of state ``s`` at column ``a`` (points so far) is
``W(s, R - a)``, on the columns any card can need for a target up to ``R``. Each column
of the DP is its own chain of operations on the same numbers, so the answer to a target
``X <= R`` read at column ``t + R - X`` is exactly the one a solve for ``X`` gives
(pinned: ``tests/solver/target_table/test_target_table.py``).
:meth:`TargetTable.vectors` gives those vectors shifted to the columns of ``X``, the form
every target question reads.

The file (``tables/official.ytargets``) is in the table format
(:mod:`solver.formats.tablefile`, kind ``yahtzee-targets``): a JSON header (rules,
fingerprint, format version, shape, checksums, the checksum of the expected-score table
it was built beside, ``max_target``) and one float64 array of three parts:

- ``slot``: the table's shape, ``slot[m, u, y]`` a state's row in its level (-1: none);
- ``index``: one row per stored state, levels 1 to ``n_boxes - 1`` in turn (the levels'
  sizes: ``level_states``), of ``m, u, y, lo, hi, start``: the state, its columns
  ``lo..hi`` and where its vector starts in the level's values;
- ``values``: each level's vectors, one level after the other.

It is read in parts, never mapped nor read whole: opening reads and checks the header,
the size, ``slot`` and ``index`` (a few MB: their checksum, and every entry against
the rules and ``max_target``: :func:`_index_fault`); a level's values are read into
memory and checked (checksum, values in [0, 1]) the first time a question reads them,
and only then used. So every header field an answer depends on is covered by a
checksum or checked against the data, and a file cut or rewritten by another program
while it is read is refused (or answers from what was read and checked before), never
a fault. A file that does not fit is refused with the command that rebuilds it
(:class:`~solver.errors.CorruptTableError`),
and a rebuild never replaces anything but a target table of the same rules
(:func:`solver.formats.files.atomic_write`).
"""

from __future__ import annotations

import hashlib
import json
import mmap
import os
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from numbers import Integral
from pathlib import Path
from typing import IO, Any, Protocol

import numpy as np

from .errors import CorruptTableError, InvalidOptionError, TableError, shown, shown_path
from .formats.files import atomic_write, check_target
from .formats.tablefile import DataFile, FileKind, is_table_of, open_data, rules_fingerprint
from .game.rules import N_UPPER, RuleSet, get_rules
from .game.states import upper_classes
from .kernels.level import LevelStore
from .moments import table_checksum
from .stats import highest_score
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
    return min(DEFAULT_MAX, highest_score(get_rules(rules)))


def default_targets_path(rules: RuleSet | str) -> Path:
    """The target table of a rule set, beside its table: ``tables/official.ytargets``."""
    return tables_dir() / f"{get_rules(rules).name}{SUFFIX}"


def build_command(rules_name: str, max_target: int | None = None) -> str:
    """The command that builds (or rebuilds) the target table."""
    top = "" if max_target is None else f" --max {max_target}"
    return f"yahtzee solve --targets --rules {rules_name}{top}"


def _kind() -> FileKind:
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
    """The target DP for ``max_target`` from a new game, every level kept (Vectors).
    Raises :class:`~solver.errors.InvalidOptionError` unless ``max_target`` is an integer
    1 to the highest score of the rules."""
    from .target import Utility, solve_vectors  # numba: not on every start

    rules = table.rules
    highest = highest_score(rules)
    if isinstance(max_target, bool) or not isinstance(max_target, Integral) \
            or not 1 <= max_target <= highest:
        raise InvalidOptionError(f"a target table holds the targets 1 to R, R at most the "
                                 f"highest score of {rules.name} ({highest}), not "
                                 f"{shown(max_target, 40)}")
    return solve_vectors(table, Utility.target(max_target),
                         keep=tuple(range(rules.n_boxes + 1)), progress=progress)


def write_targets(path: Path | str, table: Table, max_target: int, vectors: Any, *,
                  force: bool = False) -> int:
    """Write the solved ``vectors`` (of :func:`solve_targets`) as the target table at
    ``path``, atomically; returns its size in bytes. Replaces only a target table of the
    same rules (or an empty file) unless ``force``."""
    return write_levelled(path, table, vectors, _kind(), {"max_target": int(max_target)},
                          {}, force=force)


def write_levelled(path: Path | str, table: Table, vectors: Any, kind: FileKind,
                   labels: dict[str, Any], checks: dict[str, Any], *,
                   force: bool = False) -> int:
    """Write solved ``vectors`` (levels 1..n_boxes-1) at ``path``, atomically, as a file
    of ``kind``: one JSON header line (``labels`` after the data's checksum, ``checks``
    after the table's), then the slot map, the index and the levels as little-endian
    float64 from a 64-byte boundary; returns its size in bytes. Replaces only a file of
    the same kind and rules (or an empty file) unless ``force``."""
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
    header = {"format": kind.magic, "version": kind.version, "rules": rules.name,
              "fingerprint": rules_fingerprint(rules), "shape": [layout.size],
              "dtype": "<f8", "sha256": whole.hexdigest(), **labels,
              "states": sum(rows.shape[0] for rows in layout.index),
              "level_states": [rows.shape[0] for rows in layout.index],
              "level_sha256": levels, "index_sha256": head.hexdigest(),
              "table_sha256": table_checksum(table), **checks}
    line = json.dumps(header)
    line += " " * (-(len(line) + 1) % 64)  # the data starts 64-byte aligned

    def write(out: IO[bytes]) -> None:
        out.write((line + "\n").encode())
        for part in layout.parts():
            out.write(part.data)

    atomic_write(path, write, force=force, replaceable=lambda p: is_table_of(p, rules, kind))
    return len(line) + 1 + 8 * layout.size


def check_targets_target(path: Path | str, rules: RuleSet, *, force: bool = False) -> None:
    """Raise :class:`~solver.errors.WriteError` now if :func:`write_targets` would refuse."""
    check_target(path, force=force, replaceable=lambda p: is_table_of(p, rules, _kind()))


# ---------------------------------------------------------------------- reading
@dataclass(eq=False)
class TargetTable:
    """A target table opened: :meth:`vectors` answers every target up to
    :attr:`max_target` exactly as the target DP for it does. Its index is in memory
    (checked when opened); a level's values are read into memory and checked the first
    time a question reads them, and only then used."""

    rules: RuleSet
    path: Path
    max_target: int
    slot: np.ndarray
    index: list[np.ndarray]
    _data: DataFile
    _first: list[int]
    """Where each level's values start in the file's array."""
    _sha256: list[str]
    _all_values: np.ndarray
    """Every level's values, one level after the other (allocated when opened, each
    level's part read when first asked for)."""
    _values: list[np.ndarray]
    """Each level's part of ``_all_values``."""
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
        """The values of level ``n`` (1 to n_boxes - 1), read and checked the first time
        (a file changed or cut since it was opened is refused then; what was read and
        checked before stays in use)."""
        vals = self._values[n - 1]
        with self._lock:
            if n not in self._checked:
                read_level(self._data, self._first[n - 1], vals, self._sha256[n - 1], n,
                           self.path, "target table", self._unusable, _not_probabilities)
                fault = _slot_fault(self.slot, self.index[n - 1], n, self.rules)
                if fault is not None:
                    raise self._unusable(fault)
                self._checked.add(n)
        return vals

    def level_fault(self, n: int) -> str | None:
        """Why level ``n`` is unusable, read and checked now (None: it is sound)."""
        return level_fault(self.level_values, n, self.rules.n_boxes)

    def _unusable(self, why: str) -> CorruptTableError:
        return _unusable(self.path, self.rules, self.max_target, why)

    def vectors(self, target: int) -> Any:
        """The target DP's vectors for ``target`` (a :class:`solver.target.Vectors` of
        every level; each level checked when first read)."""
        from .target import Utility, Vectors  # numba: not on every start

        self._check_holds(target)
        shift = self.max_target - target
        utility = Utility.target(target)
        levels = _Levels(self, shift, utility)
        return Vectors(self.rules, utility, levels, self.slot, 0.0, 0)

    def store(self, target: int, progress: Progress | None = None
              ) -> tuple[np.ndarray, LevelStore]:
        """Every level's vectors for ``target`` in one :class:`LevelStore` (every level
        read and checked first, each into its part of one array), and
        ``slot[m, u, y]``, a state's index there: the form of
        :func:`solver.simulate.target.flatten`. The full cards are one state with no
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
        m, u, y = (np.ascontiguousarray(np.append(rows[:, c], v), dtype=np.int64)
                   for c, v in ((0, rules.full_mask), (1, 0), (2, 0)))
        store = LevelStore(
            m, u, y, start,
            np.concatenate((rows[:, 3] - shift, [target, top[0]])).astype(np.int64),
            np.concatenate((rows[:, 4] - shift, [target - 1, top[1]])).astype(np.int64),
            self._all_values, np.zeros((n_states + 1, 0)))
        filled = np.array([bin(mask).count("1") for mask in range(self.slot.shape[0])])
        slot = np.where(self.slot >= 0, self.slot + base[filled][:, None, None], -1)
        return np.ascontiguousarray(slot, dtype=np.int64), store


class StoredLevels(Protocol):
    """A file of a solve's levels (a target table, a tournament file): ``index[n - 1]``
    the rows of level ``n`` (m, u, y, lo, hi, start), ``level_values(n)`` its values."""

    rules: RuleSet
    index: list[np.ndarray]

    def level_values(self, n: int) -> np.ndarray: ...


class _Levels(dict):
    """The levels of :meth:`TargetTable.vectors`, made on first use (``levels[n]``)."""

    def __init__(self, table: StoredLevels, shift: int, utility: Any) -> None:
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
    them, their values; no extra figures)."""
    return LevelStore(m, u, y, start, lo, hi, vals, np.zeros((m.shape[0], 0)))


def open_targets(path: Path | str, table: Table) -> TargetTable:
    """Open the target table at ``path`` for ``table``'s rules: its header and index are
    read and checked (every field the answers depend on is covered by a checksum or
    checked against the data: :func:`_index_fault`); its levels are read when first used
    (:meth:`TargetTable.level_values`).

    Raises :class:`~solver.errors.MissingTableError` (nothing there) or
    :class:`~solver.errors.CorruptTableError` / :class:`~solver.errors.TableError` (of
    other rules, another version, built beside another table, truncated, corrupt), each
    message naming the command that rebuilds it; a :class:`~solver.errors.TableError`
    when there is not the memory to open it. The sizes in the header are checked
    against the rules' before anything of that size is allocated or read."""
    header, data = open_data(path, table.rules, kind=_kind(),
                             expect={"table_sha256": table_checksum(table)})
    try:
        return _open_checked(Path(path), table, header, data)
    except MemoryError:
        data.close()
        raise TableError(f"target table {shown_path(path)} is unusable here (not enough "
                         f"memory to open it)") from None


def _open_checked(path: Path, table: Table, header: dict[str, Any],
                  data: DataFile) -> TargetTable:
    """:func:`open_targets` once the header and the size are checked: the level sizes
    against the rules' before anything is allocated, then the index, then the levels'
    sizes against the file's."""
    from .target import level_state_counts  # numba: not on every start

    rules = table.rules
    top = header["max_target"]
    highest = highest_score(rules)
    # the rebuild named before the index proves the targets held: never fewer than now
    rebuild = top if default_max(rules) < top <= highest else None

    def unusable(why: str) -> CorruptTableError:
        return _unusable(path, rules, rebuild, why)

    if not 1 <= top <= highest:
        raise unusable(f"its header's max_target is {_short(top)}, not a target of "
                       f"{rules.name} (1 to {highest})")
    counts = header["level_states"]
    shas = header["level_sha256"]
    n_levels = rules.n_boxes - 1
    slot_size = int(np.prod(rules.table_shape))
    if (len(counts) != n_levels or len(shas) != n_levels
            or not all(type(c) is int and c >= 0 for c in counts)
            or not all(isinstance(s, str) for s in shas) or sum(counts) != header["states"]):
        raise unusable("its header does not describe the levels of the rules")
    known = level_state_counts(table)
    if tuple(counts) != known:  # (before the index is allocated and read: its size)
        raise unusable(f"its header counts {_short(header['states'])} states, not the "
                       f"{sum(known)} of {rules.name}" if header["states"] != sum(known)
                       else f"its header's states per level are not those of {rules.name}")
    whole = read_index(data, path, header, slot_size, "target table", unusable)
    head_size = whole.size
    slot = whole[:slot_size].reshape(rules.table_shape)
    rows = whole[slot_size:].reshape(-1, INDEX_COLUMNS)
    index = np.split(rows, np.cumsum(counts)[:-1])
    held = int(rows[0, 4]) + 1 if rows.shape[0] else top  # every row's hi is R - 1
    if held != top and (rows[:, 4] == held - 1).all() and 1 <= held <= highest:
        rebuild = held
        raise unusable(f"its header's max_target is {top}, but its index holds the "
                       f"targets up to {held}")
    fault = _index_fault(slot, index, top, rules)
    if fault is not None:
        raise unusable(fault)
    rebuild = top
    sizes, first = level_places(data, head_size, index, unusable)
    values = _memory(sum(sizes))  # (read level by level, when first asked for)
    parts = np.split(values, np.cumsum(sizes)[:-1])
    return TargetTable(rules, path, top, slot, index, data, first, shas, values, parts)


def read_index(data: DataFile, path: Path, header: dict[str, Any], slot_size: int,
               what: str, unusable: Callable[[str], CorruptTableError]) -> np.ndarray:
    """A levelled file's index, read whole and checked: its slot map (``slot_size``
    entries) then one row of :data:`INDEX_COLUMNS` whole numbers per state, shape
    (slot_size + INDEX_COLUMNS * header's states,), int64. Raises ``unusable(why)`` for
    a short or changed index, :class:`~solver.errors.TableError` when it cannot be
    read (``what`` names the file in that message)."""
    head_size = slot_size + INDEX_COLUMNS * header["states"]
    if head_size > data.count:
        raise unusable("shorter than its index")
    head = _memory(head_size)
    try:
        got = data.read_into(0, head)
    except OSError as exc:
        raise TableError(f"cannot read {what} {shown_path(path)}: "
                         f"{exc.strerror or exc}") from None
    if got < head_size:
        raise unusable("shorter than its index: the file was cut while it was read")
    if hashlib.sha256(head.data).hexdigest() != header["index_sha256"]:
        raise unusable("checksum mismatch in its index")
    whole = _whole_numbers(head)
    if whole is None:
        raise unusable("its index holds values that are not whole numbers in range")
    return whole


def read_level(data: DataFile, first: int, vals: np.ndarray, sha256: str, n: int,
               path: Path, what: str, unusable: Callable[[str], CorruptTableError],
               out_of_range: Callable[[np.ndarray, int], str]) -> None:
    """Read level ``n`` of a levelled file into ``vals`` (its values start at position
    ``first`` of ``data``, in values) and check it: whole, its checksum ``sha256``, every
    value in [0, 1]. Raises ``unusable(why)`` for a level cut short, changed or out of
    range (``out_of_range(vals, n)`` says how), :class:`~solver.errors.TableError` when it
    cannot be read (``what`` names the file in that message)."""
    try:
        got = data.read_into(first, vals)
    except OSError as exc:
        raise TableError(f"cannot read {what} {shown_path(path)}: "
                         f"{exc.strerror or exc}") from None
    if got < vals.shape[0]:
        raise unusable(f"level {n} ends early: the file was cut after it was opened")
    if hashlib.sha256(vals.data).hexdigest() != sha256:
        raise unusable(f"checksum mismatch in level {n}")
    if vals.shape[0] and not 0.0 <= vals.min() <= vals.max() <= 1.0 + 1e-9:
        raise unusable(out_of_range(vals, n))


def level_fault(level_values: Callable[[int], np.ndarray], n: int, n_boxes: int
                ) -> str | None:
    """Why level ``n`` of a levelled file (the one a turn with ``n - 1`` boxes filled
    reads) is unusable, reading and checking it now through ``level_values(n)``; None
    when it is sound (the new cards' and the full cards' levels are not stored: always
    sound)."""
    if not 1 <= n < n_boxes:
        return None
    try:
        level_values(n)
    except TableError as exc:
        return str(exc)
    return None


def _not_probabilities(vals: np.ndarray, n: int) -> str:
    bad = ~((vals >= 0.0) & (vals <= 1.0 + 1e-9))  # (NaN too)
    return f"{int(bad.sum())} values of level {n} are not probabilities"


def level_places(data: DataFile, head_size: int, index: list[np.ndarray],
                 unusable: Callable[[str], CorruptTableError]) -> tuple[list[int], list[int]]:
    """Each level's count of values and its first position in ``data`` (in values),
    after an index of ``head_size`` values; the levels must fill the rest of the file
    exactly, else ``unusable(why)`` is raised."""
    sizes = [_level_size(rows) for rows in index]
    if head_size + sum(sizes) != data.count:
        beyond = data.count - head_size - sum(sizes)
        raise unusable(f"{beyond} values beyond its levels" if beyond > 0 else
                       f"{-beyond} values short of its levels")
    return sizes, list(np.cumsum([head_size, *sizes[:-1]]).tolist())


def _memory(count: int, dtype: type = np.float64) -> np.ndarray:
    """``count`` numbers in memory of this process's own, each page given when first
    written (a level read into it): an anonymous mapping, without the huge pages numpy
    asks for large arrays (finding them took more system time than the reads did)."""
    if count == 0:
        return np.zeros(0, dtype=dtype)
    try:
        return np.frombuffer(mmap.mmap(-1, 8 * count), dtype=dtype)
    except (OSError, OverflowError) as exc:  # (ENOMEM, or beyond what a mapping can be)
        raise MemoryError(f"cannot allocate {count} numbers: {exc}") from None


def _whole_numbers(values: np.ndarray, piece: int = 1 << 18) -> np.ndarray | None:
    """``values`` (float64) as int64 when each is a whole number smaller than
    :data:`_LARGEST` in magnitude (None: one is not), a piece at a time (no temporary
    array of the whole size)."""
    whole = _memory(values.shape[0], np.int64)
    with np.errstate(invalid="ignore"):  # (NaN and the too large are told apart below)
        for at in range(0, values.shape[0], piece):
            whole[at:at + piece] = values[at:at + piece]
            if not np.array_equal(whole[at:at + piece], values[at:at + piece]):
                return None
    if whole.shape[0] and not -_LARGEST < whole.min() <= whole.max() < _LARGEST:
        return None
    return whole


_LARGEST = 1 << 40
"""Every whole number of an index (slots, masks, subtotals, flags, columns, offsets) is
smaller than this in magnitude."""


def _unusable(path: Path, rules: RuleSet, top: int | None, why: str) -> CorruptTableError:
    """The refusal of a target table, naming the command that rebuilds it for every
    target up to ``top`` (None: the default's)."""
    return CorruptTableError(f"target table {shown_path(path)} is unusable ({why}); rebuild "
                             f"it with: {build_command(rules.name, top)}")


def _short(value: object) -> str:
    text = json.dumps(value)
    return text if len(text) <= 24 else f"{text[:10]}...({len(text)} characters)"


def _index_fault(slot: np.ndarray, index: list[np.ndarray], top: int,
                 rules: RuleSet) -> str | None:
    """What is wrong in the index of a target table of every target up to ``top`` (None:
    nothing), so that no entry leads a reader out of the file's arrays or to the columns
    of other targets. ``slot[m, u, y]``: a state's row in its level (-1 for a new game,
    0 for the full cards, the level's row count for its placeholder); ``index[n - 1]``:
    level ``n``'s rows (m, u, y, lo, hi, start). Every slot must be in its level's range;
    every row's state one of its level (a mask of ``n`` boxes, a subtotal 0 to 63, a flag
    of the rules), with the columns ``lo..R - 1`` the builder gives it for ``R`` (its
    ``lo`` and ``hi`` are what prove ``max_target``) and its values where the row before
    it ends.
    (:func:`_slot_fault` checks what each slot names when its level is first read.)"""
    from .target import least_columns  # numba: not on every start

    full = rules.full_mask
    filled = _filled(rules)
    if (slot[0] != -1).any() or (slot[full] != 0).any():
        return "its slots of a new game or of full cards are not the builder's"
    n_u, n_y = slot.shape[1:]
    for n, level in enumerate(index, start=1):  # (a level at a time: small temporaries)
        named = slot[filled == n]
        if ((named < 0) | (named > level.shape[0])).any():
            return "a slot beyond the rows of its level"
        if not level.shape[0]:
            continue
        m, u, y, lo, hi, start = level.T
        if ((m < 0) | (m > full)).any() or (filled[m.clip(0, full)] != n).any():
            return "a row of a level holds a mask of another level"
        if ((u < 0) | (u >= n_u) | (y < 0) | (y >= n_y)).any():
            return "a row holds a subtotal or flag out of range"
        if (hi != top - 1).any() or not np.array_equal(lo, least_columns(rules, m, u, u, y,
                                                                         top)):
            return f"its rows do not hold the columns of the targets up to {top}"
        if start[0] != 0 or not np.array_equal(np.diff(start), _lengths(lo, hi)[:-1]):
            return "a row's values do not start where the row before it ends"
    return None


def _filled(rules: RuleSet) -> np.ndarray:
    """The number of filled boxes of each mask."""
    return _filled_boxes(rules.n_boxes)


@cache
def _filled_boxes(n_boxes: int) -> np.ndarray:
    masks = np.arange(1 << n_boxes, dtype=np.int64)
    filled = ((masks[:, None] >> np.arange(n_boxes)) & 1).sum(axis=1)
    filled.flags.writeable = False
    return filled


@cache
def _shares() -> np.ndarray:
    """``[upper mask, u]``: the subtotal whose values ``u`` shares (-1: none), once."""
    shares = upper_classes()
    shares.flags.writeable = False
    return shares


def _slot_fault(slot: np.ndarray, rows: np.ndarray, n: int, rules: RuleSet) -> str | None:
    """What is wrong in the slots of level ``n`` (None: nothing), checked when the level
    is first read (its slots are read with its values only): each row must be where its
    own state's slot points, and each slot of a mask of ``n`` boxes must name the row of
    its mask, its flag and the subtotal whose values its own shares, or the placeholder
    (ranges: :func:`_index_fault`)."""
    n_u, n_y = slot.shape[1:]
    m, u, y = (np.ascontiguousarray(rows[:, c]) for c in range(3))
    k = m.shape[0]
    if not np.array_equal(slot[m, u, y], np.arange(k)):
        return f"a row of level {n} is not where its state's slot points"
    masks = np.flatnonzero(_filled(rules) == n)
    named = slot[masks]
    shares = _shares()[masks & ((1 << N_UPPER) - 1)]
    want = (masks[:, None] * n_u + shares)[:, :, None] * n_y + np.arange(n_y)
    state = np.append((m * n_u + u) * n_y + y, -1)  # (-1: the placeholder's)
    if (state[named] != np.where(named < k, want, -1)).any():
        return f"a slot of level {n} names the row of another state"
    return None


def _lengths(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """The stored length of each vector on columns ``lo..hi`` (padded, 0 when empty)."""
    from .target import STEP  # numba: not on every start

    return np.where(hi >= lo, -(-(hi - lo + 1) // STEP) * STEP, 0)


def _level_size(rows: np.ndarray) -> int:
    """The number of values of a level whose (checked) index is ``rows``."""
    if rows.shape[0] == 0:
        return 0
    return int(rows[-1, 5] + _lengths(rows[-1:, 3], rows[-1:, 4])[0])


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
