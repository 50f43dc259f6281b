"""The answer to a turn's question: its options (:class:`Option`), ranked
(:class:`Advice`), and their text. Worked out by :mod:`advisor.ranking`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solver.errors import InvalidOptionError
from solver.game.move import Move

from .model import Dice, Keep, Scorecard, box_label
from .objective import EV, Objective
from .text import rolls_left_phrase
from .why import Outcome


@dataclass(frozen=True)
class Option:
    """One choice of a turn: keep some dice and reroll, or score a box now.

    ``expected_final`` is the card's total plus the points expected to come after this
    choice under optimal play; ``loss`` is how much less that is than the option with
    the highest ``expected_final``. Under a target objective ``p_target`` is the
    probability of reaching the target after this choice (then playing for it); under a
    win objective ``win_share`` the chance to win, a tie counting as a share (half a win
    against one opponent, ``1/k`` when ``k`` players tie at the top) (None under the
    expected-score objective).
    """

    action: str
    expected_final: float
    loss: float = 0.0
    keep: Keep | None = None
    box: str | None = None
    points: int = 0
    bonus: int = 0
    p_target: float | None = None
    win_share: float | None = None
    p_loss: float | None = None
    outcome: Outcome | None = None
    """What the option leads to (:mod:`advisor.why`), when asked for (``why=True``)."""

    def __post_init__(self) -> None:
        if self.action not in ("keep", "score"):
            raise InvalidOptionError(f"action {self.action!r}: use 'keep' or 'score'")
        if (self.action == "keep") != (self.keep is not None) or \
                (self.action == "score") != (self.box is not None):
            raise InvalidOptionError("a keep option needs keep=..., a score option box=...")

    @property
    def is_keep(self) -> bool:
        return self.action == "keep"

    @property
    def move(self) -> Move:
        """This option as a :class:`~solver.game.move.Move` (``Move.parse(describe())``
        equals it)."""
        if self.keep is not None:
            return Move(keep=self.keep.faces)
        return Move(box=self.box)

    def describe(self) -> str:
        """``keep 2 2 2``, ``reroll all``, ``score Twos 6`` or ``score Chance 30 +100 bonus``."""
        if self.keep is not None:
            if not self.keep.faces:
                return "reroll all"
            return f"keep {self.keep.spaced()}"
        text = f"score {box_label(self.box or '')} {self.points}"
        return text + (f" +{self.bonus} bonus" if self.bonus else "")

    def __str__(self) -> str:
        return self.describe()

    @property
    def probability(self) -> float | None:
        """The objective's probability (``p_target`` or ``win_share``), None for ``ev``."""
        return self.p_target if self.p_target is not None else self.win_share

    def to_json(self) -> dict[str, Any]:
        if self.keep is not None:
            out: dict[str, Any] = {"action": "keep", "keep": list(self.keep.faces),
                                   "expected_final": self.expected_final, "loss": self.loss}
        else:
            out = {"action": "score", "box": self.box, "points": self.points,
                   "expected_final": self.expected_final, "bonus": self.bonus,
                   "loss": self.loss}
        for key in ("p_target", "win_share", "p_loss"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.outcome is not None:
            out["outcome"] = self.outcome.to_json()
        return out


@dataclass(frozen=True, repr=False)
class Advice:
    """Every distinct choice for ``dice`` on ``card`` with ``rolls_left``, best first."""

    card: Scorecard
    dice: Dice
    rolls_left: int
    options: tuple[Option, ...] = ()
    objective: Objective = EV
    outcome_strategy: dict[str, Any] | None = None
    """Whose play the options' outcomes follow (``{"kind": "ev"}`` or the objective's),
    None without outcomes."""

    @property
    def best(self) -> Option:
        return self.options[0]

    @property
    def ev_best(self) -> Option:
        """The option with the highest expected final score (the first listed, on ties)."""
        return min(self.options, key=lambda o: o.loss)

    def top(self, n: int | None) -> tuple[Option, ...]:
        """The ``n`` best options (all when ``n`` is None or 0)."""
        return self.options[:n] if n else self.options

    SHOWN = 3
    """Options ``str(advice)`` lists."""

    def __str__(self) -> str:
        """A short summary: the question, the best options and how many there are."""
        card = self.card
        left = f"{self.rolls_left} roll{'' if self.rolls_left == 1 else 's'} left"
        where = f"card {card}" if card.turn > 1 else "a new game"
        lines = [f"dice {self.dice.spaced()}, {left}, {where} ({card.rules_name}"
                 + ("" if (by := self.objective.ranked_by) is None else f", {by}") + "):"]
        lines += advice_table(self, self.SHOWN, more_hint="advice.options holds them all")
        return "\n".join(lines)

    def __repr__(self) -> str:
        """``advise(Scorecard.parse(...), Dice(...), rolls_left=N)``: the call that gives
        this advice again (with the names of :mod:`advisor` imported)."""
        objective = "" if self.objective == EV else f", objective={self.objective!r}"
        why = "" if self.outcome_strategy is None else ", why=True"
        return (f"advise({self.card!r}, {self.dice!r}, rolls_left={self.rolls_left}"
                f"{objective}{why})")

    def to_json(self, top: int | None = None) -> dict[str, Any]:
        out = {"rules": self.card.rules_name, "objective": self.objective.to_json(),
               "dice": list(self.dice.faces), "rolls_left": self.rolls_left,
               "card": self.card.to_json(), "options": [o.to_json() for o in self.top(top)]}
        if self.outcome_strategy is not None:
            out["outcome_strategy"] = self.outcome_strategy
        return out



def advice_table(advice: Advice, top: int | None = None, *,
                 more_hint: str = "--top 0 shows all") -> list[str]:
    """The ranked options as aligned lines, best first. Ranked by expected score: the
    expected final score and the loss in points. Ranked by a probability (the chance of
    the target, or the chance to win with a tie counted as a share): that probability,
    the loss in percentage points of it (0.40: 0.4 % less chance), then the expected
    final score. ``more_hint`` says how to see the hidden ones."""
    options = advice.top(top)
    columns = advice.objective.option_columns()
    width = max(24, *(len(o.describe()) for o in options))
    lines = [f"  #  {'choice':<{width}}"
             + "".join(f"{c.gap}{c.heading:>{c.width}}" for c in columns)]
    for rank, option in enumerate(options, start=1):
        lines.append(f"{rank:>3}  {option.describe():<{width}}"
                     + "".join(f"{c.gap}{c.cell(option):>{c.width}}" for c in columns))
        if option.outcome is not None:
            lines.append(f"     {option.outcome.line()}")
    hidden = len(advice.options) - len(options)
    if hidden:
        lines.append(f"     ... {hidden} more ({more_hint})")
    return lines


def advice_report(advice: Advice, top: int | None = None) -> list[str]:
    """Header (rules, card, dice, rolls left) and the ranked options."""
    card = advice.card
    per_turn = card.rules.rolls_per_turn
    objective = advice.objective
    lines = [
        f"rules {card.rules_name} | turn {card.turn} of {card.rules.n_boxes} | "
        f"card total {card.total}",
        f"dice {advice.dice.spaced()} | "
        f"{rolls_left_phrase(advice.rolls_left, per_turn)}",
    ]
    if objective.ranked_by is not None:
        lines.append(f"ranked by {objective.ranked_by}")
    if advice.outcome_strategy is not None:
        lines.append(why_heading(advice))
    lines += ["", *advice_table(advice, top), "", f"best: {advice.best.describe()}"]
    if objective.ranked_by is not None:  # (else the best is the expected score's)
        ev_best = advice.ev_best
        if ev_best is not advice.best and ev_best.describe() != advice.best.describe():
            lines.append(f"for the most points on average: {ev_best.describe()} "
                         f"(expected final {ev_best.expected_final:.2f})")
        else:
            lines.append("(also the best choice for the most points on average)")
    return lines


def why_heading(advice: Advice) -> str:
    """What the line under each option says, and whose play it follows."""
    whose = "optimal play from then on"
    strategy = advice.outcome_strategy or {}
    if strategy.get("kind") == "target":
        whose = f"play for {advice.objective.describe()} (the last turn)"
    elif advice.objective.ranked_by is not None:
        whose = "play for the expected score from then on (not for the target)"
    return (f"under each choice, with {whose}: the box it fills this turn (\"0 in\" a box: "
            f"filled with 0 points); by the end, the "
            f"upper bonus, 50 in the Yahtzee box, the Yahtzee bonuses; the SD of the final "
            f"score")
