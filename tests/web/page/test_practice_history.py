"""The practice page's summary reads the sessions this browser kept: only those of the
session's own rule set, oldest first, the new one last (figures written into the
browser's storage by hand, not by the page)."""

from __future__ import annotations

import json

from advisor.train import positions_of_play
from tests.web.page.test_browser import phone
from tests.web.page.test_coach import answer_position, start_practice

HISTORY_STORE = "yahtzee-practice-history-v1"


def test_the_summary_lists_only_this_rule_sets_sessions(server, browser, official_table):
    # the position first: drawing it compiles the simulator, which the server then loads
    (position,) = positions_of_play(official_table, 1, 5)
    table, context = phone(browser, server.url)
    page = table.page
    kept = [{"date": "2026-11-01T10:00:00Z", "rules": "yatzy", "seed": 1, "decisions": 4,
             "mean_loss": 0.9},
            {"date": "2026-11-02T10:00:00Z", "rules": "official", "seed": 2, "decisions": 4,
             "mean_loss": 0.125},
            {"date": "2026-11-03T10:00:00Z", "rules": "two-rolls", "seed": 3, "decisions": 4,
             "mean_loss": 2.5},
            {"date": "2026-11-04T10:00:00Z", "rules": "official", "seed": 4, "decisions": 4,
             "mean_loss": 0.25}]
    start_practice(table, 1, 5, {HISTORY_STORE: json.dumps(kept)})
    answer_position(page, position, 0)
    page.wait_for_selector("#practice-grade:not([hidden])")
    table.settle()
    page.locator("#practice-next").tap()
    page.wait_for_selector("#practice-summary:not([hidden])")
    stored = json.loads(page.evaluate(f"() => localStorage.getItem('{HISTORY_STORE}')"))
    assert stored[:4] == kept and len(stored) == 5
    new = stored[4]
    assert new["rules"] == "official" and new["seed"] == 5 and new["decisions"] == 1
    line = page.inner_text("#practice-history")
    assert line == (f"Your last sessions (official), oldest first: 0.125, 0.250, "
                    f"{new['mean_loss']:.3f}.")
    assert table.errors == []
    context.close()
