"""What `yahtzee simulate` reports, checked by what it means: the decisions per game
counted from the games' own traces (13 box decisions a game, one keep decision per
reroll), and the text's arithmetic "E(new game) - mean loss +- luck terms" adding up to
the corrected mean it explains, with the figures of the JSON output."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from click.testing import CliRunner

from advisor.cli import cli
from solver.game.dice import KEEP_COUNTS
from solver.simulate import simulate

STRATEGIES = ("optimal", "greedy", "heuristic", "greedy-turn")


def _rerolls(traces: np.ndarray) -> int:
    """Keep decisions from the traces: a trace's odd slots are the keeps (a keep of all
    five dice is scoring before the last roll, a box decision, not a reroll)."""
    keeps = traces[:, :, 1:traces.shape[2] - 1:2]
    kept = keeps[keeps >= 0]
    return int((KEEP_COUNTS[kept].sum(axis=1) < 5).sum())


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_decisions_per_game_are_counted_from_the_games(official_table, strategy):
    result = simulate(official_table, strategy, 200, seed=11, record=True)
    assert result.traces is not None
    per_game = result.to_json()["decisions_per_game"]
    assert per_game["box"] == 13.0  # every game fills its 13 boxes, one decision each
    assert per_game["keep"] == _rerolls(result.traces) / 200
    assert 13.0 < per_game["keep"] < 26.0  # at most two rerolls a turn


NUMBER = r"(-?\d+\.\d+)"
CORRECTED = re.compile(rf"corrected mean +{NUMBER} \+- {NUMBER} \(E\(new game\) {NUMBER} - "
                       rf"mean loss {NUMBER} ([+-]) luck terms {NUMBER}\)")


@pytest.mark.parametrize("strategy", ["greedy-turn", "greedy"])
def test_the_corrected_mean_line_adds_up(official_table, strategy):
    args = ["simulate", "--games", "600", "--strategy", strategy, "--seed", "4"]
    text = CliRunner().invoke(cli, args)
    assert text.exit_code == 0, text.output
    found = CORRECTED.search(text.output)
    assert found, text.output
    corrected, stderr, new_game, loss, sign, luck = found.groups()
    data = json.loads(CliRunner().invoke(cli, [*args, "--json"]).stdout)
    assert float(new_game) == round(official_table.expected_score, 4)
    assert float(corrected) == round(data["corrected_mean"], 4)
    assert float(stderr) == round(data["corrected_stderr"], 4)
    assert float(loss) == round(data["mean_loss_per_game"], 4)
    signed_luck = float(luck) if sign == "+" else -float(luck)
    # each printed figure is rounded to 4 decimals: the sum is within 1.5e-4
    assert float(new_game) - float(loss) + signed_luck == pytest.approx(float(corrected),
                                                                        abs=1.5e-4)
    exact_luck = data["corrected_mean"] - (data["new_game"] - data["mean_loss_per_game"])
    assert abs(exact_luck) > 1e-3  # a luck term that shows its sign (else nothing is tested)
    assert signed_luck == pytest.approx(exact_luck, abs=1e-4)
