"""A rule set's box names: a misspelt box names the closest box ("did you mean"), in a card
and in a move; nothing close gives no guess."""

from __future__ import annotations

import pytest

from solver.errors import InvalidCardError, InvalidMoveError
from solver.game.move import Move
from solver.game.rules import RULE_NAMES, get_rules


@pytest.mark.parametrize("typed, meant", [
    ("chanse", "chance"), ("Full Hose", "full_house"), ("yahtze", "yahtzee"),
    ("sixs", "sixes"), ("small stright", "small_straight"), ("threeofakind",
                                                            "three_of_a_kind")])
def test_a_misspelt_box_names_the_closest_box(typed, meant):
    rules = get_rules("official")
    assert rules.closest_box(typed) == meant
    with pytest.raises(InvalidCardError, match=f"did you mean {meant}\\? boxes are: aces"):
        rules.box_index(typed)
    with pytest.raises(InvalidMoveError, match=f"did you mean 'score {meant}'"):
        Move.parse(f"score {typed}", rules)


@pytest.mark.parametrize("typed", ["xyz", "4", "3ks", "keeper"])
def test_nothing_close_gives_no_guess(typed):
    rules = get_rules("official")
    assert rules.closest_box(typed) is None
    with pytest.raises(InvalidCardError) as caught:
        rules.box_index(typed)
    assert "did you mean" not in str(caught.value)


def test_every_box_name_and_alias_is_its_own_closest_box():
    for name in RULE_NAMES:
        rules = get_rules(name)
        for box in rules.boxes:
            for alias in (box.name, *box.aliases):
                if len(alias) > 2:
                    assert rules.closest_box(alias) == box.name
