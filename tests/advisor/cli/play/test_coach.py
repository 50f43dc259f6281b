"""The forgiving `play`: undo across turns and players, corrected rolls, deviation costs,
--record / --resume after end of input, the review equal to `analyze`, names checked."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from advisor.cli import cli
from advisor.record_file import read_record

# (Ann's turns, Bob's turns): the lines typed, turn by turn.
ANN = [["22256", "keep 222", "22234", "keep 2223", "22235", "twos"],  # keep 2223 costs 2.49
       ["12345", "ls"], ["44666", "keep 666", "13666", "666", "fours"],
       ["11112", "aces"], ["33312", "threes"], ["55512", "fives"], ["66612", "sixes"],
       ["12346", "ss"], ["22333", "fh"], ["44441", "4k"], ["66654", "3k"],
       ["11111", "yahtzee"], ["23456", "chance"]]
BOB = [["12345", "ls"], ["22256", "twos"], ["33345", "threes"], ["44412", "fours"],
       ["55561", "fives"], ["66612", "sixes"], ["11123", "aces"], ["23456", "ss"],
       ["22555", "fh"], ["33331", "4k"], ["44432", "3k"], ["12366", "yz"], ["12346", "ch"]]


def lines_of(*turn_lists):
    return [line for turns in zip(*turn_lists, strict=True) for turn in turns for line in turn]


def run(lines, *args):
    return CliRunner().invoke(cli, ["play", *args], input="\n".join(lines) + "\n")


@pytest.fixture(autouse=True)
def _tables(official_table):
    """The cached official table exists, so the game does not build one."""


def test_undo_across_a_turn_boundary_a_corrected_roll_and_a_deviation_cost(tmp_path):
    path = tmp_path / "game.txt"
    plain = lines_of(ANN, BOB)
    # After Ann's first box: Bob types a wrong roll and corrects it; then undo twice steps
    # back over Bob's roll into Ann's finished turn, which she replays the same way.
    first_turn = len(ANN[0])
    messy = (plain[:first_turn] + ["66666", "12345"] + ["undo", "undo", "twos"]
             + plain[first_turn:])
    result = run(messy, "--names", "Ann,Bob", "--record", str(path))
    out = result.stdout
    assert result.exit_code == 0, out
    assert "keep 2 2 2 3 costs 2.49 points on average (best: keep 2 2 2)" in out
    assert "dice corrected to 1 2 3 4 5" in out
    assert "undone: Bob's roll 1 2 3 4 5" in out and "undone: Ann's Twos (2 2 2 3 5)" in out
    assert out.count("Ann scores 6 in Twos: total 6") == 2
    clean = run(plain, "--names", "Ann,Bob", "--record", str(tmp_path / "clean.txt"))
    assert read_record(path) == read_record(tmp_path / "clean.txt")
    tail = out[out.index("== final scores"):]
    assert tail == clean.stdout[clean.stdout.index("== final scores"):]


def test_end_of_input_mid_game_then_resume_finishes_the_same_game(tmp_path):
    full = run(lines_of(ANN, BOB), "--names", "Ann,Bob", "--record", str(tmp_path / "a.txt"))
    lines = lines_of(ANN, BOB)
    cut = 40  # in the middle of a turn
    path = tmp_path / "b.txt"
    stopped = run(lines[:cut], "--names", "Ann,Bob", "--record", str(path))
    assert stopped.exit_code == 1
    assert "Traceback" not in stopped.output
    out = stopped.stdout
    assert "== game stopped; scores so far" in out
    assert "\n                     Ann   Bob\n" in out  # both cards printed, side by side
    assert f"yahtzee play --resume {path}" in out
    record = read_record(path)
    assert record.current is not None or len(record.turns) % 2 == 1 or record.turns
    resumed = run(lines[cut:], "--resume", str(path))
    assert resumed.exit_code == 0, resumed.output
    assert read_record(path) == read_record(tmp_path / "a.txt")
    final = full.stdout[full.stdout.index("== final scores"):]
    assert resumed.stdout[resumed.stdout.index("== final scores"):] == final
    assert "winner: Ann with" in final


def test_without_record_the_stop_prints_the_record_to_resume_from(tmp_path):
    stopped = run(["22256", "keep 222", "22234"], "--names", "Ann")
    assert stopped.exit_code == 1
    out = stopped.stdout
    assert "save these lines to a file" in out
    text = out[out.index("rules official"):]
    path = tmp_path / "saved.txt"
    path.write_text(text)
    resumed = run(["keep 2223", "22235", "twos", "quit"], "--resume", str(path))
    assert "keep 2 2 2 3 costs 2.49 points on average" in resumed.stdout
    assert "Ann scores 6 in Twos: total 6" in resumed.stdout


def test_review_at_the_end_equals_analyze(tmp_path):
    path = tmp_path / "game.txt"
    result = run(lines_of(ANN, BOB), "--names", "Ann,Bob", "--record", str(path))
    review = result.stdout[result.stdout.index("== review (yahtzee analyze)"):]
    review_lines = review.splitlines()[1:]
    review_lines = review_lines[:review_lines.index("")]
    analysis = CliRunner().invoke(cli, ["analyze", str(path)]).stdout.splitlines()
    start = next(i for i, line in enumerate(analysis) if line.startswith("Ann: total"))
    # the review lists no decisions, so it does not point at the list's `*` marks
    marked = [line.replace(" (* in the list)", "") for line in analysis[start:]]
    assert marked != analysis[start:] and marked == review_lines
    assert not any("(* in the list)" in line for line in review_lines)
    assert any("check: total" in line for line in review_lines)


def test_help_card_more_and_the_header():
    result = run(["?", "22256", "card", "more", "help", "quit"], "--names", "Ann")
    out = result.stdout
    assert out.count("undo           one step back") == 2
    assert "== Ann, turn 1 of 13 | total 0 | upper 0: bonus needs 63 more | 13 boxes open" in out
    assert "open: aces (1s), twos (2s)" in out
    assert "ROLLS LEFT: 2 (after roll 1 of 3)" in out
    assert "... 25 more" in out and " 28  " in out  # `more` lists all 28 options


def test_resume_refuses_players_and_record_cannot_clobber(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text("players Ann\nAnn: 22256 twos\n")
    result = run([], "--record", str(path))
    assert result.exit_code == 2 and "already exists" in result.stderr
    assert path.read_text() == "players Ann\nAnn: 22256 twos\n"
    result = run([], "--resume", str(path), "--names", "Bob")
    assert result.exit_code == 2 and "--resume takes the players" in result.stderr


@pytest.mark.parametrize("args, fragment", [
    (["--players", "2", "--names", "Ann"], "1 name given for --players 2"),
    (["--names", "Ann,,Bob"], "a player name is empty"),
    (["--names", ","], "a player name is empty"),
    (["--names", ""], "a player name is empty"),
    (["--names", "A,B,C,D,E,F,G,H,I"], "9 players: at most 8"),
    (["--names", "Ann,Ann"], "distinct"),
    (["--names", "A:nn"], "no ':'"),
    (["--players", "9"], "9"),
])
def test_bad_players_and_names_exit_2_with_one_line(args, fragment):
    result = run([], *args)
    assert result.exit_code == 2, result.output
    assert fragment in result.stderr
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("Error: ")


def test_names_alone_set_the_count():
    result = run(["quit"], "--players", "3", "--names", "Ann,Bob,Cy")
    assert result.exit_code == 0
    assert "\n                     Ann   Bob    Cy\n" in result.stdout
