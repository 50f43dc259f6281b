"""The readout's arrays (``solver/readout.py``) read whole, every row and every column,
against plain-Python references: the sub-keeps of each roll counted from its faces
(``tests/oracles/reference.py``) and the tie order written out from its rule (the
higher value, within its tolerance; then the higher expected score within 1e-9 points;
then the keep with the lower index)."""

from __future__ import annotations

import numpy as np
import pytest

from advisor.model import Dice, Scorecard
from solver.game.dice import N_KEEPS, N_ROLLS
from solver.game.ties import EV_TIE, P_TIE
from solver.readout import best_keeps, turn_choices, turn_placements
from tests.oracles.independent_scorer import RULE_BOOKS, placements, upper_after
from tests.oracles.reference import roll_faces, roll_sub_keeps

EV_EQUAL = 1e-9


def reference_best(values: np.ndarray, evs: np.ndarray, tie: float, roll: int) -> int:
    """The best sub-keep of ``roll`` by the tie order, one keep at a time."""
    subs = roll_sub_keeps()[roll]
    top = max(values[k] for k in subs)
    near = [k for k in subs if top - values[k] <= tie]
    top_ev = max(evs[k] for k in near)
    return min(k for k in near if top_ev - evs[k] <= EV_EQUAL)


def tied_values(rng: np.random.Generator, rows: int, levels: int, step: float) -> np.ndarray:
    """(rows, 462) values on few levels (most rolls then tie between keeps), each nudged
    by less than ``step`` (equal within the tolerance, unequal in their last bits)."""
    base = rng.integers(0, levels, size=(rows, N_KEEPS)).astype(np.float64)
    return base + rng.uniform(0.0, step, size=(rows, N_KEEPS))


@pytest.mark.parametrize("rows", [3, 4])  # three rolls a turn, and four
def test_best_keeps_every_roll_every_row_by_the_expected_score(rows):
    rng = np.random.default_rng(rows)
    evs = tied_values(rng, rows, 4, 0.5 * EV_TIE)
    got = best_keeps(evs, evs, EV_TIE)
    assert got.shape == (rows, N_ROLLS) and got.dtype == np.int64
    assert (got[0] == -1).all()  # no keep with no roll left
    want = np.array([[reference_best(evs[j], evs[j], EV_TIE, r) for r in range(N_ROLLS)]
                     for j in range(1, rows)])
    for j in range(1, rows):
        assert got[j].tolist() == want[j - 1].tolist(), f"{j} rolls left"
    # the rows differ (each row is its own), and ties were met (not only strict maxima)
    assert len({tuple(row) for row in want}) == rows - 1
    assert sum(len(roll_sub_keeps()[r]) > 1 and reference_best(evs[1], evs[1], EV_TIE, r)
               != max(roll_sub_keeps()[r], key=lambda k: evs[1][k]) for r in range(N_ROLLS))


def test_best_keeps_every_roll_every_row_by_a_probability_then_the_expected_score():
    rng = np.random.default_rng(7)
    values = tied_values(rng, 3, 3, 0.5 * P_TIE)  # probabilities tie often...
    evs = tied_values(rng, 3, 3, 0.5 * EV_TIE)    # ...and so do the expected scores then
    got = best_keeps(values, evs, P_TIE)
    assert (got[0] == -1).all()
    for j in (1, 2):
        want = [reference_best(values[j], evs[j], P_TIE, r) for r in range(N_ROLLS)]
        assert got[j].tolist() == want, f"{j} rolls left"
    # the expected score decides between equal probabilities somewhere
    by_value_only = [min(k for k in roll_sub_keeps()[r]
                         if max(values[1][s] for s in roll_sub_keeps()[r]) - values[1][k]
                         <= P_TIE) for r in range(N_ROLLS)]
    assert got[1].tolist() != by_value_only


def reference_box(card, faces: tuple[int, ...], values: np.ndarray) -> tuple[int, int, int]:
    """(box, entry, Yahtzee bonus) of the best placement of final ``faces`` on ``card``:
    the independent scorer's placements, each worth its points, bonuses and the value
    of the state after it; within 1e-9 points the box first on the card."""
    book = RULE_BOOKS[card.rules.name]
    names = [box.name for box in card.rules.boxes]
    filled = {names[b] for b, entry in enumerate(card.entries) if entry is not None}
    holds_50 = card.entries[card.rules.yahtzee_box] == 50
    worth = []
    for box, points, bonus in placements(book, faces, filled, holds_50):
        b = names.index(box)
        upper, upper_bonus = upper_after(book, card.upper, box, points)
        flag = 1 if holds_50 or (b == card.rules.yahtzee_box and points == 50) else 0
        after = values[card.mask | (1 << b), upper, flag]
        worth.append((points + bonus + upper_bonus + after, b, points, bonus))
    top = max(w[0] for w in worth)
    return min((b, points, bonus) for value, b, points, bonus in worth
               if top - value <= EV_EQUAL)


@pytest.mark.parametrize("filled", [
    "",                                                         # a new game
    "aces:11134,fives:55555,chance:12346",                        # Yahtzee box open: no Joker
    "yahtzee:66666,sixes:66612,three_of_a_kind:44456,full_house:22333",  # Joker, bonus
    "yahtzee:12345,aces:11123,twos:22256,small_straight:12345",  # Yahtzee scratched: no bonus
])
def test_turn_choices_every_final_roll_against_the_scorer(official_table, filled):
    card = Scorecard.new("official")
    names = [box.name for box in card.rules.boxes]
    for part in filter(None, filled.split(",")):
        box, faces = part.split(":")
        card = card.place(Dice(faces), names.index(box))
    got = turn_choices(official_table, card.mask, card.upper, card.flag)
    assert got.shape == (3, N_ROLLS) and got.dtype == np.int64
    want = np.array([reference_box(card, faces, official_table.values)
                     for faces in roll_faces()]).T
    bonuses = int((want[2] > 0).sum())
    assert bonuses == (6 if filled.startswith("yahtzee:66666") else 0)  # five alike, 50 in
    for row, what in enumerate(("box", "entry", "Yahtzee bonus")):
        assert got[row].tolist() == want[row].tolist(), what


@pytest.mark.parametrize("filled", [
    "",
    "yahtzee:66666,sixes:66612,three_of_a_kind:44456,full_house:22333",  # Joker, bonus
    "yahtzee:12345,aces:11123,twos:22256,small_straight:12345",          # scratched
])
def test_turn_placements_every_placement_once_in_order_against_the_scorer(filled):
    card = Scorecard.new("official")
    names = [box.name for box in card.rules.boxes]
    for part in filter(None, filled.split(",")):
        box, faces = part.split(":")
        card = card.place(Dice(faces), names.index(box))
    book = RULE_BOOKS["official"]
    done = {names[b] for b, entry in enumerate(card.entries) if entry is not None}
    holds_50 = card.entries[card.rules.yahtzee_box] == 50
    want = sorted({(names.index(box), points, bonus) for faces in roll_faces()
                   for box, points, bonus in placements(book, faces, done, holds_50)})
    got = turn_placements(card.rules, card.mask, card.flag)
    assert got.dtype == np.int64 and got.shape == (3, len(want))
    assert [tuple(column) for column in got.T.tolist()] == want
