"""solver.formats.files: what a write refuses, modes, temporary files (the library side; the CLI
side of each class is in tests/advisor/cli/test_solve.py and tests/solver/test_table.py)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from solver.errors import WriteError, YahtzeeError
from solver.formats import files
from solver.formats.files import atomic_write, check_target, remove_stale_temporaries


def test_new_file_written_and_bytes_or_writer(tmp_path: Path) -> None:
    atomic_write(tmp_path / "a.bin", b"abc")
    atomic_write(tmp_path / "b.bin", lambda out: [out.write(b"x" * 1000) for _ in range(5)])
    assert (tmp_path / "a.bin").read_bytes() == b"abc"
    assert (tmp_path / "b.bin").read_bytes() == b"x" * 5000
    assert sorted(os.listdir(tmp_path)) == ["a.bin", "b.bin"]


def test_write_error_is_a_yahtzee_value_error() -> None:
    assert issubclass(WriteError, YahtzeeError) and issubclass(WriteError, ValueError)


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_mode_follows_the_umask(tmp_path: Path, umask: int) -> None:
    old = os.umask(umask)
    try:
        atomic_write(tmp_path / "f", b"data")
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "f").st_mode) == 0o666 & ~umask


def test_symlink_is_never_replaced_even_with_force(tmp_path: Path) -> None:
    target = tmp_path / "real"
    target.write_bytes(b"keep me")
    link = tmp_path / "link"
    link.symlink_to(target)
    for force in (False, True):
        with pytest.raises(WriteError, match="symbolic link"):
            atomic_write(link, b"new", force=force)
    assert link.is_symlink() and target.read_bytes() == b"keep me"


def test_dangling_symlink_is_not_replaced(tmp_path: Path) -> None:
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "nowhere")
    with pytest.raises(WriteError, match="symbolic link"):
        atomic_write(link, b"new", force=True)
    assert not (tmp_path / "nowhere").exists()


def test_fifo_is_never_replaced(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(WriteError, match="FIFO"):
        atomic_write(fifo, b"new", force=True)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


@pytest.mark.parametrize("device", ["/dev/null", "/dev/full", "/dev/zero"])
def test_device_is_never_replaced(device: str) -> None:
    before = os.lstat(device)
    with pytest.raises(WriteError, match="a device"):
        atomic_write(device, b"new", force=True)
    assert os.lstat(device).st_ino == before.st_ino


def test_folder_is_never_replaced(tmp_path: Path) -> None:
    folder = tmp_path / "dir"
    folder.mkdir()
    with pytest.raises(WriteError, match="folder"):
        atomic_write(folder, b"x", force=True)
    with pytest.raises(WriteError, match="names a folder"):
        atomic_write(f"{tmp_path}/new/", b"x")
    for name in (".", ".."):
        with pytest.raises(WriteError, match="names a folder"):
            check_target(f"{tmp_path}/{name}")
    assert os.listdir(tmp_path) == ["dir"]


def test_regular_file_needs_force_or_replaceable(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_bytes(b"my notes")
    with pytest.raises(WriteError, match="--force"):
        atomic_write(path, b"table")
    assert path.read_bytes() == b"my notes"
    atomic_write(path, b"v2", replaceable=lambda p: p.read_bytes() == b"my notes")
    assert path.read_bytes() == b"v2"
    atomic_write(path, b"v3", force=True)
    assert path.read_bytes() == b"v3"
    (tmp_path / "empty").touch()
    atomic_write(tmp_path / "empty", b"filled")
    assert (tmp_path / "empty").read_bytes() == b"filled"


def test_check_creates_no_folder(tmp_path: Path) -> None:
    check_target(tmp_path / "a" / "b" / "c.ytable")
    assert os.listdir(tmp_path) == []
    atomic_write(tmp_path / "a" / "b" / "c.ytable", b"x")  # the write itself creates them
    assert (tmp_path / "a" / "b" / "c.ytable").read_bytes() == b"x"


def test_parent_that_is_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    with pytest.raises(WriteError, match="not a folder"):
        check_target(tmp_path / "f" / "sub" / "t.ytable")


def test_something_appearing_during_the_write_is_not_replaced(tmp_path: Path) -> None:
    path = tmp_path / "t"

    def write(out) -> None:
        out.write(b"ours")
        path.symlink_to("/dev/null")  # another process puts something there meanwhile

    with pytest.raises(WriteError, match="appeared"):
        atomic_write(path, write)
    assert path.is_symlink() and os.listdir(tmp_path) == ["t"]


def test_file_swapped_during_the_write_is_not_replaced(tmp_path: Path) -> None:
    path = tmp_path / "t"
    path.write_bytes(b"old")

    def write(out) -> None:
        out.write(b"ours")
        path.unlink()
        path.symlink_to("/dev/null")

    with pytest.raises(WriteError, match="replaced during"):
        atomic_write(path, write, force=True)
    assert path.is_symlink() and os.listdir(tmp_path) == ["t"]


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_stale_temporaries_of_dead_processes_are_removed(tmp_path: Path) -> None:
    path = tmp_path / "official.ytable"
    dead = tmp_path / f".official.ytable.{_dead_pid()}-abcd1234.tmp"
    alive = tmp_path / f".official.ytable.{os.getppid()}-abcd1234.tmp"
    other = tmp_path / f".yatzy.ytable.{_dead_pid()}-abcd1234.tmp"
    legacy_old = tmp_path / ".official.ytable.k3j_x9aq.tmp"
    legacy_new = tmp_path / ".official.ytable.zz_new01.tmp"
    for p in (dead, alive, other, legacy_old, legacy_new):
        p.write_bytes(b"partial")
    os.utime(legacy_old, (0, 0))
    assert sorted(remove_stale_temporaries(path)) == sorted([dead, legacy_old])
    assert sorted(os.listdir(tmp_path)) == sorted(p.name for p in (alive, other, legacy_new))


def test_a_write_cleans_stale_temporaries_of_its_path(tmp_path: Path) -> None:
    stale = tmp_path / f".out.npy.{_dead_pid()}-00ff00ff.tmp"
    stale.write_bytes(b"partial")
    atomic_write(tmp_path / "out.npy", b"x")
    assert os.listdir(tmp_path) == ["out.npy"]


def test_temporary_names_carry_the_process_id(tmp_path: Path) -> None:
    name = files.temporary_name(tmp_path / "x.ytable").name
    assert name.startswith(f".x.ytable.{os.getpid()}-") and name.endswith(".tmp")
