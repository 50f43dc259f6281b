"""Writing files without destroying what is at the path: checked first, written atomically.

Every file the program writes (tables, exports, large target tables) goes through
:func:`atomic_write`:

- The path is checked before any work (:func:`check_target`, no side effect): a symbolic
  link, a folder, a device, a FIFO or a socket is never replaced, even with ``force``; an
  existing regular file is replaced only when it is empty, when ``replaceable(path)``
  says it holds what is about to be rewritten (a table of the same rules, an earlier
  export), or with ``force``.
- A read-only regular file (no write permission bit, or one this user may not write)
  is never replaced either: rewriting it would defeat the permission.
- The data goes to a temporary file ``.<name>.<pid>-<random>.tmp`` beside the path,
  created with mode ``0o666`` minus the umask (like any new file) or, when it replaces a
  file, with that file's mode (and owner, when allowed), flushed to disk, then moved
  into place in one step. A file with several hard links is instead copied over in
  place from the complete temporary file (its space reserved first), so that every
  link sees the new content. An error or Ctrl-C removes the temporary file. A process
  killed with SIGKILL cannot clean up: its temporary file is removed by the next write
  of the same path (or the next read of a cached table, see
  :func:`remove_stale_temporaries`), once the process named in it is gone.
- Missing parent folders are created by the write itself, never by the check.

Every failure is a :class:`~solver.errors.WriteError` naming the path (shortened to 80
characters, :func:`~solver.errors.shown_path`).
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import stat
import time
from collections.abc import Callable
from io import BufferedReader
from pathlib import Path
from typing import BinaryIO

from ..errors import ReadError, WriteError, shown, shown_path

Writer = Callable[[BinaryIO], None]
"""writer(file): writes the whole content to a binary file (streamed, any size)."""
Replaceable = Callable[[Path], bool]
"""replaceable(path): True when the regular file at ``path`` may be rewritten without force."""
BeforeCommit = Callable[[int], None]
"""before_commit(fd): told the descriptor of the complete temporary file just before it
replaces the path (a record file locks it there, see :mod:`advisor.record_file`)."""

TEMP_SUFFIX = ".tmp"
_OWNED_TEMP = re.compile(r"(\d+)-[0-9a-f]+")
_LEGACY_TEMP_AGE = 3600.0
"""Seconds after which a temporary file of the older ``mkstemp`` naming counts as stale."""


def file_kind(mode: int) -> str:
    """``a symbolic link``, ``a folder``, ``a device``... for an ``st_mode``."""
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _names_a_folder(text: str) -> bool:
    return text.endswith(("/", os.sep)) or os.path.basename(text) in ("", ".", "..")


def check_target(path: Path | str, *, force: bool = False,
                 replaceable: Replaceable | None = None,
                 new: bool = False) -> os.stat_result | None:
    """Raise :class:`WriteError` unless a file may be written at ``path``; no side effect.

    Returns the ``lstat`` of the regular file that will be replaced, or None when the
    path is free. See the module docstring for what is refused; with ``new`` anything at
    the path is (a file that must be created, never replaced).
    """
    text = os.fspath(path)
    if not text or _names_a_folder(text):
        raise WriteError(f"cannot write to {shown(text)}: it names a folder; give a file name")
    if "\0" in text:
        raise WriteError(f"cannot write to {shown(text)}: a path cannot hold a NUL character")
    path = Path(text)
    try:
        info = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        _check_folder(path)
        return None
    except OSError as exc:
        raise WriteError(f"cannot write to {shown_path(path)}: {exc.strerror or exc}") from None
    if new:
        raise WriteError(f"refusing to write to {shown_path(path)}: something is already "
                         f"there (a file is created there, never replaced)")
    if not stat.S_ISREG(info.st_mode):
        raise WriteError(f"refusing to write to {shown_path(path)}: it is "
                         f"{file_kind(info.st_mode)}, which is never replaced; give the path "
                         f"of a regular file")
    _check_folder(path)
    if is_read_only(path, info):
        raise WriteError(f"refusing to replace {shown_path(path)}: it is read-only (mode "
                         f"{stat.S_IMODE(info.st_mode):04o}); make it writable (chmod u+w) "
                         f"to let it be rewritten, or give another path")
    if force or info.st_size == 0 or (replaceable is not None and replaceable(path)):
        return info
    raise WriteError(f"refusing to replace {shown_path(path)}: it holds something else (not "
                     f"what this command writes); give --force to replace it, or another path")


def is_read_only(path: Path, info: os.stat_result) -> bool:
    """True when the regular file at ``path`` (``info``: its lstat) has no write permission
    bit, or this user may not write it (a superuser still respects a mode without any
    write bit, as ``cp`` and editors do)."""
    return not info.st_mode & 0o222 or not os.access(path, os.W_OK, follow_symlinks=False)


def _check_folder(path: Path) -> None:
    """The nearest existing folder above ``path`` must be a folder we may write in."""
    for parent in (path.parent, *path.parent.parents):
        try:
            info = os.stat(parent)
        except (FileNotFoundError, NotADirectoryError):
            continue
        except OSError as exc:
            raise WriteError(f"cannot write to {shown_path(path)}: {shown_path(parent)}: "
                             f"{exc.strerror or exc}") from None
        if not stat.S_ISDIR(info.st_mode):
            raise WriteError(f"cannot write to {shown_path(path)}: {shown_path(parent)} is not "
                             f"a folder")
        if not os.access(parent, os.W_OK | os.X_OK):
            raise WriteError(f"cannot write to {shown_path(path)}: the folder "
                             f"{shown_path(parent)} is not writable")
        return


def open_regular(path: Path | str) -> BufferedReader:
    """Open the regular file at ``path`` for reading (links followed).

    A folder, device, FIFO or socket raises :class:`ReadError` before anything is read
    (a FIFO is opened without waiting for a writer); a missing path raises
    ``FileNotFoundError`` and other failures their ``OSError``.
    """
    info = os.stat(path)
    if not stat.S_ISREG(info.st_mode):
        raise ReadError(f"{shown_path(path)} is {file_kind(info.st_mode)}, not a regular file")
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):  # replaced since the stat
        os.close(fd)
        raise ReadError(f"{shown_path(path)} is {file_kind(mode)}, not a regular file")
    return open(fd, "rb")  # noqa: SIM115  (closed by the caller)


def read_limited(path: Path | str, limit: int, what: str = "file") -> bytes:
    """The bytes of the regular file at ``path``, refused with :class:`ReadError` when it
    is not a regular file (see :func:`open_regular`) or holds more than ``limit`` bytes
    (told by its size, before reading; at most ``limit + 1`` bytes are ever read)."""
    with open_regular(path) as f:
        size = os.fstat(f.fileno()).st_size
        data = f.read(limit + 1) if size <= limit else b""
    if size > limit or len(data) > limit:
        raise ReadError(f"{shown_path(path)} is too large for a {what} "
                        f"({max(size, len(data)):,} bytes; at most {limit:,})")
    return data


def temporary_name(path: Path) -> Path:
    """A fresh temporary file name beside ``path`` that names this process."""
    return path.parent / f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}{TEMP_SUFFIX}"


def _process_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True
    return True


def remove_stale_temporaries(path: Path | str) -> list[Path]:
    """Remove the temporary files of earlier writes of ``path`` whose process is gone
    (killed during a write); returns the files removed. Never raises."""
    path = Path(path)
    prefix = f".{path.name}."
    removed: list[Path] = []
    try:
        entries = list(os.scandir(path.parent))
    except OSError:
        return removed
    for entry in entries:
        name = entry.name
        if not (name.startswith(prefix) and name.endswith(TEMP_SUFFIX)):
            continue
        middle = name[len(prefix):-len(TEMP_SUFFIX)]
        try:
            info = entry.stat(follow_symlinks=False)
            if not stat.S_ISREG(info.st_mode):
                continue
            owner = _OWNED_TEMP.fullmatch(middle)
            if owner is not None:
                stale = not _process_alive(int(owner.group(1)))
            else:  # tempfile.mkstemp names of older versions: no process recorded
                stale = time.time() - info.st_mtime > _LEGACY_TEMP_AGE
            if stale:
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


def atomic_write(path: Path | str, content: bytes | Writer, *, force: bool = False,
                 replaceable: Replaceable | None = None, new: bool = False,
                 before_commit: BeforeCommit | None = None) -> Path:
    """Write ``content`` (bytes, or a :data:`Writer` that streams it) to ``path`` atomically.

    The path is checked first (:func:`check_target` with ``force``, ``replaceable`` and
    ``new``: with ``new`` the file is created, and something appearing at the path
    meanwhile is never replaced).
    A replaced file keeps its mode, owner (when allowed) and hard links (see the module
    docstring). ``before_commit(fd)`` is called with the complete temporary file's
    descriptor just before it replaces the path (not for an in-place copy over a
    hard-linked file, whose descriptor does not change). An error or an interruption
    leaves the old file intact (or no file) and no temporary file; an ``OSError`` becomes
    a :class:`WriteError` naming ``path``. Returns ``path``.
    """
    text = os.fspath(path)
    replaced = check_target(text, force=force, replaceable=replaceable, new=new)
    path = Path(text)
    tmp: Path | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        remove_stale_temporaries(path)
        tmp = temporary_name(path)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                     0o666)
        with os.fdopen(fd, "wb") as out:
            if replaced is not None:
                _keep_mode(out.fileno(), replaced)
            if callable(content):
                content(out)
            else:
                out.write(content)
            out.flush()
            os.fsync(out.fileno())
            if replaced is not None and replaced.st_nlink > 1:
                _copy_in_place(tmp, path, replaced)
            else:
                if before_commit is not None:
                    before_commit(out.fileno())
                _commit(tmp, path, replaced)
                tmp = None
        _sync_folder(path.parent)
    except OSError as exc:
        raise WriteError(f"cannot write {shown_path(path)}: {exc.strerror or exc}") from None
    finally:
        if tmp is not None:
            tmp.unlink(missing_ok=True)
    return path


def _keep_mode(fd: int, replaced: os.stat_result) -> None:
    """Give the temporary file the owner (when allowed) and mode of the file it replaces."""
    if (replaced.st_uid, replaced.st_gid) != (os.getuid(), os.getgid()):
        try:
            os.fchown(fd, replaced.st_uid, replaced.st_gid)
        except OSError:  # not allowed: the file becomes ours, as with any editor
            pass
    os.fchmod(fd, stat.S_IMODE(replaced.st_mode))


def _copy_in_place(tmp: Path, path: Path, replaced: os.stat_result) -> None:
    """Copy the complete file ``tmp`` over the hard-linked file ``path`` in place (its
    space reserved first, so a full disk fails before a byte of it changes)."""
    fd = os.open(path, os.O_WRONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        now = os.fstat(fd)
        if (now.st_dev, now.st_ino) != (replaced.st_dev, replaced.st_ino):
            raise WriteError(f"refusing to write to {shown_path(path)}: it was replaced "
                             f"during the write")
        size = os.stat(tmp).st_size
        try:
            os.posix_fallocate(fd, 0, max(size, 1))
        except OSError as exc:
            if exc.errno not in (errno.EOPNOTSUPP, errno.EINVAL, errno.ENOSYS):
                raise
        with open(tmp, "rb") as source:
            offset = 0
            while chunk := source.read(1 << 20):
                view = memoryview(chunk)
                while view:
                    written = os.pwrite(fd, view, offset)
                    offset += written
                    view = view[written:]
        os.ftruncate(fd, size)
        os.fsync(fd)
    finally:
        os.close(fd)


def _commit(tmp: Path, path: Path, replaced: os.stat_result | None) -> None:
    """Move ``tmp`` to ``path`` unless what is at ``path`` changed since it was checked."""
    appeared = (f"refusing to write to {shown_path(path)}: something appeared there during "
                f"the write")
    if replaced is None:
        try:
            os.link(tmp, path)  # atomic, and never replaces what appeared meanwhile
        except FileExistsError:
            raise WriteError(appeared) from None
        except OSError:  # a file system without hard links: check again, then rename
            if os.path.lexists(path):
                raise WriteError(appeared) from None
            os.replace(tmp, path)
            return
        tmp.unlink()
        return
    try:
        now = os.lstat(path)
    except FileNotFoundError:
        now = None
    if now is not None and (not stat.S_ISREG(now.st_mode) or
                            (now.st_dev, now.st_ino) != (replaced.st_dev, replaced.st_ino)):
        raise WriteError(f"refusing to write to {shown_path(path)}: it was replaced during "
                         f"the write")
    os.replace(tmp, path)


def _sync_folder(folder: Path) -> None:
    """Flush the folder entry of the renamed file to disk (best effort)."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


__all__ = ["BeforeCommit", "Replaceable", "Writer", "atomic_write", "check_target",
           "file_kind", "is_read_only", "open_regular", "read_limited",
           "remove_stale_temporaries", "temporary_name"]
