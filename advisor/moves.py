"""Moves and dice as a player types them, checked against the advice shown.

A move line is one of: empty (follow the advice), an option number from the list shown,
or any form of :meth:`Move.parse <solver.game.move.Move.parse>` (``keep 222`` /
``k 2 2 2`` / ``reroll all``, ``score twos`` / ``s 2s`` / just a box name). Dice after a
reroll are all five dice showing, or only the rerolled ones. ``play`` and ``train`` both
read moves through here.
"""

from __future__ import annotations

from solver.errors import IllegalMoveError, InvalidDiceError, shown
from solver.game.dice import DICE
from solver.game.move import Move

from .advice import Advice
from .model import Dice, Keep, box_label, parse_faces

ACCEPT = frozenset({"", "y", "yes", "ok", "best", "advice"})
"""What a player types to follow the advice (the first option)."""


def parse_action(text: str, advice: Advice) -> Move:
    """The move typed as ``text`` for ``advice`` (its dice, card and rolls left), checked.

    Accepts enter (the best option), an option number, and every form of
    :meth:`Move.parse <solver.game.move.Move.parse>` (so each option's ``describe()`` too).
    """
    line = " ".join(text.strip().lower().split())
    if line in ACCEPT:
        return advice.options[0].move
    if line.isdigit():  # any script's digits, and any length: refused unless 1..N
        n = int(line) if line.isascii() and len(line) <= 4 else 0
        if not 1 <= n <= len(advice.options):
            raise IllegalMoveError(f"option {shown(line, 20)} does not exist; choose an "
                                   f"option number 1..{len(advice.options)}"
                                   f"{_keep_hint(line, advice)}")
        return advice.options[n - 1].move
    return check_move(Move.parse(line, advice.card.rules), advice)


def _keep_hint(line: str, advice: Advice) -> str:
    """``, or keep 2225 to keep those dice`` when the digits typed are dice to keep (2 to
    4 of the dice showing, with a roll left), else ``""``."""
    if advice.rolls_left == 0 or not 2 <= len(line) < DICE or set(line) - set("123456"):
        return ""
    keep = Keep.parse(line)
    return f", or keep {line} to keep {keep.spaced()}" if advice.dice.contains(keep) else ""


def check_move(move: Move, advice: Advice) -> Move:
    """``move`` if the rules allow it for ``advice``'s dice, card and rolls left; else raise
    :class:`IllegalMoveError` saying why (points claimed in the text are checked too)."""
    card, dice = advice.card, advice.dice
    if move.keep is not None:
        if advice.rolls_left == 0:
            raise IllegalMoveError("no rolls left this turn: score a box")
        keep = Keep(move.keep)
        if len(keep) == DICE:
            raise IllegalMoveError("keeping all five dice ends your rolling: score a box instead")
        if not dice.contains(keep):
            raise IllegalMoveError(f"keep {keep.spaced()} is not part of the dice "
                                   f"{dice.spaced()}")
        return move
    new = card.place(dice, move.box or "")  # raises when the box is filled or forbidden
    b = card.rules.box_index(move.box or "")
    if move.points is not None and move.points != new.entries[b]:
        raise IllegalMoveError(f"{box_label(move.box or '')} scores {new.entries[b]} with "
                               f"{dice.spaced()}, not {move.points}")
    return move


def dice_after_keep(text: str, keep: Keep) -> Dice:
    """The dice after a reroll: all five typed (they must include ``keep``), or only the
    rerolled ones (added to ``keep``)."""
    faces = parse_faces(text, "dice")
    rerolled = DICE - len(keep)
    if len(faces) not in (DICE, rerolled):
        given = f"dice {' '.join(map(str, faces))}: {len(faces)} " + (
            "die given" if len(faces) == 1 else "dice given")
        if not keep.faces:
            raise InvalidDiceError(f"{given}; type the five dice showing (e.g. 22256)")
        raise InvalidDiceError(f"{given} after keeping {keep.spaced()}; type the {rerolled} "
                               f"rerolled (e.g. {'1456'[:rerolled]}) or all five dice showing")
    if keep.faces and len(faces) == rerolled:
        faces = keep.faces + faces
    dice = Dice(faces)
    if not dice.contains(keep):
        raise InvalidDiceError(f"the dice {dice} do not include the kept "
                               f"{keep.spaced()}; type all five dice showing, "
                               f"or only the {DICE - len(keep)} rerolled")
    return dice
