"""The figures the CLI shows of a card (``yahtzee play``'s summary line and card, the
page's twin of /api/card) from the entries alone, for random cards of every rule set:
the upper subtotal, whether the bonus is earned, out of reach or how much it still needs
(by trying every way to fill the open upper boxes), the Yahtzee bonuses and the total."""

from __future__ import annotations

import itertools

import pytest

from advisor.model import Scorecard
from advisor.text import card_lines, card_summary, upper_text
from solver.game.rules import RULE_NAMES, UPPER_TARGET
from tests.cards import random_cards


def most_upper_still(card: Scorecard) -> int:
    """The most the open upper boxes can add, by trying every filling (0 to 5 dice)."""
    faces = [box.face for b, box in enumerate(card.rules.boxes)
             if box.is_upper and card.entries[b] is None]
    return max((sum(f * n for f, n in zip(faces, counts, strict=True))
                for counts in itertools.product(range(6), repeat=len(faces))), default=0)


@pytest.mark.parametrize("rules", RULE_NAMES)
def test_what_the_upper_bonus_still_needs(rules):
    seen = set()
    for card in random_cards(rules, 300):
        upper = sum(e for b, e in enumerate(card.entries)
                    if e is not None and card.rules.boxes[b].is_upper)
        if upper >= UPPER_TARGET:
            want, kind = f"upper {upper}: bonus earned", "earned"
        elif upper + most_upper_still(card) < UPPER_TARGET:
            want, kind = f"upper {upper}: bonus out of reach", "out of reach"
        else:
            want, kind = f"upper {upper}: bonus needs {UPPER_TARGET - upper} more", "needs"
        seen.add(kind)
        assert upper_text(card) == want, str(card)
        n_open = sum(e is None for e in card.entries)
        total = (sum(e for e in card.entries if e is not None)
                 + (card.rules.upper_bonus if upper >= UPPER_TARGET else 0))
        assert card_summary(card) == (f"total {total} | {want} | {n_open} "
                                      f"box{'' if n_open == 1 else 'es'} open")
        lines = card_lines(card)
        assert lines[-1].split() == ["total", str(total)]
        bonus_line = next(line for line in lines if line.strip().startswith("upper bonus"))
        assert bonus_line.split()[:3] == ["upper", "bonus", str(total - sum(
            e for e in card.entries if e is not None))]
        assert f"(upper {upper} of 63)" in bonus_line
    assert seen == {"earned", "out of reach", "needs"}


def test_the_yahtzee_bonuses_count_in_the_card_and_its_total():
    card = Scorecard.parse("yahtzee=50,twos=10,threes=15,yahtzee_bonus=2")
    lines = card_lines(card)
    assert "Yahtzee bonus     200" in "\n".join(lines)
    assert lines[-1].split() == ["total", str(50 + 10 + 15 + 200)]
    assert card_summary(card).startswith("total 275 | upper 25: bonus needs 38 more")


@pytest.mark.parametrize("rules", RULE_NAMES)
def test_a_bonus_reachable_exactly_still_needs_its_points(rules):
    first = Scorecard.new(rules).rules.boxes[0].name
    card = Scorecard.parse(f"{first}=3,twos=6,threes=9,fours=0,fives=15", rules)  # 33, sixes open
    assert most_upper_still(card) == 30
    assert upper_text(card) == "upper 33: bonus needs 30 more"
    card = Scorecard.parse(f"{first}=1,twos=6,threes=9,fours=0,fives=15", rules)  # 31 + 30 < 63
    assert upper_text(card) == "upper 31: bonus out of reach"


@pytest.mark.parametrize("rules", RULE_NAMES)
def test_the_open_boxes_are_listed_with_their_shortest_short_name(rules):
    """``yahtzee play``'s list of open boxes, for random cards of every rule set: each
    open box in card order with its shortest short name, which names that box."""
    from advisor.text import open_boxes_text
    from solver.game.move import Move

    for card in random_cards(rules, 60):
        ruleset = card.rules
        want = []
        for b in card.open_boxes():
            box = ruleset.boxes[b]
            shortest = sorted(box.aliases, key=len)[0]
            assert Move.parse(shortest, rules).box == box.name
            want.append(f"{box.name} ({shortest})")
        assert open_boxes_text(card) == (", ".join(want) or "none"), str(card)
