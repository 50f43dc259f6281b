"""Every rule set through every path that plays or writes: the simulator (built-in
strategies and Python strategies), scripted play, the npy and csv exports and the
strategy sheet. Expected points, totals and rule limits come from the independent scorer
(``independent_scorer.py``) and the plain-Python reference solver, never from the code
under test.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from functools import cache

import numpy as np
import pytest
from click.testing import CliRunner

from advisor.cli import cli
from solver.game.dice import KEEP_COUNTS
from solver.game.rules import RULE_NAMES
from solver.simulate import Decision, simulate
from tests.oracles.independent_scorer import (
    ALL_ROLLS,
    RULE_BOOKS,
    UPPER_GOAL,
    RuleBook,
    grand_total,
    joker_choices,
    ordinary_score,
    placements,
    upper_after,
)
from tests.oracles.reference import ReferenceSolver, best_keeps, roll_faces
from tests.solver.test_builder import NEW_GAME


def run(*args: str, stdin: str | None = None):
    return CliRunner().invoke(cli, list(args), input=stdin)


@cache
def possible_entries(rules_name: str) -> dict[str, frozenset[int]]:
    """Every entry each box can hold: ordinary points of all rolls, Joker points, 0."""
    book = RULE_BOOKS[rules_name]
    out = {}
    for box in book.card:
        values = {0} | {ordinary_score(book, box, dice) for dice in ALL_ROLLS}
        if book.joker != "none":
            for face in range(1, 7):
                for filled in ({book.yahtzee_box}, set(book.card) - {box}):
                    values.add(joker_choices(book, face, filled | {book.yahtzee_box})
                               .get(box, 0))
        out[box] = frozenset(values)
    return out


# ---------------------------------------------------------------- simulate
def check_games_follow_the_rules(result, rules_name: str) -> None:
    """Each game's total, upper bonus, entries and Yahtzee counters, from the rule book."""
    book = RULE_BOOKS[rules_name]
    entries = result.entries.astype(np.int64)
    allowed = possible_entries(rules_name)
    for b, box in enumerate(book.card):
        assert set(np.unique(entries[:, b])) <= allowed[box], box
    yz = book.card.index(book.yahtzee_box)
    for g in range(result.games):
        row = {box: int(entries[g, b]) for b, box in enumerate(book.card)}
        bonuses = int(result.yahtzee_bonuses[g])
        assert int(result.scores[g]) == grand_total(book, row, bonuses), g
        upper = sum(int(v) for v in entries[g, :6])
        assert result.upper_bonus[g] == (upper >= UPPER_GOAL)
    bonuses = result.yahtzee_bonuses.astype(np.int64)
    yahtzees = result.yahtzees.astype(np.int64)
    assert np.all(bonuses <= np.maximum(yahtzees - 1, 0))
    assert np.all(yahtzees >= (entries[:, yz] == 50))
    assert np.all((bonuses == 0) | (entries[:, yz] == 50))
    if book.yahtzee_bonus == 0:
        assert not bonuses.any()


@pytest.mark.slow
@pytest.mark.parametrize("rules_name", RULE_NAMES)
def test_optimal_simulation_lands_on_the_exact_mean_and_follows_the_rules(table_of,
                                                                          rules_name):
    result = simulate(table_of(rules_name), "optimal", 6_000, seed=14)
    assert abs(result.mean - NEW_GAME[rules_name]) < 4 * result.stderr
    check_games_follow_the_rules(result, rules_name)


@pytest.mark.slow
@pytest.mark.parametrize("strategy", ["greedy", "greedy-turn", "heuristic"])
@pytest.mark.parametrize("rules_name", RULE_NAMES)
def test_builtin_strategies_follow_the_rules(table_of, rules_name, strategy):
    result = simulate(table_of(rules_name), strategy, 1_500, seed=15)
    check_games_follow_the_rules(result, rules_name)
    assert result.mean < NEW_GAME[rules_name]


class RollCountingGreedy:
    """The built-in greedy, written from its docstring and the independent scorer, that
    asserts each turn has exactly the rule set's number of rolls."""

    def __init__(self, book: RuleBook) -> None:
        self.book = book
        self.__name__ = "rolls_checked_greedy"
        self.turns: list[tuple[int, list[int]]] = []

    def __call__(self, decision: Decision):
        book = self.book
        if not self.turns or self.turns[-1][0] != decision.turn:
            self.turns.append((decision.turn, []))
        seen = self.turns[-1][1]
        assert decision.rolls_left == book.rolls - 1 - len(seen), (decision, seen)
        seen.append(decision.rolls_left)
        if decision.rolls_left > 0:
            counts = Counter(decision.dice)
            face = max(range(6, 0, -1), key=lambda f: counts[f])
            return [face] * counts[face]
        entries = dict(zip(book.card, decision.entries, strict=True))
        filled = {b for b, e in entries.items() if e is not None}
        upper = sum(e for b, e in entries.items() if e is not None and book.face_of(b))
        holds_50 = entries[book.yahtzee_box] == 50

        def worth(option):
            box, points, _ = option
            return points + upper_after(book, upper, box, points)[1], -book.card.index(box)

        return max(placements(book, decision.dice, filled, holds_50), key=worth)[0]


@pytest.mark.parametrize("rules_name", RULE_NAMES)
def test_a_python_strategy_gets_the_rule_sets_rolls_and_plays_like_greedy(table_of,
                                                                         rules_name):
    table = table_of(rules_name)
    book = RULE_BOOKS[rules_name]
    mine = RollCountingGreedy(book)
    games = 60
    result = simulate(table, mine, games, seed=21)
    assert len(mine.turns) == games * len(book.card)
    assert all(len(seen) == book.rolls for _, seen in mine.turns)
    native = simulate(table, "greedy", games, seed=21)
    assert np.array_equal(result.entries, native.entries)
    assert np.array_equal(result.scores, native.scores)
    assert np.array_equal(result.yahtzees, native.yahtzees)
    assert np.array_equal(result.yahtzee_bonuses, native.yahtzee_bonuses)
    check_games_follow_the_rules(result, rules_name)


# ---------------------------------------------------------------- play (scripted)
# Each turn: the lines typed and the box the turn ends in. Points, bonuses and the final
# total are the independent scorer's.
UPPER_FILL = [(["11123"], "aces"), (["22256"], "twos"), (["33312"], "threes"),
              (["44456"], "fours"), (["55561"], "fives"), (["66612"], "sixes")]
GAMES = {
    "official": [
        (["33333"], "yahtzee"), (["22222", "score chance"], "twos"),
        (["22222"], "full_house"), (["11111", "score chance"], "aces"),
        (["12346", "keep 1234", "5"], "large_straight"), (["23456"], "small_straight"),
        *UPPER_FILL[2:], (["44441"], "four_of_a_kind"), (["66654"], "three_of_a_kind"),
        (["12346", "keep 1234", "6", "keep 1234", "6"], "chance"),
    ],
    "two-rolls": [
        (["33333"], "yahtzee"), (["22222", "score chance"], "twos"),
        (["22222"], "full_house"), (["11111"], "aces"),
        (["12346", "keep 1234", "5"], "large_straight"), (["23456"], "small_straight"),
        *UPPER_FILL[2:], (["44441"], "four_of_a_kind"), (["66654"], "three_of_a_kind"),
        (["12346", "keep 1234", "6", "keep 1234"], "chance"),
    ],
    "free-joker": [
        (["33333"], "yahtzee"), (["22222"], "full_house"), (["44444"], "fours"),
        (["44444"], "large_straight"), (["11111"], "chance"), UPPER_FILL[0],
        UPPER_FILL[1], UPPER_FILL[2], UPPER_FILL[4], UPPER_FILL[5],
        (["44441"], "four_of_a_kind"), (["66654"], "three_of_a_kind"),
        (["23456"], "small_straight"),
    ],
    "no-bonus": [
        (["33333"], "yahtzee"), (["33333"], "full_house"), (["22222"], "chance"),
        (["55555"], "large_straight"), *UPPER_FILL, (["44441"], "four_of_a_kind"),
        (["66654"], "three_of_a_kind"), (["12346"], "small_straight"),
    ],
    "yatzy": [
        (["33333"], "yatzy"), (["33333"], "full_house"), (["22222"], "two_pairs"),
        (["66554"], "one_pair"), (["44442"], "three_of_a_kind"),
        (["44442"], "four_of_a_kind"), (["12345"], "small_straight"),
        (["23456"], "large_straight"), (["66612"], "chance"), (["11123"], "ones"),
        *UPPER_FILL[1:],
    ],
}


def expected_play(rules_name: str) -> tuple[list[str], int]:
    """The lines `play` must print for each turn's entry, and the final total."""
    book = RULE_BOOKS[rules_name]
    entries: dict[str, int] = {}
    bonuses = 0
    lines = []
    for typed, box in GAMES[rules_name]:
        dice = typed[-1] if len(typed[-1]) == 5 else typed[0]
        if typed[-2:-1] and typed[-2].startswith("keep"):
            dice = typed[-2][5:] + typed[-1]
        faces = tuple(int(c) for c in dice)
        options = {b: (p, bonus) for b, p, bonus in
                   placements(book, faces, set(entries), entries.get(book.yahtzee_box) == 50)}
        points, bonus = options[box]
        entries[box] = points
        bonuses += bonus > 0
        lines.append(f"scores {points} in {_on_the_card(box)}"
                     + (f" + {bonus} Yahtzee bonus" if bonus else ""))
    return lines, grand_total(book, entries, bonuses)


def _on_the_card(box: str) -> str:
    """A box as the card names it (``three_of_a_kind`` -> ``Three of a Kind``)."""
    return " ".join(w if w in ("of", "a") else w.title() for w in box.split("_"))


def script_of(rules_name: str) -> str:
    lines = []
    for typed, box in GAMES[rules_name]:
        lines += typed + [f"score {box}"]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("rules_name", RULE_NAMES)
def test_scripted_play(table_of, rules_name):
    table_of(rules_name)
    result = run("play", "--rules", rules_name, stdin=script_of(rules_name))
    out = result.stdout
    assert result.exit_code == 0, out
    want, total = expected_play(rules_name)
    scored = [line for line in out.splitlines() if line.startswith("Player 1 scores ")]
    assert len(scored) == len(RULE_BOOKS[rules_name].card)
    for line, expected in zip(scored, want, strict=True):
        assert line.startswith(f"Player 1 {expected}"), (line, expected)
        rest = line[len(f"Player 1 {expected}"):]
        assert rest.startswith(":") or rest.startswith(" + ") and "Yahtzee" not in rest, line
    assert out.strip().endswith(f"final total: {total}")
    refused_keep = "no rolls left this turn" in out
    assert refused_keep == (rules_name == "two-rolls")
    forbidden = "Joker rule forbids" in out
    assert forbidden == (rules_name in ("official", "two-rolls"))


def test_the_scripted_games_score_what_the_rule_book_says():
    """The scorer's view of the scripts, worked out by hand."""
    totals = {name: expected_play(name)[1] for name in GAMES}
    # official: 50 + (10+100) + (25+100) + (5+100) + 40 + 30 + 9+12+15+18 + 35 + 17 + 27 + 16
    assert totals["official"] == 609
    assert totals["two-rolls"] == 609
    # free-joker: 50 + (0+100) + (20+100) + (40+100) + (5+100) + 3+6+9+15+18 + 35 + 17+27+30
    assert totals["free-joker"] == 675
    # no-bonus: 50 + 0 + 10 + 0 + 3+6+9+12+15+18 + 35 + 17 + 27 + 30
    assert totals["no-bonus"] == 232
    # yatzy: 50+0+0+12+12+16+15+20+21 + 3+6+9+12+15+18 + 50
    assert totals["yatzy"] == 259


# ---------------------------------------------------------------- export
def reachable(table) -> np.ndarray:
    return ~np.isnan(np.asarray(table.values))


@pytest.mark.slow
@pytest.mark.parametrize("rules_name", RULE_NAMES)
def test_npy_export_cell_by_cell(table_of, rules_name, tmp_path):
    table = table_of(rules_name)
    book = RULE_BOOKS[rules_name]
    path = tmp_path / "t.npy"
    result = run("export", "--rules", rules_name, "--format", "npy", "--out", str(path))
    assert result.exit_code == 0, result.output
    got = np.load(path)
    values = np.asarray(table.values)
    n = len(book.card)
    assert got.dtype == np.float64
    if n == 15:
        assert got.shape == (32768, 64)
        assert np.array_equal(got, values[:, :, 0], equal_nan=True)
        return
    assert got.shape == (8192, 64, 2)
    filled = (np.arange(8192) >> book.card.index(book.yahtzee_box) & 1) == 1
    if book.yahtzee_bonus:
        assert np.array_equal(got, values, equal_nan=True)
    else:  # no flag in the table: both flags of a filled Yahtzee box hold the same value
        assert np.array_equal(got[:, :, 0], values[:, :, 0], equal_nan=True)
        assert np.array_equal(got[filled, :, 1], values[filled, :, 0], equal_nan=True)
    # Every state that can occur has a value (flag 1 needs the Yahtzee box filled).
    can_occur = reachable(table)[:, :, :1].repeat(2, axis=2)
    can_occur[~filled, :, 1] = False
    assert np.all(np.isfinite(got[can_occur]))


@pytest.mark.slow
@pytest.mark.parametrize("rules_name", ["official", "no-bonus", "yatzy"])  # the 3 layouts
def test_csv_export_cell_by_cell(table_of, rules_name, tmp_path):
    table = table_of(rules_name)
    book = RULE_BOOKS[rules_name]
    path = tmp_path / "t.csv"
    result = run("export", "--rules", rules_name, "--format", "csv", "--out", str(path))
    assert result.exit_code == 0, result.output
    values = np.asarray(table.values)
    bit = {box: 1 << i for i, box in enumerate(book.card)}
    full = (1 << len(book.card)) - 1
    has_flag = len(book.card) == 13
    with path.open(newline="") as f:
        rows = csv.reader(f)
        header = next(rows)
        assert header == ["open_boxes", "upper_subtotal"] + (
            ["yahtzee_holds_50"] if has_flag else []) + ["value"]
        masks: dict[str, int] = {}
        body = list(rows)
    for row in body:
        if row[0] not in masks:
            masks[row[0]] = full & ~sum(bit[b] for b in row[0].split())
    index = np.array([(masks[row[0]], int(row[1]), int(row[2]) if has_flag else 0)
                      for row in body], dtype=np.int64).reshape(-1, 3)
    cells = np.array([float(row[-1]) for row in body])
    seen = np.zeros(values.shape, dtype=np.int64)
    np.add.at(seen, (index[:, 0], index[:, 1], index[:, 2]), 1)
    assert np.array_equal(seen, reachable(table).astype(np.int64))  # each state once
    assert np.array_equal(cells, values[index[:, 0], index[:, 1], index[:, 2]])


# ---------------------------------------------------------------- strategy sheets
# Late-game cards (three boxes open) whose whole sheet the reference solver can check.
SHEET_CARDS = {
    "official": "aces=3,twos=6,threes=9,fours=12,fives=15,three_of_a_kind=20,"
                "four_of_a_kind=0,full_house=25,small_straight=30,yahtzee=50",
    "free-joker": "aces=3,twos=6,threes=9,fours=12,sixes=18,three_of_a_kind=20,"
                  "four_of_a_kind=0,small_straight=30,yahtzee=50,chance=20",
    "no-bonus": "aces=3,twos=6,threes=9,fours=12,fives=15,three_of_a_kind=20,"
                "four_of_a_kind=0,full_house=25,small_straight=30,yahtzee=50",
    "two-rolls": "aces=3,twos=6,threes=9,fours=12,fives=15,three_of_a_kind=20,"
                 "four_of_a_kind=0,small_straight=30,large_straight=40,yahtzee=50",
    "yatzy": "ones=3,twos=6,threes=9,fours=12,fives=15,one_pair=10,two_pairs=14,"
             "three_of_a_kind=12,four_of_a_kind=0,small_straight=15,full_house=0,yatzy=50",
}


def card_state(book: RuleBook, card: str) -> tuple[dict[str, int], int, int, int, int]:
    """(entries, mask, capped upper subtotal, flag, grand total) of a card string."""
    entries = {k: int(v) for k, v in (pair.split("=") for pair in card.split(","))}
    mask = sum(1 << book.card.index(b) for b in entries)
    upper = min(UPPER_GOAL, sum(v for b, v in entries.items() if book.face_of(b)))
    flag = int(book.yahtzee_bonus > 0 and entries.get(book.yahtzee_box) == 50)
    return entries, mask, upper, flag, grand_total(book, entries, 0)


@pytest.mark.slow
@pytest.mark.parametrize("rules_name", RULE_NAMES)
def test_strategy_sheet_every_row_and_column_against_the_reference(table_of, rules_name):
    table_of(rules_name)
    book = RULE_BOOKS[rules_name]
    card = SHEET_CARDS[rules_name]
    entries, mask, upper, flag, total = card_state(book, card)
    ref = ReferenceSolver(rules_name)
    stages = ref.turn(mask, upper, flag)
    roll_value = {0: stages[0]}
    for j in range(1, book.rolls):
        roll_value[j] = best_keeps(stages[j])
    keep_of = {tuple(int(c) for c in row): k for k, row in enumerate(KEEP_COUNTS)}
    index_of_roll = {faces: r for r, faces in enumerate(roll_faces())}

    result = run("strategy", "--rules", rules_name, "--card", card, "--format", "csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert len(rows) == 252 * book.rolls
    assert sorted((r["dice"], int(r["rolls_left"])) for r in rows) == sorted(
        ("".join(map(str, d)), j) for d in ALL_ROLLS for j in range(book.rolls))
    filled = set(entries)
    bonus_rows = 0
    for row in rows:
        faces = tuple(int(c) for c in row["dice"])
        r, j = index_of_roll[faces], int(row["rolls_left"])
        best = roll_value[j][r]
        assert float(row["expected_final"]) == pytest.approx(total + best, abs=1e-6), row
        if row["action"] == "keep":
            assert j > 0 and row["box"] == row["points"] == row["bonus"] == "", row
            kept = Counter(int(c) for c in row["keep"])
            k = keep_of[tuple(kept[f] for f in range(1, 7))]
            assert stages[j][k] >= best - 1e-9, row
            continue
        assert row["action"] == "score" and row["keep"] == "", row
        options = {b: (p, bonus) for b, p, bonus in
                   placements(book, faces, filled, bool(flag))}
        assert row["box"] in options, row
        points, bonus = options[row["box"]]
        assert (int(row["points"]), int(row["bonus"])) == (points, bonus), row
        bonus_rows += bonus > 0
        b = book.card.index(row["box"])
        new_upper, upper_bonus = upper_after(book, upper, row["box"], points)
        new_flag = flag or int(row["box"] == book.yahtzee_box and points == 50
                               and book.yahtzee_bonus > 0)
        value = points + bonus + upper_bonus + ref.value(mask | 1 << b, new_upper, new_flag)
        assert value >= best - 1e-9, row
    if book.yahtzee_bonus:
        assert bonus_rows >= 6  # five alike with no rolls left, at least
    else:
        assert bonus_rows == 0


@pytest.mark.parametrize("rules_name", ["official", "two-rolls"])
def test_five_fives_with_fives_open_are_forced_into_fives_in_every_column(table_of,
                                                                         rules_name):
    table_of(rules_name)
    card = "yahtzee=50,chance=22,large_straight=40"
    result = run("strategy", "--rules", rules_name, "--card", card)
    assert result.exit_code == 0, result.output
    row = next(line for line in result.stdout.splitlines() if line.startswith("| 5 5 5 5 5 |"))
    cells = row.strip("|").split("|")[1:]
    assert len(cells) == RULE_BOOKS[rules_name].rolls
    assert all("score Fives 25 +100" in cell for cell in cells), row
    csv_out = run("strategy", "--rules", rules_name, "--card", card, "--format", "csv").stdout
    fives = [r for r in csv.DictReader(io.StringIO(csv_out)) if r["dice"] == "55555"]
    assert [(r["box"], r["points"], r["bonus"]) for r in fives] == [
        ("fives", "25", "100")] * RULE_BOOKS[rules_name].rolls


@pytest.mark.parametrize("rules_name", ["official", "two-rolls"])
def test_markdown_sheet_agrees_with_the_csv_in_every_cell(table_of, rules_name):
    """Each markdown cell is the csv's action and expected final score for that roll and
    the number of rolls left its column header names."""
    table_of(rules_name)
    card = SHEET_CARDS[rules_name]
    md = run("strategy", "--rules", rules_name, "--card", card).stdout.splitlines()
    rows = [line.strip().strip("|").split("|") for line in md if line.startswith("| ")]
    header, body = rows[0], rows[1:]
    levels = [int(cell.lower().split("rolls left:")[1].split()[0]) for cell in header[1:]]
    assert sorted(levels, reverse=True) == list(range(RULE_BOOKS[rules_name].rolls))[::-1]
    sheet = run("strategy", "--rules", rules_name, "--card", card, "--format", "csv").stdout
    by_cell = {(r["dice"], int(r["rolls_left"])): r for r in csv.DictReader(io.StringIO(sheet))}
    assert len(body) == 252
    for cells in body:
        dice = cells[0].replace(" ", "")
        for j, text in zip(levels, cells[1:], strict=True):
            row = by_cell[dice, j]
            best = text.split(";")[0]  # the runner-up may follow after a semicolon
            action, _, value = best.strip().rpartition(" (")
            assert value == f"{float(row['expected_final']):.2f})", (dice, j, text)
            if row["action"] == "keep":
                want = "keep " + " ".join(row["keep"]) if row["keep"] else "reroll all"
            else:
                want = f"score {row['box'].replace('_', ' ').title().replace(' Of ', ' of ')}" \
                       f" {row['points']}" + (f" +{row['bonus']} bonus" if row["bonus"] != "0"
                                              else "")
            assert action.lower() == want.lower(), (dice, j, text, row)
