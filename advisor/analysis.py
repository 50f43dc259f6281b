"""Every decision of a recorded game against the best one (``yahtzee analyze``).

The record is replayed through the advisor (:class:`~advisor.ranking.TurnAdvisor`), not
parsed again: each decision's ``chosen`` and ``best`` options are the advisor's own, so
``loss = best - chosen`` equals ``advise``'s loss of that choice.

A game is judged by what its advice maximised (:data:`~advisor.play_win.Judging`): one
objective for every decision (the expected score by default, a target, an opponent), or
``play --objective win``'s objective of each turn (:class:`~advisor.play_win.WinEachTurn`:
the chance to beat the best of the others' cards at that moment, by expected score
before ``win_from`` open boxes). Each decision's loss and luck are in the unit of its own
objective: ``points`` under the expected score, ``probability`` otherwise.

Luck. Write ``V`` for the value of a position under the objective (expected final score
by default). Before a roll the value is known: ``T + E(s)`` at the start of a turn, the
chosen keep's value before a reroll. After it the value is the best option's. The luck
of a roll is ``best after - value before``; a decision's loss is ``best - chosen``. The
chosen box's value is the next turn's starting value, so over a finished game the sum
telescopes: ``total - E(new game) = luck - total_loss`` exactly (objective ``ev``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from solver.errors import InvalidRecordError
from solver.levels import PROGRESS_STEPS
from solver.points_to_come import NEW_GAME_STATE, keep_points_to_come, points_to_come_work
from solver.solved_turn import turn_work
from solver.table import Table, get_table

from .advice import Option
from .caches import Caches, or_new
from .model import Dice, Scorecard
from .objective import EV, POINTS, PROBABILITY, Objective
from .play_win import Judging, WinEachTurn, split_judging
from .ranking import TurnAdvisor, turn_advisor
from .record import GameRecord

ERROR_LOSS = 1e-9
"""A decision losing more than this is an error."""
WORST = 3


@dataclass(frozen=True)
class Judged:
    """One decision: ``chosen`` against ``best`` for ``dice`` with ``rolls_left`` on ``card``,
    judged by ``objective`` (``loss`` and ``luck`` in its unit)."""

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
    objective: Objective = EV

    @property
    def is_error(self) -> bool:
        return self.loss > ERROR_LOSS

    @property
    def unit(self) -> str:
        """``points`` or ``probability``: the unit of ``loss`` and ``luck``."""
        return self.objective.unit

    @property
    def kind(self) -> str:
        """``keep`` or ``box``."""
        return "keep" if self.chosen.is_keep else "box"

    def to_json(self, *, with_objective: bool = False) -> dict[str, Any]:
        out = {"turn": self.turn, "player": self.player, "card": self.card.to_json(),
               "dice": list(self.dice.faces), "rolls_left": self.rolls_left,
               "chosen": self.chosen.to_json(), "best": self.best.to_json(),
               "loss": self.loss, "error": self.is_error, "luck": self.luck,
               "unit": self.unit}
        if with_objective:
            out["objective"] = self.objective.to_json()
        return out


@dataclass(frozen=True)
class Part:
    """The figures of a player's decisions of one unit (``points`` or ``probability``)."""

    unit: str
    decisions: tuple[Judged, ...]

    @property
    def errors(self) -> int:
        return sum(d.is_error for d in self.decisions)

    @property
    def total_loss(self) -> float:
        return sum(d.loss for d in self.decisions)

    @property
    def mean_loss(self) -> float:
        return self.total_loss / len(self.decisions) if self.decisions else 0.0

    @property
    def luck(self) -> float:
        return sum(d.luck for d in self.decisions)

    def split(self, kind: str) -> tuple[int, float]:
        """(decisions, total loss) of one kind, ``keep`` or ``box``."""
        chosen = [d for d in self.decisions if d.kind == kind]
        return len(chosen), float(sum(d.loss for d in chosen))

    @property
    def worst(self) -> tuple[Judged, ...]:
        """The three largest losses (errors only), largest first."""
        errors = [d for d in self.decisions if d.is_error]
        return tuple(sorted(errors, key=lambda d: -d.loss)[:WORST])

    def to_json(self, *, with_objective: bool = False) -> dict[str, Any]:
        keeps, keep_loss = self.split("keep")
        boxes, box_loss = self.split("box")
        return {"decisions": len(self.decisions), "errors": self.errors,
                "total_loss": self.total_loss, "mean_loss": self.mean_loss,
                "luck": self.luck,
                "keep_decisions": keeps, "keep_loss": keep_loss,
                "box_decisions": boxes, "box_loss": box_loss,
                "worst": [d.to_json(with_objective=with_objective) for d in self.worst]}


@dataclass(frozen=True)
class PlayerSummary:
    """One player's figures: the decisions judged in the analysis's unit (``main``), and
    under ``play --objective win`` those judged by expected score before ``--win-from``
    (``by_expected_score``, None when there are none or the unit is points anyway)."""

    name: str
    total: int
    finished: bool
    main: Part
    by_expected_score: Part | None = None

    @property
    def decisions(self) -> tuple[Judged, ...]:
        """Every decision of the player, in playing order."""
        if self.by_expected_score is None:
            return self.main.decisions
        both = self.main.decisions + self.by_expected_score.decisions
        return tuple(sorted(both, key=lambda d: (d.turn, -d.rolls_left)))

    @property
    def errors(self) -> int:
        """Errors in all (both parts)."""
        return self.main.errors + (self.by_expected_score.errors
                                   if self.by_expected_score is not None else 0)

    @property
    def total_loss(self) -> float:
        return self.main.total_loss

    @property
    def mean_loss(self) -> float:
        return self.main.mean_loss

    @property
    def luck(self) -> float:
        return self.main.luck

    def split(self, kind: str) -> tuple[int, float]:
        return self.main.split(kind)

    @property
    def worst(self) -> tuple[Judged, ...]:
        return self.main.worst

    def to_json(self, *, with_objective: bool = False) -> dict[str, Any]:
        out = {"name": self.name, "total": self.total, "finished": self.finished,
               "unit": self.main.unit, **self.main.to_json(with_objective=with_objective)}
        if self.by_expected_score is not None:
            out["by_expected_score"] = self.by_expected_score.to_json(
                with_objective=with_objective)
        return out


@dataclass(frozen=True)
class Analysis:
    """The analysis of a record: every decision in playing order and per-player figures."""

    rules: str
    objective: dict[str, Any]
    decisions: tuple[Judged, ...]
    players: tuple[PlayerSummary, ...]
    new_game: float
    """The value of a new game under the first turn's objective (``E(new game)`` under
    the expected score)."""
    new_game_unit: str = POINTS
    unit: str = POINTS
    """``points`` or ``probability``: the unit of the players' main figures (a win
    objective each turn: probability)."""
    loss_decimals: int = 2
    """Decimals of a loss in percentage points (the objective's: more for a big
    tournament, whose shares of first place are about 1/N)."""

    @property
    def is_ev(self) -> bool:
        """True when losses and luck are in expected points (objective ``ev``)."""
        return self.unit == POINTS

    @property
    def each_turn(self) -> bool:
        """True when every turn had its own objective (``play --objective win``)."""
        return bool(self.objective.get("each_turn"))

    def player(self, name: str) -> PlayerSummary:
        return next(p for p in self.players if p.name == name)

    def to_json(self) -> dict[str, Any]:
        each = self.each_turn
        return {"rules": self.rules, "objective": self.objective, "unit": self.unit,
                "loss_decimals": self.loss_decimals,
                "new_game": self.new_game, "new_game_unit": self.new_game_unit,
                "decisions": [d.to_json(with_objective=each) for d in self.decisions],
                "players": [p.to_json(with_objective=each) for p in self.players]}


Advisors = Callable[[Scorecard, Objective], TurnAdvisor]
"""``advisors(card, objective)``: the turn advisor of a card under an objective."""


def value_of(option: Option, objective: Objective) -> float:
    """The value of choosing ``option``: its expected final score, or its probability."""
    return objective.value_of(option)


def value_before_turn(advisor: TurnAdvisor) -> float:
    """The value of the advisor's card before the turn's first roll."""
    return float(advisor.value_before_turn())


REVIEW_STEPS = PROGRESS_STEPS
"""An analysis reports its progress as ``(done, REVIEW_STEPS)``: the share of its work done."""
DECISION_WORK = 1e7
"""The work of judging one decision once its turn is solved (operations, as
:func:`~solver.solved_turn.turn_work`'s: a few ms)."""
QUIET_RATE = 3e10
"""Operations per second of the target and win DP on a quiet 2-core machine (measured: a
new game's win solve, 1.19e12 operations, in 36 s at a load of 3 to 5)."""


@dataclass(frozen=True)
class TurnToSolve:
    """A turn of the record whose objective is not worked out yet: who, which turn, its
    work (operations of the kernels)."""

    player: str
    turn: int
    work: float


@dataclass(frozen=True)
class ReviewPlan:
    """What a review still has to work out before it can judge: the turns (in playing
    order) and, besides their DPs, the opponents' distributions (``opponents_work``)."""

    turns: tuple[TurnToSolve, ...]
    opponents_work: float
    what: str = "the chance to win"
    """What is worked out: ``the chance to win``, ``P(final score >= 300)``."""

    @property
    def work(self) -> float:
        return self.opponents_work + sum(t.work for t in self.turns)

    @property
    def quiet_seconds(self) -> float:
        """The time it takes on a quiet machine (:data:`QUIET_RATE`)."""
        return self.work / QUIET_RATE


class _Progress:
    """The review's one progress ``(done, REVIEW_STEPS)`` over its known work: the solves
    (each reporting its share), then each decision; each step said once, in order."""

    def __init__(self, progress: Callable[[int, int], None] | None, total: float) -> None:
        self.progress, self.total, self.done, self.said = progress, max(total, 1.0), 0.0, -1

    def say(self, done: float) -> None:
        step = min(int(REVIEW_STEPS * done / self.total), REVIEW_STEPS)
        if self.progress is not None and step > self.said:
            self.said = step
            self.progress(step, REVIEW_STEPS)

    def add(self, work: float) -> None:
        self.done += work
        self.say(self.done)

    def phase(self, work: float) -> Callable[[int, int], None]:
        """The callback of a solve of ``work``: its share ``d / t`` done, as the review's."""
        start = self.done
        self.done += work

        def report(d: int, t: int) -> None:
            self.say(start + work * min(d, t) / max(t, 1))

        return report


def _worked_out(progress: Callable[[int, int], None], solving: Callable[[str], None] | None,
                what: str) -> Callable[[int, int], None]:
    """A solve's progress ``(done, total)``: the review's, and said as ``{what}: N % worked
    out``."""
    def report(done: int, total: int) -> None:
        progress(done, total)
        if solving is not None:
            solving(f"{what}: {100 * done // max(total, 1)} % worked out")
    return report


def _player_cards(turns: list[_Turn], todo: list[int]) -> dict[str, list[tuple[int, int, int]]]:
    """The states of each opponent's cards that the turns ``todo`` play against, by
    player (a chain: each card follows the one before)."""
    chains: dict[str, list[tuple[int, int, int]]] = {}
    for i in todo:
        for name, card in turns[i].others.items():
            if not card.is_full and (card.mask, card.upper, card.flag) != NEW_GAME_STATE:
                chains.setdefault(name, []).append((card.mask, card.upper, card.flag))
    return chains


@dataclass(frozen=True)
class _Turn:
    player: str
    turn: int
    card: Scorecard
    objective: Objective
    others: dict[str, Scorecard]


def analyze(record: GameRecord, objective: Judging = EV, *, table: Table | None = None,
            memory: Caches | None = None, advisors: Advisors | None = None,
            progress: Callable[[int, int], None] | None = None,
            solving: Callable[[str], None] | None = None,
            plan: Callable[[ReviewPlan], None] | None = None) -> Analysis:
    """Judge every decision of ``record`` against the best one; ``objective`` (default: the
    expected score; a :class:`~advisor.play_win.WinEachTurn`: each turn's win objective)
    decides what "best" means, and losses and luck are in its unit (points, or
    probability). ``table`` defaults to the cached table of the rules; ``memory``: the
    caches its solves read and fill (None: a fresh :class:`~advisor.caches.Caches`; pass
    the one of the game's questions so that nothing solved is solved again); ``advisors``
    gives the turn advisors (default: those kept in ``memory``,
    :func:`~advisor.ranking.turn_advisor`).

    Before anything is solved, ``plan(ReviewPlan)`` is told the turns still to work out
    and their work; ``progress(done, REVIEW_STEPS)`` then follows the whole review by its
    work (from ``(0, REVIEW_STEPS)`` at once, in even steps through each solve, then the
    decisions); ``solving(text)`` says how far a turn's solve is (``Ann's turn 3: 40 % worked
    out``, "" when done).
    Each turn is solved once, for all its decisions, the opponents' distributions of a
    player's cards in one pass, and the new game's figure is the first turn's."""
    if not isinstance(record, GameRecord):
        raise InvalidRecordError(f"analyze takes a GameRecord (advisor.record.parse_record, "
                                 f"advisor.record_file.read_record), not "
                                 f"{type(record).__name__}")
    if table is None:
        table = get_table(record.rules)
    fixed, win = split_judging(objective)
    each_turn = win is not None
    memory = or_new(memory)
    if advisors is None:
        advisors = _kept_advisors(table, memory, one_turn=each_turn)
    positions = list(record.positions())
    turns = _turns(record, win, fixed)
    judged_turns = {pos.index for pos in positions}
    made = [advisors(turn.card, turn.objective) if i in judged_turns else None
            for i, turn in enumerate(turns)]
    todo = [i for i, advisor in enumerate(made) if advisor is not None and not advisor.is_solved]
    chains = _player_cards(turns, todo) if each_turn else {}
    works = {i: turn_work(turns[i].card, table, turns[i].objective.goal, memory,
                          opponents=not each_turn)
             for i in todo}  # (each turn's opponents: their cards' passes, below)
    if not each_turn:  # one solve per player's game: the later turns read its vectors
        firsts = {turns[i].player: i for i in reversed(todo)}
        works = {i: work if firsts[turns[i].player] == i else 0.0 for i, work in works.items()}
    review = ReviewPlan(tuple(TurnToSolve(turns[i].player, turns[i].turn, works[i])
                              for i in todo if works[i] > 0),
                        sum(points_to_come_work(table, chain, memory)
                            for chain in chains.values()),
                        "the chance to win" if each_turn else fixed.describe())
    if plan is not None:
        plan(review)
    steps = _Progress(progress, review.work + DECISION_WORK * len(positions))
    steps.say(0)
    for chain in chains.values():  # each player's cards in one pass
        work = points_to_come_work(table, chain, memory)
        if work:
            keep_points_to_come(table, chain, memory, steps.phase(work))
    for i in todo:  # (their opponents' distributions are kept now: the DP's work only)
        turn, advisor = turns[i], made[i]
        assert advisor is not None
        advisor.solve(_worked_out(steps.phase(works[i]), solving,
                                  f"{turn.player}'s turn {turn.turn}"))
    if solving is not None and todo:
        solving("")
    judged: list[Judged] = []
    before, index, advisor = 0.0, -1, None
    for pos in positions:
        if pos.index != index:  # a turn starts
            index = pos.index
            advisor = made[index]
            assert advisor is not None  # (every position is of a judged turn)
            before = value_before_turn(advisor)
        assert advisor is not None
        here = advisor.objective
        chosen, top = advisor.chosen_and_best(pos.dice, pos.rolls_left, pos.move)
        if chosen is None:  # (checked when the record was read)
            raise InvalidRecordError(f"{pos.move} is not a choice for {pos.dice}")
        best = value_of(top, here)
        judged.append(Judged(pos.turn, pos.player, pos.card, pos.dice, pos.rolls_left, chosen,
                             top, best - value_of(chosen, here), best - before, here))
        before = value_of(chosen, here)
        steps.add(DECISION_WORK)
    steps.say(steps.total)
    final = record.cards()
    main = fixed.unit if win is None else PROBABILITY
    players = []
    for name in record.players:
        mine = [d for d in judged if d.player == name]
        other = tuple(d for d in mine if d.unit != main)
        players.append(PlayerSummary(name, final[name].total, final[name].is_full,
                                     Part(main, tuple(d for d in mine if d.unit == main)),
                                     Part(POINTS, other) if other else None))
    first = Scorecard.new(record.rules)
    opening = (win.objective_for({n: first for n in record.players}, record.players[0])
               if win is not None else fixed)
    opener = (made[0] if made and made[0] is not None and turns[0].card == first
              and turns[0].objective == opening
              else advisors(first, opening))  # (the first turn's, not solved again)
    return Analysis(record.rules, objective.to_json(), tuple(judged), tuple(players),
                    value_before_turn(opener), opening.unit, main, fixed.loss_decimals)


def _turns(record: GameRecord, win: WinEachTurn | None, fixed: Objective) -> list[_Turn]:
    """Each turn of the record: who, which, the card, its objective and the others' cards."""
    cards = _cards_before_turns(record)
    out = []
    for turn, before in zip(record.turns, cards, strict=True):
        here = (win.objective_for(before, turn.player) if win is not None else fixed)
        others = {name: card for name, card in before.items() if name != turn.player}
        out.append(_Turn(turn.player, before[turn.player].turn, before[turn.player], here,
                         others))
    return out


def _cards_before_turns(record: GameRecord) -> list[dict[str, Scorecard]]:
    """Every player's card (in playing order) before each turn of the record."""
    cards = {name: Scorecard.new(record.rules) for name in record.players}
    out = []
    for turn in record.turns:
        out.append(dict(cards))
        if turn.box is not None:
            cards[turn.player] = cards[turn.player].place(turn.rolls[-1], turn.box)
    return out


def _kept_advisors(table: Table, memory: Caches, *, one_turn: bool) -> Advisors:
    """The turn advisors kept in ``memory`` (:func:`~advisor.ranking.turn_advisor`);
    ``one_turn``: a probability objective's solve keeps no vectors for later turns."""
    def advisor(card: Scorecard, objective: Objective) -> TurnAdvisor:
        if not one_turn or not objective.solves_turns:
            return turn_advisor(card, table, objective, memory=memory)
        return turn_advisor(card, table, objective, memory=memory, build=lambda t: TurnAdvisor(
            card, t, objective, memory=memory, whole_game=False))
    return advisor
