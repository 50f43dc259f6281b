"""The other seats of a multi-player environment: each plays a built-in strategy.

A seat's games are independent of the agent's (in Yahtzee no player's moves change
another's dice or boxes), so they are played ahead by the simulator, ``BLOCK`` episodes
at a time, and revealed turn by turn. Seat ``j`` of episode ``g`` of seed ``s`` plays game
``g % BLOCK`` of the simulator's seed :func:`seat_seed` ``(s, j, g // BLOCK)``: the same
games whatever the agent does.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from solver.errors import UnknownStrategyError, shown
from solver.game.stream import GOLDEN, MASK64, mix64
from solver.game.trace import turn_moves
from solver.simulate import simulate
from solver.simulate.strategies import STRATEGIES
from solver.table import Table

from ..model import Dice, Scorecard

BLOCK = 64
"""Episodes of one seat simulated at once (the simulator's set-up is paid once per block)."""


def seat_seed(seed: int, seat: int, block: int) -> int:
    """The simulator seed of a seat's block of episodes (0 .. 2**64 - 1)."""
    return mix64((mix64(seed ^ ((seat + 1) * GOLDEN & MASK64)) + block) & MASK64)


MAX_SEATS = 7
"""Most other seats (the others at a table of eight, as ``yahtzee play`` seats)."""


def check_strategies(strategies: Sequence[str]) -> tuple[str, ...]:
    """The built-in strategy names of the other seats, checked (``target:X`` is not one:
    its vectors take a whole-game solve, and a seat replays its strategy block by block)."""
    if isinstance(strategies, str):
        strategies = (strategies,)
    valid = f"built-in strategy names of `yahtzee simulate`: {', '.join(STRATEGIES)}"
    names = []
    for name in strategies:
        key = name.strip().lower() if isinstance(name, str) else None
        if key not in STRATEGIES:
            raise UnknownStrategyError(f"opponent {shown(name, 40)}: opponents are {valid} "
                                       f"(not target:X)")
        names.append(key)
        if len(names) > MAX_SEATS:
            raise UnknownStrategyError(f"more than {MAX_SEATS} opponents: give 0 to "
                                       f"{MAX_SEATS} (the others at a table of eight)")
    return tuple(names)


class Opponents:
    """Per-turn totals of the other seats' games, for ``strategies`` (one per seat)."""

    def __init__(self, table: Table, strategies: tuple[str, ...]) -> None:
        self.table = table
        self.strategies = strategies
        self._blocks: dict[int, tuple[tuple[int, int], np.ndarray]] = {}

    def totals(self, seed: int, episode: int) -> np.ndarray:
        """(seats, n_boxes + 1) int64: each seat's total after 0, 1, ... n_boxes turns."""
        block, game = divmod(episode, BLOCK)
        return np.stack([self._block(seat, seed, block)[game]
                         for seat in range(len(self.strategies))])

    def _block(self, seat: int, seed: int, block: int) -> np.ndarray:
        kept = self._blocks.get(seat)
        if kept is not None and kept[0] == (seed, block):
            return kept[1]
        result = simulate(self.table, self.strategies[seat], BLOCK,
                          seat_seed(seed, seat, block), record=True, judged=False)
        assert result.traces is not None
        rules = self.table.rules
        totals = np.zeros((BLOCK, rules.n_boxes + 1), dtype=np.int64)
        for g in range(BLOCK):
            card = Scorecard.new(rules)
            for turn, row in enumerate(result.traces[g]):
                rolls, _keeps, box = turn_moves(row)
                card = card.place(Dice(rolls[-1]), box)
                totals[g, turn + 1] = card.total
        if not np.array_equal(totals[:, -1], result.scores):
            raise AssertionError("a replayed opponent game does not give the simulated score")
        self._blocks[seat] = ((seed, block), totals)
        return totals
