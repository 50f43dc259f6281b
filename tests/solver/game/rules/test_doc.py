"""docs/rules.md agrees with the code: every example of a checked table is scored by the
rule set's own tables, the variants table is each RuleSet's data, and `yahtzee rules NAME`
prints the same short names and bonuses."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from advisor.cli import cli
from advisor.model import Dice, Scorecard
from solver.game.rules import RULE_NAMES, get_rules

DOC = Path(__file__).resolve().parents[4] / "docs" / "rules.md"
MARK = re.compile(r"<!-- checked: ([a-z-]+) -->")


def tables(text: str) -> list[tuple[str | None, list[dict[str, str]]]]:
    """Every markdown table of ``text``: (the rule set of a ``checked`` mark just above it,
    or None; its rows as header -> cell)."""
    found = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("|") and i + 1 < len(lines) and lines[i + 1].startswith("|---"):
            mark = MARK.fullmatch(lines[i - 1].strip()) if i else None
            header = [c.strip() for c in lines[i].strip("|").split("|")]
            rows = []
            i += 2
            while i < len(lines) and lines[i].startswith("|"):
                cells = [c.strip() for c in lines[i].strip("|").split("|")]
                rows.append(dict(zip(header, cells, strict=True)))
                i += 1
            found.append((mark.group(1) if mark else None, rows))
        else:
            i += 1
    return found


TABLES = tables(DOC.read_text(encoding="utf-8"))
CHECKED = [(rules, rows) for rules, rows in TABLES if rules is not None]


def test_every_rule_set_has_checked_tables():
    assert {rules for rules, _ in CHECKED} == {"official", "free-joker", "no-bonus", "yatzy"}
    assert len(MARK.findall(DOC.read_text(encoding="utf-8"))) == len(CHECKED)


@pytest.mark.parametrize(("rules", "rows"), [c for c in CHECKED if "examples" in c[1][0]])
def test_box_examples_are_the_scorers(rules, rows):
    ruleset = get_rules(rules)
    boxes = []
    for row in rows:
        box = row["box"].strip("`")
        index = ruleset.box_index(box)
        assert ruleset.boxes[index].name == box
        for short in row["short"].split(", "):
            assert ruleset.box_index(short) == index, (box, short)
        for example in row["examples"].split("; "):
            dice, points = example.split(" → ")
            assert ruleset.score_all(Dice(dice).faces)[box] == int(points), (box, example)
        boxes.append(index)
    assert boxes == sorted(boxes)  # in card order


def test_the_card_tables_list_every_box():
    listed = [row["box"].strip("`") for rules, rows in CHECKED if rules == "official"
              and "examples" in rows[0] for row in rows]
    assert listed == [b.name for b in get_rules("official").boxes]
    yatzy = [row["box"].strip("`") for rules, rows in CHECKED if rules == "yatzy"
             and "examples" in rows[0] for row in rows]
    assert yatzy == [b.name for b in get_rules("yatzy").boxes if not b.is_upper]


@pytest.mark.parametrize(("rules", "rows"), [c for c in CHECKED if "card" in c[1][0]])
def test_the_boxes_five_alike_may_fill_are_the_rules(rules, rows):
    for row in rows:
        card = Scorecard.parse(row["card"].strip("`"), rules)
        dice = Dice(row["dice"])
        allowed = card.rules.placements(dice.faces, card.mask, card.yahtzee_holds_50)
        listed = [item.rsplit(" ", 1) for item in row["may fill (points)"].split(", ")]
        assert [(card.rules.boxes[p.box].name, p.points) for p in allowed] == [
            (name, int(points)) for name, points in listed], row["card"]
        assert {p.yahtzee_bonus for p in allowed} == {int(row["bonus"])}, row["card"]


def variants() -> list[dict[str, str]]:
    return next(rows for rules, rows in TABLES if rows and "Joker" in rows[0])


def test_the_variants_table_is_each_rule_sets_data():
    rows = {row["rules"].strip("`"): row for row in variants()}
    assert list(rows) == list(RULE_NAMES)
    for name, row in rows.items():
        rules = get_rules(name)
        assert (int(row["rolls per turn"]), int(row["boxes"]), int(row["upper bonus"])) == (
            rules.rolls_per_turn, rules.n_boxes, rules.upper_bonus)
        assert row["Yahtzee bonus"] == (str(rules.yahtzee_bonus) if rules.yahtzee_bonus
                                        else "none")
        assert row["Joker"] == rules.joker


@pytest.mark.parametrize("name", RULE_NAMES)
def test_yahtzee_rules_prints_what_the_page_says(name):
    text = CliRunner().invoke(cli, ["rules", name]).stdout
    row = next(r for r in variants() if r["rules"].strip("`") == name)
    assert f"Upper bonus: {row['upper bonus']} when" in text
    assert (f"Yahtzee bonus: {row['Yahtzee bonus']} for each" in text) == \
        (row["Yahtzee bonus"] != "none")
    assert ("No Joker" in text) == (row["Joker"] == "none")
    assert f"up to {int(row['rolls per turn']) - 1} more time" in text
    documented = {row["box"].strip("`"): row["short"].split(", ")[0]
                  for rules, rows in CHECKED if rules in (name, "official")
                  and "examples" in rows[0] for row in rows}
    boxes = get_rules(name).boxes
    assert set(documented) >= {box.name for box in boxes} - {"ones"}  # Yatzy's: in words
    for box in boxes:
        line = next(line for line in text.splitlines() if line.split()[:1] == [box.name])
        assert line.split()[1] == documented.get(box.name, "1s"), box.name
