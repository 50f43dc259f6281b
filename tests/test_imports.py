"""Dependencies point one way: no import cycle between the modules of solver/ and
advisor/, none between their subpackages, and nothing in solver/ imports advisor/.

Every import that runs counts, wherever it stands (module level or inside a function):
the files are parsed (``ast``), not imported. Imports under ``if TYPE_CHECKING:`` never
run (they name types for the type checker); they count too in one check, which holds the
cycles they still close to a list that may only shrink (:data:`KNOWN_TYPE_ONLY_CYCLES`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("solver", "advisor")

Graph = dict[str, set[str]]

KNOWN_TYPE_ONLY_CYCLES = frozenset({
    "advisor.advise", "advisor.analyze", "advisor.play", "advisor.text", "advisor.train",
    "advisor.why"})
"""The modules on an import cycle that only imports under ``if TYPE_CHECKING:`` close
(issue 34: the advisor core, advise -> text -> analyze/train -> advise, why -> advise).
The list may only shrink: a module that leaves every cycle is struck off it, none is
added, and once it is empty every cycle counts."""


def modules(root: Path, packages: Iterable[str]) -> dict[str, Path]:
    """Dotted module name -> file, for every ``.py`` file of ``packages`` under ``root``
    (a package is named by its ``__init__.py``)."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def imported(name: str, path: Path, known: dict[str, Path], type_only: bool = False
             ) -> set[str]:
    """The known modules that module ``name`` (file ``path``) imports anywhere in it
    (with ``type_only``, those imported under ``if TYPE_CHECKING:`` as well)."""
    is_package = path.name == "__init__.py"
    here = name.split(".") if is_package else name.split(".")[:-1]
    targets = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree) if type_only else _running(tree):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = here[:len(here) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            for alias in node.names:  # `from pkg import sub` imports the module pkg.sub
                sub = f"{module}.{alias.name}"
                targets.add(sub if sub in known else module)
    found = set()
    for target in targets:
        while target not in known and "." in target:
            target = target.rsplit(".", 1)[0]
        if target in known and target != name:
            found.add(target)
    return found


def _running(tree: ast.AST) -> list[ast.AST]:
    """Every node of ``tree`` outside ``if TYPE_CHECKING:`` blocks."""
    found = []
    todo = [tree]
    while todo:
        node = todo.pop()
        found.append(node)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            todo.extend(node.orelse)
        else:
            todo.extend(ast.iter_child_nodes(node))
    return found


def import_graph(root: Path = ROOT, packages: Iterable[str] = PACKAGES,
                 type_only: bool = False) -> Graph:
    known = modules(root, packages)
    return {name: imported(name, path, known, type_only) for name, path in known.items()}


def subpackage(name: str, graph: Graph) -> str:
    """The node of a module in the package graph: its subpackage (``advisor.cli.advise``
    is ``advisor.cli``), or, for a module at the top of solver/ or advisor/, itself (so
    ``solver.errors``, which every layer uses, is not lumped with the drivers beside it)."""
    parts = name.split(".")
    is_package = any(other.startswith(name + ".") for other in graph)
    if is_package or len(parts) <= 2:
        return name
    return ".".join(parts[:-1])


def package_graph(graph: Graph) -> Graph:
    out: Graph = {subpackage(name, graph): set() for name in graph}
    for name, targets in graph.items():
        for target in targets:
            if subpackage(target, graph) != subpackage(name, graph):
                out[subpackage(name, graph)].add(subpackage(target, graph))
    return out


def cycles(graph: Graph) -> list[list[str]]:
    """Every strongly connected set of two or more nodes, as a closed path through it."""
    return [path_through(members, graph) for members in on_cycles(graph)]


def on_cycles(graph: Graph) -> list[set[str]]:
    """Every strongly connected set of two or more nodes (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            members = stack[stack.index(node):]
            del stack[stack.index(node):]
            if len(members) > 1:
                found.append(set(members))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def path_through(members: set[str], graph: Graph) -> list[str]:
    """The shortest cycle from the first of ``members`` (a strongly connected set) back to
    it, that node repeated last."""
    start = min(members)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        node = frontier.pop(0)
        for nxt in sorted(graph[node] & members):
            if nxt == start:
                return [*paths[node], start]
            if nxt not in paths:
                paths[nxt] = [*paths[node], nxt]
                frontier.append(nxt)
    raise AssertionError(f"no cycle through {sorted(members)}")


@pytest.fixture(scope="module")
def graph() -> Graph:
    return import_graph()


def test_the_parser_sees_imports_of_every_kind(graph):
    """The graph holds known edges: module level, relative, function level, `from pkg
    import module`, under TYPE_CHECKING (so the tests below cannot pass on an empty one)."""
    assert len(graph) > 50
    assert "advisor.model" in graph["advisor.objective"]            # from .model import
    assert "advisor.request.params" in graph["advisor.web.app"]    # from ..request.params
    assert "advisor.target_stats" in graph["advisor.cli.stats"]    # inside the command
    assert "solver.game.boxes" in graph["solver.game.rules"]       # from . import boxes
    assert "advisor.text" in graph["advisor.advise"]               # inside a method
    assert "advisor.analyze" not in graph["advisor.text"]          # under TYPE_CHECKING


def test_no_import_cycle_between_modules(graph):
    assert cycles(graph) == []


def test_no_import_cycle_between_subpackages(graph):
    packages = package_graph(graph)
    assert {"advisor.model", "advisor.cli", "advisor.web", "advisor.request", "solver.game",
            "solver.kernels", "solver.table"} <= set(packages)
    assert cycles(packages) == []


def test_type_only_imports_close_no_cycle_but_the_known_ones():
    """Counting the imports under ``if TYPE_CHECKING:`` too (a type named from a module
    is a dependency on it all the same): no cycle between the modules or the subpackages
    of solver/ and advisor/ but the known ones, which may only shrink."""
    graph = import_graph(type_only=True)
    assert "advisor.analyze" in graph["advisor.text"]  # under TYPE_CHECKING in text
    for found in (graph, package_graph(graph)):
        members = set().union(*on_cycles(found))
        assert members <= KNOWN_TYPE_ONLY_CYCLES, \
            f"a new import cycle: {[c for c in cycles(found) if set(c) - KNOWN_TYPE_ONLY_CYCLES]}"
    left = set().union(*on_cycles(graph))
    assert left == KNOWN_TYPE_ONLY_CYCLES, \
        f"no longer on a cycle, strike off KNOWN_TYPE_ONLY_CYCLES: {KNOWN_TYPE_ONLY_CYCLES - left}"


def test_the_solver_imports_nothing_of_the_advisor(graph):
    assert {(name, target) for name, targets in graph.items() if name.startswith("solver")
            for target in targets if target.startswith("advisor")} == set()


def test_front_ends_sit_on_top():
    """The web never imports the CLI; the request layer and the model neither."""
    packages = package_graph(import_graph())
    assert "advisor.cli" not in packages["advisor.web"]
    for lower in [name for name in packages if name.startswith("advisor")
                  and name not in ("advisor.cli", "advisor.web")]:
        assert not packages[lower] & {"advisor.cli", "advisor.web"}, lower


def test_cycles_are_found_wherever_the_import_stands(tmp_path: Path):
    """The checks above can fail: a cycle closed by a function-level import is reported,
    and so is a cycle between two subpackages whose modules form no cycle; types named
    under TYPE_CHECKING close none."""
    files = {
        "pkg/__init__.py": "",
        "pkg/a.py": "def f():\n    from . import b\n",
        "pkg/b.py": "from .a import f\n",
        "pkg/c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .d import g\n",
        "pkg/d.py": "from .c import TYPE_CHECKING\n",
        "pkg/one/__init__.py": "", "pkg/one/x.py": "from ..two import y\n", "pkg/one/w.py": "",
        "pkg/two/__init__.py": "", "pkg/two/y.py": "", "pkg/two/z.py": "import pkg.one.w\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    found = import_graph(tmp_path, ("pkg",))
    assert found["pkg.one.x"] == {"pkg.two.y"} and found["pkg.two.z"] == {"pkg.one.w"}
    assert found["pkg.c"] == set() and found["pkg.d"] == {"pkg.c"}
    assert cycles(found) == [["pkg.a", "pkg.b", "pkg.a"]]
    typed = import_graph(tmp_path, ("pkg",), type_only=True)
    assert typed["pkg.c"] == {"pkg.d"}
    assert sorted(cycles(typed)) == [["pkg.a", "pkg.b", "pkg.a"], ["pkg.c", "pkg.d", "pkg.c"]]
    assert sorted(cycles(package_graph(found))) == [["pkg.a", "pkg.b", "pkg.a"],
                                                    ["pkg.one", "pkg.two", "pkg.one"]]
