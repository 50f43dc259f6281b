"""Helpers of the tests that run ``yahtzee`` commands in-process (click's CliRunner): the
run, its one error line, and a sample table to hand a command."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner, Result

from advisor.cli import cli
from solver.formats.tablefile import write_table
from solver.game.rules import get_rules
from solver.game.states import reachable_states


def run_cli(*args: str, env: dict[str, str] | None = None) -> Result:
    """``yahtzee ARGS`` in this process, with ``env`` added to the environment."""
    return CliRunner().invoke(cli, list(args), env=env)


def one_error_line(result: Result) -> str:
    """Exit 2, one ``Error:`` line of at most ~200 characters, no traceback."""
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    assert isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    lines = [line.rsplit("\r", 1)[-1].strip() for line in result.stderr.split("\n")]
    lines = [line for line in lines if line]  # a progress bar redraws itself with \r
    assert len(lines) == 1 and lines[0].startswith("Error: "), lines
    return lines[0]


def sample_table(path: Path, rules_name: str = "official") -> Path:
    """A table of ``rules_name`` at ``path``: 100 at every reachable state."""
    import numpy as np

    rules = get_rules(rules_name)
    values = np.where(reachable_states(rules), 100.0, np.nan)
    write_table(path, rules, values)
    return path
