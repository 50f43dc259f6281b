"""``yahtzee play``: a guided game at a real table, read from stdin (so it can be scripted)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from ._advisor_options import table_option
from ._base import cli, load_table, rules_option

if TYPE_CHECKING:
    from advisor.model import Dice, Scorecard


class QuitGame(Exception):
    """The player typed ``quit``."""


def _ask(prompt: str) -> str:
    from advisor.play import QUIT

    text = click.prompt(prompt, default="", show_default=False, prompt_suffix="> ")
    if text.strip().lower() in QUIT:
        raise QuitGame
    return text


def _ask_dice(prompt: str, parse: Any) -> Dice:
    """Ask until ``parse(text)`` accepts the dice typed."""
    from solver.errors import YahtzeeError

    while True:
        try:
            return parse(_ask(prompt))
        except YahtzeeError as exc:
            click.echo(f"  ! {exc}")


def _play_turn(name: str, card: Scorecard, table: Any, top: int) -> Scorecard:
    """One turn of one player: dice typed, advice shown, moves checked; the new card."""
    from advisor.advise import TurnAdvisor
    from advisor.model import Dice, Keep
    from advisor.play import HELP, dice_after_keep, parse_action
    from advisor.text import advice_table, rolls_left_phrase
    from solver.errors import YahtzeeError

    per_turn = card.rules.rolls_per_turn
    turn = TurnAdvisor(card, table)
    click.echo(f"\n== {name}, turn {card.turn} of {card.rules.n_boxes} (total {card.total})")
    dice = _ask_dice("dice thrown (e.g. 22256)", Dice)
    rolls_left = per_turn - 1
    while True:
        advice = turn.advise(dice, rolls_left)
        click.echo(f"{name}: dice {dice.spaced()} | "
                   f"{rolls_left_phrase(rolls_left, per_turn)}")
        for line in advice_table(advice, top):
            click.echo(line)
        while True:
            try:
                action = parse_action(_ask(f"your move [enter: {advice.best.describe()}]"),
                                      advice)
                break
            except YahtzeeError as exc:
                click.echo(f"  ! {exc}")
                click.echo(f"  ({HELP})")
        if action.box is not None:
            new = card.place(dice, action.box)
            box = card.rules.boxes[action.box].name
            bonus = new.yahtzee_bonuses - card.yahtzee_bonuses
            extra = f" + {bonus * card.rules.yahtzee_bonus} Yahtzee bonus" if bonus else ""
            upper = (f" + {new.upper_bonus} upper bonus" if new.upper_bonus > card.upper_bonus
                     else "")
            click.echo(f"{name} scores {new.entries[action.box]} in {box}{extra}{upper}: "
                       f"total {new.total}")
            return new
        kept: Keep = action.keep  # type: ignore[assignment]
        rolls_left -= 1
        shown = kept.spaced() or "nothing"
        dice = _ask_dice(f"kept {shown}; dice now (all five, or the {5 - len(kept)} rerolled)",
                         lambda text, kept=kept: dice_after_keep(text, kept))


def _finish(cards: dict[str, Scorecard], complete: bool) -> None:
    from advisor.play import winners
    from advisor.text import card_lines

    click.echo("\n== final scores" if complete else "\n== game stopped; scores so far")
    for name, card in cards.items():
        click.echo(f"{name}:")
        for line in card_lines(card):
            click.echo(line)
    names, best = winners(cards)
    if len(cards) == 1:
        click.echo(f"{'final' if complete else 'current'} total: {best}")
    elif not complete:
        click.echo(f"leading: {' and '.join(names)} with {best}")
    elif len(names) == 1:
        click.echo(f"winner: {names[0]} with {best}")
    else:
        click.echo(f"shared win: {' and '.join(names)} with {best} each")


@cli.command()
@click.option("--players", "n_players", type=click.IntRange(1, 8), default=1, show_default=True,
              help="Number of players (named Player 1, Player 2, ...).")
@click.option("--names", "names_text", default=None, metavar="A,B",
              help="Player names, comma-separated, in playing order (sets the count).")
@click.option("--top", "top", type=click.IntRange(min=0), default=3, show_default=True,
              help="Options shown at each roll (0: all).")
@rules_option
@table_option
def play(n_players: int, names_text: str | None, top: int, rules_name: str,
         table_path: str | None) -> None:
    """A guided game: type the dice you threw, see the best choices, type what you did.

    Each move is a line: enter follows the advice; a number picks a listed option;
    `keep 222` keeps dice and rerolls the rest; `score twos` (or just `twos`) fills a box;
    `quit` stops. Reads stdin, so a whole game can be scripted.
    """
    from advisor.model import Scorecard

    if names_text is not None:
        names = [n.strip() for n in names_text.split(",") if n.strip()]
        if not names or len(set(names)) != len(names):
            raise click.BadParameter("give distinct, non-empty names, e.g. Ann,Bob",
                                     param_hint="--names")
    else:
        names = [f"Player {i}" for i in range(1, n_players + 1)]
    table = load_table(rules_name, table_path)
    cards = {name: Scorecard.new(rules_name) for name in names}
    try:
        for _ in range(table.rules.n_boxes):
            for name in names:
                cards[name] = _play_turn(name, cards[name], table, top)
    except QuitGame:
        _finish(cards, complete=False)
        return
    _finish(cards, complete=True)
