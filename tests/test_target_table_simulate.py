"""``simulate --strategy target:X`` reads the rules' target table when it holds X: the
same games, the same exact ``p_target`` and the same luck-corrected figures as when the
vectors are solved; without a table (or one that stops below X, or a damaged one) it
solves them, with a note saying how to build a table that holds X."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from click.testing import CliRunner

import solver.target_table as target_table
from advisor.cli import cli
from solver.simulate import simulate
from solver.simulate_target import flatten, target_plan
from solver.target import Utility, solve_vectors
from solver.target_table import forget_targets, solve_targets, write_targets

R = 40
"""The small official table's largest target (seconds to build)."""


@pytest.fixture(scope="module")
def small_targets(official_table, tmp_path_factory):
    path = tmp_path_factory.mktemp("sim-targets") / "official.ytargets"
    write_targets(path, official_table, R, solve_targets(official_table, R))
    return path


@pytest.fixture
def use(monkeypatch):
    """use(path): the target table is looked for at ``path``."""
    def at(path):
        monkeypatch.setattr(target_table, "default_targets_path", lambda rules: path)
        forget_targets()
        return path

    yield at
    forget_targets()


def same_run(a, b) -> None:
    """Two simulations played the same games with the same figures (bit for bit)."""
    assert np.array_equal(a.traces, b.traces)
    for name in ("scores", "upper_bonus", "yahtzees", "yahtzee_bonuses", "entries"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert a.p_target == b.p_target
    for x, y in zip(a.losses, b.losses, strict=True):
        assert np.array_equal(x, y)
    one, two = a.to_json(), b.to_json()
    for key in ("seconds", "solve_seconds", "games_per_second"):
        one.pop(key), two.pop(key)
    assert one == two


def test_the_stored_vectors_are_the_solved_ones(official_table, small_targets, use):
    """Every state's value at every column a game can have, read from the table, is the
    solve's (the simulator's own vectors, from a new game, total 0)."""
    use(small_targets)
    rules = official_table.rules
    for x in (1, 23, R):
        stored = target_plan(official_table, x)
        assert stored.stored
        vectors = solve_vectors(official_table, Utility.target(x), total=0,
                                keep=tuple(range(1, rules.n_boxes + 1)))
        solved = flatten(vectors)
        mine, theirs = stored.store, solved
        compared = 0
        for n in range(1, rules.n_boxes):
            level_masks = [m for m in range(1 << rules.n_boxes) if bin(m).count("1") == n]
            m = np.array(level_masks)
            i = theirs.slot[m].ravel()
            j = mine.slot[m].ravel()
            live = i >= 0
            assert np.array_equal(live, j >= 0)
            for a, b in zip(i[live][::97], j[live][::97], strict=True):  # a sample
                t, s = theirs.vectors, mine.vectors
                assert (t.m[a], t.u[a], t.y[a]) == (s.m[b], s.u[b], s.y[b])
                for col in range(int(t.lo[a]), int(t.hi[a]) + 1):
                    assert s.lo[b] <= col <= s.hi[b]
                    assert (t.vals[t.start[a] + col - t.lo[a]]
                            == s.vals[s.start[b] + col - s.lo[b]])
                    compared += 1
        assert compared > 1000
        assert stored.p_target == target_plan(official_table, x, note=None).p_target
    forget_targets()


@pytest.mark.parametrize("x", [R, 27])
def test_same_games_and_figures_with_and_without_the_table(official_table, small_targets,
                                                           use, tmp_path, x):
    use(small_targets)
    notes: list[str] = []
    read = simulate(official_table, f"target:{x}", 300, seed=11, record=True,
                    note=notes.append)
    assert notes == []  # read at once: nothing to say
    use(tmp_path / "none.ytargets")
    solved = simulate(official_table, f"target:{x}", 300, seed=11, record=True,
                      note=notes.append)
    same_run(read, solved)
    assert 0 < read.p_target < 1 and read.losses is not None
    assert len(notes) == 1 and "yahtzee solve --targets --rules official" in notes[0]


def test_cli_reads_the_table_and_notes_when_it_cannot(official_table, small_targets, use,
                                                     tmp_path):
    use(small_targets)
    args = ["simulate", "--strategy", f"target:{R}", "--games", "200", "--json"]
    read = CliRunner().invoke(cli, args)
    assert read.exit_code == 0, read.output
    assert "note:" not in read.stderr
    use(tmp_path / "none.ytargets")
    solved = CliRunner().invoke(cli, args)
    assert solved.exit_code == 0, solved.output
    assert ("note: target:40 solves the whole game first (up to a minute or more); "
            "`yahtzee solve --targets --rules official` stores the answers of every target "
            "up to 500 once, and target:X then reads them at once") in solved.stderr
    one, two = json.loads(read.stdout), json.loads(solved.stdout)
    for key in ("seconds", "solve_seconds", "games_per_second"):
        one.pop(key), two.pop(key)
    assert one == two


def test_a_target_above_the_table_is_solved_and_says_so(official_table, small_targets, use):
    use(small_targets)
    notes: list[str] = []
    plan = target_plan(official_table, R + 1, note=notes.append)
    assert not plan.stored and 0 < plan.p_target < 1
    assert notes == [f"note: target:{R + 1} is solved: the target table holds targets up "
                     f"to {R}; `yahtzee solve --targets --rules official --max {R + 1}` "
                     f"rebuilds it for this one"]
    # trivial targets solve nothing and read nothing: no note
    for x in (0, 1576):
        assert not target_plan(official_table, x, note=notes.append).stored
    assert len(notes) == 1


def test_a_damaged_level_is_noted_and_the_target_solved(official_table, small_targets, use,
                                                        tmp_path):
    path = tmp_path / "official.ytargets"
    shutil.copyfile(small_targets, path)
    data = bytearray(path.read_bytes())
    data[-3] ^= 0x55  # a value of the last level
    path.write_bytes(bytes(data))
    before = path.read_bytes()
    use(path)
    notes: list[str] = []
    plan = target_plan(official_table, R, note=notes.append)
    assert not plan.stored
    assert len(notes) == 1 and "checksum mismatch in level 12" in notes[0]
    assert f"rebuild it with: yahtzee solve --targets --rules official --max {R}" in notes[0]
    assert notes[0].endswith(f"; solving target:{R} instead")
    assert path.read_bytes() == before  # nothing written
    result = CliRunner().invoke(cli, ["simulate", "--strategy", f"target:{R}", "--games",
                                      "20"])
    assert result.exit_code == 0, result.output
    assert "checksum mismatch in level 12" in result.stderr
