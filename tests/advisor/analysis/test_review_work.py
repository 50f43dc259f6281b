"""The review of a game played to win does each piece of work once and is never silent
(issue 45): the opponents' distributions of a player's cards in one pass, the first turn
of a game kept on disk, the new game's figure taken from the first turn, and a progress
of work from the first moment to the last."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from advisor.analysis import REVIEW_STEPS, ReviewPlan, analyze
from advisor.caches import Bounded
from advisor.model import Scorecard
from advisor.play_win import WinEachTurn
from advisor.record import parse_record
from solver import first_turn as first_turn_module
from solver import points_to_come as points_module
from solver.errors import InvalidCardError
from solver.game.dice import N_KEEPS
from solver.readout import turn_placements
from solver.stats import optimal_stats
from tests.advisor.test_play import LATE as NINE_TURNS

LATE = NINE_TURNS + """Ann: 12346 chance
Bob: 66666 sixes
Ann: 33312 threes
Bob: 55512 fives
Ann: 12345 ls
Bob: 12346 chance
Ann: 11111 yahtzee
Bob: 22222 yahtzee
"""


def _states(record_text: str, player: str) -> list[tuple[int, int, int]]:
    """The player's cards after each of their turns (a chain), as states."""
    record = parse_record(record_text)
    card = Scorecard.new(record.rules)
    out = []
    for turn in record.turns:
        if turn.player == player:
            card = card.place(turn.rolls[-1], turn.box)
            if not card.is_full:
                out.append((card.mask, card.upper, card.flag))
    return out


def test_one_pass_gives_each_later_cards_distribution_bit_for_bit(official_table):
    chain = _states(LATE, "Bob")[4:]  # 5 to 1 boxes open
    more = dict.fromkeys(chain[1:], np.zeros(0))
    first = optimal_stats(official_table, start=chain[0], more=more).distribution
    assert np.array_equal(first, optimal_stats(official_table, start=chain[0]).distribution)
    for state in chain[1:]:
        alone = optimal_stats(official_table, start=state).distribution
        assert more[state].dtype == alone.dtype and np.array_equal(more[state], alone)
    with pytest.raises(InvalidCardError):  # not a later card of the same game
        optimal_stats(official_table, start=chain[1], more={chain[0]: np.zeros(0)})


def test_a_players_cards_are_kept_in_one_pass(official_table, monkeypatch, memory):
    import solver.stats

    passes: list[tuple[int, int, int]] = []
    real = solver.stats.optimal_stats

    def counted(table, progress=None, *, start=(0, 0, 0), **kwargs):
        passes.append(start)
        return real(table, progress, start=start, **kwargs)

    monkeypatch.setattr(points_module, "optimal_stats", counted)
    chain = _states(LATE, "Ann")[4:]
    assert points_module.points_to_come_work(official_table, chain, memory) > 0
    reports: list[tuple[int, int]] = []
    points_module.keep_points_to_come(official_table, chain, memory,
                                      lambda d, t: reports.append((d, t)))
    assert passes == [chain[0]]
    assert reports[-1] == (1000, 1000)
    for state in chain:
        assert np.array_equal(memory.points.get((official_table, state)),
                              real(official_table, start=state).distribution)
    assert points_module.points_to_come_work(official_table, chain, memory) == 0.0


def _fake_parts(rules, seed: int = 1):
    rng = np.random.default_rng(seed)
    keep_values = rng.random((rules.rolls_per_turn, N_KEEPS))
    boxes = {tuple(p): float(v) for p, v in
             zip(turn_placements(rules, 0, 0).T.tolist(),
                 rng.random(turn_placements(rules, 0, 0).shape[1]), strict=True)}
    return keep_values, float(rng.random()), boxes


@pytest.fixture
def own_tables(tmp_path, monkeypatch):
    monkeypatch.setenv("YAHTZEE_TABLES", str(tmp_path))
    first_turn_module.forget_first_turns()
    yield tmp_path
    first_turn_module.forget_first_turns()


def test_the_first_turn_is_kept_on_disk_bit_for_bit(official_table, own_tables):
    rules = official_table.rules
    solves: list[int] = []

    def solve():
        solves.append(1)
        return _fake_parts(rules)

    assert not first_turn_module.is_kept(official_table, 2)
    parts, solved = first_turn_module.first_turn(official_table, 2, solve)
    assert solved and solves == [1]
    path = first_turn_module.first_turn_path(rules, 2)
    assert path.is_file() and path.parent == own_tables
    first_turn_module.forget_first_turns()  # a later process: read, not solved
    again, solved = first_turn_module.first_turn(official_table, 2, solve)
    assert not solved and solves == [1]
    assert np.array_equal(again[0], parts[0]) and again[1] == parts[1] and again[2] == parts[2]
    # another number of players is another turn; a damaged file is solved again
    first_turn_module.first_turn(official_table, 3, solve)
    assert solves == [1, 1]
    data = bytearray(path.read_bytes())
    data[-3] ^= 0xFF
    path.write_bytes(bytes(data))
    first_turn_module.forget_first_turns()
    first_turn_module.first_turn(official_table, 2, solve)
    assert solves == [1, 1, 1]


def test_the_review_takes_the_new_games_figure_from_the_first_turn(official_table, own_tables,
                                                                   monkeypatch, memory):
    """Even when the process's advisors have let the first turn go (a long game), the
    first turn is not solved a second time for the new game's figure."""
    advise_module = importlib.import_module("advisor.ranking")
    from solver.solved_turn import SolvedTurn

    memory.advisors[False] = Bounded(0)  # no turn advisor under the chance to win kept
    parts = _fake_parts(official_table.rules)
    calls: list[Scorecard] = []

    def fake_solve(card, table, goal, memory, **kwargs):
        calls.append(card)
        return SolvedTurn(*parts)

    monkeypatch.setattr(advise_module, "solve_turn", fake_solve)
    monkeypatch.setattr("solver.turn_face.solve_turn", fake_solve)
    record = parse_record("rules official\nplayers Ann,Bob\nAnn: 22256 twos\n")
    analysis = analyze(record, WinEachTurn(), table=official_table, memory=memory)
    assert len(calls) == 1 and calls[0] == Scorecard.new("official")
    assert analysis.new_game == parts[1]


def test_the_review_says_its_plan_then_follows_its_work_from_the_start(official_table,
                                                                       monkeypatch, memory):
    """Before any solve: the plan (every turn still to work out, with its work), then
    progress (0, REVIEW_STEPS); each solve moves it in even steps; it ends at its total."""
    advise_module = importlib.import_module("advisor.ranking")
    events: list[object] = []
    real = advise_module.solve_turn

    def logged(card, table, goal, memory, **kwargs):
        events.append(("solve", card.turn))
        return real(card, table, goal, memory, **kwargs)

    monkeypatch.setattr(advise_module, "solve_turn", logged)
    monkeypatch.setattr("solver.turn_face.solve_turn", logged)
    record = parse_record(LATE)
    plans: list[ReviewPlan] = []
    analysis = analyze(record, WinEachTurn(4), table=official_table, memory=memory,
                       progress=lambda d, t: events.append((d, t)),
                       plan=lambda p: (plans.append(p), events.append("plan")))
    assert events[0] == "plan" and events[1] == (0, REVIEW_STEPS)
    [plan] = plans
    # with 4 or fewer boxes open (win from 4): the last four turns of each player
    assert [(t.player, t.turn) for t in plan.turns] == [
        ("Ann", 10), ("Bob", 10), ("Ann", 11), ("Bob", 11), ("Ann", 12), ("Bob", 12)]
    assert all(t.work > 0 for t in plan.turns) and plan.opponents_work > 0
    solves = [e for e in events if isinstance(e, tuple) and e[0] == "solve"]
    assert [turn for _, turn in solves] == [t.turn for t in plan.turns] + [13, 13]
    steps = [e for e in events if isinstance(e, tuple) and e[0] != "solve"]
    done = [d for d, _ in steps]
    assert all(t == REVIEW_STEPS for _, t in steps)
    assert done == sorted(set(done)) and done[-1] == REVIEW_STEPS and len(done) >= 20
    assert np.diff(done).max() <= 100  # no step over a tenth of the work
    assert len(analysis.decisions) == len(list(record.positions()))


def test_the_reviews_progress_never_waits_long_by_the_work_done(official_table, monkeypatch,
                                                                 memory):
    """Never silent, by work rather than time: a scripted clock moves only as the kernels
    work (by the entries each call computes: a target DP's columns, a distribution's
    points), and the review's progress comes at most 5 % of all that work apart, from its
    start (before any kernel runs) to its end (after the last). (The largest piece here
    is one task of Ann's distribution pass, 4 % of the entries: a kernel call is the
    least that can be said apart.)"""
    from solver.kernels import stats as stats_kernels
    from solver.kernels import target as target_kernels

    clock = [0]
    real_vectors, real_stats = target_kernels.vector_level, stats_kernels.stats_level

    def vectors(tasks, here, *args, **kwargs):
        real_vectors(tasks, here, *args, **kwargs)
        clock[0] += int(tasks[:, 2].sum())  # the columns of its states

    def stats(tasks, here, *args, **kwargs):
        real_stats(tasks, here, *args, **kwargs)
        for first, n in tasks.tolist():  # each state's points to come: 0 .. hi
            clock[0] += int((here.hi[first:first + n] + 1).sum())

    monkeypatch.setattr(target_kernels, "vector_level", vectors)
    monkeypatch.setattr(stats_kernels, "stats_level", stats)
    said: list[int] = []
    analyze(parse_record(LATE), WinEachTurn(4), table=official_table, memory=memory,
            progress=lambda d, t: said.append(clock[0]))
    assert clock[0] > 0 and said[0] == 0  # said before the first kernel ran
    gaps = np.diff([0, *said, clock[0]])
    assert gaps.max() <= 0.05 * clock[0], (gaps.max(), clock[0])
    assert said[-1] == clock[0]  # the last word after the last work
