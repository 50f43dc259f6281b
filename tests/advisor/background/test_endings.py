"""`play`'s background solves (``advisor/background.py``, :class:`TurnSolves`) after every
way a solve can end: done, failed, worker died, worker not started (no file descriptor
left), cancelled by the next turn while running, and the game closed while one runs.
After each, the solve's state and figures are checked and the next solve is seen to run
to its answer; a worker that cannot be started fails that one solve with its reason and
the game goes on (it said the failure once, its list stays by expected score). The
solves run :func:`gated_solve` in the real worker process: each waits for a file named
after its card, whose text says how it ends."""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path

import pytest

import advisor.workers as workers
from advisor.background import TurnSolves
from advisor.caches import Caches
from advisor.model import Scorecard
from advisor.objective import Objective
from advisor.play import GameSession
from advisor.play_win import WinEachTurn
from advisor.record import parse_record
from solver.errors import YahtzeeError
from tests.advisor.background.test_in_play import LATE, always_slow
from tests.faults import fail_next

GATES = "YAHTZEE_TEST_SOLVE_GATES"
STEPS = (1, 3)
"""The progress a gated solve reports before its gate opens: 1 unit done of 3."""
OBJECTIVE = Objective.win(Scorecard.parse("aces=2,twos=8,threes=9,fours=16,fives=10"))
CARDS = [Scorecard.parse(f"chance={n}") for n in range(5, 14)]


def gate_name(card: Scorecard) -> str:
    return hashlib.sha256(str(card).encode()).hexdigest()[:16]


def gated_solve(arg, progress, memory) -> str:
    """Report :data:`STEPS`, wait for the card's gate file, then end as its text says:
    ``done`` (the answer ``answer of CARD``), ``fail`` or ``die`` (the worker ends)."""
    card = arg[0]
    progress(*STEPS)
    path = Path(os.environ[GATES]) / gate_name(card)
    while not path.exists():
        time.sleep(0.02)
    how = path.read_text()
    if how == "fail":
        raise MemoryError("no memory left")
    if how == "die":
        os._exit(3)
    return f"answer of {card}"


def open_gate(folder: Path, card: Scorecard, how: str) -> None:
    temporary = folder / f".{gate_name(card)}"
    temporary.write_text(how)
    temporary.rename(folder / gate_name(card))


def progressed(solve) -> None:
    """The running solve's first report has arrived (it is then at its gate)."""
    deadline = time.monotonic() + 120
    while solve.total == 0:
        assert time.monotonic() < deadline and solve.state == "running", solve
        time.sleep(0.02)
    assert (solve.state, solve.done, solve.total) == ("running", *STEPS)


@pytest.fixture
def gates(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv(GATES, str(tmp_path))  # the spawned worker inherits it
    return tmp_path


@pytest.fixture
def spawn_failures(monkeypatch) -> list[int]:
    """``[n]``: the next ``n`` workers fail to start, as ``os.pipe`` out of descriptors."""
    failures = [0]
    fail_next(monkeypatch, workers, "spawn_worker", failures)
    return failures


def test_every_ending_of_a_solve_and_the_next_solve_then_runs(gates, spawn_failures):
    solves = TurnSolves(func=gated_solve)
    card = iter(CARDS)
    try:
        # done: the answer, the whole work done
        first = next(card)
        solve = solves.start(first, OBJECTIVE)
        progressed(solve)
        open_gate(gates, first, "done")
        assert solves.wait(first, OBJECTIVE) == f"answer of {first}"
        assert (solve.state, solve.done, solve.total) == ("done", STEPS[1], STEPS[1])

        # failed, then the worker died: each says why; the next runs
        for how, words in (("fail", "MemoryError: no memory left"),
                           ("die", "the worker process ended")):
            this = next(card)
            solve = solves.start(this, OBJECTIVE)
            progressed(solve)
            open_gate(gates, this, how)
            with pytest.raises(YahtzeeError, match=words):
                solves.wait(this, OBJECTIVE)
            assert solve.state == "failed" and words in solve.error

        # no worker can be started: that solve fails at once with the reason ...
        spawn_failures[0] = 1
        unstarted = next(card)
        solve = solves.start(unstarted, OBJECTIVE)
        assert (solve.state, solve.error) == (
            "failed", "the worker process could not be started: [Errno 24] Too many open "
                      "files")
        assert solves.get(unstarted, OBJECTIVE) is solve
        # ... and the next start of it (or of any turn) runs
        again = solves.start(unstarted, OBJECTIVE)
        assert again is not solve
        progressed(again)
        open_gate(gates, unstarted, "done")
        assert solves.wait(unstarted, OBJECTIVE) == f"answer of {unstarted}"

        # cancelled while running by the next turn's solve, which runs
        left, taken = next(card), next(card)
        running = solves.start(left, OBJECTIVE)
        progressed(running)
        nxt = solves.start(taken, OBJECTIVE)
        assert running.state == "cancelled" and nxt.state == "running"
        progressed(nxt)
        open_gate(gates, taken, "done")
        assert solves.wait(taken, OBJECTIVE) == f"answer of {taken}"
        assert solves.start(left, OBJECTIVE) is not running  # asked again: anew
        open_gate(gates, left, "done")
        assert solves.wait(left, OBJECTIVE) == f"answer of {left}"

        # closed while one runs (the game quit): cancelled; a new game's solve runs
        quit_turn, later = next(card), next(card)
        running = solves.start(quit_turn, OBJECTIVE)
        solves.close()
        assert running.state == "cancelled"
        open_gate(gates, later, "done")
        assert solves.wait(later, OBJECTIVE) == f"answer of {later}"
    finally:
        solves.close()


def test_a_worker_that_cannot_start_does_not_stop_the_game(official_table, gates,
                                                             spawn_failures):
    spawn_failures[0] = 10**6  # never, for this game
    solves = TurnSolves(func=gated_solve)
    game = GameSession(parse_record(LATE), official_table, memory=Caches(), win=WinEachTurn(),
                       solves=solves,
                       notify=lambda line: None, is_slow=always_slow)
    try:
        game.opening()
        lines = game.handle("33412")
        assert lines[0].startswith("Ann: dice 1 2 3 3 4 | ROLLS LEFT: 2"), lines
        assert game.ready_lines() == [
            "  ! the chance to win could not be worked out (the worker process could not be "
            "started: [Errno 24] Too many open files); the list above stays by expected score"]
        assert game.ready_lines() == []
        assert game.prompt().startswith("your move [enter: keep")
        game.handle("keep 33")
        assert game.stage == "reroll" and game.record.current.keeps[-1].faces == (3, 3)
    finally:
        solves.close()
