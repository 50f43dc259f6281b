"""An independent scorer, written from the rule book (docs/rules.md) and the box order of
docs/boxes.md alone, for checking the production score and Joker tables.

It deliberately imports nothing from ``solver`` or ``advisor``: a wrong box definition,
Joker table or bonus in the production code cannot leak into the checks that use it
(``tests/oracles/reference.py``, ``tests/solver/game/rules/test_scorer.py``). Dice are five faces
1..6 in any order; a card is described by the set of filled box names and whether the
Yahtzee box holds 50.

Rule sets (docs/rules.md, "The named variants")::

    official    13 boxes, 3 rolls, upper bonus 35, Yahtzee bonus 100, forced Joker
    free-joker  as official, Joker free (any open box; FH/SS/LS only when the upper
                box of that face is filled)
    no-bonus    as official, no Yahtzee bonus, no Joker
    two-rolls   as official, 2 rolls
    yatzy       15 boxes, 3 rolls, upper bonus 50, no Yahtzee bonus, no Joker
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations_with_replacement

UPPER_NAMES = ("aces", "twos", "threes", "fours", "fives", "sixes")
YAHTZEE_CARD = UPPER_NAMES + ("three_of_a_kind", "four_of_a_kind", "full_house",
                              "small_straight", "large_straight", "yahtzee", "chance")
YATZY_CARD = ("ones",) + UPPER_NAMES[1:] + ("one_pair", "two_pairs", "three_of_a_kind",
                                            "four_of_a_kind", "small_straight",
                                            "large_straight", "full_house", "chance", "yatzy")
UPPER_GOAL = 63


@dataclass(frozen=True)
class RuleBook:
    """One rule set of docs/rules.md, as the independent scorer reads it."""

    name: str
    card: tuple[str, ...]
    rolls: int
    upper_bonus: int
    yahtzee_bonus: int
    joker: str  # "forced", "free" or "none"

    @property
    def yahtzee_box(self) -> str:
        return self.card[11] if self.card is YAHTZEE_CARD else "yatzy"

    def face_of(self, box: str) -> int:
        """1..6 for an upper box, 0 for a lower one."""
        return self.card.index(box) + 1 if self.card.index(box) < 6 else 0


RULE_BOOKS = {
    "official": RuleBook("official", YAHTZEE_CARD, 3, 35, 100, "forced"),
    "free-joker": RuleBook("free-joker", YAHTZEE_CARD, 3, 35, 100, "free"),
    "no-bonus": RuleBook("no-bonus", YAHTZEE_CARD, 3, 35, 0, "none"),
    "two-rolls": RuleBook("two-rolls", YAHTZEE_CARD, 2, 35, 100, "forced"),
    "yatzy": RuleBook("yatzy", YATZY_CARD, 3, 50, 0, "none"),
}

ALL_ROLLS: tuple[tuple[int, ...], ...] = tuple(
    combinations_with_replacement(range(1, 7), 5))
"""The 252 distinct rolls, each as five ascending faces."""


# ---------------------------------------------------------------- ordinary scores
def _straight(dice, run: tuple[int, ...]) -> bool:
    return set(run) <= set(dice)


def yahtzee_score(box: str, dice) -> int:
    """Points of five dice in a box of the 13-box card, as an ordinary roll (no Joker)."""
    dice = sorted(dice)
    tally = sorted(Counter(dice).values())
    if box in UPPER_NAMES:
        face = UPPER_NAMES.index(box) + 1
        return face * dice.count(face)
    if box == "three_of_a_kind":
        return sum(dice) if tally[-1] >= 3 else 0
    if box == "four_of_a_kind":
        return sum(dice) if tally[-1] >= 4 else 0
    if box == "full_house":
        return 25 if tally == [2, 3] else 0
    if box == "small_straight":
        runs = ((1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6))
        return 30 if any(_straight(dice, r) for r in runs) else 0
    if box == "large_straight":
        return 40 if dice in ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6]) else 0
    if box == "yahtzee":
        return 50 if tally == [5] else 0
    if box == "chance":
        return sum(dice)
    raise KeyError(box)


def yatzy_score(box: str, dice) -> int:
    """Points of five dice in a box of the 15-box Yatzy card."""
    dice = sorted(dice)
    seen = Counter(dice)
    if box == "ones":
        return dice.count(1)
    if box in UPPER_NAMES:
        face = UPPER_NAMES.index(box) + 1
        return face * dice.count(face)
    pairs = sorted((f for f, n in seen.items() if n >= 2), reverse=True)
    if box == "one_pair":
        return 2 * pairs[0] if pairs else 0
    if box == "two_pairs":
        return 2 * (pairs[0] + pairs[1]) if len(pairs) == 2 else 0
    if box in ("three_of_a_kind", "four_of_a_kind"):
        n = 3 if box == "three_of_a_kind" else 4
        faces = [f for f, k in seen.items() if k >= n]
        return n * max(faces) if faces else 0
    if box == "small_straight":
        return 15 if dice == [1, 2, 3, 4, 5] else 0
    if box == "large_straight":
        return 20 if dice == [2, 3, 4, 5, 6] else 0
    if box == "full_house":
        return sum(dice) if sorted(seen.values()) == [2, 3] else 0
    if box == "chance":
        return sum(dice)
    if box == "yatzy":
        return 50 if len(seen) == 1 else 0
    raise KeyError(box)


def ordinary_score(book: RuleBook, box: str, dice) -> int:
    """Points of ``dice`` in ``box`` of ``book``'s card as an ordinary roll."""
    return (yatzy_score if book.card is YATZY_CARD else yahtzee_score)(box, dice)


# ---------------------------------------------------------------- the Joker
def joker_choices(book: RuleBook, face: int, filled: frozenset[str] | set[str]
                  ) -> dict[str, int] | None:
    """For five dice of ``face`` with the Yahtzee box filled: the allowed boxes and their
    points under the Joker, or None when the rule set has no Joker (ordinary scoring)."""
    if book.joker == "none":
        return None
    assert book.yahtzee_box in filled, "the Joker needs the Yahtzee box filled"
    dice = [face] * 5
    empty = [b for b in book.card if b not in filled]
    own = UPPER_NAMES[face - 1]
    fixed = {"full_house": 25, "small_straight": 30, "large_straight": 40}
    if book.joker == "free":
        out = {}
        for box in empty:
            if box in fixed and own in filled:
                out[box] = fixed[box]
            else:
                out[box] = yahtzee_score(box, dice)
        return out
    # forced: steps 1, 2 and 3 of docs/rules.md ("The forced Joker, step by step")
    if own not in filled:
        return {own: 5 * face}
    lower = [b for b in empty if b not in UPPER_NAMES]
    if lower:
        return {b: fixed.get(b, sum(dice)) for b in lower}
    return {b: 0 for b in empty}


def placements(book: RuleBook, dice, filled: frozenset[str] | set[str],
               yahtzee_holds_50: bool) -> list[tuple[str, int, int]]:
    """Every allowed (box, points, Yahtzee bonus) for the final ``dice`` on a card whose
    filled boxes are ``filled``, in card order."""
    five_alike = len(set(dice)) == 1
    bonus = book.yahtzee_bonus if five_alike and yahtzee_holds_50 else 0
    if five_alike and book.yahtzee_box in filled:
        joker = joker_choices(book, dice[0], filled)
        if joker is not None:
            return [(b, joker[b], bonus) for b in book.card if b in joker]
    return [(b, ordinary_score(book, b, dice), bonus) for b in book.card if b not in filled]


def upper_after(book: RuleBook, upper: int, box: str, points: int) -> tuple[int, int]:
    """(capped upper subtotal, upper bonus earned now) after ``points`` go in ``box``."""
    if book.face_of(box) == 0:
        return upper, 0
    new = upper + points
    return min(new, UPPER_GOAL), (book.upper_bonus if upper < UPPER_GOAL <= new else 0)


def grand_total(book: RuleBook, entries: dict[str, int], yahtzee_bonuses: int) -> int:
    """Upper entries + upper bonus + lower entries + Yahtzee bonuses (docs/rules.md)."""
    upper = sum(v for b, v in entries.items() if book.face_of(b))
    lower = sum(v for b, v in entries.items() if not book.face_of(b))
    return (upper + (book.upper_bonus if upper >= UPPER_GOAL else 0) + lower
            + book.yahtzee_bonus * yahtzee_bonuses)
