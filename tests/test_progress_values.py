"""Progress figures and estimates checked by their values, against a scripted clock and
known work: in order, bounded, reaching their total (not only shown). ``play``'s
"N % worked out, about T left", ``analyze``'s note of a turn's solve, the CLI's bars."""

from __future__ import annotations

import math
import re
import time
from fractions import Fraction

import pytest

from advisor.advise import TurnAdvisor
from advisor.analyze import analyze
from advisor.background import Solve
from advisor.cli._progress import progress_bar
from advisor.play import GameSession
from advisor.play_win import WinEachTurn
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
    game = GameSession(parse_record(LATE), official_table, win=WinEachTurn(),
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
