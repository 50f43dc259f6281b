"""`yahtzee play`: whole games scripted on stdin."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from advisor.cli import cli

# Each turn: the lines typed (dice thrown, then moves; refused lines are asked again).
ANN = [
    ["33333", "score yahtzee"],                      # 50
    ["33333", "score chance", "score threes"],       # forced Joker: Threes 15 + 100 bonus
    ["33333", "score aces", "score ls"],             # Threes filled: lower box 40 + 100 bonus
    ["11123", "aces"],                               # 3
    ["22256", "score twos"],                         # 6
    ["44456", "s fours"],                            # 12
    ["55561", "score fives"],                        # 15
    ["66612", "score sixes"],                        # 18: upper 69, +35 upper bonus
    ["12345", "score ss"],                           # 30
    ["22333", "score fh"],                           # 25
    ["44441", "score 4k"],                           # 17
    ["66654", "score 3k"],                           # 27
    ["12346", "keep 1234", "6", "keep 1235", "score chance"],  # 16
]
ANN_TOTAL = 50 + 15 + 100 + 40 + 100 + 3 + 6 + 12 + 15 + 18 + 35 + 30 + 25 + 17 + 27 + 16
BOB = [
    ["66666", "score sixes"],                        # Yahtzee box empty: 30, no bonus
    ["12345", "score yahtzee"],                      # scratch: 0
    ["55555", "score fives"],                        # Joker with 0 in Yahtzee: Fives 25, no bonus
    ["11111", "score aces"],                         # 5
    ["2224", "22245", "score twos"],                 # four dice refused; 6
    ["33345", "score threes"],                       # 9
    ["44412", "score fours"],                        # 12: upper 87, +35 upper bonus
    ["12345", "score ls"],                           # 40
    ["23456", "score ss"],                           # 30
    ["55566", "score fh"],                           # 25
    ["11123", "score 3k"],                           # 8
    ["22221", "score 4k"],                           # 9
    ["66665", "keep 6666", "6", ""],                 # 66666, Joker: only Chance open, advice
]
BOB_TOTAL = 30 + 0 + 25 + 5 + 6 + 9 + 12 + 35 + 40 + 30 + 25 + 8 + 9 + 30


@pytest.fixture(autouse=True)
def _tables(official_table):
    """The cached official table exists, so the game does not build one."""


def script(*players: list[list[str]]) -> str:
    lines = [line for turns in zip(*players, strict=True) for turn in turns for line in turn]
    return "\n".join(lines) + "\n"


def play(text: str, *args: str):
    return CliRunner().invoke(cli, ["play", *args], input=text)


def test_scripted_two_player_game_with_bonuses_and_forced_joker():
    result = play(script(ANN, BOB), "--names", "Ann,Bob")
    out = result.stdout
    assert result.exit_code == 0, out
    assert "Traceback" not in result.output
    assert "Ann scores 15 in Threes + 100 Yahtzee bonus" in out
    assert "Ann scores 40 in Large Straight + 100 Yahtzee bonus" in out
    assert "the Joker rule forbids chance for 33333; allowed now: threes" in out
    assert "the Joker rule forbids aces for 33333; allowed now: three_of_a_kind" in out
    assert "Ann scores 18 in Sixes + 35 upper bonus" in out
    assert "keep 1 2 3 5 is not part of the dice 1 2 3 4 6" in out
    assert "Bob scores 30 in Sixes: total 30" in out
    assert "Bob scores 25 in Fives: total 55" in out          # no bonus after a zero
    assert "4 dice given" in out
    assert "Bob scores 30 in Chance: total" in out            # the advice, accepted with enter
    assert "ROLLS LEFT: 1" in out and "ROLLS LEFT: 2" in out
    final = out[out.index("== final scores"):]
    assert f"\n  total              {ANN_TOTAL}   {BOB_TOTAL}\n" in final  # the cards side by side
    assert ANN_TOTAL == 509 and BOB_TOTAL == 264
    assert final.strip().endswith(f"winner: Ann with {ANN_TOTAL}")


def test_equal_totals_are_a_shared_win():
    result = play(script(BOB, BOB), "--players", "2")
    assert result.exit_code == 0, result.output
    last = result.stdout.strip().splitlines()[-1]
    assert last == f"shared win: Player 1 and Player 2 with {BOB_TOTAL} each"


def test_option_numbers_and_quit():
    result = play("22256\n1\n22234\n2\nquit\n")
    out = result.stdout
    assert result.exit_code == 0, out
    assert "kept 2 2 2" in out
    assert "game stopped" in out and "current total:" in out


def test_a_refused_move_is_asked_again_with_help():
    result = play("22256\nscore yahtzee\nkeep 2222\nscore fives\nquit\n")
    out = result.stdout
    assert "Player 1 scores 0 in Yahtzee" in out
    assert "keep 2 2 2 2 is not part of the dice" not in out  # dice of the next turn
    result = play("22256\nkeep 2222\nkeep 22256\nfoo\n1 2\nq\n")
    out = result.stdout
    assert "keep 2 2 2 2 is not part of the dice 2 2 2 5 6" in out
    assert "keeping all five dice ends your rolling" in out
    assert "unknown box 'foo'" in out
    assert out.count("enter: follow the advice") == 4


def test_rolls_run_out():
    result = play("12346\nkeep 1234\n1\nkeep 1234\n2\nkeep 1234\nscore chance\nq\n")
    out = result.stdout
    assert "no rolls left this turn: score a box" in out
    assert "Player 1 scores 12 in Chance" in out


def test_bad_names_and_end_of_input():
    result = play("", "--names", "Ann,Ann")
    assert result.exit_code == 2 and "distinct" in result.stderr
    result = play("22256\n")
    assert result.exit_code == 1 and "Traceback" not in result.output


def play_lines(lines, *args):
    """``yahtzee play ARGS`` given ``lines``, one a line."""
    return CliRunner().invoke(cli, ["play", *args], input="\n".join(lines) + "\n")


def play_as_ann(lines: list[str]) -> str:
    """The output of a game of Ann alone given ``lines``."""
    result = CliRunner().invoke(cli, ["play", "--names", "Ann"],
                                input="".join(f"{line}\n" for line in lines))
    return result.output


def test_did_you_mean_in_a_card_and_in_play():
    result = CliRunner().invoke(cli, ["advise", "22256", "--card", "chanse=20"])
    assert result.exit_code == 2
    assert "did you mean chance?" in result.output
    out = play_lines(["22256", "chanse", "quit"]).stdout
    assert "! 'chanse' is not a move: did you mean 'score chance'?" in out


def test_resume_in_the_middle_of_a_turn_shows_player_turn_and_dice(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text("rules official\nplayers Ann,Bob\nAnn: 22256 twos\nBob: 11156 111\n")
    out = play_lines(["quit"], "--resume", str(path)).stdout
    assert out.startswith("\n== Bob, turn 1 of 13 | total 0 | upper 0: bonus needs 63 more"
                          " | 13 boxes open\n  so far this turn: rolled 1 1 1 5 6, kept 1 1 1\n"
                          "kept 1 1 1; dice now")
    path.write_text("rules official\nplayers Ann,Bob\nAnn: 22256 twos\nBob: 11156 111 11123\n")
    out = play_lines(["quit"], "--resume", str(path)).stdout
    assert ("== Bob, turn 1 of 13 | total 0 | upper 0: bonus needs 63 more | 13 boxes open\n"
            "  so far this turn: rolled 1 1 1 5 6, kept 1 1 1, rolled 1 1 1 2 3\n"
            "Bob: dice 1 1 1 2 3 | ROLLS LEFT: 1 (after roll 2 of 3)") in out
    path.write_text("rules official\nplayers Ann,Bob\nAnn: 22256 twos\nBob: 11156 111 11123 -\n")
    out = play_lines(["quit"], "--resume", str(path)).stdout
    assert "so far this turn: rolled 1 1 1 5 6, kept 1 1 1, rolled 1 1 1 2 3, kept nothing\n" \
           "kept nothing; dice now" in out


def test_cards_of_several_players_side_by_side(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text("rules official\nplayers Ann,Bob\nAnn: 22256 twos\nBob: 12345 ls\n"
                    "Ann: 66612 sixes\n")
    out = play_lines(["cards", "quit"], "--resume", str(path)).stdout
    head = "                     Ann   Bob"
    rows = out[out.index(head):].splitlines()
    assert rows[:10] == [head,
                         "  Aces                 -     -",
                         "  Twos                 6     -",
                         "  Threes               -     -",
                         "  Fours                -     -",
                         "  Fives                -     -",
                         "  Sixes               18     -",
                         "  upper (of 63)       24     0",
                         "  upper bonus          0     0",
                         "  Three of a Kind      -     -"]
    assert rows[13:19] == ["  Large Straight       -    40",
                           "  Yahtzee              -     -",
                           "  Chance               -     -",
                           "  Yahtzee bonus        0     0",
                           "  total               24    40",
                           "  boxes open          11    12"]
    one = play_lines(["card", "quit"], "--resume", str(path)).stdout
    assert "Bob: total 40 | upper 0: bonus needs 63 more | 12 boxes open" in one
    assert "  open: aces (1s), twos (2s)" in one


def test_one_die_after_keeping_two_says_what_to_type(official_table):
    """After keeping 3 3 the prompt offers "the 3 rerolled"; typing one die says so in
    the dice's own words, and the three rerolled are then accepted."""
    out = play_as_ann(["13356", "keep 33", "3", "145", "score chance"])
    assert "kept 3 3; dice now (all five, or the 3 rerolled)> " in out
    assert ("  ! dice 3: 1 die given after keeping 3 3; type the 3 rerolled (e.g. 145) or "
            "all five dice showing") in out
    assert "Ann: dice 1 3 3 4 5 | ROLLS LEFT: 1" in out  # 3 3 kept + 1 4 5 rerolled
    assert "(3,)" not in out and "'(" not in out


def test_a_score_line_names_the_box_as_the_card_does(official_table):
    out = play_as_ann(["33345", "score 3k"])
    assert "Ann scores 18 in Three of a Kind: total 18" in out
    assert "in three_of_a_kind" not in out  # (a record line keeps its notation)


def test_a_wrong_point_count_and_an_undo_name_the_box_as_the_card_does(official_table):
    out = play_as_ann(["33345", "score 3k 20", "score 3k", "undo"])
    assert "  ! Three of a Kind scores 18 with 3 3 3 4 5, not 20" in out
    assert "undone: Ann's Three of a Kind (3 3 3 4 5)" in out
    assert "three_of_a_kind scores" not in out and "Ann's three_of_a_kind" not in out
