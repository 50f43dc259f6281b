"""No function of solver/ or advisor/ takes more than ``MOST_PARAMETERS`` parameters:
wider data travels in bundles (``RuleArrays``, ``TurnPlan``, ``LevelStore``, ...).

Every parameter counts (``self`` included, ``*args`` and ``**kwargs`` one each); the
files are parsed (``ast``), not imported.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MOST_PARAMETERS = 15


def parameters(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> int:
    """How many parameters a function definition names."""
    a = node.args
    return (len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs) + (a.vararg is not None)
            + (a.kwarg is not None))


def signatures(root: Path) -> list[tuple[int, str]]:
    """(parameters, "file:line name") of every function of solver/ and advisor/."""
    found = []
    for package in ("solver", "advisor"):
        for path in sorted((root / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                    name = getattr(node, "name", "lambda")
                    where = f"{path.relative_to(root)}:{node.lineno} {name}"
                    found.append((parameters(node), where))
    return found


def test_the_count_sees_every_kind_of_parameter():
    tree = ast.parse("def f(a, /, b, *c, d, **e): pass\nclass K:\n    def g(self, x): pass")
    counted = sorted(parameters(n) for n in ast.walk(tree) if isinstance(n, ast.FunctionDef))
    assert counted == [2, 5]


def test_no_function_takes_more_than_fifteen_parameters():
    found = signatures(ROOT)
    assert len(found) > 500  # the whole tree was read
    wide = sorted((n, where) for n, where in found if n > MOST_PARAMETERS)
    assert wide == [], f"functions with more than {MOST_PARAMETERS} parameters: {wide}"
