"""Ranked and labelled lists checked for their order and their labels, not as a set or a
sum: ``simulate``'s loss by turn and by box (each game replayed through ``analyze``),
the "(largest)" boxes it prints, and ``analyze``'s worst decisions."""

from __future__ import annotations

import re
from collections import defaultdict

import pytest
from click.testing import CliRunner

from advisor import Dice, Scorecard, advise
from advisor.analysis import analyze
from advisor.cli import cli
from advisor.record_file import records_from_traces
from advisor.text import box_label
from advisor.train import positions_of_records
from solver.simulate import simulate
from tests.advisor.why.test_shares import POSITIONS, _bounds


@pytest.fixture(scope="module")
def judged_games(official_table):
    """(run, per-game analyses) of a few recorded games of two imperfect strategies."""
    out = []
    for strategy, seed in (("heuristic", 3), ("greedy", 5)):
        run = simulate(official_table, strategy, 10, seed=seed, record=True)
        players = [analyze(record, table=official_table).players[0]
                   for record in records_from_traces("official", run.traces)]
        out.append((run, players))
    return out


def test_loss_by_turn_and_by_box_are_the_losses_where_they_were_made(official_table,
                                                                        judged_games):
    """Each decision's loss (analyze, game by game) added to its turn and to the box that
    turn filled: simulate's loss_by_turn and loss_by_box, entry by entry (the totals alone
    would not tell a loss put in the wrong turn or box)."""
    names = [box.name for box in official_table.rules.boxes]
    for run, players in judged_games:
        by_turn = [0.0] * 13
        by_box: dict[str, float] = defaultdict(float)
        for player in players:
            filled = {d.turn: d.chosen.box for d in player.decisions if d.chosen.box}
            assert sorted(filled) == list(range(1, 14))
            for d in player.decisions:
                by_turn[d.turn - 1] += d.loss / run.games
                by_box[filled[d.turn]] += d.loss / run.games
        assert run.loss_by_turn.tolist() == pytest.approx(by_turn, abs=1e-9)
        assert list(run.loss_by_box) == names  # in card order, every box
        assert run.loss_by_box == pytest.approx({n: by_box[n] for n in names}, abs=1e-9)
        # the turns and the boxes spread the losses differently (else the test tells nothing)
        assert sorted(by_turn) != pytest.approx(sorted(by_box.values()), abs=1e-6)
        assert run.to_json()["loss_by_box"] == run.loss_by_box


def test_loss_by_box_prints_the_four_largest_largest_first(official_table):
    args = ["simulate", "--games", "60", "--strategy", "heuristic", "--seed", "11"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    line = next(x for x in result.stdout.splitlines() if x.startswith("  loss by box"))
    assert line.endswith(" (largest)")
    shown = re.findall(r"([a-z_]+) (\d+\.\d{3})", line)
    run = simulate(official_table, "heuristic", 60, seed=11)
    want = sorted(((loss, name) for name, loss in run.loss_by_box.items() if loss > 0),
                  reverse=True)[:4]
    assert len(shown) == len(want) == 4
    assert [name for name, _ in shown] == [name for _, name in want]
    assert [float(x) for _, x in shown] == [round(loss, 3) for loss, _ in want]


def test_analyze_lists_the_three_largest_errors_largest_first(judged_games):
    for _, players in judged_games:
        for player in players:
            errors = sorted((d.loss for d in player.decisions if d.loss > 1e-9), reverse=True)
            assert len(errors) > 3  # more errors than the list holds
            assert [d.loss for d in player.main.worst] == errors[:3]
            assert [d["loss"] for d in player.main.to_json()["worst"]] == errors[:3]


def test_practice_from_records_takes_the_largest_losses_largest_first(official_table,
                                                                      judged_games, tmp_path,
                                                                      memory):
    """``train --from``'s positions: the n largest errors of the records, largest first
    (a tie by the order met), each the position of the decision that lost it."""
    run, players = judged_games[0]
    paths = []
    for g, record in enumerate(list(records_from_traces("official", run.traces))[:3]):
        path = tmp_path / f"game{g}.txt"
        path.write_text(str(record))
        paths.append(str(path))
    met = [(d.loss, str(path), d) for path, player in zip(paths, players[:3], strict=True)
           for d in player.decisions if d.loss > 1e-9]
    want = sorted(met, key=lambda item: -item[0])[:7]  # (a stable sort: ties as met)
    got = positions_of_records(paths, 7, table=official_table, memory=memory)
    assert len(got) == 7 < len(met)
    for position, (_, path, d) in zip(got, want, strict=True):
        assert (position.card, position.dice, position.rolls_left) == \
            (d.card, d.dice, d.rolls_left)
        assert dict(position.source) == {"file": path, "player": d.player, "turn": d.turn}


@pytest.mark.parametrize("card, dice, rolls_left", POSITIONS[::2])
def test_why_lists_the_three_likeliest_fills_likeliest_first_each_with_its_label(
        official_table, card, dice, rolls_left):
    """"this turn: Threes 41 %, 0 in Aces 9.0 %, ...": the three likeliest ways the turn
    ends (a box filled with points, or with 0: "0 in" it), likeliest first, each share
    that of its own label, then the rest as "other boxes"."""
    advice = advise(Scorecard.parse(card), Dice(dice), rolls_left=rolls_left, why=True)
    for option in advice.options:
        outcome = option.outcome
        zero = dict(outcome.zeros)
        ends = {}
        for box, p in outcome.boxes:
            ends[box_label(box)] = p - zero.get(box, 0.0)
            ends[f"0 in {box_label(box)}"] = zero.get(box, 0.0)
        likely = sorted(((p, label) for label, p in ends.items() if p > 5e-5), reverse=True)
        this_turn = outcome.line().split(" | ")[0].removeprefix("this turn: ")
        parts = [part.rsplit(" ", 2) for part in this_turn.split(", ")]
        listed = [(label, " ".join(share)) for label, *share in parts]
        rest = sum(p for p, _ in likely[3:])
        if listed[-1][0] == "other boxes":
            low, high = _bounds(listed.pop()[1])
            assert low - 1e-9 <= 100 * rest <= high + 1e-9
        assert len(listed) == min(3, len(likely)), this_turn
        shown = {label for label, _ in listed}
        assert min(ends[label] for label in shown) >= \
            max((p for p, label in likely if label not in shown), default=0.0) - 1e-12, \
            (option.move, this_turn)  # the likeliest (equal shares in either order)
        for label, share in listed:
            low, high = _bounds(share)
            assert low - 1e-9 <= 100 * ends[label] <= high + 1e-9, (label, share)
        shares = [ends[label] for label, _ in listed]
        assert shares == sorted(shares, reverse=True), this_turn
