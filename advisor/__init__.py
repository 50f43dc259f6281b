"""The advisor: value objects, turn advice, guided play, game records and analysis.

Layers, each importing only those before it: the model (``model``: dice, keeps, cards;
``objective``; ``text``: the phrases every rendering shares; ``why``: what an option leads
to; ``advice``: the options and their text; ``ranking``: working them out, a turn's
advisor kept in the caches it is handed (``caches``: no module holds one); ``moves``: a
move as typed; ``analysis``, ``strategy``, ``play``, ``train``, ``record``, ..., with
``analyze_text`` and ``train_text`` beside their domain)
-> ``request`` (every option declared once, the questions the CLI and the web both
answer) -> the front ends ``web`` and ``cli`` (whose ``serve`` starts the web app).
``tests/test_imports.py`` keeps it so, type-only imports included.

The names most used are importable from here (loaded on first use, so the CLI's
``--help`` stays instant; no module of the package bears one of these names, so none
hides one)::

    from advisor import advise, Dice, Scorecard
    advice = advise(Scorecard.parse("twos=6"), Dice("22256"), rolls_left=1)
    advice = advise("twos=6", "22256", rolls_left=1)   # plain text works too
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    "advise": "advisor.ranking", "TurnAdvisor": "advisor.ranking",
    "Dice": "advisor.model", "Keep": "advisor.model", "Scorecard": "advisor.model",
    "Option": "advisor.advice", "Advice": "advisor.advice",
    "Objective": "advisor.objective",
    "Move": "solver.game.move",
    "GameRecord": "advisor.record", "parse_record": "advisor.record",
    "read_record": "advisor.record_file", "write_record": "advisor.record_file",
    "RecordFile": "advisor.record_file",
    "analyze": "advisor.analysis", "Analysis": "advisor.analysis",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'advisor' has no attribute {name!r}")

