"""``yahtzee analyze FILE``: every decision of a recorded game against the best one."""

from __future__ import annotations

import click

from ..analysis import ReviewPlan
from ..analysis import analyze as analyze_record
from ..analyze_text import decision_lines, review_lines
from ..play_win import choose_judging, judging_of_record
from ..record import parse_record
from ..record_file import read_record_text, read_stdin
from ..request.params import OBJECTIVE_PARAMS, TOURNAMENT_PARAMS, options
from ..text import probability_text
from ..win_from import FIRST_TURN
from ._base import emit_json, note
from ._progress import command_memory, load_table, plan_lines, work_bar

_JUDGE_HELP = {
    "objective": {"help": "Judge by ev, the expected final score, or win (two or more "
                  "players): each player's chance to beat the best of the others' cards at "
                  "that moment, as `play --objective win` advises. Default: what the "
                  "record's `# objective:` line says it was played for, else ev."},
    "win_from": {"help": "With --objective win: judge by the chance to win once the player "
                 "has N or fewer boxes open, by expected score before (default: the "
                 f"record's, else {FIRST_TURN})."},
}


@click.command()
@click.argument("record_path", metavar="FILE")
@options("objective", "win_from", *OBJECTIVE_PARAMS, *TOURNAMENT_PARAMS, "json", "table",
         **_JUDGE_HELP)
def analyze(record_path: str, objective_name: str | None, win_from: int | None,
            target: str | None, beat: str | None, opponent: str | None,
            tournament: str | None, field: str | None, field_scores: str | None,
            as_json: bool, table_path: str | None) -> None:
    """Judge every keep and box of a recorded game (FILE, or - for stdin).

    The record is what `yahtzee play --record FILE` writes (format: `yahtzee help records`).
    Each decision is compared with the best one at that moment, by what the game was
    played for (the record's first line notes it; --objective, --target, --beat,
    --opponent or --tournament choose instead). Per player: errors, loss in expected
    points (mean per decision: aim below 0.2), and luck; judged by a probability, losses
    and luck are in percentage points of it.

    Example: yahtzee analyze game.txt
    """
    text = read_stdin() if record_path == "-" else read_record_text(record_path)
    record = parse_record(text)
    tournament_options = {"tournament": tournament, "field": field,
                          "field_scores": field_scores}
    chosen = objective_name is not None or any(
        v is not None for v in (target, beat, opponent, *tournament_options.values()))
    judging = choose_judging(objective_name=objective_name, win_from=win_from,
                             target=target, beat=beat, opponent=opponent,
                             **tournament_options,
                             players=record.players, rules=record.rules,
                             noted=None if chosen else judging_of_record(text, record.rules))
    table = load_table(record.rules, table_path)
    update, noted, close = work_bar("judging")

    def say_plan(plan: ReviewPlan) -> None:
        for line in plan_lines(plan):
            note(line)

    try:
        analysis = analyze_record(record, judging, table=table, memory=command_memory(),
                                  progress=update if judging.solves_turns else None,
                                  solving=noted if judging.solves_turns else None,
                                  plan=say_plan if judging.solves_turns else None)
    finally:
        close()
    if as_json:
        emit_json(analysis.to_json())
        return
    new_game = (f"{analysis.new_game:.2f}" if analysis.new_game_unit == "points" else
                probability_text(analysis.new_game))
    click.echo(f"rules {analysis.rules} | judged by {judging.describe()} | "
               f"new game {new_game}")
    for line in ["", *decision_lines(analysis), "", *review_lines(analysis)]:
        click.echo(line)
