"""The page under each objective (advisor/web/static/objective.js answers for each one):
on a phone (390 px), a record noted as played for the expected score, a target, the
chance to win against an opponent's card and a tournament, at a late card (a turn solved
in a moment). The choices' title, the chance column's heading and tooltip, every option's
figures in their units (a chance and its loss in percentage points, or points), the
turn's status line and the cost of a worse choice, each against ``yahtzee advise --json``
of the same objective and the words the page has always shown."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from advisor.cli import cli
from tests.web.page.test_browser import LATE_RECORD, PHONE, Table, percent, whole_page
from tests.web.page.test_tournament import LATE, field_known  # noqa: F401  (a fixture)

DICE = "12346"


class Case:
    """One objective: its record note, its ``advise`` options, what the page says of it."""

    def __init__(self, name: str, note: str, options: list[str], title: str, header: str,
                 key: str | None, tooltip: str | None, words: str | None) -> None:
        self.name, self.note, self.options = name, note, options
        self.title, self.header, self.key = title, header, key
        self.tooltip, self.words = tooltip, words


CASES = [
    Case("ev", "", [], "Your choices, best first", "chance", None, None, None),
    Case("target", '{"kind": "target", "target": 230}', ["--target", "230"],
         "Your choices, best chance of 230+ first", "chance", "p_target", None,
         "the chance of 230 or more"),
    Case("win", json.dumps({"kind": "win", "opponent": LATE}), ["--opponent", LATE],
         "Your choices, best chance to win first (a tie counts as half)", "chance", "win_share",
         "chance to win (a tie counts as half)", "the chance to win"),
    Case("tournament", '{"kind": "tournament", "players": 10, "field": "optimal"}',
         ["--tournament", "10"],
         "Your choices, best share of first place among 10 players first", "share of 1st",
         "win_share", "the share of first place among 10 players (a tie shared)",
         "the share of first place among 10 players"),
]


def advised(case: Case) -> list[dict]:
    """Every option of ``yahtzee advise DICE --card LATE ... --top 0 --json``."""
    result = CliRunner().invoke(cli, ["advise", DICE, "--card", LATE, *case.options,
                                      "--top", "0", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["options"]


def figures(option: dict, key: str | None) -> tuple[str, str, str, str]:
    """(chance, expected final, loss) cells and the label's figures of ``option``, as the
    page has always written them: a chance ranks in percentage points, points otherwise."""
    ev = f"{option['expected_final']:.2f}"
    if key is None:
        lost, unit, words = option["loss"], "", ""
        chance, said = "", ""
    else:
        lost, unit, words = 100 * option["p_loss"], " pp", " percentage points"
        chance = percent(option[key])
        said = f"chance {chance}, "
    loss = f"{lost:.2f}{unit}" if lost > 0 else "best"
    label = said + f"expected final {ev}, " + (f"loses {lost:.2f}{words}" if lost > 0
                                               else "the best choice")
    return chance, ev, loss, label


def phrase(option: dict, labels: dict[str, str]) -> str:
    """The CLI's words for an option: "keep 1 2 3 4", "score Small Straight 30"."""
    if option["action"] == "keep":
        return f"keep {' '.join(map(str, option['keep']))}" if option["keep"] else "reroll all"
    return f"score {labels[option['box']]} {option['points']}"


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_page_shows_each_objectives_columns_labels_and_units(
        server, browser, screenshots, tmp_path, field_known, case):  # noqa: F811
    context = browser.new_context(**PHONE)
    page = context.new_page()
    table = Table(page, server.url)
    record = tmp_path / "late.txt"
    record.write_text((f"# objective: {case.note}\n" if case.note else "") + LATE_RECORD)
    page.set_input_files("#upload-file", str(record))
    table.settle()
    assert table.state()["cards"]["Solo"] == LATE
    table.tap_dice([int(d) for d in DICE])
    if case.key is not None:  # ranked by the chance once the turn's solve is done
        page.wait_for_selector("body[data-chase='ready']", state="attached", timeout=120_000)
        page.wait_for_selector("#advice.with-chance")
    else:
        assert page.get_attribute("body", "data-chase") == "off"
        assert not page.is_visible("#chase")
    assert ("with-chance" in (page.get_attribute("#advice", "class") or "").split()) == \
        (case.key is not None)
    assert page.inner_text("#advice-title") == case.title
    assert page.inner_text("#advice .options-head .chance") == case.header
    if page.is_visible("#more-options"):
        page.click("#more-options")
    expected = advised(case)
    rows = page.locator("#options button.take")
    assert rows.count() == len(expected)
    cells = [rows.nth(i).locator(".chance, .ev, .loss").all_inner_texts()
             for i in range(len(expected))]
    labels = [rows.nth(i).get_attribute("aria-label").split(": ", 1)[1]
              for i in range(len(expected))]
    tooltips = rows.locator(".chance").evaluate_all("els => els.map(e => e.getAttribute('title'))")
    wanted = [figures(o, case.key) for o in expected]
    assert cells == [[c, e, lo] for c, e, lo, _ in wanted]
    assert labels == [label for *_, label in wanted]
    assert tooltips == [case.tooltip] * len(expected)
    status = page.inner_text("#chase-status") if case.key is not None else None
    assert status is None or status.startswith(f"Ranked by {case.words}"), status
    whole_page(page, screenshots / f"web-390-objective-{case.name}.png")
    # a worse choice: its cost in the objective's unit
    box_labels = {b["name"]: b["label"]
                  for b in page.evaluate("() => fetch('/api/rules').then(r => r.json())")["boxes"]}
    figure = case.key or "expected_final"
    best = expected[0]
    worse = min(range(len(expected)), key=lambda i: expected[i][figure])
    rows.nth(worse).click()
    table.settle()
    chosen = expected[worse]
    said, best_said = phrase(chosen, box_labels), phrase(best, box_labels)
    if case.key is None:
        cost = f"{said} costs {chosen['loss']:.2f} points on average (best: {best_said})"
    else:
        lost = 100 * (best[case.key] - chosen[case.key])
        cost = (f"{said} costs {lost:.2f} percentage points of {case.words} "
                f"({percent(best[case.key])} to {percent(chosen[case.key])}; best: "
                f"{best_said}; {chosen['loss']:.2f} points on average)")
    note = page.inner_text("#cost-note")
    assert note == cost[0].upper() + cost[1:], note
    assert table.errors == []
    context.close()


def test_a_big_tournaments_shares_show_as_many_decimals_as_their_losses(server, browser):
    """Among 10,000 players a share of first place is about 0.01 %: the page's objective
    (as GET /api/objective describes it) writes losses with 4 decimals of a percentage
    point and the shares beside them with as many (0.0073 %, not 0.01 % for every choice);
    under a chance to win, as always (53.4 %, losses with 2)."""
    page = browser.new_page()
    page.goto(server.url)
    got = page.evaluate("""async () => {
      const { objectiveOf } = await import("./static/objective.js");
      const { chanceText } = await import("./static/words.js");
      const said = async (query) => {
        const info = await fetch(`/api/objective?${query}`).then((r) => r.json());
        const objective = objectiveOf({ ...info.objective, params: info.params, info });
        const digits = objective.lossDecimals;
        return [digits, chanceText(0.0000734, digits), chanceText(0.534367, digits),
                (100 * 0.0000213).toFixed(digits)];
      };
      return [await said("tournament=10000"), await said("tournament=10"),
              await said("target=250")];
    }""")
    assert got == [[4, "0.0073%", "53.4367%", "0.0021"], [2, "0.01%", "53.4%", "0.00"],
                   [2, "0.01%", "53.4%", "0.00"]]
    page.close()
