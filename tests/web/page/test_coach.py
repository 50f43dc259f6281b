"""The coach on a phone (headless Chromium, 390 px, touch): the "why" of a choice as
`advise --why` gives it, and the Practice view graded as `advise` grades each answer and
summed up as `yahtzee train --json`; screenshots in build/screenshots/."""

from __future__ import annotations

import json

from click.testing import CliRunner

from advisor.cli import cli
from advisor.model import Dice, Scorecard, box_label
from advisor.ranking import advise
from advisor.train import Position, advice_of, positions_of_play
from tests.web.page.test_browser import phone, start_game

PRACTICE_STORE = "yahtzee-practice-v1"


def pct(p: float) -> str:
    """The page's way of writing a probability: never 100 % or 0 % unless exact."""
    if p >= 1 - 1e-12:
        return "100%"
    if p >= 0.9995:
        return ">99.9%"
    if p >= 0.995:
        return f"{100 * p:.1f}%"
    if p >= 0.095:
        return f"{100 * p:.0f}%"
    if p >= 0.0005:
        return f"{100 * p:.1f}%"
    return "<0.1%" if p > 0 else "0%"


def why_text(option) -> list[str]:
    """The three lines the page shows for an option's outcome."""
    o = option.outcome
    likely = sorted(((p, b) for b, p in o.boxes if p > 5e-5), reverse=True)
    parts = [f"{box_label(b)} {pct(p)}" for p, b in likely[:4]]
    rest = sum(p for p, _ in likely[4:])
    if rest > 0:
        parts.append(f"other boxes {pct(rest)}")
    return [f"This turn: {', '.join(parts)}",
            f"By the end: upper bonus {pct(o.upper_bonus)} · 50 in the Yahtzee box "
            f"{pct(o.yahtzee_50)} · Yahtzee bonuses {o.yahtzee_bonuses:.2f}",
            f"Final score: {option.expected_final:.2f} on average, give or take {o.sd:.1f} "
            f"points (SD)"]


def test_the_why_of_a_choice_on_a_phone(server, browser, official_table, official_moments,
                                        screenshots):
    table, context = phone(browser, server.url)
    page = table.page
    start_game(table)
    table.tap_dice([2, 2, 2, 5, 6])
    assert table.phase == "choose"
    advice = advise(Scorecard.new(), Dice("22256"), rolls_left=2, table=official_table,
                    why=True)
    # the "?" of the second choice: its outcome in the detail area, exactly advise --why's
    page.locator("#options .why-button").nth(1).tap()
    page.wait_for_selector("#option-detail .why", timeout=120_000)
    second = advice.options[1]
    lines = page.locator("#option-detail .why p").all_inner_texts()
    assert lines == why_text(second)
    assert page.inner_text("#option-detail .held-row .what") == "Keep 2 2 2 5"
    assert page.locator("#options li.asked").count() == 1
    page.screenshot(path=str(screenshots / "web-390-why.png"))
    # every choice's "?" shows its own figures
    for i in (0, 4, len(advice.options) - 1 if len(advice.options) <= 8 else 7):
        page.locator("#options .why-button").nth(i).tap()
        page.wait_for_selector("#option-detail .why")
        assert page.locator("#option-detail .why p").all_inner_texts() == \
            why_text(advice.options[i])
    # dice held: the held keep's figures under its value
    page.locator("#option-detail button.link").tap()
    for i in range(3):
        page.locator("#dice button").nth(i).tap()
    page.wait_for_selector("#option-detail .why")
    assert page.locator("#option-detail .why p").all_inner_texts() == why_text(advice.options[0])
    # taking a choice from its detail plays it
    page.locator("#options .why-button").nth(1).tap()
    page.wait_for_selector("#take-why")
    page.locator("#take-why").tap()
    table.settle()
    assert table.state()["current"]["keeps"] == ["2225"]
    assert table.errors == []
    context.close()


def test_practice_is_graded_as_advise_and_summed_up_as_train(server, browser, official_table,
                                                            official_moments, screenshots, memory):
    table, context = phone(browser, server.url)
    page = table.page
    page.evaluate("() => localStorage.clear()")
    page.reload()
    table.settle()
    page.locator("#view-practice").tap()
    table.settle()
    assert table.phase == "practice" and page.is_visible("#practice-form")
    page.fill("#practice-count", "4")
    page.fill("#practice-seed", "5")
    page.screenshot(path=str(screenshots / "web-390-practice-form.png"))
    page.locator("#practice-start").tap()
    table.settle()
    positions = positions_of_play(official_table, 4, 5)
    answers = []
    for i, position in enumerate(positions):
        where = page.inner_text("#practice-where")
        assert where.startswith(f"Position {i + 1} of 4 · turn {position.card.turn} of 13 · "
                                f"total {position.card.total}")
        assert page.inner_text("#practice-card") == card_summary(position.card)
        shown = [int(t.split(",")[0]) for t in page.locator("#practice-dice button")
                 .evaluate_all("bs => bs.map(b => b.ariaLabel)")]
        assert shown == list(position.dice.faces)
        if i == 0:
            page.screenshot(path=str(screenshots / "web-390-practice.png"))
        text = answer_position(page, position, i)
        answers.append(text)
        page.wait_for_selector("#practice-grade:not([hidden])")
        table.settle()
        grade = graded(page)
        advice = advice_of(position, official_table, memory=memory)
        chosen = next(o for o in advice.options if o.move.__str__() == text or
                      o.describe() == text)
        best = advice.best
        if chosen.loss > 1e-9:
            assert grade["verdict"] == (f"{cap(chosen.describe())} costs {chosen.loss:.2f} points "
                                        f"on average. Best: {best.describe()}.")
        else:
            assert grade["verdict"] == f"{cap(chosen.describe())}: the best choice."
        stored = json.loads(page.evaluate(f"() => localStorage.getItem('{PRACTICE_STORE}')"))
        assert stored["grades"][i]["loss"] == chosen.loss   # exactly advise's loss
        if i == 1:
            page.screenshot(path=str(screenshots / "web-390-practice-grade.png"))
        page.locator("#practice-next").tap()
        table.settle()
    page.wait_for_selector("#practice-summary:not([hidden])")
    run = CliRunner().invoke(cli, ["train", "--seed", "5", "--positions", "4", "--json",
                                   "--no-history"], input="".join(f"{a}\n" for a in answers))
    assert run.exit_code == 0, run.output
    session = json.loads(run.stdout)
    mean = page.inner_text("#practice-mean")
    assert f"mean loss {session['mean_loss']:.3f} points per decision" in mean
    rows = page.locator("#practice-kinds tbody tr").all_inner_texts()
    assert len(rows) == len(session["kinds"])
    page.screenshot(path=str(screenshots / "web-390-practice-summary.png"))
    assert table.errors == []
    context.close()


def card_summary(card: Scorecard) -> str:
    """The practice page's line about the card, from the entries and the rule book."""
    boxes = card.rules.boxes
    filled = [f"{box_label(b.name)} {e}" for b, e in zip(boxes, card.entries, strict=True)
              if e is not None]
    still_open = [box_label(b.name) for b, e in zip(boxes, card.entries, strict=True)
                  if e is None]
    upper = sum(e or 0 for b, e in zip(boxes, card.entries, strict=True) if b.is_upper)
    if upper >= 63:  # every figure of the total listed (official rules: 35 and 100)
        filled.append("Upper bonus 35")
    if card.yahtzee_bonuses:
        filled.append(f"Yahtzee bonus{'es' if card.yahtzee_bonuses > 1 else ''} "
                      f"{100 * card.yahtzee_bonuses}")
    return ((f"Filled: {', '.join(filled)}." if filled else "A new game.")
            + f" Open: {', '.join(still_open)}."
            + ("" if upper >= 63 else f" Upper {upper} of 63."))


def cap(text: str) -> str:
    return text[0].upper() + text[1:]


def graded(page) -> dict:
    return {"verdict": page.inner_text("#practice-verdict"),
            "why": page.locator("#practice-why .why p").all_inner_texts()}


def start_practice(table, count: int, seed: int, stored: dict[str, str] | None = None) -> None:
    """Open the Practice view with nothing in the browser's storage but ``stored`` (key ->
    text), and start a session of ``count`` positions from ``seed``."""
    page = table.page
    page.evaluate("() => localStorage.clear()")
    for key, text in (stored or {}).items():
        page.evaluate("(kv) => localStorage.setItem(kv[0], kv[1])", [key, text])
    page.reload()
    table.settle()
    page.locator("#view-practice").tap()
    table.settle()
    page.fill("#practice-count", str(count))
    page.fill("#practice-seed", str(seed))
    page.locator("#practice-start").tap()
    table.settle()


def answer_position(page, position: Position, i: int) -> str:
    """Answer position ``i``: hold the first die and keep it when rolls are left (even
    positions), else the first box offered; returns the answer as the page sends it."""
    if position.rolls_left > 0 and i % 2 == 0:
        page.locator("#practice-dice button").nth(0).tap()
        page.locator("#practice-keep").tap()
        return f"keep {position.dice.faces[0]}"
    first = page.locator("#practice-boxes button").nth(0)
    label = first.inner_text()
    first.tap()
    return f"score {label}"
