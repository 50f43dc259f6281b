"""solver.vector_cache: the vectors solved at one turn answer the later turns of the same
game exactly (compared with vectors solved afresh from each later card), and a card they
cannot answer is solved anew."""

from __future__ import annotations

import random

import pytest

from advisor.model import Dice, Scorecard
from advisor.objective import Objective
from advisor.ranking import TurnAdvisor
from solver import vector_cache
from solver.memory import VECTORS_KEPT, TurnMemory
from solver.target import solve_vectors, turn_at


def _fresh_probability(card: Scorecard, table, objective: Objective) -> float:
    vectors = solve_vectors(table, objective.utility(table, TurnMemory()),
                            start=(card.mask, card.upper, card.flag), total=card.total)
    return turn_at(vectors, card.mask, card.upper, card.flag, card.total).value


def _options(card: Scorecard, table, objective: Objective, dice: Dice, memory) -> list[tuple]:
    advice = TurnAdvisor(card, table, objective, memory=memory).advise(dice, 0)
    return [(o.describe(), o.probability) for o in advice.options]


def _play_on(card: Scorecard, table, objective: Objective, seed: int, memory) -> None:
    """Play ``card`` to the end with random dice and boxes (a Yahtzee now and then); at
    every turn the kept vectors must give what vectors solved from that card give."""
    rng = random.Random(seed)
    vector_cache.clear(memory)
    TurnAdvisor(card, table, objective, memory=memory).probability()
    kept = vector_cache.kept(memory)[0]
    assert kept is not None and kept.start == (card.mask, card.upper, card.flag)
    rules = table.rules
    while not card.is_full:
        face = rng.randint(1, 6)
        dice = Dice((face,) * 5) if rng.random() < 0.3 else \
            Dice(tuple(sorted(rng.randint(1, 6) for _ in range(5))))
        allowed = rules.placements(dice.faces, card.mask, card.yahtzee_holds_50)
        card = card.place(dice, rng.choice(allowed).box)
        if card.is_full:
            break
        vector_cache.keep_only(memory, kept)
        cached = TurnAdvisor(card, table, objective, memory=memory).probability()
        cached_options = _options(card, table, objective, dice, memory)
        assert vector_cache.kept(memory) == [kept], \
            "a later card of the same game was solved again"
        assert cached == pytest.approx(_fresh_probability(card, table, objective), abs=1e-12)
        vector_cache.clear(memory)
        fresh_options = _options(card, table, objective, dice, memory)
        assert [o[0] for o in cached_options] == [o[0] for o in fresh_options]
        for (_, p), (_, q) in zip(cached_options, fresh_options, strict=True):
            assert p == pytest.approx(q, abs=1e-12)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_target_vectors_answer_the_rest_of_the_game(official_table, seed, memory):
    card = Scorecard.parse("aces=2,threes=9,fives=15,3k=21,ss=30,chance=22")
    _play_on(card, official_table, Objective.for_target(card.total + 120), seed, memory)


def test_yatzy_target_vectors_answer_the_rest_of_the_game(table_of, memory):
    card = Scorecard.parse("ones=2,threes=9,fives=15,one_pair=10,two_pairs=14,three_of_a_kind=12,"
                          "small_straight=15,chance=22", "yatzy")
    _play_on(card, table_of("yatzy"), Objective.for_target(card.total + 90), 4, memory)


def test_win_vectors_answer_the_rest_of_the_game(official_table, memory):
    card = Scorecard.parse("aces=3,twos=6,fives=15,4k=24,ls=40,yahtzee=50,chance=20")
    opponent = Scorecard.parse("aces=2,twos=8,threes=9,fours=16,fives=10,sixes=24,4k=22")
    _play_on(card, official_table, Objective.win(opponent), 5, memory)


def test_a_card_the_kept_vectors_cannot_answer_is_solved_anew(official_table, memory):
    vector_cache.clear(memory)
    objective = Objective.for_target(200)
    first = Scorecard.parse("aces=2,threes=9,fives=15,3k=21,ss=30,chance=22,fh=25")
    TurnAdvisor(first, official_table, objective, memory=memory).probability()
    kept = vector_cache.kept(memory)[0]
    other = Scorecard.parse("twos=4,fours=12,sixes=24,4k=20,ls=40,yahtzee=0,chance=25")
    p = TurnAdvisor(other, official_table, objective, memory=memory).probability()
    assert vector_cache.kept(memory)[0] is not kept and vector_cache.kept(memory)[1] is kept
    assert p == pytest.approx(_fresh_probability(other, official_table, objective), abs=1e-12)
    # two games at once (two players): both stay kept; a third game pushes the oldest out
    TurnAdvisor(first, official_table, objective, memory=memory).probability()
    assert vector_cache.kept(memory)[0] is kept
    TurnAdvisor(other, official_table, Objective.for_target(201), memory=memory).probability()
    assert len(vector_cache.kept(memory)) == VECTORS_KEPT
    assert vector_cache.kept(memory)[0].goal != kept.goal
    assert vector_cache.kept(memory)[1] is kept


def test_past_the_memory_budget_only_the_needed_level_is_kept(official_table, monkeypatch,
                                                              memory):
    vector_cache.clear(memory)
    monkeypatch.setattr(vector_cache, "KEEP_BYTES", 1000)
    card = Scorecard.parse("aces=2,threes=9,fives=15,3k=21,ss=30,chance=22")
    objective = Objective.for_target(card.total + 120)
    p = TurnAdvisor(card, official_table, objective, memory=memory).probability()
    kept = vector_cache.kept(memory)[0]
    assert sorted(kept.vectors.levels) == [bin(card.mask).count("1") + 1]
    assert p == pytest.approx(_fresh_probability(card, official_table, objective), abs=1e-12)
    later = card.place(Dice((6, 6, 6, 6, 6)), "sixes")
    q = TurnAdvisor(later, official_table, objective, memory=memory).probability()
    assert vector_cache.kept(memory)[0] is not kept  # solved again: its levels were let go
    assert q == pytest.approx(_fresh_probability(later, official_table, objective), abs=1e-12)


def test_past_the_memory_budget_the_early_levels_stay(official_table, monkeypatch, memory):
    """Issue 32 (``analyze --opponent`` solved a whole game again at every turn): past the
    budget the latest levels go first, so the next turn is read from the levels kept."""
    vector_cache.clear(memory)
    card = Scorecard.parse("aces=2,threes=9,fives=15,3k=21,ss=30,chance=22")
    objective = Objective.for_target(card.total + 120)
    state = (card.mask, card.upper, card.flag)
    every = solve_vectors(official_table, objective.utility(official_table, TurnMemory()),
                          start=state, total=card.total, keep=tuple(range(14)))
    size = {n: level.vals.nbytes for n, level in every.levels.items()}
    first = bin(card.mask).count("1") + 1
    budget = size[first] + size[first + 1]
    assert sum(size.values()) > budget + 1
    monkeypatch.setattr(vector_cache, "KEEP_BYTES", budget + 1)
    p = TurnAdvisor(card, official_table, objective, memory=memory).probability()
    kept = vector_cache.kept(memory)[0]
    assert sorted(kept.vectors.levels) == [first, first + 1]
    assert p == pytest.approx(_fresh_probability(card, official_table, objective), abs=1e-12)
    later = card.place(Dice((6, 6, 6, 6, 6)), "sixes")
    q = TurnAdvisor(later, official_table, objective, memory=memory).probability()
    assert vector_cache.kept(memory)[0] is kept  # answered by the kept levels: nothing solved
    assert q == pytest.approx(_fresh_probability(later, official_table, objective), abs=1e-12)
    last = later.place(Dice((1, 1, 2, 2, 2)), "twos")
    TurnAdvisor(last, official_table, objective, memory=memory).probability()
    assert vector_cache.kept(memory)[0] is not kept  # past the levels kept: solved again
