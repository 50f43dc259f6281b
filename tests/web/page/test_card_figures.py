"""Every figure of the scorecard the page draws (headless Chromium), for every rule set:
games of three players at different stages are opened from a record, and each cell of
the card (each box, the upper subtotal, what the upper bonus still needs or pays, the
Yahtzee bonus, the total) is checked against sums written here from the rule book, not
against the server's own summary."""

from __future__ import annotations

import random

import pytest

from advisor.model import Dice, Scorecard
from solver.game.rules import RULE_NAMES, UPPER_TARGET, get_rules
from tests.web.page.test_browser import Table

PLAYERS = ("Ann", "Bob", "Cy")


def random_record(rules_name: str, seed: int, rounds: int) -> tuple[str, dict[str, Scorecard]]:
    """A record of ``rounds`` whole rounds and one more turn of the first player (text),
    and the cards it leaves. A roll has five, four, three or no dice forced alike (Yahtzee
    bonuses, Jokers); an upper box that gets three of its face or more is mostly taken
    (upper bonuses), else the highest scoring box or any allowed one."""
    rules = get_rules(rules_name)
    rng = random.Random(seed)
    cards = {name: Scorecard.new(rules_name) for name in PLAYERS}
    lines = [f"rules {rules_name}", f"players {','.join(PLAYERS)}"]
    order = [name for _ in range(rounds) for name in PLAYERS] + [PLAYERS[0]]
    for name in order:
        card = cards[name]
        face = rng.randint(1, 6)
        alike = rng.choice((5, 4, 3, 0))
        faces = sorted([face] * alike + [rng.randint(1, 6) for _ in range(5 - alike)])
        options = rules.placements(tuple(faces), card.mask, card.yahtzee_holds_50)
        at_par = [p for p in options if rules.boxes[p.box].is_upper
                  and p.points >= 3 * rules.boxes[p.box].face]
        if at_par and rng.random() < 0.8:
            chosen = max(at_par, key=lambda p: (p.points, p.box))
        elif rng.random() < 0.5:
            chosen = max(options, key=lambda p: (p.points, p.box))
        else:
            chosen = rng.choice(options)
        box = rules.boxes[chosen.box].name
        cards[name] = card.place(Dice.parse("".join(map(str, faces))), box)
        lines.append(f"{name}: {''.join(map(str, faces))} {box}")
    return "\n".join(lines) + "\n", cards


def expected_rows(rules_name: str, cards: dict[str, Scorecard]) -> dict[str, list[str]]:
    """Row label -> the cell of each player, from the entries and the rule book's sums."""
    rules = get_rules(rules_name)
    rows: dict[str, list[str]] = {}
    upper = [b for b, box in enumerate(rules.boxes) if box.is_upper]
    for b, box in enumerate(rules.boxes):
        rows[box.name] = ["" if card.entries[b] is None else str(card.entries[b])
                          for card in cards.values()]
    rows["Upper subtotal"], rows[f"Bonus ({rules.upper_bonus})"] = [], []
    rows["Total"] = []
    if rules.yahtzee_bonus:
        rows["Yahtzee bonus"] = []
    for card in cards.values():
        subtotal = sum(card.entries[b] or 0 for b in upper)
        earned = rules.upper_bonus if subtotal >= UPPER_TARGET else 0
        still_open = any(card.entries[b] is None for b in upper)
        rows["Upper subtotal"].append(f"{subtotal} / {UPPER_TARGET}")
        rows[f"Bonus ({rules.upper_bonus})"].append(
            str(earned) if earned else f"needs {UPPER_TARGET - subtotal}" if still_open
            else "0")
        yahtzee_points = rules.yahtzee_bonus * card.yahtzee_bonuses
        if rules.yahtzee_bonus:
            rows["Yahtzee bonus"].append(str(yahtzee_points))
        rows["Total"].append(str(sum(e or 0 for e in card.entries) + earned + yahtzee_points))
    return rows


def shown_rows(table: Table, rules_name: str) -> dict[str, list[str]]:
    """Row label -> the cells of the card on the page (box rows by box name, in order)."""
    rules = get_rules(rules_name)
    rows = table.page.locator("#card tbody tr")
    shown: dict[str, list[str]] = {}
    boxes = iter(rules.boxes)
    for i in range(rows.count()):
        row = rows.nth(i)
        label = row.locator("th").inner_text()
        cells = [c.strip() for c in row.locator("td").all_inner_texts()]
        summary = row.get_attribute("class") in ("sub", "sum")
        shown[label if summary else next(boxes).name] = cells
    return shown


@pytest.mark.parametrize("rules_name", RULE_NAMES)
def test_every_figure_of_the_card_on_the_page_is_the_rule_books(server, browser, table_of,
                                                                rules_name, tmp_path):
    table_of(rules_name)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    table = Table(page, server.url)
    n_boxes = get_rules(rules_name).n_boxes
    seen_needs = seen_earned = seen_bonus = False
    for seed, rounds in ((1, 3), (2, n_boxes // 2), (3, n_boxes - 2), (4, n_boxes - 1)):
        text, cards = random_record(rules_name, seed * 100 + len(rules_name), rounds)
        path = tmp_path / f"game-{seed}.txt"
        path.write_text(text)
        page.set_input_files("#upload-file", str(path))
        table.settle()
        assert table.state()["cards"] == {name: str(card) for name, card in cards.items()}
        want = expected_rows(rules_name, cards)
        assert shown_rows(table, rules_name) == want, text
        bonus_cells = want[f"Bonus ({get_rules(rules_name).upper_bonus})"]
        seen_needs |= any(c.startswith("needs") for c in bonus_cells)
        seen_earned |= any(not c.startswith("needs") and c != "0" for c in bonus_cells)
        seen_bonus |= any(c not in ("", "0") for c in want.get("Yahtzee bonus", []))
    # the games reach the cases that matter: a bonus still needed, a bonus earned, and a
    # Yahtzee bonus where the rules pay one
    assert seen_needs and seen_earned
    assert seen_bonus or not get_rules(rules_name).yahtzee_bonus
    assert table.errors == []
    page.close()
