"""``yahtzee help TOPIC``: the documentation shipped in the package is docs/ (one
copy in the repository), every page of the index is a topic, and links name other topics."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from advisor import docs
from advisor.cli import cli

ROOT = Path(__file__).resolve().parents[3]


def test_the_shipped_pages_are_docs_itself_one_copy():
    """advisor/help is a link to docs/, not a copy (the wheel's copy: test_install)."""
    help_folder = ROOT / "advisor" / "help"
    assert help_folder.is_symlink() and help_folder.resolve() == (ROOT / "docs").resolve()
    listed = ["README.md", *(f"{name}.md" for name in docs.topics())]
    for name in listed:
        assert (ROOT / "docs" / name).is_file(), f"the index lists {name}"


def test_the_pages_a_user_needs_are_topics():
    topics = docs.topics()
    for needed in ("notation", "boxes", "records", "analyze", "json", "objectives", "web",
                   "files", "export"):
        assert needed in topics
    user_pages = {p.stem for p in (ROOT / "docs").glob("*.md")} - {"README", "testing"}
    assert set(topics) == user_pages


def test_help_lists_and_prints_topics():
    runner = CliRunner()
    listing = runner.invoke(cli, ["help"])
    assert listing.exit_code == 0
    assert "  records     game records" in listing.output
    page = runner.invoke(cli, ["help", "Records.md"])
    assert page.exit_code == 0
    assert page.output.startswith("# Game records\n")
    assert "(`yahtzee help boxes`)" in page.output
    assert "](" not in page.output.replace("](http", "")


def test_no_printed_page_links_a_file():
    for topic in docs.topics():
        text = docs.page(topic)
        assert not re.search(r"\]\([a-z_]+\.md", text), topic


def test_an_unknown_topic_is_refused_with_the_closest():
    result = CliRunner().invoke(cli, ["help", "recrods"])
    assert result.exit_code == 2
    assert result.output == ("Error: no help topic 'recrods'; did you mean records? topics: "
                             f"{', '.join(docs.topics())}\n")
