"""The questions the CLI and the HTTP API both answer, checked once and answered once.

A question is built from the keyword arguments the option table gives (the command's, or
:func:`~advisor.request.params.read_query`'s) and checked before any table is built;
``solve`` does the work, ``json`` builds the one answer of ``yahtzee advise --json`` and
``GET /api/advise``. Questions are frozen and hashable: the server caches them and hands
them to its worker. The page's own requests are answered here too.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar

from solver import target_table
from solver.game.rules import UPPER_TARGET, get_rules
from solver.stats import OptimalStats, Progress, most_points_to_come
from solver.table import Table, get_table
from solver.target_table import get_targets

from ..advise import Advice, TurnAdvisor, question_rolls_left, turn_advisor
from ..analyze import analyze
from ..model import Dice, Scorecard
from ..objective import Objective
from ..play_win import Judging, WinEachTurn, choose_judging, judging_of_record, objective_comment
from ..record import GameRecord, parse_record
from ..solved_turn import SolvedTurn, solve_turn, stored_vectors
from ..train import (
    Position,
    check_count,
    grade,
    positions_json,
    positions_of_play,
    session_of,
    split_answers,
)
from .params import RequestError

if TYPE_CHECKING:
    from ..target_stats import TargetStats


@lru_cache(maxsize=1024)
def parsed_card(card: str, rules: str) -> Scorecard:
    """``Scorecard.parse`` (cards are immutable; a bad card raises and is not kept)."""
    return Scorecard.parse(card, rules)


@dataclass(frozen=True)
class AdviseQuestion:
    """``yahtzee advise`` and ``GET /api/advise``: every choice for ``dice`` on ``card``."""

    PARAMS: ClassVar = ("dice", "rolls_left", "card", "top", "target", "beat", "opponent",
                        "opponents", "tournament", "why", "rules")
    """The server's query keys (a tournament's field is the default, expected-score play:
    observed scores are the command line's ``--field-scores FILE`` only, the server reads
    no file named by a request)."""
    card: Scorecard
    dice: Dice
    rolls_left: int
    objective: Objective
    top: int
    why: bool = False

    @classmethod
    def parse(cls, *, dice_text: str | None, card_text: str, rules_name: str,
              rolls_left: int | None = None, top: int = 10, target: str | None = None,
              beat: str | None = None, opponent: str | None = None,
              opponents: str | None = None, why: bool = False,
              tournament: str | None = None, field: str | None = None,
              field_scores: str | None = None) -> AdviseQuestion:
        """The question checked in the order the CLI reports errors: dice, card, rolls
        left, objective."""
        dice = cls.parse_dice(dice_text)
        card = parsed_card(card_text, rules_name)
        rolls_left = question_rolls_left(card, rolls_left)
        objective = Objective.parse_options(target=target, beat=beat, opponent=opponent,
                                            rules=rules_name, opponents=opponents,
                                            tournament=tournament, field=field,
                                            field_scores=field_scores)
        return cls(card, dice, rolls_left, objective, top, bool(why))

    @property
    def turn(self) -> TurnQuestion:
        """The turn this question is a roll of (one solve answers every roll of it)."""
        return TurnQuestion(self.card, self.objective)

    def answer_from(self, solved: SolvedTurn | None, table: Table | None = None
                    ) -> dict[str, Any]:
        """The JSON answer from the turn already solved (None: the expected score)."""
        advisor = TurnAdvisor(self.card, table, self.objective, solved=solved)
        return advisor.advise(self.dice, self.rolls_left, why=self.why).to_json(self.top)

    @staticmethod
    def parse_dice(dice_text: str | None) -> Dice:
        """The dice showing, which every advise question needs."""
        if dice_text is None:
            raise RequestError("give the dice showing, e.g. yahtzee advise 22256 "
                               "(or --dice 22256)")
        return Dice.parse(dice_text)

    def solve(self, table: Table | None = None, progress: Progress | None = None) -> Advice:
        """The advice (the card's turn solved once per process: ``turn_advisor``);
        ``progress(done, total)`` follows a target or win objective's solve."""
        card, objective = self.card, self.objective
        advisor = turn_advisor(card, table, objective, build=lambda t: TurnAdvisor(
            card, t, objective, progress=progress))
        return advisor.advise(self.dice, self.rolls_left, why=self.why)

    def json(self, table: Table | None = None, progress: Progress | None = None
             ) -> dict[str, Any]:
        return self.solve(table, progress).to_json(self.top)


@dataclass(frozen=True)
class StatsQuestion:
    """``yahtzee stats`` and ``GET /api/stats``: exact figures of optimal play from the
    start of ``card``'s next turn; with ``target``, P(final >= target) instead."""

    PARAMS: ClassVar = ("card", "target", "rules")
    card: Scorecard
    target: int | None
    tournament: Objective | None = None
    """A tournament objective (``--tournament N``): its shares of first place instead."""

    @classmethod
    def parse(cls, *, card_text: str, rules_name: str,
              target: str | None = None, tournament: str | None = None,
              field: str | None = None, field_scores: str | None = None) -> StatsQuestion:
        card = parsed_card(card_text, rules_name)
        card.check_not_full()
        if tournament is not None or field is not None or field_scores is not None:
            objective = Objective.parse_options(target=target, tournament=tournament,
                                                field=field, field_scores=field_scores,
                                                rules=rules_name)
            return cls(card, None, objective)
        return cls(card, Objective.for_target(target).target if target is not None else None)

    def solve(self, table: Table | None = None,
              progress: Progress | None = None) -> OptimalStats | TargetStats | Any:
        from ..target_stats import (  # numba: not on every start
            card_stats,
            target_stats,
            tournament_stats,
        )

        table = table or get_table(self.card.rules_name)
        if self.tournament is not None:
            return tournament_stats(table, self.card, self.tournament, progress)
        if self.target is not None:
            return target_stats(table, self.card, self.target, progress=progress)
        return card_stats(table, self.card, progress=progress)

    def json(self, table: Table | None = None,
             progress: Progress | None = None) -> dict[str, Any]:
        data = self.solve(table, progress).to_json()
        if self.target is None and self.tournament is None and self.card.turn > 1:
            data["card"] = self.card.to_json()
        return data


@dataclass(frozen=True)
class TrainQuestion:
    """``GET /api/train``: the positions of a practice session (``yahtzee train``'s, for
    a seed), with their choices and no figures; with ``answers``
    (``GET /api/train/session``) the whole session graded, as ``yahtzee train --json``
    prints it."""

    PARAMS: ClassVar = ("positions", "seed", "target", "beat", "rules")
    SESSION_PARAMS: ClassVar = ("positions", "seed", "answers", "target", "beat", "rules")
    rules: str
    n_positions: int
    seed: int | None
    objective: Objective
    answers: tuple[str, ...] | None = None

    @classmethod
    def parse(cls, *, rules_name: str, n_positions: int = 10, seed: int | None = None,
              target: str | None = None, beat: str | None = None,
              answers_text: str | None = None) -> TrainQuestion:
        n = check_count(n_positions)
        objective = Objective.parse_options(target=target, beat=beat, rules=rules_name)
        if answers_text is None:
            return cls(get_rules(rules_name).name, n, seed, objective)
        if seed is None:
            raise RequestError("give the seed of the session's positions")
        return cls(get_rules(rules_name).name, n, seed, objective,
                   tuple(split_answers(answers_text, n)))

    def json(self, table: Table | None = None) -> dict[str, Any]:
        table = table or get_table(self.rules)
        if self.answers is None:
            return positions_json(table, self.n_positions, self.seed, self.objective)
        assert self.seed is not None
        positions = positions_of_play(table, self.n_positions, self.seed)
        return session_of(table, positions, self.answers, self.objective,
                          seed=self.seed).to_json()


@dataclass(frozen=True)
class GradeQuestion:
    """``GET /api/grade``: one practice answer graded against the best choice (the
    entry ``yahtzee train --json`` gives each position)."""

    PARAMS: ClassVar = ("card", "dice", "rolls_left", "answer", "target", "beat", "rules")
    card: Scorecard
    dice: Dice
    rolls_left: int
    answer: str
    objective: Objective

    @classmethod
    def parse(cls, *, card_text: str, dice_text: str | None, rules_name: str,
              answer_text: str, rolls_left: int | None = None, target: str | None = None,
              beat: str | None = None) -> GradeQuestion:
        dice = AdviseQuestion.parse_dice(dice_text)
        card = parsed_card(card_text, rules_name)
        rolls_left = question_rolls_left(card, rolls_left)
        objective = Objective.parse_options(target=target, beat=beat, rules=rules_name)
        return cls(card, dice, rolls_left, answer_text, objective)

    def json(self, table: Table | None = None) -> dict[str, Any]:
        position = Position(self.card, self.dice, self.rolls_left)
        return grade(position, self.answer, table, self.objective, why=True).to_json()


def answer(question: AdviseQuestion | StatsQuestion | TrainQuestion | GradeQuestion
           ) -> dict[str, Any]:
    """``question.json()`` (a module-level function, for the server's worker process)."""
    return question.json()


def answer_solved(arg: tuple[AdviseQuestion, SolvedTurn]) -> dict[str, Any]:
    """``question.answer_from(solved)`` (for the server's worker process: a why needs the
    figures of every state, which it keeps)."""
    question, solved = arg
    return question.answer_from(solved)


# ---------------------------------------------------------------------- background jobs
@dataclass(frozen=True)
class TurnQuestion:
    """``POST /api/jobs/turn``: a turn of ``card`` under a target or win objective, solved
    once in the background for every roll of the turn (``/api/advise`` then answers its
    rolls at once)."""

    PARAMS: ClassVar = ("card", "target", "beat", "opponent", "opponents", "tournament",
                        "rules")
    card: Scorecard
    objective: Objective

    @classmethod
    def parse(cls, *, card_text: str, rules_name: str, target: str | None = None,
              beat: str | None = None, opponent: str | None = None,
              opponents: str | None = None, tournament: str | None = None) -> TurnQuestion:
        card = parsed_card(card_text, rules_name)
        card.check_not_full()
        objective = Objective.parse_options(target=target, beat=beat, opponent=opponent,
                                            rules=rules_name, opponents=opponents,
                                            tournament=tournament)
        if objective.is_ev:
            raise RequestError("the expected score needs no background solve: give target, "
                               "beat, opponent, opponents or tournament")
        return cls(card, objective)

    @property
    def key(self) -> tuple[str, ...]:
        """What identifies the solve: the rules, the card and the objective."""
        return ("turn", self.card.rules_name, str(self.card),
                json.dumps(self.objective.to_json(), sort_keys=True))

    @property
    def what(self) -> str:
        """What the job works out, for the page: ``the chance to win (13 boxes open)``."""
        n_open = len(self.card.open_boxes())
        return f"{self.objective.chance_words} ({n_open} box{'es' if n_open > 1 else ''} open)"


def solve_turn_job(question: TurnQuestion, progress: Progress | None) -> SolvedTurn:
    """The turn solved (in the jobs' worker process; the table from its cache). A target's
    vectors are kept there for the game's later turns; each turn's win objective solves
    that turn alone."""
    objective = question.objective
    return solve_turn(question.card, get_table(question.card.rules_name), objective,
                      progress=progress, whole_game=objective.kind == "target")


@dataclass(frozen=True)
class AnalyzeQuestion:
    """``POST /api/analyze`` (and ``POST /api/jobs/analyze``): a record judged by an
    objective (``objective``/``win_from``/``target``/``beat``/``opponent``, checked as
    ``yahtzee analyze`` checks them; none: the expected score)."""

    PARAMS: ClassVar = ("objective", "win_from", "target", "beat", "opponent")
    record: GameRecord
    judging: Judging

    @classmethod
    def parse(cls, record: GameRecord, *, objective_name: str | None = None,
              win_from: int | None = None, target: str | None = None,
              beat: str | None = None, opponent: str | None = None,
              noted: Judging | None = None) -> AnalyzeQuestion:
        """``noted``: what the record's first line says its game was played for, the
        objective when no parameter names one (as ``yahtzee analyze`` reads it)."""
        chosen = objective_name is not None or any(v is not None
                                                    for v in (target, beat, opponent))
        return cls(record, choose_judging(objective_name=objective_name, win_from=win_from,
                                          target=target, beat=beat, opponent=opponent,
                                          players=record.players, rules=record.rules,
                                          noted=None if chosen else noted))

    @property
    def key(self) -> tuple[str, ...]:
        return ("analyze", json.dumps(self.record.to_json(), sort_keys=True),
                json.dumps(self.judging.to_json(), sort_keys=True))

    @property
    def what(self) -> str:
        return f"the review of {len(list(self.record.positions()))} decisions"

    def json(self, table: Table | None = None, progress: Progress | None = None,
             known: dict[tuple[str, ...], SolvedTurn] | None = None) -> dict[str, Any]:
        """The analysis; ``known``: turns solved already, by :attr:`TurnQuestion.key`."""
        table = table or get_table(self.record.rules)
        known = known or {}
        each_turn = isinstance(self.judging, WinEachTurn)
        made: dict[tuple[str, ...], TurnAdvisor] = {}

        def advisor(card: Scorecard, objective: Objective) -> TurnAdvisor:
            key = TurnQuestion(card, objective).key
            if key not in made:
                made[key] = TurnAdvisor(card, table, objective, solved=known.get(key),
                                        whole_game=not each_turn)
            return made[key]

        return analyze(self.record, self.judging, table=table, advisors=advisor,
                       progress=progress).to_json()


def analyze_job(arg: tuple[AnalyzeQuestion, dict[tuple[str, ...], SolvedTurn]],
                progress: Progress) -> dict[str, Any]:
    """``AnalyzeQuestion.json`` in the jobs' worker process."""
    question, known = arg
    return question.json(progress=progress, known=known)


# ---------------------------------------------------------------------- the page's own
OBJECTIVE_QUERY = ("target", "beat", "tournament", "rules")
CARD_PARAMS = ("card", "rules")
PLACE_PARAMS = ("card", "dice", "box", "rules")
RULES_PARAMS = ("rules",)


def describe_card(card: Scorecard) -> dict[str, Any]:
    """``card.to_json()`` plus ``rules``, ``open`` (box names), ``turn``, ``full`` and
    ``upper_needed`` (points the upper boxes still need for the bonus; 0 once earned)."""
    return {"rules": card.rules_name, **card.to_json(),
            "open": [card.rules.boxes[b].name for b in card.open_boxes()],
            "turn": card.turn, "full": card.is_full,
            "upper_needed": max(UPPER_TARGET - card.upper_subtotal, 0)}


def objective_json(rules_name: str, target: str | None = None, beat: str | None = None,
                   tournament: str | None = None) -> dict[str, Any]:
    """``GET /api/objective``: the objective of these parameters checked as the CLI checks
    them, and what the page shows of it (:meth:`~advisor.objective.Objective.page_json`)."""
    return Objective.parse_options(target=target, beat=beat, rules=rules_name,
                                   tournament=tournament).page_json()


def card_json(card_text: str, rules_name: str) -> dict[str, Any]:
    """``GET /api/card``: a scorecard read as ``--card`` reads it."""
    return describe_card(parsed_card(card_text, rules_name))


def place_json(card_text: str, dice_text: str | None, box_name: str,
               rules_name: str) -> dict[str, Any]:
    """``GET /api/place``: the card after scoring the dice in ``box_name`` (the Joker
    rule applies)."""
    if dice_text is None:
        raise RequestError("missing parameter 'dice'")
    card = parsed_card(card_text, rules_name)
    return describe_card(card.place(Dice.parse(dice_text), box_name))


def read_noted_record(body: bytes) -> tuple[GameRecord, Judging | None]:
    """The game record of a request body and what its first line says the game was
    played for (``# objective: ...``; None when it does not say), both checked as
    ``yahtzee analyze -`` checks them."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RequestError(f"the record is not UTF-8 text (byte {exc.start})") from None
    record = parse_record(text)
    return record, judging_of_record(text, record.rules)


def record_json(record: GameRecord, noted: Judging | None = None) -> dict[str, Any]:
    """``POST /api/record``: ``record`` (JSON form), ``text``, every player's card (as
    ``/api/card``), whether the game is over, and what it was played for: ``objective``
    (the record's note as JSON, ``{"kind": "ev"}`` when it has none) and
    ``objective_line`` (the note as ``play`` writes it, "" when none) and
    ``objective_page`` (what the page shows of a noted objective:
    :meth:`~advisor.objective.Objective.page_json`; null for none or each turn's win)."""
    return {"record": record.to_json(), "text": str(record),
            "cards": {name: describe_card(card) for name, card in record.cards().items()},
            "finished": record.is_finished,
            "objective": noted.to_json() if noted is not None else {"kind": "ev"},
            "objective_line": objective_comment(noted).strip() if noted is not None else "",
            "objective_page": noted.page_json() if isinstance(noted, Objective) else None}


def targets_stamp(rules_name: str) -> tuple[int, ...]:
    """What identifies the target table of the rules on disk now (empty: none), so that
    a cached answer of :func:`best_chances` is asked again once one is built."""
    try:
        info = os.stat(target_table.default_targets_path(rules_name))  # (tests point it elsewhere)
    except OSError:
        return ()
    return info.st_ino, info.st_size, info.st_mtime_ns


def best_chances(arg: tuple[str, str, tuple[int, ...]]) -> dict[str, float] | None:
    """``p_best`` of ``GET /api/distribution``: for every final score ``X`` above the
    card's total that the rules' target table holds, P(final >= X) under the best
    strategy for ``X`` from the start of the card's turn (keyed by ``X``); None without
    a usable target table. ``arg``: (card, rules, :func:`targets_stamp`)."""
    from solver.target import turn_at  # numba: not on every start

    card_text, rules_name, _stamp = arg
    card = parsed_card(card_text, rules_name)
    table = get_table(rules_name)
    targets = get_targets(table)
    if targets is None or card.is_full:
        return None
    top = targets.max_target
    vectors = stored_vectors(table, Objective.for_target(top), card)
    if vectors is None:  # a level it reads is damaged
        return None
    state = (card.mask, card.upper, card.flag)
    total = card.total
    highest = min(top, total + most_points_to_come(card.rules, state))
    return {str(x): min(turn_at(vectors, *state, total + top - x).value, 1.0)
            for x in range(total + 1, highest + 1)}


def final_scores(card: Scorecard, to_come: dict[str, Any]) -> dict[str, Any]:
    """``GET /api/distribution``: the distribution of the final score from ``card``'s
    figures of the points to come (``to_come``: ``mean`` and ``distribution`` of
    :class:`~solver.stats.OptimalStats` JSON): ``distribution`` and ``p_reach`` (P(final >=
    score)), keyed by final score, and ``expected_final``."""
    total = card.total
    points = sorted((int(x), p) for x, p in to_come["distribution"].items())
    reach = []
    above = 0.0
    for _, p in reversed(points):  # suffix sums, smallest terms first
        above += p
        reach.append(above)
    reach.reverse()
    return {"rules": card.rules_name, "card": describe_card(card),
            "expected_final": total + to_come["mean"],
            "distribution": {str(total + x): p for x, p in points},
            "p_reach": {str(total + x): r for (x, _), r in zip(points, reach, strict=True)}}
