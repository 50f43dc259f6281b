"""`yahtzee play --objective win`: each player's advice maximises the chance to win (a tie
of k players at the top counting 1/k), checked against independent computations on
late-game cards (fast DPs)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from click.testing import CliRunner

from advisor.advice import advice_table
from advisor.caches import Caches
from advisor.cli import cli
from advisor.model import Dice, Keep, Scorecard
from advisor.objective import Objective
from advisor.play_win import WinEachTurn, choose_judging
from advisor.ranking import advise
from advisor.record import parse_record
from advisor.record_file import read_record
from solver.errors import ObjectiveError
from solver.stats import optimal_stats
from solver.target import Utility, solve_vectors, turn_at
from tests.oracles.target_reference import win_share_utility

# Ten turns each: three boxes open per player.
ANN = ["11123 aces", "22256 twos", "44456 fours", "55561 fives", "66612 sixes",
       "12345 ss", "22333 fh", "44441 4k", "66654 3k", "12346 chance"]
BOB = ["11111 aces", "22245 twos", "33345 threes", "44412 fours", "12345 ls",
       "23456 ss", "55566 fh", "11123 3k", "22221 4k", "66666 sixes"]
CY = ["11112 aces", "22236 twos", "33356 threes", "55552 fives", "12345 ss",
      "23456 ls", "44466 fh", "66123 3k", "33331 4k", "61234 chance"]
MORE = "type 'more' to see them all"
WIN_HEADER = "  chance to win  loss (pp)"
"""The heading of a list ranked by the chance to win."""


def late_record(tmp_path, players: dict[str, list[str]]):
    lines = ["rules official", f"players {','.join(players)}"]
    for turns in zip(*players.values(), strict=True):
        lines += [f"{name}: {turn}" for name, turn in zip(players, turns, strict=True)]
    path = tmp_path / "game.txt"
    path.write_text("\n".join(lines) + "\n")
    return path, parse_record(path.read_text()).cards()


def play(text: str, *args: str):
    return CliRunner().invoke(cli, ["play", *args], input=text)


def shown_options(out: str, player: str, dice: str) -> list[tuple[str, float]]:
    """(choice, chance to win) of the options listed for ``player``'s ``dice``."""
    start = out.index(f"{player}: dice {' '.join(dice)} |")
    rows = []
    for line in out[start:].splitlines()[3:]:
        found = re.match(r"\s+\d+\s+(.+?)\s+([\d.]+) %\s+[\d.]+\s+[\d.]+$", line)
        if not found:
            break
        rows.append((found[1], float(found[2]) / 100))
    return rows


@pytest.fixture(scope="module")
def table(official_table):
    return official_table


# ---------------------------------------------------------------------- the objective
def test_one_opponent_is_exactly_the_opponent_objective():
    bob = Scorecard.parse("twos=6,chance=20")
    assert Objective.win_against([bob]) == Objective.win(bob)
    assert Objective.win_against(["twos=6,chance=20"]).to_json() == \
        {"kind": "win", "opponent": str(bob)}
    two = Objective.win_against([bob, "sixes=24"])
    assert two.to_json() == {"kind": "win", "opponents": [str(bob), "sixes=24"]}
    assert two.key == "win_share" and len(two.against) == 2
    assert "the chance to win against 2 opponents (a tie counts as a share: half a win " \
           "between two, a third among three)" in two.describe()
    assert "(a tie counts as half)" in Objective.win(bob).describe()
    with pytest.raises(ObjectiveError, match="at least one"):
        Objective.win_against([])
    with pytest.raises(ObjectiveError, match="opponent card"):
        Objective.win_against(["twos=7", "sixes=24"])


# ---------------------------------------------------------------------- games
def test_two_players_see_the_same_numbers_as_opponent_card(tmp_path, table):
    path, cards = late_record(tmp_path, {"Ann": ANN, "Bob": BOB})
    result = play("33412\nthrees\n55512\nquit\n", "--resume", str(path),
                  "--objective", "win", "--win-from", "3")
    out = result.stdout
    assert result.exit_code == 0, result.output
    assert "working out Ann's exact chance to beat Bob (3 boxes open; Ctrl-C: " \
           "expected-score advice instead)..." in out
    assert "while the chance to win is worked out" not in out  # under a second: no list
    assert "ranked by the chance to beat Bob (a tie counts as half): Bob 174 with 3 boxes " \
           "open" in out
    ann = advise(cards["Ann"], "33412", objective=Objective.win(cards["Bob"]), table=table)
    assert "\n".join(advice_table(ann, 3, more_hint=MORE)) in out
    ann_after = cards["Ann"].place(Dice("33412"), "threes")
    bob = advise(cards["Bob"], "55512", objective=Objective.win(ann_after), table=table)
    assert "\n".join(advice_table(bob, 3, more_hint=MORE)) in out
    assert (f"ranked by the chance to beat Ann (a tie counts as half): Ann {ann_after.total} "
            f"with 2 boxes open") in out
    assert shown_options(out, "Ann", "12334")[0][1] == pytest.approx(ann.best.win_share,
                                                                     abs=6e-7)
    assert read_record(path).turns[-1].rolls[0] == Dice("55512")
    assert path.read_text().startswith("# objective: win (each player against the best")


def test_three_players_beat_the_best_of_two_exact_distributions(tmp_path, table):
    path, cards = late_record(tmp_path, {"Ann": ANN, "Bob": BOB, "Cy": CY})
    result = play("33412\nquit\n", "--resume", str(path), "--objective", "win")
    out = result.stdout
    assert result.exit_code == 0, result.output
    assert "ranked by the chance to win against Bob, Cy (a tie of k players at the top " \
           f"counts 1/k): Bob 174 with 3 boxes open, Cy {cards['Cy'].total} with 3 boxes " \
           "open" in out
    # by hand: each opponent's exact final-score distribution, then the share of the win
    # over every pair of their final scores
    finals = []
    for name in ("Bob", "Cy"):
        card = cards[name]
        to_come = optimal_stats(table, start=(card.mask, card.upper, card.flag)).distribution
        finals.append(np.concatenate((np.zeros(card.total), to_come)))
    share, _ = win_share_utility(finals)
    ann = cards["Ann"]
    vectors = solve_vectors(table, Utility(share, 1.0, int(np.flatnonzero(share > 0)[0])),
                            start=(ann.mask, ann.upper, ann.flag), total=ann.total)
    turn = turn_at(vectors, ann.mask, ann.upper, ann.flag, ann.total)
    shown = shown_options(out, "Ann", "12334")
    assert len(shown) == 3
    for choice, win_share in shown:
        k = Keep(choice.removeprefix("keep ").replace(" ", "")).index
        assert win_share == pytest.approx(turn.keep_values[2][k], abs=6e-7)
    # and to full precision through the library
    exact = advise(ann, "33412", table=table,
                   objective=Objective.win_against([cards["Bob"], cards["Cy"]]))
    for option in exact.options[:3]:
        k = option.keep.index
        assert abs(option.win_share - turn.keep_values[2][k]) < 1e-12


def test_before_win_from_the_advice_is_by_expected_score_and_says_so(tmp_path):
    path, _ = late_record(tmp_path, {"Ann": ANN, "Bob": BOB})
    result = play("33412\nquit\n", "--resume", str(path), "--objective", "win",
                  "--win-from", "2")
    out = result.stdout
    assert result.exit_code == 0, result.output
    assert "ranked by the expected final score: the chance to win is worked out from 2 " \
           "open boxes on (--win-from)" in out
    assert WIN_HEADER not in out and "working out" not in out
    assert "(by expected score: under --objective win" not in out  # game not finished


def test_a_finished_game_names_the_winner_and_reviews_by_each_turns_objective(tmp_path):
    path, _ = late_record(tmp_path, {"Ann": [*ANN, "33312 threes", "12345 ls"],
                                     "Bob": [*BOB, "55512 fives", "12346 chance"]})
    result = play("11111\n\n66666\n\n", "--resume", str(path), "--objective", "win",
                  "--win-from", "8")
    out = result.stdout
    assert result.exit_code == 0, result.output
    assert "ranked by the chance to beat Ann (a tie counts as half): Ann 303 (finished)" \
           in out  # out of reach
    assert re.search(r"\n  1  score Yahtzee 50 +0\.0000 % +0\.00 +290\.00\n", out)
    review = out[out.index("== review"):]
    # turns 1 to 5 (9 or more boxes open) by expected score, the rest by the chance to win
    assert "  by the chance to win: 8 decisions, " in review
    assert "  by the expected final score (before --win-from): 5 decisions, 5 errors; " in review
    assert "(* in the list)" not in review
    assert out.strip().endswith("winner: Ann with 303")


def test_a_new_record_names_the_objective_and_stays_readable(tmp_path):
    path = tmp_path / "new.txt"
    result = play("22256\nquit\n", "--names", "Ann,Bob", "--objective", "win",
                  "--record", str(path))
    assert result.exit_code == 0, result.output
    # from the first turn: by expected score while the chance to win is worked out
    assert "by the expected final score, while the chance to win is worked out" in \
        result.stdout
    text = path.read_text()
    assert text.splitlines()[0] == ("# objective: win (each player against the best of the "
                                    "others, from the first turn)")
    assert read_record(path).players == ("Ann", "Bob")


def test_ctrl_c_while_working_out_gives_expected_score_advice(tmp_path, table, monkeypatch):
    from advisor.play import GameSession
    from advisor.play_win import WinEachTurn
    from advisor.ranking import TurnAdvisor

    def interrupted(self, progress=None):
        raise KeyboardInterrupt

    monkeypatch.setattr(TurnAdvisor, "solve", interrupted)
    path, _ = late_record(tmp_path, {"Ann": ANN, "Bob": BOB})
    told: list[str] = []
    session = GameSession(read_record(path), table, memory=Caches(),  # no turn solved yet
                          win=WinEachTurn(), notify=told.append)
    lines = session.handle("33412")
    assert told[-1] == "  stopped: this turn's advice is by expected score"
    assert lines[1] == ("ranked by the expected final score (working out the chance to win "
                        "was stopped with Ctrl-C)")
    assert WIN_HEADER not in lines[2] and "expected final" in lines[2]
    assert session.handle("") == []  # keep 3 3 by expected score: asks for the dice
    with pytest.raises(ObjectiveError):
        GameSession(read_record(path), table, memory=Caches(), win=WinEachTurn(),
                    objective=Objective.for_target(300))


@pytest.mark.parametrize(("args", "message"), [
    (["--objective", "win"], "--objective win needs two or more players"),
    (["--players", "2", "--objective", "win", "--target", "300"],
     "--objective win and --target given"),
    (["--players", "2", "--objective", "win", "--opponent", "twos=6"],
     "--objective win and --opponent given"),
    (["--players", "2", "--objective", "win", "--beat", "200"],
     "--objective win and --beat given"),
    (["--players", "2", "--win-from", "5"], "--win-from applies only with --objective win"),
    (["--players", "2", "--objective", "best"], "'best' is not one of 'ev', 'win'"),
    (["--players", "2", "--objective", "win", "--win-from", "0"], "--win-from"),
])
def test_bad_objective_options_are_one_line_and_exit_2(args, message):
    result = play("22256\n", *args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:") and message in lines[0]
    assert "Traceback" not in result.output


def test_one_default_win_from_the_first_turn_for_play_analyze_records_and_the_page():
    from advisor.play_win import DEFAULT_WIN_FROM, WinEachTurn, judging_of_record
    from advisor.rules_info import rules_json
    from solver.game.rules import RULE_NAMES, get_rules

    most = max(get_rules(name).n_boxes for name in RULE_NAMES)
    assert DEFAULT_WIN_FROM == most  # every turn of every rule set: from the first turn
    for name in RULE_NAMES:  # the first turn of every rule set is under the win objective
        cards = {"Ann": Scorecard.parse("", name), "Bob": Scorecard.parse("", name)}
        assert WinEachTurn().objective_for(cards, "Ann") == Objective.win(cards["Bob"])
        assert rules_json(name)["win_from"] == most
    for args in (["play", "--help"], ["analyze", "--help"]):
        text = " ".join(CliRunner().invoke(cli, args).output.split())
        assert "from the first turn" in text
        assert "else 8)" not in text and "default: 10]" not in text
    comment = ("# objective: win (each player against the best of the others, from the "
               "first turn)")
    assert judging_of_record(comment + "\nrules official\n", "official") == WinEachTurn()
    old = "# objective: win (each player against the best of the others, from 10 open boxes on)"
    assert judging_of_record(old + "\nrules official\n", "official") == WinEachTurn(10)


def test_resume_goes_on_under_the_records_objective(tmp_path):
    path, cards = late_record(tmp_path, {"Ann": ANN, "Bob": BOB})
    text = path.read_text()
    path.write_text("# objective: win (each player against the best of the others, from the "
                    "first turn)\n" + text)
    result = play("33412\nquit\n", "--resume", str(path))
    assert result.exit_code == 0, result.output
    assert "ranked by the chance to beat Bob (a tie counts as half): Bob 174 with 3 boxes " \
           "open" in result.stdout
    assert "note:" not in result.stdout
    assert f"continue it with: yahtzee play --resume {path}" in result.stdout
    assert path.read_text().startswith("# objective: win (each player against the best of "
                                       "the others, from the first turn)\n")
    # an option given overrides the record's and says so; the record then names it
    result = play("quit\n", "--resume", str(path), "--objective", "ev", "--top", "5")
    assert result.exit_code == 0, result.output
    assert (f"note: {path} was played for the chance to win against the others (a tie "
            f"counts as a share: half a win between two, 1/k among k at the top), from the "
            f"first turn; from now on the advice maximises the expected final score (as "
            f"given)") in result.stdout
    assert f"continue it with: yahtzee play --resume {path} --top 5" in result.stdout
    assert not path.read_text().startswith("#")  # the expected score: no objective line
    result = play("33412\nquit\n", "--resume", str(path))
    assert "ranked by the chance" not in result.stdout and WIN_HEADER not in result.stdout
    result = play("quit\n", "--resume", str(path), "--target", "250")
    assert result.exit_code == 0, result.output
    assert path.read_text().startswith('# objective: {"kind": "target", "target": 250}\n')
    assert "the expected final score; from now on the advice maximises P(final score >= " \
           "250) (as given)" in result.stdout


def test_a_game_not_saved_prints_its_objective_with_the_record():
    result = play("quit\n", "--names", "Ann,Bob", "--objective", "win", "--win-from", "3")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "run yahtzee play --resume game.txt:\n# objective: win (each player against the " \
           "best of the others, from 3 open boxes on)\nrules official\nplayers Ann,Bob" in out


def test_a_record_whose_objective_line_cannot_be_read_is_refused_unless_one_is_given(
        tmp_path):
    path, _ = late_record(tmp_path, {"Ann": ANN, "Bob": BOB})
    path.write_text("# objective: to have fun\n" + path.read_text())
    before = path.read_text()
    result = play("quit\n", "--resume", str(path))
    assert result.exit_code == 2 and "names no objective this version reads" in result.stderr
    assert path.read_text() == before
    result = play("quit\n", "--resume", str(path), "--objective", "ev")
    assert result.exit_code == 0, result.output
    assert not path.read_text().startswith("#")


def run_input(*args: str, input: str | None = None):  # noqa: A002
    """Any ``yahtzee`` command line, given ``input`` on stdin."""
    return CliRunner().invoke(cli, list(args), input=input)


def error_line(result) -> str:
    """The one ``Error:`` line of a refusal, without its prefix."""
    lines = [line for line in result.stderr.splitlines() if line.startswith("Error")]
    assert len(lines) == 1, result.output
    return lines[0].removeprefix("Error: ")


WIN_RECORD = "players Ann,Bob\nAnn: 22256 twos\nBob: 33345 threes\n"


@pytest.mark.parametrize("value", ["16", "99999", "99999999999999999999", "0"])
def test_win_from_is_a_number_of_open_boxes(value: str) -> None:
    expected = (f"--win-from {value!r}: give a number of open boxes, 1 to 15 (the number "
                f"of boxes or more: from the first turn)")
    for args in (["analyze", "-", "--objective", "win", "--win-from", value],
                 ["play", "--names", "Ann,Bob", "--objective", "win", "--win-from", value]):
        result = run_input(*args, input=WIN_RECORD)
        assert result.exit_code == 2 and error_line(result) == expected, args
    with pytest.raises(ValueError) as caught:
        choose_judging(objective_name="win", win_from=int(value), target=None, beat=None,
                       opponent=None, players=("Ann", "Bob"), rules="official")
    assert str(caught.value) == expected


def test_win_from_goes_up_to_the_most_boxes_of_any_rules() -> None:
    def judging(n: int, rules: str) -> object:
        return choose_judging(objective_name="win", win_from=n, target=None, beat=None,
                              opponent=None, players=("Ann", "Bob"), rules=rules)

    assert judging(13, "official") == WinEachTurn(13) and judging(1, "official") == \
        WinEachTurn(1)
    assert judging(15, "yatzy") == WinEachTurn(15) == judging(15, "official")
    with pytest.raises(ValueError, match="1 to 15"):
        judging(16, "yatzy")


def test_a_record_noting_more_open_boxes_than_the_rules_have_is_refused() -> None:
    text = ("# objective: win (each player against the best of the others, from 16 open "
            "boxes on)\n" + WIN_RECORD)
    result = run_input("analyze", "-", input=text)
    assert result.exit_code == 2 and "names no objective" in error_line(result)
