"""The Python dice stream (solver.game.stream) deals the kernels' dice: same seed, same
game, same keeps, same rolls."""

from __future__ import annotations

import numpy as np
import pytest

from solver.game.dice import KEEP_COUNTS, KEEP_SIZE
from solver.game.stream import MASK64, DiceStream
from solver.kernels import stream as sim


@pytest.mark.parametrize("seed, game", [(0, 0), (0, 1), (12345, 678), (MASK64, MASK64)])
def test_python_stream_is_the_kernels_stream(seed, game):
    python = DiceStream(seed, game)
    state = np.uint64(sim.game_stream(np.uint64(seed), np.uint64(game)))
    assert python.state == int(state)
    rng = np.random.default_rng(seed % 1000)
    keep = 0
    for _ in range(40):
        roll, state = sim.roll_from(keep, np.uint64(state))  # uint64, as in the kernels
        assert python.complete(keep) == roll and python.state == int(state)
        # the next keep: a random part of the roll (0 to 5 dice)
        counts = KEEP_COUNTS[roll].copy()
        for face in range(6):
            counts[face] = rng.integers(0, counts[face] + 1)
        keep = next(k for k in range(len(KEEP_SIZE)) if (KEEP_COUNTS[k] == counts).all())


def test_dice_are_faces_one_to_six_and_the_stream_moves():
    stream = DiceStream(1, 2)
    faces = [stream.die() for _ in range(600)]
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    assert DiceStream(1, 2).state != DiceStream(1, 3).state != DiceStream(2, 2).state
