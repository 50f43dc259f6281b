"""Random scorecards for the tests of the figures shown of a card (text and page)."""

from __future__ import annotations

import random

from advisor.model import Scorecard
from solver.game.rules import get_rules


def random_cards(rules: str, n: int, seed: int = 23, open_share: float = 0.35
                 ) -> list[Scorecard]:
    """``n`` cards of ``rules``: each box open with probability ``open_share``, else an
    upper box holds 0 to 5 dice of its face (3 and 4 twice as likely), a lower box any of
    its possible entries."""
    rng = random.Random(seed)
    ruleset = get_rules(rules)
    cards = []
    for _ in range(n):
        entries: list[int | None] = []
        for b, box in enumerate(ruleset.boxes):
            if rng.random() < open_share:
                entries.append(None)
            elif box.is_upper:
                entries.append(box.face * rng.choice((0, 1, 2, 3, 3, 4, 4, 5)))
            else:
                entries.append(rng.choice(sorted(ruleset.possible_points(b))))
        cards.append(Scorecard(tuple(entries), 0, rules))
    return cards
