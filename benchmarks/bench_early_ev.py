"""What playing by expected score for the first turns costs in the chance to win (issue 33).

Two players; the opponent plays for the highest expected score, so their final score has
the exact distribution ``D`` of a new game under expected-score play. The chance to win
(a tie counts as half) against ``D``:

- ``from the first turn``: the win DP's value of a new game (exact);
- ``by expected score for the first N turns, then for the chance to win``: the mean, over
  games whose first N turns are played by expected score (``simulate``'s optimal games,
  seeded), of the win DP's exact value at the card those turns leave (the vectors of
  level N are kept), so the only sampling is of the first N turns' dice.

The difference is what the expected-score start gives away. Both play against ``D``, the
opponent's final-score distribution from a new game, not re-solved as the opponent's card
changes turn by turn (as ``play --objective win`` does): it is the cost of the early
turns' choices, not of the later ones. Prints the figures with their standard error and
the load average.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np
from _fresh import load_average

from advisor.caches import Caches
from advisor.model import Dice, Scorecard
from solver.game.trace import turn_moves
from solver.points_to_come import final_distribution
from solver.simulate import simulate
from solver.table import open_table
from solver.target import Utility, solve_vectors, turn_at


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=3, help="turns played by expected score")
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rules", default="official")
    args = parser.parse_args()
    before = load_average()
    table = open_table(args.rules, build=True)
    memory = Caches()
    rules = table.rules
    began = time.perf_counter()
    dist = final_distribution(Scorecard.new(rules), table, memory)
    vectors = solve_vectors(table, Utility.win_share([dist]), total=0, keep=(args.turns,))
    solved = time.perf_counter() - began
    full = turn_at(vectors, 0, 0, 0, 0).value
    games = simulate(table, "optimal", args.games, seed=args.seed, record=True, judged=False)
    assert games.traces is not None
    values = np.empty(args.games)
    for g in range(args.games):
        card = Scorecard.new(rules)
        for t in range(args.turns):
            rolls, _, box = turn_moves(games.traces[g, t])
            card = card.place(Dice(rolls[-1]), rules.boxes[box].name)
        values[g] = vectors.value(card.mask, min(card.upper, 63), card.flag, card.total)
    early = float(values.mean())
    stderr = float(values.std(ddof=1) / np.sqrt(args.games))
    print(json.dumps({"rules": args.rules, "turns": args.turns, "games": args.games,
                      "seed": args.seed, "from_the_first_turn": full,
                      "expected_score_first": early, "stderr": stderr,
                      "given_away_pp": 100 * (full - early), "stderr_pp": 100 * stderr,
                      "dp_seconds": solved, "entries": vectors.entries,
                      "load": f"{before} -> {load_average()}"}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
