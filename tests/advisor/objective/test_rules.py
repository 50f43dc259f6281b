"""Every objective (the expected score, a target, beat N, an opponent, several opponents)
under every rule set: read under the game's rules (an opponent's card included, also from
JSON and from a record's objective line), and its probabilities, every option's, equal to
the plain-Python twin of the DP (tests/oracles/target_reference.py), the opponent's distribution
read from the exact statistics of their card under the same rules, the chance to win's
utility from its definition (every joint outcome of the others' final scores)."""

from __future__ import annotations

import numpy as np
import pytest

from advisor.caches import Caches
from advisor.model import Dice, Scorecard
from advisor.objective import EV, Objective
from advisor.play_win import WinEachTurn, judging_of_record, objective_comment
from advisor.ranking import TurnAdvisor, advise
from solver.errors import ObjectiveError
from solver.game.rules import RULE_NAMES, get_rules
from solver.points_to_come import final_distribution
from solver.stats import optimal_stats
from tests.oracles.target_reference import TwinDP, win_share_utility

YAHTZEE_CARD = "aces=3,twos=6,threes=9,fours=12,fives=15,3k=20,4k=0,fh=25,ss=30,ls=40,yahtzee=50"
YAHTZEE_OPPONENT = "aces=2,twos=6,threes=12,fours=12,fives=15,sixes=18,3k=20,4k=0,fh=25,ss=30"
YAHTZEE_SECOND = "aces=4,twos=8,threes=9,fours=8,fives=20,sixes=12,3k=24,4k=22,ss=30,ls=0"
YATZY_CARD = ("ones=3,twos=6,threes=9,fours=12,fives=15,one_pair=12,two_pairs=14,3k=15,4k=0,"
              "ss=15,ls=20,fh=18,yatzy=50")
YATZY_OPPONENT = ("ones=2,twos=6,threes=12,fours=12,fives=15,sixes=18,one_pair=12,two_pairs=14,"
                  "3k=15,4k=0,ss=15,ls=0")
YATZY_SECOND = ("ones=4,twos=8,threes=9,fours=8,fives=20,sixes=12,one_pair=10,two_pairs=16,"
                "3k=12,4k=20,ss=0,ls=20")
UPPER_ONLY = {"yatzy": "ones=2,twos=4", "official": "aces=2,twos=4"}
"""An opponent's card that reads under the default rules too (as another card)."""


def cards(rules: str) -> tuple[Scorecard, Scorecard, Scorecard]:
    """(my card: sixes and chance open, upper 45; an opponent with 3 boxes open; a second
    opponent with 3 boxes open) under ``rules``."""
    texts = (YATZY_CARD, YATZY_OPPONENT, YATZY_SECOND) if rules == "yatzy" else (
        YAHTZEE_CARD, YAHTZEE_OPPONENT, YAHTZEE_SECOND)
    mine, opponent, second = (Scorecard.parse(t, rules) for t in texts)
    return mine, opponent, second


def start(card: Scorecard) -> tuple[int, int, int]:
    return card.mask, card.upper, card.flag


def opponent_final(card: Scorecard, table) -> np.ndarray:
    """P(final = x) of an opponent playing on for the expected score (their exact
    statistics under the table's rules)."""
    dist = optimal_stats(table, start=start(card)).distribution
    return np.concatenate((np.zeros(card.total), dist))


def finished(card: Scorecard) -> Scorecard:
    """``card`` with every open box filled with the most points of a few rolls."""
    for b in card.open_boxes():
        card = max((card.place(Dice(d), b) for d in ("66666", "66655", "23456", "12345")),
                   key=lambda c: c.total)
    assert card.is_full
    return card


@pytest.mark.parametrize("rules", RULE_NAMES)
def test_every_objective_is_read_under_the_games_rules(rules):
    mine, opponent, second = cards(rules)
    text, other = str(opponent), str(second)
    for objective in (Objective.parse_options(opponent=text, rules=rules),
                      Objective.win(text, rules), Objective.win(text, get_rules(rules)),
                      Objective.from_json({"kind": "win", "opponent": text}, rules)):
        assert objective.opponent == opponent and objective.opponent.rules_name == rules
    both = Objective.win_against([text, other], rules)
    assert both.opponents == (opponent, second)
    assert Objective.from_json(both.to_json(), rules) == both
    assert Objective.win_against([text], rules) == Objective.win(opponent)
    for objective in (EV, Objective.for_target(250), Objective.beat(249), Objective.win(opponent),
                      both):
        assert Objective.from_json(objective.to_json(), rules) == objective
        noted = objective_comment(objective)
        assert judging_of_record(noted + "22256 twos\n", rules) == (
            None if objective.is_ev else objective)
    assert judging_of_record(objective_comment(WinEachTurn(4)), rules) == WinEachTurn(4)
    assert Objective.parse_options(beat="249", rules=rules) == Objective.for_target(250)
    if rules in UPPER_ONLY:
        typed = UPPER_ONLY[rules]
        assert Objective.win(typed, rules).opponent == Scorecard.parse(typed, rules)
        assert Objective.parse_options(opponent=typed, rules=rules).opponent.rules_name == rules
    with pytest.raises(ObjectiveError, match="different rule sets"):
        Objective.win_against([opponent, Scorecard.parse("twos=6", "yatzy" if rules !=
                                                         "yatzy" else "official")])


@pytest.mark.parametrize("rules", RULE_NAMES)
def test_a_target_and_beat_under_every_rule_set_equal_the_twin(table_of, rules):
    table = table_of(rules)
    card = cards(rules)[0]
    target = card.total + 40
    twin = TwinDP(card.rules, np.zeros(target), 1.0, target + 1)
    want = twin.value(*start(card))[card.total]
    assert 0.0 < want < 1.0
    for objective in (Objective.for_target(target), Objective.beat(target - 1)):
        got = TurnAdvisor(card, table, objective).probability()
        assert got == pytest.approx(want, abs=1e-12), objective
    assert_options_equal_the_twin(card, table, Objective.for_target(target), twin, "p_target")


@pytest.mark.parametrize("rules", RULE_NAMES)
def test_winning_against_one_and_two_opponents_under_every_rule_set_equals_the_twin(
        table_of, rules):
    table = table_of(rules)
    mine, opponent, second = cards(rules)
    first = opponent_final(opponent, table)
    win = Objective.win(str(opponent), rules)
    np.testing.assert_allclose(win.opponent_distribution(table, Caches()), first,
                               rtol=0, atol=1e-12)
    assert np.cumsum(first)[-1] == pytest.approx(1.0, abs=1e-12)
    other = opponent_final(second, table)
    for objective, dists in ((Objective.win(str(opponent), rules), [first]),
                             (Objective.win_against([str(opponent), str(second)], rules),
                              [first, other])):
        utility, above = win_share_utility(dists)
        twin = TwinDP(mine.rules, utility, above, utility.shape[0] + 1)
        want = twin.value(*start(mine))[mine.total]
        got = TurnAdvisor(mine, table, objective).probability()
        assert 0.0 < want < 1.0
        assert got == pytest.approx(want, abs=1e-12), objective
        assert_options_equal_the_twin(mine, table, objective, twin, "win_share")


@pytest.mark.parametrize("rules", RULE_NAMES)
def test_finished_opponents_level_at_the_top_share_the_win(table_of, rules):
    """Against a finished opponent's total T the utility is 0 below T, a half at T, 1 above;
    against two finished opponents level at T a tie is a third of a win; against two
    finished opponents, the lower one does not count. Every option equals the twin's."""
    table = table_of(rules)
    mine, opponent, second = cards(rules)
    done, other = finished(opponent), finished(second)
    top = done.total
    assert mine.total < other.total != top and mine.total < top
    lower = other if other.total < top else done
    higher = done if lower is other else other
    for objective, utility in (
            (Objective.win(str(done), rules), np.r_[np.zeros(top), 0.5]),
            (Objective.win_against([done, done], rules), np.r_[np.zeros(top), 1 / 3]),
            (Objective.win_against([lower, higher, higher], rules),
             np.r_[np.zeros(higher.total), 1 / 3])):
        twin = TwinDP(mine.rules, utility, 1.0, utility.shape[0] + 1)
        want = twin.value(*start(mine))[mine.total]
        assert 0.0 < want < 1.0
        assert TurnAdvisor(mine, table, objective).probability() == pytest.approx(want,
                                                                                   abs=1e-12)
        assert_options_equal_the_twin(mine, table, objective, twin, "win_share")


def assert_options_equal_the_twin(card: Scorecard, table, objective: Objective, twin: TwinDP,
                                  key: str) -> None:
    """Every option of several dice with every number of rolls left: a box's probability
    is the twin's value of the state after it, at the points so far plus the points it
    adds; a keep's is the twin's value of that keep with those rolls left."""
    rules = card.rules
    stages = twin.keeps(*start(card))
    for dice in ("66612", "66666", "12345", "11223"):
        for rolls_left in range(rules.rolls_per_turn):
            advice = advise(card, Dice(dice), rolls_left=rolls_left, table=table,
                            objective=objective)
            for option in advice.options:
                if option.keep is not None:
                    want = stages[rolls_left][option.keep.index][card.total]
                    assert getattr(option, key) == pytest.approx(want, abs=1e-12), option
                    continue
                b = rules.box_index(option.box)
                m, u, y, upper_bonus = rules.after_box(card.mask, card.upper, card.flag, b,
                                                       option.points)
                after = twin.value(m, u, y)
                points = card.total + option.points + upper_bonus + option.bonus
                want = after[points] if points < after.shape[0] else twin.above
                assert getattr(option, key) == pytest.approx(want, abs=1e-12), (dice, option)


@pytest.mark.parametrize("rules", RULE_NAMES)
def test_the_highest_reachable_target_is_not_out_of_reach(table_of, rules):
    """From the card, the most points still to come (every open box at its most, the
    bonuses) can be scored: that target has a probability above 0, the twin's; one more
    is out of reach (exactly 0, without a solve)."""
    from solver.stats import most_points_to_come

    table = table_of(rules)
    card = cards(rules)[0]
    highest = card.total + most_points_to_come(card.rules, start(card))
    reach = Objective.for_target(highest)
    assert not reach.is_out_of_reach(card)
    assert Objective.for_target(highest + 1).is_out_of_reach(card)
    assert TurnAdvisor(card, table, Objective.for_target(highest + 1)).probability() == 0.0
    twin = TwinDP(card.rules, np.zeros(highest), 1.0, highest + 1)
    want = twin.value(*start(card))[card.total]
    got = TurnAdvisor(card, table, reach).probability()
    assert want > 0.0 and got == pytest.approx(want, abs=1e-15)


def test_an_opponent_of_other_rules_is_refused_by_every_table(table_of):
    """A win objective is solved with the table of the game's rules: an opponent's card
    of another rule set is refused (never read as a card of the table's rules), for
    every pair of rule sets."""
    for theirs in RULE_NAMES:
        opponent = Scorecard.parse("twos=6,threes=9", theirs)
        for rules in RULE_NAMES:
            if rules == theirs:
                continue
            table = table_of(rules)
            message = (f"the opponent's card is for rules {theirs!r}, the table for "
                       f"{rules!r}")
            with pytest.raises(ObjectiveError) as info:
                final_distribution(opponent, table, Caches())
            assert str(info.value) == message
            with pytest.raises(ObjectiveError) as info:
                Objective.win(opponent).opponent_distribution(table, Caches())
            assert str(info.value) == message
