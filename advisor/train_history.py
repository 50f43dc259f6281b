"""The practice history: one line per ``yahtzee train`` session, appended, never clobbered.

The file is JSON Lines: a first line ``{"format": "yahtzee-train-history", "version":
1}``, then one JSON object per session (its date and the figures of
:meth:`advisor.train.Session.summary_json`). Appending reads the file whole, checks
every line, and writes it back with the new line through
:func:`solver.formats.files.atomic_write` (atomic and durable), holding an exclusive
lock on the file meanwhile (a second session waits, then reads what the first wrote).
A file that is not a history (a game record given by mistake, say) is refused and left
as it is; so is a history too large to be one (over :data:`MAX_BYTES`).

Default place: ``train-history.jsonl`` in the user's data folder
(``$XDG_DATA_HOME/yahtzee-solver``, by default ``~/.local/share/yahtzee-solver``;
``~/Library/Application Support/yahtzee-solver`` on macOS; ``%APPDATA%`` on Windows).
"""

from __future__ import annotations

import datetime
import errno
import fcntl
import json
import os
import stat
import sys
from pathlib import Path
from typing import Any

from solver.errors import WriteError, YahtzeeError, shown
from solver.formats.files import atomic_write, check_target, file_kind, read_limited

FORMAT = "yahtzee-train-history"
VERSION = 1
FILE_NAME = "train-history.jsonl"
MAX_BYTES = 10_000_000
"""Largest history read (a session line takes about 600 bytes)."""
_ATTEMPTS = 5


class HistoryError(YahtzeeError):
    """A history file that cannot be read, or is not a history."""


def user_data_dir() -> Path:
    """The platform's per-user data folder for this program."""
    name = "yahtzee-solver"
    if sys.platform == "win32":
        base = os.environ.get("APPDATA") or str(Path.home() / "AppData" / "Roaming")
        return Path(base) / name
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / name
    xdg = os.environ.get("XDG_DATA_HOME", "")
    base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".local" / "share"
    return base / name


def default_history_path() -> Path:
    return user_data_dir() / FILE_NAME


def _header() -> str:
    return json.dumps({"format": FORMAT, "version": VERSION})


def parse_history(text: str, path: Path | str = "the history") -> list[dict[str, Any]]:
    """The sessions of a history file's text; :class:`HistoryError` when it is not one."""
    lines = text.splitlines()
    if not lines:
        return []
    try:
        head = json.loads(lines[0])
    except ValueError:
        head = None
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise HistoryError(f"{shown(path)} is not a training history (its first line is not "
                           f"the history header); give another file with --history")
    if head.get("version") != VERSION:
        raise HistoryError(f"{shown(path)}: history version {shown(head.get('version'), 20)}, "
                           f"this program reads version {VERSION}")
    sessions = []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            entry = None
        if not isinstance(entry, dict) or not isinstance(entry.get("mean_loss"), int | float):
            raise HistoryError(f"{shown(path)}, line {number}: not a session of the history; "
                               f"the file is left as it is (give another file with --history)")
        sessions.append(entry)
    return sessions


def read_history(path: Path | str) -> list[dict[str, Any]]:
    """The sessions in the history at ``path`` (none when it does not exist)."""
    try:
        data = read_limited(path, MAX_BYTES, "training history")
    except FileNotFoundError:
        return []
    except (OSError, YahtzeeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise HistoryError(f"cannot read the history {shown(path)}: {reason}") from None
    return parse_history(_decoded(data, path), path)


def _decoded(data: bytes, path: Path | str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise HistoryError(f"{shown(path)} is not a training history (not UTF-8 text); "
                           f"give another file with --history") from None


def check_history(path: Path | str) -> list[dict[str, Any]]:
    """Raise before a session starts unless a session can be appended to ``path``
    (a history, or nothing yet, in a folder we may write); the sessions there."""
    if os.path.islink(path):
        raise WriteError(f"refusing to write to {shown(path)}: it is a symbolic link, which is "
                         f"never replaced")
    check_target(path, force=True)  # a folder, a device: refused
    return read_history(path)


def append_session(path: Path | str, summary: dict[str, Any],
                   when: datetime.datetime | None = None) -> list[dict[str, Any]]:
    """Append one session (``summary`` with its date, ``when`` or now) to the history at
    ``path``, created when missing; returns every session, the new one last. Raises
    :class:`HistoryError` (not a history) or :class:`~solver.errors.WriteError`."""
    path = Path(path)
    stamp = (when or datetime.datetime.now().astimezone()).isoformat(timespec="seconds")
    entry = {"date": stamp, **summary}
    line = json.dumps(entry, separators=(",", ":"))
    for _ in range(_ATTEMPTS):
        fd = _open_locked(path)
        try:
            if fd is None:
                text, sessions = "", []
            else:
                text = _decoded(_read_fd(fd, path), path)
                sessions = parse_history(text, path)
            if not text:
                text = _header() + "\n"
            elif not text.endswith("\n"):
                text += "\n"
            try:
                atomic_write(path, (text + line + "\n").encode("utf-8"), force=True)
            except WriteError:
                if fd is None and os.path.lexists(path):
                    continue  # another session created it meanwhile: read it, then append
                raise
            return [*sessions, entry]
        finally:
            if fd is not None:
                os.close(fd)
    raise WriteError(f"cannot write {shown(path)}: it keeps being replaced by another program")


def _open_locked(path: Path) -> int | None:
    """A descriptor of the regular file at ``path``, exclusively locked and still at
    ``path``; None when nothing is there."""
    for _ in range(_ATTEMPTS):
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
        except FileNotFoundError:
            return None
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise WriteError(f"refusing to write to {shown(path)}: it is a symbolic link, "
                                 f"which is never replaced") from None
            raise HistoryError(f"cannot read the history {shown(path)}: "
                               f"{exc.strerror or exc}") from None
        try:
            mine = os.fstat(fd)
            if not stat.S_ISREG(mine.st_mode):
                raise WriteError(f"refusing to write to {shown(path)}: it is "
                                 f"{file_kind(mine.st_mode)}; give a file name")
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
            except OSError as exc:  # a file system without locks: go on unlocked
                if exc.errno not in (errno.ENOLCK, errno.EOPNOTSUPP, errno.EINVAL):
                    raise
            now = os.lstat(path)
        except FileNotFoundError:
            os.close(fd)
            continue
        except BaseException:
            os.close(fd)
            raise
        if (now.st_dev, now.st_ino) == (mine.st_dev, mine.st_ino):
            return fd
        os.close(fd)  # replaced while we waited for the lock: open the new one
    raise WriteError(f"cannot write {shown(path)}: it keeps being replaced by another program")


def _read_fd(fd: int, path: Path) -> bytes:
    size = os.fstat(fd).st_size
    if size > MAX_BYTES:
        raise HistoryError(f"the history {shown(path)} is too large ({size:,} bytes; at most "
                           f"{MAX_BYTES:,}); start another with --history")
    chunks, total = [], 0
    while chunk := os.pread(fd, 1 << 16, total):
        chunks.append(chunk)
        total += len(chunk)
        if total > MAX_BYTES:
            raise HistoryError(f"the history {shown(path)} is too large (more than "
                               f"{MAX_BYTES:,} bytes); start another with --history")
    return b"".join(chunks)
