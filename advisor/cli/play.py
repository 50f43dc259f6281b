"""``yahtzee play``: a guided game at a real table, read from stdin (so it can be scripted).

The game itself is :class:`advisor.play.GameSession`; this module reads lines, prints
what the session answers, saves the record and ends the game (cards, winner, review).
"""

from __future__ import annotations

import contextlib
import shlex
import sys
import threading
from pathlib import Path
from typing import Any

import click

from solver.errors import ObjectiveError, YahtzeeError, shown_path

from ..analysis import ReviewPlan, analyze
from ..analyze_text import review_lines
from ..background import TurnSolves
from ..objective import EV
from ..play import HELP, GameSession, QuitGame, SaveFailed, winners
from ..play_win import (
    Judging,
    choose_judging,
    judging_of_record,
    objective_comment,
    split_judging,
)
from ..record import GameRecord, check_names
from ..record_file import RecordFile, check_record_path
from ..request.params import OBJECTIVE_PARAMS, TOURNAMENT_PARAMS, options
from ._input import ask
from ._progress import command_memory, load_table, plan_lines, progress_bar, work_bar

STOPPED = 1
"""Exit code when input ends or Ctrl-C stops a game before its end."""
UNSAVED = 2
"""Exit code when the record cannot be written: the game stops, the record is printed."""
TOP = 3
"""``--top`` when not given."""


def _names(n_players: int | None, names_text: str | None) -> list[str]:
    """The players: ``--names`` (checked; must agree with ``--players``) or Player 1..N."""
    if names_text is None:
        return [f"Player {i}" for i in range(1, (n_players or 1) + 1)]
    names = [n.strip() for n in names_text.split(",")]
    try:
        check_names(names)
    except YahtzeeError as exc:
        raise click.BadParameter(str(exc), param_hint="--names") from None
    if n_players is not None and n_players != len(names):
        raise click.BadParameter(f"{len(names)} name{'s' if len(names) > 1 else ''} given "
                                 f"for --players {n_players}; give one name per player "
                                 f"(or leave --players out)", param_hint="--names")
    return names


def _start(n_players: int | None, names_text: str | None, rules_name: str,
           record_path: str | None, resume_path: str | None
           ) -> tuple[GameRecord, RecordFile | None, Path | None]:
    """The record to play on; the record file resumed (opened and held: no other
    process writes it while the game goes on), or the path of a new one (checked)."""
    if resume_path is not None:
        if n_players is not None or names_text is not None or record_path is not None:
            raise click.UsageError("--resume takes the players and the file from the record; "
                                   "leave out --players, --names and --record")
        held = RecordFile.open(resume_path)
        return held.record, held, None
    record = GameRecord(rules_name, tuple(_names(n_players, names_text)))
    if record_path is None:
        return record, None, None
    path = Path(record_path)
    check_record_path(path, exist_ok=False)
    return record, None, path


def _judging(held: RecordFile | None, record: GameRecord, **given: Any) -> Judging:
    """What the game is advised by: the options given, else (a resumed game) what its
    record's first line says it was played for, else the expected score. An option that
    changes a resumed game's objective says so."""
    chosen = given["objective_name"] is not None or any(
        given[name] is not None for name in (*OBJECTIVE_PARAMS, *TOURNAMENT_PARAMS))
    noted = None
    if held is not None:
        try:
            noted = judging_of_record(held.text(), record.rules)
        except ObjectiveError:
            if not chosen:
                raise
    judging = choose_judging(players=record.players, rules=record.rules,
                             noted=None if chosen else noted, **given)
    if held is not None and chosen and judging != (noted or EV):
        before = "the expected final score" if noted is None else noted.describe()
        click.echo(f"note: {shown_path(held.path)} was played for {before}; from now on the "
                   f"advice maximises {judging.describe()} (as given)")
    return judging


def _resume_command(path: Path, table_path: str | None, top: int) -> str:
    """``yahtzee play --resume FILE`` with the options the record does not hold."""
    extra = "" if table_path is None else f" --table {shlex.quote(table_path)}"
    extra += "" if top == TOP else f" --top {top}"
    return f"yahtzee play --resume {shlex.quote(shown_path(path))}{extra}"


def _finish(session: GameSession, complete: bool, path: Path | None,
            table_path: str | None = None, top: int = 3) -> None:
    """The end of a game: the cards, then the review (a finished game) or how to go on
    (the command that resumes it, with the options the record does not hold).
    ``path``: the record file, which holds the whole game (every save succeeded)."""
    cards = session.record.cards()
    click.echo("\n== final scores" if complete else "\n== game stopped; scores so far")
    for line in session.card_lines():
        click.echo(line)
    names, best = winners(cards)
    if not complete:
        if len(cards) > 1:
            click.echo(f"leading: {' and '.join(names)} with {best}")
        else:
            click.echo(f"current total: {best}")
        if path is not None:
            click.echo(f"the game is saved in {shown_path(path)}; continue it with: "
                       f"{_resume_command(path, table_path, top)}")
        else:
            click.echo(f"to continue later, save these lines to a file (say game.txt) and run "
                       f"{_resume_command(Path('game.txt'), table_path, top)}:")
            click.echo((objective_comment(session.judging) + str(session.record)).rstrip("\n"))
        return
    click.echo("\n== review (yahtzee analyze)")
    running = session.solves.running() if session.solves is not None else []
    if running:
        click.echo("  finishing the chance to win of a turn left during the game...", err=True)
        # (the solve is the worker's: its bar says the solve's own estimate)
        wait, close_wait = work_bar("the chance to win", left=running[0].seconds_left)[::2]
        try:
            session.finish_solves(wait)
        finally:
            close_wait()
    update, noted, close = work_bar("review")

    def say_plan(plan: ReviewPlan) -> None:
        for line in plan_lines(plan, in_game=True):
            click.echo(f"  {line}", err=True)

    solving = session.judging.solves_turns
    try:
        analysis = analyze(session.record, session.judging, table=session.table,
                           memory=session.memory, advisors=session.advisor_for,
                           progress=update if solving else None,
                           solving=noted if solving else None,
                           plan=say_plan if solving else None)
    finally:
        close()
    for line in review_lines(analysis, listed=False):
        click.echo(line)
    click.echo("")
    if len(cards) == 1:
        click.echo(f"final total: {best}")
    elif len(names) == 1:
        click.echo(f"winner: {names[0]} with {best}")
    else:
        click.echo(f"shared win: {' and '.join(names)} with {best} each")


def _stop_unsaved(session: GameSession, held: RecordFile, failure: SaveFailed) -> None:
    """A save failed: the game stops; the cards and the whole record go to stdout (or
    stderr, when stdout cannot take them either), the reason to stderr, exit code 2."""
    path = shown_path(held.path)
    lines = ["", "== game stopped: it could not be saved", *session.card_lines(),
             f"{path} holds the game up to the step before; the whole game so far is below: "
             f"save it to a file (say game2.txt) and continue with yahtzee play --resume "
             f"game2.txt", held.text(session.record).rstrip("\n")]
    try:
        for line in lines:
            click.echo(line)
        sys.stdout.flush()
    except OSError:
        for line in lines:
            click.echo(line, err=True)
    click.echo(f"Error: {failure.reason} (the game is printed above)", err=True)
    click.get_current_context().exit(UNSAVED)


class _Console:
    """The game's lines in and out, with the re-ranked list of a background solve shown
    the moment it is done: at a terminal while a line is being typed (then the prompt and
    what was typed so far are shown again below it), else before the next prompt."""

    def __init__(self, session: GameSession) -> None:
        self.session = session
        self.lock = threading.Lock()
        if _at_terminal():
            with contextlib.suppress(ImportError):  # line editing, and what was typed so far
                import readline  # noqa: F401
        self.asking = False
        """True while a line is being typed at a terminal."""

    def on_change(self, solve: object) -> None:
        """A background solve ended (called on the solves' reader thread)."""
        with self.lock:
            if not self.asking:
                return  # the next prompt shows it
            lines = self.session.ready_lines()
            if not lines:
                return
            typed = _typed_so_far()
            click.echo("\n" + "\n".join(lines))
            click.echo(f"{self.session.prompt()}> {typed}", nl=False)

    def run(self) -> bool:
        """Play until the game ends (True) or the players quit (False)."""
        session = self.session
        with self.lock:
            for line in session.opening():
                click.echo(line)
        while not session.is_over:
            with self.lock:
                for line in session.ready_lines():
                    click.echo(line)
                prompt = session.prompt()
                self.asking = _at_terminal()
            try:
                text: str | None = ask(prompt)
            except YahtzeeError as exc:  # a line too long: refused, asked again
                text, refused = None, exc
            finally:
                with self.lock:
                    self.asking = False
            with self.lock:
                try:
                    if text is None:
                        raise refused
                    lines = session.handle(text)
                except QuitGame:
                    return False
                except KeyboardInterrupt:  # Ctrl-C while a line is acted on: stop as at a prompt
                    raise click.exceptions.Abort from None
                except YahtzeeError as exc:
                    click.echo(f"  ! {exc}")
                    click.echo(f"  ({HELP})")
                    continue
                for line in lines:
                    click.echo(line)
        return True


def _at_terminal() -> bool:
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (OSError, ValueError):
        return False


def _typed_so_far() -> str:
    """What has been typed at the prompt so far (with line editing), else ""."""
    readline = sys.modules.get("readline")
    try:
        return str(readline.get_line_buffer()) if readline is not None else ""
    except (AttributeError, OSError):
        return ""


@click.command()
@options("players", "names", "top", "record", "resume", "objective", "win_from",
         *OBJECTIVE_PARAMS, *TOURNAMENT_PARAMS, "rules", "table", top={
             "default": TOP, "metavar": None,
             "help": "Options shown at each roll (0: all; `more` shows all once)."})
def play(n_players: int | None, names_text: str | None, top: int, record_path: str | None,
         resume_path: str | None, objective_name: str, win_from: int | None,
         target: str | None, beat: str | None, opponent: str | None,
         tournament: str | None, field: str | None, field_scores: str | None,
         rules_name: str, table_path: str | None) -> None:
    """A guided game: type the dice you threw, see the best choices, type what you did.

    Each move is a line: enter follows the advice; a number picks a listed option;
    `keep 222` keeps dice and rerolls the rest; `score twos` (or just `twos`) fills a box;
    `undo` steps back; `card`, `more`, `help` or `?` show things; `quit` stops. A move
    that is not the best says at once what it costs. Boxes by name or short name: 1s-6s,
    3k, 4k, fh, ss, ls, yz, ch. Reads stdin, so a game can be scripted.

    With two or more players, --objective win makes every player's advice maximise the
    chance to win against the others (their total when finished, else the exact
    distribution of their final score; a tie of k players at the top counts 1/k), from
    the first turn: each turn is solved in the
    background from its start, the list by expected score shows meanwhile and is
    re-ranked when the solve is done; play on as usual. --tournament N plays a solitaire
    game for the top of a tournament of N players (each alone, the highest score winning).
    --resume goes on under the objective the record names.

    Example: yahtzee play --names Ann,Bob --record game.txt
    """
    if sys.stdin is None:
        raise click.UsageError("standard input is closed: play reads the dice and the moves "
                               "from it")
    record, held, new_path = _start(n_players, names_text, rules_name, record_path,
                                    resume_path)
    with contextlib.ExitStack() as stack:
        if held is not None:
            stack.callback(held.close)
        judging = _judging(held, record, objective_name=objective_name, win_from=win_from,
                           target=target, beat=beat, opponent=opponent,
                           tournament=tournament, field=field, field_scores=field_scores)
        table = load_table(record.rules, table_path)
        comment = objective_comment(judging)
        if new_path is not None:
            held = RecordFile.create(new_path, record, comment)
            stack.callback(held.close)
        elif held is not None:  # a resumed game: the objective line says what is advised now
            held.note_objective(comment)
        solves = None
        if split_judging(judging)[1] is not None:  # each turn solved in a worker process
            solves = TurnSolves(table_path)         # while the game goes on
            stack.callback(solves.close)
        session = GameSession.judged_by(record, table, judging, memory=command_memory(),
                                        top=top, save=None if held is None else held.save,
                                        notify=click.echo, progress=progress_bar,
                                        solves=solves)
        console = _Console(session)
        if solves is not None:
            solves.on_change = console.on_change
        path = None if held is None else held.path
        try:
            complete = console.run()
        except click.exceptions.Abort:  # end of input or Ctrl-C
            click.echo("")
            _finish(session, complete=False, path=path, table_path=table_path, top=top)
            click.get_current_context().exit(STOPPED)
        except SaveFailed as failure:
            assert held is not None
            _stop_unsaved(session, held, failure)
        _finish(session, complete=complete, path=path, table_path=table_path, top=top)
