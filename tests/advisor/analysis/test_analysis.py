"""``analyze``: losses equal ``advise``'s, the luck identity, the CLI's JSON keys."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from advisor.analysis import analyze
from advisor.caches import Caches
from advisor.cli import cli
from advisor.model import Dice
from advisor.ranking import advise
from advisor.record import GameRecord, parse_record
from solver.game.rules import RULE_NAMES

GAMES = 40


def random_game(rng: random.Random, table, players=("Ann", "Bob")) -> GameRecord:
    """A finished game: random dice, and a random option (often the best) at each step."""
    from advisor.play import GameSession

    session = GameSession(GameRecord(table.rules.name, players), table, memory=Caches())
    while not session.is_over:
        stage = session.stage
        if stage == "roll":
            session.handle("".join(str(rng.randint(1, 6)) for _ in range(5)))
        elif stage == "reroll":
            keep = session.record.current.keeps[-1]
            session.handle("".join(str(rng.randint(1, 6)) for _ in range(5 - len(keep))))
        else:
            options = session.advice().options
            pick = 0 if rng.random() < 0.5 else rng.randrange(len(options))
            session.handle(str(pick + 1))
    return session.record


@pytest.fixture(scope="module")
def games(official_table):
    rng = random.Random(20261130)
    return [random_game(rng, official_table) for _ in range(GAMES)]


def test_luck_identity_on_finished_games(games, official_table):
    new_game = official_table.expected_score
    for record in games:
        analysis = analyze(record, table=official_table)
        for player in analysis.players:
            assert player.finished and len(player.decisions) >= 13
            assert player.total - new_game == pytest.approx(player.luck - player.total_loss,
                                                            abs=1e-9)


def test_every_loss_is_advise_s_loss(games, official_table):
    for record in games[:8]:
        for judged in analyze(record, table=official_table).decisions:
            advice = advise(judged.card, judged.dice, rolls_left=judged.rolls_left,
                            table=official_table)
            same = next(o for o in advice.options if o.move == judged.chosen.move)
            assert abs(judged.loss - same.loss) <= 1e-9
            assert judged.best == advice.best
            assert judged.is_error == (same.loss > 1e-9)


def test_the_chosen_and_best_options_are_advise_s(games, official_table):
    """``analyze`` builds only the chosen and the best option of a decision
    (``TurnAdvisor.chosen_and_best``): for every option of every decision they are
    ``advise``'s own, field for field; under a target too (late cards: quick to solve)."""
    from advisor.objective import EV, Objective
    from advisor.ranking import TurnAdvisor
    from solver.game.move import Move

    asked = 0
    for record in games[:3]:
        for pos in record.positions():
            objectives = [EV]
            if pos.turn >= 12:
                objectives.append(Objective.for_target(pos.card.total + 25))
            for objective in objectives:
                advisor = TurnAdvisor(pos.card, official_table, objective)
                advice = advisor.advise(pos.dice, pos.rolls_left)
                for option in advice.options:
                    got = advisor.chosen_and_best(pos.dice, pos.rolls_left, option.move)
                    assert got == (option, advice.best)
                    asked += 1
                absent = Move(keep=(7 - pos.dice.faces[0],) * 5)  # not a sub-multiset
                assert advisor.chosen_and_best(pos.dice, pos.rolls_left, absent) == (
                    None, advice.best)
    assert asked > 3 * 2 * 13 * 10


def test_figures_of_a_known_game(official_table):
    record = parse_record("Ann: 22256 222 22234 2223 22235 twos")
    analysis = analyze(record, table=official_table)
    first, second, third = analysis.decisions
    assert first.loss == 0 and first.chosen.describe() == "keep 2 2 2"
    assert second.chosen.describe() == "keep 2 2 2 3" and second.best.describe() == "keep 2 2 2"
    assert second.loss == pytest.approx(2.4887205785, abs=1e-8) and second.is_error
    # luck of the first roll: best option for 22256 minus E(new game)
    assert first.luck == pytest.approx(first.best.expected_final - official_table.expected_score)
    player = analysis.player("Ann")
    assert (player.errors, player.split("keep")[0], player.split("box")[0]) == (1, 2, 1)
    assert player.worst == (second,)


def test_analyze_cli_text_and_json(tmp_path, games, official_table):
    path = tmp_path / "game.txt"
    path.write_text(str(games[0]))
    result = CliRunner().invoke(cli, ["analyze", str(path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data == json.loads(json.dumps(analyze(games[0], table=official_table).to_json()))
    assert set(data) >= {"rules", "objective", "decisions", "players"}
    assert data["objective"] == {"kind": "ev"}
    assert set(data["decisions"][0]) >= {"turn", "player", "card", "dice", "rolls_left",
                                        "chosen", "best", "loss"}
    assert data["decisions"][0]["card"] == {"text": "", "entries": {}, "yahtzee_bonus": 0,
                                            "upper_subtotal": 0, "upper_bonus": 0, "total": 0}
    assert set(data["players"][0]) >= {"name", "total", "decisions", "errors", "total_loss",
                                      "mean_loss", "luck"}
    text = CliRunner().invoke(cli, ["analyze", str(path)]).stdout
    assert "aim below 0.2" in text and "luck" in text
    assert text.count(" *\n") == sum(d["error"] for d in data["decisions"])


def test_analyze_reads_stdin_and_json_records(games, official_table):
    as_json = json.dumps(games[1].to_json())
    result = CliRunner().invoke(cli, ["analyze", "-", "--json"], input=as_json)
    assert result.exit_code == 0
    assert json.loads(result.stdout)["players"][1]["total"] == games[1].cards()["Bob"].total


def test_unfinished_games_are_analysed_as_far_as_they_go(official_table):
    analysis = analyze(parse_record("players Ann,Bob\nAnn: 12345 ls\nBob: 22256 222"),
                       table=official_table)
    assert [d.player for d in analysis.decisions] == ["Ann", "Bob"]
    assert not analysis.players[0].finished and analysis.players[0].total == 40
    assert Dice("22256") == analysis.decisions[1].dice


TARGET = 40


@pytest.fixture(scope="module")
def target_game(official_table):
    """A finished one-player game of random choices."""
    rng = random.Random(4)
    return random_game(rng, official_table, players=("Ann",))


@pytest.mark.slow
def test_under_a_target_losses_and_luck_are_probabilities(target_game, official_table):
    from advisor.objective import Objective

    objective = Objective.for_target(TARGET)
    analysis = analyze(target_game, objective, table=official_table)
    assert analysis.objective == {"kind": "target", "target": TARGET} and not analysis.is_ev
    player = analysis.players[0]
    reached = 1.0 if player.total >= TARGET else 0.0
    assert reached - analysis.new_game == pytest.approx(player.luck - player.total_loss,
                                                        abs=1e-9)
    assert 0 < analysis.new_game <= 1
    for judged in analysis.decisions[::7]:
        advice = advise(judged.card, judged.dice, rolls_left=judged.rolls_left,
                        table=official_table, objective=objective)
        same = next(o for o in advice.options if o.move == judged.chosen.move)
        assert judged.best == advice.best
        assert abs(judged.loss - (advice.best.p_target - same.p_target)) <= 1e-9
        assert 0 <= judged.loss <= 1


def test_analyze_objective_options_are_checked(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text("Ann: 22256 twos\n")
    both = CliRunner().invoke(cli, ["analyze", str(path), "--target", "200", "--beat", "199"])
    assert both.exit_code == 2 and "choose one objective" in both.stderr
    bad = CliRunner().invoke(cli, ["analyze", str(path), "--target", "lots"])
    assert bad.exit_code == 2 and bad.stderr.count("\n") == 1


@pytest.mark.parametrize("rules", RULE_NAMES)
def test_a_record_of_every_rule_set_is_judged_under_its_rules(table_of, rules):
    """A two-player record of every rule set: the analysis is of those rules, its new
    game is the rules' own expected score, and each decision's best choice and loss are
    those ``advise`` gives on the card of those rules."""
    table = table_of(rules)
    record = parse_record(f"rules {rules}\nplayers Ann,Bob\nAnn: 22256 222 22234 twos\n"
                          f"Bob: 12346 1234 12344 fours\nAnn: 11223 11\n")
    analysis = analyze(record, table=table)
    assert analysis.rules == rules
    assert analysis.new_game == pytest.approx(float(table.values[0, 0, 0]), abs=1e-9)
    positions = list(record.positions())
    assert len(analysis.decisions) == len(positions) == 5
    for judged, position in zip(analysis.decisions, positions, strict=True):
        assert judged.card == position.card and judged.card.rules_name == rules
        advice = advise(position.card, position.dice, rolls_left=position.rolls_left,
                        table=table)
        chosen = next(o for o in advice.options if o.move == position.move)
        assert judged.best == advice.best
        assert judged.loss == pytest.approx(chosen.loss, abs=1e-9)
