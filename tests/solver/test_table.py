"""Reading a table checks before it reads; the one table factory and its cache."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from advisor.cli import cli
from solver import table as table_module
from solver.errors import CorruptTableError, MissingTableError, TableError
from solver.formats import tablefile
from solver.formats.tablefile import read_table, write_table
from solver.game.rules import RULE_NAMES, get_rules
from solver.game.states import reachable_states
from solver.table import clear_table_cache, get_table, open_table
from tests.cli_checks import one_error_line, run_cli, sample_table

OFFICIAL = get_rules("official")


def sample_values(rules=OFFICIAL, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    values = rng.uniform(0, 300, rules.table_shape)
    values[~reachable_states(rules)] = np.nan
    return values


@pytest.fixture
def table_path(tmp_path: Path) -> Path:
    path = tmp_path / "official.ytable"
    write_table(path, OFFICIAL, sample_values())
    return path


def rewrite_header(path: Path, **fields: object) -> None:
    raw = path.read_bytes()
    end = raw.index(b"\n")
    header = json.loads(raw[:end])
    header.update(fields)
    path.write_bytes(json.dumps(header).encode() + raw[end:])


# ---------------------------------------------------------------- reachable states

@pytest.mark.parametrize("name", [pytest.param(n, marks=[] if n == "official"
                                               else [pytest.mark.slow]) for n in RULE_NAMES])
def test_reachable_states_are_where_the_solver_has_values(table_of, name: str) -> None:
    table = table_of(name)
    assert np.array_equal(~np.isnan(table.values), reachable_states(table.rules))


# ---------------------------------------------------------------- header fields

@pytest.mark.parametrize("field, value", [
    ("shape", 5), ("shape", None), ("shape", "8192,64,2"), ("shape", [8192, 64, "2"]),
    ("shape", [8192, 64, 2.0]), ("shape", [True, 64, 2]), ("shape", [-1]), ("shape", []),
    ("shape", [[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]), ("shape", {"a": 1}),
    ("version", None), ("version", "1"), ("version", True), ("version", [1]),
    ("rules", None), ("rules", 7), ("rules", ["official"]), ("fingerprint", None),
    ("fingerprint", 12), ("dtype", None), ("dtype", ["<f8"]), ("sha256", None),
    ("sha256", 0), ("sha256", {"x": "y"}),
    ("version", 10**30), ("shape", [10**30, 64, 2]), ("shape", [8192, 64, 2, 10**30]),
    ("dtype", "<f4"), ("dtype", ">f8"), ("fingerprint", "9" * 30),
])
def test_malformed_header_field_is_a_corrupt_table(table_path: Path, field: str,
                                                   value: object) -> None:
    rewrite_header(table_path, **{field: value})
    with pytest.raises(CorruptTableError) as err:
        read_table(table_path, OFFICIAL)
    assert "\n" not in str(err.value) and len(str(err.value)) < 400


@pytest.mark.parametrize("depth", [50, 1000, 100_000])
def test_deeply_nested_header_is_refused(tmp_path: Path, depth: int) -> None:
    path = tmp_path / "deep.ytable"
    path.write_bytes(b"[" * depth + b"]" * depth + b"\n" + b"\0" * 64)
    with pytest.raises(CorruptTableError, match="not a yahtzee table"):
        read_table(path, OFFICIAL)


def test_missing_header_field_is_a_corrupt_table(table_path: Path) -> None:
    raw = table_path.read_bytes()
    end = raw.index(b"\n")
    header = json.loads(raw[:end])
    del header["sha256"]
    table_path.write_bytes(json.dumps(header).encode() + raw[end:])
    with pytest.raises(CorruptTableError, match="sha256"):
        read_table(table_path, OFFICIAL)


# ---------------------------------------------------------------- values

@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf, -1.0])
@pytest.mark.parametrize("where", [(0, 0, 0), (8191, 63, 1), (5, 3, 0)])
def test_bad_value_in_a_reachable_state_is_refused(tmp_path: Path, bad: float,
                                                   where: tuple[int, int, int]) -> None:
    values = sample_values()
    assert reachable_states(OFFICIAL)[where]
    values[where] = bad
    write_table(tmp_path / "t.ytable", OFFICIAL, values)  # a valid checksum
    with pytest.raises(CorruptTableError, match="NaN, infinite or negative"):
        read_table(tmp_path / "t.ytable", OFFICIAL)


def test_value_in_an_impossible_state_is_refused(tmp_path: Path) -> None:
    values = sample_values()
    assert not reachable_states(OFFICIAL)[0, 5, 0]  # no upper box filled, subtotal 5
    values[0, 5, 0] = 100.0
    write_table(tmp_path / "t.ytable", OFFICIAL, values)
    with pytest.raises(CorruptTableError, match="no state can occur"):
        read_table(tmp_path / "t.ytable", OFFICIAL)


# ---------------------------------------------------------------- check before reading

class _CountingFile(io.FileIO):
    """A file that remembers how far into it anything was read."""

    furthest = 0

    def _seen(self) -> None:
        self.furthest = max(self.furthest, self.tell())

    def readinto(self, buffer):  # type: ignore[override]
        n = super().readinto(buffer)
        self._seen()
        return n

    def read(self, size: int = -1) -> bytes:
        data = super().read(size)
        self._seen()
        return data

    def readall(self) -> bytes:
        data = super().readall()
        self._seen()
        return data


def test_huge_file_is_refused_after_reading_only_its_header(table_path: Path,
                                                            monkeypatch) -> None:
    """A 3 GB (sparse) file with a good header: refused by its size, before any byte of
    the body is read (reading the body would still end in the same message, "extra
    bytes after the table", so where the reading stopped is what tells)."""
    with open(table_path, "r+b") as f:
        f.truncate(3 * 2**30)
    opened: list[_CountingFile] = []

    def counting_open(path):
        opened.append(_CountingFile(path, "r"))
        return io.BufferedReader(opened[-1])

    monkeypatch.setattr(tablefile, "open_regular", counting_open)
    with pytest.raises(CorruptTableError, match="extra bytes after the table"):
        read_table(table_path, OFFICIAL)
    assert len(opened) == 1
    with open(table_path, "rb") as f:
        header_end = f.read(4096).index(b"\n") + 1
    # the header is read in one buffered read of at most a page and a buffer
    assert header_end <= opened[0].furthest <= 4096 + io.DEFAULT_BUFFER_SIZE


def test_huge_file_without_header_is_refused_from_4kb(tmp_path: Path) -> None:
    path = tmp_path / "big.ytable"
    with open(path, "wb") as f:
        f.truncate(3 * 2**30)  # zeros: no header line in the first 4 KB
    with pytest.raises(CorruptTableError, match="not a yahtzee table"):
        read_table(path, OFFICIAL)


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null", "/dev/urandom"])
def test_device_is_refused_without_reading_it(device: str) -> None:
    with pytest.raises(TableError, match="a device") as err:
        read_table(device, OFFICIAL)
    assert f"--out {device}" not in str(err.value)  # never a rebuild onto the device


def test_fifo_and_folder_are_refused_without_blocking(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(TableError, match="FIFO"):
        read_table(tmp_path / "pipe", OFFICIAL)
    with pytest.raises(TableError, match="folder"):
        read_table(tmp_path, OFFICIAL)


# ---------------------------------------------------------------- rebuild hints

def test_hint_for_a_table_of_other_rules_names_them_and_keeps_the_file(tmp_path: Path) -> None:
    yatzy = get_rules("yatzy")
    path = tmp_path / "yatzy.ytable"
    write_table(path, yatzy, sample_values(yatzy))
    with pytest.raises(CorruptTableError) as err:
        read_table(path, OFFICIAL)
    message = str(err.value)
    assert "--rules yatzy" in message
    assert f"--out {path}" not in message  # would overwrite a good yatzy table
    assert "yahtzee solve --rules official" in message


def test_hint_for_a_damaged_table_rebuilds_it_in_place(table_path: Path) -> None:
    rewrite_header(table_path, sha256="0" * 64)
    with pytest.raises(CorruptTableError) as err:
        read_table(table_path, OFFICIAL)
    assert f"yahtzee solve --rules official --out {table_path}" in str(err.value)


def test_hint_for_a_file_that_is_no_table_does_not_point_at_it(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("my notes\n" * 100)
    with pytest.raises(CorruptTableError) as err:
        read_table(path, OFFICIAL)
    assert "not a yahtzee table" in str(err.value)
    assert str(path) + " " not in str(err.value).split("; ", 1)[1]


# ---------------------------------------------------------------- the factory and its cache

@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, official_table) -> Path:
    """An empty table cache folder; the in-process cache is emptied around the test."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("YAHTZEE_TABLES", str(folder))
    clear_table_cache()
    yield folder
    clear_table_cache()


def test_get_table_loads_once_per_process(table_path: Path, cache_dir: Path) -> None:
    first = get_table("official", table_path)
    assert get_table("official", str(table_path)) is first
    write_table(table_path, OFFICIAL, sample_values(seed=5))  # changed on disk: reloaded
    second = get_table("official", table_path)
    assert second is not first and second.values[0, 0, 0] != first.values[0, 0, 0]


def test_get_table_builds_and_writes_a_missing_cache(cache_dir: Path, official_table) -> None:
    notes: list[str] = []
    table = get_table("official", note=notes.append)
    assert table.path == cache_dir / "official.ytable"
    assert np.array_equal(table.values, official_table.values, equal_nan=True)
    assert get_table("official") is table
    assert len(notes) == 1 and "building" in notes[0]


def test_get_table_explicit_path_must_exist(tmp_path: Path, cache_dir: Path) -> None:
    with pytest.raises(MissingTableError):
        get_table("official", tmp_path / "none.ytable")
    assert not (tmp_path / "none.ytable").exists()


def test_unwritable_cache_builds_in_memory_with_a_note(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       official_table) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache folder should be")
    monkeypatch.setenv("YAHTZEE_TABLES", str(blocker / "tables"))
    clear_table_cache()
    notes: list[str] = []
    try:
        table = get_table("official", note=notes.append)
        assert table.path is None
        assert table.expected_score == official_table.expected_score
        assert get_table("official") is table  # built once per process
    finally:
        clear_table_cache()
    assert any("in memory" in n for n in notes)


def test_open_table_and_the_advisor_use_the_same_factory(cache_dir: Path) -> None:
    from advisor.model import Dice, Scorecard
    from advisor.ranking import advise

    advice = advise(Scorecard.new(), Dice("22256"))
    assert get_table("official") is not None
    assert (cache_dir / "official.ytable").is_file()
    assert advice.best.describe() == "keep 2 2 2"
    assert open_table("official").path == cache_dir / "official.ytable"
    assert not hasattr(table_module, "default_table")


def run_input(*args: str, input: str | None = None):  # noqa: A002
    """Any ``yahtzee`` command line, given ``input`` on stdin."""
    return CliRunner().invoke(cli, list(args), input=input)


@pytest.mark.usefixtures("official_table")  # commands read it, none builds it
def test_a_damaged_cached_table_is_built_again(tmp_path: Path, tables_dir: str,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    from solver.table import clear_table_cache

    cache = tmp_path / "cache"
    cache.mkdir()
    shutil.copy(Path(tables_dir) / "official.ytable", cache / "official.ytable")
    with open(cache / "official.ytable", "r+b") as f:  # a flipped byte in the body
        f.seek(-100, os.SEEK_END)
        f.write(b"\xff\xff")
    monkeypatch.setenv("YAHTZEE_TABLES", str(cache))
    clear_table_cache()
    try:
        result = run_input("advise", "22256", "--json")
        assert result.exit_code == 0, result.output
        assert "checksum" in result.stderr and "building it again" in result.stderr
        clear_table_cache()
        again = run_input("advise", "22256", "--json")
        assert again.exit_code == 0 and "note" not in again.stderr  # rebuilt on disk
        assert json.loads(again.stdout) == json.loads(result.stdout)
    finally:
        clear_table_cache()


# ------------------------------------ through the CLI: unusable tables, an unwritable cache


@pytest.mark.usefixtures("official_table")  # commands read it, none builds it
def test_hint_for_a_table_of_other_rules_does_not_overwrite_it(tmp_path: Path) -> None:
    yatzy = sample_table(tmp_path / "yatzy.ytable", "yatzy")
    line = one_error_line(run_cli("advise", "--dice", "22256", "--table", str(yatzy)))
    assert "--rules yatzy" in line and f"--out {yatzy}" not in line
    assert "yahtzee solve --rules official" in line


@pytest.mark.usefixtures("official_table")  # commands read it, none builds it
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_hint_for_a_device_never_points_the_rebuild_at_it(device: str) -> None:
    line = one_error_line(run_cli("advise", "--dice", "22256", "--table", device))
    assert "a device" in line and "--out" not in line


@pytest.mark.usefixtures("official_table")  # commands read it, none builds it
@pytest.mark.parametrize("shape", ["5", "null", "[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]",
                                   '"8192"', "[8192, 64, 2.5]"])
def test_malformed_header_field_through_the_cli(tmp_path: Path, shape: str) -> None:
    table = sample_table(tmp_path / "official.ytable")
    raw = table.read_bytes()
    end = raw.index(b"\n")
    header = raw[:end].replace(b"[8192, 64, 2]", shape.encode())
    table.write_bytes(header + raw[end:])
    line = one_error_line(run_cli("advise", "--dice", "22256", "--table", str(table)))
    assert str(table) in line


@pytest.mark.usefixtures("official_table")  # commands read it, none builds it
def test_nan_in_a_table_with_a_valid_checksum_is_refused(tmp_path: Path) -> None:
    import numpy as np

    rules = get_rules("official")
    values = np.where(reachable_states(rules), 100.0, np.nan)
    values[0, 0, 0] = np.nan
    write_table(tmp_path / "nan.ytable", rules, values)
    for command in (["advise", "--dice", "22256"], ["simulate", "--games", "10"]):
        line = one_error_line(run_cli(*command, "--table", str(tmp_path / "nan.ytable")))
        assert "NaN" in line


@pytest.mark.usefixtures("official_table")  # commands read it, none builds it
def test_sparse_3gb_table_is_refused_from_its_header(tmp_path: Path) -> None:
    table = sample_table(tmp_path / "official.ytable")
    with open(table, "r+b") as f:
        f.truncate(3 * 2**30)
    line = one_error_line(run_cli("advise", "--dice", "22256", "--table", str(table)))
    assert "extra bytes" in line


@pytest.fixture
def unwritable_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    monkeypatch.setenv("YAHTZEE_TABLES", str(blocker / "tables"))
    clear_table_cache()
    yield
    clear_table_cache()


@pytest.mark.usefixtures("official_table")  # commands read it, none builds it
@pytest.mark.parametrize("command", [
    ["advise", "--dice", "22256"], ["strategy", "--card", "twos=6", "--rolls-left", "0"],
    ["simulate", "--games", "20"], ["export", "--format", "npy", "--out", "{tmp}/t.npy"],
])
def test_commands_work_when_the_cache_cannot_be_written(unwritable_cache, tmp_path: Path,
                                                        command) -> None:
    args = [a.replace("{tmp}", str(tmp_path)) for a in command]
    result = run_cli(*args)
    assert result.exit_code == 0, result.stderr
    assert "in memory" in result.stderr
    assert result.stdout or (tmp_path / "t.npy").is_file()


@pytest.mark.usefixtures("official_table")  # commands read it, none builds it
def test_read_only_cache_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        probe = folder / "probe"
        try:
            probe.write_text("x")
            probe.unlink()
            pytest.skip("running as root: a read-only mode does not stop writes")
        except PermissionError:
            pass
        monkeypatch.setenv("YAHTZEE_TABLES", str(folder))
        clear_table_cache()
        result = run_cli("advise", "--dice", "22256")
        assert result.exit_code == 0 and "in memory" in result.stderr
        assert "not writable" in one_error_line(run_cli("solve"))
    finally:
        folder.chmod(0o755)
        clear_table_cache()


KILLED_BUILD = textwrap.dedent("""
    import os, sys, time
    def stall(fd):  # the table is being written: say so, then wait to be killed
        print("writing", flush=True)
        time.sleep(600)
    os.fsync = stall
    from advisor.cli import main
    main(["solve"])
""")


@pytest.mark.usefixtures("official_table")  # commands read it, none builds it
def test_sigkill_during_a_write_leaves_litter_the_next_command_removes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "cache"
    env = {**os.environ, "YAHTZEE_TABLES": str(cache)}
    proc = subprocess.Popen([sys.executable, "-c", KILLED_BUILD], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "writing\n"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.communicate()  # waits, and closes the pipe
    left = os.listdir(cache)
    assert len(left) == 1 and left[0].startswith(f".official.ytable.{proc.pid}-"), left
    monkeypatch.setenv("YAHTZEE_TABLES", str(cache))
    clear_table_cache()
    try:
        result = run_cli("advise", "--dice", "22256")
    finally:
        clear_table_cache()
    assert result.exit_code == 0, result.stderr
    assert os.listdir(cache) == ["official.ytable"]


@pytest.mark.usefixtures("official_table")  # commands read it, none builds it
def test_stale_temporary_is_removed_by_a_command_that_only_reads(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, official_table) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    write_table(cache / "official.ytable", official_table.rules, official_table.values)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()
    (cache / f".official.ytable.{dead}-0badc0de.tmp").write_bytes(b"half a table")
    monkeypatch.setenv("YAHTZEE_TABLES", str(cache))
    clear_table_cache()
    try:
        assert run_cli("advise", "--dice", "22256").exit_code == 0
    finally:
        clear_table_cache()
    assert os.listdir(cache) == ["official.ytable"]
