"""`yahtzee train`: positions of optimal play (seeded) or of the player's records, every
grade equal to `advise`'s loss for that position, the history appended (never
clobbered), and bad input refused in one line."""

from __future__ import annotations

import json
import os

import pytest
from click.testing import CliRunner

from advisor.cli import cli
from advisor.model import Dice, Keep, Scorecard
from advisor.record_file import read_record
from advisor.train import (
    Position,
    advice_of,
    choices,
    grade,
    has_choice,
    kinds_of,
    positions_of_play,
)
from advisor.train_history import FORMAT, append_session, read_history
from solver.game.move import Move
from solver.game.rules import RULE_NAMES, get_rules

# Answers for a scripted session: option numbers of the neutral list, moves as typed in
# play, and boxes by name; whatever does not fit a position is replaced by choice 1.
ANSWERS = ["1", "2", "reroll all", "3", "5", "1", "4", "2", "6", "3"]


@pytest.fixture(autouse=True)
def _tables(official_table, official_moments):
    """The cached official table and figures exist, so no command builds them."""


def train(*args, answers=(), history=None):
    extra = ["--history", str(history)] if history is not None else ["--no-history"]
    return CliRunner().invoke(cli, ["train", *args, *extra],
                              input="".join(f"{a}\n" for a in answers))


def advise_json(card: str, dice: list[int], rolls_left: int, *extra: str) -> dict:
    result = CliRunner().invoke(cli, ["advise", "".join(map(str, dice)), "--card", card,
                                      "--rolls-left", str(rolls_left), "--top", "0", "--json",
                                      "--why", *extra])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_every_grade_equals_advise_and_the_history_grows_by_one(tmp_path, memory):
    history = tmp_path / "history.jsonl"
    result = train("--seed", "5", "--positions", "10", "--json", answers=ANSWERS,
                   history=history)
    assert result.exit_code == 0, result.output
    session = json.loads(result.stdout)
    assert session["complete"] and session["decisions"] == 10 and session["seed"] == 5
    assert len(session["positions"]) == 10
    for entry, typed in zip(session["positions"], ANSWERS, strict=True):
        advice = advise_json(entry["card"]["text"], entry["dice"], entry["rolls_left"])
        assert advice["card"] == entry["card"]
        assert entry["best"] == advice["options"][0]
        (same,) = [o for o in advice["options"] if o == entry["answer"]]
        assert entry["loss"] == same["loss"]  # exactly advise's loss of that choice
        assert entry["error"] == (same["loss"] > 1e-9)
        if typed.isdigit():  # a number of the neutral list
            position = Position(Scorecard.parse(entry["card"]["text"]), Dice(entry["dice"]),
                                entry["rolls_left"])
            listed = choices(advice_of(position, why=True, memory=memory))
            assert listed[int(typed) - 1].to_json() == entry["answer"]
    losses = [p["loss"] for p in session["positions"]]
    assert session["total_loss"] == pytest.approx(sum(losses), abs=1e-12)
    assert session["mean_loss"] == pytest.approx(sum(losses) / 10, abs=1e-12)
    kinds = session["kinds"]
    assert kinds["keep"]["decisions"] + kinds["box"]["decisions"] == 10
    for kind, figures in kinds.items():
        mine = [p["loss"] for p in session["positions"] if kind in p["kinds"]]
        assert figures["decisions"] == len(mine)
        assert figures["mean_loss"] == pytest.approx(sum(mine) / len(mine), abs=1e-12)
    assert session["history"] == {"path": str(history), "sessions": 1}
    first = history.read_bytes()
    again = train("--seed", "5", "--positions", "10", "--json", answers=ANSWERS,
                  history=history)
    assert json.loads(again.stdout)["positions"] == session["positions"]  # same seed
    grown = history.read_bytes()
    assert grown.startswith(first) and grown.count(b"\n") == first.count(b"\n") + 1
    sessions = read_history(history)
    assert len(sessions) == 2
    assert sessions[1]["mean_loss"] == session["mean_loss"]
    assert sessions[1]["kinds"] == session["kinds"]


def test_positions_are_decisions_optimal_play_made(official_table, memory):
    from advisor.record_file import records_from_traces
    from solver.simulate import simulate

    positions = positions_of_play(official_table, 12, 99)
    games = list(records_from_traces("official",
                                     simulate(official_table, "optimal", 12, 99,
                                              record=True).traces))
    for position in positions:
        game = games[dict(position.source)["game"] - 1]
        found = [(p.card, p.dice, p.rolls_left) for p in game.positions()]
        assert (position.card, position.dice, position.rolls_left) in found
        # a choice: a roll left, or more than one box the advice lists
        advice = advice_of(position, official_table, memory=memory)
        assert position.rolls_left > 0 or len(advice.options) > 1
        # optimal play took the advice there
        (move,) = [p.move for p in game.positions()
                   if (p.card, p.dice, p.rolls_left) == (position.card, position.dice,
                                                         position.rolls_left)]
        assert advice.best.move == move or advice.best.loss == next(
            o.loss for o in advice.options if o.move == move)
    other = positions_of_play(official_table, 12, 100)
    assert other != positions
    assert positions_of_play(official_table, 12, 99) == positions


def test_a_text_session_grades_each_answer_and_sums_up(tmp_path):
    history = tmp_path / "h.jsonl"
    result = train("--seed", "3", "--positions", "2",
                   answers=["list", "card", "help", "keep 7", "1", "", "2"], history=history)
    out = result.output
    assert result.exit_code == 0, out
    assert "practice: 2 positions of games that optimal play plays (seed 3)" in out
    assert "== position 1 of 2: turn " in out and "== position 2 of 2: turn " in out
    assert "   1  keep " in out or "   1  score " in out
    assert "  total " in out  # the card
    assert "  list           every choice" in out
    assert "! 'keep 7'" in out
    assert "! type your choice" in out
    assert "== session: 2 decisions" in out
    assert f"history {history}: 1 session of these rules" in out


def test_quit_keeps_the_positions_answered(tmp_path):
    history = tmp_path / "h.jsonl"
    result = train("--seed", "3", "--positions", "4", answers=["1", "quit"], history=history)
    assert result.exit_code == 0, result.output
    assert "== session (stopped after 1 of 4): 1 decision" in result.output
    (session,) = read_history(history)
    assert session["decisions"] == 1 and session["planned"] == 4
    stopped = train("--seed", "3", "--positions", "4", "--json", answers=["1", "2"],
                    history=history)  # end of input
    data = json.loads(stopped.stdout)
    assert not data["complete"] and data["decisions"] == 2
    assert len(read_history(history)) == 2
    nothing = train("--seed", "3", answers=["quit"], history=history)
    assert nothing.exit_code == 0 and len(read_history(history)) == 2  # nothing to keep


def test_the_history_is_never_clobbered(tmp_path):
    record = tmp_path / "game.txt"
    record.write_text("rules official\nAnn: 22256 twos\n")
    before = record.read_bytes()
    result = train("--seed", "1", "--positions", "1", answers=["1"], history=record)
    assert result.exit_code == 2
    assert "is not a training history" in result.output
    assert record.read_bytes() == before
    link = tmp_path / "link.jsonl"
    link.symlink_to(tmp_path / "elsewhere.jsonl")
    result = train("--seed", "1", "--positions", "1", answers=["1"], history=link)
    assert result.exit_code == 2 and "symbolic link" in result.output
    assert not (tmp_path / "elsewhere.jsonl").exists()
    broken = tmp_path / "broken.jsonl"
    broken.write_text(json.dumps({"format": FORMAT, "version": 1}) + "\nnot json\n")
    kept = broken.read_bytes()
    result = train("--seed", "1", "--positions", "1", answers=["1"], history=broken)
    assert result.exit_code == 2 and "line 2: not a session" in result.output
    assert broken.read_bytes() == kept
    folder = tmp_path / "folder"
    folder.mkdir()
    result = train("--seed", "1", "--positions", "1", answers=["1"], history=folder)
    assert result.exit_code == 2 and result.output.startswith("Error: ")


def test_append_session_keeps_every_earlier_line(tmp_path):
    path = tmp_path / "h.jsonl"
    for i in range(5):
        sessions = append_session(path, {"mean_loss": float(i), "rules": "official"})
        assert [s["mean_loss"] for s in sessions] == [float(j) for j in range(i + 1)]
    lines = path.read_text().splitlines()
    assert json.loads(lines[0]) == {"format": FORMAT, "version": 1}
    assert len(lines) == 6
    assert not [p for p in os.listdir(tmp_path) if p != "h.jsonl"]  # no temporary left


def test_the_default_history_is_in_the_user_data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    result = CliRunner().invoke(cli, ["train", "--seed", "2", "--positions", "1"],
                                input="1\n")
    assert result.exit_code == 0, result.output
    assert len(read_history(tmp_path / "yahtzee-solver" / "train-history.jsonl")) == 1


# A game whose decisions lost: keep 2223 (2.49 points), then Sixes with a large straight.
MISTAKES = """rules official
players Ann
Ann: 22256 222 22234 2223 22235 twos
Ann: 12345 sixes
Ann: 66612 666 66645 chance
"""


def test_from_records_takes_the_decisions_that_lost_most(tmp_path):
    path = tmp_path / "mine.txt"
    path.write_text(MISTAKES)
    result = train("--from", str(path), "--positions", "5", "--json", answers=["1"] * 5)
    assert result.exit_code == 0, result.output
    session = json.loads(result.stdout)
    from advisor.analysis import analyze

    analysis = analyze(read_record(path))
    errors = sorted((d for d in analysis.decisions if d.is_error), key=lambda d: -d.loss)
    assert session["planned"] == len(errors) <= 5
    for entry, decision in zip(session["positions"], errors, strict=True):
        assert entry["card"] == decision.card.to_json()
        assert entry["dice"] == list(decision.dice.faces)
        assert entry["rolls_left"] == decision.rolls_left
        assert entry["source"] == {"file": str(path), "player": "Ann", "turn": decision.turn}
    assert session["source"] == "records" and session["seed"] is None
    two = train("--from", str(path), str(path), "--positions", "1", "--json", answers=["1"])
    (worst,) = json.loads(two.stdout)["positions"]  # the same game twice: its worst once
    assert (worst["card"], worst["dice"]) == (errors[0].card.to_json(),
                                              list(errors[0].dice.faces))


@pytest.mark.parametrize("args, message", [
    (["--positions", "0"], "Invalid value for '--positions'"),
    (["--positions", "101"], "Invalid value for '--positions'"),
    (["--seed", "-1"], "Invalid value for '--seed'"),
    (["--seed", "x"], "Invalid value for '--seed'"),
    (["game.txt"], "give records with --from FILE"),
    (["--player", "Ann"], "--player picks a player"),
    (["--opponent", "twos=6"], "--opponent is not one of them"),
    (["--target", "abc"], "target 'abc'"),
    (["--from", "/nonexistent/x.txt"], "cannot read the record"),
    (["--no-history", "--history", "h.jsonl"], "choose one"),
])
def test_bad_input_is_one_line_and_exit_2(args, message, tmp_path):
    result = CliRunner().invoke(cli, ["train", *args], input="1\n")
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert result.output.startswith("Error: ") and result.output.count("\n") == 1


def test_records_without_errors_and_unknown_players_are_refused(tmp_path, official_table):
    from advisor.record_file import records_from_traces, write_record
    from solver.simulate import simulate

    (game,) = records_from_traces("official", simulate(official_table, "optimal", 1, 8,
                                                       record=True).traces)
    path = tmp_path / "best.txt"
    write_record(path, game)  # optimal play: no decision lost anything
    result = train("--from", str(path))
    assert result.exit_code == 2
    assert "no decision of these records lost anything" in result.output
    mistakes = tmp_path / "mine.txt"
    mistakes.write_text(MISTAKES)
    result = train("--from", str(mistakes), "--player", "Zed")
    assert result.exit_code == 2 and "no player 'Zed' in the records; players: Ann" in \
        result.output


def test_a_bad_scripted_answer_names_the_position_and_keeps_no_history(tmp_path):
    history = tmp_path / "h.jsonl"
    result = train("--seed", "4", "--positions", "3", "--json", answers=["1", "score nine"],
                   history=history)
    assert result.exit_code == 2
    assert result.output.startswith("Error: position 2: ")
    assert not history.exists()


def test_kinds_of_decisions(memory):
    card = Scorecard.parse("aces=3,twos=6,threes=9,fours=12,fives=15,3k=20,4k=20,fh=25,ss=30,"
                           "ls=40")
    late = Position(card, Dice("66612"), 2)
    best = advice_of(late, memory=memory).best
    assert best.move == Move(keep=(6, 6, 6))
    assert kinds_of(late, best) == ("keep", "upper", "yahtzee", "end_of_game")
    straight = Position(Scorecard.new(), Dice("12346"), 2)
    assert kinds_of(straight, advice_of(straight, memory=memory).best) == ("keep", "straights")
    box = Position(Scorecard.new(), Dice("12345"), 0)
    assert kinds_of(box, advice_of(box, memory=memory).best) == ("box", "straights")
    five = Position(Scorecard.new(), Dice("44444"), 0)
    assert kinds_of(five, advice_of(five, memory=memory).best) == ("box", "yahtzee")
    gone = Position(Scorecard.parse("yahtzee=0"), Dice("44412"), 2)
    keep = next(o for o in advice_of(gone, memory=memory).options if o.keep == Keep("444"))
    assert "yahtzee" not in kinds_of(gone, keep) and "upper" in kinds_of(gone, keep)


def test_keeps_and_boxes_are_counted_by_what_each_answer_did(memory):
    """A box scored where the best choice keeps dice is a box decision (an error), a keep
    where the best scores a box a keep decision: a session of three answers, two of them
    boxes, counts 2 boxes and 1 keep (it counted 3 keeps), the other kinds still from
    the best choice."""
    from advisor.objective import EV
    from advisor.train import Session

    keep_best = Position(Scorecard.new(), Dice("22256"), 2)    # best: keep 2 2 2
    box_best = Position(Scorecard.new(), Dice("12345"), 2)     # best: score Large Straight
    answers = [(keep_best, "twos"), (keep_best, "fh"), (box_best, "keep 1234")]
    graded = [grade(position, text, memory=memory) for position, text in answers]
    assert [g.best.is_keep for g in graded] == [True, True, False]
    assert [g.kinds for g in graded] == [("box", "upper", "yahtzee"), ("box", "upper", "yahtzee"),
                                         ("keep", "straights")]
    kinds = Session("official", EV, "play", 1, tuple(graded), 3).by_kind()
    assert {k: f["decisions"] for k, f in kinds.items()} == \
        {"keep": 1, "box": 2, "upper": 2, "yahtzee": 2, "straights": 1}
    assert kinds["box"]["errors"] == 2 and kinds["keep"]["errors"] == 1
    # the keep-or-box of every answer of a whole CLI session, counted from the answers
    result = train("--seed", "5", "--positions", "10", "--json", answers=ANSWERS)
    assert result.exit_code == 0, result.output
    session = json.loads(result.stdout)
    actions = [p["answer"]["action"] for p in session["positions"]]
    assert session["kinds"]["keep"]["decisions"] == actions.count("keep")
    assert session["kinds"]["box"]["decisions"] == actions.count("score")


def test_a_positions_filled_figures_add_up_to_its_total():
    """`train --seed 13`, position 1: total 390 with the upper bonus (35) and a Yahtzee
    bonus (100); the figures of the "filled:" line add up to the header's total (the
    upper bonus was missing: they added up to 355)."""
    import re

    from advisor.train_text import position_lines

    card = Scorecard.parse("twos=6,threes=9,fours=12,fives=20,sixes=18,3k=19,4k=26,fh=25,"
                           "ss=30,ls=40,yahtzee=50,yahtzee_bonus=1")
    lines = position_lines(1, 3, Position(card, Dice("45666"), 1))
    total = int(re.search(r"\| total (\d+) \|", lines[1]).group(1))
    upper = 6 + 9 + 12 + 20 + 18
    assert total == 6 + 9 + 12 + 20 + 18 + 19 + 26 + 25 + 30 + 40 + 50 + 35 + 100 == 390
    assert upper >= 63
    filled = lines[2].removeprefix("  filled: ").split(", ")
    assert filled[-2:] == ["Upper bonus 35", "Yahtzee bonus 100"]
    assert sum(int(item.rsplit(" ", 1)[1]) for item in filled) == total


def test_grade_takes_options_and_refuses_others(memory):
    position = Position(Scorecard.new(), Dice("22256"), 2)
    advice = advice_of(position, memory=memory)
    for option in advice.options:
        graded = grade(position, option, memory=memory)
        assert graded.loss == option.loss and graded.best == advice.best
    other = advice_of(Position(Scorecard.new(), Dice("11111"), 2), memory=memory).options[-1]
    with pytest.raises(ValueError, match="not a choice of this position"):
        grade(position, other, memory=memory)


def test_under_a_target_each_grade_is_the_probability_lost():
    # seed 13: three late positions (3 boxes open or fewer), each solved on its own
    result = train("--seed", "13", "--positions", "3", "--target", "250", "--json",
                   answers=["1", "2", "3"])
    assert result.exit_code == 0, result.output
    session = json.loads(result.stdout)
    assert session["objective"] == {"kind": "target", "target": 250}
    for entry in session["positions"]:
        advice = advise_json(entry["card"]["text"], entry["dice"], entry["rolls_left"],
                             "--target", "250")
        assert entry["best"] == advice["options"][0]
        (same,) = [o for o in advice["options"] if o == entry["answer"]]
        assert entry["loss"] == max(advice["options"][0]["p_target"] - same["p_target"], 0.0)
    assert session["mean_loss"] == pytest.approx(
        sum(p["loss"] for p in session["positions"]) / 3, abs=1e-15)


@pytest.mark.slow
def test_records_under_a_target_are_judged_and_graded_by_probability(tmp_path):
    path = tmp_path / "mine.txt"
    path.write_text(MISTAKES)
    result = train("--from", str(path), "--beat", "59", "--positions", "2", "--json",
                   answers=["1", "2"])  # a low target: the whole game is solved sooner
    assert result.exit_code == 0, result.output
    session = json.loads(result.stdout)
    from advisor.analysis import analyze
    from advisor.objective import Objective

    analysis = analyze(read_record(path), Objective.for_target(60))
    worst = sorted((d for d in analysis.decisions if d.is_error), key=lambda d: -d.loss)[:2]
    for entry, decision in zip(session["positions"], worst, strict=True):
        assert (entry["card"], entry["dice"]) == (decision.card.to_json(),
                                                  list(decision.dice.faces))
        assert entry["loss"] == max(entry["best"]["p_target"] - entry["answer"]["p_target"], 0)


def test_every_kind_of_decision_has_a_label():
    from advisor.train import KINDS
    from advisor.train_text import KIND_LABELS

    assert list(KIND_LABELS) == list(KINDS)


def kinds_by_the_docstring(card: Scorecard, best) -> tuple[str, ...]:
    """The kinds of a decision written from the module docstring of advisor.train."""
    rules = card.rules
    open_boxes = [rules.boxes[b] for b in card.open_boxes()]
    five_entry = card.entries[rules.yahtzee_box]
    five_alike_pay = five_entry is None or (five_entry == 50 and rules.n_flags == 2)
    straight_open = any(box.name.endswith("straight") for box in open_boxes)
    found = set()
    if best.keep is not None:
        found.add("keep")
        faces = best.keep.faces
        counts = {f: faces.count(f) for f in set(faces)}
        if len(counts) == 1 and len(faces) >= 2 and any(box.face == faces[0]
                                                          for box in open_boxes):
            found.add("upper")
        if counts and max(counts.values()) >= 3 and five_alike_pay:
            found.add("yahtzee")
        run = max((n for n in range(1, 7) for start in range(1, 8 - n)
                   if all(f in counts for f in range(start, start + n))), default=0)
        if run >= 3 and straight_open:
            found.add("straights")
    else:
        found.add("box")
        box = rules.boxes[rules.box_index(best.box)]
        if box.is_upper:
            found.add("upper")
        if rules.box_index(best.box) == rules.yahtzee_box and best.points == 50:
            found.add("yahtzee")
        if box.name.endswith("straight"):
            found.add("straights")
    if len(open_boxes) <= 3:
        found.add("end_of_game")
    return tuple(k for k in ("keep", "box", "upper", "yahtzee", "straights", "end_of_game")
                 if k in found)


@pytest.mark.parametrize("rules", RULE_NAMES)
def test_the_kinds_of_every_keep_and_box_under_every_rule_set_are_the_docstrings(rules):
    """Every keep and every box as the best choice, on cards of every rule set with the
    Yahtzee box open, zero or 50: the kinds are those the docstring defines (a Yahtzee
    chase pays only while the box is open, or holds 50 under rules with a bonus)."""
    from itertools import combinations_with_replacement

    from advisor.advice import Option
    from tests.cards import random_cards

    ruleset = get_rules(rules)
    five = ruleset.boxes[ruleset.yahtzee_box].name
    cards = [Scorecard.new(rules), Scorecard.parse(f"{five}=0", rules),
             Scorecard.parse(f"{five}=50", rules),
             Scorecard.parse(f"{five}=50,sixes=24,chance=20,twos=6", rules),
             *random_cards(rules, 12)]
    keeps = [k for n in range(2, 5) for k in combinations_with_replacement(range(1, 7), n)]
    seen = set()
    for card in cards:
        if card.is_full:
            continue
        position = Position(card, Dice("12345"), 2)
        options = [Option("keep", 0.0, keep=Keep(k)) for k in keeps]
        options += [Option("score", 0.0, box=ruleset.boxes[b].name, points=p)
                    for b in card.open_boxes() for p in (0, 50) if p in
                    ruleset.possible_points(b)]
        for option in options:
            want = kinds_by_the_docstring(card, option)
            assert kinds_of(position, option) == want, (str(card), option.move)
            seen.update(want)
    assert seen == {"keep", "box", "upper", "yahtzee", "straights", "end_of_game"}


FULL_BUT_CHANCE = ("ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,"
                   "ss=30,ls=40,yahtzee=50")


@pytest.mark.parametrize("card, dice, rolls_left, choice", [
    (FULL_BUT_CHANCE, "12345", 0, False),   # one box left, no roll: one move
    (FULL_BUT_CHANCE, "12345", 1, True),    # a roll left: keep or score
    ("", "12345", 0, True),
    # the forced Joker: five 3s with Yahtzee holding 50 and Threes open go in Threes
    ("yahtzee=50", "33333", 0, False),
    ("yahtzee=50,threes=9", "33333", 0, True),  # Threes filled: any lower box
    ("yahtzee=0", "33333", 0, False),           # Yahtzee box at 0: Threes open, forced too
])
def test_has_choice_by_the_rule_book(card, dice, rolls_left, choice):
    """Hand-worked from the rule book's Joker procedure, not from the placements code."""
    assert has_choice(Scorecard.parse(card), Dice(dice), rolls_left) is choice


def test_a_number_in_practice_is_a_row_of_list_and_every_prompt_says_so(official_table,
                                                                        official_moments):
    """In `play` a number is a row of the ranked advice; in `train` it is a row of the
    unranked `list`: every practice prompt says so, and the list says it is unranked."""
    result = CliRunner().invoke(cli, ["train", "--positions", "2", "--seed", "7",
                                      "--no-history"], input="list\n5\nkeep 7\nquit\n")
    out = result.output
    assert result.exit_code == 0, out
    prompt = "your choice (a move, or a number from 'list')> "
    assert out.count(prompt) == 4  # list, 5, the refused keep 7, quit: each asked alike
    assert "your choice> " not in out
    listed = out.split("every choice, in no order of merit (type its number or the move):\n")[1]
    fifth = listed.splitlines()[4]
    assert fifth == "   5  keep 3 4 5 6"
    assert "  keep 3 4 5 6: a best choice, tied with keep 1 3 4 5" in out  # 5 is that row
