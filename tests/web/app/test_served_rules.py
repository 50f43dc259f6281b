"""``yahtzee serve --rules R``: a request that names no rule set is answered under the
server's rule set, by every endpoint that takes ``rules``. A server whose default is
yatzy answers each question without ``rules`` exactly as the default server answers it
with ``rules=yatzy`` (which tests/web/app/test_parameters.py checks against the library),
and never as it answers under the official rules."""

from __future__ import annotations

import pytest

from advisor.model import Dice, Scorecard
from tests.web.conftest import SERVED_RULES


def late_card(rules: str, open_boxes: int, dice: str = "22256") -> str:
    card = Scorecard.new(rules)
    for b in range(card.rules.n_boxes - open_boxes):
        card = card.place(Dice(dice), b)
    return str(card)


def answer(server, path: str, params: dict) -> dict:
    status, body = server.get(path, params)
    assert status == 200, (path, params, body)
    if isinstance(body, dict):
        body.pop("seconds", None)
    return body


def questions() -> dict[str, list[dict]]:
    """Endpoint -> questions without ``rules`` (each also asked of a yatzy card)."""
    late = late_card(SERVED_RULES, 3)
    return {
        "/api/advise": [{"dice": "22256"}, {"dice": "11234", "card": late, "rolls_left": "1"}],
        "/api/stats": [{"card": late}, {"card": late, "target": "150"}],
        "/api/card": [{}, {"card": late}],
        "/api/place": [{"dice": "22256", "box": "one_pair"}, {"dice": "22256", "box": "twos"}],
        "/api/rules": [{}],
        "/api/distribution": [{"card": late}],
        "/api/train": [{"seed": "5", "positions": "2"}],
        "/api/train/session": [{"seed": "5", "positions": "2"},
                               {"seed": "7", "positions": "3", "target": "200"}],
    }


def test_every_endpoint_without_rules_answers_under_the_servers_rules(server, yatzy_server):
    from advisor.request.advise_question import AdviseQuestion
    from advisor.request.page import CARD_PARAMS, PLACE_PARAMS, RULES_PARAMS
    from advisor.request.stats_question import StatsQuestion
    from advisor.request.train_question import TrainQuestion

    takes_rules = {"/api/advise": AdviseQuestion.PARAMS, "/api/stats": StatsQuestion.PARAMS,
                   "/api/card": CARD_PARAMS, "/api/place": PLACE_PARAMS,
                   "/api/rules": RULES_PARAMS, "/api/distribution": CARD_PARAMS,
                   "/api/train": TrainQuestion.PARAMS,
                   "/api/train/session": TrainQuestion.SESSION_PARAMS}
    assert all("rules" in params for params in takes_rules.values())
    asked = questions()
    assert set(asked) == set(takes_rules)
    for path, params_list in asked.items():
        for params in params_list:
            served = answer(yatzy_server, path, params)
            named = answer(server, path, {**params, "rules": SERVED_RULES})
            assert served == named, (path, params)
            assert answer(yatzy_server, path, {**params, "rules": SERVED_RULES}) == named
            if isinstance(served, dict) and "rules" in served:
                assert served["rules"] == SERVED_RULES, (path, params)
            status, official = server.get(path, params)
            assert status != 200 or official != served, (path, params)
    rules = answer(yatzy_server, "/api/rules", {})
    assert rules["name"] == SERVED_RULES
    assert [b["name"] for b in rules["boxes"]][-1] == "yatzy"


@pytest.mark.parametrize("params", [{"seed": "7", "positions": "3", "target": "200"},
                                    {"seed": "7", "positions": "3", "beat": "199"}])
def test_a_session_is_graded_by_the_objective_asked(yatzy_server, table_of, params, memory):
    """``/api/train/session`` (no answers yet: no grade to compute) is the session of the
    library under the objective of ``target`` or ``beat``, at the seed's positions."""
    from advisor.objective import Objective
    from advisor.train import positions_of_play, session_of

    table = table_of(SERVED_RULES)
    objective = Objective.parse_options(target=params.get("target"), beat=params.get("beat"),
                                        rules=SERVED_RULES)
    positions = positions_of_play(table, 3, 7)
    want = session_of(table, positions, [], objective, seed=7, memory=memory).to_json()
    body = answer(yatzy_server, "/api/train/session", params)
    assert body == want
    assert body["objective"] == {"kind": "target", "target": 200}
