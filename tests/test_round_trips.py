"""Every round trip the project promises, over every value (not examples): every keep and
every box of every rule set through a move's text, an option's text and JSON, a record
token, and back; every alias of every rule set to its box (pinned, not read from the
code); every single-entry card and every card of played games through text, JSON, repr
and pickling; every roll through its text forms."""

from __future__ import annotations

import itertools
import pickle
import random

import pytest

from advisor.advice import Option
from advisor.model import Dice, Keep, Scorecard
from solver.errors import InvalidCardError, InvalidMoveError
from solver.game.card import BONUS_KEY
from solver.game.dice import DICE, FACES
from solver.game.move import Move, canonical_box
from solver.game.rules import RULE_NAMES, get_rules
from tests.cards import random_cards

YAHTZEE_ALIASES = {
    "aces": ("ones", "1s"), "twos": ("2s",), "threes": ("3s",), "fours": ("4s",),
    "fives": ("5s",), "sixes": ("6s",), "three_of_a_kind": ("3k",),
    "four_of_a_kind": ("4k",), "full_house": ("fh",), "small_straight": ("ss",),
    "large_straight": ("ls",), "yahtzee": ("yz",), "chance": ("ch",),
}
YATZY_ALIASES = {
    "ones": ("aces", "1s"), "twos": ("2s",), "threes": ("3s",), "fours": ("4s",),
    "fives": ("5s",), "sixes": ("6s",), "one_pair": ("pair", "1p"), "two_pairs": ("2p",),
    "three_of_a_kind": ("3k",), "four_of_a_kind": ("4k",), "small_straight": ("ss",),
    "large_straight": ("ls",), "full_house": ("fh",), "chance": ("ch",), "yatzy": ("yz",),
}
"""Box name -> its short names, in card order (the published boxes of each rule set)."""


def aliases_of(rules: str) -> dict[str, tuple[str, ...]]:
    return YATZY_ALIASES if rules == "yatzy" else YAHTZEE_ALIASES


def every_keep() -> list[tuple[int, ...]]:
    """The 462 keeps: every multiset of 0 to 5 faces."""
    return [keep for n in range(DICE + 1)
            for keep in itertools.combinations_with_replacement(range(1, FACES + 1), n)]


def spellings(name: str) -> list[str]:
    """``name`` as users may type it: any case, ``-`` or ``_`` or a space, outer spaces."""
    dashed = name.replace("_", "-")
    return [name, name.upper(), name.title(), dashed, dashed.upper(), name.replace("_", " "),
            f"  {name} ", name.capitalize()]


def test_there_are_462_keeps_and_252_rolls():
    assert len(every_keep()) == 462
    assert len(set(every_keep())) == 462
    rolls = [k for k in every_keep() if len(k) == DICE]
    assert len(rolls) == 252


@pytest.mark.parametrize("rules", RULE_NAMES)
def test_every_keep_through_move_text_option_json_and_record_token(rules):
    for faces in every_keep():
        move = Move(keep=faces)
        shuffled = list(faces)
        random.Random(hash(faces)).shuffle(shuffled)
        assert Move.keeping(shuffled) == move == Move.keeping("".join(map(str, shuffled)))
        assert Move.parse(str(move), rules) == move, faces
        assert Move.parse(str(move)) == move, faces
        assert eval(repr(move), {"Move": Move}) == move  # noqa: S307 (a constructor)
        assert Move.keeping(move.record_token()) == move, faces
        assert Move.parse(f"keep {' '.join(map(str, shuffled))}", rules) == move
        option = Option("keep", 0.0, keep=Keep(faces))
        assert option.move == move
        assert Move.parse(option.describe(), rules) == move, option.describe()
        data = option.to_json()
        assert (data["action"], Move(keep=tuple(data["keep"]))) == ("keep", move)
        assert Keep(str(Keep(faces))) == Keep(faces) == Keep(Keep(faces).spaced())
        assert pickle.loads(pickle.dumps(move)) == move
    assert str(Move(keep=())) == "reroll all" and Move(keep=()).record_token() == "-"


def test_every_roll_through_its_text_forms():
    for faces in (k for k in every_keep() if len(k) == DICE):
        dice = Dice(faces)
        assert dice.faces == faces
        for text in (str(dice), dice.spaced(), ",".join(map(str, faces)),
                     ", ".join(map(str, reversed(faces))), "".join(map(str, reversed(faces)))):
            assert Dice(text) == dice, text
        assert eval(repr(dice), {"Dice": Dice}) == dice  # noqa: S307 (a constructor)
        assert Dice(str(dice)).roll_index == dice.roll_index
    assert len({Dice(k).roll_index for k in every_keep() if len(k) == DICE}) == 252


@pytest.mark.parametrize("rules", RULE_NAMES)
def test_the_boxes_and_their_aliases_are_the_published_ones(rules):
    ruleset = get_rules(rules)
    assert {b.name: b.aliases for b in ruleset.boxes} == aliases_of(rules)
    assert [b.name for b in ruleset.boxes] == list(aliases_of(rules))
    every = [s for b in ruleset.boxes for s in (b.name, *b.aliases)]
    assert len(every) == len(set(every)), "a name or alias of two boxes"


@pytest.mark.parametrize("rules", RULE_NAMES)
def test_every_alias_of_every_rule_set_names_its_box(rules):
    ruleset = get_rules(rules)
    for b, (name, aliases) in enumerate(aliases_of(rules).items()):
        for word in (name, *aliases):
            for text in spellings(word):
                assert ruleset.box_index(text) == b, (rules, text)
                assert canonical_box(text, rules) == name, (rules, text)
                assert Move.parse(f"score {text}", rules).box == name, (rules, text)
                assert Move.parse(text, rules) == Move(box=name), (rules, text)
                assert Move.scoring(text, rules).box == name, (rules, text)
            low = min(ruleset.possible_points(b))
            card = Scorecard.parse(f"{word}={low}", rules)
            assert card.entries[b] == low and card.filled() == {name: low}, (rules, word)
    if rules != "yatzy":
        for name, aliases in YAHTZEE_ALIASES.items():  # a box of any rule set, no rules given
            for word in (name, *aliases):
                assert canonical_box(word) == name and Move.parse(f"s {word}").box == name
    for name, aliases in aliases_of(rules).items():
        for word in (name, *aliases):
            # no rules given: the default rules' box of that name, else this rule set's
            known = word in YAHTZEE_ALIASES or any(word in a for a in YAHTZEE_ALIASES.values())
            want = canonical_box(word, "official") if known else name
            for text in spellings(word):
                assert canonical_box(text) == want, (rules, text)
                assert Move.parse(f"score {text}").box == want, (rules, text)
                assert Move.parse(text) == Move(box=want), (rules, text)
                assert Move.scoring(text).box == want, (rules, text)
    with pytest.raises(InvalidCardError):
        ruleset.box_index("one_pair" if rules != "yatzy" else "yahtzee")


@pytest.mark.parametrize("rules", RULE_NAMES)
def test_every_box_through_move_text_option_text_and_json(rules):
    ruleset = get_rules(rules)
    for b, box in enumerate(ruleset.boxes):
        move = Move.scoring(box.name, rules)
        assert move == Move(box=box.name) and move.box == box.name
        assert Move.parse(str(move), rules) == move
        assert eval(repr(move), {"Move": Move}) == move  # noqa: S307 (a constructor)
        assert Move.scoring(move.record_token(), rules) == move
        bonuses = (0, ruleset.yahtzee_bonus) if ruleset.n_flags == 2 else (0,)
        for points in sorted(ruleset.possible_points(b)):
            for bonus in bonuses:
                option = Option("score", 0.0, box=box.name, points=points, bonus=bonus)
                parsed = Move.parse(option.describe(), rules)
                assert parsed == option.move == move, option.describe()
                assert parsed.points == points, option.describe()
                data = option.to_json()
                assert (data["action"], data["points"], data["bonus"]) == ("score", points,
                                                                           bonus)
                assert Move.scoring(data["box"], rules) == move


@pytest.mark.parametrize("rules", RULE_NAMES)
def test_every_entry_of_every_box_through_card_text_json_repr_and_pickle(rules):
    ruleset = get_rules(rules)
    for b, box in enumerate(ruleset.boxes):
        for points in sorted(ruleset.possible_points(b)):
            for word in (box.name, *box.aliases):
                card = Scorecard.parse(f"{word}={points}", rules)
                assert card.entries == tuple(points if i == b else None
                                             for i in range(ruleset.n_boxes))
                assert_card_round_trips(card)
    with pytest.raises(InvalidCardError):
        Scorecard.parse(f"chance={DICE * FACES + 1}", rules)


def assert_card_round_trips(card: Scorecard) -> None:
    rules = card.rules_name
    assert Scorecard.parse(str(card), rules) == card, str(card)
    assert eval(repr(card), {"Scorecard": Scorecard}) == card  # noqa: S307 (a constructor)
    assert pickle.loads(pickle.dumps(card)) == card
    data = card.to_json()
    assert Scorecard.parse(data["text"], rules) == card
    pairs = [f"{name}={points}" for name, points in data["entries"].items()]
    if data[BONUS_KEY]:
        pairs.append(f"{BONUS_KEY}={data[BONUS_KEY]}")
    assert Scorecard.parse(",".join(pairs), rules) == card
    assert (data["total"], data["upper_subtotal"], data["upper_bonus"]) == (
        card.total, card.upper_subtotal, card.upper_bonus)
    ruleset = card.rules
    upper = sum(e for b, e in enumerate(card.entries) if e is not None and
                ruleset.boxes[b].is_upper)
    assert data["upper_subtotal"] == upper
    assert data["upper_bonus"] == (ruleset.upper_bonus if upper >= 63 else 0)
    assert data["total"] == (sum(e for e in card.entries if e is not None)
                             + data["upper_bonus"] + ruleset.yahtzee_bonus * data[BONUS_KEY])


def played_cards(rules: str, seed: int) -> list[Scorecard]:
    """Every card of one random game of ``rules`` (random dice, random legal boxes), with
    five alike now and then so that Jokers and Yahtzee bonuses occur."""
    rng = random.Random(seed)
    card = Scorecard.new(rules)
    cards = [card]
    while not card.is_full:
        face = rng.randint(1, FACES)
        dice = Dice([face] * DICE) if rng.random() < 0.3 else Dice(
            [rng.randint(1, FACES) for _ in range(DICE)])
        allowed = card.rules.placements(dice.faces, card.mask, card.yahtzee_holds_50)
        card = card.place(dice, rng.choice(allowed).box)
        cards.append(card)
    return cards


GAMES = 40


@pytest.mark.parametrize("rules", RULE_NAMES)
def test_every_card_of_played_games_round_trips(rules):
    bonuses = 0
    for seed in range(GAMES):
        for card in played_cards(rules, seed):
            assert_card_round_trips(card)
            # typed in again, the card is checked as a user's card is, and accepted
            assert Scorecard(card.entries, card.yahtzee_bonuses, rules) == card
            bonuses += card.yahtzee_bonuses
    assert bonuses > 0 or get_rules(rules).n_flags == 1
    typed = random_cards(rules, 300)  # cards as typed: upper subtotals up to 105
    for card in typed:
        assert_card_round_trips(card)
    assert max(card.upper_subtotal for card in typed) > 63


def test_a_move_that_names_no_box_of_the_rules_is_refused():
    with pytest.raises(InvalidMoveError):
        Move.parse("score two_pairs", "official")
    with pytest.raises(InvalidMoveError):
        Move.parse("score yahtzee", "yatzy")


@pytest.mark.parametrize("rules", RULE_NAMES)
def test_every_spelling_of_the_yahtzee_bonus_key_is_the_bonus(rules):
    """``yahtzee_bonus=N`` of a card is spelt as a box name may be (any case, ``-`` for
    ``_``): read as the bonuses (refused by name under rules without the bonus), never
    as an unknown box."""
    ruleset = get_rules(rules)
    five = ruleset.boxes[ruleset.yahtzee_box].name
    plain = f"{five}=50,twos=10,threes=15"  # room for two bonuses (five 2s, five 3s)
    for text in spellings(BONUS_KEY):
        if " " in text.strip():
            continue  # a space ends no box name in a card's text
        for n in (0, 1, 2):
            typed = f"{plain},{text}={n}"
            if ruleset.n_flags == 2:
                card = Scorecard.parse(typed, rules)
                assert card == Scorecard.parse(f"{plain},{BONUS_KEY}={n}", rules), typed
                assert card.yahtzee_bonuses == n, typed
                assert_card_round_trips(card)
            elif n:
                with pytest.raises(InvalidCardError, match="have no Yahtzee bonus"):
                    Scorecard.parse(typed, rules)
            else:
                assert Scorecard.parse(typed, rules) == Scorecard.parse(plain, rules), typed
