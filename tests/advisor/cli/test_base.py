"""The ``yahtzee`` group loads its commands lazily (``advisor.cli._base.COMMANDS``): the
list of ``yahtzee --help`` comes from the entries, a command's module is imported when
the command is used, and each entry is the command it names."""

from __future__ import annotations

import subprocess
import sys

import click
from click.testing import CliRunner

from advisor.cli import cli
from advisor.cli._base import COMMANDS

NAMES = ["advise", "analyze", "export", "help", "play", "rules", "serve", "simulate", "site",
         "solve", "stats", "strategy", "train", "warmup"]


def test_help_lists_every_command_and_imports_none():
    code = ("import sys\nfrom advisor.cli import main\ntry:\n    main(['--help'])\n"
            "except SystemExit:\n    pass\n"
            "loaded = [m for m in sys.modules if m.startswith('advisor.cli.') and "
            "m not in ('advisor.cli._base',)]\n"
            "print(loaded, 'numba' in sys.modules, 'advisor.record_file' in sys.modules, "
            "file=sys.stderr)\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert run.stderr.strip() == "[] False False"
    listed = run.stdout.split("Commands:\n")[1].splitlines()
    assert [line.split()[0] for line in listed] == NAMES
    for line, name in zip(listed, NAMES, strict=True):
        assert line.split(None, 1)[1] == COMMANDS[name].short_help


def test_each_entry_is_the_command_it_names_with_its_line_of_help():
    ctx = click.Context(cli)
    assert cli.list_commands(ctx) == NAMES == sorted(COMMANDS)
    for name in NAMES:
        command = cli.get_command(ctx, name)
        assert isinstance(command, click.Command) and command.name == name
        assert command.get_short_help_str(80) == COMMANDS[name].short_help
        shown = CliRunner().invoke(cli, [name, "--help"], prog_name="yahtzee")
        assert shown.exit_code == 0 and shown.stdout.startswith(f"Usage: yahtzee {name} ")


def test_an_unknown_command_is_refused_as_click_refuses_it():
    result = CliRunner().invoke(cli, ["advice", "22256"])
    assert result.exit_code == 2
    assert "No such command 'advice'" in result.stderr
