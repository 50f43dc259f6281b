"""``yahtzee solve`` and ``yahtzee export`` through click's CliRunner."""

from __future__ import annotations

import csv
import json
import os
import re
import stat
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner, Result

from advisor.cli import cli
from solver.formats.tablefile import read_header, read_table
from solver.game.rules import RULE_NAMES
from tests.cli_checks import one_error_line, run_cli, sample_table

OFFICIAL_SCORE = 254.5877287345
OFFICIAL_STATES = 536448
JSON_KEYS = {"rules", "expected_score", "states", "seconds", "path"}


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def visible_lines(text: str) -> list[str]:
    """The lines a terminal ends up showing: progress bars redraw with ``\\r``."""
    lines = (line.rsplit("\r", 1)[-1].strip() for line in text.split("\n"))
    return [line for line in lines if line]


def assert_clean_error(result: Result) -> str:
    """Exit code 2, one ``Error:`` line on stderr, no traceback; returns the line."""
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout
    lines = visible_lines(result.stderr)
    assert len(lines) == 1, lines
    assert lines[0].startswith("Error: ")
    return lines[0]


# ---------------------------------------------------------------- solve

@pytest.mark.slow
def test_solve_prints_score_states_and_wall_time(tmp_path: Path, official_table) -> None:
    out = tmp_path / "official.ytable"
    result = run("solve", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    assert re.search(r"^expected score:\s+254\.587729$", result.stdout, re.M)
    assert re.search(r"^states:\s+536,448$", result.stdout, re.M)
    assert re.search(r"^wall time:\s+\d+\.\d+ s", result.stdout, re.M)
    assert np.array_equal(read_table(out, official_table.rules), official_table.values,
                          equal_nan=True)
    assert os.listdir(tmp_path) == [out.name]


@pytest.mark.slow
def test_solve_json(tmp_path: Path) -> None:
    out = tmp_path / "official.ytable"
    result = run("solve", "--json", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert JSON_KEYS <= set(report)
    assert report["rules"] == "official"
    assert abs(report["expected_score"] - OFFICIAL_SCORE) < 5e-11
    assert report["states"] == OFFICIAL_STATES
    assert isinstance(report["seconds"], float) and report["seconds"] > 0
    assert Path(report["path"]) == out
    assert out.is_file()


@pytest.mark.slow
def test_solve_other_rules(tmp_path: Path) -> None:
    out = tmp_path / "nb.ytable"
    result = run("solve", "--rules", "no-bonus", "--json", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["rules"] == "no-bonus"
    assert abs(report["expected_score"] - 245.8707745141) < 5e-11
    assert report["states"] == 357632


# ---------------------------------------------------------------- export

@pytest.mark.slow
def test_export_npy(tmp_path: Path, official_table) -> None:
    out = tmp_path / "official.npy"
    result = run("export", "--format", "npy", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    array = np.load(out)
    assert array.shape == (8192, 64, 2)
    assert array.dtype == np.float64
    assert abs(array[0, 0, 0] - OFFICIAL_SCORE) < 5e-11
    assert np.array_equal(array, official_table.values, equal_nan=True)


@pytest.mark.slow
def test_export_npy_of_yatzy_has_15_box_layout(tmp_path: Path, table_of) -> None:
    table = table_of("yatzy")
    out = tmp_path / "yatzy.npy"
    result = run("export", "--rules", "yatzy", "--format", "npy", "--out", str(out),
                 "--table", str(table.path))
    assert result.exit_code == 0, result.stderr
    array = np.load(out)
    assert array.shape == (32768, 64)
    assert abs(array[0, 0] - 248.4399893779) < 5e-11


@pytest.mark.slow
def test_export_csv(tmp_path: Path, official_table) -> None:
    out = tmp_path / "official.csv"
    result = run("export", "--format", "csv", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    with out.open(newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["open_boxes", "upper_subtotal", "yahtzee_holds_50", "value"]
    body = rows[1:]
    assert len(body) == OFFICIAL_STATES
    names = [b.name for b in official_table.rules.boxes]
    assert body[0][:3] == [" ".join(names), "0", "0"]
    assert abs(float(body[0][3]) - OFFICIAL_SCORE) < 5e-11
    full_card = [row for row in body if row[0] == ""]
    assert len(full_card) == 2 * 64
    assert all(float(row[3]) == 0.0 for row in full_card)
    chance_only = {(int(r[1]), int(r[2])): float(r[3]) for r in body if r[0] == "chance"}
    assert len(chance_only) == 2 * 64
    mask = official_table.rules.full_mask & ~(1 << 12)
    assert chance_only[(30, 1)] == official_table.values[mask, 30, 1]


# ---------------------------------------------------------------- bad input

@pytest.mark.parametrize("command", [
    ["solve", "--rules", "hasbro"],
    ["export", "--rules", "hasbro", "--format", "npy", "--out", "x.npy"],
])
def test_unknown_rule_set_lists_the_valid_ones(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               command: list[str]) -> None:
    monkeypatch.chdir(tmp_path)
    line = assert_clean_error(run(*command))
    assert "hasbro" in line
    for name in RULE_NAMES:
        assert name in line
    assert os.listdir(tmp_path) == []


def test_unknown_export_format(tmp_path: Path) -> None:
    out = tmp_path / "t.xlsx"
    line = assert_clean_error(run("export", "--format", "xlsx", "--out", str(out)))
    assert "npy" in line and "csv" in line
    assert os.listdir(tmp_path) == []


@pytest.fixture
def blocker(tmp_path: Path) -> Path:
    """A regular file, so that any path under it cannot be written."""
    path = tmp_path / "a_file"
    path.write_text("not a directory\n")
    return path


@pytest.mark.slow
def test_solve_to_unwritable_path(blocker: Path) -> None:
    line = assert_clean_error(run("solve", "--out", str(blocker / "official.ytable")))
    assert str(blocker) in line
    assert os.listdir(blocker.parent) == [blocker.name]
    assert blocker.read_text() == "not a directory\n"


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["npy", "csv"])
def test_export_to_unwritable_path(blocker: Path, official_table, fmt: str) -> None:
    line = assert_clean_error(run("export", "--format", fmt, "--out", str(blocker / "x")))
    assert str(blocker) in line
    assert os.listdir(blocker.parent) == [blocker.name]


def test_export_to_a_directory_is_refused(tmp_path: Path) -> None:
    assert_clean_error(run("export", "--format", "npy", "--out", str(tmp_path)))
    assert os.listdir(tmp_path) == []


def export_error(table: Path, out_dir: Path, fmt: str = "npy", *options: str) -> str:
    """Export from an unusable ``--table``: a clean error and nothing written to ``out_dir``."""
    before = sorted(os.listdir(out_dir))
    line = assert_clean_error(run("export", *options, "--format", fmt, "--table", str(table),
                                  "--out", str(out_dir / f"out.{fmt}")))
    assert sorted(os.listdir(out_dir)) == before
    return line


@pytest.mark.parametrize("content", [
    b"", b"garbage\n" + b"\0" * 1000, b'{"format": "yahtzee-table", "version": 1}\n',
])
def test_export_from_a_corrupt_table(tmp_path: Path, content: bytes) -> None:
    table = tmp_path / "bad.ytable"
    table.write_bytes(content)
    assert "yahtzee solve --rules official" in export_error(table, tmp_path)


@pytest.mark.slow
def test_export_from_a_truncated_table(tmp_path: Path, official_table) -> None:
    table = tmp_path / "cut.ytable"
    table.write_bytes(official_table.path.read_bytes()[:-100])
    assert "truncated" in export_error(table, tmp_path, "csv")


@pytest.mark.slow
def test_export_with_a_table_of_other_rules(tmp_path: Path, official_table) -> None:
    line = export_error(official_table.path, tmp_path, "npy", "--rules", "free-joker")
    assert "official" in line and "free-joker" in line


def test_export_from_a_missing_table(tmp_path: Path) -> None:
    assert "yahtzee solve" in export_error(tmp_path / "none.ytable", tmp_path)


# ------------------------------------------ writes that would destroy what is at a path


@pytest.mark.usefixtures("official_table")  # commands read it, none builds it
@pytest.mark.parametrize("command", [["solve"], ["export", "--format", "npy"],
                                     ["export", "--format", "csv"]])
@pytest.mark.parametrize("force", [[], ["--force"]])
def test_devices_fifos_symlinks_and_folders_are_never_replaced(tmp_path: Path, command,
                                                               force) -> None:
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "real.ytable").write_bytes(b"keep")
    (tmp_path / "link").symlink_to(tmp_path / "real.ytable")
    (tmp_path / "dir").mkdir()
    targets = {"/dev/full": "a device", "/dev/null": "a device", str(tmp_path / "fifo"): "FIFO",
               str(tmp_path / "link"): "symbolic link", str(tmp_path / "dir"): "folder",
               f"{tmp_path}/dir/": "folder", f"{tmp_path}/new/": "names a folder"}
    for target, kind in targets.items():
        before = os.lstat(target.rstrip("/")) if os.path.lexists(target.rstrip("/")) else None
        line = one_error_line(run_cli(*command, "--out", target, *force))
        assert kind in line, line
        if before is not None:
            after = os.lstat(target.rstrip("/"))
            assert (after.st_ino, stat.S_IFMT(after.st_mode)) == \
                (before.st_ino, stat.S_IFMT(before.st_mode))
    assert (tmp_path / "real.ytable").read_bytes() == b"keep"
    assert sorted(os.listdir(tmp_path)) == ["dir", "fifo", "link", "real.ytable"]
    assert os.listdir(tmp_path / "dir") == []


@pytest.mark.usefixtures("official_table")  # commands read it, none builds it
def test_export_onto_a_table_is_refused_unless_forced(tmp_path: Path) -> None:
    table = sample_table(tmp_path / "official.ytable")
    before = table.read_bytes()
    line = one_error_line(run_cli("export", "--format", "npy", "--out", str(table)))
    assert "--force" in line
    assert table.read_bytes() == before
    assert run_cli("export", "--format", "npy", "--out", str(table), "--force").exit_code == 0
    assert table.read_bytes()[:6] == b"\x93NUMPY"


@pytest.mark.usefixtures("official_table")  # commands read it, none builds it
def test_export_replaces_an_earlier_export_of_its_format(tmp_path: Path) -> None:
    out = tmp_path / "t.csv"
    for _ in range(2):
        result = run_cli("export", "--format", "csv", "--out", str(out))
        assert result.exit_code == 0, result.stderr
    assert "--force" in one_error_line(run_cli("export", "--format", "npy", "--out", str(out)))
    notes = tmp_path / "notes.txt"
    notes.write_text("mine")
    assert "--force" in one_error_line(run_cli("export", "--format", "csv", "--out", str(notes)))
    assert notes.read_text() == "mine"


@pytest.mark.usefixtures("official_table")  # commands read it, none builds it
def test_solve_onto_a_table_of_other_rules_is_refused_before_building(tmp_path: Path) -> None:
    table = sample_table(tmp_path / "official.ytable")
    before = table.read_bytes()
    line = one_error_line(run_cli("solve", "--rules", "two-rolls", "--out", str(table)))
    assert "--force" in line and str(table) in line
    assert table.read_bytes() == before
    notes = tmp_path / "notes.txt"
    notes.write_text("mine")
    one_error_line(run_cli("solve", "--out", str(notes)))
    assert notes.read_text() == "mine"


@pytest.mark.usefixtures("official_table")  # commands read it, none builds it
def test_solve_rebuilds_a_table_of_the_same_rules_in_place(tmp_path: Path) -> None:
    table = sample_table(tmp_path / "two-rolls.ytable", "two-rolls")
    result = run_cli("solve", "--rules", "two-rolls", "--out", str(table), "--json")
    assert result.exit_code == 0, result.stderr
    assert read_header(table)["rules"] == "two-rolls"
    assert os.listdir(tmp_path) == ["two-rolls.ytable"]


@pytest.mark.usefixtures("official_table")  # commands read it, none builds it
@pytest.mark.parametrize("umask", [0o022, 0o077])
def test_exports_follow_the_umask(tmp_path: Path, umask: int) -> None:
    old = os.umask(umask)
    try:
        result = run_cli("export", "--format", "npy", "--out", str(tmp_path / "t.npy"))
    finally:
        os.umask(old)
    assert result.exit_code == 0, result.stderr
    assert stat.S_IMODE(os.stat(tmp_path / "t.npy").st_mode) == 0o666 & ~umask
