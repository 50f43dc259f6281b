"""Practice (``yahtzee train``): positions to decide, each answer graded exactly.

A session is a list of :class:`Position` (a card, the dice showing, the rolls left),
drawn either from games that optimal play plays (:func:`positions_of_play`: seeded
simulated games, one decision of each, uniformly among its decisions that offer a
choice) or from the player's own records (:func:`positions_of_records`: the decisions
that lost the most). The player answers each as in ``yahtzee play`` (a move, or a
number of the neutral list of :func:`choices`); :func:`grade` ranks every choice with
the advisor and returns the answer against the best choice and their loss, so a
grade is ``advise``'s own figure (objective ``ev``: points; under a target: the
probability, as ``analyze`` counts it). :class:`Session` sums a session up: the mean
loss per decision (Verhoeff's measure; aim below 0.2 points) and the same by kind.

Kinds of decision, from the answer, the position and its best choice (a decision may
have several themes, or none):

- ``keep`` or ``box``: the answer rerolls dice, or fills a box now (what the player did;
  the best choice when there is no answer);
- ``upper``: the best fills an upper box, or keeps two or more dice of one face whose
  upper box is open;
- ``yahtzee`` (chasing a Yahtzee): the best fills the Yahtzee box with 50, or keeps three
  or more dice of one face while five alike still pay (the Yahtzee box open, or holding
  50 under rules with a bonus);
- ``straights``: the best fills a straight, or keeps three or more different faces in a
  row while a straight box is open;
- ``end_of_game``: three boxes or fewer are open.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from solver.errors import YahtzeeError, shown
from solver.game.dice import DICE
from solver.game.rules import N_UPPER, RuleSet
from solver.table import Table, get_table

from .advice import Advice, Option
from .analysis import ERROR_LOSS, analyze
from .caches import Caches
from .model import Dice, Scorecard
from .moves import parse_action
from .objective import EV, Objective
from .ranking import turn_advisor
from .record_file import read_record, records_from_traces

MAX_POSITIONS = 100
"""Most positions in one session."""
END_OF_GAME = 3
"""A position with this many open boxes or fewer is an end-of-game decision."""
KINDS = ("keep", "box", "upper", "yahtzee", "straights", "end_of_game")


class TrainingError(YahtzeeError):
    """A practice session that cannot be built or answered as asked."""


@dataclass(frozen=True)
class Position:
    """One decision to practise: ``dice`` with ``rolls_left`` on ``card``; ``source``
    says where it comes from (``{"game": 3}`` of a simulation, or a record's ``file``,
    ``player`` and ``turn``)."""

    card: Scorecard
    dice: Dice
    rolls_left: int
    source: tuple[tuple[str, Any], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"card": self.card.to_json(), "dice": list(self.dice.faces),
                "rolls_left": self.rolls_left, "source": dict(self.source)}


def check_count(n: int) -> int:
    """The number of positions of a session, 1 to :data:`MAX_POSITIONS`."""
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_POSITIONS:
        raise TrainingError(f"positions {shown(n, 30)}: give a whole number 1 to "
                            f"{MAX_POSITIONS}")
    return n


def has_choice(card: Scorecard, dice: Dice, rolls_left: int) -> bool:
    """False when the rules leave one move only (no roll left, one allowed box)."""
    if rolls_left > 0:
        return True
    return len(card.placements(dice.faces)) > 1


# ---------------------------------------------------------------------- drawing positions
def positions_of_play(table: Table, n: int, seed: int) -> list[Position]:
    """``n`` positions that optimal play visits: the games of ``simulate(table,
    "optimal", n, seed)``, one decision of each (uniformly among those with a choice,
    drawn with ``numpy.random.default_rng(seed)``). Same seed, same positions."""
    from solver.simulate import check_seed, simulate  # numba (about 1 s to load)

    n = check_count(n)
    seed = check_seed(seed)
    result = simulate(table, "optimal", n, seed, record=True, judged=False)
    rng = np.random.default_rng(seed)
    found = []
    for game, record in enumerate(records_from_traces(table.rules.name, result.traces),
                                  start=1):
        decisions = [p for p in record.positions()
                     if has_choice(p.card, p.dice, p.rolls_left)]
        pick = decisions[int(rng.integers(len(decisions)))]
        found.append(Position(pick.card, pick.dice, pick.rolls_left, (("game", game),)))
    return found


def positions_of_records(paths: Sequence[str], n: int, table: Table | None = None,
                         objective: Objective = EV, player: str | None = None,
                         progress: Callable[[int, int], None] | None = None, *,
                         memory: Caches) -> list[Position]:
    """The ``n`` decisions of the records at ``paths`` that lost the most under
    ``objective`` (errors only: loss above :data:`~advisor.analysis.ERROR_LOSS`), largest
    loss first; ``player`` keeps one player's decisions. Fewer when there are fewer
    errors; none at all is a :class:`TrainingError`. ``progress(done, total)`` follows
    the records; ``memory``: the caches of their reviews."""
    n = check_count(n)
    if not paths:
        raise TrainingError("give at least one game record after --from")
    records = [read_record(path) for path in paths]
    rules = {record.rules for record in records}
    if len(rules) > 1:
        raise TrainingError(f"the records are of different rule sets ({', '.join(sorted(rules))}"
                            f"); practise one rule set at a time")
    (rules_name,) = rules
    if table is None:
        table = get_table(rules_name)
    elif table.rules.name != rules_name:
        raise TrainingError(f"the records are of rules {rules_name!r}; give --rules "
                            f"{rules_name}")
    if player is not None and not any(player in r.players for r in records):
        names = sorted({name for r in records for name in r.players})
        raise TrainingError(f"no player {shown(player, 40)} in the records; players: "
                            f"{', '.join(names)}")
    lost: list[tuple[float, int, Position]] = []
    for i, (path, record) in enumerate(zip(paths, records, strict=True)):
        for d in analyze(record, objective, table=table, memory=memory).decisions:
            if d.is_error and player in (None, d.player):
                where = (("file", str(path)), ("player", d.player), ("turn", d.turn))
                lost.append((d.loss, len(lost), Position(d.card, d.dice, d.rolls_left, where)))
        if progress is not None:
            progress(i + 1, len(records))
    if not lost:
        raise TrainingError("no decision of these records lost anything (every one was the "
                            "best): nothing to practise there; leave out --from to practise "
                            "positions of optimal play")
    lost.sort(key=lambda item: (-item[0], item[1]))
    return [position for _, _, position in lost[:n]]


# ---------------------------------------------------------------------- answering
def choices(advice: Advice) -> list[Option]:
    """Every choice of a position in a neutral order that gives nothing away: the
    keeps by their dice (most dice first), then the boxes in scorecard order."""
    keeps = sorted((o for o in advice.options if o.keep is not None),
                   key=lambda o: (-len(o.keep.faces), o.keep.faces))  # type: ignore[union-attr]
    order = {box.name: b for b, box in enumerate(advice.card.rules.boxes)}
    boxes = sorted((o for o in advice.options if o.box is not None),
                   key=lambda o: order[o.box])  # type: ignore[index]
    return keeps + boxes


def chosen_option(text: str, advice: Advice) -> Option:
    """The option a practice answer names: a move as typed in ``play`` (``keep 2 2 2``,
    ``score twos``, ``twos``) or the number of a choice in :func:`choices`. An empty
    answer is refused (there is no advice to follow)."""
    line = " ".join(str(text).strip().lower().split())
    if not line:
        raise TrainingError("type your choice: keep 2 2 2, reroll all, score twos, or the "
                            "number of a choice ('list' shows them)")
    if line.isdigit():
        listed = choices(advice)
        n = int(line) if line.isascii() and len(line) <= 4 else 0
        if not 1 <= n <= len(listed):
            raise TrainingError(f"choice {shown(line, 20)} does not exist; give 1.."
                                f"{len(listed)} ('list' shows them)")
        return listed[n - 1]
    move = parse_action(line, advice)
    return next(o for o in advice.options if o.move == move)


@dataclass(frozen=True)
class Graded:
    """One answered position: ``answer`` against ``best``; ``loss`` in the objective's
    unit (expected points, or probability under a target)."""

    position: Position
    answer: Option
    best: Option
    loss: float
    kinds: tuple[str, ...]
    objective: Objective = EV

    @property
    def is_error(self) -> bool:
        return self.loss > ERROR_LOSS

    @property
    def tied(self) -> bool:
        """The answer is not the choice ranked first but as good as it (no error): a best
        choice, tied with ``best``."""
        return not self.is_error and self.answer.move != self.best.move

    def to_json(self) -> dict[str, Any]:
        return {**self.position.to_json(), "answer": self.answer.to_json(),
                "best": self.best.to_json(), "loss": self.loss, "error": self.is_error,
                "tied": self.tied, "kinds": list(self.kinds)}


def advice_of(position: Position, table: Table | None = None,
              objective: Objective = EV, *, why: bool = False, memory: Caches) -> Advice:
    """Every choice of ``position`` ranked under ``objective`` (as ``advise`` ranks them);
    ``why``: each with its outcome (:mod:`advisor.why`); the turn's advisor kept in
    ``memory``."""
    advisor = turn_advisor(position.card, table, objective, memory=memory)
    return advisor.advise(position.dice, position.rolls_left, why=why)


def grade(position: Position, answer: str | Option, table: Table | None = None,
          objective: Objective = EV, *, why: bool = False, memory: Caches) -> Graded:
    """``answer`` (text as :func:`chosen_option` reads it, or an option of the
    position) graded against the best choice; ``why``: both with their outcomes;
    ``memory``: as for :func:`advice_of`."""
    advice = advice_of(position, table, objective, why=why, memory=memory)
    if isinstance(answer, Option):  # one of this position's options (outcome or not)
        bare = replace(answer, outcome=None)
        found = [o for o in advice.options if replace(o, outcome=None) == bare]
        if not found:
            raise TrainingError(f"{answer.describe()} is not a choice of this position")
        chosen = found[0]
    else:
        chosen = chosen_option(answer, advice)
    best = advice.best
    key = objective.key
    if key is None:
        loss = chosen.loss - best.loss
    else:
        loss = float(getattr(best, key)) - float(getattr(chosen, key))
    return Graded(position, chosen, best, max(loss, 0.0), kinds_of(position, best, chosen),
                  objective)


# ---------------------------------------------------------------------- kinds
def kinds_of(position: Position, best: Option, answer: Option | None = None
             ) -> tuple[str, ...]:
    """The kinds of a decision (see the module docstring), in :data:`KINDS` order: keep or
    box by ``answer`` (``best`` without one), the themes by ``best``."""
    card = position.card
    rules = card.rules
    open_boxes = set(card.open_boxes())
    found = {"keep" if (answer or best).is_keep else "box"}
    if best.keep is not None:
        faces = best.keep.faces
        counts = best.keep.counts
        most = max(counts) if faces else 0
        face = counts.index(most) + 1 if faces else 0
        if len(set(faces)) == 1 and len(faces) >= 2 and face - 1 in open_boxes:
            found.add("upper")
        if most >= 3 and _yahtzee_pays(card, rules):
            found.add("yahtzee")
        if _longest_run(faces) >= 3 and any(b in open_boxes for b in _straight_boxes(rules)):
            found.add("straights")
    else:
        b = rules.box_index(best.box or "")
        if b < N_UPPER:
            found.add("upper")
        if b == rules.yahtzee_box and best.points == 50:
            found.add("yahtzee")
        if b in _straight_boxes(rules):
            found.add("straights")
    if len(open_boxes) <= END_OF_GAME:
        found.add("end_of_game")
    return tuple(k for k in KINDS if k in found)


def _yahtzee_pays(card: Scorecard, rules: RuleSet) -> bool:
    entry = card.entries[rules.yahtzee_box]
    return entry is None or (entry == 50 and rules.n_flags == 2)


def _straight_boxes(rules: RuleSet) -> list[int]:
    return [b for b, box in enumerate(rules.boxes) if box.name.endswith("straight")]


def _longest_run(faces: Iterable[int]) -> int:
    """The most different faces in a row (``2 3 4 4`` -> 3)."""
    present = set(faces)
    best = run = 0
    for face in range(1, DICE + 2):
        run = run + 1 if face in present else 0
        best = max(best, run)
    return best


# ---------------------------------------------------------------------- the session
@dataclass(frozen=True)
class Session:
    """A practice session: what was asked (``rules``, ``objective``, ``source``:
    ``play`` with its ``seed``, or ``records``) and every answer graded, in order;
    ``planned`` positions were drawn (more than answered when the player stopped)."""

    rules: str
    objective: Objective
    source: str
    seed: int | None
    graded: tuple[Graded, ...]
    planned: int

    @property
    def complete(self) -> bool:
        return len(self.graded) == self.planned

    @property
    def total_loss(self) -> float:
        return float(sum(g.loss for g in self.graded))

    @property
    def mean_loss(self) -> float:
        """The mean loss per decision (0 for a session without answers)."""
        return self.total_loss / len(self.graded) if self.graded else 0.0

    @property
    def errors(self) -> int:
        return sum(g.is_error for g in self.graded)

    def by_kind(self) -> dict[str, dict[str, float | int]]:
        """Per kind present: ``decisions``, ``errors``, ``total_loss``, ``mean_loss``."""
        out: dict[str, dict[str, float | int]] = {}
        for kind in KINDS:
            mine = [g for g in self.graded if kind in g.kinds]
            if mine:
                total = float(sum(g.loss for g in mine))
                out[kind] = {"decisions": len(mine), "errors": sum(g.is_error for g in mine),
                             "total_loss": total, "mean_loss": total / len(mine)}
        return out

    def summary_json(self) -> dict[str, Any]:
        """The session without its positions (what the history keeps)."""
        return {"rules": self.rules, "objective": self.objective.to_json(),
                "source": self.source, "seed": self.seed, "decisions": len(self.graded),
                "planned": self.planned, "errors": self.errors,
                "total_loss": self.total_loss, "mean_loss": self.mean_loss,
                "kinds": self.by_kind()}

    def to_json(self) -> dict[str, Any]:
        return {**self.summary_json(), "complete": self.complete,
                "positions": [g.to_json() for g in self.graded]}


# ---------------------------------------------------------------------- the page's questions
ANSWER_SEPARATOR = "|"
"""Between the answers of a whole session given as one text (``keep 222|score twos``)."""


def choice_json(option: Option) -> dict[str, Any]:
    """A choice as the page offers it before it is answered: what it is, not its worth."""
    if option.keep is not None:
        return {"action": "keep", "keep": list(option.keep.faces), "text": option.describe()}
    return {"action": "score", "box": option.box, "points": option.points,
            "bonus": option.bonus, "text": option.describe()}


def positions_json(table: Table, n: int, seed: int | None, objective: Objective = EV, *,
                   memory: Caches) -> dict[str, Any]:
    """``GET /api/train``: ``n`` positions of optimal play drawn with ``seed`` (a fresh
    one when None), each with its choices in the neutral order of :func:`choices` and no
    figures (the answer is graded by :func:`grade`)."""
    seed = secrets.randbelow(1_000_000) if seed is None else seed
    positions = positions_of_play(table, n, seed)
    out = []
    for position in positions:
        listed = choices(advice_of(position, table, memory=memory))
        out.append({**position.to_json(), "choices": [choice_json(o) for o in listed]})
    return {"rules": table.rules.name, "objective": objective.to_json(), "seed": seed,
            "positions": out}


def split_answers(text: str, n: int) -> list[str]:
    """The answers of a session given as one text, at most ``n`` (fewer: a session
    stopped early)."""
    answers = [a.strip() for a in text.split(ANSWER_SEPARATOR)] if text.strip() else []
    if len(answers) > n:
        raise TrainingError(f"{len(answers)} answers for {n} positions")
    return answers


def session_of(table: Table, positions: Sequence[Position], answers: Sequence[str],
               objective: Objective = EV, *, source: str = "play", seed: int | None = None,
               why: bool = True, memory: Caches) -> Session:
    """The session of ``positions`` answered by ``answers`` in order (fewer answers: a
    session stopped early); a refused answer raises :class:`TrainingError` naming its
    position."""
    graded = []
    for i, (position, answer) in enumerate(zip(positions, answers, strict=False), start=1):
        try:
            graded.append(grade(position, answer, table, objective, why=why, memory=memory))
        except YahtzeeError as exc:
            raise TrainingError(f"position {i}: {exc}") from None
    return Session(table.rules.name, objective, source, seed, tuple(graded), len(positions))
