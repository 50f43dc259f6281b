"""The table file format: one file per rule set, checked when loaded, written atomically.

Layout: one header line of JSON, then the raw little-endian float64 values in C order::

    {"format": "yahtzee-table", "version": 1, "rules": "official", "fingerprint": "...",
     "shape": [8192, 64, 2], "dtype": "<f8", "sha256": "..."}\\n<data>

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
from io import BufferedReader
from pathlib import Path
from typing import IO, Any

import numpy as np

from ..errors import CorruptTableError, MissingTableError, ReadError, TableError, shown
from ..game.rules import RULE_NAMES, RuleSet
from .files import atomic_write, check_target, open_regular

MAGIC = "yahtzee-table"
VERSION = 1
_MAX_HEADER = 4096
_HEADER_FIELDS = {"format": str, "version": int, "rules": str, "fingerprint": str,
                  "shape": list, "dtype": str, "sha256": str}


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
    out = f" --out {path}" if path is not None else ""
    return f"yahtzee solve --rules {rules_name}{out}"


class _NotATable(Exception):
    """The file is not a yahtzee table at all (no usable header)."""


def parse_header(head: bytes) -> dict[str, Any]:
    """The checked header from the first bytes of a file (at most 4 KB are looked at).

    Raises :class:`_NotATable` (no header line, not JSON, not our format) or
    :class:`CorruptTableError` (our format, but a field is malformed).
    """
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
    if not isinstance(header, dict) or header.get("format") != MAGIC:
        raise _NotATable("not a yahtzee table file")
    for key, kind in _HEADER_FIELDS.items():
        value = header.get(key)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise CorruptTableError(f"header field {key!r} is {_short(value)}, "
                                    f"expected a {kind.__name__}")
    shape = header["shape"]
    if not 1 <= len(shape) <= 4 or not all(type(n) is int and 0 < n < 2**40 for n in shape):
        raise CorruptTableError(f"header field 'shape' is {_short(shape)}")
    return header


def _short(value: object, limit: int = 40) -> str:
    text = json.dumps(value) if not isinstance(value, bytes) else repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def read_header(path: Path | str) -> dict[str, Any] | None:
    """The checked header of the regular file at ``path``, or None when it is not a
    yahtzee table (missing, not a regular file, no or malformed header). Reads 4 KB."""
    try:
        with open_regular(Path(path)) as f:
            return parse_header(f.read(_MAX_HEADER))
    except (OSError, ReadError, TableError, _NotATable):
        return None


def is_table_of(path: Path | str, rules: RuleSet) -> bool:
    """True when ``path`` holds a table file (by its header) of the rule set ``rules``."""
    header = read_header(path)
    return header is not None and header["rules"] == rules.name


def write_table(path: Path | str, rules: RuleSet, values: np.ndarray, *,
                force: bool = False) -> None:
    """Write ``values`` for ``rules`` to ``path`` atomically (temporary file + rename).

    An existing file is replaced only when it is a table of the same rules (a rebuild)
    or empty, or with ``force``; see :func:`solver.files.atomic_write`. Raises
    :class:`~solver.errors.WriteError`.
    """
    data = np.ascontiguousarray(values, dtype="<f8")
    header = {"format": MAGIC, "version": VERSION, "rules": rules.name,
              "fingerprint": rules_fingerprint(rules), "shape": list(data.shape),
              "dtype": "<f8", "sha256": hashlib.sha256(data.data).hexdigest()}

    def write(out: IO[bytes]) -> None:
        out.write((json.dumps(header) + "\n").encode())
        out.write(data.data)

    atomic_write(path, write, force=force, replaceable=lambda p: is_table_of(p, rules))


def check_table_target(path: Path | str, rules: RuleSet, *, force: bool = False) -> None:
    """Raise :class:`~solver.errors.WriteError` now if :func:`write_table` would refuse."""
    check_target(path, force=force, replaceable=lambda p: is_table_of(p, rules))


def read_table(path: Path | str, rules: RuleSet) -> np.ndarray:
    """Load and check the table of ``rules`` at ``path``; a read-only float64 array.

    Raises :class:`MissingTableError` (nothing there), :class:`CorruptTableError` (a
    table of other rules, truncated, corrupt, or with impossible values) or
    :class:`TableError` (not a regular file, unreadable); each message says what to do.
    """
    path = Path(path)
    if "\0" in str(path):
        raise TableError(f"cannot read table {shown(path)}: a path cannot hold a NUL character")
    try:
        f = open_regular(path)
    except FileNotFoundError:
        raise MissingTableError(f"no table for rules {rules.name!r} at {path}; build it "
                                f"with: {_build_command(rules.name, path)}") from None
    except ReadError as exc:
        raise TableError(f"{exc}; give the path of a table file, or build the "
                         f"{rules.name} table with: {_build_command(rules.name, None)}") from None
    except OSError as exc:
        raise TableError(f"cannot read table {path}: {exc.strerror or exc}") from None
    with f:
        try:
            return _read_checked(f, path, rules)
        except OSError as exc:
            raise TableError(f"cannot read table {path}: {exc.strerror or exc}") from None


def _read_checked(f: BufferedReader, path: Path, rules: RuleSet) -> np.ndarray:
    def unusable(why: str) -> CorruptTableError:
        return CorruptTableError(f"table {path} is unusable ({why}); rebuild it with: "
                                 f"{_build_command(rules.name, path)}")

    head = f.read(_MAX_HEADER)
    try:
        header = parse_header(head)
    except _NotATable as exc:
        raise CorruptTableError(
            f"{path} is not a yahtzee table file ({exc}); give the path of a table file, "
            f"or build the {rules.name} table with: {_build_command(rules.name, None)}"
        ) from None
    except CorruptTableError as exc:
        raise unusable(str(exc)) from None
    held = header["rules"]
    if held != rules.name:
        use = (f"give --rules {held} to use it, or " if held in RULE_NAMES else "")
        raise CorruptTableError(
            f"table {path} holds rules {_short(held)}, not {rules.name!r}; {use}rebuild the "
            f"{rules.name} table in the cache with: {_build_command(rules.name, None)}")
    if header["version"] != VERSION:
        raise unusable(f"format version {_short(header['version'])}, expected {VERSION}")
    if header["fingerprint"] != rules_fingerprint(rules):
        raise unusable("built under a different definition of the rules")
    if tuple(header["shape"]) != rules.table_shape or header["dtype"] != "<f8":
        raise unusable(f"shape {_short(header['shape'])}, expected {list(rules.table_shape)}")
    start = head.index(b"\n") + 1
    count = int(np.prod(rules.table_shape))
    expected_bytes = count * 8
    size = os.fstat(f.fileno()).st_size - start
    if size != expected_bytes:
        why = "truncated" if size < expected_bytes else "extra bytes after the table"
        raise unusable(f"{size} data bytes, expected {expected_bytes}: {why}")
    values = np.empty(count, dtype="<f8")
    buffer = memoryview(values.data).cast("B")
    have = min(len(head) - start, expected_bytes)
    buffer[:have] = head[start:start + have]
    while have < expected_bytes:
        n = f.readinto(buffer[have:])
        if not n:
            raise unusable(f"{have} data bytes, expected {expected_bytes}: truncated")
        have += n
    if f.read(1):
        raise unusable("extra bytes after the table: the file grew while read")
    if hashlib.sha256(buffer).hexdigest() != header["sha256"]:
        raise unusable("checksum mismatch")
    values = values.reshape(rules.table_shape)
    _check_values(values, rules, unusable)
    values.flags.writeable = False
    return values


def _check_values(values: np.ndarray, rules: RuleSet, unusable: Any) -> None:
    """Finite, non-negative values where a state can occur; NaN where none can."""
    from ..game.states import reachable_states

    reach = reachable_states(rules)
    live = values[reach]
    bad = ~(np.isfinite(live) & (live >= 0))
    if bad.any():
        raise unusable(f"{int(bad.sum())} reachable states hold NaN, infinite or negative "
                       f"values")
    if not np.isnan(values[~reach]).all():
        raise unusable("values where no state can occur")
