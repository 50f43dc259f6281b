"""The page as a new user meets it on a phone (390 px, touch): practice grades a tied
answer as the CLI does, option labels fit on one line, the totals bar covers nothing,
no keyboard help on a touch screen; screenshots in build/screenshots/."""

from __future__ import annotations

import json

from advisor.train import positions_of_play
from tests.web.page.test_browser import phone, start_game
from tests.web.page.test_coach import start_practice


def test_a_tied_practice_answer_on_a_phone(server, browser, official_table, official_moments,
                                           screenshots):
    """`train --positions 4 --seed 7`, position 1 (dice 1 3 4 5 6, only Large Straight
    open): keep 3 4 5 6 ties with keep 1 3 4 5; the page says "a best choice, tied with",
    shows the answer's figures first, and says what the straight's figures mean."""
    table, context = phone(browser, server.url)
    page = table.page
    start_practice(table, 4, 7)
    position = positions_of_play(official_table, 4, 7)[0]
    assert list(position.dice.faces) == [1, 3, 4, 5, 6]
    for i in (1, 2, 3, 4):  # hold 3 4 5 6
        page.locator("#practice-dice button").nth(i).tap()
    page.locator("#practice-keep").tap()
    page.wait_for_selector("#practice-grade:not([hidden])")
    page.wait_for_selector("#practice-why .why")
    table.settle()
    assert page.inner_text("#practice-verdict") == \
        "Keep 3 4 5 6: a best choice, tied with keep 1 3 4 5."
    headings = page.locator("#practice-why h3").all_inner_texts()
    assert headings == ["Yours: keep 3 4 5 6", "Tied with it: keep 1 3 4 5"]
    turns = [t for t in page.locator("#practice-why .why p").all_inner_texts()
             if t.startswith("This turn:")]
    # one die rerolled twice, only a 2 completes the run: 11/36 = 30.6 % makes it
    assert turns == ["This turn: 0 in Large Straight 69%, Large Straight 31%"] * 2
    page.locator("#practice-grade").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / "web-390-practice-tie.png"), full_page=True)
    context.close()


def test_practice_lists_every_figure_of_the_total_and_counts_keeps_by_the_answer(
        server, browser, official_table, screenshots, memory):
    """`train --positions 3 --seed 13` on a phone: position 1's card holds the upper bonus
    and a Yahtzee bonus (total 390); the figures listed add up to the total shown (the
    Yahtzee bonus of 100 was never listed: 290 shown for a total of 390). Then two answers
    score a box and one keeps, where the best choice of all three keeps dice: the
    summary's counts by kind are those counted here, keep or box by each answer, the
    other kinds from the best choice as the docstring of advisor.train defines them."""
    import re

    from advisor.train import advice_of, grade
    from tests.advisor.train.test_train import kinds_by_the_docstring

    table, context = phone(browser, server.url)
    page = table.page
    start_practice(table, 3, 13)
    positions = positions_of_play(official_table, 3, 13)
    card = positions[0].card
    upper = sum(e or 0 for b, e in zip(card.rules.boxes, card.entries, strict=True)
                if b.is_upper)
    by_hand = sum(e or 0 for e in card.entries) + 35 * (upper >= 63) + 100 * card.yahtzee_bonuses
    assert (by_hand, upper >= 63, card.yahtzee_bonuses) == (390, True, 1)
    where = page.inner_text("#practice-where")
    assert f" · total {by_hand} · " in where, where
    shown = page.inner_text("#practice-card")
    listed = re.fullmatch(r"Filled: (.*)\. Open: .*\.", shown).group(1).split(", ")
    assert sum(int(item.rsplit(" ", 1)[1]) for item in listed) == by_hand, shown
    assert listed[-2:] == ["Upper bonus 35", "Yahtzee bonus 100"]
    page.locator("#practice-card").screenshot(path=str(screenshots / "web-390-practice-card.png"))
    want = {}
    for i, position in enumerate(positions):
        assert advice_of(position, official_table, memory=memory).best.is_keep
        if i < 2:
            page.locator("#practice-boxes button").first.tap()
        else:
            page.locator("#practice-dice button").nth(0).tap()
            page.locator("#practice-keep").tap()
        page.wait_for_selector("#practice-grade:not([hidden])", timeout=120_000)
        table.settle()
        stored = json.loads(page.evaluate("() => localStorage.getItem('yahtzee-practice-v1')"))
        answer = stored["answers"][i]
        graded = grade(position, answer, official_table, memory=memory)
        themes = set(kinds_by_the_docstring(position.card, graded.best)) - {"keep", "box"}
        did = "keep" if answer.startswith(("keep", "reroll")) else "box"
        for kind in themes | {did}:
            decisions, errors = want.get(kind, (0, 0))
            want[kind] = (decisions + 1, errors + graded.is_error)
        page.locator("#practice-next").tap()
        table.settle()
    page.wait_for_selector("#practice-summary:not([hidden])")
    labels = {"keep": "Keeps", "box": "Boxes", "upper": "Upper section",
              "yahtzee": "Chasing a Yahtzee", "straights": "Straights",
              "end_of_game": "End of game"}
    rows = page.locator("#practice-kinds tbody tr").evaluate_all(
        "trs => trs.map(tr => [...tr.cells].map(c => c.textContent))")
    assert {r[0]: (int(r[1]), int(r[2])) for r in rows} == \
        {labels[k]: v for k, v in want.items()}
    assert want["keep"] == (1, 1) and want["box"][0] == 2
    page.locator("#practice-summary").screenshot(
        path=str(screenshots / "web-390-practice-kinds.png"))
    assert table.errors == []
    context.close()


def _one_line(page, selector: str) -> list[str]:
    """The texts of ``selector`` that take more than one line."""
    return page.locator(selector).evaluate_all(
        """els => els.filter(e => {
             const lh = parseFloat(getComputedStyle(e).lineHeight) ||
                        1.2 * parseFloat(getComputedStyle(e).fontSize);
             return e.getBoundingClientRect().height > 1.5 * lh;
           }).map(e => e.innerText)""")


def test_the_play_page_on_a_phone(server, browser, official_table, screenshots):
    table, context = phone(browser, server.url)
    page = table.page
    start_game(table)
    table.tap_dice([1, 2, 3, 4, 6])
    assert table.phase == "choose"
    # no keyboard help on a touch screen
    shown = page.locator(".keys").evaluate_all("ks => ks.map(k => getComputedStyle(k).display)")
    assert shown and set(shown) == {"none"}
    # every option's label on one line at 390 px ("Keep 1 2 3 4" never "Keep 1 2 / 3 4"),
    # all 44 of them
    page.locator("#more-options").tap()
    table.settle()
    assert page.locator("#options li .what").count() == 44
    assert page.locator("#options li .what.keep").count() == 31
    assert _one_line(page, "#options li .what") == []
    # and nothing overlaps: each label ends before its row's figures begin
    overlaps = page.locator("#options li").evaluate_all(
        """lis => lis.filter(li => {
             const what = li.querySelector('.what').getBoundingClientRect();
             const num = li.querySelector('.num:not(.chance)').getBoundingClientRect();
             return what.right > num.left + 0.5;
           }).map(li => li.querySelector('.what').innerText)""")
    assert overlaps == []
    page.locator("#options li:nth-child(31)").scroll_into_view_if_needed()
    first = page.locator("#options li:nth-child(31)").bounding_box()
    last = page.locator("#options li:nth-child(44)").bounding_box()
    page.screenshot(path=str(screenshots / "web-390-play-boxes.png"), full_page=True,
                    clip={"x": 0, "y": first["y"] + page.evaluate("window.scrollY"),
                          "width": 390, "height": last["y"] + last["height"] - first["y"]})
    # what scrolls into view stops below the sticky totals bar
    for selector in ("#advice-title", "#options li:nth-child(30)", "#turn-title"):
        page.locator(selector).evaluate("e => e.scrollIntoView({block: 'start'})")
        page.wait_for_timeout(100)
        bar = page.locator("#scores").bounding_box()
        top = page.locator(selector).bounding_box()
        assert top["y"] >= bar["y"] + bar["height"] - 0.5, (selector, bar, top)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(screenshots / "web-390-play.png"), full_page=True)
    context.close()


def _finished_record() -> str:
    """A whole two-player game, each turn one roll scored at once (zeros allowed)."""
    boxes = ("aces twos threes fours fives sixes three_of_a_kind four_of_a_kind full_house "
             "small_straight large_straight yahtzee chance").split()
    lines = ["rules official", "players Ann,Bob"]
    for i, box in enumerate(boxes):
        lines += [f"Ann: 12346 {box}", f"Bob: 12356 {boxes[(i + 1) % 13]}"]
    return "\n".join(lines) + "\n"


def test_an_analysis_in_two_units_says_the_unit_of_every_figure(server, browser, tmp_path,
                                                                 official_table):
    """Played to win from 2 open boxes on: the last two turns of each player are judged in
    percentage points of the chance to win, the others in points; every loss and luck of
    the page says which, and each part of a player has its own row, with the figures of
    `yahtzee analyze --objective win --win-from 2`."""
    import json

    from click.testing import CliRunner

    from advisor.cli import cli
    from tests.web.page.test_chase import start_win_game

    record = tmp_path / "game.txt"  # noted as played to win from 2 open boxes on
    record.write_text("# objective: win (each player against the best of the others, "
                      "from 2 open boxes on)\n" + _finished_record())
    result = CliRunner().invoke(cli, ["analyze", str(record), "--objective", "win",
                                      "--win-from", "2", "--json"])
    assert result.exit_code == 0, result.output
    want = json.loads(result.stdout)
    assert {d["unit"] for d in want["decisions"]} == {"points", "probability"}
    table, context = phone(browser, server.url)
    page = table.page
    start_win_game(table, ("Ann", "Bob"), win_from=2)
    page.set_input_files("#upload-file", str(record))
    table.settle()
    page.click("#analyze")
    page.wait_for_selector("#analysis:not([hidden])", timeout=120_000)
    page.wait_for_selector("#analysis-players tbody tr", timeout=120_000)
    table.settle()
    rows = [page.locator("#analysis-players tbody tr").nth(i).locator("td").all_inner_texts()
            for i in range(page.locator("#analysis-players tbody tr").count())]
    expected = []
    for p in want["players"]:
        by_points = p["by_expected_score"]
        expected.append([p["name"], str(p["total"]), str(p["decisions"]), str(p["errors"]),
                         f"{100 * p['total_loss']:.2f} pp"])
        expected.append([f"{p['name']}, turns by expected score", "",
                         str(by_points["decisions"]), str(by_points["errors"]),
                         f"{by_points['total_loss']:.2f} points"])
    assert [r[:5] for r in rows] == expected
    for row, p in zip(rows[::2], want["players"], strict=True):
        assert row[5].endswith(" pp") and row[5].replace("−", "-").lstrip("+")[:-3] == \
            f"{100 * p['luck']:.2f}"
    for row, p in zip(rows[1::2], want["players"], strict=True):
        assert row[5].endswith(" points") and row[5].replace("−", "-").lstrip("+")[:-7] == \
            f"{p['by_expected_score']['luck']:.2f}"
    # the largest losses: positive figures in their unit, as the terminal prints them
    worst = [d for p in want["players"]
             for d in [*p["worst"], *(p["by_expected_score"] or {}).get("worst", [])]]
    costs = [f"costs {100 * d['loss']:.2f} pp" if d["unit"] == "probability"
             else f"costs {d['loss']:.2f} points" for d in worst]
    assert sorted(page.locator("#analysis-worst .loss").all_inner_texts()) == sorted(costs)
    assert costs
    # the decisions: every luck (and every loss but 0) in its row's unit
    cells = page.locator("#analysis-decisions tbody tr").evaluate_all(
        "trs => trs.map(tr => [...tr.cells].map(c => c.textContent))")
    assert len(cells) == len(want["decisions"]) == 26
    for row, d in zip(cells, want["decisions"], strict=True):
        unit = " pp" if d["unit"] == "probability" else " points"
        assert row[7].endswith(unit), (row, d["unit"])
        assert row[6] == "0" or row[6].endswith(unit), (row, d["unit"])
    context.close()


def test_the_totals_bar_never_covers_the_objective_note(server, browser, screenshots):
    """Played to win (from 2 open boxes on), turn 1: the note under the totals bar saying
    how the choices are ranked stays in sight when the page scrolls it into view, and
    when the choices scroll into view after the dice are entered."""
    from tests.web.page.test_chase import start_win_game

    table, context = phone(browser, server.url)
    page = table.page
    start_win_game(table, ("Ann", "Bob"), win_from=2)
    table.tap_dice([2, 2, 2, 5, 6])
    note = page.locator("#chase-status")
    assert note.inner_text().startswith("Ranked by expected score: the chance to win is "
                                        "worked out from 2 open boxes on")

    def covered() -> bool:
        bar, text = page.locator("#scores").bounding_box(), note.bounding_box()
        return text["y"] < bar["y"] + bar["height"] - 0.5 and text["y"] + text["height"] > bar["y"]

    page.screenshot(path=str(screenshots / "web-390-win-turn-1.png"))
    assert not covered()
    for block in ("start", "nearest", "center"):
        page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
        note.evaluate(f"e => e.scrollIntoView({{block: '{block}'}})")
        page.wait_for_timeout(100)
        assert not covered(), block
    context.close()


def _label_columns(page, selector: str) -> list[str]:
    """The texts in the visible labels of ``selector`` broken into narrow columns: a run
    of words over several lines narrower than half the label (a flex item squeezed)."""
    return page.locator(f"{selector} label").evaluate_all(
        """labels => labels.filter(l => l.offsetParent !== null).flatMap(l => {
             const width = l.getBoundingClientRect().width;
             return [...l.childNodes].filter(n => n.nodeType === 3 && n.textContent.trim())
               .filter(n => {
                 const range = document.createRange();
                 range.selectNodeContents(n);
                 const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
                 return tops.size > 1 && range.getBoundingClientRect().width < width / 2;
               }).map(n => n.textContent.trim());
           })""")


def test_playing_to_win_is_set_up_in_plain_words_on_a_phone(server, browser, screenshots):
    """The setup asks "work out the chance to win: from the first turn, or in the last
    turns only", then (only then) a number of open boxes; no text squeezed into narrow
    columns at 390 px (it read "from [15] open boxes on (15: from the first turn)" in
    three columns). The game started from it is played to win from that many boxes."""
    table, context = phone(browser, server.url)
    page = table.page
    page.evaluate("() => localStorage.clear()")
    page.reload()
    table.settle()
    page.click("#add-player")
    page.select_option("#objective-select", "win")
    assert page.is_visible("#win-from-field")
    assert page.input_value("#win-from-when") == "first"
    assert page.locator("#win-from-when option").all_inner_texts() == [
        "from the first turn", "in the last turns only"]
    assert not page.is_visible("#win-from-input")
    page.locator("#setup").screenshot(path=str(screenshots / "web-390-setup-win.png"))
    assert _label_columns(page, "#setup-form") == []
    page.select_option("#win-from-when", "late")
    assert page.is_visible("#win-from-input")
    page.fill("#win-from-input", "3")
    page.locator("#setup").screenshot(path=str(screenshots / "web-390-setup-win-late.png"))
    assert _label_columns(page, "#setup-form") == []
    page.click("#start")
    table.settle()
    assert table.state()["objective"] == {"kind": "win", "from": 3}
    table.tap_dice([2, 2, 2, 5, 6])
    assert page.inner_text("#chase-status").startswith(
        "Ranked by expected score: the chance to win is worked out from 3 open boxes on")
    assert table.errors == []
    context.close()


def _two_boxes_left_record() -> str:
    """Ann and Bob played to win from 2 open boxes on, eleven turns each, the same (each
    one roll scored at once): level, two boxes open each (Yahtzee and Chance)."""
    boxes = ("aces twos threes fours fives sixes three_of_a_kind four_of_a_kind full_house "
             "small_straight large_straight yahtzee chance").split()
    lines = ["# objective: win (each player against the best of the others, from 2 open "
             "boxes on)", "rules official", "players Ann,Bob"]
    for i in range(11):
        lines += [f"Ann: 12346 {boxes[i]}", f"Bob: 12346 {boxes[i]}"]
    return "\n".join(lines) + "\n"


def test_losses_on_one_line_as_positive_figures_and_the_next_turn_in_view(
        server, browser, official_table, tmp_path, screenshots):
    """At 390 px: the losses of the list are the terminal's figures (`advise 22256 --top 0`
    prints 3.24 where the page said -3.24); ranked by the chance to win, each "1.35 pp" on
    one line and equal to the server's p_loss; and after a box is tapped at the bottom of
    the list, the next player's turn heading and dice are in view below the totals bar."""
    from click.testing import CliRunner

    from advisor.cli import cli
    from tests.web.page.test_chase import start_win_game

    table, context = phone(browser, server.url)
    page = table.page
    start_game(table)
    table.tap_dice([2, 2, 2, 5, 6])
    page.locator("#more-options").tap()
    table.settle()
    shown = page.locator("#options li .loss").all_inner_texts()
    printed = CliRunner().invoke(cli, ["advise", "22256", "--top", "0"]).stdout.splitlines()
    rows = [line.split() for line in printed if line[:3].strip().isdigit()]
    assert len(rows) == len(shown) == 28
    assert shown == ["best" if r[-1] == "0.00" else r[-1] for r in rows]
    # a box tapped at the bottom of the list: Bob's turn, its heading and dice in view
    last = page.locator("#options li button.take").last
    assert table.options()[-1].startswith("Score ")
    last.scroll_into_view_if_needed()
    last.tap()
    table.settle()
    assert page.inner_text("#turn-title").startswith("Bob")
    bar = page.locator("#scores").bounding_box()
    title = page.locator("#turn-title").bounding_box()
    dice = page.locator("#dice").bounding_box()
    assert title["y"] >= bar["y"] + bar["height"] - 0.5, (bar, title)
    assert dice["y"] + dice["height"] <= 844, dice
    page.screenshot(path=str(screenshots / "web-390-after-a-box.png"))
    # played to win, two boxes left each: the ranking by the chance to win
    start_win_game(table, ("Ann", "Bob"), win_from=2)
    record = tmp_path / "late.txt"
    record.write_text(_two_boxes_left_record())
    page.set_input_files("#upload-file", str(record))
    table.settle()
    table.tap_dice([1, 1, 1, 5, 6])
    page.wait_for_selector("body[data-chase='ready']", state="attached", timeout=300_000)
    page.wait_for_selector("#advice.with-chance")
    if page.is_visible("#more-options"):
        page.locator("#more-options").tap()
        table.settle()
    cards = table.state()["cards"]
    status, advice = server.get("/api/advise", {"card": cards["Ann"], "dice": "11156",
                                                "rolls_left": "2", "top": "0",
                                                "opponent": cards["Bob"]})
    assert status == 200
    shown = page.locator("#options li .loss").all_inner_texts()
    want = ["best" if o["p_loss"] <= 0 else f"{100 * o['p_loss']:.2f} pp"
            for o in advice["options"]]
    assert shown == want[:len(shown)] and len(shown) > 10
    assert any(s.endswith(" pp") for s in shown)
    assert _one_line(page, "#options li .loss") == []
    page.locator("#options").screenshot(path=str(screenshots / "web-390-win-losses.png"))
    # and inside its row: nothing runs under the row's "?" button (it showed "10.68 p")
    spilt = page.locator("#options li").evaluate_all(
        """lis => lis.filter(li => {
             const take = li.querySelector("button.take");
             const edge = Math.min(take.getBoundingClientRect().right,
                                   li.querySelector(".why-button").getBoundingClientRect().left);
             return [...take.children].some(c => c.getBoundingClientRect().right > edge + 0.5
                                                 || c.scrollWidth > c.clientWidth);
           }).map(li => li.innerText)""")
    assert spilt == []
    page.locator("#options").screenshot(path=str(screenshots / "web-390-win-losses.png"))
    assert table.errors == []
    context.close()
