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
from solver.errors import InvalidOptionError
from solver.simulate import simulate
from solver.simulate.target import flatten, target_plan
from solver.target import Utility, solve_vectors
from solver.target_table import forget_targets, solve_targets, write_targets

R = 40
"""The largest target of the table the games are played with (slow: a whole-game solve
besides the table's own)."""
SMALL = 30
"""conftest's ``small_targets``: for the notes and refusals (nothing solved)."""


@pytest.fixture(scope="module")
def targets_40(official_table, tmp_path_factory):
    path = tmp_path_factory.mktemp("sim-targets") / "official.ytargets"
    write_targets(path, official_table, R, solve_targets(official_table, R))
    return path


@pytest.fixture
def use(targets_at):
    """use(path): the target table is looked for at ``path``."""
    return targets_at


class Solving(Exception):
    """Raised where a test has seen that the vectors are solved (and need not wait)."""


@pytest.fixture
def no_solve(monkeypatch):
    """The target DP of the simulator raises :class:`Solving` instead of solving."""
    import solver.simulate.target as stg

    def refuse(*args, **kwargs):
        raise Solving

    monkeypatch.setattr(stg, "solve_vectors", refuse)


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


@pytest.fixture(scope="module")
def runs(official_table, targets_40, tmp_path_factory):
    """target:R, 300 games of seed 11: (read from the table, solved), with the notes."""
    from unittest import mock

    notes: list[str] = []
    with mock.patch.object(target_table, "default_targets_path", lambda r: targets_40):
        forget_targets()
        read = simulate(official_table, f"target:{R}", 300, seed=11, record=True,
                        note=notes.append)
        read_notes = list(notes)
    none = tmp_path_factory.mktemp("no-targets") / "official.ytargets"
    with mock.patch.object(target_table, "default_targets_path", lambda r: none):
        forget_targets()
        solved = simulate(official_table, f"target:{R}", 300, seed=11, record=True,
                          note=notes.append)
    forget_targets()
    return read, solved, read_notes, notes[len(read_notes):]


@pytest.mark.slow
def test_same_games_and_figures_with_and_without_the_table(runs):
    read, solved, read_notes, solved_notes = runs
    same_run(read, solved)
    assert 0 < read.p_target < 1 and read.losses is not None
    assert read_notes == []  # read at once: nothing to say
    assert len(solved_notes) == 1
    assert "yahtzee solve --targets --rules official" in solved_notes[0]


@pytest.mark.slow
def test_the_stored_vectors_are_the_solved_ones(official_table, targets_40, use):
    """Every state's value at every column a game can have there, read from the table
    for X < R, is the solve's (the simulator's own vectors: from a new game, total 0)."""
    use(targets_40)
    rules = official_table.rules
    x = 27
    stored = target_plan(official_table, x)
    assert stored.stored
    vectors = solve_vectors(official_table, Utility.target(x), total=0,
                            keep=tuple(range(1, rules.n_boxes + 1)))
    solved, mine = flatten(vectors), stored.store
    t, s = solved.vectors, mine.vectors
    compared = 0
    for n in range(1, rules.n_boxes):
        masks = np.array([m for m in range(1 << rules.n_boxes) if bin(m).count("1") == n])
        i, j = solved.slot[masks].ravel(), mine.slot[masks].ravel()
        live = i >= 0
        assert np.array_equal(live, j >= 0)
        a, b = np.unique(np.stack([i[live], j[live]]), axis=1)  # each state once
        own = np.array([bin(int(m)).count("1") == n for m in t.m[a]])  # (not placeholders,
        a, b = a[own], b[own]                                          # which nothing reads)
        for field in ("m", "u", "y"):
            assert np.array_equal(getattr(t, field)[a], getattr(s, field)[b])
        width = np.maximum(t.hi[a] - t.lo[a] + 1, 0)  # every column of the solve's range
        assert (s.lo[b] <= t.lo[a]).all() and (s.hi[b] >= t.hi[a]).all()
        at = np.repeat(np.arange(a.shape[0]), width)
        col = t.lo[a][at] + np.arange(at.shape[0]) - np.repeat(np.cumsum(width) - width, width)
        ta, sb = a[at], b[at]
        assert np.array_equal(t.vals[t.start[ta] + col - t.lo[ta]],
                              s.vals[s.start[sb] + col - s.lo[sb]])
        compared += at.shape[0]
    assert compared > 10_000


@pytest.mark.slow
def test_cli_reads_the_table_and_notes_when_it_cannot(official_table, targets_40, use,
                                                     tmp_path, runs, no_solve):
    use(targets_40)
    args = ["simulate", "--strategy", f"target:{R}", "--games", "300", "--seed", "11",
            "--json"]
    read = CliRunner().invoke(cli, args)
    assert read.exit_code == 0, read.output
    assert "note:" not in read.stderr
    data, want = json.loads(read.stdout), json.loads(json.dumps(runs[1].to_json()))
    for key in ("seconds", "solve_seconds", "games_per_second"):
        data.pop(key), want.pop(key)
    assert data == want  # the library's figures of the solved vectors
    use(tmp_path / "none.ytargets")
    solved = CliRunner().invoke(cli, args)
    assert isinstance(solved.exception, Solving)
    assert ("note: target:40 solves the whole game first (up to a minute or more); "
            "`yahtzee solve --targets --rules official` stores the answers of every target "
            "up to 500 once, and target:X then reads them at once") in solved.stderr


def test_a_simulation_reads_the_table_and_solves_nothing(official_table, small_targets, use,
                                                        no_solve):
    from solver.target import turn_at

    use(small_targets)
    notes: list[str] = []
    run = simulate(official_table, f"target:{SMALL - 2}", 60, seed=3, note=notes.append)
    table = target_table.get_targets(official_table)
    assert run.p_target == min(max(turn_at(table.vectors(SMALL - 2), 0, 0, 0, 0).value, 0.0), 1.0)
    assert notes == [] and run.losses is not None and (run.scores >= SMALL - 2).all()


def test_a_target_above_the_table_is_solved_and_says_so(official_table, small_targets, use,
                                                        no_solve):
    use(small_targets)
    notes: list[str] = []
    with pytest.raises(Solving):
        target_plan(official_table, SMALL + 1, note=notes.append)
    assert notes == [f"note: target:{SMALL + 1} is solved: the target table holds targets up "
                     f"to {SMALL}; `yahtzee solve --targets --rules official --max {SMALL + 1}` "
                     f"rebuilds it for this one"]
    # asked of the table itself: one clear error (a ValueError), nothing read
    table = target_table.open_targets(small_targets, official_table)
    for x in (0, SMALL + 1):
        with pytest.raises(InvalidOptionError, match=f"holds targets 1 to {SMALL}, not {x}"):
            table.store(x)
    assert issubclass(InvalidOptionError, ValueError)
    # trivial targets solve nothing and read nothing: no note
    for x in (0, 1576):
        assert not target_plan(official_table, x, note=notes.append).stored
    assert len(notes) == 1


def test_a_damaged_level_is_noted_and_the_target_solved(official_table, small_targets, use,
                                                        tmp_path, no_solve):
    path = tmp_path / "official.ytargets"
    shutil.copyfile(small_targets, path)
    data = bytearray(path.read_bytes())
    data[-3] ^= 0x55  # a value of the last level
    path.write_bytes(bytes(data))
    before = path.read_bytes()
    use(path)
    notes: list[str] = []
    with pytest.raises(Solving):
        target_plan(official_table, SMALL, note=notes.append)
    assert len(notes) == 1 and "checksum mismatch in level 12" in notes[0]
    assert f"rebuild it with: yahtzee solve --targets --rules official --max {SMALL}" in notes[0]
    assert notes[0].endswith(f"; solving target:{SMALL} instead")
    assert path.read_bytes() == before  # nothing written
