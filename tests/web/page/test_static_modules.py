"""The page's JavaScript modules (advisor/web/static/*.js): each one concept of at most
500 lines, and no import circle among them (an import graph read from their import and
export-from lines, dynamic imports included)."""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[3] / "advisor" / "web" / "static"
IMPORT = re.compile(r"""(?:^|\n)\s*(?:import|export)\b[^;]*?from\s*["']\./([\w.]+)["']"""
                    r"""|import\(\s*["']\./([\w.]+)["']\s*\)""")
MAX_LINES = 500


def static_graph(folder: Path = STATIC) -> dict[str, set[str]]:
    """Each module's name -> the modules of the folder it imports."""
    return {path.name: {a or b for a, b in IMPORT.findall(path.read_text(encoding="utf-8"))}
            for path in sorted(folder.glob("*.js"))}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every import circle found by a depth-first walk, each as the path round it."""
    found: list[list[str]] = []
    done: set[str] = set()

    def walk(node: str, path: list[str]) -> None:
        if node in path:
            found.append([*path[path.index(node):], node])
            return
        if node in done:
            return
        for nxt in sorted(graph.get(node, ())):
            walk(nxt, [*path, node])
        done.add(node)

    for node in sorted(graph):
        walk(node, [])
    return found


def test_the_graph_reader_sees_static_dynamic_and_re_exports(tmp_path: Path):
    """The reader finds a multi-line import, an export-from and an import(): a circle made
    of them is one."""
    (tmp_path / "a.js").write_text('import {\n  x,\n  y,\n} from "./b.js";\n')
    (tmp_path / "b.js").write_text('export { z } from "./c.js";\n')
    (tmp_path / "c.js").write_text('const a = await import("./a.js");\n')
    graph = static_graph(tmp_path)
    assert graph == {"a.js": {"b.js"}, "b.js": {"c.js"}, "c.js": {"a.js"}}
    assert circles(graph) == [["a.js", "b.js", "c.js", "a.js"]]


def test_no_import_circle_among_the_pages_modules():
    graph = static_graph()
    assert {"app.js", "state.js", "local.js", "local_core.js"} <= set(graph)
    assert "state.js" in graph["app.js"] and "local_core.js" in graph["local_record.js"]
    assert all(target in graph for targets in graph.values() for target in targets)
    assert circles(graph) == []


def test_each_module_of_the_page_is_at_most_500_lines():
    sizes = {path.name: len(path.read_text(encoding="utf-8").splitlines())
             for path in STATIC.glob("*.js")}
    assert {name: n for name, n in sizes.items() if n > MAX_LINES} == {}
