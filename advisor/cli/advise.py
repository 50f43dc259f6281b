"""``yahtzee advise``: rank every keep and every box for one roll."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import click
from click.core import ParameterSource

from solver.errors import shown_path

from ..advice import advice_report
from ..model import Dice
from ..moves import parse_action
from ..objective import EV
from ..play import GameSession, deviation_note
from ..play_win import choose_judging, judging_of_record, objective_comment
from ..record import GameRecord, parse_record
from ..record_file import RecordFile, check_record_path, read_record_text
from ..request.advise_question import AdviseQuestion
from ..request.params import OBJECTIVE_PARAMS, TOURNAMENT_PARAMS, options
from ._base import emit_json, note
from ._progress import command_memory, load_moments, load_table, progress_bar


@click.command()
@click.argument("dice_arg", required=False, metavar="[DICE]")
@options("dice", "rolls_left", "card", "game", "append", "top", "why", *OBJECTIVE_PARAMS,
         "opponents", *TOURNAMENT_PARAMS, "json", "rules", "table")
def advise(dice_arg: str | None, dice_text: str | None, rolls_left: int | None,
           card_text: str, game_path: str | None, append_text: str | None, top: int,
           why: bool, as_json: bool, rules_name: str, table_path: str | None,
           **objective: str | None) -> None:
    """Rank every choice for these dice: each keep (reroll the rest) and each box, by
    expected final score or, with --target/--beat/--opponent/--tournament, by the chance
    of reaching the target, the chance to win against the opponent (a tie counts as half)
    or the expected share of first place in a tournament.

    Boxes by name or short name: 1s-6s, 3k, 4k, fh, ss, ls, yz, ch (`yahtzee help boxes`).

    Example: yahtzee advise 22256 --card twos=6,3k=20 --rolls-left 1 --target 250
    """
    if dice_arg is not None and dice_text is not None:
        raise click.UsageError("give the dice once: as the argument or with --dice")
    dice_text = dice_arg if dice_arg is not None else dice_text
    dice = AdviseQuestion.parse_dice(dice_text)
    if game_path is not None:
        _advise_game(game_path, dice, append_text, top, as_json, rolls_left, card_text,
                     table_path, rules_name,
                     {name: objective[name] for name in (*OBJECTIVE_PARAMS,
                                                         *TOURNAMENT_PARAMS)}, why)
        return
    if append_text is not None:
        raise click.UsageError("--append adds to a record: give it with --game FILE")
    question = AdviseQuestion.parse(dice_text=dice_text, card_text=card_text,
                                    rules_name=rules_name, rolls_left=rolls_left, top=top,
                                    why=why, **objective)
    table = load_table(rules_name, table_path)  # after the checks: no build for bad input
    if why:
        load_moments(table)
    update, close = progress_bar(question.objective.describe(), unit="step")
    try:  # (what a user is to know first: told by the solver before it solves)
        advice = question.solve(table, update, memory=command_memory(), note=note)
    finally:
        close()
    if as_json:
        emit_json(advice.to_json(question.top))
        return
    for line in advice_report(advice, top):
        click.echo(line)


def _advise_game(game_path: str, dice: Dice, append_text: str | None, top: int,
                 as_json: bool, rolls_left: int | None, card_text: str,
                 table_path: str | None, rules_name: str,
                 objective_options: dict[str, str | None], why: bool = False) -> None:
    """Advice at the current position of a recorded game, under the objective of the
    options (``--target``, ``--beat``, ``--opponent``, ``--tournament`` and its field),
    else the one the record's first line notes (what the game was played for), else the
    expected score; with ``--append`` the roll and the
    move are added to the record. A record that does not exist yet is a new game of one
    player under ``rules_name`` (``--append`` starts the file); an existing one has its
    own rules, and ``--rules`` naming others is refused."""
    if rolls_left is not None or card_text:
        raise click.UsageError("--game takes the card and the rolls left from the record; "
                               "leave out --card and --rolls-left")
    new = not os.path.lexists(game_path)
    text = ""
    with contextlib.ExitStack() as stack:
        if new:
            record = GameRecord(rules_name)
            check_record_path(Path(game_path), exist_ok=False)  # a folder that exists
            if append_text is not None:  # held from its creation until the move is written
                held = stack.enter_context(RecordFile.create(game_path, record))
        elif append_text is None:
            text = read_record_text(game_path)
            record = parse_record(text)
        else:  # held until the move is written: a second writer is refused meanwhile
            held = stack.enter_context(RecordFile.open(game_path))
            record = held.record
            text = held.text()
        _check_rules(record.rules, rules_name, new)
        given = any(value is not None for value in objective_options.values())
        judging = choose_judging(objective_name=None, win_from=None, **objective_options,
                                 players=record.players, rules=record.rules,
                                 noted=None if given else judging_of_record(text, record.rules))
        table = load_table(record.rules, table_path)
        if why:
            load_moments(table)
        session = GameSession.judged_by(record, table, judging, memory=command_memory(),
                                        notify=note, progress=progress_bar)
        session.position_at(dice)
        objective = session.turn_objective()
        advice = session.advice(why=why)
        appended = ""
        if append_text is not None:
            move = parse_action(append_text, advice)
            chosen = next(o for o in advice.options if o.move == move)
            appended = deviation_note(chosen, advice.best, objective) or \
                f"  {chosen.describe()}: the best move"
            if given and objective != EV:  # as play (a record's own objective line stays)
                held.note_objective(objective_comment(objective), write=False)
            held.save(session.record.with_move(move))
    if as_json:
        data = advice.to_json(top)
        data["player"] = session.player
        if append_text is not None:
            data["appended"] = chosen.to_json()
        emit_json(data)
        return
    if new:
        started = "started" if append_text is not None else \
            "does not exist yet: a new game (--append MOVE starts it)"
        click.echo(f"game {shown_path(game_path)} {started}")
    click.echo(f"game {shown_path(game_path)}: {session.player}'s turn")
    for line in advice_report(advice, top):
        click.echo(line)
    if appended:
        click.echo(appended.strip() + f" (added to {shown_path(game_path)})")


def _check_rules(record_rules: str, rules_name: str, new: bool) -> None:
    """``--rules`` given with an existing record must name the record's rules."""
    ctx = click.get_current_context()
    given = ctx.get_parameter_source("rules_name") not in (ParameterSource.DEFAULT, None)
    if given and not new and rules_name.lower() != record_rules:
        raise click.UsageError(f"the record is a game of rules {record_rules!r}, not "
                               f"{rules_name!r}; leave out --rules (the record has its own)")
