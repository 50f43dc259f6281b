"""Playing to beat the others on the page never blocks (headless Chromium): the choices
by expected score are on screen at once, the chance to win comes later from the server's
background solve (the page says what it waits for and how far it is), and meanwhile the
player enters dice, undoes and plays."""

from __future__ import annotations

import re
import time

import pytest

from solver.game.dice import ROLL_PROBABILITY, ROLLS
from tests.web.page.test_browser import PHONE, Table


def start_win_game(table: Table, names: tuple[str, ...], win_from: int | None = None) -> None:
    """A new game played to win (``win_from``: from N open boxes on; None: the page's
    default, from the first turn)."""
    page = table.page
    page.evaluate("() => localStorage.clear()")
    page.reload()
    table.settle()
    for _ in names[1:]:
        page.click("#add-player")
    for i, name in enumerate(names, start=1):
        page.fill(f"#player-names li:nth-child({i}) input", name)
    page.select_option("#objective-select", "win")
    assert page.is_visible("#win-from-field")
    if win_from is not None:
        page.select_option("#win-from-when", "late")
        page.fill("#win-from-input", str(win_from))
    page.click("#start")
    table.settle()
    assert table.phase == "roll"


def roll(table: Table, faces) -> None:
    """Tap ``faces`` and wait for the choices on screen. That they come before the
    turn's solve is done (the page never blocks on it) is checked by what the page shows
    then (ranked by expected score, the chase still waiting), not by a clock."""
    table.tap_dice(faces)
    table.page.wait_for_selector("#options button", state="visible")


def chances(table: Table) -> list[str]:
    return table.page.locator("#options button .chance").all_inner_texts()


@pytest.mark.slow
def test_playing_to_win_from_turn_one_never_blocks(server, browser, screenshots):
    """On a phone (390 px), a two-player game played to win from the first turn (the
    page's default): the choices at once, the chance to win later, play meanwhile."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    table = Table(page, server.url)
    start_win_game(table, ("Ann", "Bob"))
    assert page.input_value("#win-from-when") == "first"  # from the first turn
    # turn 1: the choices at once, by expected score, while the chance to win is worked out
    roll(table, [2, 2, 2, 5, 6])
    assert page.inner_text("#advice-title") == "Your choices, by expected final score"
    assert set(chances(table)) == {""}
    status = page.inner_text("#chase-status")
    assert status.startswith("Working out Ann's chance to win from this card (")
    # (the server answers the turn's job once it knows the solve is slow: a cold server's
    # quick lane may take seconds to say so; the choices do not wait for it)
    page.wait_for_selector("body[data-chase='waiting']", state="attached")
    assert page.is_visible("#chase-bar") and page.is_visible("#chase-stop")
    page.screenshot(path=str(screenshots / "web-390-win-waiting.png"), full_page=True)
    # meanwhile: undo the roll, enter other dice, keep some, enter the reroll
    table.undo()
    assert table.phase == "roll"
    roll(table, [1, 3, 4, 5, 6])
    assert table.options()[0] and page.get_attribute("body", "data-chase") == "waiting"
    first = table.choose(0)
    assert first.startswith(("Keep", "Reroll"))
    kept = table.kept()
    roll(table, [6] * (5 - kept))
    assert page.get_attribute("body", "data-chase") == "waiting"  # all while it works
    page.screenshot(path=str(screenshots / "web-390-win-played-meanwhile.png"), full_page=True)
    # how far it is, as it goes: the share of the work done, and the time so far
    deadline = time.monotonic() + 1800
    seen = set()
    while page.get_attribute("body", "data-chase") == "waiting":
        assert time.monotonic() < deadline, page.inner_text("#chase-status")
        seen.add(page.inner_text("#chase-status"))
        time.sleep(1)
    assert page.get_attribute("body", "data-chase") == "ready", page.inner_text("#chase-status")
    assert any(" % worked out, " in s and " s so far" in s for s in seen), seen
    # and, once the server estimates it (its job's seconds_left), the time left
    assert any(re.search(r" s so far, about \d+ (s|min) left\)", s) for s in seen), seen
    # now ranked by the chance to win: the roll showing, exactly as the server advises it
    page.wait_for_selector("#advice.with-chance")
    assert page.inner_text("#advice-title") == ("Your choices, best chance to win first (a tie "
                                                "counts as half)")
    state = table.state()
    rolls = state["current"]["rolls"]
    bob = state["cards"]["Bob"]
    status, advice = server.get("/api/advise", {"card": "", "dice": rolls[-1], "top": "0",
                                                "rolls_left": 3 - len(rolls), "opponent": bob})
    assert status == 200
    key = "win_share"
    want = [f"{100 * o[key]:.{2 if o[key] > 0.999 or o[key] < 0.001 else 1}f}%"
            for o in advice["options"]]
    assert chances(table) == want[:len(chances(table))]
    assert page.inner_text("#chase-status").startswith("Ranked by the chance to win")
    page.screenshot(path=str(screenshots / "web-390-win-ready.png"), full_page=True)
    # the Chances panel: Ann's chance to win before her first roll, which is the mean over
    # the 252 first rolls of the best option's chance at each (the server's advice of each)
    page.click("#charts-box summary")
    page.wait_for_selector("#win-figure", state="visible")
    before = 0.0
    for faces, p in zip(ROLLS.tolist(), ROLL_PROBABILITY.tolist(), strict=True):
        status, first = server.get("/api/advise", {"card": "", "opponent": bob, "top": "1",
                                                   "dice": "".join(map(str, faces)),
                                                   "rolls_left": "2"})
        assert status == 200
        before += p * first["options"][0][key]
    caption = page.inner_text("#win-caption")
    assert caption.startswith(f"Ann's chance to win (a tie counts as half) from the start of "
                              f"this turn: {100 * before:.1f}%."), caption
    assert page.locator("#win-chart svg circle").count() == 1  # Ann, turn 1
    assert table.state()["chances"]["0"]["player"] == "Ann"
    assert abs(table.state()["chances"]["0"]["chance"] - before) < 1e-12
    page.locator("#charts-box").screenshot(path=str(screenshots / "web-390-win-chances.png"))
    assert table.errors == []
    context.close()


def test_before_win_from_the_page_says_why_and_waits_for_nothing(server, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    table = Table(page, server.url)
    start_win_game(table, ("Ann", "Bob"), 8)
    roll(table, [2, 2, 2, 5, 6])
    assert page.get_attribute("body", "data-chase") == "off"
    assert page.inner_text("#chase-status").startswith(
        "Ranked by expected score: the chance to win is worked out from 8 open boxes on")
    assert not page.is_visible("#chase-stop")
    assert table.errors == []
    page.close()


def test_a_turn_not_waited_for_is_ranked_by_expected_score(server, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    table = Table(page, server.url)
    # three players: a question no other test asks (the server keeps finished solves)
    start_win_game(table, ("Ann", "Bob", "Cy"), 13)
    roll(table, [2, 2, 2, 5, 6])
    page.wait_for_selector("body[data-chase='waiting']", state="attached")
    page.click("#chase-stop")
    page.wait_for_selector("body[data-chase='stopped']", state="attached")
    assert page.inner_text("#chase-status") == ("This turn is ranked by expected score (you "
                                                "chose not to wait for the chance to win).")
    assert page.inner_text("#advice-title") == "Your choices, by expected final score"
    assert table.errors == []
    page.close()
