"""The page's own parsers (a static site's ``static/local.js``, ``local_record.js`` and
``engine.js``) accept exactly what the Python parser accepts: scorecards (Yahtzee bonus
counts below 0, beyond any game, or beyond what the boxes allow; entries that cannot
occur; repeated keys), rule set names (``constructor``, ``__proto__`` and the other
names every JavaScript object has are no rule set) and records naming them. Each case's
verdict, and the total of a card accepted, against ``Scorecard.parse`` / ``get_rules``
/ ``parse_record``, in node and in headless Chromium; a refusal is the page's own error
(``LocalError``), never a TypeError."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from advisor.model import Scorecard
from advisor.record import parse_record
from advisor.rules_info import rules_json
from solver.errors import YahtzeeError
from solver.game.rules import RULE_NAMES, get_rules
from tests.web.test_engine import random_card

STATIC = Path(__file__).resolve().parents[2] / "advisor" / "web" / "static"
CHECK = Path(__file__).resolve().parent / "js"
OBJECT_NAMES = ("constructor", "__proto__", "toString", "hasOwnProperty", "valueOf",
                "isPrototypeOf", "__defineGetter__", "propertyIsEnumerable")
"""Names every JavaScript object answers to (Object.prototype's)."""


def card_cases(rng: random.Random) -> list[dict]:
    """Cards of every rule set: reached by play, with their bonus count replaced by every
    count from -5 to two past the most the boxes hold, 9999 and 10000; typed oddities."""
    cases = []
    for name in RULE_NAMES:
        rules = get_rules(name)
        for _ in range(25):
            card = random_card(rules, rng)
            base = ",".join(p for p in str(card).split(",") if p and "bonus" not in p)
            filled = sum(e is not None for e in card.entries)
            for n in (-5, -1, *range(0, filled + 2), 9999, 10000):
                cases.append({"kind": "card", "rules": name,
                              "text": f"{base},yahtzee_bonus={n}" if base else
                              f"yahtzee_bonus={n}"})
        y = rules.boxes[rules.yahtzee_box].name
        for text in (f"{y}=50,yahtzee_bonus=-5", f"{y}=50,yahtzee_bonus=9999",
                     f"{y}=50,aces=5,yahtzee_bonus=1", f"{y}=50,sixes=30,yahtzee_bonus=1",
                     f"{y}=50,chance=30,yahtzee_bonus=1",
                     f"{y}=50,aces=5,yahtzee_bonus=1,yahtzee_bonus=1",
                     f"{y}=0,aces=5,yahtzee_bonus=1", "twos=6,,fours=12", "twos=6,",
                     " twos = 6 ", "twos=06", "twos=-0", "twos=7", "chance=9999",
                     "chance=-5", "twos=6=6", "twos", "=6", "twos=6,twos=6",
                     *(f"{o}=5" for o in OBJECT_NAMES)):
            cases.append({"kind": "card", "rules": name, "text": text})
    return cases


def rules_cases() -> list[dict]:
    names = [*OBJECT_NAMES, "OFFICIAL", "Free_Joker", " yatzy ", "no_bonus", "nobonus",
             "two-rolls", "official "]
    return [{"kind": "rules", "name": n} for n in names]


def record_cases() -> list[dict]:
    texts = [f"rules {o}\nAnn: 22256 twos\n" for o in OBJECT_NAMES]
    texts += [json.dumps({"rules": o, "players": ["Ann"], "turns": []}) for o in OBJECT_NAMES]
    texts += ["players constructor,toString\nconstructor: 22256 twos\ntoString: 12345 ls\n",
              "players __proto__,valueOf\n__proto__: 66666 yahtzee\nvalueOf: 12345 ls\n"
              "__proto__: 66666 sixes\n",
              "players hasOwnProperty\nconstructor: 22256 twos\n",
              json.dumps({"rules": "official", "players": ["__proto__"],
                          "turns": [{"player": "__proto__", "rolls": ["22256"], "keeps": [],
                                     "box": "twos"}]})]
    return [{"kind": "record", "text": t} for t in texts]


def python_verdict(case: dict) -> dict:
    try:
        if case["kind"] == "card":
            card = Scorecard.parse(case["text"], case["rules"])
            return {"total": card.total}
        if case["kind"] == "rules":
            return {"name": get_rules(case["name"]).name}
        record = parse_record(case["text"])
        return {"totals": [[p, c.total] for p, c in record.cards().items()]}
    except YahtzeeError:
        return {"refused": True}


@pytest.fixture(scope="module")
def cases(tmp_path_factory) -> tuple[Path, list[dict]]:
    folder = tmp_path_factory.mktemp("cards")
    found = card_cases(random.Random(8)) + rules_cases() + record_cases()
    site = {"kind": "yahtzee-site", "default": "official",
            "rules": {n: {"info": rules_json(n)} for n in RULE_NAMES}}
    (folder / "site.json").write_text(json.dumps(site))
    (folder / "cases.json").write_text(json.dumps(found))
    return folder, found


def assert_same_verdicts(found: list[dict], answers: list[dict]) -> None:
    assert len(answers) == len(found)
    wrong = []
    for case, mine in zip(found, answers, strict=True):
        want = python_verdict(case)
        if "refused" in mine:
            assert mine["type"] == "LocalError", (case, mine)  # never a TypeError
            mine = {"refused": True}
        if mine != want:
            wrong.append((case, mine, want))
    assert wrong == []
    refused = sum("refused" in a for a in answers)
    assert refused > 150 and len(found) - refused > 150  # both verdicts, many of each
    accepted_bonuses = sum("refused" not in a and c["kind"] == "card" and
                           "yahtzee_bonus=0" not in c["text"] and "yahtzee_bonus=" in c["text"]
                           for c, a in zip(found, answers, strict=True))
    assert accepted_bonuses > 20  # cards with bonuses, not only refusals


def test_the_pages_parsers_in_node_give_the_python_verdict(cases):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (apt-get install nodejs)")
    folder, found = cases
    run = subprocess.run([node, str(CHECK / "card_check_node.mjs"), str(STATIC),
                          str(folder / "site.json"), str(folder / "cases.json")],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert_same_verdicts(found, json.loads(run.stdout))


def test_the_pages_parsers_in_chromium_give_the_python_verdict(cases, browser):
    folder, found = cases

    def answer(route) -> None:
        name = route.request.url.rsplit("/", 1)[1]
        path = {"card_check.mjs": CHECK / "card_check.mjs", "site.json": folder / "site.json",
                "cases.json": folder / "cases.json"}.get(name, STATIC / name)
        route.fulfill(status=200, path=str(path), content_type="application/json"
                      if name.endswith(".json") else "text/javascript")

    page = browser.new_page()
    page.route("http://cards.test/**", answer)
    page.goto("http://cards.test/site.json")
    answers = page.evaluate("""async () => {
      const local = await import("/local.js");
      await local.detectSite();
      const { verdicts } = await import("/card_check.mjs");
      return verdicts(local, await (await fetch("/cases.json")).json());
    }""")
    page.close()
    assert_same_verdicts(found, answers)


ADVISE_REFUSED = (  # GET /api/advise questions the server refuses (400)
    {"top": "-1"}, {"top": "abc"}, {"top": "1.5"}, {"top": "+3"}, {"top": ""},
    {"rolls_left": "-1"}, {"rolls_left": "3"}, {"rolls_left": "x"}, {"rolls_left": "1.0"},
    {"dice": "2225"}, {"dice": "22257"}, {"dice": "abcde"},
    {"card": "yahtzee=50,yahtzee_bonus=-5"}, {"card": "yahtzee=50,yahtzee_bonus=9999"},
    {"rules": "constructor"}, {"rules": "__proto__"}, {"card": "constructor=5"},
)


def test_advice_questions_the_server_refuses_are_refused_by_the_page(server, cases):
    """Each question refused by the server (HTTP 400) is refused by the page's own
    answer before any table is read, with its own error."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (apt-get install nodejs)")
    folder, _ = cases
    asked = [{"dice": "22256", **q} for q in ADVISE_REFUSED]
    for params in asked:
        status, _ = server.get("/api/advise", params)
        assert status == 400, params
    (folder / "advise.json").write_text(json.dumps([{"kind": "advise", "params": p}
                                                   for p in asked]))
    run = subprocess.run([node, str(CHECK / "card_check_node.mjs"), str(STATIC),
                          str(folder / "site.json"), str(folder / "advise.json")],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    for params, mine in zip(asked, json.loads(run.stdout), strict=True):
        assert mine.get("type") == "LocalError" and "table" not in mine["refused"], (
            params, mine)
