"""Dependencies point one way: no import cycle between the modules of solver/ and
advisor/, none between their subpackages, and nothing in solver/ imports advisor/.

Every import that runs counts, wherever it stands (module level or inside a function):
the files are parsed (``ast``), not imported. Imports under ``if TYPE_CHECKING:`` never
run (they name types for the type checker); they count too in a check of their own (a
type named from a module is a dependency on it all the same). In the advisor's core
(the modules at the top of advisor/), an import inside a function is only for a module
that is slow to import (:data:`SLOW_TO_IMPORT`, each checked to load numba); the rest
stand at the top of their module, where a reader looks for them.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("solver", "advisor")

Graph = dict[str, set[str]]

SLOW_TO_IMPORT = frozenset({"solver.simulate", "solver.target", "solver.vector_cache"})
"""The modules the advisor's core may import inside a function: each loads numba (about
1 s at import on the reference machine, against 0.1 s for ``solver.table``), and only
some uses of the module importing it need them (a solve, a simulation)."""


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
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = ast.walk(tree) if type_only else _running(tree)
    return _known_targets(name, path, nodes, known)


def _known_targets(name: str, path: Path, nodes: Iterable[ast.AST],
                   known: dict[str, Path]) -> set[str]:
    """The known modules the import statements among ``nodes`` of module ``name`` (file
    ``path``) import."""
    is_package = path.name == "__init__.py"
    here = name.split(".") if is_package else name.split(".")[:-1]
    targets = set()
    for node in nodes:
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
    assert "advisor.request.params" in graph["advisor.web.served"]    # from ..request.params
    assert "advisor.target_stats" in graph["advisor.cli.stats"]    # inside the command
    assert "solver.game.boxes" in graph["solver.game.rules"]       # from . import boxes
    assert "solver.simulate" in graph["advisor.train"]             # inside a function
    assert "solver.table" not in graph["advisor.objective"]        # under TYPE_CHECKING


def test_no_import_cycle_between_modules(graph):
    assert cycles(graph) == []


def test_no_import_cycle_between_subpackages(graph):
    packages = package_graph(graph)
    assert {"advisor.model", "advisor.cli", "advisor.web", "advisor.request", "solver.game",
            "solver.kernels", "solver.table"} <= set(packages)
    assert cycles(packages) == []


def test_type_only_imports_close_no_cycle_either():
    """Counting the imports under ``if TYPE_CHECKING:`` too, no cycle between the modules
    or the subpackages of solver/ and advisor/."""
    graph = import_graph(type_only=True)
    assert "solver.table" in graph["advisor.objective"]  # under TYPE_CHECKING there
    assert cycles(graph) == []
    assert cycles(package_graph(graph)) == []


def function_imports(name: str, path: Path, known: dict[str, Path]) -> list[tuple[str, str]]:
    """(function, module) of every import inside a function of module ``name`` (file
    ``path``): the known module it imports, as :func:`imported` names it."""
    found = []

    def visit(node: ast.AST, function: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            inside = function
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                inside = child.name
            if function is not None and isinstance(child, (ast.Import, ast.ImportFrom)):
                targets = _known_targets(name, path, [child], known)
                found.extend((function, target)
                             for target in sorted(targets) or [ast.unparse(child)])
            visit(child, inside)

    visit(ast.parse(path.read_text(encoding="utf-8")), None)
    return found


def core_function_imports() -> dict[str, list[tuple[str, str]]]:
    """Module -> (function, module imported) of the imports inside functions of the
    advisor's core: the modules at the top of advisor/ (not ``cli``, ``web``,
    ``request``, ``rl``)."""
    known = modules(ROOT, PACKAGES)
    core = {name: path for name, path in known.items()
            if name.startswith("advisor.") and path.parent == ROOT / "advisor"}
    return {name: function_imports(name, path, known) for name, path in core.items()}


def test_the_advisor_core_imports_inside_a_function_only_what_is_slow_to_import():
    found = core_function_imports()
    assert len(found) > 20 and "advisor.ranking" in found and "advisor.cli" not in found
    assert ("positions_of_play", "solver.simulate") in found["advisor.train"]
    slow = {(name, function, target) for name, pairs in found.items()
            for function, target in pairs if target in SLOW_TO_IMPORT}
    assert {(name, function, target) for name, pairs in found.items()
            for function, target in pairs} - slow == set(), \
        "import at the top of the module (or add a measured reason to SLOW_TO_IMPORT)"


@pytest.mark.parametrize("name", sorted(SLOW_TO_IMPORT))
def test_what_may_be_imported_in_a_function_loads_numba(name):
    """Each module of :data:`SLOW_TO_IMPORT` loads numba when imported (in a fresh
    process), and ``advisor.ranking`` does not (so the advice's imports stay quick)."""
    code = ("import importlib, sys; importlib.import_module(sys.argv[1]); "
            "print('numba' in sys.modules)")
    for module, loads in ((name, "True"), ("advisor.ranking", "False")):
        out = subprocess.run([sys.executable, "-c", code, module], capture_output=True,
                             text=True, check=True, cwd=ROOT)
        assert out.stdout.strip() == loads, module


def test_function_imports_are_found_and_named_by_module(tmp_path: Path):
    """The walk above sees an import in a method, a relative one, one nested in a block,
    and none at module level or under TYPE_CHECKING."""
    files = {
        "pkg/__init__.py": "",
        "pkg/a.py": ("import pkg.b\nfrom typing import TYPE_CHECKING\n"
                     "if TYPE_CHECKING:\n    from . import c\n"
                     "class K:\n    def m(self):\n        from .b import f\n"
                     "def g():\n    if True:\n        import pkg.c\n"),
        "pkg/b.py": "", "pkg/c.py": "",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    known = modules(tmp_path, ("pkg",))
    assert function_imports("pkg.a", tmp_path / "pkg/a.py", known) == [("m", "pkg.b"),
                                                                       ("g", "pkg.c")]


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


# ---------------------------------------------------------------- the documented layers
LAYERS_DOC = ROOT / "docs" / "layers.md"


def documented_layers(text: str) -> list[tuple[str, list[str]]]:
    """(layer, [path pattern, ...]) in order, from the table under ``## Layers`` of
    docs/layers.md: a pattern is a file (``solver/table.py``), a folder with everything
    under it (``solver/game/``) or the modules directly in a folder (``advisor/*.py``)."""
    section = text.split("## Layers", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) >= 2 and cells[1].startswith("`"):
            rows.append((cells[0], [p.strip().strip("`") for p in cells[1].split(",")]))
    return rows


def layer_of(path: str, rows: list[tuple[str, list[str]]]) -> list[int]:
    """The indices of the rows that hold the file ``path`` (relative, with ``/``): a row
    naming the file itself wins over a folder's or a ``*.py`` row."""
    named = [i for i, (_, patterns) in enumerate(rows) if path in patterns]
    if named:
        return named
    held = []
    for i, (_, patterns) in enumerate(rows):
        for pattern in patterns:
            if pattern.endswith("/") and path.startswith(pattern):
                held.append(i)
            elif pattern.endswith("/*.py") and path.rsplit("/", 1)[0] == pattern[:-5] \
                    and path.endswith(".py"):
                held.append(i)
    return sorted(set(held))


def layer_violations(root: Path, rows: list[tuple[str, list[str]]],
                     packages: Iterable[str] = PACKAGES) -> tuple[list[str], list[str]]:
    """(modules in no layer or in more than one, imports that go to a later layer), every
    import counted (module level, inside a function, under TYPE_CHECKING)."""
    known = modules(root, packages)
    place = {name: layer_of(path.relative_to(root).as_posix(), rows)
             for name, path in known.items()}
    unplaced = [f"{name}: {[rows[i][0] for i in found] or 'no layer'}"
                for name, found in sorted(place.items()) if len(found) != 1]
    upward = []
    for name, path in sorted(known.items()):
        if len(place[name]) != 1:
            continue
        for target in sorted(imported(name, path, known, type_only=True)):
            if len(place[target]) == 1 and place[target][0] > place[name][0]:
                upward.append(f"{name} ({rows[place[name][0]][0]}) imports {target} "
                              f"({rows[place[target][0]][0]})")
    return unplaced, upward


def test_every_module_sits_in_one_documented_layer_and_imports_none_above_it():
    rows = documented_layers(LAYERS_DOC.read_text(encoding="utf-8"))
    assert [name for name, _ in rows][:3] == ["errors", "game", "kernels"]
    assert [name for name, _ in rows][-2:] == ["front ends", "faces"]
    unplaced, upward = layer_violations(ROOT, rows)
    assert unplaced == []
    assert upward == []


def test_the_layer_check_finds_a_module_out_of_place_and_an_import_that_goes_up(tmp_path):
    """The check above can fail: a module no row holds, one two rows hold, and imports
    from a lower layer to a higher one, at the top, inside a function and for typing."""
    doc = ("# x\n## Layers\n\n| layer | folder or module | what |\n|---|---|---|\n"
           "| low | `pkg/low/`, `pkg/base.py` | a |\n| high | `pkg/*.py` | b |\n"
           "| twice | `pkg/low/` | c |\n\n## Other\n| q | `pkg/stray.py` | d |\n")
    rows = documented_layers(doc)
    assert [name for name, _ in rows] == ["low", "high", "twice"]
    files = {
        "pkg/__init__.py": "", "pkg/base.py": "from .top import X\n",
        "pkg/top.py": "from .base import Y\n", "pkg/other.py": "",
        "pkg/low/__init__.py": "", "pkg/low/a.py": "def f():\n    from ..top import X\n",
        "pkg/low/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                        "    from ..other import Z\n",
        "pkg/deep/c.py": "",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    unplaced, upward = layer_violations(tmp_path, rows, ("pkg",))
    assert unplaced == ["pkg.deep.c: no layer", "pkg.low: ['low', 'twice']",
                        "pkg.low.a: ['low', 'twice']", "pkg.low.b: ['low', 'twice']"]
    assert upward == ["pkg.base (low) imports pkg.top (high)"]
    rows = rows[:2]
    unplaced, upward = layer_violations(tmp_path, rows, ("pkg",))
    assert unplaced == ["pkg.deep.c: no layer"]
    assert upward == ["pkg.base (low) imports pkg.top (high)",
                      "pkg.low.a (low) imports pkg.top (high)",
                      "pkg.low.b (low) imports pkg.other (high)"]
