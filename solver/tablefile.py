"""The table file format: one file per rule set, checked when loaded, written atomically.

Layout: one header line of JSON, then the raw little-endian float64 values in C order::

    {"format": "yahtzee-table", "version": 1, "rules": "official", "fingerprint": "...",
     "shape": [8192, 64, 2], "dtype": "<f8", "sha256": "..."}\\n<data>

``fingerprint`` hashes the rule set's data (score tables, Joker, bonuses), so a table
built under a changed rule definition is refused, not silently used.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import IO

import numpy as np

from .errors import CorruptTableError, MissingTableError, TableError
from .rules import RuleSet

MAGIC = "yahtzee-table"
VERSION = 1
_MAX_HEADER = 4096


def rules_fingerprint(rules: RuleSet) -> str:
    """Short hash of everything in ``rules`` that changes the values of the table."""
    h = hashlib.sha256()
    h.update(json.dumps([rules.name, [b.name for b in rules.boxes], rules.rolls_per_turn,
                         rules.upper_bonus, rules.yahtzee_bonus, rules.joker,
                         rules.yahtzee_box]).encode())
    for array in (rules.scores, rules.joker_tier, rules.joker_points):
        h.update(np.ascontiguousarray(array, dtype="<i8").tobytes())
    return h.hexdigest()[:16]


def _rebuild_hint(rules: RuleSet, path: Path) -> str:
    return f"rebuild it with: yahtzee solve --rules {rules.name} --out {path}"


def check_writable(path: Path | str) -> None:
    """Raise :class:`TableError` now if a table cannot be written at ``path``."""
    path = Path(path)
    for parent in (path.parent, *path.parent.parents):
        if parent.exists():
            if not parent.is_dir():
                raise TableError(f"cannot write table to {path}: {parent} is not a folder")
            break
    if path.is_dir():
        raise TableError(f"cannot write table to {path}: it is a folder")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise TableError(f"cannot write table to {path}: {exc.strerror or exc}") from None
    os.close(fd)
    os.unlink(tmp)


def atomic_write(path: Path | str, write: Callable[[IO[bytes]], None]) -> None:
    """Call ``write(file)`` on a temporary file beside ``path``, then rename it to ``path``.

    An error or an interruption leaves no file at ``path`` (or the old one, intact) and
    no temporary file; an ``OSError`` becomes a :class:`TableError` naming ``path``.
    """
    path = Path(path)
    check_writable(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            write(out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise TableError(f"cannot write {path}: {exc.strerror or exc}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_table(path: Path | str, rules: RuleSet, values: np.ndarray) -> None:
    """Write ``values`` for ``rules`` to ``path`` atomically (temporary file + rename)."""
    data = np.ascontiguousarray(values, dtype="<f8")
    header = {"format": MAGIC, "version": VERSION, "rules": rules.name,
              "fingerprint": rules_fingerprint(rules), "shape": list(data.shape),
              "dtype": "<f8", "sha256": hashlib.sha256(data.tobytes()).hexdigest()}

    def write(out: IO[bytes]) -> None:
        out.write((json.dumps(header) + "\n").encode())
        out.write(data.tobytes())

    atomic_write(path, write)


def read_table(path: Path | str, rules: RuleSet) -> np.ndarray:
    """Load and check the table of ``rules`` at ``path``; a read-only float64 array."""
    path = Path(path)
    if not path.is_file():
        raise MissingTableError(
            f"no table for rules {rules.name!r} at {path}; {_rebuild_hint(rules, path)}")
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise TableError(f"cannot read table {path}: {exc.strerror or exc}") from None
    end = raw.find(b"\n", 0, _MAX_HEADER)

    def corrupt(why: str) -> CorruptTableError:
        return CorruptTableError(f"table {path} is unusable ({why}); {_rebuild_hint(rules, path)}")

    if end < 0:
        raise corrupt("no header")
    try:
        header = json.loads(raw[:end])
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise corrupt("unreadable header") from None
    if not isinstance(header, dict) or header.get("format") != MAGIC:
        raise corrupt("not a yahtzee table file")
    if header.get("version") != VERSION:
        raise corrupt(f"format version {header.get('version')}, expected {VERSION}")
    if header.get("rules") != rules.name:
        raise corrupt(f"it holds rules {header.get('rules')!r}, not {rules.name!r}")
    if header.get("fingerprint") != rules_fingerprint(rules):
        raise corrupt("built under a different definition of the rules")
    if tuple(header.get("shape", ())) != rules.table_shape or header.get("dtype") != "<f8":
        raise corrupt(f"shape {header.get('shape')}, expected {list(rules.table_shape)}")
    body = memoryview(raw)[end + 1:]
    expected_bytes = int(np.prod(rules.table_shape)) * 8
    if len(body) != expected_bytes:
        raise corrupt(f"{len(body)} data bytes, expected {expected_bytes}: truncated")
    if hashlib.sha256(body).hexdigest() != header.get("sha256"):
        raise corrupt("checksum mismatch")
    values = np.frombuffer(body, dtype="<f8").reshape(rules.table_shape)
    values.flags.writeable = False
    return values
