"""The "why" of advice: every option's outcome figures (box filled this turn, upper
bonus, Yahtzee 50, Yahtzee bonuses, SD) against a slow plain-Python twin that plays the
policy forward and keeps whole distributions (``why_reference.py``), on late positions of
every rule set."""

from __future__ import annotations

import numpy as np
import pytest

from advisor.advice import Option
from advisor.model import Dice, Scorecard
from advisor.ranking import TurnAdvisor
from advisor.why import TurnOutcomes
from solver.game.rules import RULE_NAMES
from tests.oracles.why_reference import ReferenceOutcomes, moments_after_turn, summary

EXACT = 1e-12

# Late cards (1 to 4 open boxes) per rule set, and dice to ask about.
LATE = {
    "official": [
        "aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30",
        "aces=3,twos=6,threes=9,fours=12,3k=20,4k=20,fh=25,ss=30,yahtzee=50",
        "aces=2,twos=6,threes=9,fours=12,fives=15,sixes=24,3k=20,4k=20,fh=25,ss=30,ls=40,"
        "yahtzee=50,yahtzee_bonus=1",
        "twos=6,threes=9,fives=15,sixes=18,3k=20,fh=25,ss=30,ls=40,yahtzee=0",
        # twos and the small straight open: keep 3 4 6 and keep 3 4 are equally good with
        # 1 1 3 4 6 and one roll left, and lead to different figures (the tie order counts)
        "aces=2,threes=0,fours=12,fives=15,sixes=18,3k=24,4k=16,fh=0,ls=0,yahtzee=50,"
        "chance=5",
    ],
    "free-joker": ["aces=3,twos=6,threes=9,fours=12,fives=15,3k=20,4k=20,ss=30,ls=40,"
                   "yahtzee=50"],
    "no-bonus": ["aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,fh=25,ss=30,"
                 "ls=40",
                 "aces=3,twos=6,threes=9,fives=15,3k=20,4k=20,fh=25,ss=30,ls=40"],
    "two-rolls": ["aces=3,twos=6,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30,"
                  "yahtzee=50"],
    "yatzy": ["ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,one_pair=10,two_pairs=14,"
              "3k=12,4k=16,ss=15",
              "ones=3,twos=6,threes=9,fours=12,one_pair=10,two_pairs=14,3k=12,4k=16,ss=15,"
              "ls=20,fh=20"],
}
DICE = ("12346", "33345", "55555", "11226", "11346")


@pytest.fixture(scope="module")
def twins():
    return {name: ReferenceOutcomes(name) for name in RULE_NAMES}


def cases():
    for rules, cards in LATE.items():
        for text in cards:
            yield pytest.param(rules, text, id=f"{rules}-{text[:24]}")


@pytest.mark.parametrize("rules, text", list(cases()))
def test_every_option_outcome_equals_the_twin(rules, text, twins, table_of):
    card = Scorecard.parse(text, rules)
    assert 1 <= len(card.open_boxes()) <= 4
    twin = twins[rules]
    advisor = TurnAdvisor(card, table_of(rules))
    outcomes = advisor.outcomes(moments_after_turn(twin, card.rules, card))
    state = (card.mask, card.upper, card.flag)
    for dice_text in DICE:
        dice = Dice(dice_text)
        for rolls_left in range(card.rules.rolls_per_turn):
            advice = advisor.advise(dice, rolls_left)
            for option in advice.options:
                x = features(outcomes, option, rolls_left)
                got = outcomes.outcome(x)
                what = option.keep.faces if option.keep is not None else option.box
                ref = summary(twin.option(state, dice_text, rolls_left, option.action, what),
                              card.rules.n_boxes, card.yahtzee_holds_50, card.yahtzee_bonuses)
                where = f"{dice_text} {rolls_left} {option.describe()}"
                boxes = dict(got.boxes)
                assert set(boxes) == {card.rules.boxes[b].name for b in card.open_boxes()}
                for b, p in enumerate(ref["boxes"]):
                    assert boxes.get(card.rules.boxes[b].name, 0.0) == pytest.approx(
                        p, abs=EXACT), where
                assert sum(boxes.values()) == pytest.approx(1.0, abs=EXACT), where
                zeros = dict(got.zeros)
                assert list(zeros) == list(boxes), where
                for b, p in enumerate(ref["zeros"]):
                    assert zeros.get(card.rules.boxes[b].name, 0.0) == pytest.approx(
                        p, abs=EXACT), where
                # what the line lists (each box with points, and with 0) adds up to 1
                assert sum(p for p, _ in got.fills()) == pytest.approx(
                    1.0, abs=5e-5 * 2 * len(boxes)), where
                assert got.upper_bonus == pytest.approx(ref["upper_bonus"], abs=EXACT), where
                assert got.yahtzee_50 == pytest.approx(ref["yahtzee_50"], abs=EXACT), where
                assert got.yahtzee_bonuses == pytest.approx(ref["yahtzee_bonuses"],
                                                            abs=EXACT), where
                assert got.sd == pytest.approx(ref["sd"], abs=EXACT), where
                assert outcomes.mean_to_come(x) == \
                    pytest.approx(option.expected_final - card.total, abs=EXACT), where


@pytest.mark.parametrize("rules, text, target", [
    ("official", "aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30,"
                 "ls=40,yahtzee=50", 290),
    ("official", "aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30,"
                 "ls=40,yahtzee=50", 305),
    ("yatzy", "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,one_pair=10,two_pairs=14,"
              "3k=12,4k=16,ss=15,ls=20,fh=20,yatzy=50", 295),
])
def test_the_last_turn_under_a_target_follows_the_target_strategy(rules, text, target,
                                                                   twins, table_of):
    from advisor.objective import Objective
    from tests.oracles.why_reference import LastTurnTarget

    card = Scorecard.parse(text, rules)
    assert len(card.open_boxes()) == 1
    twin = twins[rules]
    advisor = TurnAdvisor(card, table_of(rules), Objective.for_target(target))
    outcomes = advisor.outcomes(moments_after_turn(twin, card.rules, card))
    assert outcomes.strategy == {"kind": "target", "target": target}
    state = (card.mask, card.upper, card.flag)
    play = LastTurnTarget(twin, state, card.total, target)
    differs = 0
    for dice_text in DICE:
        dice = Dice(dice_text)
        for rolls_left in range(1, card.rules.rolls_per_turn):
            for option in advisor.advise(dice, rolls_left).options:
                if option.keep is None:
                    continue
                got = outcomes.outcome(features(outcomes, option, rolls_left))
                keep = _keep_index_of(option.keep.faces)
                ref = summary(play.after_keep(keep, rolls_left), card.rules.n_boxes,
                              card.yahtzee_holds_50, card.yahtzee_bonuses)
                ev = summary(twin.option(state, dice_text, rolls_left, "keep",
                                         option.keep.faces),
                             card.rules.n_boxes, card.yahtzee_holds_50, card.yahtzee_bonuses)
                assert got.sd == pytest.approx(ref["sd"], abs=EXACT)
                assert got.yahtzee_bonuses == pytest.approx(ref["yahtzee_bonuses"], abs=EXACT)
                differs += abs(ref["sd"] - ev["sd"]) > 1e-6
    assert differs  # the target strategy plays these turns otherwise than the expected score


def features(outcomes: TurnOutcomes, option: Option, rolls_left: int) -> np.ndarray:
    """The feature vector of ``option`` (a keep by its index, a box by its index)."""
    if option.keep is not None:
        return outcomes.keep_features(option.keep.index, rolls_left)
    box = outcomes.card.rules.box_index(option.box or "")
    return outcomes.placed(box, option.points, option.bonus)


def _keep_index_of(faces):
    from solver.game.dice import KEEP_INDEX, counts_of

    return KEEP_INDEX[counts_of(faces)]


@pytest.fixture(scope="module")
def late_figures(table_of):
    """The kernel's figures of the states with at most four open boxes, per rule set."""
    from solver.moments import compute_moments

    return {name: compute_moments(table_of(name), open_boxes=4) for name in RULE_NAMES}


@pytest.mark.parametrize("rules", RULE_NAMES)
def test_the_kernel_figures_of_late_states_equal_the_twin(rules, twins, late_figures, table_of):
    import math

    from tests.oracles.why_reference import state_figures

    twin = twins[rules]
    for text in LATE[rules]:  # the twin knows every state these cards lead to
        card = Scorecard.parse(text, rules)
        twin.future(card.mask, card.upper, card.flag)
        moments_after_turn(twin, card.rules, card)
    figures = late_figures[rules]
    checked = 0
    for (m, u, y), future in twin._futures.items():
        u_ref, z_ref, b_ref, v_ref = state_figures(future)
        got = figures.at(m, u, y)
        where = f"state {m:b} {u} {y}"
        assert got[0] == pytest.approx(u_ref, abs=EXACT), where
        assert got[1] == pytest.approx(z_ref, abs=EXACT), where
        assert got[2] == pytest.approx(b_ref, abs=EXACT), where
        assert math.sqrt(max(got[3], 0.0)) == pytest.approx(math.sqrt(v_ref), abs=EXACT), where
        checked += 1
    assert checked >= 20
    table = table_of(rules)
    open_early = np.flatnonzero([bin(m).count("1") < card.rules.n_boxes - 4
                                 for m in range(card.rules.full_mask + 1)])
    assert np.isnan(figures.figures[open_early]).all()  # only the late states were computed
    assert not np.isnan(figures.figures[card.rules.full_mask][~np.isnan(
        table.values[card.rules.full_mask])]).any()
