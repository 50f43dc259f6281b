"""One tie-break order (``solver.game.ties``) for every "best": on positions where options
are exactly equal, the simulator's optimal move and the target strategy's move are the
option ``advise`` ranks first."""

from __future__ import annotations

import numpy as np

from advisor.model import Dice, Scorecard
from advisor.objective import Objective
from advisor.ranking import TurnAdvisor
from solver.game import ties
from solver.game.dice import KEEP_COUNTS, N_ROLLS, ROLLS, faces_of
from solver.kernels import policy as pk
from solver.kernels import readout as rk
from solver.kernels import simulate_target as st
from solver.kernels.turn import option
from solver.simulate.target import flatten
from solver.target import Utility, solve_vectors

# only the Yahtzee box open, the upper section full: keeping any one face is as good as any
YAHTZEE_ONLY = ("aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30,"
                "ls=40,chance=20")
# late cards of every rule set, searched for more ties
LATE = [("official", YAHTZEE_ONLY),
        ("official", "aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,"
                     "ss=30,yahtzee=50"),
        ("free-joker", "aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,fh=25,ss=30,"
                       "ls=40,chance=22"),
        ("no-bonus", "aces=2,twos=6,threes=9,fours=12,fives=15,sixes=18,4k=20,fh=25,ss=30,"
                     "ls=40,yahtzee=0"),
        ("two-rolls", "aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,fh=25,ss=30,ls=40,"
                      "yahtzee=50,chance=23"),
        ("yatzy", "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,one_pair=10,two_pairs=18,"
                  "three_of_a_kind=12,four_of_a_kind=16,small_straight=15,large_straight=20,"
                  "full_house=18")]


def _move(best) -> tuple:
    return ("score", best.box) if best.action == "score" else ("keep", tuple(best.keep.faces))


def _tied(advice, tie: float, value) -> bool:
    """Whether the two best options are equal (within ``tie``) by ``value``."""
    return len(advice.options) > 1 and value(advice.options[0]) - value(advice.options[1]) <= tie


def _box_name(rules, option) -> str:
    """The name of the box of a plan option (``turn.option``: row, box, entry, add)."""
    return rules.boxes[int(option[1])].name


def _policy_turn(table, card):
    rules = table.rules
    turn = pk.new_turn(rules.n_boxes, rules.rolls_per_turn - 1, 1)
    turn.cols[:, 0] = card.upper, card.flag
    pk.play_turns(card.mask, 1, np.ascontiguousarray(table.values), np.zeros(rules.n_boxes),
                  rules.arrays, turn, 1)
    return turn


def test_the_yahtzee_only_card_ties_every_single_face(official_table):
    """12345 with two rolls left: rerolling everything and keeping any one die are
    equally good; the fewest dice win."""
    card = Scorecard.parse(YAHTZEE_ONLY)
    advice = TurnAdvisor(card, official_table).advise(Dice.parse("12345"), 2)
    tied = [o for o in advice.options if o.action == "keep" and len(o.keep.faces) <= 1]
    assert len(tied) == 6
    assert max(o.expected_final for o in tied) - min(o.expected_final
                                                     for o in tied) <= ties.EV_TIE
    assert [_move(o) for o in advice.options[:6]] == [("keep", ())] + [
        ("keep", (f,)) for f in range(1, 6)]


def test_the_simulator_moves_as_advise_ranks(table_of):
    """Every roll and rolls left of each late card's turn: the optimal policy's move (the
    kernels of the simulator and the statistics) is advise's first option; ties found."""
    tied = 0
    for rules_name, card_text in LATE:
        table = table_of(rules_name)
        rules = table.rules
        card = Scorecard.parse(card_text, rules_name)
        turn = _policy_turn(table, card)
        advisor = TurnAdvisor(card, table)
        for r in range(N_ROLLS):
            dice = Dice(tuple(int(f) for f in ROLLS[r]))
            for j in range(rules.rolls_per_turn):
                keep, i = rk.choose(r, j, turn.succ, turn.keeps, turn.bests, rules.arrays, turn)
                mine = ("keep", faces_of(KEEP_COUNTS[keep])) if keep >= 0 else \
                    ("score", _box_name(rules, option(turn.plan, r, i, rules.arrays.box_scores)))
                advice = advisor.advise(dice, j)
                assert mine == _move(advice.best), (rules_name, card_text, str(dice), j)
                tied += _tied(advice, ties.EV_TIE, lambda o: o.expected_final)
    assert tied > 100


def test_the_target_strategy_moves_as_advise_target_ranks(table_of):
    """The same for the target strategy, under a target 25 points above the card: where
    the probabilities tie the expected scores decide, then the fixed order."""
    tied = 0
    for rules_name, card_text in (LATE[0], LATE[2], LATE[5]):
        table = table_of(rules_name)
        rules = table.rules
        card = Scorecard.parse(card_text, rules_name)
        target = card.total + 25
        n0 = bin(card.mask).count("1")
        vectors = solve_vectors(table, Utility.target(target),
                                start=(card.mask, card.upper, card.flag), total=card.total,
                                keep=tuple(range(n0 + 1, rules.n_boxes + 1)))
        values = np.ascontiguousarray(table.values)
        spec = Utility.target(target).spec(rules)
        turn = st.new_turn(rules.n_boxes, rules.rolls_per_turn - 1, spec)
        st.play_turn(card.mask, card.upper, card.flag, card.total, flatten(vectors), values,
                     rules.arrays, spec, turn)
        advisor = TurnAdvisor(card, table, Objective.for_target(target))
        for r in range(N_ROLLS):
            dice = Dice(tuple(int(f) for f in ROLLS[r]))
            for j in range(rules.rolls_per_turn):
                o, keep = st.choose(r, j, card.mask, card.upper, card.flag, card.total, turn,
                                    turn, values, rules.arrays)
                mine = ("keep", faces_of(KEEP_COUNTS[keep])) if keep >= 0 else \
                    ("score", _box_name(rules, option(turn.vec.plan, r, o,
                                                     rules.arrays.box_scores)))
                advice = advisor.advise(dice, j)
                assert mine == _move(advice.best), (rules_name, card_text, str(dice), j)
                tied += _tied(advice, ties.P_TIE, lambda o: o.p_target)
    assert tied > 100


def test_ranked_starts_with_best():
    """The advisor's whole ranking and the kernels' best agree on random near-ties."""
    gen = np.random.default_rng(5)
    for _ in range(300):
        n = int(gen.integers(1, 12))
        values = list(np.round(gen.random(n), 1) + gen.random(n) * 1e-13)
        evs = list(np.round(gen.random(n) * 3, 0) + gen.random(n) * 1e-10)
        ranks = list(gen.permutation(n))
        for tie in (ties.P_TIE, ties.EV_TIE):
            order = ties.ranked(values, evs, ranks, tie)
            assert sorted(order) == list(range(n))
            assert order[0] == ties.best(values, evs, ranks, n, tie)
