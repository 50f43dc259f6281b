"""Every byte of a target table that an answer depends on is checked before an answer is
read from it: each header field is covered by a checksum or checked against the data
(``max_target`` against every row's last column), every index entry is in range and
names what the builder's does, and the file is read in parts into memory, never mapped,
so that a file cut, rewritten or replaced by another program while it is read is
refused (or answers from what was read and checked before), never a crash. A file that
fails is refused with a note and the question is solved as without it: the same answer.

Damage is made here as a hostile user makes it: a header field rewritten (at the same
length, padded with spaces, and at another length), an index entry changed with the
index's checksum made to match again."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import solver.target_table as target_table
from advisor.cli import cli
from solver.errors import CorruptTableError, InvalidOptionError, TableError
from solver.target_table import forget_targets, get_targets, open_targets

R = 30
"""conftest's small_targets: every target up to 30."""
LATE = "aces=1,twos=2,threes=3,fours=4,fives=0,sixes=0,3k=0,4k=0,fh=0,ss=0"
"""Three boxes open: its turn reads level 11 of the table (quick to solve without it)."""
QUESTION = ["advise", "22256", "--card", LATE, "--target", "25", "--json", "--top", "0"]


def split(path: Path) -> tuple[dict, int, np.ndarray]:
    """(header, length of the header line, the array) of a target table file."""
    raw = path.read_bytes()
    end = raw.index(b"\n")
    return json.loads(raw[:end]), end, np.frombuffer(raw, "<f8", offset=end + 1).copy()


def head_size(header: dict) -> int:
    return 8192 * 64 * 2 + 6 * header["states"]


def write(path: Path, header: dict, data: np.ndarray, width: int | None = None) -> Path:
    """The file of ``header`` and ``data``; ``width``: the header line kept at that length
    (padded with spaces, as an edit in place leaves it; compact when it must be)."""
    line = json.dumps(header)
    if width is not None:
        if len(line) > width:
            line = json.dumps(header, separators=(",", ":"))
        assert len(line) <= width
        line += " " * (width - len(line))
    path.write_bytes(line.encode() + b"\n" + data.astype("<f8").tobytes())
    return path


def reindexed(header: dict, data: np.ndarray) -> dict:
    """``header`` with the checksum of the (changed) index made to match it again."""
    size = head_size(header)
    return {**header, "index_sha256": hashlib.sha256(data[:size].tobytes()).hexdigest()}


@pytest.fixture
def at(targets_at):
    return targets_at


@pytest.fixture(scope="module")
def solved_answer(official_table, tmp_path_factory):
    """QUESTION's JSON without a target table (solved from the card)."""
    from unittest import mock

    none = tmp_path_factory.mktemp("none") / "official.ytargets"
    with mock.patch.object(target_table, "default_targets_path", lambda rules: none):
        forget_targets()
        result = CliRunner().invoke(cli, QUESTION)
    forget_targets()
    assert result.exit_code == 0 and "note" not in result.stderr, result.output
    return json.loads(result.stdout)


def refused_and_solved(official_table, path: Path, at, solved_answer, words: str) -> str:
    """The damaged table at ``path`` is refused (a ValueError saying ``words``, or one of
    its ``" | "``-separated alternatives) by the library, and the question is answered as
    without it, with a note on stderr."""
    with pytest.raises(CorruptTableError) as caught:
        table = open_targets(path, official_table)
        for n in range(1, official_table.rules.n_boxes):
            table.level_values(n)
    message = str(caught.value)
    assert any(w in message for w in words.split(" | ")), message
    assert isinstance(caught.value, ValueError) and "\n" not in message
    at(path)
    result = CliRunner().invoke(cli, QUESTION)
    assert result.exit_code == 0, result.output
    notes = [line for line in result.stderr.splitlines() if line.startswith("note:")]
    assert notes and all("unusable" in n and "yahtzee solve --targets" in n for n in notes)
    assert json.loads(result.stdout) == solved_answer
    return message


# ---------------------------------------------------------------------- header fields
HUGE = 10**30
"""A 30-digit number (int64 overflows at 19 digits)."""


@pytest.mark.parametrize(("field", "value", "words"), [
    ("max_target", 31, "its header's max_target is 31, but its index holds the targets "
                       "up to 30"),
    ("max_target", 29, "max_target is 29, but its index holds the targets up to 30"),
    ("max_target", 90, "max_target is 90, but its index"),  # the same length as 30
    ("max_target", 1, "max_target is 1, but its index"),
    ("max_target", HUGE, "max_target is 1000000000...(31 characters), not a target of "
                         "official (1 to 1575)"),
    ("max_target", -HUGE, "not a target of official"),
    ("max_target", 0, "max_target is 0, not a target of official"),
    ("max_target", 1576, "max_target is 1576, not a target"),
    ("max_target", "30", "header field 'max_target' is \"30\", expected a int"),
    ("max_target", 30.0, "header field 'max_target' is 30.0"),
    ("max_target", True, "header field 'max_target' is true"),
    ("max_target", None, "header field 'max_target' is null"),
    ("states", HUGE, "does not describe the levels"),
    ("states", 1, "does not describe the levels"),
    ("level_states", "swap", "its header's states per level are not those of official"),
    ("level_states", "huge", "does not describe the levels"),
    ("level_states", "short", "does not describe the levels"),
    ("level_sha256", "one", "checksum mismatch in level 11"),
    ("level_sha256", "short", "does not describe the levels"),
    ("index_sha256", "0" * 64, "checksum mismatch in its index"),
    ("table_sha256", "0" * 64, "computed from another table"),
    ("version", 2, "format version 2, expected 1"),
    ("version", HUGE, "format version 1000000000000000000000000000000, expected 1"),
    ("fingerprint", "0" * 16, "built under a different definition of the rules"),
    ("shape", "plus one", "data bytes, expected"),
    ("shape", "huge", "header field 'shape' is [1000000000000000000000000000000]"),
    ("dtype", "<f4", "dtype \"<f4\", expected \"<f8\" (little-endian float64)"),
    ("dtype", ">f8", "dtype \">f8\""),
])
@pytest.mark.parametrize("same_length", [True, False])
def test_each_header_field_changed_is_refused_and_the_question_solved(
        official_table, small_targets, tmp_path, at, solved_answer, field, value, words,
        same_length):
    header, width, data = split(small_targets)
    counts = header["level_states"]
    value = {
        ("level_states", "swap"): [counts[0] + 1, counts[1] - 1, *counts[2:]],
        ("level_states", "huge"): [*counts[:-1], HUGE],
        ("level_states", "short"): counts[:-1],
        ("level_sha256", "one"): [*header["level_sha256"][:10], "0" * 64,
                                  header["level_sha256"][11]],
        ("level_sha256", "short"): header["level_sha256"][:-1],
        ("shape", "plus one"): [header["shape"][0] + 1],
        ("shape", "huge"): [HUGE],
    }.get((field, value), value)
    changed = {**header, field: value}
    path = write(tmp_path / "official.ytargets", changed, data,
                 width if same_length else None)
    message = refused_and_solved(official_table, path, at, solved_answer, words)
    assert "wrong" not in message and "OverflowError" not in message


@pytest.mark.parametrize("extra", [1, 16, 10**4, -1, -16])
def test_values_beyond_the_levels_are_refused_though_the_header_counts_them(
        official_table, small_targets, tmp_path, at, solved_answer, extra):
    """Values appended after the last level, the header's shape and checksum made to
    count them: the size check passes, the index is the builder's, and the file is still
    refused, by its levels' sizes; as many values cut off the end are refused too."""
    header, width, data = split(small_targets)
    longer = np.concatenate((data, np.full(extra, 0.5))) if extra > 0 else data[:extra]
    changed = {**header, "shape": [longer.shape[0]],
               "sha256": hashlib.sha256(longer.astype("<f8").tobytes()).hexdigest()}
    path = write(tmp_path / "official.ytargets", changed, longer)
    words = f"{extra} values beyond" if extra > 0 else f"{-extra} values short of"
    refused_and_solved(official_table, path, at, solved_answer, f"({words} its levels)")


def test_a_file_without_extra_values_is_the_builders(official_table, small_targets,
                                                    tmp_path):
    """The file as built, rewritten by the helpers above: opened, every level read."""
    header, width, data = split(small_targets)
    path = write(tmp_path / "official.ytargets", header, data)
    table = open_targets(path, official_table)
    total = sum(table.level_values(n).shape[0] for n in range(1, 13))
    assert head_size(header) + total == data.shape[0] == header["shape"][0]


def test_a_wrong_dtype_is_named_as_such_and_not_as_a_shape(official_table, tmp_path):
    from solver.formats.tablefile import read_table

    raw = official_table.path.read_bytes()
    end = raw.index(b"\n")
    header = json.loads(raw[:end])
    path = tmp_path / "official.ytable"
    path.write_bytes(json.dumps({**header, "dtype": "<f4"}).encode() + raw[end:])
    with pytest.raises(CorruptTableError) as caught:
        read_table(path, official_table.rules)
    assert 'unusable (dtype "<f4", expected "<f8" (little-endian float64))' in str(caught.value)
    assert "shape" not in str(caught.value)


def test_a_field_no_answer_depends_on_changes_nothing(official_table, small_targets,
                                                     tmp_path, at, solved_answer):
    """The checksum of the whole array is for tools (a question checks the index's and
    each level's own); an unknown field is ignored: the same answers, no note."""
    header, width, data = split(small_targets)
    path = write(tmp_path / "official.ytargets",
                 {**header, "sha256": "0" * 64, "comment": "x" * 20}, data)
    table = open_targets(path, official_table)
    for n in range(1, official_table.rules.n_boxes):
        table.level_values(n)
    at(path)
    result = CliRunner().invoke(cli, QUESTION)
    assert result.exit_code == 0 and "note" not in result.stderr, result.output
    assert json.loads(result.stdout) == solved_answer


def test_a_proven_table_is_rebuilt_for_what_it_holds_never_fewer(official_table,
                                                                 small_targets, tmp_path):
    """The rebuild command a refusal names holds every target the table held: its own R
    once the index proves it (a damaged level), else at least the default's."""
    header, width, data = split(small_targets)
    last = head_size(header) + 5  # a value of level 1 (it comes first)
    data[last] = 0.5 if data[last] != 0.5 else 0.25
    path = write(tmp_path / "level.ytargets", header, data, width)
    with pytest.raises(CorruptTableError, match="checksum mismatch in level 1") as caught:
        open_targets(path, official_table).level_values(1)
    assert str(caught.value).endswith(f"rebuild it with: yahtzee solve --targets --rules "
                                      f"official --max {R}")
    smaller = write(tmp_path / "smaller.ytargets", {**header, "max_target": R - 5}, data)
    with pytest.raises(CorruptTableError, match=f"up to {R}") as caught:
        open_targets(smaller, official_table)
    assert str(caught.value).endswith(f"--max {R}")
    for top in (HUGE, 0):  # nothing proven: the default (every target up to 500)
        path = write(tmp_path / "bad.ytargets", {**header, "max_target": top}, data)
        with pytest.raises(CorruptTableError) as caught:
            open_targets(path, official_table)
        assert str(caught.value).endswith("rebuild it with: yahtzee solve --targets --rules "
                                          "official")


# ---------------------------------------------------------------------- index entries
def _level_row(header: dict, data: np.ndarray, n: int, i: int = 0) -> int:
    """The position in the array of row ``i`` of level ``n``."""
    before = sum(header["level_states"][:n - 1])
    return 8192 * 64 * 2 + 6 * (before + i)


def _slot_of(data: np.ndarray, row: int) -> int:
    m, u, y = (int(v) for v in data[row:row + 3])
    return (m * 64 + u) * 2 + y


@pytest.mark.parametrize(("what", "change", "words"), [
    ("slot", lambda k: k + 1, "a slot beyond the rows of its level"),
    ("slot", lambda k: 10**12, "a slot beyond the rows"),
    ("slot", lambda k: -1, "a slot beyond the rows"),
    ("slot", lambda k: -2, "a slot beyond the rows"),
    ("slot", lambda k: 1e300, "not whole numbers in range"),
    ("slot", lambda k: 0.5, "not whole numbers in range"),
    ("slot", lambda k: np.nan, "not whole numbers in range"),
    ("slot", lambda k: k, "a row of level 11 is not where its state's slot points"),
    ("slot", lambda k: 0, "a row of level 11 is not where its state's slot points"),
    ("other slot", lambda k: 0, "a slot of level 11 names the row of another state"),
    ("other slot", lambda k: 1, "a slot of level 11 names the row of another state"),
    ("mask", lambda m: m ^ 1 << 12, "a row of a level holds a mask of another level"),
    ("mask", lambda m: m & ~(m & -m), "a mask of another level"),
    ("mask", lambda m: 1 << 13, "a mask of another level"),
    ("mask", lambda m: -1, "a mask of another level"),
    ("mask", lambda m: np.inf, "not whole numbers in range"),
    ("subtotal", lambda u: 64, "a subtotal or flag out of range"),
    ("subtotal", lambda u: -1, "a subtotal or flag out of range"),
    ("subtotal", lambda u: (u + 1) % 64, "do not hold the columns of the targets up to 30 | "
                                         "a row of level 11 is not where its state's slot "
                                         "points | a slot of level 11 names the row of "
                                         "another state"),
    ("flag", lambda y: 2, "a subtotal or flag out of range"),
    ("flag", lambda y: -1, "a subtotal or flag out of range"),
    ("lo", lambda lo: -1, "do not hold the columns of the targets up to 30"),
    ("lo", lambda lo: lo + 1, "do not hold the columns of the targets up to 30"),
    ("lo", lambda lo: lo - 16, "do not hold the columns of the targets up to 30"),
    ("hi", lambda hi: hi + 1, "do not hold the columns of the targets up to 30"),
    ("hi", lambda hi: 2**39, "do not hold the columns"),
    ("start", lambda s: s + 16, "do not start where the row before it ends"),
])
def test_each_index_entry_out_of_range_is_refused_before_an_answer(
        official_table, small_targets, tmp_path, at, solved_answer, what, change, words):
    header, width, data = split(small_targets)
    k = header["level_states"][10]  # level 11: the level the question reads
    row = _level_row(header, data, 11, 1)
    if what == "slot":
        where = _slot_of(data, row)
        assert data[where] == 1
        data[where] = change(k)
    elif what == "other slot":  # a state without a row of its own (the placeholder's)
        slot = data[:8192 * 64 * 2].reshape(8192, 64, 2)
        masks = [m for m in range(8192) if bin(m).count("1") == 11]
        mask, u, y = next((m, u, y) for m in masks for u in range(64) for y in range(2)
                          if slot[m, u, y] == k)
        slot[mask, u, y] = change(k)
    else:
        column = ("mask", "subtotal", "flag", "lo", "hi", "start").index(what)
        data[row + column] = change(int(data[row + column]))
    path = write(tmp_path / "official.ytargets", reindexed(header, data), data)
    refused_and_solved(official_table, path, at, solved_answer, words)


def test_a_simulation_never_reads_an_index_out_of_range(official_table, small_targets,
                                                       tmp_path):
    """A slot far beyond its level (checksums made to match) once ended a simulation with
    a segmentation fault: run in a process of its own, it notes the table and plays."""
    header, width, data = split(small_targets)
    row = _level_row(header, data, 6, 3)
    data[_slot_of(data, row)] = 10**9
    folder = tmp_path / "tables"
    folder.mkdir()
    shutil.copyfile(official_table.path, folder / "official.ytable")
    write(folder / "official.ytargets", reindexed(header, data), data)
    env = {**os.environ, "YAHTZEE_TABLES": str(folder)}
    run = subprocess.run([sys.executable, "-c", "from advisor.cli import cli; cli()",
                          "simulate", "--strategy", "target:12", "--games", "20", "--json"],
                         env=env, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "a slot beyond the rows of its level" in run.stderr
    assert json.loads(run.stdout)["games"] == 20


# ---------------------------------------------------------------------- changed while read
CUT_SCRIPT = """
import os, sys
import numpy as np
from solver.errors import CorruptTableError
from solver.table import get_table
from solver.target_table import open_targets

path, cut = sys.argv[1], int(sys.argv[2])
table = get_table("official")
targets = open_targets(path, table)
first = targets.level_values(1).copy()
os.truncate(path, cut)  # another program cuts the file in place
for n in range(1, 13):
    try:
        targets.level_values(n)
    except CorruptTableError as exc:
        print(n, exc)
assert np.array_equal(targets.level_values(1), first)  # what was checked still answers
try:
    targets.store(20)
except CorruptTableError as exc:
    print("store", exc)
"""


@pytest.mark.parametrize("keep", [0.3, 0.9])
def test_a_table_cut_between_open_and_read_is_refused_never_a_crash(small_targets,
                                                                    official_table,
                                                                    tmp_path, keep):
    """(A memory-mapped file ended this process with a Bus error.)"""
    folder = tmp_path / "tables"
    folder.mkdir()
    shutil.copyfile(official_table.path, folder / "official.ytable")
    path = folder / "official.ytargets"
    shutil.copyfile(small_targets, path)
    cut = int(path.stat().st_size * keep)
    run = subprocess.run([sys.executable, "-c", CUT_SCRIPT, str(path), str(cut)],
                         env={**os.environ, "YAHTZEE_TABLES": str(folder)},
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    lines = run.stdout.splitlines()
    assert lines and all("the file was cut after it was opened" in line for line in lines)
    assert lines[-1].startswith("store ") and lines[0].split()[0] != "1"


def test_a_table_cut_while_a_simulation_reads_it_is_noted_and_the_target_solved(
        official_table, small_targets, tmp_path, at):
    from solver.formats.tablefile import DataFile
    from solver.simulate import simulate

    path = at(tmp_path / "official.ytargets")
    shutil.copyfile(small_targets, path)
    opened = get_targets(official_table)
    assert opened is not None
    read_into = DataFile.read_into

    def cut_first(self, first, out):  # another program cuts the file as it is read
        os.truncate(path, path.stat().st_size // 2)
        return read_into(self, first, out)

    notes: list[str] = []
    from unittest import mock

    with mock.patch.object(DataFile, "read_into", cut_first), \
            mock.patch.object(target_table, "get_targets", lambda table, note=None: opened):
        run = simulate(official_table, "target:12", 40, seed=5, note=notes.append)
    shutil.copyfile(small_targets, path)
    forget_targets()
    want = simulate(official_table, "target:12", 40, seed=5)
    assert len(notes) == 1 and "the file was cut after it was opened" in notes[0]
    assert notes[0].endswith("solving target:12 instead")
    assert np.array_equal(run.scores, want.scores) and run.p_target == want.p_target


def test_a_table_rewritten_in_place_after_open_is_refused_and_one_replaced_is_read_whole(
        official_table, small_targets, tmp_path):
    path = tmp_path / "official.ytargets"
    shutil.copyfile(small_targets, path)
    want = [open_targets(small_targets, official_table).level_values(n).copy()
            for n in (11, 12)]
    targets = open_targets(path, official_table)
    with open(path, "r+b") as f:  # the last value of level 12, in place
        f.seek(-8, os.SEEK_END)
        f.write(np.array([0.5]).tobytes() if want[1][-1] != 0.5 else b"\0" * 8)
    with pytest.raises(CorruptTableError, match="checksum mismatch in level 12"):
        targets.level_values(12)
    # replaced (a rebuild renames a new file over it): what was opened is read
    shutil.copyfile(small_targets, path)
    targets = open_targets(path, official_table)
    other = tmp_path / "other"
    other.write_bytes(b"\0" * path.stat().st_size)
    os.replace(other, path)
    for n, values in zip((11, 12), want, strict=True):
        assert np.array_equal(targets.level_values(n), values)


def test_an_unreadable_level_is_a_table_error(official_table, small_targets, monkeypatch):
    from solver.formats.tablefile import DataFile

    targets = open_targets(small_targets, official_table)

    def failing(self, first, out):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(DataFile, "read_into", failing)
    with pytest.raises(TableError, match="cannot read target table .*: Input/output error"):
        targets.level_values(3)


# ---------------------------------------------------------------------- --max as typed
@pytest.mark.parametrize("text", ["５", "٢", "1_0", "+1", "²", "9" * 5000, "1.0", "5 5"])
def test_max_takes_ascii_digits_as_every_number_option(text, tmp_path, at):
    path = at(tmp_path / "official.ytargets")
    result = CliRunner().invoke(cli, ["solve", "--targets", "--max", text])
    assert result.exit_code == 2 and not path.exists(), result.output
    top = CliRunner().invoke(cli, ["advise", "22256", "--top", text])
    assert top.exit_code == 2
    for run in (result, top):
        assert "is not a valid integer" in run.stderr
        assert "Traceback" not in run.output and len(run.stderr) < 400


def test_max_takes_spaces_as_every_number_option(official_table, tmp_path, at):
    path = at(tmp_path / "official.ytargets")
    assert CliRunner().invoke(cli, ["advise", "22256", "--top", " 5"]).exit_code == 0
    result = CliRunner().invoke(cli, ["solve", "--targets", "--max", " 5", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["max_target"] == 5
    assert open_targets(path, official_table).max_target == 5


def test_the_library_refuses_a_largest_target_it_cannot_hold(official_table):
    for top in (0, -1, 1576, 10**30, 2.5, True, "30"):
        with pytest.raises(InvalidOptionError, match="a target table holds the targets 1 to "
                                                     "R, R at most the highest score of "
                                                     "official \\(1575\\)"):
            target_table.solve_targets(official_table, top)  # type: ignore[arg-type]
    assert issubclass(InvalidOptionError, ValueError)
