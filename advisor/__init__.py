"""The advisor: value objects, turn advice, guided play, game records and analysis.

Layers, each importing only those before it: the model (``model``: dice, keeps, cards;
``objective``; ``text``: the phrases every rendering shares; ``why``: what an option leads
to; ``advice``: the options and their text; ``advise``: working them out, and the one
cache of turn advisors; ``moves``: a move as typed; ``analyze``, ``strategy``, ``play``,
``train``, ``record``, ..., with ``analyze_text`` and ``train_text`` beside their domain)
-> ``request`` (every option declared once, the questions the CLI and the web both
answer) -> the front ends ``web`` and ``cli`` (whose ``serve`` starts the web app).
``tests/test_imports.py`` keeps it so, type-only imports included.

The names most used are importable from here (loaded on first use, so the CLI's
``--help`` stays instant)::

    from advisor import advise, Dice, Scorecard
    advice = advise(Scorecard.parse("twos=6"), Dice("22256"), rolls_left=1)
    advice = advise("twos=6", "22256", rolls_left=1)   # plain text works too
"""

from __future__ import annotations

import sys
import types
from importlib import import_module
from typing import Any

_EXPORTS = {
    "advise": "advisor.advise", "TurnAdvisor": "advisor.advise",
    "Dice": "advisor.model", "Keep": "advisor.model", "Scorecard": "advisor.model",
    "Option": "advisor.advice", "Advice": "advisor.advice",
    "Objective": "advisor.objective",
    "Move": "solver.game.move",
    "GameRecord": "advisor.record", "parse_record": "advisor.record",
    "read_record": "advisor.record_file", "write_record": "advisor.record_file",
    "RecordFile": "advisor.record_file",
    "analyze": "advisor.analyze", "Analysis": "advisor.analyze",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'advisor' has no attribute {name!r}")


class _Package(types.ModuleType):
    """The package, whose exported functions ``advise`` and ``analyze`` are not hidden
    by the submodules of the same names (``from advisor.advise import ...`` still works:
    it goes through ``sys.modules``)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _EXPORTS and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
