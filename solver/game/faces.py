"""Value objects of the dice: five dice showing (``Dice``) and the dice kept (``Keep``).

Each is frozen, hashable and validated when built, has a text form that parses back
(``Dice("22256")``, ``str(dice) == "22256"``) and a ``repr`` that is a working
constructor. Bad input raises a ``ValueError`` subclass from :mod:`solver.errors`
whose message says what was wrong and what is accepted.
"""

from __future__ import annotations

import itertools
import operator
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Self

from ..errors import IllegalMoveError, InvalidDiceError, shown
from .dice import DICE, FACES, KEEP_INDEX, ROLL_INDEX, counts_of

_ITEM_SEPARATOR = re.compile(r"[ \t]*,[ \t]*|[ \t]+")
_NO_DICE = frozenset({"", "-", "none", "nothing"})
_FACE = re.compile(r"[1-6]")


def parse_faces(text: str, what: str = "dice") -> tuple[int, ...]:
    """Faces from ``22256``, ``2,2,2,5,6`` or ``2 2 2 5 6`` (any count; not checked).

    Only the ASCII digits 1 to 6 are faces; items are separated by commas or spaces,
    and an empty item (``22256,``, ``2,,2``) is refused.
    """
    cleaned = text.strip(" \t")
    if cleaned.lower() in _NO_DICE:
        return ()
    hint = "write dice as 22256, 2,2,2,5,6 or '2 2 2 5 6'"
    parts = _ITEM_SEPARATOR.split(cleaned)
    if len(parts) == 1:
        parts = list(parts[0])
    faces = []
    for part in parts:
        if not part:
            raise InvalidDiceError(f"{what} {shown(text)}: an empty item (a comma too many); "
                                   f"{hint}")
        if not _FACE.fullmatch(part):
            raise InvalidDiceError(f"{what} {shown(text)}: {shown(part, 20)} is not a face; "
                                   f"faces are 1 to 6, ASCII digits ({hint})")
        faces.append(int(part))
    return tuple(faces)


def _checked_faces(value: str | Iterable[int], what: str) -> tuple[int, ...]:
    if isinstance(value, str):
        return tuple(sorted(parse_faces(value, what)))
    try:
        given = tuple(itertools.islice(value, DICE + 1))  # more than five: refused below
    except TypeError:
        raise InvalidDiceError(f"{what} {shown(str(value))}: give text such as 22256 or "
                               f"a sequence of faces 1 to 6") from None
    faces = []
    for f in given:
        try:
            face = operator.index(f)
        except TypeError:
            face = 0
        if isinstance(f, bool) or not 1 <= face <= FACES:
            raise InvalidDiceError(f"{what} {shown(str(given))}: {shown(str(f), 20)} is not a "
                                   f"face; faces are 1 to 6")
        faces.append(face)
    return tuple(sorted(faces))


def _as_given(value: object, faces: tuple[int, ...]) -> str:
    """Faces in a message: the text typed, or a sequence written as faces are typed
    (``'2 2 2 5'``), never as a Python value."""
    return shown(value if isinstance(value, str) else " ".join(map(str, faces)))


def _dice(n: int) -> str:
    return f"{n} die" if n == 1 else f"{n} dice"


@dataclass(frozen=True, repr=False)
class _Faces:
    """Sorted faces 1..6; subclasses check how many."""

    faces: tuple[int, ...]

    @classmethod
    def parse(cls, text: str) -> Self:
        return cls(text)  # type: ignore[arg-type]

    @property
    def counts(self) -> tuple[int, ...]:
        """Dice per face (6 ints)."""
        return counts_of(self.faces)

    def spaced(self) -> str:
        """The faces separated by spaces: ``2 2 2 5 6``."""
        return " ".join(map(str, self.faces))

    def __len__(self) -> int:
        return len(self.faces)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({''.join(map(str, self.faces))!r})"


@dataclass(frozen=True, repr=False)
class Dice(_Faces):
    """Five dice, sorted: ``Dice("22256")``, ``Dice("2 2 2 5 6")`` or ``Dice([2, 2, 2, 5, 6])``."""

    def __post_init__(self) -> None:
        faces = _checked_faces(self.faces, "dice")
        if len(faces) != DICE:
            raise InvalidDiceError(f"dice {_as_given(self.faces, faces)}: "
                                   f"{_dice(len(faces))} given, need exactly {DICE} faces "
                                   f"1 to 6 (e.g. 22256)")
        object.__setattr__(self, "faces", faces)

    @property
    def roll_index(self) -> int:
        """Index of this roll in :data:`solver.game.dice.ROLLS`."""
        return ROLL_INDEX[self.counts]

    def contains(self, keep: Keep) -> bool:
        """True when ``keep`` is a sub-multiset of these dice."""
        return all(k <= d for k, d in zip(keep.counts, self.counts, strict=True))

    def __str__(self) -> str:
        return "".join(map(str, self.faces))


@dataclass(frozen=True, repr=False)
class Keep(_Faces):
    """Dice held before a reroll, 0 to 5 of them: ``Keep("222")``; ``Keep("")`` holds none."""

    def __post_init__(self) -> None:
        faces = _checked_faces(self.faces, "keep")
        if len(faces) > DICE:
            raise IllegalMoveError(f"keep {_as_given(self.faces, faces)}: {len(faces)} dice, "
                                   f"at most {DICE}")
        object.__setattr__(self, "faces", faces)

    @property
    def index(self) -> int:
        """Index of this keep in :data:`solver.game.dice.KEEP_COUNTS`."""
        return KEEP_INDEX[self.counts]

    def __str__(self) -> str:
        return "".join(map(str, self.faces)) or "none"
