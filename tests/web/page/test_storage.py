"""What the page keeps in the browser: with the storage full the game goes on without
saving, and the page says so once; undo steps saved in the browser are checked on load
(a step that is not a game state is dropped) and by the record checks when undone to (a
step they refuse stops the undo, said so), never shown as a game."""

from __future__ import annotations

import json

from advisor.record import parse_record
from tests.web.page.test_browser import STORE, Table, start_game

FULL = """() => {
  window.writes = 0;
  Storage.prototype.setItem = function () {
    window.writes += 1;
    throw new DOMException("the quota has been exceeded", "QuotaExceededError");
  };
}"""


def test_a_full_storage_plays_on_without_saving_and_says_so_once(server, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    table = Table(page, server.url)
    start_game(table, names=("Ann",))
    saved = page.evaluate(f"() => localStorage.getItem('{STORE}')")
    page.evaluate(FULL)
    table.tap_dice([2, 2, 2, 5, 6])
    assert table.phase == "choose" and table.options()[0] == "Keep 2 2 2"
    table.choose(0)
    table.tap_dice([2, 3])
    table.choose(0)
    assert page.evaluate("() => window.writes") >= 2  # every step tried to save
    notes = page.locator("#storage-note")
    assert notes.count() == 1 and notes.inner_text().startswith(
        "This browser's storage is full (or turned off): the page goes on")
    assert page.evaluate(f"() => localStorage.getItem('{STORE}')") == saved  # nothing kept
    assert table.errors == []
    page.close()


def state_of(text: str) -> dict:
    """The page's saved state of a record (as gameFromRecord makes it)."""
    record = parse_record(text)
    turns = [{"player": t.player, "rolls": [str(r) for r in t.rolls],
              "keeps": [str(k) for k in t.keeps], "box": t.box} for t in record.turns]
    return {"rules": "official", "players": list(record.players), "turns": turns,
            "cards": {p: str(c) for p, c in record.cards().items()},
            "current": {"rolls": [], "keeps": []}, "objective": {"kind": "ev"},
            "objectiveLine": "", "note": None}


def test_saved_undo_steps_are_checked_on_load_and_when_undone_to(server, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    table = Table(page, server.url)
    start_game(table, names=("Ann",))
    first = state_of("players Ann\nAnn: 22256 twos\n")
    second = state_of("players Ann\nAnn: 22256 twos\nAnn: 12345 ls\n")
    now = state_of("players Ann\nAnn: 22256 twos\nAnn: 12345 ls\nAnn: 66666 yahtzee\n")
    edited = json.loads(json.dumps(first))  # twos twice: the record checks refuse it
    edited["turns"].append({"player": "Ann", "rolls": ["22256"], "keeps": [], "box": "twos"})
    edited["cards"]["Ann"] = "twos=6"
    steps = [json.dumps(edited), "{not json", json.dumps({"rules": 5}),
             json.dumps({**second, "turns": [{"player": "Ann", "rolls": ["7"], "keeps": [],
                                              "box": "twos"}]}),
             json.dumps(second), 17]
    page.evaluate("([key, saved]) => localStorage.setItem(key, saved)",
                  [STORE, json.dumps({"state": now, "undo": steps})])
    page.reload()
    table.settle()
    assert table.state()["cards"] == {"Ann": "twos=6,large_straight=40,yahtzee=50"}
    saved_undo = json.loads(page.evaluate(f"() => localStorage.getItem('{STORE}')"))["undo"]
    assert saved_undo in ([], steps)  # (not written until the next step)
    table.undo()  # to the second state
    assert table.state()["cards"] == {"Ann": "twos=6,large_straight=40"}
    assert json.loads(page.evaluate(f"() => localStorage.getItem('{STORE}')"))["undo"] == [
        json.dumps(edited)]  # the malformed steps were dropped on load
    assert page.is_hidden("#page-error")
    table.undo()  # to the edited step: refused, the game stays, the undo stops
    assert table.state()["cards"] == {"Ann": "twos=6,large_straight=40"}
    assert page.is_visible("#page-error") and "refused by the record checks" in \
        page.inner_text("#page-error")
    assert page.is_disabled("#undo")
    assert [e for e in table.errors if "Failed to load resource" not in e] == []
    page.close()
