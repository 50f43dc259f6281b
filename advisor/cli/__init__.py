"""Console script ``yahtzee``: one subcommand per job (see ``yahtzee --help``)."""

from . import advise as _advise  # noqa: F401  (each import registers commands)
from . import analyze as _analyze  # noqa: F401
from . import help as _help  # noqa: F401
from . import play as _play  # noqa: F401
from . import rules as _rules  # noqa: F401
from . import serve as _serve  # noqa: F401
from . import site as _site  # noqa: F401
from . import solve as _solve  # noqa: F401
from . import stats as _stats  # noqa: F401
from . import strategy as _strategy  # noqa: F401
from . import train as _train  # noqa: F401
from . import warmup as _warmup  # noqa: F401
from ._base import cli

main = cli

__all__ = ["cli", "main"]
