"""advisor/__init__.py: the package's public names, loaded on first use, each from its
home module, and never hidden by a submodule (no submodule bears a public name, so the
package needs no trick to keep ``advisor.advise`` the function)."""

from __future__ import annotations

import importlib
import pkgutil
import sys
import types

import advisor


def test_no_public_name_is_also_a_module_of_the_package():
    modules = {info.name for info in pkgutil.iter_modules(advisor.__path__)}
    assert {"ranking", "analysis", "advice", "model"} <= modules
    assert sorted(set(advisor.__all__) & modules) == []


def test_the_package_is_a_plain_module():
    assert type(sys.modules["advisor"]) is types.ModuleType


def test_every_public_name_is_its_home_modules_even_with_every_module_imported():
    """Each name of ``__all__`` is the object its home module defines, read before and
    after every module of the package is imported (an import binds the module's name on
    the package: a module named like a function would hide it)."""
    homes = {"advise": "advisor.ranking", "TurnAdvisor": "advisor.ranking",
             "analyze": "advisor.analysis", "Analysis": "advisor.analysis",
             "Option": "advisor.advice", "Advice": "advisor.advice", "Dice": "advisor.model",
             "Keep": "advisor.model", "Scorecard": "advisor.model",
             "Objective": "advisor.objective", "Move": "solver.game.move",
             "GameRecord": "advisor.record", "parse_record": "advisor.record",
             "read_record": "advisor.record_file", "write_record": "advisor.record_file",
             "RecordFile": "advisor.record_file"}
    assert sorted(advisor.__all__) == sorted(homes)
    for info in pkgutil.iter_modules(advisor.__path__):
        if not info.ispkg:
            importlib.import_module(f"advisor.{info.name}")
    for name, home in homes.items():
        assert getattr(advisor, name) is getattr(importlib.import_module(home), name), name
    assert isinstance(advisor.advise, types.FunctionType)
    assert isinstance(advisor.analyze, types.FunctionType)
