"""Moves as integers: the keeps by dice position, then the boxes (the actions of the
Gymnasium environment and the answers of a batch strategy of the simulator).

The five dice are shown sorted (lowest face first). Action ``a < KEEP_ACTIONS`` (31 of
them) keeps the dice at the positions of the set bits of ``a`` (bit ``i``: the ``i``-th
lowest die) and rerolls the others: ``0`` rerolls all five, ``0b00111`` keeps the three
lowest. Keeping all five (``0b11111``) is no action: it would roll nothing. Action
``KEEP_ACTIONS + b`` fills box ``b`` (scorecard order) with the dice showing.

Several keep actions can hold the same faces (dice ``2 2 2 5 6``: actions 1, 2 and 4 each
keep one 2); they are the same move, with the same loss. :func:`action_of` gives the
canonical one: each face's lowest positions.
"""

from __future__ import annotations

import numpy as np

from ..errors import IllegalMoveError
from .card import Scorecard
from .dice import DICE
from .faces import Dice
from .move import Move

KEEP_ACTIONS = 2**DICE - 1
"""31: every proper subset of the five dice."""


def action_count(n_boxes: int) -> int:
    """The size of the action space: the keep actions and one action per box."""
    return KEEP_ACTIONS + n_boxes


def move_of(action: int, dice: Dice, card: Scorecard) -> Move:
    """The move of ``action`` for ``dice`` on ``card`` (legality not checked)."""
    if action < KEEP_ACTIONS:
        return Move(keep=tuple(f for i, f in enumerate(dice.faces) if action >> i & 1))
    return Move(box=card.rules.boxes[action - KEEP_ACTIONS].name)


def action_of(move: Move, dice: Dice, card: Scorecard) -> int:
    """The canonical action of ``move`` (a keep of these dice, or a box of these rules)."""
    if move.keep is None:
        return KEEP_ACTIONS + card.rules.box_index(move.box or "")
    action, taken = 0, [False] * DICE
    for face in move.keep:
        i = next((i for i, f in enumerate(dice.faces) if f == face and not taken[i]), None)
        if i is None:
            raise IllegalMoveError(f"{move} is not part of dice {dice}")
        taken[i] = True
        action |= 1 << i
    if action >= KEEP_ACTIONS:
        raise IllegalMoveError(f"{move} keeps all five dice: no action rolls nothing")
    return action


def action_mask(card: Scorecard, dice: Dice, rolls_left: int) -> np.ndarray:
    """(KEEP_ACTIONS + n_boxes,) int8: 1 for each legal action (every keep while rolls are
    left; the boxes the rules allow for ``dice``, the Joker included)."""
    mask = np.zeros(action_count(card.rules.n_boxes), dtype=np.int8)
    if rolls_left > 0:
        mask[:KEEP_ACTIONS] = 1
    for placement in card.placements(dice.faces):
        mask[KEEP_ACTIONS + placement.box] = 1
    return mask


def describe(action: int, dice: Dice, card: Scorecard) -> str:
    """The action in words: ``keep 222``, ``reroll all`` or ``score twos``."""
    return str(move_of(action, dice, card))
