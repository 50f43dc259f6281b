"""The forward pass (solver/forward.py): the exact final-score distribution of play by a
final-score DP's vectors, from a card.

Checked against independent computations: the plain-Python forward twin
(tests/oracles/forward_reference.py: its own turns, its own tie rule, the DP twin's
values) on late cards, for a tournament's utility and for a target's (0 or 1 almost
everywhere, so the tie rule's expected scores decide most moves); the identities that
the distribution sums to 1 and that its expected utility is the DP's value at the card;
and play for a utility linear in the final score, which is play for the expected score:
its distribution is the expected-score statistics' (solver/stats.py, a backward pass).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from advisor.model import Scorecard
from solver.errors import LimitError
from solver.forward import final_scores
from solver.stats import highest_score, optimal_stats
from solver.target import Utility, solve_vectors
from tests.oracles.forward_reference import ForwardReference, as_array

THREE_OPEN = "aces=3,twos=6,threes=9,fours=12,fives=15,3k=20,4k=0,ss=30,ls=40,yahtzee=50"
"""Sixes, full house and chance open, total 185: the upper bonus needs three sixes, and
five alike earn a bonus and a Joker."""
HIGH_CARD = ("aces=5,twos=10,threes=15,fours=20,fives=25,3k=30,4k=30,fh=25,ss=30,ls=40,"
             "yahtzee=50,yahtzee_bonus=2")
"""Sixes and chance open, total 515: where a big tournament is decided."""
FIVE_OPEN = "aces=2,twos=6,threes=9,fours=12,3k=22,ss=30,ls=40,yahtzee=0"
"""Fives, sixes, four of a kind, full house and chance open, no bonus flag."""


@pytest.fixture(scope="module")
def field(official_stats) -> np.ndarray:
    """The new-game distribution of expected-score play (the default field)."""
    return official_stats.distribution


def state(card: Scorecard) -> tuple[int, int, int]:
    return card.mask, card.upper, card.flag


def solve_and_pass(table, card: Scorecard, utility: Utility):
    """The DP from the card, every level kept, and the forward pass by it."""
    vectors = solve_vectors(table, utility, start=state(card), total=card.total,
                            keep=tuple(range(table.rules.n_boxes + 1)))
    return vectors, final_scores(table, vectors, start=state(card), total=card.total)


CASES = [(THREE_OPEN, "tournament", 10), (HIGH_CARD, "tournament", 10_000),
         (THREE_OPEN, "tournament", 1_000), (THREE_OPEN, "target", 280)]
"""A thousand players: from 185 with three boxes open, most ways the turn can end leave
no chance of first place (the share is 0 below 397): there every move is the expected
score's. A target: at and above it, every move is."""


@pytest.mark.parametrize(("card_text", "kind", "n"), CASES)
def test_late_cards_end_as_the_plain_python_twin_plays_them(official_table, field, card_text,
                                                            kind, n):
    """Every final score's probability within 1e-12 of the twin's, which plays each turn
    by its own values and tie rule; the distribution sums to 1 and its expected utility
    is the DP's value at the card."""
    card = Scorecard.parse(card_text)
    utility = Utility.tournament(field, n) if kind == "tournament" else Utility.target(n)
    _, result = solve_and_pass(official_table, card, utility)
    size = highest_score(official_table.rules) + 1
    twin = ForwardReference(official_table.rules, utility.values, utility.above, size)
    want = as_array(twin.final_distribution(*state(card), card.total), size)
    assert result.distribution.shape == (size,)
    np.testing.assert_allclose(result.distribution, want, rtol=0, atol=1e-12)
    assert math.fsum(result.distribution.tolist()) == pytest.approx(1.0, abs=1e-12)
    assert result.expected_utility(utility) == pytest.approx(result.value, abs=1e-12)
    assert 0.0 < result.value < 1.0
    assert result.mean == pytest.approx(float(want @ np.arange(size)), abs=1e-9)


def test_play_for_a_linear_utility_ends_as_expected_score_play(official_table):
    """U(x) = x / (H + 1) ranks every option as its expected final score does, so the pass
    gives the expected-score statistics' distribution (their backward pass) shifted by
    the card's total, to 1e-12, and their mean."""
    card = Scorecard.parse(FIVE_OPEN)
    top = highest_score(official_table.rules) + 1
    linear = Utility(np.arange(top) / top, 1.0, 1)
    vectors, result = solve_and_pass(official_table, card, linear)
    to_come = optimal_stats(official_table, start=state(card)).distribution
    want = np.zeros(top)
    want[card.total:card.total + to_come.shape[0]] = to_come
    np.testing.assert_allclose(result.distribution, want, rtol=0, atol=1e-12)
    mean = card.total + float(to_come @ np.arange(to_come.shape[0]))
    assert result.mean == pytest.approx(mean, abs=1e-9)
    assert result.value == pytest.approx(result.mean / top, abs=1e-12)


def test_vectors_without_the_levels_after_the_card_are_refused(official_table, field):
    card = Scorecard.parse(HIGH_CARD)
    vectors = solve_vectors(official_table, Utility.tournament(field, 10),
                            start=state(card), total=card.total)  # the next level only
    with pytest.raises(LimitError, match=r"lack the levels \[13\]"):
        final_scores(official_table, vectors, start=state(card), total=card.total)


def test_the_pass_reports_its_progress_as_it_goes_on_the_calling_thread(official_table, field,
                                                                        monkeypatch):
    """From a card of five open boxes (five levels to push), the progress comes on the
    thread that called the pass, in order up to the end of the bar, many times within the
    levels (each level cut into pieces of about a PIECES-th of the work: never one silent
    step of a fifth of it), the same steps on one thread as on two; and the same
    distribution to the last bit."""
    import threading

    import numba

    from solver.levels import PIECES, PROGRESS_STEPS

    card = Scorecard.parse(FIVE_OPEN)
    vectors = solve_vectors(official_table, Utility.tournament(field, 100), start=state(card),
                            total=card.total, keep=tuple(range(official_table.rules.n_boxes + 1)))
    runs = {}
    for threads in (1, 2):
        monkeypatch.setattr(numba, "get_num_threads", lambda threads=threads: threads)
        said: list[tuple[int, int]] = []
        where: set[int] = set()

        def progress(done: int, total: int, said=said, where=where) -> None:
            said.append((done, total))
            where.add(threading.get_ident())

        result = final_scores(official_table, vectors, start=state(card), total=card.total,
                              progress=progress)
        assert where == {threading.get_ident()}
        assert {total for _, total in said} == {PROGRESS_STEPS}
        steps = [done for done, _ in said]
        assert steps == sorted(set(steps)) and steps[-1] == PROGRESS_STEPS
        assert len(steps) >= PIECES // 4
        assert max(np.diff([0, *steps])) <= PROGRESS_STEPS // 20
        runs[threads] = steps, result.distribution
    assert runs[1][0] == runs[2][0]
    assert np.array_equal(runs[1][1], runs[2][1])


def test_the_same_distribution_whatever_the_states_each_call_plays(official_table, field,
                                                                   monkeypatch):
    """The kernel plays a run of states per call, keeping per state what it works out once
    (the expected-score turn, the move of each roll where every option ties): one call per
    block of half a level (PIECES = 1) gives the same distribution, bit for bit, as about
    two hundred pieces of work, from a card of five open boxes where no chance of first
    place is left in many states."""
    import solver.forward as forward

    card = Scorecard.parse(FIVE_OPEN)
    vectors = solve_vectors(official_table, Utility.tournament(field, 100), start=state(card),
                            total=card.total, keep=tuple(range(official_table.rules.n_boxes + 1)))
    pieces = final_scores(official_table, vectors, start=state(card), total=card.total)
    monkeypatch.setattr(forward, "PIECES", 1)
    whole = final_scores(official_table, vectors, start=state(card), total=card.total)
    assert np.array_equal(pieces.distribution, whole.distribution)
