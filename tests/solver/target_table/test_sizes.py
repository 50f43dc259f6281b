"""A target table's sizes are checked before anything of their size is allocated or
read: the number of states of each level is the rules' own (whatever the targets held),
so a header declaring more (a sparse file of any size) is refused from its header alone;
running out of memory while opening is a refusal too, and the question is solved as
without the table."""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import solver.target_table as target_table
from advisor.cli import cli
from solver.errors import CorruptTableError, TableError
from solver.formats.tablefile import DataFile
from solver.target import level_state_counts
from solver.target_table import forget_targets, open_targets

QUESTION = ["advise", "22256", "--card",
            "aces=1,twos=2,threes=3,fours=4,fives=0,sixes=0,3k=0,4k=0,fh=0,ss=0",
            "--target", "25", "--json", "--top", "0"]
"""Three boxes open: its turn reads level 11 of the table (quick to solve without it)."""
SLOTS = 8192 * 64 * 2


def header_of(path: Path) -> tuple[dict, bytes]:
    raw = path.read_bytes()
    end = raw.index(b"\n")
    return json.loads(raw[:end]), raw[end + 1:]


@pytest.fixture
def watched(monkeypatch):
    """What opening reads of the file's data and allocates, as (first, count) reads and
    counts of numbers: recorded, and refused (an AssertionError) past ``limit`` numbers,
    so that a reader which would read gigabytes fails at once instead."""
    seen: dict = {"reads": [], "allocated": [], "limit": 0}
    read_into, memory = DataFile.read_into, target_table._memory

    def counting_read(self, first, out):
        seen["reads"].append((first, out.size))
        assert first + out.size <= seen["limit"], f"reads {out.size} numbers at {first}"
        return read_into(self, first, out)

    def counting_memory(count, *args):
        seen["allocated"].append(count)
        assert count <= seen["limit"], f"allocates {count} numbers"
        return memory(count, *args)

    monkeypatch.setattr(DataFile, "read_into", counting_read)
    monkeypatch.setattr(target_table, "_memory", counting_memory)
    return seen


def test_each_levels_states_are_the_builders(official_table, small_targets):
    """The rules' counts are those the builder wrote (a table of the targets up to 30:
    the counts do not depend on the targets)."""
    header, _ = header_of(small_targets)
    assert level_state_counts(official_table) == tuple(header["level_states"])
    assert sum(level_state_counts(official_table)) == header["states"]


def _declaring(header: dict, body: bytes, how: str) -> tuple[dict, int]:
    """The header of a file declaring other level sizes (``how``), and the file's new
    number of values (its shape, the index and the values grown to match)."""
    counts = list(header["level_states"])
    known = sum(counts)
    if how == "200 million states":
        counts[6] += 200_000_000 - known
    elif how == "every level a billion":
        counts = [10**9] * len(counts)
    elif how == "ten billion in the last level":
        counts[-1] = 10**10
    elif how == "one more state":
        counts[0] += 1
    elif how == "one fewer state":
        counts[-1] -= 1
    elif how == "the same total moved between levels":
        counts[5], counts[6] = counts[5] + 1000, counts[6] - 1000
    size = len(body) // 8 + 6 * (sum(counts) - known)
    return {**header, "states": sum(counts), "level_states": counts, "shape": [size]}, size


@pytest.mark.parametrize("how", ["200 million states", "every level a billion",
                                 "ten billion in the last level", "one more state",
                                 "one fewer state", "the same total moved between levels"])
def test_a_sparse_file_declaring_other_sizes_is_refused_from_its_header(
        official_table, small_targets, tmp_path, watched, how):
    """The file made as large as its header says (sparse: no disk taken): refused
    before one number of its data is read or allocated."""
    header, body = header_of(small_targets)
    changed, size = _declaring(header, body, how)
    path = tmp_path / "official.ytargets"
    path.write_bytes(json.dumps(changed).encode() + b"\n" + body)
    with open(path, "r+b") as f:
        f.truncate(len(json.dumps(changed)) + 1 + 8 * size)
    with pytest.raises(CorruptTableError) as caught:
        open_targets(path, official_table)
    message = str(caught.value)
    assert "unusable" in message and "yahtzee solve --targets" in message
    if sum(changed["level_states"]) != header["states"]:
        assert (f"its header counts {changed['states']} states, not the "
                f"{header['states']} of official") in message
    else:
        assert "its header's states per level are not those of official" in message
    assert watched["reads"] == [] and watched["allocated"] == []


def test_a_good_table_reads_and_allocates_what_it_holds(official_table, small_targets,
                                                        watched):
    """The same watch on the file as built: its index, then each level, nothing more."""
    header, body = header_of(small_targets)
    watched["limit"] = len(body) // 8
    table = open_targets(small_targets, official_table)
    head = SLOTS + 6 * header["states"]
    assert watched["reads"] == [(0, head)]
    assert watched["allocated"] == [head, head, len(body) // 8 - head]
    for n in range(1, 13):
        table.level_values(n)
    assert sum(count for _, count in watched["reads"]) == len(body) // 8


def _question(at, path: Path) -> tuple[int, str, list[str]]:
    """(exit code, stdout, the notes on stderr) of QUESTION with the table at ``path``."""
    at(path)
    result = CliRunner().invoke(cli, QUESTION)
    return result.exit_code, result.stdout, [line for line in result.stderr.splitlines()
                                             if line.startswith("note:")]


@pytest.mark.parametrize("fault", ["MemoryError", "ENOMEM", "too large to map"])
def test_running_out_of_memory_while_opening_is_unusable_and_the_question_solved(
        official_table, small_targets, tmp_path, targets_at, monkeypatch, fault):
    """No memory for the index (numpy's MemoryError, or the mapping refused by the
    system): the table is refused with a note and the question solved without it: the
    answer of no table at all."""
    code, solved, notes = _question(targets_at, tmp_path / "none" / "official.ytargets")
    assert code == 0 and notes == []

    class NoMemory:
        @staticmethod
        def mmap(fileno, length):
            if fault == "MemoryError":
                raise MemoryError
            if fault == "ENOMEM":
                raise OSError(errno.ENOMEM, "Cannot allocate memory")
            raise OverflowError("mmap length is too large")

    monkeypatch.setattr(target_table, "mmap", NoMemory)
    with pytest.raises(TableError) as caught:
        open_targets(small_targets, official_table)
    assert str(caught.value) == (f"target table {small_targets} is unusable here (not "
                                 f"enough memory to open it)")
    assert isinstance(caught.value, ValueError)
    forget_targets()
    code, answer, notes = _question(targets_at, small_targets)
    assert code == 0, notes
    assert json.loads(answer) == json.loads(solved)
    assert notes == [f"note: {caught.value}; solving each target question "
                                  f"instead"]
