"""The page in a real browser (headless Chromium): a scripted two-player game played by
clicking, with undo, a reload mid-game, bad rolls, the keyboard, the charts; on a 390 px
touch screen: dice held by tapping (each keep's value exactly advise's), a deviation's
cost, a wrong die corrected without undo, the totals and leader in view, the analysis
fitting or visibly scrolling; no JavaScript error; screenshots at 375, 390 and 1280 px in
build/screenshots/."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from advisor.cli import cli
from advisor.model import Dice, Scorecard
from advisor.objective import EV
from advisor.ranking import advise
from advisor.record import parse_record

PLAYERS = ("Ann", "Bob")
STORE = "yahtzee-game-v1"


class Table:
    """The page, driven as a player does, with the browser's errors collected."""

    def __init__(self, page, url: str) -> None:
        self.page = page
        self.errors: list[str] = []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        page.goto(url)
        self.settle()

    def settle(self) -> None:
        self.page.wait_for_selector("body[data-busy='0']", state="attached")

    @property
    def phase(self) -> str:
        return self.page.get_attribute("body", "data-phase")

    def state(self) -> dict:
        return json.loads(self.page.evaluate(f"() => localStorage.getItem('{STORE}')"))["state"]

    def tap_dice(self, faces) -> None:
        for face in faces:
            self.page.click(f'.face[data-face="{face}"]')
        self.settle()

    def options(self) -> list[str]:
        """The choices' labels as written ("Score " included, which a phone leaves out)."""
        return self.page.locator("#options button.take .what").evaluate_all(
            "els => els.map(e => e.textContent)")

    def choose(self, n: int = 0) -> str:
        text = self.options()[n]
        self.page.locator("#options button.take").nth(n).click()
        self.settle()
        return text

    def kept(self) -> int:
        return self.page.locator("#dice .die.kept").count()

    def undo(self) -> None:
        self.page.click("#undo")
        self.settle()

    def rolls_left(self) -> str:
        return self.page.inner_text("#rolls-left")


def whole_page(page, path: Path) -> None:
    """A screenshot of the whole page, taken by making the viewport as tall as the page
    (``full_page=True`` drops a touch screen's emulation while it captures, so the phone
    would be drawn as a desktop)."""
    size = page.viewport_size
    height = page.evaluate("() => document.documentElement.scrollHeight")
    page.set_viewport_size({"width": size["width"], "height": height})
    page.screenshot(path=str(path))
    page.set_viewport_size(size)


def expected_options(card_text: str, dice: str, rolls_left: int, table,
                     objective=EV) -> list[str]:
    """The choices as the page words them, from the library."""
    from advisor.model import box_label

    advice = advise(Scorecard.parse(card_text), Dice.parse(dice), rolls_left=rolls_left,
                    table=table, objective=objective)
    words = []
    for o in advice.options:
        if o.keep is not None:
            words.append(f"Keep {o.keep.spaced()}" if o.keep.faces else "Reroll all")
        else:
            words.append(f"Score {box_label(o.box)} {o.points}"
                         + (f" +{o.bonus} bonus" if o.bonus else ""))
    return words


def start_game(table: Table, names=PLAYERS) -> None:
    page = table.page
    page.evaluate("() => localStorage.clear()")
    page.reload()
    table.settle()
    assert table.phase == "setup"
    for _ in names[1:]:
        page.click("#add-player")
    for i, name in enumerate(names, start=1):
        page.fill(f"#player-names li:nth-child({i}) input", name)
    page.click("#start")
    table.settle()
    assert table.phase == "roll"


def play_turn(table: Table, rng: random.Random, official_table, *, check: bool,
              pick=lambda shown: 0) -> None:
    """Roll, follow the best choice (or choice ``pick(choices shown)``) until a box is
    scored; with ``check``, compare the choices shown with the library's."""
    dice = [rng.randint(1, 6) for _ in range(5)]
    table.tap_dice(dice)
    while True:
        assert table.phase == "choose"
        if check:
            state = table.state()
            player = state["players"][len(state["turns"]) % len(state["players"])]
            rolls = state["current"]["rolls"]
            shown = table.page.locator("#options button.take .what").count()
            want = expected_options(state["cards"][player], rolls[-1], 3 - len(rolls),
                                    official_table)
            assert table.options() == want[:shown]
        choice = table.choose(pick(table.page.locator("#options button.take").count()))
        if not choice.startswith(("Keep", "Reroll")):
            return
        kept = table.kept()
        table.tap_dice([rng.randint(1, 6) for _ in range(5 - kept)])


def test_two_player_game_in_the_browser(server, browser, screenshots, official_table):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    table = Table(page, server.url)
    start_game(table)
    rng = random.Random(2024)
    assert "Ann" in page.inner_text("#turn-title") and table.rolls_left() == "3"

    # Turn 1 (Ann): the choices are the library's, option by option.
    play_turn(table, rng, official_table, check=True)
    assert len(table.state()["turns"]) == 1 and "Bob" in page.inner_text("#turn-title")

    # Turn 2 (Bob): bad rolls typed are refused with the CLI's message; nothing changes.
    before = table.state()
    for bad, message in (("2225", "dice '2225': 4 dice given, need exactly 5 faces 1 to 6"),
                         ("22257", "dice '22257': '7' is not a face; faces are 1 to 6")):
        page.fill("#typed", bad)
        page.press("#typed", "Enter")
        table.settle()
        assert page.is_visible("#roll-error")
        assert message in page.inner_text("#roll-error")
        assert table.state() == before and table.phase == "roll"
    page.fill("#typed", "6 6 6 3 1")
    page.press("#typed", "Enter")
    table.settle()
    assert not page.is_visible("#roll-error") and table.phase == "choose"
    assert table.options()[0] == "Keep 6 6 6"
    table.choose(0)
    assert table.kept() == 3 and table.rolls_left() == "2"

    # Undo the keep: the roll and its choices are back.
    table.undo()
    assert table.phase == "choose" and table.options()[0] == "Keep 6 6 6"
    table.choose(0)
    table.tap_dice([6, 2])
    assert table.state()["current"] == {"rolls": ["13666", "26666"], "keeps": ["666"]}

    # Reload mid-turn: the game, the dice and the choices continue.
    shown = table.options()
    page.reload()
    table.settle()
    assert table.phase == "choose" and table.options() == shown
    assert table.rolls_left() == "1"

    # Score by tapping a box on the card (Sixes), then undo it and take Four of a Kind.
    page.click("#card tbody tr:nth-child(6) td:nth-child(3) button")
    table.settle()
    assert table.state()["cards"]["Bob"] == "sixes=24"
    table.undo()
    assert table.phase == "choose" and table.state()["cards"]["Bob"] == ""
    page.get_by_role("button", name="Score Four of a Kind 26").first.click()
    table.settle()
    assert table.state()["cards"]["Bob"] == "four_of_a_kind=26"

    # Turn 3 (Ann) by keyboard alone: 1-6 add dice, Enter takes the best choice.
    page.keyboard.type("55552")
    table.settle()
    assert table.phase == "choose" and table.options()[0] == "Keep 5 5 5 5"
    page.keyboard.press("Escape")
    page.evaluate("() => document.activeElement.blur()")
    page.keyboard.press("Enter")
    table.settle()
    assert table.kept() == 4
    page.keyboard.press("5")
    table.settle()
    assert table.phase == "choose" and table.options()[0].startswith("Score Yahtzee 50")
    page.keyboard.press("Enter")
    table.settle()
    assert "yahtzee=50" in table.state()["cards"]["Ann"].split(",")

    # The rest of the game, always the best choice; the charts late in the game.
    while table.phase != "over":
        turns = len(table.state()["turns"])
        if turns == 22:
            page.click("#charts-box summary")
            table.settle()
            page.wait_for_selector("#dist-chart svg rect.bar-rect")
            page.wait_for_selector("#reach-chart svg path.curve")
            assert "averages" in page.inner_text("#charts-status")
        play_turn(table, rng, official_table, check=turns % 5 == 0)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.screenshot(path=str(screenshots / "web-1280-over.png"), full_page=True)

    # The cards on the page are the library's replay of the game record.
    state = table.state()
    assert len(state["turns"]) == 26
    cards = {name: Scorecard.new() for name in PLAYERS}
    for turn in state["turns"]:
        card = cards[turn["player"]]
        rolls, keeps = turn["rolls"], turn["keeps"]
        assert len(rolls) == len(keeps) + 1 <= 3
        for keep, roll in zip(keeps, rolls[1:], strict=True):
            assert sorted(keep) == sorted(keep) and all(
                roll.count(f) >= keep.count(f) for f in set(keep))
        cards[turn["player"]] = card.place(Dice.parse(rolls[-1]), turn["box"])
    totals = page.locator("#card tr.sum td").all_inner_texts()
    assert totals == [str(cards[name].total) for name in PLAYERS]
    assert {name: str(card) for name, card in cards.items()} == state["cards"]
    best = max(card.total for card in cards.values())
    assert str(best) in page.inner_text("#winner")

    # Save: the downloaded record is the game, as the CLI reads it.
    with page.expect_download() as download:
        page.click("#download")
    saved = Path(download.value.path()).read_text()
    record = parse_record(saved)
    assert {name: str(card) for name, card in record.cards().items()} == state["cards"]
    assert record.is_finished and len(record.turns) == 26

    # The analysis view: the figures of `yahtzee analyze`.
    page.click("#analyze")
    table.settle()
    assert table.phase == "analysis" and page.is_visible("#analysis")
    result = CliRunner().invoke(cli, ["analyze", "-", "--json"], input=saved)
    expected = json.loads(result.stdout)
    rows = page.locator("#analysis-players tbody tr")
    assert rows.count() == 2
    for i, player in enumerate(expected["players"]):
        cells = rows.nth(i).locator("td").all_inner_texts()
        assert cells[:5] == [player["name"], str(player["total"]), str(player["decisions"]),
                             str(player["errors"]), f"{player['total_loss']:.2f}"]
        assert cells[5].replace("−", "-").lstrip("+") == f"{player['luck']:.2f}"
    page.screenshot(path=str(screenshots / "web-1280-analysis.png"), full_page=True)
    page.click("#close-analysis")
    table.settle()
    assert table.phase == "over"

    # Chromium logs the two refused rolls' HTTP 400 answers; nothing else went wrong.
    refused = "Failed to load resource: the server responded with a status of 400 (Bad Request)"
    assert table.errors == [refused, refused]
    page.close()


@pytest.mark.parametrize("width, height", [(375, 812), (1280, 900)])
def test_screenshots(server, browser, screenshots, official_table, width, height):
    touch = width < 500    # a phone: touch screen, no keyboard
    context = browser.new_context(viewport={"width": width, "height": height},
                                  has_touch=touch, is_mobile=touch)
    page = context.new_page()
    table = Table(page, server.url)
    start_game(table)
    rng = random.Random(7)
    for _ in range(6):
        play_turn(table, rng, official_table, check=False)
    table.tap_dice([3, 3, 4, 5, 6])
    for i in (0, 1):                    # hold the two 3s
        page.locator("#dice button").nth(i).click()
        table.settle()
    assert page.locator("#option-detail .held-row .what").inner_text() == "Keep 3 3"
    whole_page(page, screenshots / f"web-{width}.png")
    # nothing wider than the screen at phone width
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    assert table.errors == []
    assert page.is_visible(".keys") is not touch
    context.close()


RECORD = """rules official
players Ann,Bob
Ann: 22256 222 22234 2223 22235 twos
Bob: 12345 large_straight
Ann: 44666 666 13666 - 23456 large_straight
Bob: 55555 yahtzee
Ann: 11236 -
"""


def test_open_a_record_continue_and_refusals(server, browser, official_table, tmp_path):
    page = browser.new_page(viewport={"width": 375, "height": 812})
    table = Table(page, server.url)
    start_game(table, names=("Cy",))
    good = tmp_path / "game.txt"
    good.write_text(RECORD)
    page.set_input_files("#upload-file", str(good))
    table.settle()
    # Ann's turn under way: she kept nothing after 11236 and rerolls all five dice.
    assert table.phase == "roll" and "Ann" in page.inner_text("#turn-title")
    assert table.rolls_left() == "2" and table.kept() == 0
    state = table.state()
    assert state["cards"] == {"Ann": "twos=6,large_straight=40",
                              "Bob": "large_straight=40,yahtzee=50"}
    table.tap_dice([6, 6, 6, 6, 6])
    assert table.phase == "choose" and table.options()[0].startswith("Score Yahtzee 50")

    # A bad record is refused as a whole with the CLI's message; the game stays.
    bad = tmp_path / "bad.txt"
    bad.write_text(RECORD + "Cy: 12345 chance\n")
    page.set_input_files("#upload-file", str(bad))
    table.settle()
    message = parse_error(bad.read_text())
    assert page.is_visible("#page-error") and message in page.inner_text("#page-error")
    assert table.state() == state | {"current": {"rolls": ["11236", "66666"], "keeps": [""]}}

    # A saved game the server refuses (edited by hand) is not shown; a new game is offered.
    page.evaluate("""() => {
        const saved = JSON.parse(localStorage.getItem('yahtzee-game-v1'));
        saved.state.turns[0].rolls[1] = '13456';
        localStorage.setItem('yahtzee-game-v1', JSON.stringify(saved));
    }""")
    page.reload()
    table.settle()
    assert table.phase == "setup" and "refused" in page.inner_text("#page-error")
    assert [e for e in table.errors if "Failed to load resource" not in e] == []
    page.close()


def parse_error(text: str) -> str:
    from solver.errors import YahtzeeError

    try:
        parse_record(text)
    except YahtzeeError as exc:
        return str(exc)
    raise AssertionError("the record was accepted")


def test_another_rule_set_from_the_setup(server, browser, table_of):
    table_of("yatzy")
    page = browser.new_page(viewport={"width": 375, "height": 812})
    table = Table(page, server.url)
    page.evaluate("() => localStorage.clear()")
    page.reload()
    table.settle()
    page.select_option("#rules-select", "yatzy")
    page.fill("#player-names li:nth-child(1) input", "Solo")
    page.click("#start")
    table.settle()
    rows = page.locator("#card tbody th").all_inner_texts()
    assert "Yatzy" in rows and "One Pair" in rows and "Yahtzee bonus" not in rows
    assert "Bonus (50)" in rows
    table.tap_dice([6, 6, 6, 6, 6])
    assert table.options()[0] == "Score Yatzy 50"
    table.choose(0)
    assert table.state()["cards"]["Solo"] == "yatzy=50"
    assert page.locator("#card tr.sum td").inner_text() == "50"
    assert table.errors == []
    page.close()


LATE_RECORD = """players Solo
Solo: 11123 aces
Solo: 22245 twos
Solo: 33312 threes
Solo: 44413 fours
Solo: 55512 fives
Solo: 66612 sixes
Solo: 44426 3k
Solo: 12345 4k
Solo: 22333 fh
Solo: 12345 ls
"""


def percent(p: float) -> str:
    return f"{100 * p:.{2 if p > 0.999 or p < 0.001 else 1}f}%"


def test_playing_for_a_target(server, browser, official_table, tmp_path, screenshots):
    from advisor.objective import Objective

    page = browser.new_page(viewport={"width": 1280, "height": 900})
    table = Table(page, server.url)
    page.evaluate("() => localStorage.clear()")
    page.reload()
    table.settle()
    assert page.is_visible("#objective-field")
    page.select_option("#objective-select", "target")
    page.fill("#target-input", "230")
    page.click("#start")
    table.settle()
    record = tmp_path / "late.txt"  # the game noted as played for 230 (as play writes it)
    record.write_text('# objective: {"kind": "target", "target": 230}\n' + LATE_RECORD)
    page.set_input_files("#upload-file", str(record))
    table.settle()
    assert table.state()["cards"]["Solo"] == str(parse_record(LATE_RECORD).cards()["Solo"])
    table.tap_dice([1, 2, 3, 4, 6])
    # the choices by expected score at once; ranked by the chance once the turn is solved
    page.wait_for_selector("body[data-chase='ready']", state="attached", timeout=120_000)
    page.wait_for_selector("#advice.with-chance")
    assert "best chance of 230+" in page.inner_text("#advice-title")
    page.click("#more-options")
    advice = advise(table.state()["cards"]["Solo"], "12346", rolls_left=2, table=official_table,
                    objective=Objective.for_target(230))
    shown = page.locator("#options button.take .chance").all_inner_texts()
    assert shown == [percent(o.p_target) for o in advice.options]
    assert table.options()[0] == expected_options(table.state()["cards"]["Solo"], "12346", 2,
                                                  official_table, Objective.for_target(230))[0]
    page.screenshot(path=str(screenshots / "web-1280-target.png"), full_page=True)
    # a choice that is not the best: its cost in percentage points of the chance of 230+
    best, chosen = advice.options[0], next(o for o in advice.options[1:]
                                           if o.p_target < advice.options[0].p_target)
    page.locator("#options button.take").nth(advice.options.index(chosen)).click()
    table.settle()
    lost = 100 * (best.p_target - chosen.p_target)
    assert page.inner_text("#cost-note") == (
        f"{chosen.describe()[0].upper()}{chosen.describe()[1:]} costs {lost:.2f} percentage "
        f"points of the chance of 230 or more ({percent(best.p_target)} to "
        f"{percent(chosen.p_target)}; best: {best.describe()}; {chosen.loss:.2f} points on "
        "average)")
    assert table.errors == []
    page.close()


# ---------------------------------------------------------------- a phone at 390 px
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


def phone(browser, url: str) -> tuple[Table, object]:
    """The page on a phone-sized touch screen: (table, its browser context to close)."""
    context = browser.new_context(**PHONE)
    return Table(context.new_page(), url), context


def undo_depth(table: Table) -> int:
    return len(json.loads(table.page.evaluate(f"() => localStorage.getItem('{STORE}')"))["undo"])


def dice_shown(table: Table) -> list[int]:
    return [int(t.split(",")[0]) for t in
            table.page.locator("#dice button").evaluate_all("bs => bs.map(b => b.ariaLabel)")]


def held_detail(table: Table) -> dict:
    page = table.page
    row = page.locator("#option-detail .held-row")
    if not row.count():
        return {"text": page.inner_text("#option-detail")}
    return {"what": row.locator(".what").inner_text(), "loss": row.locator(".loss").inner_text(),
            "ev": row.locator(".ev").inner_text(),
            "value": float(row.locator(".ev").get_attribute("data-value")),
            "rank": page.inner_text("#option-detail .rank"),
            "button": page.inner_text("#keep-held")}


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def test_hold_dice_by_tapping_shows_that_keeps_value_as_advise_ranks_it(
        server, browser, official_table, screenshots):
    from advisor.play import deviation_note

    table, context = phone(browser, server.url)
    page = table.page
    start_game(table)
    table.tap_dice([6, 1, 4, 2, 3])
    assert table.phase == "choose" and dice_shown(table) == [1, 2, 3, 4, 6]
    advice = advise(Scorecard.new(), Dice.parse("12346"), rolls_left=2, table=official_table)
    ranks = {o.keep.faces: (i, o) for i, o in enumerate(advice.options) if o.keep is not None}
    assert held_detail(table)["text"].startswith("Hold dice by tapping them")
    # every one of the 32 ways to hold these dice, one tap apart (a Gray code)
    faces = [1, 2, 3, 4, 6]
    for k in range(1, 32):
        page.locator("#dice button").nth((k & -k).bit_length() - 1).tap()
        table.settle()
        gray = k ^ (k >> 1)
        keep = tuple(f for i, f in enumerate(faces) if gray >> i & 1)
        pressed = page.locator('#dice button[aria-pressed="true"]').count()
        assert pressed == len(keep)
        shown = held_detail(table)
        if len(keep) == 5:
            assert shown["text"].startswith("Holding all five dice ends the rolling")
            continue
        rank, option = ranks[keep]
        assert shown["what"] == f"Keep {' '.join(map(str, keep))}"
        assert shown["value"] == option.expected_final          # exactly advise's figure
        assert shown["ev"] == f"{option.expected_final:.2f}"
        # a positive loss, as `advise` prints it under "loss"
        assert shown["loss"] == ("best" if rank == 0 else f"{option.loss:.2f}")
        place = "best" if rank == 0 else ordinal(rank + 1)
        assert shown["rank"] == f"Held: the {place} of {len(advice.options)} choices."
        n = 5 - len(keep)
        spaced = " ".join(map(str, keep))
        assert shown["button"] == f"Keep {spaced}, reroll {n} {'die' if n == 1 else 'dice'}"
    # hold 2 3 4 6 (not the best here) and play it: what it cost, as the CLI says it
    for i in range(5):
        want = i > 0
        button = page.locator("#dice button").nth(i)
        if (button.get_attribute("aria-pressed") == "true") != want:
            button.tap()
            table.settle()
    rank, chosen = ranks[(2, 3, 4, 6)]
    assert rank > 0
    page.screenshot(path=str(screenshots / "web-390-held.png"))
    page.locator("#keep-held").tap()
    table.settle()
    assert table.state()["current"]["keeps"] == ["2346"] and table.kept() == 4
    note = f"Ann: {deviation_note(chosen, advice.options[0]).strip()}"
    assert page.inner_text("#cost-note") == note
    assert note.startswith(f"Ann: keep 2 3 4 6 costs {chosen.loss:.2f} points on average (best: ")
    # the note stays in view while the next roll is entered
    table.tap_dice([1])
    assert table.phase == "choose" and page.is_visible("#cost-note")
    assert page.inner_text("#cost-note") == note
    assert page.locator('#dice button[aria-pressed="true"]').count() == 4  # held still
    page.screenshot(path=str(screenshots / "web-390-cost.png"))
    # a box scored on the card that is not the best: its cost; the best choice: no note
    after = advise(Scorecard.new(), Dice.parse("12346"), rolls_left=1, table=official_table)
    aces = next(o for o in after.options if o.box == "aces")
    page.get_by_role("button", name="Score Aces 1").first.tap()
    table.settle()
    assert page.inner_text("#cost-note") == f"Ann: {deviation_note(aces, after.options[0]).strip()}"
    table.tap_dice([5, 5, 5, 5, 5])
    table.choose(0)
    assert not page.is_visible("#cost-note")
    assert table.errors == []
    context.close()


def test_a_wrong_die_is_corrected_by_tapping_it_without_undo(server, browser, official_table,
                                                             screenshots):
    table, context = phone(browser, server.url)
    page = table.page
    start_game(table)
    depth = undo_depth(table)
    # while entering: tap a die entered, then its right face
    table.tap_dice([2, 6])
    page.locator("#dice button").nth(1).tap()
    table.settle()
    table.tap_dice([5])
    assert table.phase == "roll" and dice_shown(table) == [2, 5]
    # the fifth die is not final: the advice shows, and a die tapped then a face fixes it
    table.tap_dice([2, 2, 6])
    assert table.phase == "choose" and table.state()["current"]["rolls"] == ["22256"]
    assert undo_depth(table) == depth + 1
    page.locator("#dice button").nth(4).tap()       # the 6 ...
    table.settle()
    page.locator('.face[data-face="3"]').tap()      # ... was a 3
    table.settle()
    assert table.state()["current"] == {"rolls": ["22235"], "keeps": []}
    assert undo_depth(table) == depth + 1           # no step to undo for the correction
    assert dice_shown(table) == [2, 2, 2, 5, 3]     # the die changed in its place
    assert table.options() == expected_options("", "22235", 2, official_table)[:8]
    assert page.locator('#dice button[aria-pressed="true"]').count() == 0
    page.screenshot(path=str(screenshots / "web-390-corrected.png"))
    # Backspace opens the roll again without its last die; the right face resubmits it
    page.locator("#backspace").tap()
    table.settle()
    assert table.phase == "roll" and table.state()["current"] == {"rolls": [], "keeps": []}
    assert dice_shown(table) == [2, 2, 2, 5] and undo_depth(table) == depth
    table.tap_dice([4])
    assert table.phase == "choose" and table.state()["current"]["rolls"] == ["22245"]
    # a kept die cannot change (undo the keep for that); a rerolled one can
    page.get_by_role("button", name="Keep 2 2 2:").first.tap()
    table.settle()
    table.tap_dice([6, 6])
    assert table.state()["current"] == {"rolls": ["22245", "22266"], "keeps": ["222"]}
    assert dice_shown(table) == [2, 2, 2, 6, 6]
    assert page.locator('#dice button[aria-pressed="true"]').count() == 3  # still held
    before = table.state()
    page.locator("#dice button").nth(0).tap()
    table.settle()
    page.locator('.face[data-face="5"]').tap()
    table.settle()
    assert "the dice must include the kept 2 2 2; to change those, undo the keep" in \
        page.inner_text("#roll-error")
    assert table.state() == before
    assert page.locator('#dice button[aria-pressed="true"]').count() == 3
    page.locator("#dice button").nth(3).tap()
    table.settle()
    page.locator('.face[data-face="2"]').tap()
    table.settle()
    assert table.state()["current"] == {"rolls": ["22245", "22226"], "keeps": ["222"]}
    assert not page.is_visible("#roll-error")
    assert table.options() == expected_options("", "22226", 1, official_table)[:8]
    # one Undo takes the corrected roll back (the corrections were no steps), the next the keep
    table.undo()
    assert table.phase == "roll" and table.state()["current"] == {"rolls": ["22245"],
                                                                  "keeps": ["222"]}
    table.undo()
    assert table.phase == "choose" and table.state()["current"] == {"rolls": ["22245"],
                                                                    "keeps": []}
    assert [e for e in table.errors if "Failed to load resource" not in e] == []
    context.close()


def in_view(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844 \
        and box["x"] >= 0 and box["x"] + box["width"] <= 390


def test_totals_and_leader_in_view_on_a_phone(server, browser, official_table, tmp_path,
                                              screenshots):
    table, context = phone(browser, server.url)
    page = table.page
    start_game(table, names=("Cy",))
    record = tmp_path / "game.txt"
    record.write_text(RECORD)
    page.set_input_files("#upload-file", str(record))
    table.settle()
    strip = page.inner_text("#scores").split()
    assert strip == ["Ann", "46", "Bob", "90", "Bob", "leads", "by", "44"]
    assert in_view(page, "#scores")
    table.tap_dice([6, 6, 6, 1, 1])
    assert table.phase == "choose" and in_view(page, "#scores")
    for y in (600, 100_000):       # scrolled down to the card: the totals stay in view
        page.evaluate(f"() => window.scrollTo(0, {y})")
        assert in_view(page, "#scores")
    assert page.locator("#card tr.sum td").all_inner_texts() == ["46", "90"]
    page.screenshot(path=str(screenshots / "web-390-scrolled.png"))
    # no keyboard hint on a phone
    assert not page.is_visible(".keys")
    assert table.errors == []
    context.close()


def test_keyboard_hint_only_with_a_keyboard_and_mouse(server, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    table = Table(page, server.url)
    start_game(table)
    assert page.is_visible(".keys")
    page.close()


def test_analysis_fits_or_visibly_scrolls_on_a_phone(server, browser, official_table, tmp_path,
                                                     screenshots):
    table, context = phone(browser, server.url)
    page = table.page
    start_game(table)
    record = tmp_path / "game.txt"
    record.write_text(RECORD)
    page.set_input_files("#upload-file", str(record))
    table.settle()
    page.click("#analyze")
    table.settle()
    page.click("#analysis-all summary")
    table.settle()
    whole_page(page, screenshots / "web-390-analysis.png")
    for table_id in ("analysis-players", "analysis-decisions"):
        box = page.locator(f"#{table_id}").locator("..")
        wide = box.evaluate("b => b.scrollWidth > b.clientWidth + 1")
        note = page.locator(f"#{table_id}").locator("xpath=../preceding-sibling::p[1]")
        assert note.get_attribute("class") == "scroll-note"
        assert note.is_visible() == wide
        assert ("overflows" in box.get_attribute("class")) == wide
        last = page.locator(f"#{table_id} thead th").last
        assert last.inner_text() == "Luck"
        if wide:   # the column is reached by scrolling the table sideways
            box.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
        right = last.bounding_box()
        assert right["x"] + right["width"] <= 390, table_id
    # the players' table itself fits a 390 px screen
    assert not page.locator("#analysis-players").locator("..").evaluate(
        "b => b.scrollWidth > b.clientWidth + 1")
    assert table.errors == []
    context.close()
