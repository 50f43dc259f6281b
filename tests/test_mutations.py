"""`make mutate` cannot rot: every mutation of tools/mutations.py applies cleanly to the
current code (its anchor found exactly once), still parses, and names tests that exist."""

from __future__ import annotations

import ast
import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


mutations = _load("mutations")
mutate = _load("mutate")
MUTATIONS = mutations.MUTATIONS


def test_enough_mutations_across_both_layers():
    assert len(MUTATIONS) >= 60
    assert len({m.name for m in MUTATIONS}) == len(MUTATIONS)
    layers = {m.layer for m in MUTATIONS}
    assert layers == {"python", "kernel"}
    assert sum(m.layer == "kernel" for m in MUTATIONS) >= 10


def test_every_anchor_is_found_exactly_once():
    assert mutate.anchor_errors(MUTATIONS, ROOT) == {}


@pytest.mark.parametrize("m", MUTATIONS, ids=[m.name for m in MUTATIONS])
def test_each_mutation_parses_and_changes_the_code(m, tmp_path):
    source = (ROOT / m.path).read_text(encoding="utf-8")
    mutated = source.replace(m.anchor, m.replacement)
    assert mutated != source
    if m.path.endswith(".py"):
        ast.parse(mutated)
    elif shutil.which("node"):  # the page's JavaScript: node checks its syntax
        copy = tmp_path / Path(m.path).name
        copy.write_text(mutated, encoding="utf-8")
        checked = subprocess.run(["node", "--check", str(copy)], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr
    assert m.tests, "a mutation names the tests that should catch it"
    for target in m.tests:
        path, _, test = target.partition("::")
        assert (ROOT / path).is_file(), target
        if test:
            assert f"def {test}(" in (ROOT / path).read_text(encoding="utf-8"), target


def test_a_missing_anchor_is_reported(tmp_path):
    broken = MUTATIONS[0]._replace(anchor="this text is nowhere in the file")
    errors = mutate.anchor_errors((broken,), ROOT)
    assert "not found" in errors[broken.name]
