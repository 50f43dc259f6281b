"""Reviews judge a game by what its advice maximised: a player who follows the advice of
`play --objective win` makes no error in the review, nor in `yahtzee analyze` of its
record (whose first line notes the objective); `analyze --objective` chooses the view."""

from __future__ import annotations

import importlib
import json
import random

import pytest
from click.testing import CliRunner

from advisor.analysis import analyze
from advisor.cli import cli
from advisor.model import Scorecard
from advisor.objective import EV, Objective
from advisor.play import GameSession
from advisor.play_win import WinEachTurn, choose_judging, judging_of_record, objective_comment
from advisor.record import GameRecord
from solver.errors import ObjectiveError
from solver.goals import Goal

WIN_FROM = 5


def followed_game(table, seed: int, win: WinEachTurn, memory) -> tuple[GameRecord, list[str]]:
    """A two-player game on random dice whose players always take the advice, and the
    lines typed to play it (its turns solved in ``memory``)."""
    rng = random.Random(seed)
    session = GameSession(GameRecord("official", ("Ann", "Bob")), table, memory=memory,
                          win=win)
    typed = []
    while not session.is_over:
        if session.stage == "move":
            line = ""
        else:
            current = session.record.current
            n = 5 - len(current.keeps[-1]) if current is not None else 5
            line = "".join(str(rng.randint(1, 6)) for _ in range(n))
        typed.append(line)
        session.handle(line)
    return session.record, typed


@pytest.fixture(scope="module")
def followed(official_table, module_memory):
    return followed_game(official_table, 3, WinEachTurn(WIN_FROM), module_memory)


def test_following_the_win_advice_is_no_error_in_the_review(followed, official_table,
                                                            module_memory):
    record, _ = followed
    win = WinEachTurn(WIN_FROM)
    analysis = analyze(record, win, table=official_table, memory=module_memory)
    for player in analysis.players:
        assert player.errors == 0 and player.main.total_loss == 0.0
        assert player.by_expected_score is not None
        assert player.by_expected_score.total_loss == 0.0
        # the turns from WIN_FROM open boxes on are judged by the chance to win
        assert {d.turn for d in player.main.decisions} == set(range(14 - WIN_FROM, 14))
        assert all(d.unit == "probability" for d in player.main.decisions)
    # the same game judged by expected score: following the win advice looks like errors
    by_ev = analyze(record, table=official_table, memory=module_memory)
    assert sum(p.errors for p in by_ev.players) > 0


def test_the_record_notes_the_objective_and_analyze_reads_it(followed, tmp_path):
    record, typed = followed
    path = tmp_path / "game.txt"
    result = CliRunner().invoke(cli, ["play", "--names", "Ann,Bob", "--objective", "win",
                                      "--win-from", str(WIN_FROM), "--record", str(path)],
                                input="\n".join(typed) + "\n")
    assert result.exit_code == 0, result.output
    review = result.stdout[result.stdout.index("== review"):]
    assert review.count(" decisions, 0 errors\n") == 2  # Ann and Bob
    assert "(* in the list)" not in review and "worst:" not in review
    assert path.read_text().splitlines()[0] == (
        f"# objective: win (each player against the best of the others, from {WIN_FROM} "
        f"open boxes on)")
    analysed = CliRunner().invoke(cli, ["analyze", str(path), "--json"])
    assert analysed.exit_code == 0, analysed.output
    data = json.loads(analysed.stdout)
    assert data["objective"] == {"kind": "win", "each_turn": True, "win_from": WIN_FROM}
    assert [p["errors"] + p["by_expected_score"]["errors"] for p in data["players"]] == [0, 0]
    kinds = {d["objective"]["kind"] for d in data["decisions"]}
    assert kinds == {"ev", "win"} and {d["unit"] for d in data["decisions"]} == {
        "points", "probability"}
    # --objective ev judges the same record by expected score instead
    by_ev = json.loads(CliRunner().invoke(cli, ["analyze", str(path), "--json", "--objective",
                                                "ev"]).stdout)
    assert by_ev["objective"] == {"kind": "ev"} and "by_expected_score" not in \
        by_ev["players"][0]
    assert sum(p["errors"] for p in by_ev["players"]) > 0


def test_analyze_objective_win_judges_against_the_others_cards_at_that_moment(
        followed, official_table, module_memory):
    record, _ = followed
    cards = {name: Scorecard.new("official") for name in record.players}
    opponent_then = []  # per turn of the record: the other player's card at its start
    for turn in record.turns:
        other = "Bob" if turn.player == "Ann" else "Ann"
        opponent_then.append(cards[other])
        cards[turn.player] = cards[turn.player].place(turn.rolls[-1], turn.box)
    analysis = analyze(record, WinEachTurn(WIN_FROM), table=official_table,
                       memory=module_memory)
    judged = 0
    for d in analysis.decisions:
        index = 2 * (d.turn - 1) + (d.player == "Bob")
        if len(d.card.open_boxes()) > WIN_FROM:
            assert d.objective == EV
            continue
        assert d.objective == Objective.win(opponent_then[index])
        judged += 1
    assert judged >= 2 * WIN_FROM


@pytest.mark.slow
def test_a_target_record_is_judged_by_its_target(official_table, tmp_path):
    path = tmp_path / "t.txt"
    lines = ["rules official", "players Ann"]
    lines += ["Ann: 11123 aces", "Ann: 22256 twos", "Ann: 33345 threes", "Ann: 44412 fours",
              "Ann: 55561 fives", "Ann: 66612 sixes", "Ann: 12345 ss", "Ann: 22333 fh",
              "Ann: 44441 4k", "Ann: 66654 3k", "Ann: 12346 chance", "Ann: 23456 ls"]
    path.write_text(objective_comment(Objective.for_target(40)) + "\n".join(lines) + "\n")
    result = CliRunner().invoke(cli, ["analyze", str(path)])
    assert result.exit_code == 0, result.output
    assert "judged by P(final score >= 40)" in result.stdout
    assert " pp" in result.stdout and "percentage points in all" in result.stdout
    plain = CliRunner().invoke(cli, ["analyze", str(path), "--objective", "ev"])
    assert "judged by the expected final score" in plain.stdout


@pytest.mark.parametrize(("line", "expected"), [
    ("# objective: win (each player against the best of the others, from 7 open boxes on)",
     WinEachTurn(7)),
    ('# objective: {"kind": "target", "target": 300}', Objective.for_target(300)),
    ('# objective: {"kind": "win", "opponent": "twos=6"}', Objective.win("twos=6")),
    ("rules official", None),
    ("# a comment", None),
])
def test_judging_of_record_reads_what_play_writes(line, expected):
    assert judging_of_record(line + "\nrules official\n", "official") == expected
    if expected is not None:
        assert objective_comment(expected).rstrip("\n") == line


@pytest.mark.parametrize("line", ["# objective: win (from everyone)",
                                  '# objective: {"kind": "target"}',
                                  "# objective: target 300"])
def test_an_unreadable_objective_line_is_refused(line, tmp_path):
    with pytest.raises(ObjectiveError):
        judging_of_record(line + "\n", "official")
    path = tmp_path / "bad.txt"
    path.write_text(line + "\nrules official\nplayers Ann\nAnn: 11123 aces\n")
    result = CliRunner().invoke(cli, ["analyze", str(path)])
    assert result.exit_code == 2 and result.stderr.startswith("Error: the record's first line")
    assert CliRunner().invoke(cli, ["analyze", str(path), "--objective", "ev"]).exit_code == 0


@pytest.mark.parametrize(("options", "message"), [
    (["--objective", "win"], "--objective win needs two or more players"),
    (["--objective", "ev", "--target", "200"], "--objective ev and --target given"),
    (["--win-from", "5"], "--win-from applies only with --objective win"),
    (["--objective", "win", "--beat", "200"], "--objective win and --beat given"),
])
def test_conflicting_analyze_options_are_one_line_and_exit_2(options, message, tmp_path):
    path = tmp_path / "one.txt"
    path.write_text("rules official\nplayers Ann\nAnn: 11123 aces\n")
    before = path.read_text()
    result = CliRunner().invoke(cli, ["analyze", str(path), *options])
    assert result.exit_code == 2, result.output
    assert result.stderr.strip() == f"Error: {result.stderr.strip()[7:]}" and \
        message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert path.read_text() == before


def test_choose_judging_prefers_the_options_to_the_note():
    noted = WinEachTurn(8)
    kwargs = {"players": ("Ann", "Bob"), "rules": "official", "target": None, "beat": None,
              "opponent": None}
    assert choose_judging(objective_name=None, win_from=None, noted=noted, **kwargs) == noted
    assert choose_judging(objective_name=None, win_from=12, noted=noted,
                          **kwargs) == WinEachTurn(12)
    assert choose_judging(objective_name="ev", win_from=None, noted=noted, **kwargs) == EV
    assert choose_judging(objective_name=None, win_from=None, noted=None, **kwargs) == EV
    assert choose_judging(objective_name=None, win_from=None, noted=noted,
                          **{**kwargs, "target": "250"}) == Objective.for_target(250)


def test_a_review_solves_each_turn_once_and_says_how_far_it_is(followed, official_table,
                                                              monkeypatch, memory):
    """Every win turn's solve serves all its decisions; the new game's figure is the first
    turn's own; each solve is followed by a note naming the turn."""
    # where a turn advisor finds solve_turn
    advise_module = importlib.import_module("advisor.ranking")

    record, _ = followed  # (its own caches: nothing the module's other reviews solved)
    solved: list[tuple[Scorecard, Goal]] = []
    real = advise_module.solve_turn

    def counted(card, table, goal, memory, **kwargs):
        solved.append((card, goal))
        return real(card, table, goal, memory, **kwargs)

    monkeypatch.setattr(advise_module, "solve_turn", counted)
    monkeypatch.setattr("solver.turn_face.solve_turn", counted)
    notes: list[str] = []
    win = WinEachTurn(WIN_FROM)
    analysis = analyze(record, win, table=official_table, memory=memory,
                       solving=notes.append)
    turns = {(d.player, d.turn) for d in analysis.decisions if d.unit == "probability"}
    reachable = {(d.player, d.turn) for d in analysis.decisions if d.unit == "probability"
                 and not d.objective.is_out_of_reach(d.card)}
    assert len(solved) == len(set(solved)) == len(reachable)  # once each
    assert len(turns) == 2 * WIN_FROM
    said = {note.split(":")[0] for note in notes if note}
    assert said == {f"{player}'s turn {turn}" for player, turn in reachable}
    assert all(note == "" or note.endswith(" % worked out") for note in notes)
