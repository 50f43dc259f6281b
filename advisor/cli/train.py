"""``yahtzee train``: practice on positions, each answer graded exactly, a history kept.

The session itself is :mod:`advisor.train`; this module draws the positions, reads the
answers (stdin, so a session can be scripted), prints the grades and the summary, and
appends the session to the history file.
"""

from __future__ import annotations

import secrets
import sys
from typing import Any

import click

from solver.errors import LimitError, YahtzeeError
from solver.table import Table

from ..model import Scorecard
from ..objective import Objective
from ..ranking import TurnAdvisor
from ..record_file import read_record
from ..request.params import options
from ..text import card_lines
from ..train import (
    Graded,
    Position,
    Session,
    advice_of,
    choices,
    grade,
    positions_of_play,
    positions_of_records,
    session_of,
)
from ..train_history import append_session, check_history, default_history_path
from ..train_text import graded_lines, history_lines, position_lines, session_lines
from ._base import emit_json, note
from ._input import ask, read_line
from ._progress import command_memory, load_moments, load_table, progress_bar

LATE = 6
"""Positions with this many open boxes or fewer solve a target quickly on their own
(about 0.01 s); an earlier one makes the whole game be solved once, first."""
STOPPED_WORDS = frozenset({"q", "quit", "exit"})
LIST_WORDS = frozenset({"list", "l", "choices"})
PROMPT = "your choice (a move, or a number from 'list')"
LIST_HEADING = "  every choice, in no order of merit (type its number or the move):"
HELP_WORDS = frozenset({"help", "?", "h"})
COMMANDS = (
    "answer as in `yahtzee play`:",
    "  keep 222       keep these dice and reroll the rest (k 222; 'reroll all' keeps none)",
    "  score twos     fill a box (s 2s, or just the box name)",
    "  N              choice N of the list",
    "  list           every choice of the position, numbered (in no particular order)",
    "  card           the whole scorecard",
    "  quit           stop; the positions answered so far are summed up and kept",
)


def _seed(seed: int | None) -> int:
    """The seed given, or a fresh one (printed, so the session can be had again)."""
    if seed is not None:
        return seed
    return secrets.randbelow(1_000_000)


@click.command()
@click.argument("more_records", nargs=-1, metavar="[FILE]...")
@options("positions", "seed", "from", "player", "history", "no_history", "target", "beat",
         "opponent", "json", "rules", "table", seed={
             "default": None, "metavar": "S", "show_default": False,
             "help": "Seed of the positions (0..2**64-1): the same seed, the same positions "
                     "[default: a new one, printed]."})
def train(more_records: tuple[str, ...], n_positions: int, seed: int | None,
          from_records: tuple[str, ...], player: str | None, history_path: str | None,
          no_history: bool, target: str | None, beat: str | None, opponent: str | None,
          as_json: bool, rules_name: str, table_path: str | None) -> None:
    """Practice: decide positions as in a game; each answer is graded exactly against the
    best choice (its loss in expected points, or in probability with --target/--beat),
    and the session ends with the mean loss per decision (aim below 0.2) by kind of
    decision: keeps, boxes, upper section, chasing a Yahtzee, straights, end of game.

    Positions come from games that optimal play plays (seeded), or with --from from your
    own records, where you lost the most. Answer as in `yahtzee play`: keep 2 2 2, reroll
    all, score twos (or a number of `list`). Reads stdin, so a session can be scripted;
    with --json the answers are read one per line and one JSON object is printed.

    Example: yahtzee train --positions 10 --seed 7
    """
    if sys.stdin is None:
        raise click.UsageError("standard input is closed: train reads the answers from it")
    records = (*from_records, *more_records)
    if more_records and not from_records:
        raise click.UsageError(f"{more_records[0]!r}: give records with --from FILE ...")
    if player is not None and not records:
        raise click.UsageError("--player picks a player of the records given with --from")
    if no_history and history_path is not None:
        raise click.UsageError("--history and --no-history given: choose one")
    if opponent is not None:
        raise click.UsageError("train practises for the expected score, --target X or "
                               "--beat N; --opponent is not one of them")
    if records and seed is not None:
        raise click.UsageError("--seed draws positions of optimal play; --from takes them "
                               "from your records")
    history_file = None
    if not no_history:
        history_file = history_path if history_path is not None else str(
            default_history_path())
        check_history(history_file)  # before the session, not after it
    if records:
        rules_name = read_record(records[0]).rules
    objective = Objective.parse_options(target=target, beat=beat, rules=rules_name)
    table = load_table(rules_name, table_path)
    load_moments(table)  # the why of each grade
    if records:
        _solve_target(table, objective, as_json)  # the records are judged from turn 1
        positions = positions_of_records(list(records), n_positions, table, objective, player,
                                         memory=command_memory())
        source, seed_used = "records", None
    else:
        seed_used = _seed(seed)
        positions = positions_of_play(table, n_positions, seed_used)
        source = "play"
        if any(len(p.card.open_boxes()) > LATE for p in positions):
            _solve_target(table, objective, as_json)
    if not as_json:
        _introduce(source, seed_used, len(positions), n_positions, rules_name, objective)
    graded = _ask_all(positions, table, objective, as_json)
    session = Session(rules_name, objective, source, seed_used, tuple(graded), len(positions))
    if as_json:
        history = _keep(session, history_file)
        data = session.to_json()
        data["history"] = None if history is None else {"path": history[0],
                                                         "sessions": len(history[1])}
        emit_json(data)
        return
    for line in session_lines(session):
        click.echo(line)
    history = _keep(session, history_file)  # after the summary: it is shown
    if history is not None:
        for line in history_lines(history[1], history[0]):
            click.echo(line)


def _solve_target(table: Table, objective: Objective, quiet: bool) -> None:
    """Under a target, the vectors of a whole game, solved once: every position after
    is answered from them (``solver.vector_cache``)."""
    if not objective.solves_turns:
        return
    if not quiet:
        note(f"note: solving {objective.describe()} for a whole game once (about half a "
             f"minute); every position is answered from it")
    update, close = progress_bar("target")
    try:
        TurnAdvisor(Scorecard.new(table.rules), table, objective, memory=command_memory(),
                    progress=update).probability()
    finally:
        close()


def _introduce(source: str, seed: int | None, count: int, planned: int, rules: str,
               objective: Objective) -> None:
    if source == "play":
        what = (f"{count} position{'' if count == 1 else 's'} of games that optimal play "
                f"plays (seed {seed})")
    else:
        fewer = f" (only {count} of the {planned} asked lost anything)" if count < planned else ""
        what = f"the {count} decisions of your records that lost the most{fewer}"
    ranked = "" if objective.ranked_by is None else f", graded by {objective.ranked_by}"
    click.echo(f"practice: {what}, rules {rules}{ranked}")
    click.echo("answer as in `yahtzee play` (keep 2 2 2, reroll all, score twos); "
               "'list' shows every choice, 'help' the commands, 'quit' stops")


def _ask_all(positions: list[Position], table: Table, objective: Objective,
             as_json: bool) -> list[Graded]:
    """Every position asked and graded, in order, until the input ends or ``quit``."""
    graded: list[Graded] = []
    if as_json:  # one answer per line (as `play` reads them), nothing printed before the JSON
        answers: list[str] = []
        for number in range(1, len(positions) + 1):
            try:
                line = read_line(sys.stdin) if sys.stdin is not None else None
            except LimitError as exc:
                raise LimitError(f"position {number}: {exc}") from None
            except click.exceptions.Abort:  # not lines of text: stop as at the end
                line = None
            if line is None or line.strip().lower() in STOPPED_WORDS:
                break
            answers.append(line)
        return list(session_of(table, positions, answers, objective,
                               memory=command_memory()).graded)
    for i, position in enumerate(positions, start=1):
        found = _ask(i, len(positions), position, table, objective)
        if found is None:
            break
        graded.append(found)
    return graded


def _ask(number: int, count: int, position: Position, table: Table,
         objective: Objective) -> Graded | None:
    """One position asked until an answer is accepted (None: the player stopped)."""
    for line in position_lines(number, count, position):
        click.echo(line)
    while True:
        try:
            # a line, at most 1,000 bytes, as `play` reads; the prompt says what a number is
            # here (in `play` it is a row of the ranked advice)
            text = ask(PROMPT)
        except LimitError as exc:
            click.echo(f"  ! {exc}")
            continue
        except click.exceptions.Abort:  # end of input, input that is not text, or Ctrl-C
            click.echo("")
            return None
        word = " ".join(text.strip().lower().split())
        if word in STOPPED_WORDS:
            return None
        if word in HELP_WORDS:
            for line in COMMANDS:
                click.echo(line)
            continue
        if word in LIST_WORDS:
            click.echo(LIST_HEADING)
            advice = advice_of(position, table, objective, memory=command_memory())
            for n, option in enumerate(choices(advice), 1):
                click.echo(f"  {n:>2}  {option.describe()}")
            continue
        if word == "card":
            for line in card_lines(position.card):
                click.echo(line)
            continue
        try:
            graded = grade(position, text, table, objective, why=True,
                           memory=command_memory())
        except YahtzeeError as exc:
            click.echo(f"  ! {exc}")
            continue
        for line in graded_lines(graded):
            click.echo(line)
        return graded


def _keep(session: Any, path: str | None) -> tuple[str, list[dict[str, Any]]] | None:
    """Append the session to the history at ``path`` (None: no history; nothing is
    appended for a session without answers); (path, every session) or None."""
    if path is None or not session.graded:
        return None
    return path, append_session(path, session.summary_json())
