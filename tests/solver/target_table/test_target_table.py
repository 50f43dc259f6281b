"""Target tables (``yahtzee solve --targets``): every target question reads the stored
``W(s, r)`` with exactly the values of the question solved from its card; a file that
does not fit is refused with the rebuild command and the question is solved instead;
nothing else is ever overwritten. A small table (every target up to ``R``, seconds to
build) stands for the default one; ``tests/solver/target/test_pins.py`` checks a whole-game one
(every target up to 301) against the pinned new-game figures."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from click.testing import CliRunner

import solver.target_table as target_table
from advisor.caches import Caches
from advisor.cli import cli
from advisor.model import Scorecard
from advisor.objective import Objective
from advisor.target_stats import target_stats
from solver.errors import CorruptTableError, MissingTableError
from solver.game.dice import ROLL_KEEP
from solver.goals import TargetGoal
from solver.memory import TurnMemory
from solver.solved_turn import SolvedTurn, solve_turn
from solver.table import get_table
from solver.target_table import (
    default_targets_path,
    forget_targets,
    get_targets,
    open_targets,
)

R = 30
"""The small table's largest target (conftest's small_targets): low totals only."""
CARDS = (
    "",  # a new game: the table's level 1
    "chance=5",
    "aces=1,twos=2,threes=3,fours=4,fives=0,sixes=0,3k=0,4k=0,fh=0,ss=0",
    "aces=0,twos=0,threes=0,fours=0,fives=0,sixes=0,3k=0,4k=0,fh=0",
    "aces=2,fours=4,yahtzee=0,ss=0,ls=0",
    "aces=3,twos=6,threes=9,fours=0,fives=5,sixes=6,3k=0,4k=0,fh=0,ss=0,ls=0,yahtzee=0",
    "yahtzee=50",  # every target up to R already reached
)


@pytest.fixture
def targets_file(small_targets):
    """A target table of the official rules for every target up to R (built once)."""
    assert target_table.open_targets(small_targets, get_table("official")).max_target == R
    return small_targets


@pytest.fixture
def stored(targets_file, monkeypatch):
    """The small target table where questions look for it."""
    monkeypatch.setattr(target_table, "default_targets_path", lambda rules: targets_file)
    forget_targets()
    yield targets_file
    forget_targets()


@pytest.fixture
def at(targets_at):
    """at(path): questions look for the target table at ``path`` (a copy to damage)."""
    return targets_at


def same_turn(a: SolvedTurn, b: SolvedTurn) -> None:
    """Every figure a turn's advice reads, bit for bit."""
    assert np.array_equal(a.keep_values[1:], b.keep_values[1:])
    assert np.array_equal(a.keep_values[0][ROLL_KEEP], b.keep_values[0][ROLL_KEEP])
    assert a.value == b.value
    assert a.boxes == b.boxes


def solved(card: Scorecard, table, x: int, monkeypatch, targets) -> SolvedTurn:
    monkeypatch.setattr(target_table, "default_targets_path", lambda rules: targets)
    forget_targets()
    return solve_turn(card, table, TargetGoal(x), TurnMemory())


def test_every_turn_read_from_the_table_is_the_solved_one(official_table, targets_file,
                                                          tmp_path, monkeypatch):
    checked = 0
    for text in CARDS:
        card = Scorecard.parse(text)
        for x in sorted({1, 5, card.total + 1, card.total + 7, R - 1, R} - {0}):
            if x > R:
                continue
            read = solved(card, official_table, x, monkeypatch, targets_file)
            assert get_targets(official_table) is not None
            want = solved(card, official_table, x, monkeypatch, tmp_path / "none.ytargets")
            assert get_targets(official_table) is None
            same_turn(read, want)
            checked += 1
    assert checked >= 30
    forget_targets()


def test_stats_read_from_the_table_are_the_solved_ones(official_table, targets_file,
                                                       tmp_path, monkeypatch):
    card = Scorecard.parse(CARDS[3])
    rows = (3, 10, 20, R)
    monkeypatch.setattr(target_table, "default_targets_path", lambda rules: targets_file)
    forget_targets()
    read = target_stats(official_table, card, 17, rows).to_json()
    monkeypatch.setattr(target_table, "default_targets_path", lambda r: tmp_path / "no")
    forget_targets()
    want = target_stats(official_table, card, 17, rows).to_json()
    read.pop("seconds"), want.pop("seconds")
    assert read == want and 0 < want["p_target"] < 1
    forget_targets()


def test_stats_above_the_table_read_what_it_holds_and_solve_the_rest(official_table,
                                                                      targets_file,
                                                                      tmp_path, monkeypatch):
    from advisor.target_stats import asked_targets, stored_top

    card = Scorecard.parse(CARDS[4])
    rows = (3, 10, R, R + 9, R + 20)
    monkeypatch.setattr(target_table, "default_targets_path", lambda rules: targets_file)
    forget_targets()
    wanted = asked_targets(card, 17, rows)
    assert wanted == [10, 17, R, R + 9, R + 20] and stored_top(official_table, wanted) == R
    read = target_stats(official_table, card, 17, rows).to_json()
    monkeypatch.setattr(target_table, "default_targets_path", lambda r: tmp_path / "no")
    forget_targets()
    assert stored_top(official_table, wanted) is None
    want = target_stats(official_table, card, 17, rows).to_json()
    read.pop("seconds"), want.pop("seconds")
    assert read == want and want["targets"][-1]["p_target"] > 0
    forget_targets()


def test_advise_json_is_the_same_with_and_without_the_table(official_table, stored,
                                                            monkeypatch, tmp_path):
    args = ["advise", "22256", "--card", CARDS[2], "--target", "25", "--json", "--top", "0"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "note:" not in result.stderr  # read at once: nothing solved, nothing to say
    monkeypatch.setattr(target_table, "default_targets_path", lambda r: tmp_path / "no")
    forget_targets()
    again = CliRunner().invoke(cli, args)
    assert again.exit_code == 0 and json.loads(again.stdout) == json.loads(result.stdout)


def test_without_a_table_a_slow_question_says_how_to_build_one(official_table, at, tmp_path):
    at(tmp_path / "none.ytargets")
    card = "aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18"  # seven open boxes
    result = CliRunner().invoke(cli, ["advise", "22256", "--card", card, "--target", "250"])
    assert result.exit_code == 0, result.output
    assert ("note: P(final score >= 250) is solved from this card (up to a minute or more "
            "from a new game); `yahtzee solve --targets --rules official` stores the answers "
            "of every target up to 500 once") in result.stderr


def test_a_target_above_the_table_is_solved_and_says_so(official_table, stored):
    card = "aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18"  # (a question no test asks)
    result = CliRunner().invoke(cli, ["advise", "22256", "--card", card, "--target", "251"])
    assert result.exit_code == 0, result.output
    assert (f"the target table holds targets up to {R}; `yahtzee solve --targets --rules "
            f"official --max 251` rebuilds it for this one") in result.stderr


# ---------------------------------------------------------------------- refusals
def damaged(targets_file, tmp_path, change) -> object:
    path = tmp_path / "official.ytargets"
    shutil.copyfile(targets_file, path)
    data = bytearray(path.read_bytes())
    change(data)
    path.write_bytes(bytes(data))
    return path


REBUILD = "rebuild it with: yahtzee solve --targets --rules official --max 30"


@pytest.mark.parametrize(("change", "words"), [
    (lambda d: d.__delitem__(slice(len(d) - 8, None)), "data bytes, expected"),
    (lambda d: d.extend(b"\0" * 8), "extra bytes after the table"),
    (lambda d: d.__setitem__(slice(len(d.split(b"\n", 1)[0]) + 9,
                                   len(d.split(b"\n", 1)[0]) + 10), b"\x7f"),
     "checksum mismatch in its index"),
    (lambda d: d.__setitem__(slice(0, d.index(b"\n")),
                             d[:d.index(b"\n")].replace(b'"shape": [', b'"shape": [1, ')),
     "expected one axis"),
])
def test_a_damaged_file_is_refused_with_the_rebuild_command(official_table, targets_file,
                                                            tmp_path, at, change, words):
    path = damaged(targets_file, tmp_path, change)
    with pytest.raises(CorruptTableError, match=words) as caught:
        open_targets(path, official_table)
    assert str(caught.value).endswith("rebuild it with: yahtzee solve --targets --rules "
                                      "official") or REBUILD in str(caught.value)
    # a question then notes it, and is solved as without a table
    at(path)
    notes: list[str] = []
    assert get_targets(official_table, note=notes.append) is None
    assert len(notes) == 1 and "unusable" in notes[0] and "yahtzee solve --targets" in notes[0]


def test_a_damaged_level_is_found_when_read_and_the_question_solved(official_table,
                                                                    targets_file, tmp_path,
                                                                    at):
    path = damaged(targets_file, tmp_path, lambda d: d.__setitem__(slice(-3, -2), b"\x55"))
    table = open_targets(path, official_table)  # the index is sound: it opens
    last = official_table.rules.n_boxes - 1
    with pytest.raises(CorruptTableError, match=f"checksum mismatch in level {last}") as caught:
        table.level_values(last)
    assert REBUILD in str(caught.value)
    at(path)
    card = "aces=3,twos=6,threes=9,fours=0,fives=5,sixes=6,3k=0,4k=0,fh=0,ss=0,ls=0"
    # two boxes open: its turn reads the last level stored
    result = CliRunner().invoke(cli, ["advise", "22256", "--card", card, "--target", "30",
                                      "--json"])
    assert result.exit_code == 0, result.output
    assert f"checksum mismatch in level {last}" in result.stderr
    assert "solving the question instead" in result.stderr


def test_a_table_of_other_rules_or_beside_another_table_is_refused(official_table, table_of,
                                                                  targets_file):
    with pytest.raises(CorruptTableError, match="holds rules \"official\", not 'yatzy'"):
        open_targets(targets_file, table_of("yatzy"))
    from solver.table import Table

    values = official_table.values.copy()
    values[0, 0, 0] += 1e-9  # another expected-score table of the same rules
    with pytest.raises(CorruptTableError,
                       match=r"unusable \(computed from another table\); rebuild it with"):
        open_targets(targets_file, Table(official_table.rules, values, official_table.path))
    with pytest.raises(MissingTableError, match="build it with: yahtzee solve --targets"):
        open_targets(targets_file.with_name("none.ytargets"), official_table)


def test_solve_targets_writes_where_questions_read_and_never_clobbers(official_table,
                                                                     tmp_path, at):
    path = at(tmp_path / "official.ytargets")
    path.write_text("my notes\n")
    monkey_default = target_table.default_targets_path
    assert monkey_default("official") == path
    result = CliRunner().invoke(cli, ["solve", "--targets", "--max", "6"])
    assert result.exit_code == 2 and path.read_text() == "my notes\n", result.output
    path.unlink()
    result = CliRunner().invoke(cli, ["solve", "--targets", "--max", "6", "--json"])
    assert result.exit_code == 0, result.output
    built = json.loads(result.stdout)
    assert built["max_target"] == 6 and built["bytes"] == path.stat().st_size
    assert get_targets(official_table).max_target == 6
    # a target table of the same rules is rebuilt in place
    result = CliRunner().invoke(cli, ["solve", "--targets", "--max", "7"])
    assert result.exit_code == 0, result.output
    assert "targets:        1 to 7" in result.stdout
    assert get_targets(official_table).max_target == 7


@pytest.mark.parametrize(("args", "words"), [
    (["--targets", "--max", "0"], "--max"),
    (["--targets", "--max", "x"], "--max"),
    (["--targets", "--max", "1576"], "the highest score of official is 1575"),
    (["--targets", "--rules", "yatzy", "--max", "375"], "the highest score of yatzy is 374"),
    (["--max", "300"], "--max is the largest target of --targets"),
    (["--targets", "--out", "x.ytable"], "--out is where the expected-score table goes"),
])
def test_bad_solve_targets_options_are_refused(args, words, tmp_path, at):
    path = at(tmp_path / "official.ytargets")
    result = CliRunner().invoke(cli, ["solve", *args])
    assert result.exit_code == 2 and words in result.stderr, result.output
    assert not path.exists() and not (tmp_path / "x.ytable").exists()


def test_the_default_covers_500_or_every_score():
    assert target_table.default_max("official") == 500
    assert target_table.default_max("yatzy") == 374
    assert default_targets_path("yatzy").name == "yatzy.ytargets"



def test_play_reads_a_turn_from_the_table_without_a_word(official_table, stored):
    from advisor.play import GameSession
    from advisor.record import parse_record

    told: list[str] = []
    session = GameSession(parse_record("rules official\nplayers Ann\n"), official_table,
                          memory=Caches(), notify=told.append, objective=Objective.for_target(R))
    lines = session.handle("22256")
    assert "P(target)" in "\n".join(lines)
    assert not any("working out" in line or "while" in line for line in told), told
