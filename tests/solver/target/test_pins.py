"""Pinned new-game P(final >= X) of the best strategy for X (slow: one whole-game target
DP per rule set, every target up to 301 at once). The same figures are in the README."""

from __future__ import annotations

import numpy as np
import pytest

from solver.target import Utility, solve_vectors, turn_at

TOP = 301  # P(final >= x) for every x <= 301: x = 301 is P(final > 300)
PINNED = {
    "official": {200: 0.9107607099450279, 250: 0.5418609347818785, 300: 0.1760187721462412},
    "no-bonus": {200: 0.909943009267504, 250: 0.5354319953756896, 300: 0.1254776725939155},
    "two-rolls": {200: 0.41358151797947096, 250: 0.0646370743932788, 300: 0.012176255285829125},
    "free-joker": {200: 0.9108046040125544, 250: 0.541886919829871, 300: 0.1760309196732276},
    "yatzy": {200: 0.945660795281951, 250: 0.5602898293507356, 300: 0.13725005823014985},
}


# advise 22256 --target 250 from a new game, every choice's p_target, solved from the card
# (before target tables existed); the table's answer must be these, bit for bit
NEW_GAME_22256_250 = [
    ('222', 0.5643185429702164),
    ('2225', 0.5459222089207766),
    ('2226', 0.5459222089207766),
    ('22', 0.5093050345164454),
    ('5', 0.5040684789228099),
    ('6', 0.5023266260893601),
    ('none', 0.4998441761371446),
    ('225', 0.499295043138715),
    ('56', 0.49912705084567494),
    ('25', 0.49881073938989107),
    ('2', 0.49787813818055004),
    ('226', 0.4976757544042054),
    ('26', 0.49376650483886786),
    ('256', 0.48923078333591985),
    ('twos', 0.48796641469259755),
    ('2256', 0.48333811340988686),
    ('three_of_a_kind', 0.4451433642219529),
    ('chance', 0.38386608899148894),
    ('aces', 0.37950164560442895),
    ('yahtzee', 0.35967824714084784),
    ('four_of_a_kind', 0.3272471833822681),
    ('full_house', 0.27787445295435864),
    ('threes', 0.27308237406638874),
    ('fives', 0.26131453116123254),
    ('sixes', 0.24981453713583845),
    ('fours', 0.23982427857964467),
    ('large_straight', 0.23839473365145902),
    ('small_straight', 0.21456929017147258),
]


def whole_game(table, rules_name: str, tmp_path):
    """The target DP for every target up to TOP; for the official rules through a target
    table written and opened again (``yahtzee solve --targets --max 301``)."""
    if rules_name != "official":
        return solve_vectors(table, Utility.target(TOP)), None
    from solver.target_table import open_targets, solve_targets, write_targets

    path = tmp_path / "official.ytargets"
    write_targets(path, table, TOP, solve_targets(table, TOP))
    stored = open_targets(path, table)
    return stored.vectors(TOP), path


@pytest.mark.slow
@pytest.mark.parametrize("rules_name", sorted(PINNED))
def test_new_game_p_target(table_of, stats_of, rules_name, tmp_path, monkeypatch):
    table = table_of(rules_name)
    vectors, path = whole_game(table, rules_name, tmp_path)
    if path is not None:  # every option of a new game's roll, as solved before tables
        import solver.target_table as target_table
        from advisor.model import Dice, Scorecard
        from advisor.ranking import advise

        monkeypatch.setattr(target_table, "default_targets_path", lambda rules: path)
        target_table.forget_targets()
        advice = advise(Scorecard.new(), Dice("22256"), target=250, table=table)
        target_table.forget_targets()
        got = [(str(o.keep) if o.keep is not None else o.box, o.p_target)
               for o in advice.options]
        assert got == [tuple(pair) for pair in NEW_GAME_22256_250]
    p = {x: turn_at(vectors, 0, 0, 0, TOP - x).value for x in PINNED[rules_name]}
    for x, want in PINNED[rules_name].items():
        assert p[x] == pytest.approx(want, abs=1e-12), x
    if rules_name == "yatzy":
        # the published float32 figures (dlangk/yatzy): P(final > 200) = 94.3 %,
        # P(final > 300) = 13.1 % under the target-optimal strategy
        assert turn_at(vectors, 0, 0, 0, TOP - 201).value == pytest.approx(0.943, abs=5e-4)
        assert turn_at(vectors, 0, 0, 0, TOP - 301).value == pytest.approx(0.131, abs=5e-4)
    # every target up to TOP from the new game: W nonincreasing in the target, and at
    # least the expected-score strategy's exact P(final >= x)
    dist = stats_of(rules_name).distribution  # (checked in tests/solver/stats/test_stats.py)
    tail = np.cumsum(dist[::-1])[::-1]
    if rules_name == "yatzy":  # the same report, expected-score strategy: 90.9 %, 9.4 %
        assert float(tail[201]) == pytest.approx(0.909, abs=5e-4)
        assert float(tail[301]) == pytest.approx(0.094, abs=5e-4)
    w = [turn_at(vectors, 0, 0, 0, a).value for a in range(0, TOP + 1, 10)]  # x = TOP - a
    assert np.all(np.diff(w) >= -1e-13)
    for a, value in zip(range(0, TOP + 1, 10), w, strict=True):
        assert value >= float(tail[TOP - a]) - 1e-12


def test_readme_table_shows_the_pinned_figures():
    """The README's table of new-game p_target is the pinned figures, to 10 decimals."""
    from solver.game.rules import RULE_NAMES
    from tests.oracles.readme import table

    rows = table("Playing for a target or to win")  # also holds the timings table
    assert sorted(name for name in rows if name in RULE_NAMES) == sorted(PINNED)
    for rules_name, pins in PINNED.items():
        assert rows[rules_name] == [f"{pins[x]:.10f}" for x in (200, 250, 300)], rules_name
