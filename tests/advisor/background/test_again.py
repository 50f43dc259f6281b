"""A turn's solve in the worker (``advisor/background.py``) that failed is solved again
when the turn is asked for again (the docstring's "a failed or cancelled one is started
again"): ``play --objective win`` says the failure once, and an undo back into the turn,
or the review, asks anew instead of repeating an old failure (a worker that ran out of
memory once may not the next time). A solve done or running is shared, never repeated."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from advisor.background import TurnSolves
from advisor.model import Scorecard
from advisor.objective import Objective
from solver.errors import YahtzeeError

COUNT = "YAHTZEE_TEST_SOLVE_COUNT"
CARD = Scorecard.parse("aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25")
OPPONENT = Scorecard.parse("aces=2,twos=8,threes=9,fours=16,fives=10,sixes=24,4k=22,fh=25")


def counted_failure(arg, progress, memory):
    """Fails the first time in a run (one line appended to ``$YAHTZEE_TEST_SOLVE_COUNT``
    per call), then answers: a failure that a second try does not meet."""
    path = Path(os.environ[COUNT])
    with path.open("a") as out:
        out.write("call\n")
    if path.read_text().count("call") == 1:
        raise MemoryError("no memory left")
    return "solved"


def test_a_failed_solve_is_started_again_and_a_done_one_shared(tmp_path, monkeypatch):
    calls = tmp_path / "calls"
    monkeypatch.setenv(COUNT, str(calls))  # the spawned worker inherits it
    solves = TurnSolves(func=counted_failure)
    objective = Objective.win(OPPONENT)
    try:
        first = solves.start(CARD, objective)
        with pytest.raises(YahtzeeError, match="could not be worked out: MemoryError: no "
                                               "memory left"):
            solves.wait(CARD, objective)
        assert first.state == "failed" and solves.get(CARD, objective) is first
        again = solves.start(CARD, objective)
        assert again is not first
        assert solves.wait(CARD, objective) == "solved"
        assert again.state == "done" and first.state == "failed"
        assert solves.start(CARD, objective) is again  # done: shared, not solved again
        assert solves.wait(CARD, objective) == "solved"
        assert calls.read_text().count("call") == 2
    finally:
        solves.close()


@pytest.mark.parametrize(("done", "spent", "left"), [
    (4, 10.0, None), (5, 10.0, 190.0), (6, 10.0, 10.0 * 94 / 6),  # a twentieth of 100
    (50, 2.9, None), (50, 3.1, 3.1),  # the first 3 seconds
    (99, 10.0, 1.0), (100, 10.0, 1.0)])  # never under a second while running
def test_the_time_left_at_the_edges_of_its_first_estimate(done, spent, left):
    """docs: no estimate before a twentieth of the work is done or in the first 3 s; then
    the rest of the work at the rate so far (at least 1 s)."""
    import time

    from advisor.background import Solve

    solve = Solve("k", done=done, total=100, started=time.monotonic() - spent)
    got = solve.seconds_left()
    if left is None:
        assert got is None
    else:
        assert got == pytest.approx(left, rel=0.02)
    solve.state = "done"
    assert solve.seconds_left() is None
