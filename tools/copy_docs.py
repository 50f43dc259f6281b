"""Copy the user documentation (the pages listed in docs/README.md) into the package, so
that ``yahtzee help TOPIC`` of an installed copy prints them: docs/ is the source,
advisor/help/ the copy (``tests/test_help.py`` checks that they are equal).

Run after editing docs/:  .venv/bin/python tools/copy_docs.py
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
HELP = ROOT / "advisor" / "help"
INDEX = "README.md"
_PAGE = re.compile(r"^\| \[[^\]]+\]\(([a-z_]+\.md)\) \|", re.MULTILINE)


def user_pages() -> list[str]:
    """The index and every page its table lists, file names in index order."""
    return [INDEX, *_PAGE.findall((DOCS / INDEX).read_text(encoding="utf-8"))]


def main() -> int:
    pages = user_pages()
    HELP.mkdir(exist_ok=True)
    for name in pages:
        (HELP / name).write_bytes((DOCS / name).read_bytes())
    for stale in sorted(set(p.name for p in HELP.glob("*.md")) - set(pages)):
        (HELP / stale).unlink()
        print(f"removed advisor/help/{stale}")
    print(f"copied {len(pages)} pages from docs/ to advisor/help/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
