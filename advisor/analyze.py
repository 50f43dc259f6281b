"""Every decision of a recorded game against the best one (``yahtzee analyze``).

The record is replayed through the advisor (:class:`~advisor.advise.TurnAdvisor`), not
parsed again: each decision's ``chosen`` and ``best`` options are the advisor's own, so
``loss = best - chosen`` equals ``advise``'s loss of that choice.

Luck. Write ``V`` for the value of a position under the objective (expected final score
by default). Before a roll the value is known: ``T + E(s)`` at the start of a turn, the
chosen keep's value before a reroll. After it the value is the best option's. The luck
of a roll is ``best after - value before``; a decision's loss is ``best - chosen``. The
chosen box's value is the next turn's starting value, so over a finished game the sum
telescopes: ``total - E(new game) = luck - total_loss`` exactly (objective ``ev``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from solver.errors import InvalidRecordError

from .advise import Advice, Option, TurnAdvisor, turn_advisor
from .model import Dice, Scorecard
from .objective import EV, Objective
from .record import GameRecord

if TYPE_CHECKING:
    from solver.table import Table

ERROR_LOSS = 1e-9
"""A decision losing more than this is an error."""
WORST = 3


@dataclass(frozen=True)
class Judged:
    """One decision: ``chosen`` against ``best`` for ``dice`` with ``rolls_left`` on ``card``."""

    turn: int
    player: str
    card: Scorecard
    dice: Dice
    rolls_left: int
    chosen: Option
    best: Option
    loss: float
    luck: float
    """What the roll that showed ``dice`` changed in the value (see the module docstring)."""

    @property
    def is_error(self) -> bool:
        return self.loss > ERROR_LOSS

    @property
    def kind(self) -> str:
        """``keep`` or ``box``."""
        return "keep" if self.chosen.is_keep else "box"

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "player": self.player, "card": self.card.to_json(),
                "dice": list(self.dice.faces), "rolls_left": self.rolls_left,
                "chosen": self.chosen.to_json(), "best": self.best.to_json(),
                "loss": self.loss, "error": self.is_error, "luck": self.luck}


@dataclass(frozen=True)
class PlayerSummary:
    """One player's figures: decisions, errors, losses, luck, the worst decisions."""

    name: str
    total: int
    finished: bool
    decisions: tuple[Judged, ...]
    luck: float

    @property
    def errors(self) -> int:
        return sum(d.is_error for d in self.decisions)

    @property
    def total_loss(self) -> float:
        return sum(d.loss for d in self.decisions)

    @property
    def mean_loss(self) -> float:
        return self.total_loss / len(self.decisions) if self.decisions else 0.0

    def split(self, kind: str) -> tuple[int, float]:
        """(decisions, total loss) of one kind, ``keep`` or ``box``."""
        chosen = [d for d in self.decisions if d.kind == kind]
        return len(chosen), float(sum(d.loss for d in chosen))

    @property
    def worst(self) -> tuple[Judged, ...]:
        """The three largest losses (errors only), largest first."""
        errors = [d for d in self.decisions if d.is_error]
        return tuple(sorted(errors, key=lambda d: -d.loss)[:WORST])

    def to_json(self) -> dict[str, Any]:
        keeps, keep_loss = self.split("keep")
        boxes, box_loss = self.split("box")
        return {"name": self.name, "total": self.total, "finished": self.finished,
                "decisions": len(self.decisions), "errors": self.errors,
                "total_loss": self.total_loss, "mean_loss": self.mean_loss,
                "luck": self.luck,
                "keep_decisions": keeps, "keep_loss": keep_loss,
                "box_decisions": boxes, "box_loss": box_loss,
                "worst": [d.to_json() for d in self.worst]}


@dataclass(frozen=True)
class Analysis:
    """The analysis of a record: every decision in playing order and per-player figures."""

    rules: str
    objective: dict[str, Any]
    decisions: tuple[Judged, ...]
    players: tuple[PlayerSummary, ...]
    new_game: float
    """The value of a new game, ``E(new game)`` under the objective."""

    @property
    def is_ev(self) -> bool:
        """True when losses and luck are in expected points (objective ``ev``)."""
        return self.objective.get("kind", "ev") == "ev"

    def player(self, name: str) -> PlayerSummary:
        return next(p for p in self.players if p.name == name)

    def to_json(self) -> dict[str, Any]:
        return {"rules": self.rules, "objective": self.objective, "new_game": self.new_game,
                "decisions": [d.to_json() for d in self.decisions],
                "players": [p.to_json() for p in self.players]}


class _Measure:
    """How positions are valued: the expected final score (objective ``ev``), or the
    probability the objective maximises (``p_target``, ``p_win``)."""

    def __init__(self, table: Table, objective: Objective) -> None:
        self.table = table
        self.objective = objective
        self.key = objective.key

    def advisor(self, card: Scorecard) -> TurnAdvisor:
        return turn_advisor(card, self.table, self.objective)

    def of(self, option: Option) -> float:
        """The value of choosing ``option``."""
        return option.expected_final if self.key is None else float(getattr(option, self.key))

    def before_turn(self, advisor: TurnAdvisor) -> float:
        """The value of the card before the turn's first roll."""
        card = advisor.card
        if self.key is None:
            return card.total + self.table.value(card.mask, card.upper, card.flag)
        return float(advisor.probability()[0])

    def new_game(self, rules: str) -> float:
        if self.key is None:
            return self.table.expected_score
        return self.before_turn(self.advisor(Scorecard.new(rules)))

def analyze(record: GameRecord, objective: Objective = EV, *, table: Table | None = None
            ) -> Analysis:
    """Judge every decision of ``record`` against the best one; ``objective`` (default: the
    expected score) decides what "best" means, and losses and luck are in its unit
    (points, or probability). ``table`` defaults to the cached table of the rules."""
    if not isinstance(record, GameRecord):
        raise InvalidRecordError(f"analyze takes a GameRecord (advisor.record.parse_record, "
                                 f"advisor.record_file.read_record), not "
                                 f"{type(record).__name__}")
    if table is None:
        from solver.table import get_table

        table = get_table(record.rules)
    measure = _Measure(table, objective)
    judged: list[Judged] = []
    luck = {name: 0.0 for name in record.players}
    before, turn = 0.0, -1
    for pos in record.positions():
        if pos.index != turn:  # a turn starts
            advisor, turn = measure.advisor(pos.card), pos.index
            before = measure.before_turn(advisor)
        advice = advisor.advise(pos.dice, pos.rolls_left)
        chosen = _chosen(advice, pos.move)
        best = measure.of(advice.best)
        roll_luck = best - before
        luck[pos.player] += roll_luck
        judged.append(Judged(pos.turn, pos.player, pos.card, pos.dice, pos.rolls_left, chosen,
                             advice.best, best - measure.of(chosen), roll_luck))
        before = measure.of(chosen)
    cards = record.cards()
    players = tuple(PlayerSummary(name, cards[name].total, cards[name].is_full,
                                  tuple(d for d in judged if d.player == name), luck[name])
                    for name in record.players)
    return Analysis(record.rules, objective.to_json(), tuple(judged), players,
                    measure.new_game(record.rules))


def _chosen(advice: Advice, move: Any) -> Option:
    for option in advice.options:
        if option.move == move:
            return option
    raise InvalidRecordError(f"{move} is not a choice for {advice.dice}")  # checked earlier
