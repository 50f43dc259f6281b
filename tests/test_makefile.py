"""The Makefile's own output: pip's is kept in a log, shown only when pip fails (a
machine's pip configuration may make it print warnings on every install), and `make run`
ends by saying how to call the command. Run on a copy of the Makefile with a stand-in
``.venv`` (scripts that print what pip or yahtzee would), so nothing is installed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WARNING = "WARNING: Location '/somewhere' is ignored: it is either a non-existing path"

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


def _checkout(tmp_path: Path, pip_fails: bool) -> Path:
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'stand-in'\n")
    bin_ = tmp_path / ".venv" / "bin"
    bin_.mkdir(parents=True)
    python = bin_ / "python"
    error = "echo 'ERROR: Could not find a version that satisfies numba' >&2; exit 1" \
        if pip_fails else "exit 0"
    python.write_text("#!/bin/sh\n" + f"echo \"{WARNING}\" >&2\n" * 10 + error + "\n")
    yahtzee = bin_ / "yahtzee"
    yahtzee.write_text("#!/bin/sh\necho \"yahtzee $*\"\n")
    python.chmod(0o755)
    yahtzee.chmod(0o755)
    return tmp_path


def _make(folder: Path, *targets: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["make", "--no-print-directory", *targets], cwd=folder,
                          capture_output=True, text=True)


def test_pip_quiet_when_it_works_and_make_run_says_how_to_call(tmp_path):
    folder = _checkout(tmp_path, pip_fails=False)
    run = _make(folder, "run")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "WARNING" not in run.stdout + run.stderr
    assert "installing the project and its dependencies into .venv (pip's output: " \
           ".venv/pip.log)" in run.stdout
    assert (folder / ".venv" / "pip.log").read_text().count(WARNING) == 10
    lines = run.stdout.splitlines()
    assert "yahtzee solve --rules official" in lines and "yahtzee warmup" in lines
    assert lines[-4:] == [
        "Ready. The command is .venv/bin/yahtzee; to type it as plain 'yahtzee', first run",
        "    source .venv/bin/activate",
        "in this shell (once per shell), then for example:",
        "    yahtzee advise 22256"]
    assert (folder / ".venv" / ".run-stamp").exists()


def test_pip_failure_shows_pips_output_and_stops(tmp_path):
    folder = _checkout(tmp_path, pip_fails=True)
    run = _make(folder, "run")
    assert run.returncode != 0
    assert "ERROR: Could not find a version that satisfies numba" in run.stdout
    assert run.stdout.count(WARNING) == 10  # the whole log, as pip wrote it
    assert "make: pip failed (its output above, also in .venv/pip.log)" in run.stderr
    assert "yahtzee warmup" not in run.stdout  # nothing after the failed install
    assert not (folder / ".venv" / ".run-stamp").exists()
    dev = _make(folder, ".venv/.installed-stamp")
    assert dev.returncode != 0 and "make: pip failed" in dev.stderr
    assert not (folder / ".venv" / ".installed-stamp").exists()
