"""`yahtzee rules`: text generated from the rule sets themselves."""

from __future__ import annotations

from click.testing import CliRunner

from advisor.cli import cli
from solver.game.boxes import CHANCE
from solver.game.rules import RULE_NAMES, RuleSet, get_rules
from solver.game.ruletext import describe


def _run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_listing_names_every_rule_set_once_per_line() -> None:
    result = _run("rules")
    assert result.exit_code == 0
    lines = result.output.strip().splitlines()
    assert [line.split()[0] for line in lines] == list(RULE_NAMES)


def test_official_text_states_the_numbers_of_the_rule_book() -> None:
    text = _run("rules", "official").output
    assert "3 rolls at most" in text and "13 turns" in text
    assert "Upper bonus: 35" in text and "Yahtzee bonus: 100" in text
    assert "2,2,2,5,6 scores 17" in text  # Three of a Kind example of docs/rules.md
    joker = text[text.index("Joker:"):]
    # the forced order: matching upper box, then lower boxes with Joker points, then 0 upper
    assert joker.index("1. fives 25") < joker.index("large_straight 40") < joker.index("3. aces 0")


def test_variants_follow_their_data() -> None:
    assert "2 rolls at most" in _run("rules", "two-rolls").output
    assert "No Yahtzee bonus." in _run("rules", "no-bonus").output
    yatzy = _run("rules", "yatzy").output
    assert "15 turns" in yatzy and "Upper bonus: 50" in yatzy
    assert "3,3,3,5,5 scores 19" in yatzy  # full house: sum of the dice
    assert "Any open box may take it" in _run("rules", "free-joker").output


def test_text_is_generated_from_the_rule_set_not_written_by_hand() -> None:
    base = get_rules("official")
    odd = RuleSet("odd", "a test rule set", base.boxes[:6] + (CHANCE,) + base.boxes[11:12],
                  rolls_per_turn=4, upper_bonus=99, yahtzee_bonus=7, joker="none")
    text = describe(odd)
    assert "4 rolls at most" in text and "8 turns" in text
    assert "Upper bonus: 99" in text and "Yahtzee bonus: 7" in text
    assert "full_house" not in text


def test_unknown_rule_set_is_one_line_listing_the_valid_ones() -> None:
    result = _run("rules", "yahtzee-deluxe")
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:")
    assert all(name in lines[0] for name in RULE_NAMES)
    assert "Traceback" not in result.output


def test_rules_show_the_short_names():
    out = _run("rules", "official").stdout
    assert "three_of_a_kind  3k" in out and "aces             1s" in out
    assert "chance           ch" in out
