"""``advisor.play`` (the game of ``yahtzee play``): no silent wait, a turn whose target or
win solve is slow shows the expected-score advice at once, then says what it works out
while a progress bar follows it; a card's summary line (``1 box open``)."""

from __future__ import annotations

import pytest

import advisor.play
from advisor.caches import Caches
from advisor.model import Scorecard
from advisor.objective import EV, Objective
from advisor.play import GameSession, card_summary
from advisor.play_win import WinEachTurn, split_judging
from advisor.record import parse_record

LATE = """rules official
players Ann,Bob
Ann: 11123 aces
Bob: 11111 aces
Ann: 22256 twos
Bob: 22245 twos
Ann: 44456 fours
Bob: 33345 threes
Ann: 55561 fives
Bob: 44412 fours
Ann: 66612 sixes
Bob: 12345 ls
Ann: 12345 ss
Bob: 23456 ss
Ann: 22333 fh
Bob: 55566 fh
Ann: 44441 4k
Bob: 11123 3k
Ann: 66654 3k
Bob: 22221 4k
"""


class Bars:
    """A progress factory recording every (done, total) and each close."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int, int]] = []
        self.closed = 0

    def __call__(self, what: str, unit: str):
        def update(done: int, total: int) -> None:
            self.calls.append((what, done, total))

        def close() -> None:
            self.closed += 1

        return update, close


@pytest.mark.parametrize("kind", ["target", "win"])
def test_a_slow_turn_shows_the_expected_score_advice_first(kind, official_table,
                                                           monkeypatch):
    monkeypatch.setattr(advisor.play, "turn_is_slow", lambda *args: True)
    told: list[str] = []
    bars = Bars()
    record = parse_record(LATE)
    options = ({"win": WinEachTurn()} if kind == "win" else
               {"objective": Objective.for_target(200)})
    session = GameSession(record, official_table, memory=Caches(), notify=told.append,
                          progress=bars, **options)
    lines = session.handle("33412")
    what = "the chance to win" if kind == "win" else "P(final score >= 200)"
    assert told[0] == "Ann: dice 1 2 3 3 4 | ROLLS LEFT: 2 (after roll 1 of 3)"
    assert told[1] == f"by the expected final score, while {what} is worked out:"
    assert told[2].split() == ["#", "choice", "expected", "final", "loss"]
    working = next(i for i, line in enumerate(told) if "working out" in line)
    assert working > 3 and told[working].endswith(
        "Ctrl-C: go on with the expected-score advice above)...")
    # then the list ranked by the objective, the solve followed to its end
    heading = "chance to win" if kind == "win" else "P(target)"
    assert "loss (pp)" in lines[2] and heading in lines[2]
    assert bars.calls and bars.calls[-1][1] == bars.calls[-1][2] and bars.closed == 1
    assert all(done <= total for _, done, total in bars.calls)
    # the next roll of the turn, an undo into it: solved once, nothing said again
    told.clear()
    session.handle("")  # keep 3 3
    session.handle("333")
    session.handle("undo")
    assert told == []


def test_a_quick_turn_says_what_it_works_out_without_a_first_list(official_table):
    told: list[str] = []
    session = GameSession(parse_record(LATE), official_table, memory=Caches(), win=WinEachTurn(),
                          notify=told.append)
    session.handle("33412")
    assert len(told) == 1 and told[0].startswith("  working out Ann's exact chance to beat "
                                                 "Bob (4 boxes open; Ctrl-C: expected-score")


def test_a_session_judged_by_one_objective_or_each_turns_own(official_table):
    """``GameSession.judged_by`` takes what a game is played for as play and advise --game
    choose it: one objective for every turn, or each turn's win objective (then the
    expected score is no fixed objective); every other option as the constructor's."""
    record = parse_record(LATE)
    target = Objective.for_target(200)
    fixed = GameSession.judged_by(record, official_table, target, memory=Caches(), top=5)
    assert (fixed.objective, fixed.win, fixed.judging, fixed.top) == (target, None, target, 5)
    assert fixed.turn_objective() == target
    win = WinEachTurn(4)
    each = GameSession.judged_by(record, official_table, win, memory=Caches())
    assert (each.objective, each.win, each.judging, each.top) == (EV, win, win, 3)
    assert each.turn_objective() == win.objective(record, each.player)
    plain = GameSession.judged_by(record, official_table, EV, memory=Caches())
    assert (plain.objective, plain.win, plain.judging) == (EV, None, EV)
    assert split_judging(target) == (target, None) and split_judging(win) == (EV, win)


def test_one_box_open_is_singular():
    card = Scorecard.parse("aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,"
                           "fh=25,ss=30,ls=40,yahtzee=50")
    assert card_summary(card).endswith("| 1 box open")
    assert card_summary(Scorecard.new()).endswith("| 13 boxes open")
