"""Every endpoint of the HTTP API under every rule set, parameter by parameter: each answer
equals the library's own answer to the same question, and changing any one parameter
changes the library's answer, so a parameter the server ignored (answering, say, with the
default rule set) fails here. The figures the page shows of a card (the upper subtotal,
what the bonus still needs, the totals) are checked against the card's entries."""

from __future__ import annotations

import json

import numpy as np
import pytest

from advisor.caches import Caches
from advisor.model import Dice, Scorecard
from advisor.objective import Objective
from advisor.ranking import advise
from solver.game.rules import RULE_NAMES, UPPER_TARGET, get_rules
from tests.cards import random_cards

TRAIN_RULES = ("official", "two-rolls")
"""Rule sets whose graded practice is asked (a grade carries its why: the figures of
every state, half a minute per rule set the first time)."""


def late_card(rules: str, open_boxes: int, dice: str = "22256") -> str:
    """A card of ``rules`` with all but the last ``open_boxes`` boxes filled by ``dice``."""
    card = Scorecard.new(rules)
    for b in range(card.rules.n_boxes - open_boxes):
        card = card.place(Dice(dice), b)
    return str(card)


def shown_card(card: Scorecard) -> dict:
    """What /api/card must say of ``card``, from its entries alone."""
    rules = card.rules
    upper = sum(e for b, e in enumerate(card.entries)
                if e is not None and rules.boxes[b].is_upper)
    bonus = rules.upper_bonus if upper >= UPPER_TARGET else 0
    entries = {rules.boxes[b].name: e for b, e in enumerate(card.entries) if e is not None}
    total = sum(entries.values()) + bonus + rules.yahtzee_bonus * card.yahtzee_bonuses
    return {"rules": rules.name, "text": str(card), "entries": entries,
            "yahtzee_bonus": card.yahtzee_bonuses, "upper_subtotal": upper,
            "upper_bonus": bonus, "total": total,
            "open": [b.name for b, e in zip(rules.boxes, card.entries, strict=True) if e is None],
            "turn": len(entries) + 1, "full": len(entries) == rules.n_boxes,
            "upper_needed": max(UPPER_TARGET - upper, 0)}


# ---------------------------------------------------------------------- the library's answers
def library_advise(table_of, p: dict) -> dict:
    rules = p["rules"]
    card = Scorecard.parse(p.get("card", ""), rules)
    objective = Objective.parse_options(target=p.get("target"), beat=p.get("beat"),
                                        opponent=p.get("opponent"), rules=rules,
                                        opponents=p.get("opponents"),
                                        tournament=p.get("tournament"))
    rolls_left = int(p["rolls_left"]) if "rolls_left" in p else None
    return advise(card, Dice(p["dice"]), rolls_left=rolls_left, table=table_of(rules),
                  objective=objective).to_json(int(p.get("top", 10)))


def library_stats(table_of, p: dict) -> dict:
    from advisor.target_stats import card_stats, target_stats

    card = Scorecard.parse(p.get("card", ""), p["rules"])
    table = table_of(p["rules"])
    if "target" in p:
        data = target_stats(table, card, int(p["target"])).to_json()
    else:
        data = card_stats(table, card).to_json()
        if card.turn > 1:
            data["card"] = card.to_json()
    data.pop("seconds")
    return data


def library_card(table_of, p: dict) -> dict:
    return shown_card(Scorecard.parse(p.get("card", ""), p["rules"]))


def library_place(table_of, p: dict) -> dict:
    card = Scorecard.parse(p.get("card", ""), p["rules"])
    return shown_card(card.place(Dice(p["dice"]), p["box"]))


def library_distribution(table_of, p: dict) -> dict:
    from solver.stats import optimal_stats

    card = Scorecard.parse(p.get("card", ""), p["rules"])
    dist = optimal_stats(table_of(p["rules"]), start=(card.mask, card.upper,
                                                      card.flag)).distribution
    final = np.concatenate((np.zeros(card.total), dist))
    return {"expected_final": float(np.arange(final.shape[0]) @ final),
            "distribution": {x: float(final[x]) for x in np.flatnonzero(final)},
            "p_reach": {x: float(final[x:].sum()) for x in np.flatnonzero(final)},
            "card": shown_card(card)}


def library_train(table_of, p: dict) -> dict:
    from advisor.train import positions_json

    objective = Objective.parse_options(target=p.get("target"), beat=p.get("beat"),
                                        rules=p["rules"])
    return positions_json(table_of(p["rules"]), int(p.get("positions", 10)), int(p["seed"]),
                          objective, memory=Caches())


def library_grade(table_of, p: dict) -> dict:
    from advisor.train import Position, grade

    card = Scorecard.parse(p.get("card", ""), p["rules"])
    objective = Objective.parse_options(target=p.get("target"), beat=p.get("beat"),
                                        rules=p["rules"])
    rolls_left = int(p["rolls_left"]) if "rolls_left" in p else card.rules.rolls_per_turn - 1
    position = Position(card, Dice(p["dice"]), rolls_left)
    return grade(position, p["answer"], table_of(p["rules"]), objective, why=True,
                 memory=Caches()).to_json()


def same_distribution(body: dict, want: dict) -> None:
    assert body["card"] == want["card"]
    assert body["expected_final"] == pytest.approx(want["expected_final"], abs=1e-9)
    got = {int(x): p for x, p in body["distribution"].items()}
    assert sorted(got) == sorted(want["distribution"])
    for x, p in want["distribution"].items():
        assert got[x] == pytest.approx(p, abs=1e-12)
        assert body["p_reach"][str(x)] == pytest.approx(want["p_reach"][x], abs=1e-12)


# ---------------------------------------------------------------------- the questions
def questions(rules: str) -> dict[str, tuple]:
    """Endpoint -> (library answer, base question, {parameter: another value})."""
    c3, c2 = late_card(rules, 3), late_card(rules, 2)
    card = Scorecard.parse(c3, rules)
    last_box = card.rules.boxes[-1].name
    total = card.total
    return {
        "/api/advise": (library_advise, {"dice": "22256", "rules": rules, "card": c3}, {
            "dice": "12346", "rolls_left": "0", "card": c2, "top": "2",
            "target": str(total + 30), "beat": str(total + 30),
            "opponent": late_card(rules, 2, "33345"),
            "opponents": f"{late_card(rules, 2, '33345')};{late_card(rules, 1, '44456')}",
            "tournament": "10"}),
        "/api/stats": (library_stats, {"rules": rules, "card": c3}, {
            "card": c2, "target": str(total + 30)}),
        "/api/card": (library_card, {"rules": rules, "card": c3}, {"card": c2}),
        "/api/place": (library_place, {"rules": rules, "card": c3, "dice": "22256",
                                       "box": last_box},
                       {"card": c2, "dice": "66666", "box": card.rules.boxes[-2].name}),
        "/api/distribution": (library_distribution, {"rules": rules, "card": c3},
                              {"card": c2}),
        "/api/train": (library_train, {"rules": rules, "seed": "5", "positions": "2"}, {
            "seed": "6", "positions": "3", "target": "200", "beat": "250"}),
        "/api/grade": (library_grade, {"rules": rules, "card": c3, "dice": "22256",
                                       "answer": "score " + last_box}, {
            "card": c2, "dice": "12346", "rolls_left": "0", "answer": "keep 2",
            "target": str(total + 30), "beat": str(total + 30)}),
    }


def answer_of(server, path: str, params: dict) -> dict:
    status, body = server.get(path, params)
    assert status == 200, (path, params, body)
    if path == "/api/stats":
        assert body.pop("seconds") >= 0
    return body


def check(server, table_of, path: str, library, params: dict) -> dict:
    body = answer_of(server, path, params)
    want = library(table_of, params)
    if path == "/api/distribution":
        same_distribution(body, want)
    else:
        assert body == want, (path, params)
    return want


def endpoints_of(rules: str) -> list[str]:
    return [path for path in questions(rules) if path != "/api/grade" or rules in TRAIN_RULES]


@pytest.mark.parametrize("rules", RULE_NAMES)
def test_every_parameter_of_every_endpoint_is_answered_as_the_library_answers(
        server, table_of, rules):
    from advisor.request.advise_question import AdviseQuestion
    from advisor.request.grade_question import GradeQuestion
    from advisor.request.page import CARD_PARAMS, PLACE_PARAMS
    from advisor.request.stats_question import StatsQuestion
    from advisor.request.train_question import TrainQuestion

    declared = {"/api/advise": AdviseQuestion.PARAMS, "/api/stats": StatsQuestion.PARAMS,
                "/api/card": CARD_PARAMS, "/api/place": PLACE_PARAMS,
                "/api/distribution": CARD_PARAMS, "/api/train": TrainQuestion.PARAMS,
                "/api/grade": GradeQuestion.PARAMS}
    table_of(rules)
    for path in endpoints_of(rules):
        library, base, changes = questions(rules)[path]
        # every parameter the endpoint takes is varied here (why: tests/web/app/test_train_api)
        assert set(changes) | {"rules"} >= set(declared[path]) - {"why"}, path
        want = check(server, table_of, path, library, base)
        for name, value in changes.items():
            changed = {**base, name: value}
            if name == "beat":
                changed.pop("target", None)
            other = check(server, table_of, path, library, changed)
            assert other != want, f"{path}: {name}={value} changes nothing"


@pytest.mark.parametrize("rules", [r for r in RULE_NAMES if r != "official"])
def test_the_rules_parameter_of_every_endpoint_is_not_the_default(server, table_of, rules):
    """The same question under ``rules`` and under the default rules: the server gives the
    library's answer of ``rules``, which differs from the default's."""
    table_of(rules)
    new_game = {"/api/advise": {"dice": "22256"}, "/api/card": {}, "/api/rules": {},
                "/api/train": {"seed": "5", "positions": "2"},
                "/api/place": {"dice": "22256", "box": "twos"}}
    for path, params in new_game.items():
        ours = answer_of(server, path, {**params, "rules": rules})
        default = answer_of(server, path, params)
        assert ours != default, path
        if path == "/api/rules":
            ruleset = get_rules(rules)
            assert (ours["name"], ours["upper_bonus"], ours["rolls_per_turn"]) == (
                rules, ruleset.upper_bonus, ruleset.rolls_per_turn)
            assert [b["name"] for b in ours["boxes"]] == [b.name for b in ruleset.boxes]
            assert [tuple(b["aliases"]) for b in ours["boxes"]] == [
                b.aliases for b in ruleset.boxes]
            assert ours["yahtzee_bonus"] == (ruleset.yahtzee_bonus if ruleset.n_flags == 2
                                             else 0)
        else:
            library = questions(rules)[path][0]
            assert ours == library(table_of, {**params, "rules": rules}), path
    for path in ("/api/stats", "/api/distribution", *(("/api/grade",) if rules in TRAIN_RULES
                                                      else ())):
        library, base, _ = questions(rules)[path]
        check(server, table_of, path, library, base)
        default = {**base, "rules": "official"}
        try:
            Scorecard.parse(base["card"], "official")
        except ValueError:
            continue  # the card does not even read under the default rules
        assert answer_of(server, path, default) != answer_of(server, path, base), path


def test_the_figures_the_page_shows_of_a_card_are_its_entries(server):
    """/api/card of cards with every upper subtotal from 0 to 105 (and random lower
    entries), every rule set: the upper subtotal, the bonus, what the bonus still needs,
    the total, the open boxes and the turn, from the entries alone."""
    from advisor.request.page import describe_card

    asked = 0
    for rules in RULE_NAMES:
        for i, card in enumerate(random_cards(rules, 400, open_share=0.3)):
            want = shown_card(card)
            assert describe_card(card) == want
            if i < 15 or want["upper_subtotal"] in (62, 63, 64):
                asked += 1
                assert answer_of(server, "/api/card", {"card": str(card),
                                                       "rules": rules}) == want
    assert asked > 5 * 15


def test_a_parameter_given_twice_counts_its_last_value_as_the_cli_does(server):
    from click.testing import CliRunner

    from advisor.cli import cli

    for path, command, key, values, rest in (
            ("/api/advise", "advise", "dice", ("11111", "22256"), []),
            ("/api/advise", "advise", "rules", ("yatzy", "two-rolls"), ["--dice", "22256"]),
            ("/api/card", None, "card", ("twos=6", "threes=9"), [])):
        query = "&".join(f"{key}={v}" for v in values)
        extra = "&dice=22256" if rest else ""
        status, body = server.request("GET", f"{path}?{query}{extra}")
        assert status == 200
        if command is None:
            assert body == shown_card(Scorecard.parse(values[-1]))
            continue
        args = [command, "--json", *rest]
        for v in values:
            args += [f"--{key}", v]
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0, result.output
        assert body == json.loads(result.stdout)
        assert body == answer_of(server, path, {key: values[-1], **({"dice": "22256"}
                                                                   if rest else {})})


@pytest.mark.parametrize("rules", RULE_NAMES)
def test_a_record_of_every_rule_set_is_described_turn_by_turn(server, rules):
    """POST /api/record of a two-player game of ``rules`` after every turn and in the
    middle of the last one, in both forms: the record, its text, each player's card as
    /api/card shows it (from the entries alone), ``finished`` only once every box of
    both cards is filled, and the expected score as its objective (no first line says
    another)."""
    from advisor.record import GameRecord
    from solver.game.move import Move

    players = ("Ann", "Bob")
    n_boxes = get_rules(rules).n_boxes
    record = GameRecord(rules, players)

    def check(record: GameRecord, finished_turns: int) -> None:
        want = {"record": record.to_json(), "text": str(record),
                "cards": {name: shown_card(card) for name, card in record.cards().items()},
                "finished": finished_turns == len(players) * n_boxes,
                "objective": {"kind": "ev"}, "objective_line": "",  # no objective line
                "objective_page": None}
        for body in (str(record), json.dumps(record.to_json())):
            status, answer = server.request("POST", "/api/record", body.encode())
            assert (status, answer) == (200, want), (rules, finished_turns)

    check(record, 0)
    for turn in range(len(players) * n_boxes):
        player = players[turn % len(players)]
        first_open = record.cards()[player].open_boxes()[0]
        record = record.with_roll(Dice("22256"))
        if turn == len(players) * n_boxes - 1:  # the last turn, in progress
            record = record.with_move(Move.keeping("222"))
            check(record, turn)
            record = record.with_roll(Dice("22234"))
            check(record, turn)
        record = record.with_move(Move(box=get_rules(rules).boxes[first_open].name))
        check(record, turn + 1)
    assert record.is_finished


@pytest.mark.parametrize("rules", RULE_NAMES)
def test_every_parameter_under_every_objective_is_answered_as_the_library_answers(
        server, table_of, rules):
    """/api/advise under a target, beat, one opponent and two (answered from the turn
    solved in the background, not the expected-score path): dice, rolls left and top
    each as the library answers, and each changes the answer."""
    table_of(rules)
    _, base, changes = questions(rules)["/api/advise"]
    for name in ("target", "beat", "opponent", "opponents"):
        asked = {**base, name: changes[name]}
        want = check(server, table_of, "/api/advise", library_advise, asked)
        assert want["objective"]["kind"] != "ev"
        for key in ("dice", "rolls_left", "top"):
            other = check(server, table_of, "/api/advise", library_advise,
                          {**asked, key: changes[key]})
            assert other != want, f"{name}: {key}={changes[key]} changes nothing"


def test_the_rules_endpoint_of_every_rule_set_is_the_rule_sets_own(server):
    """GET /api/rules?rules=R, field by field, from the rule set R itself: its summary,
    rolls, bonuses, every box (name, label, upper or not, short names), and every rule
    set under its own name and summary."""
    from solver.game.rules import get_rules

    for rules in RULE_NAMES:
        ruleset = get_rules(rules)
        body = answer_of(server, "/api/rules", {"rules": rules})
        boxes = body.pop("boxes")
        assert body == {
            "name": rules, "summary": ruleset.summary,
            "rolls_per_turn": ruleset.rolls_per_turn, "upper_bonus": ruleset.upper_bonus,
            "upper_target": UPPER_TARGET,
            "yahtzee_bonus": ruleset.yahtzee_bonus if ruleset.n_flags == 2 else 0,
            "rule_sets": [{"name": n, "summary": get_rules(n).summary} for n in RULE_NAMES],
            "objectives": ["ev", "target", "win", "tournament"],
            # from the first turn: the most boxes of any rule set
            "win_from": max(get_rules(n).n_boxes for n in RULE_NAMES)}, rules
        assert len({r["summary"] for r in body["rule_sets"]}) == len(RULE_NAMES)
        assert [b["name"] for b in boxes] == [b.name for b in ruleset.boxes]
        for box, shown in zip(ruleset.boxes, boxes, strict=True):
            assert shown["upper"] == (box.face > 0), (rules, box.name)
            assert list(shown["aliases"]) == list(box.aliases), (rules, box.name)
            label = shown["label"]
            assert label.lower().replace(" ", "_") == box.name and label[0].isupper(), label
