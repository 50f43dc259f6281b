"""``yahtzee play``: a guided game at a real table, read from stdin (so it can be scripted).

The game itself is :class:`advisor.play.GameSession`; this module reads lines, prints
what the session answers, saves the record and ends the game (cards, winner, review).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from ._advisor_options import objective_options, parse_objective, table_option
from ._base import cli, load_table, rules_option

if TYPE_CHECKING:
    from advisor.play import GameSession
    from advisor.record import GameRecord

STOPPED = 1
"""Exit code when input ends or Ctrl-C stops a game before its end."""


def _names(n_players: int | None, names_text: str | None) -> list[str]:
    """The players: ``--names`` (checked; must agree with ``--players``) or Player 1..N."""
    from advisor.record import check_names
    from solver.errors import YahtzeeError

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
           record_path: str | None, resume_path: str | None) -> tuple[GameRecord, Path | None]:
    """The record to play on and the file to save it to."""
    from advisor.record import GameRecord, check_record_path, read_record

    if resume_path is not None:
        if n_players is not None or names_text is not None or record_path is not None:
            raise click.UsageError("--resume takes the players and the file from the record; "
                                   "leave out --players, --names and --record")
        path = Path(resume_path)
        record = read_record(path)
        check_record_path(path, exist_ok=True)
        return record, path
    record = GameRecord(rules_name, tuple(_names(n_players, names_text)))
    if record_path is None:
        return record, None
    path = Path(record_path)
    check_record_path(path, exist_ok=False)
    return record, path


def _finish(session: GameSession, complete: bool, path: Path | None) -> None:
    from advisor.analyze import analyze
    from advisor.play import winners
    from advisor.text import review_lines

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
            click.echo(f"the game is saved in {path}; continue it with: "
                       f"yahtzee play --resume {path}")
        else:
            click.echo("to continue later, save these lines to a file (say game.txt) and run "
                       "yahtzee play --resume game.txt:")
            click.echo(str(session.record).rstrip("\n"))
        return
    click.echo("\n== review (yahtzee analyze)")
    for line in review_lines(analyze(session.record, session.objective, table=session.table)):
        click.echo(line)
    click.echo("")
    if len(cards) == 1:
        click.echo(f"final total: {best}")
    elif len(names) == 1:
        click.echo(f"winner: {names[0]} with {best}")
    else:
        click.echo(f"shared win: {' and '.join(names)} with {best} each")


def _run(session: GameSession) -> bool:
    """Play until the game ends (True) or the players quit (False)."""
    from advisor.play import HELP, QuitGame
    from solver.errors import YahtzeeError

    for line in session.header():
        click.echo(line)
    while not session.is_over:
        text = click.prompt(session.prompt(), default="", show_default=False,
                            prompt_suffix="> ")
        try:
            lines = session.handle(text)
        except QuitGame:
            return False
        except YahtzeeError as exc:
            click.echo(f"  ! {exc}")
            click.echo(f"  ({HELP})")
            continue
        for line in lines:
            click.echo(line)
    return True


@cli.command(short_help="A guided game at a real table (undo, records).")
@click.option("--players", "n_players", type=click.IntRange(1, 8), default=None,
              help="Number of players, named Player 1, Player 2, ...  [default: 1]")
@click.option("--names", "names_text", default=None, metavar="A,B",
              help="Player names in playing order, comma-separated (1 to 8).")
@click.option("--top", "top", type=click.IntRange(min=0), default=3, show_default=True,
              help="Options shown at each roll (0: all; `more` shows all once).")
@click.option("--record", "record_path", default=None, metavar="FILE",
              help="Write the game to FILE as it goes (a new file; see docs/records.md).")
@click.option("--resume", "resume_path", default=None, metavar="FILE",
              help="Continue the game recorded in FILE where it stopped.")
@objective_options
@rules_option
@table_option
def play(n_players: int | None, names_text: str | None, top: int, record_path: str | None,
         resume_path: str | None, target: str | None, beat: str | None,
         opponent: str | None, rules_name: str, table_path: str | None) -> None:
    """A guided game: type the dice you threw, see the best choices, type what you did.

    Each move is a line: enter follows the advice; a number picks a listed option;
    `keep 222` keeps dice and rerolls the rest; `score twos` (or just `twos`) fills a box;
    `undo` steps back; `card`, `more`, `help` or `?` show things; `quit` stops. A move
    that is not the best says at once what it costs. Boxes by name or short name: 1s-6s,
    3k, 4k, fh, ss, ls, yz, ch. Reads stdin, so a game can be scripted.

    Example: yahtzee play --names Ann,Bob --record game.txt
    """
    from advisor.play import GameSession
    from advisor.record import write_record

    record, path = _start(n_players, names_text, rules_name, record_path, resume_path)
    objective = parse_objective(target, beat, opponent, record.rules)
    table = load_table(record.rules, table_path)

    def save(new: GameRecord) -> None:
        if path is not None:
            write_record(path, new)

    save(record)
    session = GameSession(record, table, top=top, save=save,
                          objective=None if objective.is_ev else objective)
    try:
        complete = _run(session)
    except click.exceptions.Abort:  # end of input or Ctrl-C
        click.echo("")
        _finish(session, complete=False, path=path)
        click.get_current_context().exit(STOPPED)
    _finish(session, complete=complete, path=path)
