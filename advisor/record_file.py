"""Game record files: read, held locked, and rewritten in the form they were read in.

Every record the program writes goes through :class:`RecordFile` (``play --record`` and
``--resume``, ``advise --game FILE --append``, :func:`write_record`):

- **Form kept.** A JSON record stays JSON (keys the program does not know are kept); a
  text record keeps its comments (the ``# objective:`` line too), blank lines, line
  ends, byte-order mark, and every turn line that did not change, word for word. A turn
  that changed is written in the standard form, its comment kept; an undone turn leaves
  its comment behind. Nothing is written when nothing changed.
- **One writer.** The file is held with an exclusive lock (``flock``) as long as it is
  open, and the lock moves with each rewrite (the new file is locked before it replaces
  the old one), so a second writer is refused at once with :class:`RecordBusyError`.
  Readers (``analyze``, ``advise --game`` without ``--append``) need no lock: a record
  is always replaced whole.
- **Nothing replaced that must not be.** Writes are those of
  :func:`solver.formats.files.atomic_write` (atomic, durable, keeping the mode and hard
  links; a symbolic link, a device or a read-only file is refused). A file that another
  program replaced or removed after the record was opened is not written over.
- **Failures are told.** A failed write raises :class:`~solver.errors.WriteError` (the
  reason from the system, such as "No space left on device"); the file then still holds
  the last record saved, and :meth:`RecordFile.text` gives what could not be written.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver.errors import InvalidRecordError, WriteError, YahtzeeError, shown_path
from solver.formats.files import atomic_write, check_target, file_kind, read_limited
from solver.game.rules import get_rules
from solver.game.trace import turn_moves

from .model import Dice, Keep
from .record import (
    MAX_RECORD_BYTES,
    GameRecord,
    Turn,
    is_json_form,
    parse_record,
    split_lines,
)

_BOM = "\ufeff"
OBJECTIVE_PREFIX = "# objective:"
"""The first line of a record played under another objective than the expected score."""
_COMMENT = re.compile(r"\s*#.*\Z", re.DOTALL)
_NEWLINE = re.compile(r"\r\n|\r|\n")


class RecordBusyError(InvalidRecordError):
    """A record file that another process holds (a game being played, a move being added)."""


# ---------------------------------------------------------------------- the form
@dataclass(frozen=True)
class RecordForm:
    """A record as it was written: ``record`` parsed from ``text`` (without its
    byte-order mark, ``bom``). :meth:`render` writes another record of the same game
    (the same rules and players) in that form."""

    record: GameRecord
    text: str
    bom: bool = False

    @classmethod
    def of(cls, text: str) -> RecordForm:
        """The form of a record's text (checked: raises InvalidRecordError)."""
        bom = text.startswith(_BOM)
        text = text.removeprefix(_BOM)
        return cls(parse_record(text), text, bom)

    @property
    def is_json(self) -> bool:
        return is_json_form(self.text)

    def with_objective(self, comment: str) -> RecordForm:
        """This form with ``comment`` (one ``# objective: ...`` line) as its first line,
        in place of the one there (``""``: the expected score, no such line); a JSON
        record has no comments and stays as it is."""
        lines = split_lines(self.text)
        noted = bool(lines) and lines[0].startswith(OBJECTIVE_PREFIX)
        if self.is_json or not (comment or noted):
            return self
        found = _NEWLINE.search(self.text)
        newline = found.group() if found else "\n"
        if noted:
            lines = lines[1:]
        head = comment.rstrip("\r\n") + newline if comment else ""
        text = head + newline.join(lines)
        return RecordForm(parse_record(text), text, self.bom)

    def render(self, record: GameRecord) -> str:
        """``record`` in this form (the byte-order mark included when there was one)."""
        if (record.rules, record.players) != (self.record.rules, self.record.players):
            raise InvalidRecordError("a record file holds one game: the rules and the players "
                                     "cannot change")
        if record == self.record:
            body = self.text
        elif self.is_json:
            body = self._json(record)
        else:
            body = self._text(record)
        return (_BOM if self.bom else "") + body

    def _kept_turns(self, record: GameRecord) -> int:
        """How many first turns ``record`` shares with the record read."""
        kept = 0
        for old, new in zip(self.record.turns, record.turns, strict=False):
            if old != new:
                break
            kept += 1
        return kept

    def _text(self, record: GameRecord) -> str:
        lines = split_lines(self.text)
        ends_line = lines[-1] == ""
        if ends_line:
            lines.pop()
        found = _NEWLINE.search(self.text)
        newline = found.group() if found else "\n"
        kept = self._kept_turns(record)
        line_of = {turn.line - 1: i for i, turn in enumerate(self.record.turns)}
        named = not line_of or ":" in lines[max(line_of)].split("#", 1)[0] or \
            len(record.players) > 1
        out = []
        for index, line in enumerate(lines):
            i = line_of.get(index)
            if i is None or i < kept:
                out.append(line)
                continue
            found_comment = _COMMENT.search(line)
            comment = found_comment.group() if found_comment else ""
            if i < len(record.turns):
                out.append(_turn_line(record.turns[i], named) + comment)
            elif comment:
                out.append(comment.strip())
        added = [_turn_line(t, named) for t in record.turns[len(self.record.turns):]]
        out += added
        return newline.join(out) + (newline if ends_line or added else "")

    def _json(self, record: GameRecord) -> str:
        data = json.loads(self.text)
        old = data.get("turns", [])
        kept = self._kept_turns(record)
        turns = list(old[:kept])
        for i, turn in enumerate(record.turns[kept:], start=kept):
            extra = old[i] if i < len(old) and isinstance(old[i], dict) else {}
            turns.append({**extra, **turn.to_json()})
        data["turns"] = turns
        stripped = self.text.strip()
        text = json.dumps(data, indent=1 if "\n" in stripped else None,
                          ensure_ascii=self.text.isascii())
        found = _NEWLINE.search(self.text)
        newline = found.group() if found else "\n"
        if newline != "\n":
            text = text.replace("\n", newline)
        ends = self.text.endswith(("\n", "\r")) or "\n" in stripped
        return text + (newline if ends else "")


def _turn_line(turn: Turn, named: bool) -> str:
    tokens = " ".join(turn.tokens())
    return f"{turn.player}: {tokens}" if named else tokens


# ---------------------------------------------------------------------- the file
class RecordFile:
    """A record file this process holds: open with :meth:`open` (an existing record) or
    :meth:`create` (a new one), then :meth:`save` every change; :meth:`close` (or the
    end of a ``with`` block) lets it go. ``record`` is the record last saved."""

    def __init__(self, path: Path, form: RecordForm, fd: int) -> None:
        self.path = path
        self.form = form
        self.record = form.record
        self._fd = fd
        self._written = form.render(form.record)

    # ------------------------------------------------------------------ opening
    @classmethod
    def open(cls, path: str | Path) -> RecordFile:
        """The record at ``path`` (a regular file we may rewrite), locked; raises
        :class:`RecordBusyError` when another process holds it, InvalidRecordError or
        WriteError when it cannot be read or rewritten."""
        path = _path(path)
        fd = _open_locked(path)
        try:
            text = _decoded(path, _read_fd(fd, path))
            form = RecordForm.of(text)
            check_target(path, force=True)  # a read-only file: refused before the game
            return cls(path, form, fd)
        except BaseException:
            os.close(fd)
            raise

    @classmethod
    def create(cls, path: str | Path, record: GameRecord, comment: str = "") -> RecordFile:
        """A new record file at ``path`` (refused when something is there) holding
        ``record`` after the ``comment`` lines (each starting with ``#``)."""
        path = _path(path)
        check_record_path(path, exist_ok=False)
        form = RecordForm.of(comment + str(record))
        held: list[int] = []
        try:
            _write(path, form.render(record), held, new=True)  # never over what appeared
        except BaseException:
            for fd in held:
                os.close(fd)
            raise
        return cls(path, form, held[0])

    def note_objective(self, comment: str, *, write: bool = True) -> None:
        """Make ``comment`` (``# objective: ...``; "": the expected score, no such line) the
        first line of the file, in place of the one there (the advice from now on is under
        that objective); written now, or with ``write=False`` by the next :meth:`save`.
        Raises WriteError when the file cannot be written."""
        form = self.form.with_objective(comment)
        if form is not self.form:
            self.form = form
            if write:
                self.save(self.record)

    # ------------------------------------------------------------------ saving
    def text(self, record: GameRecord | None = None) -> str:
        """What the file holds (or would hold after saving ``record``)."""
        return self._written if record is None else self.form.render(record)

    def save(self, record: GameRecord) -> bool:
        """Write ``record`` (True), or nothing when the file already holds it (False).
        Raises WriteError when it cannot be written: the file keeps the record before."""
        text = self.form.render(record)
        if text == self._written:
            self.record = record
            return False
        if self._fd < 0:
            raise WriteError(f"the record {shown_path(self.path)} is closed")
        self._check_same_file()
        held: list[int] = []
        try:
            _write(self.path, text, held)
        except BaseException:
            for fd in held:
                os.close(fd)
            raise
        if held:  # the new file, locked, replaced the old one
            os.close(self._fd)
            self._fd = held[0]
        self._written = text
        self.record = record
        return True

    def _check_same_file(self) -> None:
        mine = os.fstat(self._fd)
        try:
            now = os.lstat(self.path)
        except OSError:
            now = None
        if now is None or (now.st_dev, now.st_ino) != (mine.st_dev, mine.st_ino):
            raise WriteError(f"{shown_path(self.path)} was replaced or removed by another "
                             f"program since this game opened it; nothing was written to it")

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> RecordFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _write(path: Path, text: str, held: list[int], *, new: bool = False) -> None:
    """Write ``text`` to ``path`` (see :func:`solver.formats.files.atomic_write`); the
    new file's descriptor, locked, is appended to ``held`` (nothing is appended when a
    hard-linked file is copied over in place: its lock does not change)."""
    def lock_new(fd: int) -> None:
        copy = os.dup(fd)
        held.append(copy)
        _lock(copy, path)

    atomic_write(path, text.encode("utf-8"), force=not new, new=new, before_commit=lock_new)


def _lock(fd: int, path: Path) -> None:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise RecordBusyError(
            f"{shown_path(path)} is in use by another yahtzee (a game being played or a "
            f"move being added); wait until it ends, or use another file") from None
    except OSError as exc:  # a file system without locks: go on unlocked
        if exc.errno not in (errno.ENOLCK, errno.EOPNOTSUPP, errno.EINVAL):
            raise


def _open_locked(path: Path) -> int:
    """A read-only descriptor of the regular file at ``path``, locked, still at ``path``."""
    for _ in range(10):
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            raise InvalidRecordError(f"cannot read the record {shown_path(path)}: no such "
                                     f"file") from None
        except OSError as exc:
            raise InvalidRecordError(f"cannot read the record {shown_path(path)}: "
                                     f"{exc.strerror or exc}") from None
        if not stat.S_ISREG(info.st_mode):
            _refuse_kind(path, info.st_mode)
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
        except OSError as exc:
            raise InvalidRecordError(f"cannot read the record {shown_path(path)}: "
                                     f"{exc.strerror or exc}") from None
        try:
            mine = os.fstat(fd)
            if not stat.S_ISREG(mine.st_mode):
                _refuse_kind(path, mine.st_mode)
            _lock(fd, path)
            now = os.lstat(path)
        except BaseException:
            os.close(fd)
            raise
        if (now.st_dev, now.st_ino) == (mine.st_dev, mine.st_ino):
            return fd
        os.close(fd)  # replaced between the open and the lock: again
    raise RecordBusyError(f"{shown_path(path)} keeps being replaced by another program")


def _refuse_kind(path: Path, mode: int) -> None:
    raise InvalidRecordError(f"{shown_path(path)} is {file_kind(mode)}, not a regular file; "
                             f"give a file name")


def _read_fd(fd: int, path: Path) -> bytes:
    size = os.fstat(fd).st_size
    chunks: list[bytes] = []
    total = 0
    while size <= MAX_RECORD_BYTES and (chunk := os.pread(fd, 1 << 16, total)):
        chunks.append(chunk)
        total += len(chunk)
        if total > MAX_RECORD_BYTES:
            break
    if max(size, total) > MAX_RECORD_BYTES:
        raise InvalidRecordError(f"cannot read the record {shown_path(path)}: too large for a "
                                 f"game record ({max(size, total):,} bytes; at most "
                                 f"{MAX_RECORD_BYTES:,})")
    return b"".join(chunks)


def _decoded(path: Path | str, data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidRecordError(f"cannot read the record {shown_path(path)}: it is not UTF-8 "
                                 f"text (byte {exc.start + 1} is {data[exc.start]:#04x})"
                                 ) from None


def _path(path: Any) -> Path:
    """``path`` (text or a path object) as a Path; anything else, or a NUL character in
    it, is an InvalidRecordError."""
    if not isinstance(path, (str, os.PathLike)) or isinstance(path, bytes):
        raise InvalidRecordError(f"a record's path is text or a pathlib.Path, not "
                                 f"{type(path).__name__}")
    if "\0" in os.fspath(path):
        raise InvalidRecordError(f"{shown_path(path)}: a path cannot hold a NUL character")
    return Path(path)


# ---------------------------------------------------------------------- one-shot
def read_record(path: str | Path) -> GameRecord:
    """The record in file ``path`` (text or JSON; at most 1 MB, a regular file)."""
    return parse_record(read_record_text(path))


def read_record_text(path: str | Path) -> str:
    """The text of the record file ``path``, unchecked (at most 1 MB, a regular file)."""
    path = _path(path)
    try:
        data = read_limited(path, MAX_RECORD_BYTES, "game record")
    except YahtzeeError as exc:  # names the path already
        raise InvalidRecordError(f"cannot read the record: {exc}") from None
    except OSError as exc:
        raise InvalidRecordError(f"cannot read the record {shown_path(path)}: "
                                 f"{exc.strerror or exc}") from None
    return _decoded(path, data)


def read_stdin() -> str:
    """A record from standard input, at most :data:`MAX_RECORD_BYTES` bytes (decoded as
    UTF-8); a closed standard input is refused."""
    stream = sys.stdin
    if stream is None:
        raise InvalidRecordError("standard input is closed: give the record on it, or a "
                                 "file name instead of -")
    raw = getattr(stream, "buffer", None)
    data = raw.read(MAX_RECORD_BYTES + 1) if raw is not None else stream.read(
        MAX_RECORD_BYTES + 1)
    if len(data) > MAX_RECORD_BYTES:
        raise InvalidRecordError(f"the record on standard input is too large (more than "
                                 f"{MAX_RECORD_BYTES:,} bytes)")
    return data if isinstance(data, str) else _decoded("<standard input>", data)


def write_record(path: str | Path, record: GameRecord, *, as_json: bool = False) -> None:
    """Write ``record`` to ``path`` in the standard text form (or JSON): a new file, or a
    regular file replaced whole (refused while another process holds it)."""
    if not isinstance(record, GameRecord):
        raise InvalidRecordError(f"write_record takes a GameRecord, not {type(record).__name__}")
    text = json.dumps(record.to_json(), indent=1) + "\n" if as_json else str(record)
    path = _path(path)
    check_record_path(path, exist_ok=True)
    existed = os.path.lexists(path)
    held = [_open_locked(path)] if existed else []
    try:
        _write(path, text, held, new=not existed)  # a file that appeared is not replaced
    finally:
        for fd in held:
            os.close(fd)


def check_record_path(path: Path, *, exist_ok: bool) -> None:
    """Raise InvalidRecordError unless ``path`` can hold a record (a new file in an
    existing folder, or with ``exist_ok`` a regular file)."""
    path = _path(path)
    try:
        info = path.lstat()
    except FileNotFoundError:
        if not path.parent.is_dir():
            raise InvalidRecordError(f"cannot write {shown_path(path)}: the folder "
                                     f"{shown_path(path.parent)} does not exist") from None
        return
    except OSError as exc:
        raise InvalidRecordError(f"cannot write {shown_path(path)}: {exc.strerror or exc}"
                                 ) from None
    if not stat.S_ISREG(info.st_mode):
        _refuse_kind(path, info.st_mode)
    if not exist_ok:
        raise InvalidRecordError(f"{shown_path(path)} already exists; continue it with "
                                 f"--resume {shown_path(path)}, or give a new file name")


# ---------------------------------------------------------------------- simulations
def records_from_traces(rules: str, traces: Any, player: str = "Player 1"
                        ) -> Iterator[GameRecord]:
    """The games of a simulation (``SimulationResult.traces``) as checked records."""

    ruleset = get_rules(rules)
    for game in traces:
        turns = []
        for row in game:
            rolls, keeps, box = turn_moves(row)
            turns.append(Turn(player, tuple(Dice(r) for r in rolls),
                              tuple(Keep(k) for k in keeps), ruleset.boxes[box].name))
        yield GameRecord(ruleset.name, (player,), tuple(turns))


def write_records(folder: str | Path, records: Iterator[GameRecord] | Sequence[GameRecord],
                  progress: Callable[[int], None] | None = None) -> int:
    """Write records as ``folder/game-000001.txt``, ... (a new or empty folder); the count.

    Each file is new in a folder of our own, so it is written directly (created, never
    replacing anything; a file cut short by an error or Ctrl-C is removed) and the whole
    folder is flushed to disk once at the end. ``progress(count)`` is told as it goes.
    """
    folder = Path(folder)
    check_records_folder(folder)
    folder.mkdir(exist_ok=True)
    count = 0
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        for count, record in enumerate(records, start=1):
            path = folder / f"game-{count:06d}.txt"
            fd = os.open(path, flags, 0o666)
            try:
                with os.fdopen(fd, "wb") as out:
                    out.write(str(record).encode("utf-8"))
            except BaseException:
                path.unlink(missing_ok=True)
                raise
            if progress is not None:
                progress(count)
        os.sync()
    except OSError as exc:
        raise WriteError(f"cannot write the records in {shown_path(folder)} (after "
                         f"{max(count - 1, 0):,} of them): {exc.strerror or exc}") from None
    return count


def check_records_folder(folder: str | Path) -> None:
    """Raise InvalidRecordError unless ``folder`` is new (in an existing folder we may
    write in) or empty and writable."""
    folder = Path(folder)
    if folder.is_symlink() or (folder.exists() and (not folder.is_dir() or
                                                    any(folder.iterdir()))):
        raise InvalidRecordError(f"{shown_path(folder)} exists and is not an empty folder; "
                                 f"give a new folder for the records")
    where = folder if folder.exists() else folder.parent
    if not where.is_dir():
        raise InvalidRecordError(f"cannot create {shown_path(folder)}: the folder "
                                 f"{shown_path(where)} does not exist")
    if not os.access(where, os.W_OK | os.X_OK):
        raise InvalidRecordError(f"cannot write the records in {shown_path(folder)}: the "
                                 f"folder {shown_path(where)} is not writable")
