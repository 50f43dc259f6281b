"""The page's own requests: a card, a placement and an objective as the page shows them
(``/api/card``, ``/api/place``, ``/api/objective``), a record read (``/api/record``), a
card's final scores and the best chance of each target (``/api/distribution``)."""

from __future__ import annotations

import os
from typing import Any

from solver import target_table
from solver.game.rules import UPPER_TARGET
from solver.solved_turn import stored_vectors
from solver.stats import most_points_to_come
from solver.table import get_table
from solver.target_table import get_targets

from ..model import Dice, Scorecard
from ..objective import Objective
from ..play_win import Judging, judging_of_record, objective_comment
from ..record import GameRecord, parse_record
from .cards import parsed_card
from .params import RequestError

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
    vectors = stored_vectors(table, Objective.for_target(top).goal, card)
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
