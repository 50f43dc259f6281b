"""The tournament objective (``tournament:N``): the expected share of first place among N
players who each play alone, the others' final scores drawn from the field's distribution.

Checked against independent computations: the tie-enumerating share of
tests/oracles/tournament_reference.py (a binomial sum over the others level at the top)
and the plain-Python DP twin (tests/oracles/target_reference.py) on late cards; the
identity that N players playing alike each have 1/N; and ``tournament:2`` against the win
objective with one opponent at a new game (the same utility by another road). No
new-game solve: every card here has few boxes open, so its turn is solved from itself.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from advisor.model import Dice, Scorecard
from advisor.objective import Objective
from advisor.ranking import TurnAdvisor, advise
from solver.errors import FieldError, ObjectiveError
from solver.field import MAX_PLAYERS, Field, read_scores
from solver.game.rules import get_rules
from solver.stats import highest_score
from solver.stats_file import new_game_stats
from solver.target import Utility
from tests.oracles.target_reference import TwinDP
from tests.oracles.tournament_reference import tournament_share, tournament_utility

SIZES = (2, 3, 4, 10, 100, 1_000, 10_000, 100_000)
"""The tournaments of docs/objectives.md's figures."""
LOW_CARD = "aces=3,twos=6,threes=9,fours=12,fives=15,3k=20,4k=0,fh=25,ss=30,ls=40,yahtzee=50"
"""Sixes and chance open, total 210: a small tournament's card."""
HIGH_CARD = ("aces=5,twos=10,threes=15,fours=20,fives=25,3k=30,4k=30,fh=25,ss=30,ls=40,"
             "yahtzee=50,yahtzee_bonus=2")
"""Sixes and chance open, total 515: where a big tournament is decided."""
THREE_OPEN = "aces=3,twos=6,threes=9,fours=12,fives=15,3k=20,4k=0,ss=30,ls=40,yahtzee=50"
DICE = ("66612", "66666", "12345", "11223")


@pytest.fixture(scope="module")
def field(official_table) -> np.ndarray:
    """The exact new-game distribution of expected-score play, normalised to sum 1 (as
    the utility reads it)."""
    dist = new_game_stats(official_table).distribution
    return dist / math.fsum(dist.tolist())


def whole(utility: Utility, size: int) -> np.ndarray:
    """The utility on 0..size-1."""
    out = np.full(size, utility.above)
    k = min(size, utility.top)
    out[:k] = utility.values[:k]
    return out


@pytest.mark.parametrize("players", SIZES)
def test_players_who_play_alike_each_have_one_nth(field, players):
    """Expected-score play against an expected-score field: every player plays alike,
    so each has exactly 1/N of the first place."""
    share = float(field @ whole(Utility.tournament(field, players), field.shape[0]))
    assert share == pytest.approx(1 / players, abs=1e-12, rel=0)


@pytest.mark.parametrize("players", SIZES)
def test_the_closed_form_equals_the_sum_over_ties(field, players):
    """Every final score's share, the closed form against the binomial sum over how many
    others tie at the top (every score up to one above the highest a field reaches; for
    100,000 players every third, the reference being slow)."""
    scores = list(range(0, field.shape[0] + 1, 3 if players > 10_000 else 1))
    dist = field.tolist()
    want = np.array([tournament_share(dist, players, a) for a in scores])
    got = whole(Utility.tournament(field, players), field.shape[0] + 1)[scores]
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


def test_two_players_is_the_win_against_one_new_card(field):
    """Two players: half a win on a tie, the other's score the new-game distribution: the
    win objective's utility against a new card."""
    two = Utility.tournament(field, 2)
    win = Utility.win_share([field])
    size = field.shape[0] + 1
    np.testing.assert_allclose(whole(two, size), whole(win, size), rtol=0, atol=1e-12)


def start(card: Scorecard) -> tuple[int, int, int]:
    return card.mask, card.upper, card.flag


def assert_options_equal_the_twin(card: Scorecard, table, objective: Objective,
                                  twin: TwinDP) -> None:
    """Every option of several dice with every number of rolls left against the twin: a
    box's share is the twin's value of the state after it at the points it leaves, a
    keep's the twin's value of the keep with those rolls left."""
    rules = card.rules
    stages = twin.keeps(*start(card))
    for dice in DICE:
        for rolls_left in range(rules.rolls_per_turn):
            advice = advise(card, Dice(dice), rolls_left=rolls_left, table=table,
                            objective=objective)
            for option in advice.options:
                if option.keep is not None:
                    want = stages[rolls_left][option.keep.index][card.total]
                else:
                    b = rules.box_index(option.box)
                    m, u, y, upper_bonus = rules.after_box(card.mask, card.upper, card.flag,
                                                           b, option.points)
                    after = twin.value(m, u, y)
                    points = card.total + option.points + upper_bonus + option.bonus
                    want = after[points] if points < after.shape[0] else twin.above
                assert option.win_share == pytest.approx(want, abs=1e-12, rel=0), \
                    (dice, rolls_left, option)


@pytest.mark.parametrize(("card_text", "players"), [(LOW_CARD, 3), (HIGH_CARD, 10_000)])
def test_every_option_equals_the_twin_with_the_tie_enumerating_utility(
        official_table, field, card_text, players):
    """On late cards, every option's share of first place equals the plain-Python DP
    twin's, its utility built by enumerating ties (not the closed form)."""
    card = Scorecard.parse(card_text)
    utility = np.array(tournament_utility(field.tolist(), players))
    twin = TwinDP(card.rules, utility, 1.0, utility.shape[0] + 1)
    objective = Objective.tournament(players)
    want = twin.value(*start(card))[card.total]
    assert 0.001 < want < 0.999
    got = TurnAdvisor(card, official_table, objective).probability()
    assert got == pytest.approx(want, abs=1e-12, rel=0)
    assert_options_equal_the_twin(card, official_table, objective, twin)


@pytest.mark.parametrize("card_text", [LOW_CARD, THREE_OPEN])
def test_two_players_advise_as_the_win_against_a_new_card(official_table, card_text):
    """``tournament:2`` and the win against one opponent with a new card: every option's
    ``win_share`` within 1e-12, the same order."""
    card = Scorecard.parse(card_text)
    two, win = Objective.tournament(2), Objective.win("")
    for dice in DICE:
        for rolls_left in range(card.rules.rolls_per_turn):
            mine = advise(card, dice, rolls_left=rolls_left, table=official_table,
                          objective=two)
            theirs = advise(card, dice, rolls_left=rolls_left, table=official_table,
                            objective=win)
            assert [o.describe() for o in mine.options] == \
                [o.describe() for o in theirs.options]
            for a, b in zip(mine.options, theirs.options, strict=True):
                assert a.win_share == pytest.approx(b.win_share, abs=1e-12, rel=0)


@pytest.mark.parametrize("players", [3, 10_000])
def test_the_best_option_is_never_worse_at_its_objective_than_the_expected_scores(
        official_table, players):
    """The option the tournament ranks first has the largest share of first place of the
    roll's options; the one expected-score play picks has no more."""
    card = Scorecard.parse(HIGH_CARD if players > 100 else LOW_CARD)
    objective = Objective.tournament(players)
    for dice in DICE:
        for rolls_left in range(card.rules.rolls_per_turn):
            advice = advise(card, dice, rolls_left=rolls_left, table=official_table,
                            objective=objective)
            shares = [o.win_share for o in advice.options]
            assert advice.best.win_share == max(shares)
            assert advice.ev_best.win_share <= advice.best.win_share
            assert advice.best.p_loss == 0.0


def test_the_objective_reads_back_from_its_json():
    """``{"kind": "tournament", "players": N, "field": ...}`` and back, the field a
    strategy's name or the observed scores with how often each was seen."""
    rules = get_rules("official")
    plain = Objective.tournament(10)
    assert plain.to_json() == {"kind": "tournament", "players": 10, "field": "optimal"}
    observed = Objective.tournament("250", Field.of_scores([300, 250, 300], rules))
    assert observed.to_json() == {"kind": "tournament", "players": 250,
                                  "field": {"scores": {"250": 1, "300": 2}}}
    for objective in (plain, observed):
        assert Objective.from_json(objective.to_json()) == objective
    assert plain.key == "win_share" and not plain.is_ev
    assert Objective.parse_options(tournament="10") == plain
    assert Objective.parse_options(tournament="10", field=" Optimal ") == plain


def test_observed_scores_are_their_frequencies(official_table, tmp_path):
    """A file of observed scores (spaces, commas, lines, comments) is read as the
    frequency of each score."""
    path = tmp_path / "scores.txt"
    path.write_text("# last night's finals\n250, 300 250\n\n  410,250 # the winner\n")
    field = read_scores(path, get_rules("official"))
    dist = field.distribution(official_table)
    want = np.zeros(411)
    want[250], want[300], want[410] = 3 / 5, 1 / 5, 1 / 5
    np.testing.assert_array_equal(dist, want)
    assert field.describe() == "5 observed scores"


@pytest.mark.parametrize("players", [0, 1, MAX_PLAYERS + 1, "x", "1e3", "-5", "", True, 2.0])
def test_a_number_of_players_out_of_range_is_refused(players):
    with pytest.raises(FieldError, match="2 to 100,000"):
        Objective.tournament(players)


@pytest.mark.parametrize(("content", "why"), [
    (b"", "holds no score"),
    (b"# only a comment\n\n", "holds no score"),
    (b"\x00\x01\x02binary", "not text"),
    (b"\xff\xfe250", "not UTF-8"),
    (b"250 -3", "not a final score"),
    (b"250 2.5", "not a final score"),
    (b"250 1576", "0 to 1575"),
    (b"250 x", "not a final score"),
])
def test_a_bad_file_of_scores_is_refused(tmp_path, content, why):
    path = tmp_path / "scores.txt"
    path.write_bytes(content)
    with pytest.raises(FieldError, match=why):
        read_scores(path, get_rules("official"))


def test_a_huge_file_of_scores_is_refused_by_its_size(tmp_path):
    path = tmp_path / "scores.txt"
    with open(path, "wb") as f:
        f.truncate(9 << 20)
    with pytest.raises(FieldError, match="too large"):
        read_scores(path, get_rules("official"))


def test_the_highest_score_of_the_rules_is_a_score(official_table, tmp_path):
    """The rules' highest score is accepted; one more is refused (checked above)."""
    top = highest_score(get_rules("official"))
    path = tmp_path / "scores.txt"
    path.write_text(f"0 {top}")
    assert read_scores(path, get_rules("official")).distribution(official_table)[top] == 0.5


def test_a_field_strategy_without_an_exact_distribution_is_refused():
    for name in ("heuristic", "greedy", "greedy-turn", "target:300", "nope"):
        with pytest.raises(FieldError, match="computed for optimal only"):
            Objective.parse_options(tournament="10", field=name)


def test_field_options_need_a_tournament_and_one_field(tmp_path):
    with pytest.raises(FieldError, match="with --tournament"):
        Objective.parse_options(field="optimal")
    with pytest.raises(FieldError, match="choose one field"):
        Objective.parse_options(tournament="3", field="optimal", field_scores="x")
    with pytest.raises(ObjectiveError, match="choose one objective"):
        Objective.parse_options(tournament="3", target="300")


def run_cli(*args: str, memory=None):
    from click.testing import CliRunner

    from advisor.cli import cli
    return CliRunner().invoke(cli, list(args), obj=memory)


def test_advise_ranks_by_the_share_of_first_place_in_json(official_table):
    """``advise --tournament N --json``: the objective object and every option's
    ``win_share``, the library's figures, best first."""
    import json

    result = run_cli("advise", "66612", "--card", LOW_CARD, "--tournament", "3", "--json",
                     "--top", "0")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["objective"] == {"kind": "tournament", "players": 3, "field": "optimal"}
    want = advise(Scorecard.parse(LOW_CARD), "66612", table=official_table,
                  objective=Objective.tournament(3))
    assert [o["win_share"] for o in data["options"]] == [o.win_share for o in want.options]
    assert all("p_target" not in o for o in data["options"])
    assert data["options"][0]["win_share"] == max(o["win_share"] for o in data["options"])


@pytest.mark.parametrize(("args", "why"), [
    (("--tournament", "0"), "2 to 100,000 players"),
    (("--tournament", "1"), "2 to 100,000 players"),
    (("--tournament", "100001"), "2 to 100,000 players"),
    (("--tournament", "ten"), "whole number of players"),
    (("--tournament", "3", "--field", "heuristic"), "computed for optimal only"),
    (("--field", "optimal"), "with --tournament"),
    (("--tournament", "3", "--target", "300"), "choose one objective"),
])
def test_advise_refuses_a_bad_tournament_in_one_line(official_table, args, why):
    result = run_cli("advise", "66612", "--card", LOW_CARD, *args)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and why in lines[0], lines


@pytest.mark.parametrize(("content", "why"), [(b"", "holds no score"),
                                              (b"\x00\xff", "not text"),
                                              (b"300\n-1\n", "not a final score"),
                                              (b"300 9999", "0 to 1575")])
def test_advise_refuses_a_bad_file_of_scores_in_one_line(official_table, tmp_path, content,
                                                         why):
    path = tmp_path / "scores.txt"
    path.write_bytes(content)
    result = run_cli("advise", "66612", "--card", LOW_CARD, "--tournament", "3",
                     "--field-scores", str(path))
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and why in lines[0], lines


def test_stats_gives_both_shares_from_a_late_card(official_table, field):
    """``stats --tournament N --card C --json``: ``win_share`` is the twin's value of the
    card with the tie-enumerating utility; ``win_share_ev`` the tie-enumerating utility
    averaged over expected-score play's exact final-score distribution from the card;
    tournament play's is never below it."""
    import json

    from solver.stats import optimal_stats

    card = Scorecard.parse(LOW_CARD)
    result = run_cli("stats", "--card", LOW_CARD, "--tournament", "3", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["objective"] == {"kind": "tournament", "players": 3, "field": "optimal"}
    utility = np.array(tournament_utility(field.tolist(), 3))
    twin = TwinDP(card.rules, utility, 1.0, utility.shape[0] + 1)
    assert data["win_share"] == pytest.approx(twin.value(*start(card))[card.total],
                                              abs=1e-12, rel=0)
    to_come = optimal_stats(official_table, start=start(card)).distribution
    want = math.fsum(p * utility[card.total + x] for x, p in enumerate(to_come.tolist()))
    assert data["win_share_ev"] == pytest.approx(want, abs=1e-12, rel=0)
    assert data["win_share"] >= data["win_share_ev"]


def test_stats_gives_tournament_plays_final_score_distribution_from_a_late_card(
        official_table, field, memory):
    """``stats --tournament N --card C``: the final-score distribution of tournament play
    is the plain-Python forward twin's (each turn played by the DP twin's values and its
    own tie rule), every figure of it (mean, sd, percentiles, mode, range) worked out here
    from the twin's; ``mean_ev`` is expected-score play's mean from the card (the
    backward statistics) and ``score_given_up`` the difference. The text says the same."""
    import json

    from solver.stats import optimal_stats
    from tests.oracles.forward_reference import ForwardReference, as_array

    card = Scorecard.parse(LOW_CARD)
    result = run_cli("stats", "--card", LOW_CARD, "--tournament", "3", "--json",
                     memory=memory)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    size = highest_score(card.rules) + 1
    utility = Utility.tournament(field, 3)
    twin = ForwardReference(card.rules, utility.values, utility.above, size)
    want = as_array(twin.final_distribution(*start(card), card.total), size)
    got = np.zeros(size)
    for score, p in data["distribution"].items():
        got[int(score)] = p
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
    scores = np.flatnonzero(want > 1e-15)
    mean = math.fsum((want * np.arange(size)).tolist())
    assert data["mean"] == pytest.approx(mean, abs=1e-9, rel=0)
    sd = math.sqrt(math.fsum((want * (np.arange(size) - mean) ** 2).tolist()))
    assert data["sd"] == pytest.approx(sd, abs=1e-9, rel=0)
    below = np.cumsum(want)
    assert data["percentiles"] == {str(q): int(np.flatnonzero(below >= q / 100 - 1e-12)[0])
                                   for q in (1, 5, 10, 25, 50, 75, 90, 95, 99)}
    assert data["most_likely"] == int(np.argmax(want))
    assert (data["min_score"], data["max_score"]) == (int(scores[0]), int(scores[-1]))
    to_come = optimal_stats(official_table, start=start(card)).distribution
    mean_ev = card.total + math.fsum((to_come * np.arange(to_come.shape[0])).tolist())
    assert data["mean_ev"] == pytest.approx(mean_ev, abs=1e-9, rel=0)
    assert data["score_given_up"] == pytest.approx(mean_ev - mean, abs=1e-9, rel=0)
    assert data["score_given_up"] > 0
    text = run_cli("stats", "--card", LOW_CARD, "--tournament", "3", memory=memory)
    assert text.exit_code == 0, text.output
    assert f"mean {mean:.4f}, against {mean_ev:.4f} for expected-score play" in text.stdout
    assert f"score given up  {mean_ev - mean:.4f} points on average" in text.stdout


def test_stats_from_nine_open_boxes_gives_tournament_plays_distribution_too(
        official_table, field, memory):
    """From nine open boxes (beyond the eight the slow pass was limited to) the two shares
    of first place come with tournament play's final-score distribution: it sums to 1,
    its expected share of first place under the tie-enumerating utility is ``win_share``
    (the DP's value) to 1e-12, its mean and ``score_given_up`` agree with it and with
    expected-score play's mean (the backward statistics). (A whole game is solved first:
    the card has more than five boxes open.)"""
    import json

    from solver.stats import optimal_stats

    card_text = "aces=3,twos=6,threes=9,fours=12"
    card = Scorecard.parse(card_text)
    assert len(card.open_boxes()) == 9
    result = run_cli("stats", "--card", card_text, "--tournament", "3", "--json",
                     memory=memory)  # (the runs share one solve, as one process would)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    size = highest_score(card.rules) + 1
    got = np.zeros(size)
    for score, p in data["distribution"].items():
        got[int(score)] = p
    assert math.fsum(got.tolist()) == pytest.approx(1.0, abs=1e-12, rel=0)
    utility = tournament_utility(field.tolist(), 3)
    share = math.fsum(p * utility[min(x, len(utility) - 1)] for x, p in enumerate(got.tolist()))
    best = TurnAdvisor(card, official_table, Objective.tournament(3),
                       memory=memory).probability()
    assert data["win_share"] == best
    assert share == pytest.approx(best, abs=1e-12, rel=0)
    mean = math.fsum((got * np.arange(size)).tolist())
    assert data["mean"] == pytest.approx(mean, abs=1e-9, rel=0)
    to_come = optimal_stats(official_table, start=start(card)).distribution
    mean_ev = card.total + math.fsum((to_come * np.arange(to_come.shape[0])).tolist())
    assert data["mean_ev"] == pytest.approx(mean_ev, abs=1e-9, rel=0)
    assert data["score_given_up"] == pytest.approx(mean_ev - mean, abs=1e-9, rel=0)
    assert data["win_share"] >= data["win_share_ev"]


@pytest.mark.parametrize(("args", "why"), [(("--tournament", "1"), "2 to 100,000"),
                                           (("--tournament", "x"), "2 to 100,000"),
                                           (("--tournament", "3", "--field", "greedy"),
                                            "field strategy")])
def test_stats_refuses_a_bad_tournament_in_one_line(official_table, args, why):
    result = run_cli("stats", "--card", LOW_CARD, *args)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and why in lines[0], lines


@pytest.mark.slow
def test_simulated_tournament_play_is_within_three_standard_errors_of_the_exact_share(
        official_table):
    """``simulate --strategy tournament:10``: each game's share of first place (its final
    score against the field, exactly) averaged over the games is within 3 standard errors
    of the exact share of tournament play from a new game, which beats the 1/10 of
    expected-score play (the one new-game solve of this file)."""
    import json

    result = run_cli("simulate", "--strategy", "tournament:10", "--games", "4000", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["strategy"] == "tournament:10" and data["players"] == 10
    exact, got, stderr = data["win_share_exact"], data["win_share"], data["win_share_stderr"]
    assert 0 < stderr < 0.01
    assert abs(got - exact) <= 3 * stderr, (got, exact, stderr)
    assert exact > 0.1


@pytest.mark.parametrize("name", ["tournament:1", "tournament:100001", "tournament:x",
                                  "tournament:"])
def test_simulate_refuses_a_bad_tournament_in_one_line(official_table, name):
    result = run_cli("simulate", "--strategy", name, "--games", "10")
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "2 to 100,000" in lines[0], lines
