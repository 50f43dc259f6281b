"""The table file format: one file per rule set, checked when loaded, written atomically.

Layout: one header line of JSON, then the raw little-endian float64 values in C order::

    {"format": "yahtzee-table", "version": 1, "rules": "official", "fingerprint": "...",
     "shape": [8192, 64, 2], "dtype": "<f8", "sha256": "..."}\\n<data>

The same layout holds the per-state figures of the "why" of advice
(:mod:`solver.moments`, format ``yahtzee-moments``, shape ``table shape + [4]``), whose
header also names the checksum of the table they were computed from (``table_sha256``):
a :class:`FileKind` says which of the two a file is and how its values are checked.

``fingerprint`` hashes the rule set's data (score tables, Joker, bonuses), so a table
built under a changed rule definition is refused, not silently used.

Reading checks before it reads: the path must be a regular file, the header (at most
4 KB) must be well formed and match the rules, and the file size must be exactly the
header plus the table, all before the body is read (a wrong file of any size costs one
4 KB read). The body is then read into a bounded buffer, its checksum compared, and its
values checked: finite and not negative where a state can occur, NaN elsewhere.
Writing goes through :func:`solver.files.atomic_write`.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from io import BufferedReader
from pathlib import Path
from typing import IO, Any

import numpy as np

from ..errors import (
    CorruptTableError,
    MissingTableError,
    ReadError,
    TableError,
    WriteError,
    shown,
    shown_path,
)
from ..game.rules import RULE_NAMES, RuleSet
from ..game.states import reachable_states
from .files import atomic_write, check_target, open_regular, remove_stale_temporaries

MAGIC = "yahtzee-table"
VERSION = 1
_MAX_HEADER = 4096
_HEADER_FIELDS = {"format": str, "version": int, "rules": str, "fingerprint": str,
                  "shape": list, "dtype": str, "sha256": str}


@dataclass(frozen=True)
class FileKind:
    """One kind of file in the table format: its ``magic`` (the header's ``format``), its
    ``version``, what it is called in messages (``what``), the shape of its array for a
    rule set, extra header fields (name -> type), how its values are checked
    (``check(values, rules, unusable)``) and the command that builds it."""

    magic: str
    version: int
    what: str
    shape: Callable[[RuleSet], tuple[int, ...]]
    check: Callable[[np.ndarray, RuleSet, Any], None]
    build: Callable[[str, Path | None], str]
    extra_fields: tuple[tuple[str, type], ...] = ()


def rules_fingerprint(rules: RuleSet) -> str:
    """Short hash of everything in ``rules`` that changes the values of the table."""
    h = hashlib.sha256()
    h.update(json.dumps([rules.name, [b.name for b in rules.boxes], rules.rolls_per_turn,
                         rules.upper_bonus, rules.yahtzee_bonus, rules.joker,
                         rules.yahtzee_box]).encode())
    for array in (rules.scores, rules.joker_tier, rules.joker_points):
        h.update(np.ascontiguousarray(array, dtype="<i8").tobytes())
    return h.hexdigest()[:16]


def _build_command(rules_name: str, path: Path | None) -> str:
    out = f" --out {shown_path(path)}" if path is not None else ""
    return f"yahtzee solve --rules {rules_name}{out}"


class _NotATable(Exception):
    """The file is not a yahtzee table at all (no usable header)."""


def parse_header(head: bytes, kind: FileKind | None = None) -> dict[str, Any]:
    """The checked header from the first bytes of a file (at most 4 KB are looked at) of
    ``kind`` (default: a table).

    Raises :class:`_NotATable` (no header line, not JSON, not our format) or
    :class:`CorruptTableError` (our format, but a field is malformed).
    """
    kind = kind or TABLE
    end = head.find(b"\n", 0, _MAX_HEADER)
    if end < 0:
        raise _NotATable("no header line")
    line = head[:end]
    if line.count(b"[") + line.count(b"{") > 16:  # nesting and long lists: not ours
        raise _NotATable("not a yahtzee table file")
    try:
        header = json.loads(line)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise _NotATable("unreadable header") from None
    if not isinstance(header, dict) or header.get("format") != kind.magic:
        raise _NotATable(f"not a yahtzee {kind.what} file")
    for key, field_type in (*_HEADER_FIELDS.items(), *kind.extra_fields):
        value = header.get(key)
        if not isinstance(value, field_type) or isinstance(value, bool):
            raise CorruptTableError(f"header field {key!r} is {_short(value)}, "
                                    f"expected a {field_type.__name__}")
    shape = header["shape"]
    if not 1 <= len(shape) <= 4 or not all(type(n) is int and 0 < n < 2**40 for n in shape):
        raise CorruptTableError(f"header field 'shape' is {_short(shape)}")
    return header


def _short(value: object, limit: int = 40) -> str:
    text = json.dumps(value) if not isinstance(value, bytes) else repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def read_header(path: Path | str, kind: FileKind | None = None) -> dict[str, Any] | None:
    """The checked header of the regular file at ``path``, or None when it is not a
    yahtzee file of ``kind`` (default: a table; missing, not a regular file, no or
    malformed header). Reads 4 KB."""
    try:
        with open_regular(Path(path)) as f:
            return parse_header(f.read(_MAX_HEADER), kind)
    except (OSError, ReadError, TableError, _NotATable):
        return None


def is_table_of(path: Path | str, rules: RuleSet, kind: FileKind | None = None) -> bool:
    """True when ``path`` holds a table file (or a file of ``kind``; by its header) of
    the rule set ``rules``."""
    header = read_header(path, kind)
    return header is not None and header["rules"] == rules.name


def write_table(path: Path | str, rules: RuleSet, values: np.ndarray, *,
                force: bool = False, kind: FileKind | None = None,
                extra: dict[str, Any] | None = None) -> None:
    """Write ``values`` for ``rules`` to ``path`` atomically (temporary file + rename):
    a table, or a file of ``kind`` with the ``extra`` header fields.

    An existing file is replaced only when it is a file of the same kind and rules (a
    rebuild) or empty, or with ``force``; see :func:`solver.files.atomic_write`. Raises
    :class:`~solver.errors.WriteError`.
    """
    kind = kind or TABLE
    data = np.ascontiguousarray(values, dtype="<f8")
    header = {"format": kind.magic, "version": kind.version, "rules": rules.name,
              "fingerprint": rules_fingerprint(rules), "shape": list(data.shape),
              "dtype": "<f8", "sha256": hashlib.sha256(data.data).hexdigest(), **(extra or {})}

    def write(out: IO[bytes]) -> None:
        out.write((json.dumps(header) + "\n").encode())
        out.write(data.data)

    atomic_write(path, write, force=force,
                 replaceable=lambda p: is_table_of(p, rules, kind))


def check_table_target(path: Path | str, rules: RuleSet, *, force: bool = False) -> None:
    """Raise :class:`~solver.errors.WriteError` now if :func:`write_table` would refuse."""
    check_target(path, force=force, replaceable=lambda p: is_table_of(p, rules))


def _open_file(path: Path, rules: RuleSet, kind: FileKind) -> BufferedReader:
    """The regular file at ``path`` opened for reading; each refusal says what to do."""
    if "\0" in str(path):
        raise TableError(f"cannot read table {shown(path)}: a path cannot hold a NUL character")
    try:
        return open_regular(path)
    except FileNotFoundError:
        raise MissingTableError(f"no {kind.what} for rules {rules.name!r} at "
                                f"{shown_path(path)}; build it with: "
                                f"{kind.build(rules.name, path)}") from None
    except ReadError as exc:
        raise TableError(f"{exc}; give the path of a {kind.what} file, or build the "
                         f"{rules.name} {kind.what} with: {kind.build(rules.name, None)}"
                         ) from None
    except OSError as exc:
        raise TableError(f"cannot read {kind.what} {shown_path(path)}: "
                         f"{exc.strerror or exc}") from None


def read_table(path: Path | str, rules: RuleSet, *, kind: FileKind | None = None,
               expect: dict[str, Any] | None = None) -> np.ndarray:
    """Load and check the table of ``rules`` (or the file of ``kind``) at ``path``; a
    read-only float64 array. ``expect`` names header fields that must hold these values
    (the table a file of figures was computed from).

    Raises :class:`MissingTableError` (nothing there), :class:`CorruptTableError` (a
    table of other rules, truncated, corrupt, or with impossible values) or
    :class:`TableError` (not a regular file, unreadable); each message says what to do.
    """
    kind = kind or TABLE
    path = Path(path)
    f = _open_file(path, rules, kind)
    with f:
        try:
            return _read_checked(f, path, rules, kind, expect or {})
        except OSError as exc:
            raise TableError(f"cannot read {kind.what} {shown_path(path)}: "
                             f"{exc.strerror or exc}") from None


def _checked_header(f: BufferedReader, path: Path, rules: RuleSet, kind: FileKind,
                    expect: dict[str, Any], sized: bool = False) -> tuple[dict[str, Any], int]:
    """The header of the open file, checked (rules, version, fingerprint, shape, the
    ``expect`` fields, the file's size), and where the data starts. ``sized``: the
    shape is the header's own (one axis), checked against the file's size only."""
    what = kind.what

    def unusable(why: str) -> CorruptTableError:
        return CorruptTableError(f"{what} {shown_path(path)} is unusable ({why}); rebuild it "
                                 f"with: {kind.build(rules.name, path)}")

    head = f.read(_MAX_HEADER)
    try:
        header = parse_header(head, kind)
    except _NotATable as exc:
        raise CorruptTableError(
            f"{shown_path(path)} is not a yahtzee {what} file ({exc}); give the path of a "
            f"{what} file, or build the {rules.name} {what} with: {kind.build(rules.name, None)}"
        ) from None
    except CorruptTableError as exc:
        raise unusable(str(exc)) from None
    held = header["rules"]
    if held != rules.name:
        use = (f"give --rules {held} to use it, or " if held in RULE_NAMES else "")
        raise CorruptTableError(
            f"{what} {shown_path(path)} holds rules {_short(held)}, not {rules.name!r}; "
            f"{use}rebuild the {rules.name} {what} in the cache with: "
            f"{kind.build(rules.name, None)}")
    if header["version"] != kind.version:
        raise unusable(f"format version {_short(header['version'])}, expected {kind.version}")
    if header["fingerprint"] != rules_fingerprint(rules):
        raise unusable("built under a different definition of the rules")
    if sized and len(header["shape"]) != 1:
        raise unusable(f"shape {_short(header['shape'])}, expected one axis")
    shape = tuple(header["shape"]) if sized else kind.shape(rules)
    if tuple(header["shape"]) != shape:
        raise unusable(f"shape {_short(header['shape'])}, expected {list(shape)}")
    if header["dtype"] != "<f8":
        raise unusable(f"dtype {_short(header['dtype'])}, expected \"<f8\" (little-endian "
                       f"float64)")
    for key, value in expect.items():
        if header.get(key) != value:
            raise unusable(f"computed from another {key.removesuffix('_sha256')}")
    start = head.index(b"\n") + 1
    expected_bytes = int(np.prod(shape)) * 8
    size = os.fstat(f.fileno()).st_size - start
    if size != expected_bytes:
        why = "truncated" if size < expected_bytes else "extra bytes after the table"
        raise unusable(f"{size} data bytes, expected {expected_bytes}: {why}")
    f.seek(start)
    return header, start


def _read_checked(f: BufferedReader, path: Path, rules: RuleSet, kind: FileKind,
                  expect: dict[str, Any]) -> np.ndarray:
    what = kind.what

    def unusable(why: str) -> CorruptTableError:
        return CorruptTableError(f"{what} {shown_path(path)} is unusable ({why}); rebuild it "
                                 f"with: {kind.build(rules.name, path)}")

    header, _start = _checked_header(f, path, rules, kind, expect)
    shape = kind.shape(rules)
    count = int(np.prod(shape))
    expected_bytes = count * 8
    values = np.empty(count, dtype="<f8")
    buffer = memoryview(values.data).cast("B")
    have = 0
    while have < expected_bytes:
        n = f.readinto(buffer[have:])
        if not n:
            raise unusable(f"{have} data bytes, expected {expected_bytes}: truncated")
        have += n
    if f.read(1):
        raise unusable("extra bytes after the table: the file grew while read")
    if hashlib.sha256(buffer).hexdigest() != header["sha256"]:
        raise unusable("checksum mismatch")
    values = values.reshape(shape)
    kind.check(values, rules, unusable)
    values.flags.writeable = False
    return values


_CHUNK = 1 << 24
"""Bytes read at a time (one read of a whole level cost more system time, measured)."""


class DataFile:
    """The data of a file in the table format, held open to read parts of it by their
    offset into memory (``read_into``), never mapped: a file cut, changed or replaced by
    another program meanwhile gives a short read or other bytes (which the caller's
    checks refuse), never the fault that touching a mapped page past the end of a file
    is (a Bus error). The file is closed when this object is let go (or ``close()``)."""

    def __init__(self, f: BufferedReader, start: int, count: int) -> None:
        self.start, self.count = start, count
        self._file = open(os.dup(f.fileno()), "rb", buffering=0)  # noqa: SIM115
        self._lock = threading.Lock()
        self._closer = weakref.finalize(self, self._file.close)

    def read_into(self, first: int, out: np.ndarray) -> int:
        """Read values ``first``, ``first + 1``... of the data into ``out`` (a contiguous
        float64 array); returns how many were read whole (fewer than ``out.size`` when
        the file now ends before them). Raises ``OSError``."""
        buffer = out.data.cast("B")
        have = 0
        with self._lock:
            self._file.seek(self.start + 8 * first)
            while have < len(buffer):
                n = self._file.readinto(buffer[have:have + _CHUNK])
                if not n:
                    break
                have += n
        return have // 8

    def close(self) -> None:
        self._closer()


def open_data(path: Path | str, rules: RuleSet, *, kind: FileKind,
              expect: dict[str, Any] | None = None) -> tuple[dict[str, Any], DataFile]:
    """The checked header of the file of ``kind`` at ``path`` (one axis of the header's
    length) and its data, open to be read in parts (:class:`DataFile`). The header and
    the size are checked as :func:`read_table` checks them; nothing of the data is read
    (the caller checks what it reads). Raises as :func:`read_table`."""
    path = Path(path)
    f = _open_file(path, rules, kind)
    with f:
        try:
            header, start = _checked_header(f, path, rules, kind, expect or {}, sized=True)
            return header, DataFile(f, start, int(header["shape"][0]))
        except OSError as exc:
            raise TableError(f"cannot read {kind.what} {shown_path(path)}: "
                             f"{exc.strerror or exc}") from None


def _check_values(values: np.ndarray, rules: RuleSet, unusable: Any) -> None:
    """Finite, non-negative values where a state can occur; NaN where none can."""
    reach = reachable_states(rules)
    live = values[reach]
    bad = ~(np.isfinite(live) & (live >= 0))
    if bad.any():
        raise unusable(f"{int(bad.sum())} reachable states hold NaN, infinite or negative "
                       f"values")
    if not np.isnan(values[~reach]).all():
        raise unusable("values where no state can occur")


TABLE = FileKind(MAGIC, VERSION, "table", lambda rules: rules.table_shape, _check_values,
                 _build_command)
"""A solved table (``E`` of every state)."""


class PerTableCache:
    """What was read or computed for a table, once per process: ``get(table, path,
    make)`` returns ``make()``'s result for this very ``table`` object and cache file
    ``path``, computing it at most once (thread-safe); ``clear()`` forgets it all."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._items: dict[tuple[int, str], tuple[Any, Any]] = {}

    def get(self, table: Any, path: Path | str, make: Callable[[], Any]) -> Any:
        key = (id(table), os.path.abspath(path))
        with self._lock:
            cached = self._items.get(key)
            if cached is not None and cached[0] is table:
                return cached[1]
            result = make()
            self._items[key] = (table, result)
            return result

    def has(self, table: Any, path: Path | str) -> bool:
        """True when ``get(table, path, ...)`` answers without calling ``make``."""
        with self._lock:
            cached = self._items.get((id(table), os.path.abspath(path)))
            return cached is not None and cached[0] is table

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


def cached_values(path: Path | str, rules: RuleSet, kind: FileKind, checksum: str,
                  compute: Callable[[], np.ndarray], *, missing: str, force: bool,
                  note: Callable[[str], None] | None = None) -> np.ndarray:
    """The values of a cache file of ``kind`` computed from the table whose checksum is
    ``checksum`` (header field ``table_sha256``): read from ``path`` when it fits, else
    ``compute()``d and written (``force``: over any regular file, else only over a file
    of ``kind`` and ``rules``). ``note`` says why it is computed (``missing`` when there
    is no file) and when it cannot be written (the values computed are then used)."""
    remove_stale_temporaries(path)
    if os.path.lexists(path):
        try:
            return read_table(path, rules, kind=kind, expect={"table_sha256": checksum})
        except TableError as exc:
            if note is not None:
                why = str(exc).split("; rebuild it", 1)[0]
                note(f"note: {why}; computing them again")
    elif note is not None:
        note(missing)
    values = compute()
    try:
        write_table(path, rules, values, force=force, kind=kind,
                    extra={"table_sha256": checksum})
    except WriteError as exc:
        if note is not None:
            note(f"note: {exc}; using the figures computed in memory")
    return values
