"""`yahtzee play --objective win` never makes the player wait: a slow turn is solved in a
worker process from the moment the turn starts, the game takes every input meanwhile
(dice, keeps, undo, a box), and the list is re-ranked by the chance to win once the
solve is done. One solve serves the whole turn, an undo back into it included.

The solves here are held back by a gate (a file the test creates) in the worker, so the
tests see the game while the solve is still running, whatever the machine's speed."""

from __future__ import annotations

import importlib
import os
import time
from pathlib import Path

import numpy as np
import pytest

from advisor.advice import advice_table
from advisor.background import Solve, TurnSolves, solve_turn_in_worker
from advisor.caches import Caches
from advisor.model import Scorecard
from advisor.objective import Objective
from advisor.play import GameSession
from advisor.play_win import WinEachTurn
from advisor.ranking import advise
from advisor.record import parse_record
from solver.levels import PROGRESS_STEPS
from solver.solved_turn import _Steps
from tests.advisor.test_play import LATE as NINE_TURNS

GATE = "YAHTZEE_TEST_SOLVE_GATE"
MORE = "type 'more' to see them all"
# Ten turns each: three boxes open per player (as tests/advisor/test_play_win.py).
LATE = NINE_TURNS + "Ann: 12346 chance\nBob: 66666 sixes\n"

BOB_RANKED = "ranked by the chance to beat Bob (a tie counts as half): Bob 174 with 3 boxes open"


def gated_solve(arg, progress, memory):
    """The worker's solve, held until the gate file (``$YAHTZEE_TEST_SOLVE_GATE``) exists."""
    gate = Path(os.environ[GATE])
    progress(0, 10)
    while not gate.exists():
        time.sleep(0.02)
    return solve_turn_in_worker(arg, progress, memory)


def always_slow(card, table, objective) -> bool:
    return True


@pytest.fixture
def gate(tmp_path, monkeypatch) -> Path:
    path = tmp_path / "gate"
    monkeypatch.setenv(GATE, str(path))  # the spawned worker inherits it
    return path


@pytest.fixture
def session(official_table, gate):
    solves = TurnSolves(func=gated_solve)
    game = GameSession(parse_record(LATE), official_table, memory=Caches(), win=WinEachTurn(),
                       solves=solves,
                       notify=lambda line: None, is_slow=always_slow)
    yield game
    solves.close()


def test_input_is_taken_while_the_solve_runs_and_the_list_is_re_ranked_when_done(
        session, gate, official_table):
    cards = session.record.cards()
    objective = Objective.win(cards["Bob"])
    session.opening()  # the turn starts: its solve starts, before the dice are in
    solve = session.solves.get(cards["Ann"], objective)
    assert solve is not None and solve.state == "running"
    assert session.prompt().startswith("Ann: dice thrown (e.g. 22256) [the chance to win: ")
    # the dice, a keep, the reroll, an undo, a correction: all answered while it runs
    lines = session.handle("33412")
    # (starting: the worker is being spawned; 0 %: the gate holds the solve)
    assert lines[1] in [f"by the expected final score, while the chance to win is worked out "
                        f"({how}); the list is re-ranked when it is ready:"
                        for how in ("starting", "0 % worked out")]
    ev = advise(cards["Ann"], "33412", table=official_table)
    assert "\n".join(lines[2:]) == "\n".join(advice_table(ev, 3, more_hint=MORE))
    assert session.ready_lines() == []
    session.handle("keep 33")
    assert session.stage == "reroll" and session.record.current.keeps[-1].faces == (3, 3)
    assert session.handle("336")[0].startswith("Ann: dice 3 3 3 3 6")
    assert session.handle("undo")[0] == "  undone: Ann's roll 3 3 3 3 6"
    assert session.handle("undo")[0] == "  undone: Ann's keep 3 3"
    assert session.handle("33312")[0] == "  dice corrected to 1 2 3 3 3"
    assert solve.state == "running" and session.solves.get(cards["Ann"], objective) is solve
    assert session.prompt().startswith("your move [enter: ")
    # the solve is let go: the list showing is re-ranked by the chance to win
    gate.touch()
    session.solves.wait(cards["Ann"], objective)
    ready = session.ready_lines()
    assert ready[0].startswith("  the chance to win is worked out (")
    assert ready[0].endswith("): the choices re-ranked")
    win = advise(cards["Ann"], "33312", table=official_table, objective=objective)
    assert ready[2] == BOB_RANKED
    assert "\n".join(ready[3:]) == "\n".join(advice_table(win, 3, more_hint=MORE))
    assert session.ready_lines() == []  # shown once
    assert session.prompt() == f"your move [enter: {win.best.describe()}]"
    # one solve for the turn: undo back into it and the list is by the chance to win at once
    session.handle(win.best.describe())
    lines = session.handle("undo")
    assert BOB_RANKED in lines
    assert session.solves.get(cards["Ann"], objective) is solve


def test_enter_follows_the_list_on_screen_not_one_worked_out_since(session, gate,
                                                                   official_table):
    cards = session.record.cards()
    objective = Objective.win(cards["Bob"])
    session.opening()
    session.handle("33412")  # listed by expected score
    gate.touch()
    session.solves.wait(cards["Ann"], objective)
    ev = advise(cards["Ann"], "33412", table=official_table)
    session.handle("")  # enter: the first option of the list shown, by expected score
    assert session.record.current.keeps[-1] == ev.best.keep


def test_leaving_a_turn_ends_its_solve_and_a_new_turn_starts_its_own(session, gate):
    cards = session.record.cards()
    session.opening()
    first = session.solves.get(cards["Ann"], Objective.win(cards["Bob"]))
    session.handle("33412")
    session.handle("threes")  # Ann's turn ends before her solve is done
    assert first.state == "cancelled"
    ann = session.record.cards()["Ann"]
    second = session.solves.get(cards["Bob"], Objective.win(ann))
    assert second is not None and second.state == "running"
    process = session.solves.process
    session.solves.close()  # quit, Ctrl-C: the worker ends at once, mid-solve
    assert second.state == "cancelled"
    assert process is not None and not process.is_alive()


def test_the_worker_solves_the_turn_exactly_as_in_process(official_table, gate):
    gate.touch()
    cards = parse_record(LATE).cards()
    objective = Objective.win(cards["Bob"])
    solves = TurnSolves(func=gated_solve)
    seen: list[tuple[int, int]] = []
    try:
        solved = solves.wait(cards["Ann"], objective, progress=lambda d, t: seen.append((d, t)))
    finally:
        solves.close()
    here = advise(cards["Ann"], "33412", table=official_table, objective=objective)
    from advisor.ranking import TurnAdvisor

    there = TurnAdvisor(cards["Ann"], official_table, objective, solved=solved,
                        whole_game=False).advise("33412", 2)
    assert [o.to_json() for o in there.options] == [o.to_json() for o in here.options]


def test_a_failed_solve_is_said_once_and_the_list_stays(official_table, gate, monkeypatch):
    solves = TurnSolves(func=failing_solve)
    game = GameSession(parse_record(LATE), official_table, memory=Caches(), win=WinEachTurn(),
                       solves=solves,
                       notify=lambda line: None, is_slow=always_slow)
    try:
        game.opening()
        game.handle("33412")
        cards = game.record.cards()
        with pytest.raises(Exception, match="no memory left"):
            solves.wait(cards["Ann"], Objective.win(cards["Bob"]))
        ready = game.ready_lines()
        assert ready == ["  ! the chance to win could not be worked out (MemoryError: no "
                         "memory left); the list above stays by expected score"]
        assert game.ready_lines() == []
        assert game.prompt().startswith("your move [enter: keep")
    finally:
        solves.close()


def failing_solve(arg, progress, memory):
    raise MemoryError("no memory left")


# ---------------------------------------------------------------------- honest progress
def test_progress_is_in_work_and_the_time_left_waits_for_a_measure():
    # an opponent's distribution of 300 units of work, then a DP of 700: each reports
    # its share done in its own steps
    reports: list[tuple[int, int]] = []
    steps = _Steps(lambda d, t: reports.append((d, t)), [300.0, 700.0])
    opponent, dp = steps.phase(), steps.phase()
    for d in range(0, 11):
        opponent(d, 10)  # 3 % of the whole a step
    for d in range(1, 1001):
        dp(d, 1000)
    steps.finish()
    assert all(t == PROGRESS_STEPS for _, t in reports)
    done = [d for d, _ in reports]
    assert done == sorted(set(done)) and 0 <= done[0] and done[-1] == PROGRESS_STEPS
    assert (300, PROGRESS_STEPS) in reports  # the opponent's end: 300 of 1000
    assert done[:11] == [0, 30, 60, 90, 120, 150, 180, 210, 240, 270, 300]
    assert (650, PROGRESS_STEPS) in reports  # half the DP: 300 + 350
    solve = Solve("k", done=1, total=100, started=time.monotonic() - 10)
    assert solve.seconds_left() is None  # 1 % of the work: too early to say
    solve.done = 20
    left = solve.seconds_left()
    assert left is not None and 40 <= left <= 41  # 10 s for a fifth: 40 s for the rest
    time.sleep(0.05)
    assert solve.seconds_left() > left  # no report since: the rate falls, the estimate grows


def test_the_time_left_against_a_scripted_clock_and_known_work(monkeypatch):
    """Two phases of known work (an opponent's 300 units, a DP's 700) done at one rate per
    unit, each reporting its own share in steps of its own: from a twentieth on, the
    estimate of the time left is the time actually left (to a step of the progress)."""
    import advisor.background as background

    clock = [1000.0]
    monkeypatch.setattr(background.time, "monotonic", lambda: clock[0])
    solve = Solve("k", started=clock[0])

    def report(d: int, t: int) -> None:
        solve.done, solve.total = d, t

    steps = _Steps(report, [300.0, 700.0])
    rate = 12.5  # units a second: 80 s in all
    checked = 0
    for work, pieces in ((300.0, 7), (700.0, 1000)):
        phase, began = steps.phase(), clock[0]
        for d in range(1, pieces + 1):
            clock[0] = began + work * d / pieces / rate
            phase(d, pieces)
            actual = 1000.0 + 80.0 - clock[0]
            left = solve.seconds_left()
            if solve.done * 20 < solve.total:
                assert left is None
            elif actual > 1.0:
                # (the share said is floored: up to one step short of the work done)
                lag = 2 * (clock[0] - 1000.0) * solve.total / solve.done ** 2  # two steps
                assert abs(left - actual) <= lag
                checked += 1
    assert checked > 900


def test_a_solves_progress_follows_its_operations_in_even_pieces(official_table):
    """solve_vectors reports (done, PROGRESS_STEPS) in order, in 20 or more steps, ending at
    its total; the operations it planned are the ones it did; the values are the same with
    the progress followed or not (pieces of a level's tasks, not other arithmetic)."""
    from solver.target import Utility, solve_operations, solve_vectors

    card = Scorecard.parse("aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=22")
    start, utility = (card.mask, card.upper, card.flag), Utility.target(200)
    reports: list[tuple[int, int]] = []
    vectors = solve_vectors(official_table, utility, start=start, total=card.total,
                            progress=lambda d, t: reports.append((d, t)))
    done = [d for d, _ in reports]
    assert all(t == PROGRESS_STEPS for _, t in reports)
    assert done == sorted(set(done)) and done[-1] == PROGRESS_STEPS and len(done) >= 20
    assert np.diff([0, *done]).max() <= 100  # no step over a tenth
    assert solve_operations(official_table, utility, start=start,
                            total=card.total) == vectors.operations
    quiet = solve_vectors(official_table, utility, start=start, total=card.total)
    for n, level in vectors.levels.items():
        assert np.array_equal(level.vals, quiet.levels[n].vals)


def test_a_phase_of_a_solve_is_cut_into_its_share_of_the_pieces(official_table):
    """The opponents' pass as the first phase of a turn's solve (a tenth of its work):
    cut into 20 even pieces, a tenth of a whole solve's 200, so that each piece is about
    as much work as the DP's after it (each piece ends at a barrier of the threads: 200
    of its own kept fewer threads busy); the same distribution as in 200 pieces."""
    from solver.levels import PIECES, PhaseProgress, piece_count
    from solver.stats import optimal_stats

    card = Scorecard.parse("aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18")
    start = (card.mask, card.upper, card.flag)
    whole: list[int] = []
    steps = _Steps(lambda d, t: whole.append(d), [100.0, 900.0])
    phase = steps.phase()
    assert isinstance(phase, PhaseProgress) and piece_count(phase) == PIECES // 10
    assert piece_count(steps.phase()) == PIECES * 9 // 10 and piece_count(None) == PIECES
    own: list[int] = []
    alone = optimal_stats(official_table, lambda d, t: own.append(d), start=start)
    cut = optimal_stats(official_table, phase, start=start)
    assert np.array_equal(cut.distribution, alone.distribution)
    assert whole[-1] == 100 and len(whole) <= 22 < len(own)  # (its 20 pieces, and ends)
    assert np.diff([0, *whole]).max() <= 12  # each about a twentieth of its tenth


def test_an_opponents_distribution_reports_its_work_in_even_steps(official_table):
    from solver.stats import optimal_stats, stats_operations

    card = Scorecard.parse("aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18")
    reports: list[tuple[int, int]] = []
    optimal_stats(official_table, lambda d, t: reports.append((d, t)),
                  start=(card.mask, card.upper, card.flag))
    done = [d for d, _ in reports]
    assert done == sorted(set(done)) and done[-1] == PROGRESS_STEPS and len(done) >= 20
    assert np.diff([0, *done]).max() <= 100
    assert stats_operations(official_table, (card.mask, card.upper, card.flag)) > 0


def test_the_review_takes_the_background_solves_and_solves_only_turns_left_early(
        official_table, gate, monkeypatch):
    # where a turn advisor finds solve_turn
    advise_module = importlib.import_module("advisor.ranking")
    from advisor.analysis import analyze

    gate.touch()
    # (from 5 open boxes on: the review's new-game figure is then by expected score, not
    # a new game's win solve)
    session = GameSession(parse_record(LATE), official_table, memory=Caches(), win=WinEachTurn(5),
                          solves=TurnSolves(func=gated_solve), notify=lambda line: None,
                          is_slow=always_slow)
    solved_here: list[Scorecard] = []
    real = advise_module.solve_turn

    def counted(card, table, goal, memory, **kwargs):
        solved_here.append(card)
        return real(card, table, goal, memory, **kwargs)

    monkeypatch.setattr(advise_module, "solve_turn", counted)
    monkeypatch.setattr("solver.turn_face.solve_turn", counted)
    session.opening()
    left_early = session.card
    session.handle("33412")
    session.handle("threes")  # Ann leaves turn 11 at once: its solve is ended
    while not session.is_over:  # every other turn waits for its solve, then plays on
        card, objective = session.card, session.turn_objective()
        session.solves.wait(card, objective)
        session.handle("12345" if session.stage == "roll" else "")
        while session.stage != "roll" and not session.is_over:
            kept = session.record.current.keeps[-1] if session.stage == "reroll" else None
            session.handle("" if kept is None else "6" * (5 - len(kept)))
    analysis = analyze(session.record, session.judging, table=session.table,
                       advisors=session.advisor_for)
    session.solves.close()
    # solved for the review: the turn left early, and the record's turns played before
    # this session (9 and 10: 5 and 4 boxes open); every turn played here came from the
    # worker; each turn once
    before = {pos.card for pos in parse_record(LATE).positions()
              if len(pos.card.open_boxes()) <= 5}
    assert len(before) == 4 and left_early not in before
    assert sorted(map(str, solved_here)) == sorted(map(str, before | {left_early}))
    played = [d for d in analysis.decisions if d.player == "Bob" and d.turn >= 11]
    assert played and all(d.loss == 0.0 for d in played)  # Bob followed the lists shown


def test_ctrl_c_while_a_line_is_acted_on_stops_the_game_as_at_a_prompt(monkeypatch, tmp_path):
    from click.testing import CliRunner

    from advisor.cli import cli

    def interrupted(self, text):
        raise KeyboardInterrupt

    monkeypatch.setattr(GameSession, "handle", interrupted)
    path = tmp_path / "game.txt"
    result = CliRunner().invoke(cli, ["play", "--names", "Ann,Bob", "--record", str(path)],
                                input="22256\n")
    assert result.exit_code == 1, result.output
    assert "== game stopped; scores so far" in result.stdout
    assert f"continue it with: yahtzee play --resume {path}" in result.stdout
    assert "Traceback" not in result.output


def test_a_new_cards_distribution_is_read_from_the_new_game_statistics(official_table,
                                                                       monkeypatch, memory):
    """An opponent who has not played yet (turn 1): the rules' new-game statistics, not a
    solve (tests/solver/test_stats_file.py holds those equal to optimal_stats'), and the turn's
    progress counts no work for it."""
    import solver.stats
    from solver import points_to_come
    from solver.solved_turn import solve_turn
    from solver.stats_file import new_game_stats

    new = Scorecard.parse("")
    real = solver.stats.optimal_stats

    def no_new_game(table, progress=None, *, start=(0, 0, 0), **kwargs):
        assert start != (0, 0, 0), "a new game's distribution solved again"
        return real(table, progress, start=start, **kwargs)

    monkeypatch.setattr(solver.stats, "optimal_stats", no_new_game)
    monkeypatch.setattr(points_to_come, "optimal_stats", no_new_game)
    dist = points_to_come.final_distribution(new, official_table, memory)
    assert np.array_equal(dist, new_game_stats(official_table).distribution)
    late = parse_record(LATE).cards()["Ann"]
    memory.points.clear()
    reports: list[tuple[int, int]] = []
    solve_turn(late, official_table, Objective.win(new).goal, memory, whole_game=False,
               progress=lambda d, t: reports.append((d, t)))
    from solver.solved_turn import _phases

    assert len(_phases(late, official_table, Objective.win(new).goal, memory)) == 1  # (DP)
    assert reports[-1] == (PROGRESS_STEPS, PROGRESS_STEPS)
    assert [d for d, _ in reports] == sorted(d for d, _ in reports)
