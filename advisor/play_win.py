"""``yahtzee play --objective win``: each player's advice maximises the chance to win.

At every turn the player to move plays against the best of the others: each other
player's final score is their total when they have finished, else the exact
distribution of their final score from their card as it is now (they play on for the
highest expected score, independently), and the best of them has the product of
those distribution functions (:func:`advisor.objective.max_distribution`). The
objective is :meth:`Objective.win_against <advisor.objective.Objective.win_against>`
of the others' cards, so with two players it is exactly ``--opponent CARD``.

The exact DP from a card with many open boxes takes long (minutes from a new game), so
the win objective applies once the player to move has at most ``open_boxes`` boxes
open; before that the advice is by expected score and says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .objective import Objective
    from .record import GameRecord

DEFAULT_OPEN_BOXES = 8
"""``--win-from``: the win objective applies with this many open boxes or fewer.
(This module imports the solver only when used, so ``play --help`` stays instant.)"""


@dataclass(frozen=True)
class WinEachTurn:
    """The win objective of the player to move against the others' cards now."""

    open_boxes: int = DEFAULT_OPEN_BOXES

    def objective(self, record: GameRecord, player: str) -> Objective:
        """``Objective.win_against`` the other players' cards, or the expected score while
        ``player`` has more than ``open_boxes`` boxes open."""
        from .objective import EV, Objective

        cards = record.cards()
        if len(cards[player].open_boxes()) > self.open_boxes:
            return EV
        return Objective.win_against([cards[name] for name in record.players
                                      if name != player], record.rules)

    def ranked_line(self, record: GameRecord, player: str) -> str:
        """What ranks ``player``'s options, naming the others and where they stand."""
        cards = record.cards()
        if len(cards[player].open_boxes()) > self.open_boxes:
            return (f"ranked by the expected final score: the chance to win is worked out "
                    f"from {self.open_boxes} open boxes on (--win-from)")
        others = [name for name in record.players if name != player]
        best = others[0] if len(others) == 1 else f"the best of {', '.join(others)}"
        return f"ranked by P(final score > {best}): {standings(record, others)}"

    def working_line(self, record: GameRecord, player: str) -> str:
        """The note printed before the DP of a turn starts."""
        n_open = len(record.cards()[player].open_boxes())
        others = [name for name in record.players if name != player]
        slow = ": with this many, a while" if n_open > 6 else ""
        return (f"  working out {player}'s exact chance to beat {' and '.join(others)} "
                f"({n_open} box{'es' if n_open > 1 else ''} open{slow}; Ctrl-C: "
                f"expected-score advice instead)...")


def standings(record: GameRecord, names: list[str]) -> str:
    """``Bob 250 (finished), Cy 180 with 3 boxes open``."""
    from .objective import standing

    cards = record.cards()
    return ", ".join(f"{name} {standing(cards[name])}" for name in names)
