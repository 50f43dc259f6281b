"""The table file format: round trip, every refusal, and atomic writes."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import numpy as np
import pytest

from solver.errors import CorruptTableError, MissingTableError, TableError, WriteError
from solver.formats import files
from solver.formats.tablefile import read_table, rules_fingerprint, write_table
from solver.game.rules import RULE_NAMES, RuleSet, get_rules
from solver.game.states import reachable_states
from solver.table import open_table

OFFICIAL = get_rules("official")
REBUILD = "yahtzee solve --rules official"


def sample_values(rules: RuleSet, seed: int = 0) -> np.ndarray:
    """Values of the right shape: random where a state can occur, NaN elsewhere."""
    rng = np.random.default_rng(seed)
    values = rng.uniform(0, 300, rules.table_shape)
    values[~reachable_states(rules)] = np.nan
    return values


@pytest.fixture(scope="module")
def values() -> np.ndarray:
    return sample_values(OFFICIAL)


@pytest.fixture
def table_path(tmp_path: Path, values: np.ndarray) -> Path:
    path = tmp_path / "official.ytable"
    write_table(path, OFFICIAL, values)
    return path


def refused(path: Path, rules: RuleSet = OFFICIAL) -> str:
    """Read ``path``, expect a CorruptTableError, return its message."""
    with pytest.raises(CorruptTableError) as err:
        read_table(path, rules)
    message = str(err.value)
    assert isinstance(err.value, ValueError)
    assert f"yahtzee solve --rules {rules.name}" in message
    assert "\n" not in message
    return message


def split(path: Path) -> tuple[dict, bytes]:
    raw = path.read_bytes()
    end = raw.index(b"\n")
    return json.loads(raw[:end]), raw[end + 1:]


def join(path: Path, header: dict, body: bytes) -> None:
    path.write_bytes(json.dumps(header).encode() + b"\n" + body)


# ---------------------------------------------------------------- round trip

def test_round_trip(table_path: Path, values: np.ndarray) -> None:
    loaded = read_table(table_path, OFFICIAL)
    assert loaded.dtype == np.float64
    assert loaded.shape == (8192, 64, 2)
    assert np.array_equal(loaded, values, equal_nan=True)
    assert not loaded.flags.writeable


def test_header_records_rules_shape_and_checksum(table_path: Path) -> None:
    header, body = split(table_path)
    assert header["rules"] == "official"
    assert header["shape"] == [8192, 64, 2]
    assert header["fingerprint"] == rules_fingerprint(OFFICIAL)
    assert len(header["sha256"]) == 64
    assert len(body) == 8192 * 64 * 2 * 8


def test_round_trip_of_a_15_box_table(tmp_path: Path) -> None:
    yatzy = get_rules("yatzy")
    values = sample_values(yatzy, seed=1)
    write_table(tmp_path / "y.ytable", yatzy, values)
    assert np.array_equal(read_table(tmp_path / "y.ytable", yatzy), values, equal_nan=True)


def test_open_table_reads_a_given_path(table_path: Path, values: np.ndarray) -> None:
    table = open_table("official", path=table_path)
    assert table.rules is OFFICIAL
    assert table.path == table_path
    assert table.expected_score == values[0, 0, 0]


def test_write_replaces_an_older_table(table_path: Path) -> None:
    newer = sample_values(OFFICIAL, seed=2)
    write_table(table_path, OFFICIAL, newer)
    assert np.array_equal(read_table(table_path, OFFICIAL), newer, equal_nan=True)
    assert os.listdir(table_path.parent) == [table_path.name]


# ---------------------------------------------------------------- refusals

def test_missing_table(tmp_path: Path) -> None:
    with pytest.raises(MissingTableError) as err:
        read_table(tmp_path / "none.ytable", OFFICIAL)
    assert isinstance(err.value, ValueError)
    assert REBUILD in str(err.value)


def test_missing_table_is_not_built_unless_asked(tmp_path: Path) -> None:
    with pytest.raises(MissingTableError):
        open_table("official", path=tmp_path / "none.ytable")
    assert not (tmp_path / "none.ytable").exists()


@pytest.mark.parametrize("other", [n for n in RULE_NAMES if n != "official"])
def test_table_of_another_rule_set_is_refused(tmp_path: Path, other: str) -> None:
    rules = get_rules(other)
    path = tmp_path / f"{other}.ytable"
    write_table(path, rules, sample_values(rules))
    message = refused(path, OFFICIAL)
    assert other in message


def test_official_table_is_refused_as_two_rolls(table_path: Path) -> None:
    # Same shape, other rules: the header, not the size, tells them apart.
    refused(table_path, get_rules("two-rolls"))


def test_every_rule_set_has_its_own_fingerprint() -> None:
    prints = {rules_fingerprint(get_rules(n)) for n in RULE_NAMES}
    assert len(prints) == len(RULE_NAMES)


def test_table_of_a_changed_rule_definition_is_refused(table_path: Path) -> None:
    changed = RuleSet("official", "official with a 30-point upper bonus", OFFICIAL.boxes,
                      upper_bonus=30)
    assert rules_fingerprint(changed) != rules_fingerprint(OFFICIAL)
    assert "different definition" in refused(table_path, changed)


def test_wrong_fingerprint_is_refused(table_path: Path) -> None:
    header, body = split(table_path)
    header["fingerprint"] = "0" * 16
    join(table_path, header, body)
    refused(table_path)


def test_wrong_version_is_refused(table_path: Path) -> None:
    header, body = split(table_path)
    header["version"] = 99
    join(table_path, header, body)
    assert "version" in refused(table_path)


def test_wrong_shape_is_refused(table_path: Path) -> None:
    header, body = split(table_path)
    header["shape"] = [4096, 64, 4]
    join(table_path, header, body)
    refused(table_path)


@pytest.mark.parametrize("cut", [8, 1, 8 * 64 * 2 * 8192 - 8])
def test_truncated_file_is_refused(table_path: Path, cut: int) -> None:
    raw = table_path.read_bytes()
    table_path.write_bytes(raw[:-cut])
    assert "truncated" in refused(table_path)


def test_file_cut_inside_the_header_is_refused(table_path: Path) -> None:
    table_path.write_bytes(table_path.read_bytes()[:40])
    refused(table_path)


def test_extra_bytes_are_refused(table_path: Path) -> None:
    table_path.write_bytes(table_path.read_bytes() + b"\0" * 8)
    refused(table_path)


@pytest.mark.parametrize("where", [0, 12345, -1])
def test_flipped_data_byte_is_refused(table_path: Path, where: int) -> None:
    header, body = split(table_path)
    flipped = bytearray(body)
    flipped[where] ^= 0x01
    join(table_path, header, bytes(flipped))
    assert "checksum" in refused(table_path)


@pytest.mark.parametrize("garbage", [
    b"", b"\x00\xff\xfe garbage\n", b"not json at all\n", b"[1, 2, 3]\n",
    b'{"format": "something-else"}\n', bytes(range(256)) * 40,
])
def test_garbage_header_is_refused(tmp_path: Path, values: np.ndarray, garbage: bytes) -> None:
    path = tmp_path / "garbage.ytable"
    path.write_bytes(garbage + np.ascontiguousarray(values, dtype="<f8").tobytes()[:4096])
    refused(path)


def test_table_errors_are_value_errors() -> None:
    assert issubclass(CorruptTableError, TableError)
    assert issubclass(MissingTableError, TableError)
    assert issubclass(TableError, ValueError)


# ---------------------------------------------------------------- atomic writes

class FailingFile:
    """A file that fails with "disk full" on its second write, after a partial write."""

    def __init__(self, real) -> None:
        self.real = real
        self.writes = 0

    def write(self, data: bytes) -> int:
        self.writes += 1
        if self.writes > 1:
            self.real.write(data[: len(data) // 2])
            raise OSError(errno.ENOSPC, "No space left on device")
        return self.real.write(data)

    def __getattr__(self, name: str):
        return getattr(self.real, name)

    def __enter__(self) -> FailingFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.real.close()


def fail_mid_write(monkeypatch: pytest.MonkeyPatch) -> None:
    real_fdopen = os.fdopen
    monkeypatch.setattr(files.os, "fdopen", lambda *a, **k: FailingFile(real_fdopen(*a, **k)))


def test_failed_write_leaves_no_file(tmp_path: Path, values: np.ndarray,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    fail_mid_write(monkeypatch)
    path = tmp_path / "official.ytable"
    with pytest.raises(WriteError) as err:
        write_table(path, OFFICIAL, values)
    assert "No space left" in str(err.value)
    assert os.listdir(tmp_path) == []


def test_failed_write_keeps_the_old_table(table_path: Path, values: np.ndarray,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    fail_mid_write(monkeypatch)
    with pytest.raises(WriteError):
        write_table(table_path, OFFICIAL, sample_values(OFFICIAL, seed=3))
    monkeypatch.undo()
    assert np.array_equal(read_table(table_path, OFFICIAL), values, equal_nan=True)
    assert os.listdir(table_path.parent) == [table_path.name]


def test_interrupted_write_leaves_no_file(tmp_path: Path, values: np.ndarray,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupt(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(files.os, "fsync", interrupt)
    path = tmp_path / "official.ytable"
    with pytest.raises(KeyboardInterrupt):
        write_table(path, OFFICIAL, values)
    assert os.listdir(tmp_path) == []


def test_unwritable_directory_is_a_write_error(tmp_path: Path, values: np.ndarray) -> None:
    blocker = tmp_path / "a_file"
    blocker.write_text("not a directory")
    with pytest.raises(WriteError) as err:
        write_table(blocker / "official.ytable", OFFICIAL, values)
    assert "cannot write" in str(err.value)
    assert os.listdir(tmp_path) == ["a_file"]
