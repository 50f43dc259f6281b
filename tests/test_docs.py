"""The documentation stands alone and says what the code does: the JSON keys of every
command (docs/json.md) are the keys printed, the table file (docs/files.md) reads as
described, and every link of docs/ and the README leads to a file of the repository."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from advisor.cli import cli

ROOT = Path(__file__).resolve().parents[1]
LATE = "aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=0,fh=25,ls=40"
RECORD = "rules official\nplayers Ann\nAnn: 22256 222 22234 twos\nAnn: 12345 chance\n"


def run_json(*args: str) -> dict:
    result = CliRunner().invoke(cli, [*args, "--json"])
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def documented_keys(cell: str) -> set[str]:
    """The JSON keys named in a cell of json.md: backticked words that are not options."""
    return {word for word in re.findall(r"`([^`]+)`", cell)
            if re.fullmatch(r"[a-z_]+", word)}


def command_rows() -> dict[str, str]:
    text = (ROOT / "docs" / "json.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([a-zA-Z -]+?)(?: --json)?` \| (.+) \|$", text, re.M)
    return dict(rows)


@pytest.fixture(scope="module")
def printed(tmp_path_factory, official_table, official_moments) -> dict[str, list[dict]]:
    """Each documented command's JSON objects, over the invocations that show every key."""
    folder = tmp_path_factory.mktemp("docs")
    record = folder / "game.txt"
    record.write_text(RECORD)
    game = folder / "next.txt"
    game.write_text(RECORD)
    trained = CliRunner().invoke(cli, ["train", "--seed", "3", "--positions", "2", "--json",
                                       "--history", str(folder / "h.jsonl")], input="1\n2\n")
    assert trained.exit_code == 0, trained.output
    return {
        "advise": [run_json("advise", "22256"), run_json("advise", "22256", "--why"),
                   run_json("advise", "--game", str(game), "22256", "--append", "1")],
        "train": [json.loads(trained.stdout)],
        "analyze": [run_json("analyze", str(record))],
        "solve": [run_json("solve", "--rules", "two-rolls", "--out", str(folder / "t.ytable"))],
        "site": [run_json("site", "--out", str(folder / "site"))],
        "stats": [run_json("stats"), run_json("stats", "--card", LATE)],
        "stats --target X": [run_json("stats", "--card", LATE, "--target", "230")],
        "stats --tournament N": [run_json("stats", "--card", LATE, "--tournament", "3")],
        "simulate": [run_json("simulate", "--games", "20"),
                     run_json("simulate", "--games", "20", "--strategy", "target:5")],
        "simulate --compare": [run_json("simulate", "--games", "20", "--compare",
                                        "optimal,greedy")],
        "strategy": [run_json("strategy", "--card", LATE, "--rolls-left", "0")],
    }


def test_every_command_with_json_is_documented(printed):
    assert set(command_rows()) == set(printed)


@pytest.mark.parametrize("command", ["advise", "analyze", "site", "solve", "stats",
                                     "stats --target X", "stats --tournament N",
                                     "simulate", "simulate --compare", "strategy", "train"])
def test_the_documented_keys_are_the_printed_keys(printed, command):
    cell = command_rows()[command]
    base = cell.split("; with")[0].split(", and with")[0]
    keys = [set(obj) for obj in printed[command]]
    assert set(keys[0]) - {"card"} <= documented_keys(base) <= keys[0], command
    assert set().union(*keys) == documented_keys(cell), command


def test_the_shared_pieces_are_the_printed_ones(printed):
    text = (ROOT / "docs" / "json.md").read_text(encoding="utf-8")
    card = json.loads(re.search(r"\*\*card\*\*[^`]*`(\{.+?\})`", text, re.S).group(1)
                      .replace("\n", " "))
    advice = printed["advise"][0]
    assert set(card) == set(advice["card"])
    keep, score = re.findall(r"`(\{\"action\".+?\})`", text, re.S)[:2]
    options = {o["action"]: o for o in run_json("advise", "22256", "--top", "0")["options"]}
    for example in (keep, score):
        shown = json.loads(example.replace("\n", " "))
        assert list(shown) == list(options[shown["action"]]), shown["action"]


def test_the_table_file_reads_as_documented(official_table, tables_dir):
    from solver.formats import tablefile

    text = (ROOT / "docs" / "files.md").read_text(encoding="utf-8")
    section = text.split("## The table file")[1].split("\n## ")[0]
    fields = re.findall(r"^\| `([a-z0-9]+)` \|", section, re.M)
    assert fields == list(tablefile._HEADER_FIELDS)
    code = re.search(r"```python\n(.+?)```", section, re.S).group(1)
    path = Path(tables_dir) / "official.ytable"
    scope: dict = {}
    exec(code.replace("tables/official.ytable", str(path)), scope)  # noqa: S102
    assert scope["header"]["shape"] == [8192, 64, 2]
    assert (scope["E"] == official_table.values)[~scope["np"].isnan(scope["E"])].all()
    for name in ("no-bonus", "yatzy", "two-rolls"):
        from solver.game.rules import get_rules

        shape = list(get_rules(name).table_shape)
        assert f"`{shape}`".replace(" ", "") in section.replace(" ", ""), name


def markdown_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("page", markdown_files(), ids=lambda p: p.name)
def test_every_link_leads_to_a_file_of_the_repository(page):
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8")):
        if target.startswith(("http://", "https://")):
            continue
        assert (page.parent / target).resolve().is_file(), (page.name, target)


def test_nothing_refers_to_files_outside_the_repository():
    """A clone is all a user has: no file names the maintainers' reference notes."""
    names = ["INTERFACE" + ".md", "RULES" + ".md", "../" + "shared"]
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split()
    found = []
    for name in tracked:
        path = ROOT / name
        if path.suffix in (".py", ".md", ".js", ".html", ".css", ".toml", ".txt", "") and \
                path.is_file():
            text = path.read_text(encoding="utf-8", errors="replace")
            found += [(name, n) for n in names if n in text]
    assert found == []


def test_the_outcome_is_the_printed_one(printed):
    text = (ROOT / "docs" / "json.md").read_text(encoding="utf-8")
    section = text.split("### `advise --why`")[1].split("\n### ")[0]
    shown = re.search(r'`"outcome": (\{.+?\})`', section, re.S).group(1)
    keys = re.findall(r'"([a-z_0-9]+)":', shown)
    outcome = printed["advise"][1]["options"][0]["outcome"]
    assert keys == ["boxes", "zeros", "upper_bonus", "yahtzee_50", "yahtzee_bonuses", "sd"]
    assert list(outcome) == keys


def test_every_simulate_example_of_the_readme_says_how_long_it_takes():
    """A new user types the README's `yahtzee simulate` lines as they are: each says its
    time beside it (`# about 10 s`), and plays few enough games to answer in seconds
    (100000 games of four strategies ran 4 min 38 s, with nothing saying so)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    examples = [line for line in readme.splitlines() if line.startswith("yahtzee simulate")]
    assert examples
    for line in examples:
        assert re.search(r"#.*\babout \d+ s\b", line), line
        games = re.search(r"--games (\d+)", line)
        assert games and int(games.group(1)) <= 10_000, line
