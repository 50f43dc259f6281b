"""Limits of the newer layers at, just under and just over each bound, through every
entry that takes them (the refusals' words are in tests/advisor/objective/test_objective.py): seven
opponents' cards (a table of eight) by the options, the library's list and the JSON form;
the share of the win (a tie of k players at the top worth 1/k) against every
combination of the others' scores, enumerated."""

from __future__ import annotations

import pytest

from advisor.objective import MAX_OPPONENTS, Objective

CARD = "twos=6"


@pytest.mark.parametrize("count", [2, MAX_OPPONENTS - 1, MAX_OPPONENTS])
def test_up_to_seven_opponents_through_every_entry(count):
    assert MAX_OPPONENTS == 7  # a table of eight, as the docs say
    cards = [f"twos={2 * (n % 5 + 1)}" for n in range(count)]
    made = (Objective.parse_options(opponents=";".join(cards)),
            Objective.win_against(cards),
            Objective.from_json({"kind": "win", "opponents": cards}))
    for objective in made:
        assert [str(c) for c in objective.opponents] == [str(c) for c in made[0].opponents]
        assert len(objective.opponents) == count
    assert made[0] == made[1] == made[2]


@pytest.mark.parametrize("count", [MAX_OPPONENTS + 1, MAX_OPPONENTS + 2])
def test_one_opponent_more_is_refused_by_every_entry(count):
    cards = [CARD] * count
    for make in (lambda: Objective.parse_options(opponents=";".join(cards)),
                 lambda: Objective.win_against(cards),
                 lambda: Objective.from_json({"kind": "win", "opponents": cards})):
        with pytest.raises(ValueError, match=f"^{count} opponents: a win objective takes 2 "
                                             f"to 7 opponents' cards"):
            make()


def _share_by_enumeration(dists: list[list[float]], a: int) -> float:
    """The expected share of the win of final score ``a``: every combination of the
    others' scores, a tie of ``j`` others at the top with ``a`` worth ``1/(j + 1)``."""
    import itertools

    total = 0.0
    for scores in itertools.product(*(range(len(d)) for d in dists)):
        p = 1.0
        for d, s in zip(dists, scores, strict=True):
            p *= d[s]
        if p and max(scores) <= a:
            total += p / (1 + scores.count(a))
    return total


def _utility_at(utility, a: int) -> float:
    if a < 0:
        return 0.0
    return float(utility.values[a]) if a < utility.values.shape[0] else float(utility.above)


@pytest.mark.parametrize("others", [1, 2, 3, 7])
def test_the_share_of_a_tie_of_k_players_is_one_kth(others):
    """Every other at one score: level with them, ``1 / (others + 1)``; above, 1."""
    from solver.target import Utility

    utility = Utility.win_share([[0.0, 0.0, 1.0]] * others)
    assert [_utility_at(utility, a) for a in range(-1, 5)] == \
        [0.0, 0.0, 0.0, 1 / (others + 1), 1.0, 1.0]


@pytest.mark.parametrize("seed", range(4))
def test_the_win_share_is_the_enumerated_share_of_every_score(seed):
    import random

    from solver.target import Utility

    rng = random.Random(seed)
    dists = []
    for _ in range(1 + seed % 3 + (seed == 3)):  # one to four others
        weights = [rng.choice([0.0, rng.random()]) for _ in range(rng.randint(2, 5))]
        weights[rng.randrange(len(weights))] += 0.5
        dists.append([w / sum(weights) for w in weights])
    utility = Utility.win_share(dists)
    for a in range(-2, 8):
        assert _utility_at(utility, a) == pytest.approx(_share_by_enumeration(dists, a),
                                                        abs=1e-15), (dists, a)
