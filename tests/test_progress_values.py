"""Progress figures and estimates checked by their values, against a scripted clock and
known work: in order, bounded, reaching their total (not only shown). ``play``'s
"N % worked out, about T left", ``analyze``'s note of a turn's solve, the CLI's bars."""

from __future__ import annotations

import math
import re
import time
from fractions import Fraction
from itertools import combinations_with_replacement

import numpy as np
import pytest

from advisor.analysis import analyze
from advisor.background import Solve
from advisor.caches import Caches
from advisor.cli._progress import progress_bar
from advisor.model import Scorecard
from advisor.play import GameSession
from advisor.play_win import WinEachTurn
from advisor.ranking import TurnAdvisor
from advisor.record import parse_record
from solver.simulate import simulate
from tests.advisor.background.test_in_play import LATE, always_slow

STATUS = re.compile(r"\[the chance to win: (\d+) % worked out(?:, about (\d+ (?:s|min)) left)?\]$")


def said(seconds: float) -> set[str]:
    """A time left as the game may say it: whole seconds (at least 1) under a minute and
    a half, else whole minutes (either neighbour at a half)."""
    count, unit = (seconds, "s") if seconds < 90 else (seconds / 60, "min")
    near = {math.floor(count + 0.5 - 1e-9), math.floor(count + 0.5 + 1e-9)}
    return {f"{max(n, 1) if unit == 's' else n} {unit}" for n in near}


class OneSolve:
    """The background solves of a game, as play asks them: one running solve, whose work
    done the test sets."""

    def __init__(self, solve: Solve) -> None:
        self.solve = solve

    def start(self, card, objective) -> None:
        pass

    def get(self, card, objective) -> Solve:
        return self.solve

    def close(self) -> None:
        pass


@pytest.mark.parametrize("total, per_unit", [(7, 3.0), (1000, 0.25), (3, 40.0)])
def test_play_says_the_share_worked_out_and_the_time_left_at_the_measured_rate(
        official_table, monkeypatch, total, per_unit):
    """The solve started at 100 s and does one unit of work every ``per_unit`` s: at each
    step the prompt says floor(100 done / total) % and, from a twentieth of the work and
    3 s on, (total - done) per_unit s left (rounded to the second)."""
    now = [100.0]
    monkeypatch.setattr(time, "monotonic", lambda: now[0])
    solve = Solve("turn", total=total, started=100.0)
    game = GameSession(parse_record(LATE), official_table, memory=Caches(), win=WinEachTurn(),
                       solves=OneSolve(solve), notify=lambda line: None, is_slow=always_slow)
    game.opening()
    shares, lefts = [], []
    for done in range(total + 1):
        solve.done, now[0] = done, 100.0 + done * per_unit
        found = STATUS.search(game.prompt())
        assert found is not None, game.prompt()
        share = int(found.group(1))
        assert share == int(Fraction(100 * done, total))  # floored, never ahead of the work
        shares.append(share)
        spent = done * per_unit
        if done * 20 >= total and spent >= 3.0:
            left = max((total - done) * per_unit, 1.0)
            assert found.group(2) in said(left), done
            lefts.append(left)
        else:
            assert found.group(2) is None, done
    assert shares == sorted(shares) and shares[0] == 0 and shares[-1] == 100
    assert lefts == sorted(lefts, reverse=True) and lefts[-1] == 1.0
    assert len(set(shares)) == min(total + 1, 101)  # every step moves the figure on


def test_analyze_says_each_turns_solve_as_the_share_of_its_reported_work(official_table):
    """A game reviewed to win turn by turn: each "Ann's turn N: P % worked out" note is
    floor(100 done / total) of the (done, total) the turn's solve reported just before,
    in order, ending at 100 %."""
    reported: list[tuple[int, int]] = []

    class Recording(TurnAdvisor):
        def solve(self, progress=None):
            def follow(done: int, total: int) -> None:
                reported.append((done, total))
                progress(done, total)
            return super().solve(follow)

    notes: list[str] = []
    record = parse_record(LATE + "Ann: 33312 threes\nBob: 55512 fives\n")
    analyze(record, WinEachTurn(open_boxes=3), table=official_table, solving=notes.append,
            advisors=lambda card, objective: Recording(card, official_table, objective,
                                                       whole_game=False))
    said = [n for n in notes if n]
    assert len(said) == len(reported) >= 4
    turns = set()
    for note, (done, total) in zip(said, reported, strict=True):
        found = re.fullmatch(r"(Ann|Bob)'s turn (\d+): (\d+) % worked out", note)
        assert found is not None, note
        assert int(found.group(3)) == int(Fraction(100 * done, max(total, 1))), note
        turns.add(found.group(1, 2))
    assert len(turns) >= 2  # several turns' solves
    for turn in turns:
        mine = [int(n.rsplit(": ", 1)[1].split()[0]) for n in said
                if n.startswith(f"{turn[0]}'s turn {turn[1]}:")]
        assert mine == sorted(mine) and mine[-1] == 100
        assert any(0 < share < 100 for share in mine)  # a figure between the ends


def test_a_cli_bar_shows_each_step_of_the_work_reported(capsys):
    """The bar says done/total and the share of the work reported at each step."""
    update, close = progress_bar("solving official")
    steps = [(0, 7), (1, 7), (3, 7), (6, 7), (7, 7)]
    for done, total in steps:
        update(done, total)
    close()
    err = capsys.readouterr().err
    frames = re.findall(r"solving official:\s+(\d+)%\|[^|]*\|\s*(\d+)/(\d+)", err)
    shown = [(int(d), int(t)) for _, d, t in frames]
    assert [s for s in steps if s in shown] == steps  # every step shown, in order
    for share, done, total in frames:
        assert abs(int(share) - 100 * int(done) / int(total)) <= 0.5  # rounded


def test_simulate_reports_each_batch_of_built_in_games_as_it_ends(official_table):
    """The games start at 0 and each batch of 20,000 is reported once it is played, the
    last one at the total: in order, never over it."""
    calls: list[tuple[int, int]] = []
    simulate(official_table, "greedy", 45_000, seed=1, judged=False,
             progress=lambda done, total: calls.append((done, total)))
    assert calls == [(0, 45_000), (20_000, 45_000), (40_000, 45_000), (45_000, 45_000)]


def _turn_operations_by_hand(open_boxes: int) -> int:
    """The target DP's operations per column of a state with ``open_boxes`` open, counted
    from the dice: per final roll (252) and open box a max and a multiply; per reroll (two
    of them) 6 per keep of fewer than five dice and 2 per (keep, keep with one die less);
    252 multiply-adds for the expectation."""
    rolls = len(list(combinations_with_replacement(range(6), 5)))
    keeps = [k for size in range(6) for k in combinations_with_replacement(range(6), size)]
    partial = sum(1 for k in keeps if len(k) < 5)
    pairs = sum(len(set(k)) for k in keeps)  # one die less: one sub-keep per distinct face
    return 2 * rolls * open_boxes + 2 * (6 * partial + 2 * pairs) + 2 * rolls


def test_an_opponents_distribution_counts_each_state_as_its_turn_and_its_entries(
        official_table):
    """The work of a state of the statistics' pass: 20 times the target DP's operations
    per column of as many open boxes (its turn played) plus 68 per entry of its
    distribution and open box (the outcomes shifted in), so that the share of the work
    done follows the time level by level (the earlier count, 90 x (4 + open boxes) per
    entry, took a state with one box open for a fifth of its time)."""
    from solver.stats import highest_score, most_points_to_come, stats_work

    rules = official_table.rules
    assert _turn_operations_by_hand(1) == 8568 and _turn_operations_by_hand(13) == 14616
    # only Chance open, Yahtzee box zeroed, upper bonus missed: 0..30 points to come
    card = Scorecard.parse("aces=0,twos=0,threes=0,fours=0,fives=0,sixes=0,3k=0,4k=0,"
                           "fh=0,ss=0,ls=0,yahtzee=0")
    state = (card.mask, card.upper, card.flag)
    assert most_points_to_come(rules, state) == 30
    assert stats_work(rules, 12, np.array([30])).tolist() == [
        20 * _turn_operations_by_hand(1) + 68 * 1 * 31]
    # a new game: 13 open boxes, 0..1575 points to come
    assert highest_score(rules) == 1575
    assert stats_work(rules, 0, np.array([1575])).tolist() == [
        20 * _turn_operations_by_hand(13) + 68 * 13 * 1576]
