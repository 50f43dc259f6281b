"""Every refusal of the record reader (advisor/record.py, advisor/record_file.py), each by
a record that breaks that one rule and its whole message: removing any one check either
lets a bad record through or lets a later check name another fault, so each test here
fails when its rule is taken out (the first fault of a record is the one named)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from advisor.model import Dice, Keep
from advisor.record import GameRecord, Turn, check_names, parse_record
from advisor.record_file import MAX_RECORD_BYTES, read_record, read_record_text
from solver.errors import InvalidRecordError

OFFICIAL_BOXES = ("aces, twos, threes, fours, fives, sixes, three_of_a_kind, four_of_a_kind, "
                  "full_house, small_straight, large_straight, yahtzee, chance")
RULE_SETS = "official, free-joker, no-bonus, two-rolls, yatzy"
NAME_RULE = ("use at most 40 characters, no ':', ',' or '#', no outer spaces, no control "
             "characters or line breaks")
LISTS = '"rolls" and "keeps" are lists of dice text such as "22256" and "222"'
FULL_GAME = "\n".join("12345 - 12345 - 12345 " + box for box in
                      "aces twos threes fours fives sixes 3k 4k fh ss ls yz ch".split())

TEXT_REFUSALS = [
    # the header
    ("Ann: 22256 twos\nrules official", "line 2: 'rules' must come before the turns"),
    ("Ann: 22256 twos\nplayers Ann", "line 2: 'players' must come before the turns"),
    ("rules poker", f"line 1: unknown rule set 'poker'; valid rule sets: {RULE_SETS}"),
    ("players Ann,,Bob",
     "line 1: a player name is empty: write names separated by commas, e.g. Ann,Bob"),
    ("players " + "A" * 41, f"line 1: player name '{'A' * 41}': {NAME_RULE}"),
    ("players Ann,Ann", "line 1: player names must be distinct: 'Ann,Ann'"),
    ("players A,B,C,D,E,F,G,H,I", "line 1: 9 players: at most 8"),
    ("players Ann,B\x0bb", f"line 1: player name 'B\\x0bb': {NAME_RULE}; U+000B (a control "
                          f"character) is not"),
    ("A\x0bb: 22256 twos", f"record: player name 'A\\x0bb': {NAME_RULE}; U+000B (a control "
                           f"character) is not"),
    # the lines of turns
    ("\n".join(["12345 ch"] * 15), "line 15: a turn after every card is full (14 turns "
                                   "before it)"),
    ("players Ann,Bob\n22256 twos",
     "line 2: whose turn? write 'NAME: dice ...' when there are several players"),
    ("Ann:", "line 1: a turn needs the dice of the first roll"),
    # the tokens of a turn
    ("22256 twos chance", "line 1, token 'chance': nothing may follow the box twos"),
    ("twos", "line 1, token 'twos': expected the first roll, five faces such as 22256"),
    ("22256 222 twos",
     "line 1, token 'twos': expected the dice rolled after a keep, five faces such as 22256"),
    ("22256 - 11111 - 22222 - 33333 nobox",
     "line 1, token '33333': too many rolls; a turn has at most 3 under rules 'official'"),
    ("rules two-rolls\n22256 - 11111 - 22222 nobox",
     "line 2, token '22222': too many rolls; a turn has at most 2 under rules 'two-rolls'"),
    ("2225 twos", "line 1, token '2225': dice '2225': 4 dice given, need exactly 5 faces 1 "
                  "to 6 (e.g. 22256)"),
    ("22256 2227 22223 twos", "line 1, token '2227': keep 2227: '2227' is not dice to keep; "
                              "write faces 1 to 6 such as 222, or '-' for none"),
    ("22256 22256 22256 nobox", "line 1, token '22256': a keep holds 0 to 4 dice (the dice "
                                "kept before a reroll)"),
    ("22256 foo", f"line 1, token 'foo': unknown box 'foo' for rules 'official'; boxes are: "
                  f"{OFFICIAL_BOXES}"),
    ("rules yatzy\n22256 yahtzee", "line 2, token 'yahtzee': unknown box 'yahtzee' for rules "
                                   "'yatzy'; boxes are: ones, twos, "
                                   "threes, fours, fives, sixes, one_pair, two_pairs, "
                                   "three_of_a_kind, four_of_a_kind, small_straight, "
                                   "large_straight, full_house, chance, yatzy"),
    # the game
    ("players Ann\nBob: 12345 ls", "line 2: unknown player 'Bob'; players are Ann"),
    ("players Ann,Bob\nBob: 22256 twos", "line 2: 'Bob' plays out of turn; it is Ann's turn"),
    ("22256 222\n12345 ls",
     "line 1: the turn has no box; only the last turn of a record may be unfinished"),
    (FULL_GAME + "\n12345 ch", "line 14: Player 1's card is already full (13 turns played)"),
    ("22256 222 13456 twos",
     "line 1, token '13456': the roll does not contain the kept dice 222"),
    ("22256 333 33345 twos", "line 1, token '333': the kept dice are not part of the roll "
                             "22256"),
    ("22256 twos\n22236 twos", "line 2, token 'twos': box twos is already filled (6); open "
                               "boxes: aces, threes, fours, fives, sixes, three_of_a_kind, "
                               "four_of_a_kind, full_house, small_straight, large_straight, "
                               "yahtzee, chance"),
    ("11111 yahtzee\n22222 chance", "line 2, token 'chance': the Joker rule forbids chance "
                                    "for 22222; allowed now: twos"),
]


def turns(*entries: dict) -> str:
    return json.dumps({"turns": list(entries)})


JSON_REFUSALS = [
    ('{"turns": [', "the JSON record does not parse: 'Expecting value: line 1 column 12 "
                    "(char 11)'"),
    ('[1, 2]', "line 1, token '[1,': expected the first roll, five faces such as 22256"),
    ('{"turns": 3}', 'a JSON record is an object {"rules": ..., "players": [...], '
                     '"turns": [...]}'),
    (json.dumps({"rules": 3}), "record: rules must be text, not '3'"),
    (json.dumps({"rules": "poker"}),
     f"record: unknown rule set 'poker'; valid rule sets: {RULE_SETS}"),
    (json.dumps({"players": "Ann"}), '"players" is a list of names, e.g. ["Ann", "Bob"]'),
    (json.dumps({"players": ["Ann", 3]}), '"players" is a list of names, e.g. ["Ann", "Bob"]'),
    (json.dumps({"players": ["Ann", "Ann"]}),
     "record: player names must be distinct: 'Ann,Ann'"),
    (json.dumps({"players": []}), "record: give at least one player name, e.g. Ann,Bob"),
    (turns(*[{"rolls": ["12345"], "box": "ch"}] * 15),
     "turn 15: a turn after every card is full (15 turns given)"),
    (turns(1), "turn 1 (turns[0]): a turn is an object with player, rolls, keeps, box"),
    (json.dumps({"players": ["Ann", "Bob"], "turns": [{"rolls": ["22256"], "box": "twos"}]}),
     "turn 1 (turns[0]): give the player's name"),
    (turns({"player": 3, "rolls": ["22256"], "box": "twos"}),
     "turn 1 (turns[0]): give the player's name"),
    (turns({"rolls": "22256"}), f"turn 1 (turns[0]): {LISTS}"),
    (turns({"rolls": ["22256"], "keeps": "222"}), f"turn 1 (turns[0]): {LISTS}"),
    (turns({"rolls": ["22256"], "keeps": [222]}), f"turn 1 (turns[0]): {LISTS}"),
    (turns({"rolls": [22256]}), f"turn 1 (turns[0]): {LISTS}"),
    (turns({"rolls": ["22256"] * 4, "keeps": ["-"] * 3, "box": "nobox"}),
     "turn 1 (turns[0]): too many rolls; a turn has at most 3 under rules 'official'"),
    (turns({"rolls": ["22256"], "keeps": ["-"] * 4, "box": "nobox"}),
     "turn 1 (turns[0]): too many rolls; a turn has at most 3 under rules 'official'"),
    (turns({"rolls": ["2225"], "box": "nobox"}),
     "turn 1 (turns[0]), token '2225': dice '2225': 4 dice given, need exactly 5 faces 1 "
     "to 6 (e.g. 22256)"),
    (turns({"rolls": ["22256", "22256"], "keeps": ["7"], "box": "nobox"}),
     "turn 1 (turns[0]), token '7': keep 7: '7' is not dice to keep; write faces 1 to 6 "
     "such as 222, or '-' for none"),
    (turns({"rolls": ["22256"], "box": 3}),
     "turn 1 (turns[0]), token '3': box must be text, not '3'"),
    (turns({"rolls": ["22256"], "box": "foo"}),
     f"turn 1 (turns[0]), token 'foo': unknown box 'foo' for rules 'official'; boxes are: "
     f"{OFFICIAL_BOXES}"),
    # the game (checked as a text record's, the turn named by its number)
    (turns({"rolls": ["22256", "22256"], "keeps": ["22256"], "box": "twos"}),
     "turn 1, token '22256': a keep holds 0 to 4 dice"),
    (turns({"rolls": ["22256", "22256"], "keeps": [], "box": "twos"}),
     "turn 1: each reroll needs the dice kept and the dice rolled (22256 twos)"),
    (turns({"rolls": ["22256"], "keeps": ["2", "2"]}),
     "turn 1: each reroll needs the dice kept and the dice rolled (22256 2 2)"),
    (turns({"rolls": ["22256"], "keeps": ["222"], "box": "twos"}),
     "turn 1: each reroll needs the dice kept and the dice rolled (22256 222 twos)"),
    (turns({"rolls": ["22256", "22236"], "keeps": ["222", "2"], "box": "twos"}),
     "turn 1: each reroll needs the dice kept and the dice rolled (22256 222 22236 2 twos)"),
    (turns({"rolls": [], "box": "twos"}), "turn 1: a turn starts with the dice of the first "
                                          "roll"),
    (json.dumps({"players": ["Ann"], "turns": [{"player": "Bob", "rolls": ["22256"]}]}),
     "turn 1: unknown player 'Bob'; players are Ann"),
    (json.dumps({"players": ["Ann", "Bob"], "turns": [{"player": "Bob", "rolls": ["22256"]}]}),
     "turn 1: 'Bob' plays out of turn; it is Ann's turn"),
    (turns({"rolls": ["22256"]}, {"rolls": ["12345"], "box": "ls"}),
     "turn 1: the turn has no box; only the last turn of a record may be unfinished"),
    (turns({"rolls": ["22256", "13456"], "keeps": ["222"], "box": "twos"}),
     "turn 1, token '13456': the roll does not contain the kept dice 222"),
    (turns({"rolls": ["22256", "33345"], "keeps": ["333"], "box": "twos"}),
     "turn 1, token '333': the kept dice are not part of the roll 22256"),
    (turns({"rolls": ["11111"], "box": "yahtzee"}, {"rolls": ["22222"], "box": "chance"}),
     "turn 2, token 'chance': the Joker rule forbids chance for 22222; allowed now: twos"),
    (3, "a record is text (its text or JSON form), not int"),
]


@pytest.mark.parametrize("text, message", TEXT_REFUSALS + JSON_REFUSALS,
                         ids=range(len(TEXT_REFUSALS) + len(JSON_REFUSALS)))
def test_each_refusal_of_a_record_names_its_one_fault(text, message):
    with pytest.raises(InvalidRecordError) as info:
        parse_record(text)
    assert str(info.value) == message


def test_the_same_records_without_their_fault_are_accepted():
    """Each fault above is the only one: mended, the record reads (so a refusal is never
    due to something else)."""
    mended = ["Ann: 22256 twos", "rules official", "players Ann,Bob", "22256 twos",
              "22256 222 22223 twos", "22256 - 11111 - 22222 twos", FULL_GAME,
              "22256 222 22234 twos",
              "11111 yahtzee\n22222 twos", "rules two-rolls\n22256 - 11111 twos",
              "players Ann,Bob\nAnn: 22256 twos\nBob: 22256 twos",
              turns({"rolls": ["22256", "22256"], "keeps": ["2225"], "box": "twos"}),
              turns({"rolls": ["22256"] * 3, "keeps": ["-"] * 2, "box": "twos"})]
    for text in mended:
        parse_record(text)


def test_records_built_from_objects_are_checked_as_records_read():
    dice = Dice("22256")
    cases = [
        (lambda: Turn(3, (dice,)), "a turn's player is a name (text), not int"),
        (lambda: Turn("Ann", dice), "rolls are a list or tuple, not Dice"),
        (lambda: Turn("Ann", (dice,), Keep("2")), "keeps are a list or tuple, not Keep"),
        (lambda: Turn("Ann", (dice,), box=3), "a turn's box is a name (text) or None, not int"),
        (lambda: GameRecord("official", ("Ann",), ("22256 twos",)),
         "a record's turns are Turn objects"),
        (lambda: GameRecord("official", "Ann"), "players are a list or tuple, not str"),
        (lambda: GameRecord("official", ("Ann",), (Turn("Ann", (dice,) * 4, (Keep(""),) * 3,
                                                         "twos"),)),
         "turn 1, token '22256': too many rolls; a turn has at most 3 under rules 'official'"),
        (lambda: GameRecord("official", ("Ann",), (Turn("Ann", (dice, dice), (Keep("22256"),),
                                                         "twos"),)),
         "turn 1, token '22256': a keep holds 0 to 4 dice"),
        (lambda: GameRecord("official", ("Ann",), (Turn("Ann", (dice,), (Keep("222"),),
                                                         "twos"),)),
         "turn 1: each reroll needs the dice kept and the dice rolled (22256 222 twos)"),
        (lambda: check_names("Ann"), "player names are a list of text, e.g. ['Ann', 'Bob'], "
                                     "not 'Ann'"),
        (lambda: check_names([]), "give at least one player name, e.g. Ann,Bob"),
        (lambda: check_names(["Ann", 3]), "a player name is text, not '3'"),
        (lambda: check_names([" Ann"]), f"player name ' Ann': {NAME_RULE}"),
        (lambda: check_names(["A:nn"]), f"player name 'A:nn': {NAME_RULE}; ':' is not"),
        (lambda: check_names(["A,nn"]), f"player name 'A,nn': {NAME_RULE}; ',' is not"),
        (lambda: check_names(["A#nn"]), f"player name 'A#nn': {NAME_RULE}; '#' is not"),
        (lambda: check_names(["A\u2028nn"]), f"player name 'A\\u2028nn': {NAME_RULE}; U+2028 "
                                            "(LINE SEPARATOR) is not"),
    ]
    for build, message in cases:
        with pytest.raises(InvalidRecordError) as info:
            build()
        assert str(info.value) == message


def test_each_refusal_of_a_record_file(tmp_path: Path):
    def refused(path, message: str) -> None:
        with pytest.raises(InvalidRecordError) as info:
            read_record(path)
        assert str(info.value) == message

    refused(tmp_path / "none.txt", f"cannot read the record {tmp_path / 'none.txt'}: No such "
                                   f"file or directory")
    refused(tmp_path, f"cannot read the record: {tmp_path} is a folder, not a regular file")
    refused(3, "a record's path is text or a pathlib.Path, not int")
    refused(b"x.txt", "a record's path is text or a pathlib.Path, not bytes")
    refused("a\0b", "'a\\x00b': a path cannot hold a NUL character")
    big = tmp_path / "big.txt"
    big.write_bytes(b"#" * (MAX_RECORD_BYTES + 1))
    with pytest.raises(InvalidRecordError, match="too large|at most"):
        read_record_text(big)
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"22256 tw\xffos\n")
    refused(bad, f"cannot read the record {bad}: it is not UTF-8 text (byte 9 is 0xff)")
    good = tmp_path / "good.txt"
    good.write_text("22256 twos\n")
    assert read_record(good).cards()["Player 1"].total == 6
    os.chmod(good, 0)
    if os.geteuid() != 0:
        with pytest.raises(InvalidRecordError, match="Permission denied"):
            read_record(good)


def test_a_move_or_an_undo_with_nothing_to_act_on_is_refused():
    from solver.game.move import Move

    done = parse_record("22256 twos")
    for step, message in ((lambda: done.with_move(Move.parse("keep 222")),
                           "no turn in progress: add the dice of a first roll"),
                          (lambda: done.with_move(Move.parse("score aces")),
                           "no turn in progress: add the dice of a first roll"),
                          (lambda: GameRecord().without_last_step(),
                           "nothing to undo: the game has not started")):
        with pytest.raises(InvalidRecordError) as info:
            step()
        assert str(info.value) == message
    assert str(done.without_last_step()) == "rules official\nplayers Player 1\nPlayer 1: 22256\n"


def test_each_refusal_of_a_record_held_for_a_game(tmp_path: Path, monkeypatch):
    """``RecordFile.open`` (``play --resume``) and standard input (``analyze -``) refuse
    what ``read_record`` refuses, each with its own message."""
    import io
    import sys

    from advisor.record_file import RecordFile, read_stdin

    def refused(path, message: str) -> None:
        with pytest.raises(InvalidRecordError) as info:
            RecordFile.open(path).close()
        assert str(info.value) == message

    refused(tmp_path / "none.txt", f"cannot read the record {tmp_path / 'none.txt'}: no such "
                                   f"file")
    refused(tmp_path, f"{tmp_path} is a folder, not a regular file; give a file name")
    good = tmp_path / "good.txt"
    good.write_text("22256 twos\n")
    link = tmp_path / "link.txt"
    link.symlink_to(good)
    refused(link, f"{link} is a symbolic link, not a regular file; give a file name")
    big = tmp_path / "big.txt"
    big.write_bytes(b"#" * (MAX_RECORD_BYTES + 1))
    refused(big, f"cannot read the record {big}: too large for a game record "
                 f"({MAX_RECORD_BYTES + 1:,} bytes; at most {MAX_RECORD_BYTES:,})")
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\xfe22256 twos\n")
    refused(bad, f"cannot read the record {bad}: it is not UTF-8 text (byte 1 is 0xfe)")
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("22256 foo\n")
    refused(wrong, f"line 1, token 'foo': unknown box 'foo' for rules 'official'; boxes are: "
                   f"{OFFICIAL_BOXES}")
    long_name = tmp_path / ("x" * 300)
    from solver.errors import shown_path

    refused(long_name, f"cannot read the record {shown_path(long_name)}: File name too long")
    with RecordFile.open(good) as held:
        assert held.record.cards()["Player 1"].total == 6

    monkeypatch.setattr(sys, "stdin", None)
    with pytest.raises(InvalidRecordError, match="^standard input is closed: give the record"):
        read_stdin()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"#" * (MAX_RECORD_BYTES
                                                                             + 1))))
    with pytest.raises(InvalidRecordError) as info:
        read_stdin()
    assert str(info.value) == (f"the record on standard input is too large (more than "
                               f"{MAX_RECORD_BYTES:,} bytes)")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"2\xff")))
    with pytest.raises(InvalidRecordError) as info:
        read_stdin()
    assert str(info.value) == ("cannot read the record <standard input>: it is not UTF-8 "
                               "text (byte 2 is 0xff)")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"22256 twos\n")))
    assert parse_record(read_stdin()).cards()["Player 1"].total == 6


def test_a_record_file_holds_one_game_of_one_rule_set():
    """A record's form (``play --record``/``--resume`` rewrites it) refuses to write a
    game of other rules or other players, for every pair of rule sets and in both forms;
    a longer game of its own rules and players is written and reads back as it is."""
    from advisor.record_file import RecordForm
    from solver.game.rules import RULE_NAMES

    message = "a record file holds one game: the rules and the players cannot change"
    games = {rules: GameRecord(rules, ("Ann", "Bob"), (Turn("Ann", (Dice("22256"),),
                                                            box="twos"),))
             for rules in RULE_NAMES}
    for rules, game in games.items():
        longer = game.with_roll(Dice("12345"))
        for text in (str(game), json.dumps(game.to_json())):
            form = RecordForm.of(text)
            assert parse_record(form.render(longer)) == longer
            for other, theirs in games.items():
                if other != rules:
                    with pytest.raises(InvalidRecordError) as info:
                        form.render(theirs.with_roll(Dice("12345")))
                    assert str(info.value) == message, (rules, other)
            with pytest.raises(InvalidRecordError) as info:
                form.render(GameRecord(rules, ("Ann", "Cy")))
            assert str(info.value) == message
