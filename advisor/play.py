"""What a player typed during a guided game, checked against the dice and the card.

An action line is one of: empty (follow the advice), an option number from the list
shown, ``keep 222`` / ``k 2 2 2`` / ``reroll all``, or ``score twos`` / ``s 2s`` / just a
box name. Dice lines are all five dice showing, or only the rerolled ones.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.dice import DICE
from solver.errors import IllegalMoveError, InvalidDiceError

from .model import Advice, Dice, Keep, Scorecard, parse_faces

ACCEPT = frozenset({"", "y", "yes", "ok", "best", "advice"})
QUIT = frozenset({"q", "quit", "exit"})
_KEEP_WORDS = ("keep", "k", "hold")
_SCORE_WORDS = ("score", "s", "put")
_REROLL_ALL = frozenset({"reroll all", "reroll", "r", "keep none", "keep nothing", "none"})
HELP = ("enter: follow the advice | N: option N | keep 222 | reroll all | score twos | quit")


@dataclass(frozen=True)
class Action:
    """A checked move: keep ``keep`` and reroll the rest, or score ``box`` (an index)."""

    keep: Keep | None = None
    box: int | None = None


def parse_action(text: str, advice: Advice) -> Action:
    """The move typed as ``text`` for ``advice`` (its dice, card and rolls left), checked."""
    line = " ".join(text.strip().lower().split())
    if line in ACCEPT:
        return _from_option(advice, 0)
    if line.isdigit():
        n = int(line)
        if not 1 <= n <= len(advice.options):
            raise IllegalMoveError(f"option {n} does not exist; choose 1..{len(advice.options)}")
        return _from_option(advice, n - 1)
    if line in _REROLL_ALL:
        return _check_keep(Keep(()), advice)
    word, _, rest = line.partition(" ")
    if word in _KEEP_WORDS:
        return _check_keep(Keep.parse(rest), advice)
    if word in _SCORE_WORDS and rest:
        line = rest
    return _check_box(line, advice)


def _from_option(advice: Advice, i: int) -> Action:
    option = advice.options[i]
    if option.keep is not None:
        return Action(keep=option.keep)
    return Action(box=advice.card.rules.box_index(option.box or ""))


def _check_keep(keep: Keep, advice: Advice) -> Action:
    if advice.rolls_left == 0:
        raise IllegalMoveError("no rolls left this turn: score a box")
    if len(keep) == DICE:
        raise IllegalMoveError("keeping all five dice ends your rolling: score a box instead")
    if not advice.dice.contains(keep):
        raise IllegalMoveError(f"keep {keep.spaced()} is not part of the dice "
                               f"{advice.dice.spaced()}")
    return Action(keep=keep)


def _check_box(name: str, advice: Advice) -> Action:
    card = advice.card
    box = card.rules.box_index(name)
    card.place(advice.dice, box)  # raises when the box is filled or the Joker forbids it
    return Action(box=box)


def dice_after_keep(text: str, keep: Keep) -> Dice:
    """The dice after a reroll: all five typed (they must include ``keep``), or only the
    rerolled ones (added to ``keep``)."""
    faces = parse_faces(text, "dice")
    if keep.faces and len(faces) == DICE - len(keep):
        faces = keep.faces + faces
    dice = Dice(faces)
    if not dice.contains(keep):
        raise InvalidDiceError(f"the dice {dice} do not include the kept "
                               f"{keep.spaced()}; type all five dice showing, "
                               f"or only the {DICE - len(keep)} rerolled")
    return dice


def winners(cards: dict[str, Scorecard]) -> tuple[list[str], int]:
    """The names with the highest total, and that total."""
    best = max(card.total for card in cards.values())
    return [name for name, card in cards.items() if card.total == best], best
