"""Objectives: parsing and errors, advice ranked by a probability, --beat and a finished
opponent, and the CLI's one-line errors (exit code 2)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from advisor.caches import Caches
from advisor.cli import cli
from advisor.model import Dice, Keep, Scorecard
from advisor.objective import MAX_OPPONENTS, Objective
from advisor.ranking import TurnAdvisor, advise
from solver.errors import ObjectiveError, YahtzeeError
from solver.field import Field

MID = "aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,three_of_a_kind=20"
"""Seven boxes filled (total 118 with the upper bonus): six open, fast to solve."""
OPPONENT_FULL = ("aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=0,fh=25,ss=30,"
                 "ls=40,yahtzee=0,chance=22")  # 235 with the bonus


@pytest.fixture(autouse=True)
def _tables(official_table):
    """The official table exists, so no command builds one."""


def test_parse_options_and_json():
    assert Objective.parse_options() == Objective.ev()
    assert Objective.parse_options(target="300").to_json() == {"kind": "target", "target": 300}
    assert Objective.parse_options(beat=283) == Objective.for_target(284)
    win = Objective.parse_options(opponent="twos=6, chance=20")
    assert win.to_json() == {"kind": "win", "opponent": "twos=6,chance=20"}
    assert Objective.ev().to_json() == {"kind": "ev"}


@pytest.mark.parametrize("options,words", [
    ({"target": 300, "beat": 200}, "choose one objective"),
    ({"target": 1, "opponent": ""}, "choose one objective"),
    ({"target": -1}, "whole number"),
    ({"target": "2.5"}, "whole number"),
    ({"beat": "many"}, "whole number"),
    ({"target": True}, "whole number"),
    ({"opponent": "aces=7"}, "opponent card"),
    ({"opponent": "fish=3"}, "opponent card"),
])
def test_bad_objectives_raise_one_clear_error(options, words):
    with pytest.raises(ObjectiveError, match=words) as info:
        Objective.parse_options(**options)
    assert isinstance(info.value, YahtzeeError) and isinstance(info.value, ValueError)


def test_advice_is_ranked_by_p_target_with_expected_final_kept():
    card = Scorecard.parse(MID)
    advice = advise(card, Dice("55516"), target=260)
    ps = [o.p_target for o in advice.options]
    assert all(p is not None and 0.0 <= p <= 1.0 for p in ps)
    assert all(a >= b - 1e-12 for a, b in zip(ps, ps[1:], strict=False))
    ev = advise(card, Dice("55516"))
    assert {o.describe(): o.expected_final for o in advice.options} == \
        {o.describe(): o.expected_final for o in ev.options}
    assert min(o.loss for o in advice.options) == 0.0
    assert advice.ev_best.describe() == ev.best.describe()
    assert advice.to_json()["objective"] == {"kind": "target", "target": 260}
    assert "p_target" in advice.to_json()["options"][0]


def test_under_a_probability_the_loss_is_in_it_beside_the_expected_final():
    """p_loss: how much lower an option's probability is than the best one's; the text
    list shows it in percentage points, the expected final score beside it."""
    from advisor.advice import advice_table

    advice = advise(Scorecard.parse(MID), Dice("55516"), target=260)
    best = advice.best.p_target
    assert advice.best.p_loss == 0.0
    for option in advice.options:
        assert option.p_loss == max(best - option.p_target, 0.0)
        assert option.to_json()["p_loss"] == option.p_loss
    assert [o.p_loss for o in advice.options] == sorted(o.p_loss for o in advice.options)
    lines = advice_table(advice, 3)
    assert lines[0].split() == ["#", "choice", "P(target)", "loss", "(pp)", "expected", "final"]
    for line, option in zip(lines[1:4], advice.options, strict=False):
        cells = line.split()
        assert cells[-2] == f"{100 * option.p_loss:.2f}"
        assert cells[-1] == f"{option.expected_final:.2f}"
    assert "p_loss" not in advise(Scorecard.parse(MID), Dice("55516")).to_json()["options"][0]


def test_turn_probability_is_the_mean_of_the_best_first_roll_options():
    """Averaging the best option's p_target over the 252 first rolls gives the card's
    p_target before the turn (the same identity as for the expected score)."""
    from solver.game.dice import ROLL_PROBABILITY, ROLLS

    card = Scorecard.parse(MID + ",four_of_a_kind=0,full_house=25,small_straight=30")
    turn = TurnAdvisor(card, objective=Objective.for_target(200))
    mean = sum(p * turn.advise(Dice(tuple(int(f) for f in roll)), 2).best.p_target
               for p, roll in zip(ROLL_PROBABILITY, ROLLS, strict=True))
    assert mean == pytest.approx(turn.probability(), abs=1e-12)


def test_a_reached_target_is_certain():
    advice = advise(Scorecard.parse(MID), Dice("55516"), target=100)
    assert all(o.p_target == 1.0 for o in advice.options)
    assert advice.best.loss == 0.0  # ties go to the expected score


def test_beat_n_equals_target_n_plus_1():
    card = Scorecard.parse(MID)
    a = advise(card, Dice("22346"), rolls_left=1, objective=Objective.beat(249))
    b = advise(card, Dice("22346"), rolls_left=1, target=250)
    assert a.to_json() == b.to_json()


def test_a_finished_opponent_lies_between_beating_and_reaching_their_total():
    """Against a finished total T the chance to win, a tie counting half, is the best
    expected ``1[final > T] + 1[final = T] / 2``: at least the best P(final > T) and half
    the best P(final >= T), at most the mean of the two (a maximum of a mean is at most
    the mean of the maxima)."""
    card = Scorecard.parse(MID)
    opponent = Scorecard.parse(OPPONENT_FULL)
    assert opponent.total == 235
    win = advise(card, Dice("13456"), rolls_left=1, objective=Objective.win(opponent))
    beat = advise(card, Dice("13456"), rolls_left=1, objective=Objective.beat(235))
    reach = advise(card, Dice("13456"), rolls_left=1, target=235)
    by_move = {o.move: o.p_target for o in beat.options}
    reached = {o.move: o.p_target for o in reach.options}
    assert any(by_move[o.move] < reached[o.move] - 1e-6 for o in win.options)  # ties matter
    for w in win.options:
        low, high = by_move[w.move], reached[w.move]
        assert max(low, high / 2) - 1e-12 <= w.win_share <= (low + high) / 2 + 1e-12


def test_opponent_still_playing_uses_their_exact_distribution(official_table):
    """The chance to win lies strictly between 0 and 1, the opponent's distribution sums
    to 1 and starts at their least possible final score."""
    card = Scorecard.parse(MID)
    opp = Objective.win(MID + ",chance=20")
    dist = opp.opponent_distribution(official_table, Caches())
    assert dist.sum() == pytest.approx(1.0, abs=1e-12)
    assert dist[:138].sum() == 0.0 and dist[138] > 0
    share = TurnAdvisor(card, objective=opp).probability()
    assert 0.0 < share < 1.0


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_cli_advise_target_names_the_objective_and_the_ev_choice():
    result = run("advise", "--dice", "66612", "--card", MID + ",chance=20", "--rolls-left", "1",
                 "--target", "270")
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "ranked by P(final score >= 270)" in text and "P(target)" in text
    assert ("for the most points on average:" in text
            or "also the best choice for the most points on average" in text)


def test_cli_json_has_the_objective_and_probabilities():
    result = run("advise", "--dice", "66612", "--card", MID, "--opponent", OPPONENT_FULL,
                 "--json", "--top", "3")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["objective"]["kind"] == "win"
    assert all("win_share" in o and "p_win" not in o and "p_tie" not in o
               and "expected_final" in o
               for o in data["options"])


@pytest.mark.parametrize("args,words", [
    (["advise", "--dice", "12345", "--target", "300", "--beat", "299"], "choose one objective"),
    (["advise", "--dice", "12345", "--target", "-5"], "whole number"),
    (["advise", "--dice", "12345", "--beat", "1e3"], "whole number"),
    (["advise", "--dice", "12345", "--opponent", "aces=9"], "opponent card"),
    (["advise", "--dice", "12345", "--opponent", "ones=2", "--rules", "yatzy",
      "--target", "3"], "choose one objective"),
    (["play", "--target", "300", "--opponent", "aces=3"], "choose one objective"),
    (["strategy", "--beat", "-1"], "whole number"),
    (["stats", "--target", "x"], "whole number"),
    (["solve", "--target", "300"], "No such option"),
    (["rules", "--beat", "3"], "No such option"),
])
def test_cli_bad_objective_is_one_error_line_exit_2(args, words):
    result = run(*args)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:") and words in lines[0], lines


def test_cli_strategy_takes_an_objective():
    card = MID + ",four_of_a_kind=0,full_house=25,small_straight=30"
    result = run("strategy", "--card", card, "--target", "230", "--format", "csv",
                 "--rolls-left", "0")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].endswith(",p_target") and len(lines) == 253
    assert all(0.0 <= float(line.split(",")[-1]) <= 1.0 for line in lines[1:])
    data = json.loads(run("strategy", "--card", card, "--beat", "229", "--json",
                          "--rolls-left", "0").stdout)
    assert data["objective"] == {"kind": "target", "target": 230}
    assert "p_target" in data["rows"][0]["best"]


def test_at_most_seven_opponents() -> None:
    seven = ";".join(["twos=6"] * MAX_OPPONENTS)
    assert len(Objective.parse_options(opponents=seven).opponents) == MAX_OPPONENTS
    for count in (8, 50, 5000):
        with pytest.raises(ValueError) as caught:
            Objective.parse_options(opponents=";".join(["twos=6"] * count))
        assert str(caught.value) == (f"{count:,} opponents: a win objective takes 2 to 7 "
                                     f"opponents' cards (the others at a table of eight)")
        with pytest.raises(ValueError, match="2 to 7"):
            Objective.win_against(["twos=6"] * count)
        with pytest.raises(ValueError, match="2 to 7"):
            Objective.from_json({"kind": "win", "opponents": ["twos=6"] * count})


def test_an_empty_card_among_opponents_is_a_new_game() -> None:
    """What the page sends for players who have not played yet (as ``--card ''``)."""
    objective = Objective.parse_options(opponents=";;")
    assert len(objective.opponents) == 3 and all(c.total == 0 and len(c.open_boxes()) == 13
                                                  for c in objective.opponents)


def test_objectives_refuse_numbers_longer_than_thirty_digits() -> None:
    assert Objective.for_target("9" * 30).target == 10**30 - 1
    for value in ("9" * 31, 10**30, "1" * 5000):
        with pytest.raises(ValueError, match="at most 30 digits"):
            Objective.for_target(value)


# ---------------------------------------------------------------- each type answers for itself
def _option(move: str, expected_final: float, **figures: float):
    from advisor.advice import Option

    keep, box = (Keep.parse(move), None) if move[0].isdigit() else (None, move)
    return Option("keep" if keep is not None else "score", expected_final, keep=keep,
                  box=box, **figures)


def test_each_objective_type_answers_what_the_advisor_asks():
    """Tie rule, unit, solving, ranking words, an option's value and repr, per type, against
    hand-written answers (the advisor asks these instead of testing the kind)."""
    from advisor.objective import (
        ExpectedScore,
        TargetObjective,
        TournamentObjective,
        WinObjective,
    )
    from solver.game.ties import EV_TIE, P_TIE

    late = Scorecard.parse(OPPONENT_FULL.replace(",chance=22", ""))  # 213, Chance open
    option = _option("66", 251.5, p_target=0.25, win_share=0.75)
    ev, target = Objective(), Objective.for_target(300)
    win, tournament = Objective.win(OPPONENT_FULL), Objective.tournament(10)
    assert [type(o) for o in (ev, target, win, tournament)] == \
        [ExpectedScore, TargetObjective, WinObjective, TournamentObjective]
    assert [(o.tie, o.unit, o.solves_turns, o.keeps_game_vectors)
            for o in (ev, target, win, tournament)] == [
        (EV_TIE, "points", False, False), (P_TIE, "probability", True, True),
        (P_TIE, "probability", True, False), (P_TIE, "probability", True, False)]
    assert [o.ranked_by for o in (ev, target)] == [None, "P(final score >= 300)"]
    assert [o.value_of(_option("66", 251.5, **{o.key: 0.25}) if o.key else option)
            for o in (ev, target, win, tournament)] == [251.5, 0.25, 0.25, 0.25]
    # 213 + at most 30 (Chance: five sixes): 243 is the highest target within reach
    assert [o.needs_solve(late) for o in (ev, Objective.for_target(243),
                                          Objective.for_target(244), win)] == \
        [False, True, False, True]
    names = {"Objective": Objective, "Scorecard": Scorecard, "Field": Field}
    for objective in (ev, target, win, Objective.win_against([OPPONENT_FULL, MID]),
                      tournament):
        assert eval(repr(objective), names) == objective  # (a working constructor)
    with pytest.raises(ObjectiveError, match="build an objective with"):
        Objective("target", target=300)


@pytest.mark.parametrize("objective,words", [
    (Objective.for_target(300), "the chance of 300 or more"),
    (Objective.win(OPPONENT_FULL), "the chance to win"),
    (Objective.tournament(10), "the share of first place among 10 players"),
])
def test_a_moves_cost_names_the_objectives_own_figure(objective, words):
    """play's and advise --append's note of a move below the best, under each probability
    objective: the cost in percentage points of the objective's own figure (a tournament's
    once read 'the chance of None or more')."""
    from advisor.play import deviation_note

    key = objective.key
    best = _option("666", 250.0, **{key: 0.534367})
    chosen = _option("66", 248.8, loss=1.2, **{key: 0.530167})
    assert deviation_note(chosen, best, objective) == (
        f"  keep 6 6 costs 0.42 percentage points of {words} (53.4367 % to 53.0167 %; "
        f"best: keep 6 6 6; 1.20 points on average)")


@pytest.mark.parametrize("players", [2, 10, 100, 999, 1_000, 10_000, 99_999, 100_000])
def test_a_choice_a_tenth_of_a_fair_share_worse_never_shows_a_loss_of_zero(players):
    """Among N players a share of first place is about 1/N: the option table and play's
    note show a choice worse by a tenth of that (0.1/N) as a loss above 0 (two decimals
    showed 0.00 from 2,000 players up), each figure rounded from the option's own value,
    the share with at least as many decimals as the loss."""
    from advisor.play import deviation_note

    objective = Objective.tournament(players)
    best_share = 1 / players
    lost = 0.1 / players
    best = _option("666", 250.0, win_share=best_share, p_loss=0.0)
    chosen = _option("66", 248.8, loss=1.2, win_share=best_share - lost, p_loss=lost)
    share, loss, _ = objective.option_columns()
    shown = loss.cell(chosen)
    assert float(shown) > 0 and abs(float(shown) - 100 * lost) <= 0.5 * 10.0 ** -len(
        shown.split(".")[1]) + 1e-15, shown
    digits = len(shown.split(".")[1])
    assert share.cell(chosen) == f"{100 * (best_share - lost):.{max(4, digits)}f} %"
    assert len(share.heading) <= share.width and len(loss.heading) <= loss.width
    note = deviation_note(chosen, best, objective)
    assert f"costs {shown} percentage points" in note, note
    assert f"({share.cell(best)} to {share.cell(chosen)};" in note, note
