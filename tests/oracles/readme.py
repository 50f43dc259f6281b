"""The figures the README and docs/figures.md (its tables of values, statistics and
speed) print, read from those pages themselves, so that a test pinning a figure fails
when the code or the page drifts from the other."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
FIGURES = ROOT / "docs" / "figures.md"
"""The README's long tables, moved beside the other documentation."""
NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


@cache
def text() -> str:
    """The README followed by docs/figures.md (a section is looked up in both)."""
    return README.read_text(encoding="utf-8") + "\n" + FIGURES.read_text(encoding="utf-8")


def section(heading: str) -> str:
    """The text of the README section whose heading starts with ``heading``."""
    parts = re.split(r"^#+ ", text(), flags=re.M)
    found = [p for p in parts if p.startswith(heading)]
    assert len(found) == 1, f"README has no single section {heading!r}"
    return found[0]


def table(heading: str) -> dict[str, list[str]]:
    """Rows of the markdown table in a section: first cell -> the other cells."""
    rows = {}
    for line in section(heading).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and not set(cells[0]) <= set("-: "):
            rows[cells[0]] = cells[1:]
    return rows


def cell(heading: str, row_start: str, column: int = 0) -> str:
    rows = [cells for name, cells in table(heading).items() if name.startswith(row_start)]
    assert len(rows) == 1, f"README table {heading!r} has no single row {row_start!r}"
    return rows[0][column]


def numbers(fragment: str) -> list[str]:
    """The numbers written in ``fragment``, as printed (``536,448``, ``86.36``)."""
    return NUMBER.findall(fragment)


def after(phrase: str, where: str | None = None) -> str:
    """The first number printed after ``phrase`` (in ``where``, default the README)."""
    body = text() if where is None else where
    assert phrase in body, f"README no longer says {phrase!r}"
    return numbers(body[body.index(phrase) + len(phrase):])[0]


def as_printed(value: float, printed: str, scale: float = 1.0) -> bool:
    """True when ``value * scale`` rounds to ``printed`` at the digits printed."""
    digits = len(printed.split(".")[1]) if "." in printed else 0
    return abs(value * scale - float(printed.replace(",", ""))) <= 0.5 * 10.0**-digits + 1e-12
