"""The page's JavaScript modules (advisor/web/static/*.js): each one concept of at most
500 lines, no import circle among them (an import graph read from their import and
export-from lines, dynamic imports included), and at most 5 tests of an objective's kind
in all of them (objective.js answers for each objective; issue 43).

``python -m tests.web.page.test_static_modules`` prints the count of each module."""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[3] / "advisor" / "web" / "static"
IMPORT = re.compile(r"""(?:^|\n)\s*(?:import|export)\b[^;]*?from\s*["']\./([\w.]+)["']"""
                    r"""|import\(\s*["']\./([\w.]+)["']\s*\)""")
MAX_LINES = 500
MAX_KIND_TESTS = 5
"""At most this many comparisons of an objective's kind in all the page's scripts."""
_KIND = r"""["'](?:ev|target|win|tournament)["']"""
_CMP = r"(?<![=!])(?:===|!==|==|!=)(?!=)"
KIND_TEST = re.compile("|".join((
    rf"{_CMP}\s*{_KIND}",                        # x.kind === "win", value !== "target"
    rf"{_KIND}\s*{_CMP}",                        # "ev" === kind
    rf"\bcase\s+{_KIND}\s*:",                    # switch (kind) { case "target": ...
    rf"\bkind\s*{_CMP}\s*(?=[^\s\"'])",          # a.kind === b.kind, kind !== other
    rf"{_CMP}\s*[\w$.]*\bkind\b",                 # other === a.kind
    rf"\[[^\]]*{_KIND}[^\]]*\]\s*\.includes\(",  # ["ev", "target"].includes(kind)
)))
"""A comparison of an objective's kind: with one of its names, or of a ``kind`` with
anything but a string (a record's, a site's ``kind`` compared with another name is none)."""


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


def kind_tests(folder: Path = STATIC) -> dict[str, int]:
    """Each script's number of comparisons of an objective's kind (:data:`KIND_TEST`)."""
    return {path.name: len(KIND_TEST.findall(path.read_text(encoding="utf-8")))
            for path in sorted(folder.glob("*.js"))}


def test_the_kind_counter_sees_each_form_of_a_kind_test(tmp_path: Path):
    """Each form counts once (a comparison of a record's or a site's own kind with another
    name, a kind's name given as a value, none)."""
    counted = ['if (objective.kind === "win") f();', "if (value !== 'target') f();",
               'const ev = "ev" == kind;', 'switch (kind) { case "tournament": break; }',
               "if (a.kind === b.kind) f();", "if (kind !== other) f();",
               "if (other === a.kind) f();", 'if (["ev", "target"].includes(kind)) f();']
    for i, line in enumerate(counted):
        (tmp_path / f"m{i}.js").write_text(line + "\n")
    (tmp_path / "none.js").write_text(
        'if (site.kind !== "yahtzee-site") f();\nconst of = (kind) => kind === "keep";\n'
        'const q = { objective: "win" }; const t = TYPES[kind];\n')
    assert kind_tests(tmp_path) == {**{f"m{i}.js": 1 for i in range(len(counted))},
                                    "none.js": 0}


def test_the_pages_scripts_ask_the_objective_instead_of_testing_its_kind():
    """At most 5 comparisons of an objective's kind in all the page's scripts (those of the
    static site are the same files): the others ask objective.js."""
    counts = kind_tests()
    assert "objective.js" in counts and "local_record.js" in counts
    assert sum(counts.values()) <= MAX_KIND_TESTS, {k: n for k, n in counts.items() if n}


if __name__ == "__main__":
    for name, n in kind_tests().items():
        if n:
            print(f"{n:3d}  {name}")
    print(f"{sum(kind_tests().values()):3d}  in all")
