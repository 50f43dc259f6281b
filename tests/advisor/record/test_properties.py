"""Property-based tests (hypothesis) of issue 22: any name a record accepts reads back
unchanged from both forms and from a rewritten file; a record read in a form is written
back in that form (comments too); numbers and Python values given to the library give an
answer or a ValueError subclass of the library, nothing else."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from advisor.cli import cli
from advisor.model import Dice, Scorecard
from advisor.objective import Objective
from advisor.ranking import advise
from advisor.record import GameRecord, Turn, check_names, parse_record
from advisor.record_file import RecordFile, RecordForm, read_record
from solver.errors import YahtzeeError
from solver.game.move import Move
from solver.goals import TargetGoal
from solver.numbers import MAX_DIGITS

SETTINGS = settings(max_examples=300, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])
FEW = settings(max_examples=40, deadline=None, database=None,
               suppress_health_check=[HealthCheck.function_scoped_fixture])

# Characters that have broken records: separators, controls, line breaks of every kind,
# surrogates, spaces of other scripts, marks, and the words the text form starts lines with.
HOSTILE = ["\n", "\r", "\v", "\f", "\x1c", "\x1d", "\x1e", "\x1f", "\x85", "\u2028", "\u2029",
           "\t", "\x00", "\x1b", "\ud800", "\udcff", "\ufeff", "\u00a0", "\u3000", "\u200b",
           "\u202e", ":", ",", "#", "{", "\"", "\\", " ", "-", "é", "李", "😀"]
NAME_CHARS = st.one_of(st.sampled_from(HOSTILE),
                       st.characters(blacklist_categories=()), st.sampled_from("abcAB12"))
NAMES = st.one_of(
    st.text(NAME_CHARS, min_size=0, max_size=45),
    st.builds(lambda word, rest: f"{word}{rest}", st.sampled_from(["rules", "players", "RULES",
                                                                   "Players", "22256"]),
              st.text(NAME_CHARS, max_size=10)))


def only_library_errors(func, *args, **kwargs):  # noqa: ANN001, ANN201
    try:
        return func(*args, **kwargs)
    except YahtzeeError:
        return None


def random_game(seed: int, players: tuple[str, ...], rules: str = "official",
                steps: int | None = None) -> GameRecord:
    """A legal game (perhaps unfinished) of random rolls, keeps and boxes."""
    rng = random.Random(seed)
    record = GameRecord(rules, players)
    per_turn = record.cards()[players[0]].rules.rolls_per_turn
    drawn = rng.randint(0, 40)  # drawn either way: the same seed, the same game
    steps = drawn if steps is None else steps
    for _ in range(steps):
        if record.is_finished:
            break
        turn = record.current
        if turn is None or len(turn.keeps) == len(turn.rolls):
            kept = list(turn.keeps[-1].faces) if turn is not None else []
            dice = Dice(kept + [rng.randint(1, 6) for _ in range(5 - len(kept))])
            record = record.with_roll(dice)
            continue
        card = record.cards()[turn.player]
        if len(turn.rolls) < per_turn and rng.random() < 0.6:
            faces = list(turn.rolls[-1].faces)
            keep = rng.sample(faces, rng.randint(0, 4))
            record = record.with_move(Move(keep=tuple(sorted(keep))))
        else:
            allowed = card.rules.placements(turn.rolls[-1].faces, card.mask,
                                            card.yahtzee_holds_50)
            box = rng.choice(allowed).box
            record = record.with_move(Move(box=card.rules.boxes[box].name))
    return record


# ---------------------------------------------------------------- names

@SETTINGS
@given(NAMES)
@example("rules x")
@example("players Ann")
@example("A\u2028b")
def test_any_accepted_name_round_trips_through_both_forms(name: str) -> None:
    if only_library_errors(check_names, [name, "Bob"]) is None:
        with pytest.raises(YahtzeeError):
            GameRecord("official", (name, "Bob"))
        return
    record = random_game(len(name), (name, "Bob"), steps=12)
    assert parse_record(str(record)) == record
    assert parse_record(json.dumps(record.to_json())) == record
    assert parse_record(json.dumps(record.to_json(), ensure_ascii=False)) == record
    form = RecordForm.of("# a comment\n" + str(record))
    longer = random_game(len(name), (name, "Bob"), steps=16)
    assert parse_record(form.render(longer)) == longer
    assert form.render(longer).startswith("# a comment\n")


@FEW
@given(NAMES)
def test_any_accepted_name_round_trips_through_a_file(tmp_path_factory, name: str) -> None:
    assume(only_library_errors(check_names, [name]) is not None)
    folder = tmp_path_factory.mktemp("names")
    path = folder / "g.txt"
    record = random_game(7, (name,), steps=6)
    with RecordFile.create(path, GameRecord("official", (name,)), "# objective: x\n") as held:
        held.save(record)
    assert read_record(path) == record
    with RecordFile.open(path) as held:
        assert held.record == record
        held.save(record.without_last_step())
    assert read_record(path) == record.without_last_step()
    assert path.read_text(encoding="utf-8").startswith("# objective: x\n")


# ---------------------------------------------------------------- records in both forms

COMMENT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=20).map(
    lambda t: "#" + t.replace("\n", " ").replace("\r", " "))


@SETTINGS
@given(st.integers(0, 10**6), st.integers(1, 3), st.sampled_from(["official", "yatzy",
                                                                    "two-rolls"]),
       st.lists(st.tuples(st.integers(0, 60), COMMENT), max_size=5),
       st.sampled_from(["\n", "\r\n"]), st.booleans(), st.integers(0, 30))
def test_a_record_is_rewritten_in_its_own_form(seed: int, n_players: int, rules: str,
                                               comments: list[tuple[int, str]], newline: str,
                                               bom: bool, more: int) -> None:
    players = tuple(f"P{i}" for i in range(n_players))
    record = random_game(seed, players, rules)
    lines = str(record).splitlines()
    for at, comment in comments:  # whole-line and end-of-line comments
        at = min(at, len(lines))
        if at < len(lines) and at % 2:
            lines[at] = f"{lines[at]}  {comment}"
        else:
            lines.insert(at, comment)
    text = ("\ufeff" if bom else "") + newline.join(lines) + newline
    form = RecordForm.of(text)
    assert form.record == record
    assert form.render(record) == text  # nothing changed: byte for byte
    later = random_game(seed, players, rules, steps=len(_steps(record)) + more)
    if later.turns[:len(record.turns)] != record.turns:
        return  # the random game took another path: not a continuation
    out = form.render(later)
    assert parse_record(out) == later
    assert out.startswith("\ufeff") == bom
    assert all(comment in out for _, comment in comments if comment.strip("#").strip())
    assert ("\r\n" in out) == (newline == "\r\n")
    as_json = RecordForm.of(json.dumps({**record.to_json(), "mine": [1, 2]}))
    rendered = json.loads(as_json.render(later))
    assert rendered["mine"] == [1, 2] and parse_record(json.dumps(rendered)) == later


def _steps(record: GameRecord) -> list[int]:
    """One item per step the random game took (rolls and moves)."""
    return [0 for t in record.turns for _ in (*t.rolls, *t.keeps, *([t.box] if t.box else []))]


# ---------------------------------------------------------------- numbers

NUMBER_TEXT = st.one_of(
    st.integers(-10, 10**40).map(str),
    st.text(st.sampled_from(list("0123456789 _+-.eE") + ["３", "٣", "²", "\u00a0", "𝟗"]),
            max_size=40),
    st.just("9" * 5000))


@SETTINGS
@given(st.one_of(NUMBER_TEXT, st.integers(-5, 10**40), st.floats(), st.booleans(),
                 st.none(), st.builds(np.int64, st.integers(0, 10**6))))
def test_targets_are_ascii_whole_numbers_of_bounded_size(value) -> None:  # noqa: ANN001
    objective = only_library_errors(Objective.for_target, value)
    if objective is None:
        return
    assert type(objective.target) is int and 0 <= objective.target < 10 ** MAX_DIGITS
    if isinstance(value, str):
        assert value.strip().isascii() and value.strip().isdigit()
    json.dumps(objective.to_json())


LATE_CARD = ("aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30,"
             "ls=40,yahtzee=0")


@FEW
@given(NUMBER_TEXT, st.sampled_from(["--target", "--beat"]))
def test_cli_any_target_text(official_table, text: str, option: str) -> None:
    result = CliRunner().invoke(cli, ["advise", "22256", "--card", LATE_CARD, option, text,
                                      "--json"])
    assert result.exit_code in (0, 2), result.output
    assert "Traceback" not in result.output
    if result.exit_code == 0:
        data = json.loads(result.stdout)
        if data["objective"]["target"] > Scorecard.parse(LATE_CARD).total + 30:  # Chance
            assert all(o["p_target"] == 0.0 for o in data["options"])
    else:
        assert result.stderr.startswith("Error: ") and len(result.stderr) < 300


def test_out_of_reach_targets_equal_the_solved_zeros(official_table, monkeypatch) -> None:
    """The shortcut for a target no play can reach gives exactly what solving gives."""
    card = Scorecard.parse(LATE_CARD)
    assert card.total == 233  # Chance open: at most 30 more
    for target in (card.total + 31, card.total + 40, 10**20):
        objective = Objective.for_target(target)
        assert objective.is_out_of_reach(card)
        assert not Objective.for_target(card.total + 30).is_out_of_reach(card)
        fast = [advise(card, dice, rolls_left=r, table=official_table, objective=objective)
                for dice, r in (("12356", 1), ("66666", 0))]
        with monkeypatch.context() as patched:
            patched.setattr(TargetGoal, "is_out_of_reach", lambda self, card: False)
            solved = [advise(card, dice, rolls_left=r, table=official_table,
                             objective=Objective.for_target(min(target, 400)))
                      for dice, r in (("12356", 1), ("66666", 0))]
        for quick, slow in zip(fast, solved, strict=True):
            assert [(o.move, o.p_target, o.expected_final) for o in quick.options] == \
                [(o.move, o.p_target, o.expected_final) for o in slow.options]
            assert all(o.p_target == 0.0 for o in quick.options)


# ---------------------------------------------------------------- the Python API

ANY_VALUE = st.one_of(st.none(), st.booleans(), st.integers(-3, 5), st.floats(allow_nan=True),
                      st.text(max_size=12), st.binary(max_size=5),
                      st.builds(np.int64, st.integers(-1, 4)), st.builds(np.float64),
                      st.lists(st.integers(0, 7), max_size=6), st.just(object()),
                      st.sampled_from(["22256", "twos=6", "", "official", "target"]))


@SETTINGS
@given(ANY_VALUE, ANY_VALUE, ANY_VALUE, st.one_of(ANY_VALUE, st.just("TABLE")), ANY_VALUE,
       ANY_VALUE)
@example(card="", dice="22256", rolls_left=None, table="TABLE", objective=None, target=200)
def test_advise_takes_any_values(official_table, card, dice, rolls_left, table, objective,
                                 target) -> None:
    table = official_table if table == "TABLE" else table
    only_library_errors(advise, card, dice, rolls_left=rolls_left, table=table,
                        objective=objective, target=target)
    only_library_errors(advise, card, "22256", rolls_left=rolls_left, table=official_table)


@SETTINGS
@given(st.lists(ANY_VALUE, max_size=16), ANY_VALUE, ANY_VALUE)
def test_cards_records_and_objectives_take_any_values(entries, first, second) -> None:
    card = only_library_errors(Scorecard, entries)
    if card is not None:
        assert all(e is None or type(e) is int for e in card.entries)
        assert Scorecard.parse(str(card)) == card
    for value in (first, second):
        only_library_errors(Scorecard.parse, value)
        only_library_errors(parse_record, value)
        only_library_errors(Objective.win, value)
        only_library_errors(Objective.win_against, value)
        only_library_errors(Objective.win_against, [value])
        only_library_errors(GameRecord, "official", value)
        only_library_errors(GameRecord, "official", ("A",), value)
        only_library_errors(lambda v: GameRecord("official", ("A",), [Turn("A", (v,))]), value)
        only_library_errors(lambda v: GameRecord("official", ("A",), [Turn(v, ())]), value)
        only_library_errors(read_record, value if not isinstance(value, str) else
                            Path("/nonexistent") / value.replace("\0", ""))
