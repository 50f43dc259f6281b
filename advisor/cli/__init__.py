"""Console script ``yahtzee``: one subcommand per job (see ``yahtzee --help``); each
command's module is imported when the command is used (``_base.COMMANDS``)."""

from ._base import cli

main = cli

__all__ = ["cli", "main"]
