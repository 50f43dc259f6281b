"""Every question of the request layer (advisor/request/*_question.py: one layer under the
CLI and the HTTP API) built from its parameters under every rule set, without a table:
each parameter reaches the question (changing it changes the question), every card of
it (the player's, an opponent's) is read under the question's rules, and the keys the
server's background jobs are known by tell every question apart, the rules included."""

from __future__ import annotations

import pytest

from advisor.model import Dice, Scorecard
from advisor.objective import Objective
from advisor.play_win import WinEachTurn
from advisor.record import parse_record
from advisor.request.advise_question import AdviseQuestion
from advisor.request.analyze_question import AnalyzeQuestion
from advisor.request.grade_question import GradeQuestion
from advisor.request.params import PARAMS
from advisor.request.stats_question import StatsQuestion
from advisor.request.train_question import TrainQuestion
from advisor.request.turn_question import TurnQuestion
from solver.game.rules import RULE_NAMES, get_rules


def late_card(rules: str, open_boxes: int, dice: str = "22256") -> str:
    """A card of ``rules`` with all but the last ``open_boxes`` boxes filled by ``dice``."""
    card = Scorecard.new(rules)
    for b in range(card.rules.n_boxes - open_boxes):
        card = card.place(Dice(dice), b)
    return str(card)


def cards_of(question) -> list[Scorecard]:
    """Every card a question holds: its own and its objective's opponents'."""
    own = [question.card] if hasattr(question, "card") else []
    objective = getattr(question, "objective", None)
    return own + list(objective.against if objective is not None else ())


def variations(rules: str) -> dict[type, tuple[dict, dict]]:
    """Question -> (base parameters, {parameter: (changed parameters)}); a change may
    replace several parameters (``beat`` drops ``target``, ``win_from`` needs ``win``)."""
    c3, c2 = late_card(rules, 3), late_card(rules, 2)
    total = Scorecard.parse(c3, rules).total
    opponent, second = late_card(rules, 2, "33345"), late_card(rules, 1, "44456")
    target, beat = str(total + 30), str(total + 29)
    return {
        AdviseQuestion: ({"dice_text": "22256", "card_text": c3}, {
            "dice_text": {"dice_text": "12346"}, "rolls_left": {"rolls_left": 0},
            "card_text": {"card_text": c2}, "top": {"top": 2}, "why": {"why": True},
            "target": {"target": target}, "beat": {"beat": target},
            "opponent": {"opponent": opponent},
            "opponents": {"opponents": f"{opponent};{second}"},
            "tournament": {"tournament": "10"}}),
        StatsQuestion: ({"card_text": c3}, {
            "card_text": {"card_text": c2}, "target": {"target": target}}),
        TrainQuestion: ({"n_positions": 2, "seed": 5}, {
            "n_positions": {"n_positions": 3}, "seed": {"seed": 6},
            "target": {"target": "200"}, "beat": {"beat": "250"},
            "answers_text": {"answers_text": "1|2"}}),
        GradeQuestion: ({"card_text": c3, "dice_text": "22256", "answer_text": "1"}, {
            "card_text": {"card_text": c2}, "dice_text": {"dice_text": "12346"},
            "rolls_left": {"rolls_left": 0}, "answer_text": {"answer_text": "2"},
            "target": {"target": target}, "beat": {"beat": target}}),
        TurnQuestion: ({"card_text": c3, "target": target}, {
            "card_text": {"card_text": c2}, "target": {"target": beat},
            "beat": {"target": None, "beat": target},
            "opponent": {"target": None, "opponent": opponent},
            "opponents": {"target": None, "opponents": f"{opponent};{second}"},
            "tournament": {"target": None, "tournament": "10"}}),
    }


def build(kind: type, rules: str, params: dict):
    return kind.parse(rules_name=rules, **{k: v for k, v in params.items() if v is not None})


@pytest.mark.parametrize("rules", RULE_NAMES)
def test_every_parameter_of_every_question_reaches_it_under_every_rule_set(rules):
    for kind, (base, changes) in variations(rules).items():
        # every parameter the question takes is varied here (rules: the test below)
        declared = {PARAMS[p].keyword for p in kind.PARAMS} - {"rules_name"}
        if kind is TrainQuestion:
            declared |= {PARAMS[p].keyword for p in kind.SESSION_PARAMS} - {"rules_name"}
        assert {name for change in changes.values() for name in change} >= declared, kind
        first = build(kind, rules, base)
        assert all(card.rules_name == rules for card in cards_of(first)), kind
        for name, change in changes.items():
            other = build(kind, rules, {**base, **change})
            assert other != first, f"{kind.__name__}: {name} changes nothing"
            assert all(card.rules_name == rules for card in cards_of(other)), (kind, name)
            if kind is TurnQuestion:
                assert other.key != first.key, f"{name} does not change the job's key"
    both = build(AdviseQuestion, rules, {"dice_text": "22256", "card_text": "",
                                         "opponents": f"{late_card(rules, 2)};"
                                                      f"{late_card(rules, 3)}"})
    assert both.objective == Objective.win_against(
        [Scorecard.parse(late_card(rules, 2), rules), Scorecard.parse(late_card(rules, 3),
                                                                     rules)])


def test_the_same_card_under_two_rule_sets_is_two_questions_and_two_jobs():
    """A card's text that reads under several rule sets (the same boxes): a question of
    each rule set is its own, and so is the background job of its turn."""
    texts = ("", "twos=6,threes=9", late_card("official", 3))
    for text in texts:
        keys = {}
        for rules in RULE_NAMES:
            try:
                Scorecard.parse(text, rules)
            except ValueError:
                continue
            turn = TurnQuestion.parse(card_text=text, rules_name=rules, target="200")
            assert turn.card.rules_name == rules
            assert turn.key not in keys, (text, rules, keys.get(turn.key))
            keys[turn.key] = rules
            assert StatsQuestion.parse(card_text=text, rules_name=rules).card.rules_name == rules
        assert len(keys) >= 4, text


@pytest.mark.parametrize("rules", RULE_NAMES)
def test_every_objective_of_a_review_is_the_one_asked(rules):
    """``POST /api/analyze`` (and its job) of a two-player record of every rule set: each
    objective parameter gives the judging ``yahtzee analyze`` gives, the opponent's card
    read under the record's rules, ``win_from`` from 1 to every box."""
    record = parse_record(f"rules {rules}\nplayers Ann,Bob\n")
    opponent = late_card(rules, 2, "33345")
    card = Scorecard.parse(opponent, rules)
    assert AnalyzeQuestion.parse(record).judging == Objective.ev()
    assert AnalyzeQuestion.parse(record, objective_name="ev").judging == Objective.ev()
    assert AnalyzeQuestion.parse(record, target="240").judging == Objective.for_target(240)
    assert AnalyzeQuestion.parse(record, beat="240").judging == Objective.for_target(241)
    judged = AnalyzeQuestion.parse(record, opponent=opponent).judging
    assert judged == Objective.win(card) and judged.opponent.rules_name == rules
    assert AnalyzeQuestion.parse(record, objective_name="win").judging == WinEachTurn()
    keys = set()
    for n in range(1, get_rules(rules).n_boxes + 1):
        question = AnalyzeQuestion.parse(record, objective_name="win", win_from=n)
        assert question.judging == WinEachTurn(n)
        keys.add(question.key)
    assert len(keys) == get_rules(rules).n_boxes


@pytest.mark.parametrize("rules", RULE_NAMES)
def test_the_win_objective_applies_from_win_from_open_boxes_on(rules):
    """``--objective win --win-from N``: a player with N or fewer boxes open plays for the
    chance to win (against the others' cards, read under the game's rules), with more
    open for the expected score; for every N and every number of open boxes."""
    n_boxes = get_rules(rules).n_boxes
    other = Scorecard.parse(late_card(rules, 2, "33345"), rules)
    for n_open in range(1, n_boxes + 1):
        mine = Scorecard.parse(late_card(rules, n_open), rules)
        cards = {"Ann": mine, "Bob": other}
        for win_from in range(1, n_boxes + 1):
            objective = WinEachTurn(win_from).objective_for(cards, "Ann")
            if n_open <= win_from:
                assert objective == Objective.win(other), (n_open, win_from)
            else:
                assert objective.is_ev, (n_open, win_from)
