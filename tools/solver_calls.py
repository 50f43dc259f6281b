"""Which of solver's functions the advisor calls directly, while one command runs.

Runs ``yahtzee ARGS`` in this process under a :func:`sys.setprofile` trace and lists
every distinct solver function (module and qualified name) called from a frame of
advisor/ code: the advisor's entry points into the solver. The game's value types are
left aside (solver/game/, solver/errors.py, solver/numbers.py: dice, rules, states,
errors), and so are the methods of the values the advisor holds: a
:class:`solver.table.Table` and the :class:`solver.memory.Bounded` caches of its
:class:`~advisor.caches.Caches`. Prints one line per entry point, then their number:

    python tools/solver_calls.py advise 22256 --card "ones=3,twos=6,threes=9" \\
        --opponent "ones=2,twos=8"

The command's own output (stdout and stderr) is discarded (``--show`` keeps it).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SOLVER, ADVISOR = ROOT / "solver", ROOT / "advisor"
ASIDE = (SOLVER / "game", SOLVER / "errors.py", SOLVER / "numbers.py")
"""The game's value types and errors: not entry points."""
VALUE_TYPES = ("Table.", "Bounded.")
"""Qualified-name prefixes of the value types' methods left aside."""


def _inside(path: str, folder: Path) -> bool:
    try:
        Path(path).resolve().relative_to(folder)
    except ValueError:
        return False
    return True


def _module(path: str) -> str:
    relative = Path(path).resolve().relative_to(ROOT).with_suffix("")
    return ".".join(relative.parts)


class EntryPoints:
    """The solver functions called from advisor/ frames: ``found[(module, name)]`` is
    the number of calls."""

    def __init__(self) -> None:
        self.found: dict[tuple[str, str], int] = {}
        self._where: dict[str, tuple[bool, bool]] = {}

    def _kind(self, path: str) -> tuple[bool, bool]:
        """(in solver and not aside, in advisor) of a code object's file, cached."""
        kind = self._where.get(path)
        if kind is None:
            in_solver = _inside(path, SOLVER) and not any(
                _inside(path, aside) for aside in ASIDE)
            kind = self._where[path] = (in_solver, _inside(path, ADVISOR))
        return kind

    def trace(self, frame: FrameType, event: str, arg: Any) -> None:
        if event != "call" or frame.f_back is None:
            return
        code = frame.f_code
        if not self._kind(code.co_filename)[0]:
            return
        if not self._kind(frame.f_back.f_code.co_filename)[1]:
            return
        name = code.co_qualname
        if name.startswith(VALUE_TYPES) or name.startswith("<"):
            return  # (a value type's method, a module's body, a comprehension)
        key = (_module(code.co_filename), name)
        self.found[key] = self.found.get(key, 0) + 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", action="store_true", help="print the command's output")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="the yahtzee command")
    options = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from advisor.cli import main as yahtzee

    entries = EntryPoints()
    sink = contextlib.ExitStack()
    if not options.show:  # (the command's output and its progress bars)
        sink.enter_context(contextlib.redirect_stdout(io.StringIO()))
        sink.enter_context(contextlib.redirect_stderr(io.StringIO()))
    code = 0
    with sink:
        sys.setprofile(entries.trace)
        try:
            yahtzee.main(options.args, prog_name="yahtzee", standalone_mode=False)
        except SystemExit as exc:
            code = int(exc.code or 0)
        finally:
            sys.setprofile(None)
    for (module, name), calls in sorted(entries.found.items()):
        print(f"{module}.{name}  ({calls} call{'s' if calls != 1 else ''})")
    print(f"{len(entries.found)} entry points into solver")
    return code


if __name__ == "__main__":
    sys.exit(main())
