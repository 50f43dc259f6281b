"""Scoring boxes: a name, aliases, a plain-words description and a scoring function.

A scoring function maps the counts per face of a roll (six ints) to the box's points for
an ordinary roll (the Joker is a rule-set matter, see ``rules.py``). The descriptions
are what ``yahtzee rules`` prints, next to examples scored by the same functions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

Counts = tuple[int, ...]


@dataclass(frozen=True)
class Box:
    """One box of a scorecard."""

    name: str
    aliases: tuple[str, ...]
    description: str
    score: Callable[[Counts], int]
    face: int = 0
    """1..6 for an upper box (its face), 0 for a lower box."""

    @property
    def is_upper(self) -> bool:
        return self.face > 0


def _total(c: Counts) -> int:
    return sum((f + 1) * n for f, n in enumerate(c))


def _has_run(c: Counts, length: int) -> bool:
    run = 0
    for n in c:
        run = run + 1 if n else 0
        if run >= length:
            return True
    return False


def _upper(face: int, name: str, aliases: tuple[str, ...]) -> Box:
    def score(c: Counts) -> int:
        return face * c[face - 1]

    return Box(name, aliases, f"the sum of the dice showing {face}", score, face=face)


_UPPER_NAMES = ("aces", "twos", "threes", "fours", "fives", "sixes")


def upper_boxes(first_name: str) -> tuple[Box, ...]:
    """The six upper boxes; ``first_name`` is ``aces`` (Yahtzee) or ``ones`` (Yatzy)."""
    names = (first_name,) + _UPPER_NAMES[1:]
    boxes = []
    for face, name in enumerate(names, start=1):
        aliases = tuple(a for a in (_UPPER_NAMES[face - 1], "ones" if face == 1 else "",
                                    f"{face}s") if a and a != name)
        boxes.append(_upper(face, name, aliases))
    return tuple(boxes)


# Yahtzee's lower section (1996 Hasbro sheet).
THREE_OF_A_KIND = Box("three_of_a_kind", ("3k",),
    "at least three dice alike: the sum of all five dice",
    lambda c: _total(c) if max(c) >= 3 else 0)
FOUR_OF_A_KIND = Box("four_of_a_kind", ("4k",),
    "at least four dice alike: the sum of all five dice",
    lambda c: _total(c) if max(c) >= 4 else 0)
FULL_HOUSE = Box("full_house", ("fh",),
    "three of one face and two of a different face: 25",
    lambda c: 25 if sorted(n for n in c if n) == [2, 3] else 0)
SMALL_STRAIGHT = Box("small_straight", ("ss",),
    "four faces in a row (1-2-3-4, 2-3-4-5 or 3-4-5-6): 30",
    lambda c: 30 if _has_run(c, 4) else 0)
LARGE_STRAIGHT = Box("large_straight", ("ls",),
    "five faces in a row (1-2-3-4-5 or 2-3-4-5-6): 40",
    lambda c: 40 if _has_run(c, 5) else 0)
YAHTZEE = Box("yahtzee", ("yz",),
    "all five dice alike: 50", lambda c: 50 if max(c) == 5 else 0)
CHANCE = Box("chance", ("ch",),
    "anything: the sum of all five dice", _total)


# Yatzy's lower section (Scandinavian rules).
def _pairs(c: Counts) -> list[int]:
    return [f + 1 for f in range(6) if c[f] >= 2]


def _of_a_kind(c: Counts, n: int) -> int:
    faces = [f + 1 for f in range(6) if c[f] >= n]
    return n * max(faces) if faces else 0


ONE_PAIR = Box("one_pair", ("pair", "1p"),
    "two dice of the highest face shown at least twice: their sum",
    lambda c: 2 * max(_pairs(c)) if _pairs(c) else 0)
TWO_PAIRS = Box("two_pairs", ("2p",),
    "two different faces each shown at least twice: two dice of each, summed",
    lambda c: 2 * sum(_pairs(c)) if len(_pairs(c)) == 2 else 0)
YATZY_THREE = Box("three_of_a_kind", ("3k",),
    "three dice of a face shown at least three times: their sum",
    lambda c: _of_a_kind(c, 3))
YATZY_FOUR = Box("four_of_a_kind", ("4k",),
    "four dice of a face shown at least four times: their sum",
    lambda c: _of_a_kind(c, 4))
YATZY_SMALL = Box("small_straight", ("ss",),
    "exactly 1-2-3-4-5: 15",
    lambda c: 15 if tuple(c) == (1, 1, 1, 1, 1, 0) else 0)
YATZY_LARGE = Box("large_straight", ("ls",),
    "exactly 2-3-4-5-6: 20",
    lambda c: 20 if tuple(c) == (0, 1, 1, 1, 1, 1) else 0)
YATZY_FULL_HOUSE = Box("full_house", ("fh",),
                       "exactly three of one face and two of another: the sum of all five dice",
    lambda c: _total(c) if sorted(n for n in c if n) == [2, 3] else 0)
YATZY = Box("yatzy", ("yz",),
    "all five dice alike: 50", lambda c: 50 if max(c) == 5 else 0)
