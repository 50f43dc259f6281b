"""Statistics and the page's figures: ``/api/stats`` (the twin of ``yahtzee stats``),
``/api/distribution`` (a card's final scores), and ``/api/card``, ``/api/place``,
``/api/rules``, ``/api/objective`` (what the page shows of a card, a placement, a rule set
and an objective)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..request.cards import parsed_card
from ..request.page import (
    CARD_PARAMS,
    OBJECTIVE_QUERY,
    PLACE_PARAMS,
    RULES_PARAMS,
    best_chances,
    card_json,
    final_scores,
    objective_json,
    place_json,
    targets_stamp,
)
from ..request.stats_question import StatsQuestion
from ..request.worker import answer
from ..rules_info import rules_json
from .served import Served, answered


async def get_stats(served: Served, request: Request) -> dict[str, Any]:
    question = StatsQuestion.parse(**served.query(request, StatsQuestion.PARAMS))
    await served.service.table(question.card.rules_name)
    return await served.service.run(answer, question, with_memory=True)


async def get_distribution(served: Served, request: Request) -> dict[str, Any]:
    service = served.service
    params = served.query(request, CARD_PARAMS)
    card = parsed_card(params["card_text"], params["rules_name"])
    await service.table(card.rules_name)
    if card.is_full:
        return final_scores(card, {"mean": 0.0, "distribution": {"0": 1.0}})
    scores = final_scores(card, await service.get((card.rules_name, card.mask, card.upper,
                                                   card.flag)))
    best = await service.run(best_chances, (str(card), card.rules_name,
                                            targets_stamp(card.rules_name)))
    if best is not None:  # the target table: the best chance of each target
        scores["p_best"] = best
    return scores


def page_query(served: Served, names: tuple[str, ...], func: Callable[..., dict[str, Any]]
               ) -> Callable[[Request], Awaitable[Response]]:
    """An endpoint answering ``func`` of the parameters ``names`` (its rule set's table
    loaded first)."""
    async def handler(served: Served, request: Request) -> dict[str, Any]:
        params = served.query(request, names)
        await served.service.table(params["rules_name"])
        return func(**params)
    return answered(served, handler)


def figure_routes(served: Served) -> list[Route]:
    """The statistics and the page's figures."""
    return [
        Route("/api/stats", answered(served, get_stats)),
        Route("/api/distribution", answered(served, get_distribution)),
        Route("/api/card", page_query(served, CARD_PARAMS, card_json)),
        Route("/api/place", page_query(served, PLACE_PARAMS, place_json)),
        Route("/api/rules", page_query(served, RULES_PARAMS, rules_json)),
        Route("/api/objective", page_query(served, OBJECTIVE_QUERY, objective_json)),
    ]
