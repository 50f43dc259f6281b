"""No silent wait: a compile says so (once per process), and the warm-up leaves the
everyday kernels compiled."""

from __future__ import annotations

import os
import subprocess
import sys
from types import SimpleNamespace

import pytest

from solver import _jit_cache


def test_first_compile_calls_back_once_per_kind(monkeypatch):
    from numba import njit

    calls = []

    def note(kind: _jit_cache.Kind) -> None:
        calls.append(kind)

    _jit_cache.check()  # installs the listener (numba is loaded)
    monkeypatch.setattr(_jit_cache, "_told", set())
    monkeypatch.setattr(_jit_cache, "_on_compile", [])
    _jit_cache.on_first_compile(note)
    _jit_cache.on_first_compile(note)  # registered once

    @njit
    def twice(x):
        return 2 * x

    @njit
    def thrice(x):
        return 3 * x

    @njit
    def four_times(x):
        return 4 * x

    @_jit_cache.compiling(_jit_cache.TARGETS)
    def named(x):
        return four_times(x)

    assert twice(2) == 4 and thrice(2) == 6
    assert calls == [_jit_cache.EVERYDAY]  # outside any named driver: the everyday kind
    with _jit_cache.compiling(_jit_cache.SIMULATOR):
        assert thrice(3.0) == 9.0  # a new signature compiles
        assert twice(3.0) == 6.0
    assert named(1) == 4
    assert calls == [_jit_cache.EVERYDAY, _jit_cache.SIMULATOR, _jit_cache.TARGETS]


class _Named(Exception):
    pass


def _naming_here(*args, **kwargs):
    """Stands in for the first thing a driver calls: raises the kind it runs under."""
    raise _Named(_jit_cache._naming.kinds[-1])


class _Vectors:
    rules = property(_naming_here)


def test_the_drivers_name_what_they_compile(monkeypatch):
    """simulate compiles under the simulator's name, the target DP under its own."""
    from solver import simulate, target

    monkeypatch.setattr(simulate, "check_games", _naming_here)
    monkeypatch.setattr(target, "_Plan", _naming_here)
    table = SimpleNamespace(rules=None)
    for call, kind in ((lambda: simulate.simulate(table, "optimal", 1), _jit_cache.SIMULATOR),
                       (lambda: target.solve_vectors(table, None), _jit_cache.TARGETS),
                       (lambda: target.turn_at(_Vectors(), 0, 0, 0, 0), _jit_cache.TARGETS)):
        with pytest.raises(_Named) as named:
            call()
        assert named.value.args == (kind,)
        assert _jit_cache._naming.kinds == []  # the naming ends with the driver


_PROBE = """
import sys
from numba.core import event
compiled = []
class Probe(event.Listener):
    def on_start(self, ev): compiled.append(ev.data["dispatcher"].py_func.__name__)
    def on_end(self, ev): pass
event.register("numba:compile", Probe())
from click.testing import CliRunner
from advisor.cli import cli
for args in eval(sys.argv[1]):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
print("compiled:", compiled)
"""
_CARD = "aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30"


def _compiled_by(commands: list[list[str]]) -> str:
    """What a new process running ``commands`` (CLI arguments) compiles."""
    return subprocess.run([sys.executable, "-c", _PROBE, repr(commands)], capture_output=True,
                          text=True, check=True).stdout.strip()


def test_warm_up_then_commands_compile_nothing(official_table, tmp_path):
    """After the warm-up a new process running advise (with and without --why), analyze,
    stats (of a card and of a new game) and a simulation of every built-in strategy
    compiles no kernel (numba's compile event never fires); after ``--all`` neither does
    the win objective, nor tournament play's statistics (its DP and forward pass)."""
    warm = subprocess.run([sys.executable, "-m", "solver.warmup", "official"],
                          capture_output=True, text=True, check=True)
    assert ("the everyday and simulator kernels compiled and cached, the why figures and "
            "new-game statistics computed") in warm.stdout
    assert warm.stderr.splitlines() == [
        "compiling kernels (about 15 s the first time)...",
        "computing the why figures and the new-game statistics (about 30 s the first "
        "time)...",
        "compiling the simulator's kernels (about 15 s the first time)..."]
    record = tmp_path / "game.txt"
    record.write_text("Ann: 22256 222 22234 2223 22235 twos\n")
    everyday = [["advise", "22256"], ["analyze", str(record)], ["stats", "--card", _CARD],
                ["advise", "--why", "22256"], ["stats"],
                ["simulate", "--games", "3", "--compare",
                 "optimal,greedy-turn,heuristic,greedy"]]
    assert _compiled_by(everyday) == "compiled: []"
    warm = subprocess.run([sys.executable, "-m", "solver.warmup", "--all", "official"],
                          capture_output=True, text=True, check=True)
    assert "every kernel compiled and cached" in warm.stdout
    for kind in _jit_cache.KINDS:
        assert f"compiling {kind.what} (about {kind.seconds} s" in warm.stderr
    rest = [["advise", "22256", "--card", _CARD, "--opponent", "aces=3,twos=6"],
            ["stats", "--tournament", "10", "--card", _CARD]]  # the forward pass too
    assert _compiled_by(rest) == "compiled: []"


def test_yahtzee_warmup_is_the_command_for_a_pip_user(official_table):
    from click.testing import CliRunner

    from advisor.cli import cli

    result = CliRunner().invoke(cli, ["warmup"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("warm-up official: the everyday and simulator kernels "
                                    "compiled and cached, the why figures and new-game "
                                    "statistics computed (")
    assert result.stderr.startswith("compiling kernels for official (first run only, about ")
    assert "computing the why figures and the new-game statistics for official (first run " \
        "only, about 30 s)..." in result.stderr
    assert "compiling the simulator's kernels for official (first run only" in result.stderr
    everything = CliRunner().invoke(cli, ["warmup", "--all"])
    assert everything.exit_code == 0, everything.output
    assert everything.stdout.startswith("warm-up official: every kernel compiled and cached, ")
    assert "compiling the target and win kernels for official (first run only" in \
        everything.stderr
    bad = CliRunner().invoke(cli, ["warmup", "--rules", "chess"])
    assert bad.exit_code == 2 and bad.stderr.startswith("Error:")


def test_the_compile_note_names_what_compiles_and_the_warmup(monkeypatch, capsys):
    from advisor.cli import _base

    monkeypatch.setattr("sys.stderr.isatty", lambda: True, raising=False)
    _base._compiling_note(_jit_cache.SIMULATOR)
    err = capsys.readouterr().err
    assert err == (f"note: compiling the simulator's kernels, first run only, about "
                   f"{_jit_cache.SIMULATOR.seconds} s (`yahtzee warmup --all` compiles every "
                   f"kernel ahead)...\n")


def test_the_compile_note_goes_above_a_running_progress_bar(monkeypatch, capsys):
    """A note printed while a progress bar runs has a line of its own (the bar is cleared,
    the note written, the bar drawn again below it), never glued into the bar's line."""
    import sys as system

    from tqdm import tqdm

    from advisor.cli import _base

    monkeypatch.setattr("sys.stderr.isatty", lambda: True, raising=False)
    bar = tqdm(total=10, desc="solving official", file=system.stderr, mininterval=0)
    bar.update(3)
    _base._compiling_note(_jit_cache.EVERYDAY)
    bar.update(7)
    bar.close()
    err = capsys.readouterr().err
    screen_lines = [line.split("\r")[-1] for line in err.split("\n")]
    notes = [line for line in screen_lines if "note: compiling" in line]
    assert len(notes) == 1 and notes[0].startswith("note: compiling kernels, first run ")
    before = err[:err.index("note: compiling")]
    assert before.endswith("\r") or before.endswith("\n") or before.endswith("\x1b[A"), \
        repr(before[-40:])
    assert "solving official: 100%" in err[err.index("note: compiling"):]


_SIGNATURES = """
import sys
from numba.core.registry import CPUDispatcher
from solver.warmup import warm_up
warm_up("official", everything=True)
for module in list(sys.modules.values()):
    if getattr(module, "__name__", "").startswith("solver"):
        for obj in vars(module).values():
            if isinstance(obj, CPUDispatcher) and len(obj.signatures) > 1:
                print(obj.py_func.__module__, obj.py_func.__qualname__, obj.signatures)
print("done")
"""


@pytest.mark.slow
def test_every_kernel_compiles_once(official_table, tmp_path):
    """A cold compile of every kind (an empty numba cache) compiles each kernel for one
    signature only: no literal or omitted argument makes a second copy (docs/kernels.md,
    first run)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", _SIGNATURES], capture_output=True, text=True,
                         check=True, env=env).stdout
    assert out == "done\n"
