"""The user documentation shipped with the package (``yahtzee help TOPIC``).

The pages are the repository's ``docs/`` folder: ``advisor/help`` is a symbolic link to
it, so there is one copy in the repository, and building the package copies the pages in
as package data (a ``pip install`` carries them). A topic is a page's name without
``.md``; the index (``README.md``) says which pages there are. Printed pages name other topics as
``yahtzee help TOPIC`` instead of linking files.
"""

from __future__ import annotations

import difflib
import re
from importlib import resources

from solver.errors import YahtzeeError, shown

INDEX = "README.md"
_ROW = re.compile(r"^\| \[[^\]]+\]\(([a-z_]+)\.md\) \| (.*) \|$", re.MULTILINE)
_LINK = re.compile(r"\[([^\]]*)\]\(([a-z_]+)\.md(#[^)]*)?\)")


class UnknownTopicError(YahtzeeError):
    """A help topic that is not one of the shipped pages."""


def _read(name: str) -> str:
    return (resources.files("advisor") / "help" / name).read_text(encoding="utf-8")


def topics() -> dict[str, str]:
    """Topic -> what its page covers, in the index's order."""
    return {name: what for name, what in _ROW.findall(_read(INDEX))}


def page(topic: str) -> str:
    """The page of ``topic`` (a topic name, any case, ``.md`` allowed) as plain text:
    links to other pages become ``name (yahtzee help name)``."""
    known = topics()
    key = topic.strip().lower().removesuffix(".md")
    if key not in known:
        close = difflib.get_close_matches(key, list(known), n=1, cutoff=0.6)
        hint = f"did you mean {close[0]}? " if close else ""
        raise UnknownTopicError(f"no help topic {shown(topic, 40)}; {hint}topics: "
                                f"{', '.join(known)}")
    return _LINK.sub(_plain_link, _read(f"{key}.md"))


def _plain_link(link: re.Match[str]) -> str:
    """``[boxes.md](boxes.md)`` -> ```yahtzee help boxes```; other text is kept before."""
    text, topic = link.group(1).removesuffix(".md"), link.group(2)
    command = f"`yahtzee help {topic}`"
    return command if text == topic else f"{text} ({command})"


def listing() -> str:
    """The topics, one line each, and how to print one."""
    known = topics()
    width = max(len(name) for name in known)
    lines = ["Documentation topics (yahtzee help TOPIC prints one):", ""]
    lines += [f"  {name:<{width}}  {_LINK.sub(lambda m: m.group(1), what)}"
              for name, what in known.items()]
    lines += ["", "The rules: yahtzee rules [NAME]. A command's options: yahtzee COMMAND --help."]
    return "\n".join(lines)
