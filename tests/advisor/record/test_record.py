"""Game records: text and JSON round trips, the rule set's checks, line and token named."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from advisor.cli import cli
from advisor.record import GameRecord, Turn, parse_record
from advisor.record_file import read_record, write_record
from solver.errors import InvalidRecordError
from solver.game.move import Move

EXAMPLE = """\
rules official              # optional, default official
players Ann,Bob             # optional, default one player
Ann: 22256 222 22234 2223 22235 twos
Bob: 12345 large_straight
Ann: 44666 666 13666 - 23456 large_straight
"""


def test_the_interface_example_parses_and_round_trips():
    record = parse_record(EXAMPLE)
    assert record.players == ("Ann", "Bob") and len(record.turns) == 3
    first = record.turns[0]
    assert [str(r) for r in first.rolls] == ["22256", "22234", "22235"]
    assert [str(k) for k in first.keeps] == ["222", "2223"] and first.box == "twos"
    assert record.turns[2].keeps[1].faces == ()
    assert parse_record(str(record)) == record
    as_json = json.dumps(record.to_json())
    assert parse_record(as_json) == record
    assert record.to_json()["turns"][0] == {"player": "Ann", "rolls": ["22256", "22234", "22235"],
                                           "keeps": ["222", "2223"], "box": "twos"}
    cards = record.cards()
    assert cards["Ann"].total == 46 and cards["Bob"].total == 40
    assert record.next_player == "Bob" and not record.is_finished


def test_one_player_aliases_and_comments():
    record = parse_record("\n# a solo game\n22256 2s   # twos\n\n12345 ls\n")
    assert record.players == ("Player 1",)
    assert [t.box for t in record.turns] == ["twos", "large_straight"]
    assert parse_record("Sam: 22256 2s").players == ("Sam",)


def test_unfinished_last_turn_and_moves():
    record = parse_record("players Ann\nAnn: 22256 222")
    assert record.current is not None and len(record.current.keeps) == 1
    assert str(record).endswith("Ann: 22256 222\n")
    record = record.with_roll(record.turns[0].rolls[0].__class__("22234"))
    record = record.with_move(Move.parse("score 3k"))
    assert record.turns[-1].box == "three_of_a_kind" and record.current is None
    positions = list(record.positions())
    assert [(p.rolls_left, str(p.move)) for p in positions] == [
        (2, "keep 222"), (1, "score three_of_a_kind")]
    assert str(positions[0].next_dice) == "22234"
    back = record.without_last_step().without_last_step()
    assert str(back) == "rules official\nplayers Ann\nAnn: 22256 222\n"


@pytest.mark.parametrize("text, line, token, why", [
    ("Ann: 22256 222 13456 twos", 1, "13456", "does not contain the kept dice"),
    ("22256 - 11111 - 22222 - 33333 twos", 1, "33333", "too many rolls"),
    ("players Ann,Bob\nAnn: 22256 twos\nBob: 11111 aces\nAnn: 22236 twos", 4, "twos",
     "already filled"),
    ("11111 yahtzee\n22222 chance", 2, "chance", "Joker rule forbids"),
    ("players Ann\nBob: 12345 ls", 2, None, "unknown player 'Bob'"),
    ("Ann: 22256 foo", 1, "foo", "unknown box 'foo'"),
    ("Ann: 22256 22222 twos", 1, "22222", "a keep holds 0 to 4 dice"),
    ("Ann: 2225 twos", 1, "2225", "4 dice given"),
    ("Ann: 22256 2227 22223 twos", 1, "2227", "not dice to keep"),
    ("players Ann,Bob\nBob: 22256 twos", 2, None, "out of turn"),
    ("22256 twos chance", 1, "chance", "nothing may follow"),
    ("22256 222\n12345 ls", 1, None, "only the last turn"),
    ("players Ann,,Bob\n", 1, None, "empty"),
    ("rules poker\n", 1, None, "unknown"),
])
def test_bad_records_name_line_and_token(text, line, token, why):
    with pytest.raises(InvalidRecordError) as info:
        parse_record(text)
    message = str(info.value)
    assert message.startswith(f"line {line}")
    assert why in message
    if token is not None:
        assert f"token {token!r}" in message


def test_a_thirteenth_turn_more_is_refused():
    turns = "\n".join(["12345 - 12345 - 12345 " + box for box in
                       ("aces twos threes fours fives sixes 3k 4k fh ss ls yz ch".split())])
    record = parse_record(turns)
    assert record.is_finished
    assert record.cards()["Player 1"].total == 1 + 2 + 3 + 4 + 5 + 30 + 40 + 15
    with pytest.raises(InvalidRecordError, match="line 14: Player 1's card is already full"):
        parse_record(turns + "\n12345 ch")


@pytest.mark.parametrize("data, why", [
    ('{"turns": [{"rolls": ["22256", "13456"], "keeps": ["222"], "box": "twos"}]}',
     "turn 1, token '13456'"),
    ('{"players": ["Ann"], "turns": [{"player": "Bob", "rolls": ["22256"], "box": "twos"}]}',
     "unknown player 'Bob'"),
    ('{"turns": [{"rolls": "22256"}]}', '"rolls" and "keeps" are lists'),
    ('{"turns": [1]}', "a turn is an object"),
    ('{"turns": [', "does not parse"),
    ('{"players": "Ann"}', '"players" is a list'),
])
def test_bad_json_records(data, why):
    with pytest.raises(InvalidRecordError, match=None) as info:
        parse_record(data)
    assert why in str(info.value)


def test_files_written_atomically_and_never_over_other_things(tmp_path):
    record = parse_record(EXAMPLE)
    path = tmp_path / "game.txt"
    write_record(path, record)
    assert read_record(path) == record
    write_record(tmp_path / "game.json", record, as_json=True)
    assert read_record(tmp_path / "game.json") == record
    link = tmp_path / "link.txt"
    link.symlink_to(path)
    with pytest.raises(InvalidRecordError, match="not a regular file"):
        write_record(link, record)
    with pytest.raises(InvalidRecordError, match="does not exist"):
        write_record(tmp_path / "no" / "game.txt", record)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json", "game.txt", "link.txt"]


def test_names_are_checked():
    with pytest.raises(InvalidRecordError, match="at most 8"):
        GameRecord("official", tuple("ABCDEFGHI"))
    with pytest.raises(InvalidRecordError, match="distinct"):
        GameRecord("official", ("Ann", "Ann"))
    with pytest.raises(InvalidRecordError, match="no ':'"):
        GameRecord("official", ("A:nn",))
    assert Turn("Ann", ()).moves == ()


@pytest.mark.parametrize("text, fragment", [
    ("Ann: 22256 222 13456 twos\n", "line 1, token '13456'"),
    ("players Ann\nAnn: 22256 twos\nAnn: 22256 twos\n", "line 3, token 'twos'"),
    ("players Ann\nZed: 22256 twos\n", "unknown player 'Zed'"),
])
def test_analyze_refuses_bad_records_with_exit_2(tmp_path, text, fragment, official_table):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    result = CliRunner().invoke(cli, ["analyze", str(path)])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and fragment in result.stderr
    assert result.stderr.startswith("Error: ")


def test_mutated_records_raise_only_record_errors():
    """Random edits of a valid record (tokens dropped, swapped, replaced by junk) either
    parse or raise InvalidRecordError; nothing else escapes."""
    import random

    rng = random.Random(7)
    junk = ["", "-", "0", "7", "22256", "222", "twos", "Ann:", ":", "#", "{", "}", "players",
            "rules", "x" * 300, "１２３４５", "22,256", "Bob:", "yz", "1s", "\t", "None"]
    lines = EXAMPLE.splitlines()
    for _ in range(600):
        edited = [line.split(" ") for line in lines]
        for _ in range(rng.randint(1, 3)):
            row = rng.choice(edited)
            i = rng.randrange(len(row))
            action = rng.random()
            if action < 0.3:
                del row[i]
            elif action < 0.6:
                row[i] = rng.choice(junk)
            else:
                row.insert(i, rng.choice(junk))
        text = "\n".join(" ".join(row) for row in edited)
        for form in (text, json.dumps({"players": rng.choice([["Ann"], "Ann", [1], []]),
                                       "turns": [{"rolls": [rng.choice(junk)]}]})):
            try:
                parse_record(form)
            except InvalidRecordError:
                pass


@pytest.mark.parametrize("rules", ["official", "free-joker", "no-bonus", "two-rolls", "yatzy"])
def test_every_decision_of_a_record_of_every_rule_set_is_where_it_was_made(rules):
    """``positions()`` of a two-player game of every rule set whose turns use one roll, two,
    and (where the rules allow) three: each decision's card is the player's before the
    turn, its dice the roll it was made on, its rolls left those of the rules after that
    roll, and a keep's next dice the roll after it."""
    from advisor.model import Dice, Scorecard
    from solver.game.rules import get_rules

    ruleset = get_rules(rules)
    per_turn = ruleset.rolls_per_turn
    dice = ("22256", "22234", "22223")
    record = GameRecord(rules, ("Ann", "Bob"))
    played = []  # (player, card before, rolls, keeps, box)
    for t in range(8):
        player = ("Ann", "Bob")[t % 2]
        card = record.cards()[player]
        n_rolls = 1 + t % per_turn
        rolls = [Dice(d) for d in dice[:n_rolls]]
        keeps = [(2, 2, 2)] * (n_rolls - 1)
        box = ruleset.boxes[card.open_boxes()[0]].name
        turn = Turn(player, tuple(rolls), tuple(Move(keep=k).record_token() for k in keeps), box)
        record = record.with_turns((*record.turns, turn))
        played.append((player, card, rolls, keeps, box))
    positions = iter(record.positions())
    for index, (player, card, rolls, keeps, box) in enumerate(played):
        assert isinstance(card, Scorecard) and card.rules_name == rules
        for i, roll in enumerate(rolls):
            position = next(positions)
            assert (position.index, position.player, position.card, position.dice,
                    position.rolls_left) == (index, player, card, roll, per_turn - 1 - i)
            if i < len(keeps):
                assert (position.move, position.next_dice) == (Move(keep=keeps[i]),
                                                               rolls[i + 1])
            else:
                assert (position.move, position.next_dice) == (Move(box=box), None)
    assert next(positions, None) is None
