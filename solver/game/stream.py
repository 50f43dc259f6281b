"""The dice of a seeded game: the one dice stream of the simulator, the Python strategies
and the Gymnasium environment (its numba form: :mod:`solver.kernels.stream`).

Game ``g`` of seed ``s`` starts at state ``mix64(mix64(s) + g)`` and each die is
``1 + mix64(state += GOLDEN) % 6`` (splitmix64, all arithmetic modulo 2**64). Rerolled
dice are drawn one at a time, completing the kept dice, so a game's dice depend only on
``(s, g)`` and on the moves played, never on who plays it (a numba kernel, a Python
strategy, the Gymnasium environment) or on how games are batched.
"""

from __future__ import annotations

from .dice import DICE, KEEP_CHILD, KEEP_SIZE

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB


def mix64(z: int) -> int:
    """The splitmix64 finaliser of a 64-bit unsigned integer."""
    z = ((z ^ (z >> 30)) * MIX1) & MASK64
    z = ((z ^ (z >> 27)) * MIX2) & MASK64
    return z ^ (z >> 31)


class DiceStream:
    """The dice of game ``game`` of seed ``seed`` (both 0 .. 2**64 - 1)."""

    __slots__ = ("state",)

    def __init__(self, seed: int, game: int) -> None:
        self.state = mix64((mix64(seed) + game) & MASK64)

    def die(self) -> int:
        """The next die, a face 1 to 6."""
        self.state = (self.state + GOLDEN) & MASK64
        return mix64(self.state) % 6 + 1

    def complete(self, keep: int) -> int:
        """The roll (its keep index, :data:`~solver.game.dice.KEEP_COUNTS`) after keeping
        keep ``keep`` and rolling the other dice, drawn one at a time."""
        for _ in range(DICE - int(KEEP_SIZE[keep])):
            keep = int(KEEP_CHILD[keep, self.die() - 1])
        return keep
