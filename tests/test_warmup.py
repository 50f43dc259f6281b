"""No silent wait: a compile says so (once per process), and the warm-up leaves the
everyday kernels compiled."""

from __future__ import annotations

import subprocess
import sys

from solver import _jit_cache


def test_first_compile_calls_back_once():
    from numba import njit

    calls = []

    def note() -> None:
        calls.append(1)

    _jit_cache.check()  # installs the listener (numba is loaded)
    _jit_cache.on_first_compile(note)
    _jit_cache.on_first_compile(note)  # registered once

    @njit
    def twice(x):
        return 2 * x

    @njit
    def thrice(x):
        return 3 * x

    assert twice(2) == 4 and thrice(2) == 6
    assert calls == [1]


def test_warm_up_then_advise_compiles_nothing(official_table, tmp_path):
    """After the warm-up a new process running advise, analyze and simulate compiles no
    kernel (numba's compile event never fires)."""
    warm = subprocess.run([sys.executable, "-m", "solver.warmup", "official"],
                          capture_output=True, text=True, check=True)
    assert "kernels compiled and cached" in warm.stdout
    record = tmp_path / "game.txt"
    record.write_text("Ann: 22256 222 22234 2223 22235 twos\n")
    probe = f"""
from numba.core import event
compiled = []
class Probe(event.Listener):
    def on_start(self, ev): compiled.append(ev.data["dispatcher"].py_func.__name__)
    def on_end(self, ev): pass
event.register("numba:compile", Probe())
from click.testing import CliRunner
from advisor.cli import cli
for args in (["advise", "22256"], ["analyze", {str(record)!r}],
             ["simulate", "--games", "3", "--strategy", "greedy-turn"],
             ["stats", "--card", "aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,"
              "4k=20,fh=25,ss=30"],
             ["advise", "22256", "--card", "aces=3,twos=6,threes=9,fours=12,fives=15,"
              "sixes=18,3k=20,4k=20,fh=25,ss=30", "--opponent", "aces=3,twos=6"]):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
print("compiled:", compiled)
"""
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "compiled: []"


def test_yahtzee_warmup_is_the_command_for_a_pip_user(official_table):
    from click.testing import CliRunner

    from advisor.cli import cli

    result = CliRunner().invoke(cli, ["warmup"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("warm-up official: kernels compiled and cached (")
    assert "first run only" in result.stderr
    bad = CliRunner().invoke(cli, ["warmup", "--rules", "chess"])
    assert bad.exit_code == 2 and bad.stderr.startswith("Error:")


def test_the_compile_note_names_the_first_run_and_the_warmup(monkeypatch, capsys):
    from advisor.cli import _base

    monkeypatch.setattr("sys.stderr.isatty", lambda: True, raising=False)
    _base._compiling_note()
    err = capsys.readouterr().err
    assert err.startswith(f"note: compiling kernels, first run only, about "
                          f"{_base.COMPILE_SECONDS} s (`yahtzee warmup` compiles them all")
