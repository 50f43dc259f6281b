"""``yahtzee solve --tournament N``: a tournament's whole-game solve kept on disk, one file
per rules, field and players (the field's scores part of the name), read by every later
question and checked on read (``solver/tournament_file.py``).

A small field of observed scores keeps the whole-game solve to seconds (its utility is 1
from 27 points on: few columns per state). Values are checked against the plain-Python
DP twin with the tie-enumerating utility (tests/oracles) on late cards, the DP read from
the file (solving is made to fail); a damaged file is refused with one note naming the
command that rebuilds it, and the question solved instead (the same figures).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import solver.target as target_module
from advisor.cli import cli
from advisor.model import Scorecard
from advisor.objective import Objective
from advisor.ranking import TurnAdvisor
from solver import vector_cache
from solver.field import read_scores
from solver.game.rules import get_rules
from solver.tournament_file import field_name, forget_tournaments, tournament_path
from tests.advisor.objective.test_tournament import assert_options_equal_the_twin, start
from tests.oracles.target_reference import TwinDP
from tests.oracles.tournament_reference import tournament_utility

SCORES = "5 12 20 26 26\n"
PLAYERS = "3"
ZEROS = "aces=0,twos=0,threes=0,fours=0,fives=0,sixes=0,3k=0,4k=0,fh=0,ls=0,yahtzee=0"
"""Small straight and chance open, total 0: where the small field's shares are not 0/1."""
LATE = ["aces=0,twos=0,threes=0,fours=0,fives=0,sixes=0,3k=0,4k=0,fh=0,ls=0,yahtzee=0",
        "aces=1,twos=0,threes=0,fours=0,fives=0,sixes=0,3k=0,4k=0,ss=0,ls=0,ch=7"]


def run_cli(*args: str):
    return CliRunner().invoke(cli, list(args))


def fresh() -> None:
    """A new process's state: nothing opened (no vectors are kept either: each command run
    and each TurnAdvisor given no caches starts with empty ones)."""
    forget_tournaments()


@pytest.fixture(scope="module")
def scores_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("field") / "scores.txt"
    path.write_text(SCORES)
    return path


@pytest.fixture(scope="module")
def objective(scores_file) -> Objective:
    return Objective.parse_options(tournament=PLAYERS, field_scores=str(scores_file))


@pytest.fixture(scope="module")
def solved_json(official_table, scores_file, objective):
    """``advise --json`` of a new game and of the late cards, and a new game's share
    (``"new game"``), solved (no file yet)."""
    fresh()
    path = tournament_path(official_table.rules, 3, objective.field)
    assert not path.exists()
    answers = {card: json.loads(run_cli("advise", "22256", "--card", card, "--tournament",
                                        PLAYERS, "--field-scores", str(scores_file),
                                        "--json", "--top", "0").stdout)
               for card in ["", *LATE]}
    fresh()
    answers["new game"] = TurnAdvisor(Scorecard.new(), official_table, objective).probability()
    fresh()
    return answers


@pytest.fixture(scope="module")
def kept(official_table, scores_file, objective, solved_json):
    """``solve --tournament 3 --field-scores FILE --json`` run once: (its JSON, the
    file's path, the file's bytes)."""
    result = run_cli("solve", "--tournament", PLAYERS, "--field-scores", str(scores_file),
                     "--json")
    assert result.exit_code == 0, result.output
    path = tournament_path(official_table.rules, 3, objective.field)
    yield json.loads(result.stdout), path, path.read_bytes()
    path.unlink()
    fresh()


@pytest.fixture
def no_solve(monkeypatch):
    """Solving the tournament's DP fails: an answer must come from the file."""
    def refuse(*args, **kwargs):
        raise AssertionError("solved instead of read from the file")

    monkeypatch.setattr(target_module, "solve_vectors", refuse)
    monkeypatch.setattr(vector_cache, "solve_vectors", refuse)
    fresh()
    yield
    fresh()


def advise_json(scores_file, card: str):
    result = run_cli("advise", "22256", "--card", card, "--tournament", PLAYERS,
                     "--field-scores", str(scores_file), "--json", "--top", "0")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout), result.stderr


def test_solve_keeps_the_solve_where_questions_read_it(official_table, kept, objective,
                                                       solved_json):
    """The file is at the path of (rules, field, players), its size is the JSON's, and
    its new-game share is the solved one's, bit for bit."""
    data, path, content = kept
    assert data["path"] == str(path) and data["bytes"] == len(content)
    assert path.name == f"official.tournament-3-{field_name(objective.field)}.ytournament"
    assert data["objective"] == objective.to_json() and data["players"] == 3
    assert data["win_share"] == solved_json["new game"]


@pytest.mark.parametrize("card", ["", *LATE])
def test_every_answer_read_from_the_file_is_the_solved_one(kept, scores_file, solved_json,
                                                           no_solve, card):
    """With solving made to fail, advise answers from the file: the same JSON as solved."""
    got, _ = advise_json(scores_file, card)
    assert got == solved_json[card]


@pytest.mark.parametrize("card_text", LATE)
def test_late_cards_read_from_the_file_equal_the_twin(official_table, kept, scores_file,
                                                       objective, no_solve, card_text):
    """Every option of late cards, read from the file, against the plain-Python twin with
    the utility built by enumerating ties."""
    field = objective.field.distribution(official_table)
    utility = np.array(tournament_utility(field.tolist(), 3))
    twin = TwinDP(get_rules("official"), utility, 1.0, utility.shape[0] + 1)
    card = Scorecard.parse(card_text)
    want = twin.value(*start(card))[card.total]
    assert 0.01 < want < 0.99
    got = TurnAdvisor(card, official_table, objective).probability()
    assert got == pytest.approx(want, abs=1e-12, rel=0)
    assert_options_equal_the_twin(card, official_table, objective, twin)


def test_the_file_is_named_by_the_scores_not_the_path(official_table, kept, scores_file,
                                                      objective, tmp_path):
    """The same scores in another file (another order, a comment) name the same solve;
    one score changed names another."""
    rules = official_table.rules
    same = tmp_path / "same.txt"
    same.write_text("# the same field\n26,26,20\n12 5\n")
    changed = tmp_path / "changed.txt"
    changed.write_text(SCORES.replace("26 26", "26 27"))
    path = kept[1]
    assert tournament_path(rules, 3, read_scores(same, rules)) == path
    assert tournament_path(rules, 3, read_scores(changed, rules)) != path
    assert tournament_path(rules, 4, objective.field) != path


def test_a_changed_field_never_reads_an_older_solve(official_table, kept, scores_file,
                                                    tmp_path):
    """The kept file copied to the name of a changed field (as if its scores file had
    been edited under the same name) is refused by its utility's checksum, with one note,
    and the question solved: the changed field's own figures."""
    rules = official_table.rules
    changed = tmp_path / "changed.txt"
    changed.write_text(SCORES.replace("26 26", "26 27"))
    other = tournament_path(rules, 3, read_scores(changed, rules))
    fresh()
    want, _ = advise_json(changed, ZEROS)
    shutil.copyfile(kept[1], other)
    try:
        fresh()
        got, err = advise_json(changed, ZEROS)
    finally:
        other.unlink()
        fresh()
    notes = [line for line in err.splitlines() if line.startswith("note:")]
    assert len(notes) == 1 and "computed from another utility" in notes[0], err
    assert notes[0].endswith("; solving the tournament instead")
    assert got == want


def damaged(content: bytes, where: str, level_two: int) -> bytes:
    """The file's bytes damaged: ``cut`` (the last level cut short), ``index`` (a byte of
    the index changed), ``level`` (a byte of the second level's values changed: they
    start at value ``level_two`` of the data)."""
    start = content.index(b"\n") + 1
    if where == "cut":
        return content[:-64]
    data = bytearray(content)
    slots = int(np.prod(get_rules("official").table_shape))
    at = start + 8 * (slots + 3 if where == "index" else level_two + 1) + 6
    data[at] ^= 0x40
    return bytes(data)


@pytest.mark.parametrize(("where", "why"), [
    ("cut", "truncated"),
    ("index", "checksum mismatch in its index"),
    ("level", "checksum mismatch in level 2"),
])
def test_a_damaged_file_is_refused_in_one_note_and_the_turn_solved(
        official_table, kept, scores_file, objective, where, why):
    """A damaged file is never used: one note says what is wrong and the command that
    rebuilds it, and the answer is the solved one (the second card reads level 2)."""
    path, content = kept[1], kept[2]
    card = "aces=1"
    level_two = objective.stored_solve(official_table)._first[1]
    path.write_bytes(damaged(content, where, level_two))
    try:
        fresh()
        got, err = advise_json(scores_file, card)
    finally:
        path.write_bytes(content)
        fresh()
    notes = [line for line in err.splitlines() if line.startswith("note:")]
    assert len(notes) == 1 and why in notes[0], err
    assert "rebuild it with: yahtzee solve --tournament 3 --field-scores FILE --rules " \
           "official; solving the tournament instead" in notes[0]
    fresh()
    assert got == advise_json(scores_file, card)[0]


@pytest.mark.parametrize(("args", "why"), [
    (("--tournament", "0"), "2 to 100,000 players"),
    (("--tournament", "1"), "2 to 100,000 players"),
    (("--tournament", "100001"), "2 to 100,000 players"),
    (("--tournament", "ten"), "whole number of players"),
    (("--tournament", "3", "--field", "heuristic"), "computed for optimal only"),
    (("--field", "optimal"), "with --tournament"),
    (("--tournament", "3", "--targets"), "leave out --targets and --out"),
    (("--tournament", "3", "--out", "x.ytable"), "leave out --targets and --out"),
])
def test_solve_refuses_a_bad_tournament_in_one_line(official_table, args, why, tmp_path):
    result = run_cli("solve", *args)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and why in lines[0], lines
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(("content", "why"), [(b"", "holds no score"),
                                              (b"\x00\xff", "not text"),
                                              (b"300\n-1\n", "not a final score"),
                                              (b"300 9999", "0 to 1575"),
                                              (b"1" * (9 << 20), "too large")])
def test_solve_refuses_a_bad_file_of_scores_in_one_line(official_table, tables_dir,
                                                        tmp_path, content, why):
    path = tmp_path / "scores.txt"
    path.write_bytes(content)
    before = sorted(p.name for p in Path(tables_dir).iterdir())
    result = run_cli("solve", "--tournament", "3", "--field-scores", str(path))
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and why in lines[0], lines
    assert sorted(p.name for p in Path(tables_dir).iterdir()) == before
