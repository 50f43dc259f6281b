"""One move of a turn: keep these dice and reroll the rest, or fill this box.

A :class:`Move` is a frozen value with a text form that parses back
(``Move.parse(str(m)) == m``) and a ``repr`` that is a working constructor::

    >>> Move.parse("keep 2 2 2")
    Move.parse('keep 222')
    >>> Move.parse("s 3k")
    Move(box='three_of_a_kind')

Accepted text (case and extra spaces do not matter):

- keeps: ``keep 222``, ``keep 2 2 2``, ``k 222``, ``hold 222``; no dice kept:
  ``reroll all``, ``reroll``, ``keep -``, ``keep none``;
- boxes: ``score twos``, ``s 2s``, ``put twos``, a bare box name or alias (``twos``),
  and the advisor's own wording ``score Three of a Kind 17`` or
  ``score Chance 30 +100 bonus`` (the points are kept in :attr:`Move.points` for the
  caller to check; they are not part of the move).

Whether a move is legal depends on the dice and the card; that is checked where they
are known (``advisor.play``, ``advisor.record``, the simulator).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import IllegalMoveError, InvalidMoveError, YahtzeeError, shown
from .dice import DICE, FACES
from .rules import DEFAULT_RULES, RULE_NAMES, RuleSet, get_rules

KEEP_WORDS = ("keep", "k", "hold")
SCORE_WORDS = ("score", "s", "put")
REROLL_ALL = ("reroll all", "reroll", "keep none", "keep nothing", "keep -", "k -", "none")
_NO_DICE = frozenset({"", "-", "none", "nothing"})
_CLAIM = re.compile(r"^(?P<name>.*?)(?:\s+(?P<points>\d+)(?:\s*\+\s*(?P<bonus>\d+)\s+bonus)?)?$")


@dataclass(frozen=True, repr=False)
class Move:
    """Keep ``keep`` (sorted faces, 0 to 5 dice) and reroll the rest, or fill ``box``.

    Exactly one of ``keep`` and ``box`` is set; ``box`` is the canonical box name
    (``three_of_a_kind``). Build one with :meth:`parse`, :meth:`keeping` or
    :meth:`scoring`.
    """

    keep: tuple[int, ...] | None = None
    box: str | None = None
    points: int | None = field(default=None, compare=False)
    """Points the text claimed for a box (``score twos 6``), else None; not compared."""

    def __post_init__(self) -> None:
        if (self.keep is None) == (self.box is None):
            raise InvalidMoveError("a move keeps dice or fills a box: give exactly one of "
                                   "keep=... and box=...")
        if self.keep is not None:
            faces = tuple(sorted(int(f) for f in self.keep))
            if any(not 1 <= f <= FACES for f in faces) or len(faces) > DICE:
                raise InvalidMoveError(f"keep {self.keep!r}: 0 to {DICE} faces 1 to 6")
            object.__setattr__(self, "keep", faces)

    # ------------------------------------------------------------------ building
    @classmethod
    def keeping(cls, faces: str | tuple[int, ...] | list[int]) -> Move:
        """Keep these faces (``"222"``, ``"2 2 2"``, ``"-"`` or ``(2, 2, 2)``)."""
        if isinstance(faces, str):
            return cls(keep=_faces(faces, f"keep {faces}"))
        return cls(keep=tuple(faces))

    @classmethod
    def scoring(cls, box: str, rules: str | RuleSet | None = None) -> Move:
        """Fill ``box`` (a name or alias, any case; checked against ``rules`` if given)."""
        return cls(box=canonical_box(box, rules))

    @classmethod
    def parse(cls, text: str, rules: str | RuleSet | None = None) -> Move:
        """The move written as ``text`` (see the module docstring for the forms)."""
        line = " ".join(str(text).strip().lower().split())
        if not line:
            raise InvalidMoveError("empty move: write e.g. 'keep 222', 'reroll all' or "
                                   "'score twos'")
        if line in REROLL_ALL:
            return cls(keep=())
        word, _, rest = line.partition(" ")
        if word in KEEP_WORDS:
            return cls(keep=_faces(rest, shown(text)))
        if word in SCORE_WORDS and rest:
            line = rest
        claim = _CLAIM.match(line)
        assert claim is not None  # the pattern matches any text
        name = claim["name"] if claim["name"] else line
        try:
            box = canonical_box(name, rules)
        except YahtzeeError as exc:
            guess = get_rules(rules or DEFAULT_RULES).closest_box(name)
            if guess is not None:
                raise InvalidMoveError(f"{shown(text)} is not a move: did you mean 'score "
                                       f"{guess}'? (a box name or short name, see `yahtzee rules`)"
                                       ) from None
            raise InvalidMoveError(f"{shown(text)} is not a move: write 'keep 222', 'reroll "
                                   f"all', or 'score BOX' ({exc})") from None
        points = int(claim["points"]) if claim["name"] and claim["points"] else None
        return cls(box=box, points=points)

    # ------------------------------------------------------------------ reading
    @property
    def is_keep(self) -> bool:
        return self.keep is not None

    def record_token(self) -> str:
        """The token of a game record: kept faces (``222``, ``-`` for none) or the box."""
        if self.keep is not None:
            return "".join(map(str, self.keep)) or "-"
        return str(self.box)

    def __str__(self) -> str:
        if self.keep is not None:
            return f"keep {''.join(map(str, self.keep))}" if self.keep else "reroll all"
        return f"score {self.box}"

    def __repr__(self) -> str:
        if self.keep is not None:
            return f"Move.parse({str(self)!r})"
        # the box by its canonical name, not its text: ``Move.parse('score ones')`` is
        # the aces of the default rules, not the ones of Yatzy
        return f"Move(box={self.box!r})"


def canonical_box(name: str, rules: str | RuleSet | None = None) -> str:
    """The canonical name of box ``name`` (any alias, case, ``-``, ``_`` or spaces).

    With ``rules`` the box must belong to that rule set; without, to any rule set.
    """
    if rules is not None:
        ruleset = get_rules(rules)
        return ruleset.boxes[ruleset.box_index(name)].name
    errors = []
    for candidate in (DEFAULT_RULES, *RULE_NAMES):
        try:
            return canonical_box(name, candidate)
        except YahtzeeError as exc:
            errors.append(exc)
    raise errors[0]


def _faces(text: str, what: str) -> tuple[int, ...]:
    cleaned = text.strip()
    if cleaned in _NO_DICE:
        return ()
    digits = re.sub(r"[\s,]+", "", cleaned)
    if not digits.isascii() or not digits.isdigit() or any(not "1" <= d <= "6" for d in digits):
        raise InvalidMoveError(f"{what}: {shown(cleaned, 40)} is not dice to keep; write faces "
                               f"1 to 6 such as 222, or '-' for none")
    if len(digits) > DICE:
        raise IllegalMoveError(f"{what}: {len(digits)} dice, at most {DICE}")
    return tuple(int(d) for d in digits)
