"""One rule book, checked twice: the page's JavaScript engine (``advisor/web/static/
engine.js``, the advice of a static site) against the Python advisor.

Random positions of every rule set (cards reached by random play, so Joker turns and
Yahtzee bonuses occur; random dice, five alike more often than by chance; random rolls
left): every option the Python advisor lists, in its order, with its expected final score
and loss within 1e-12; the rule book's score and Joker tables equal; sampled states of
the site's table file equal to the solved table, and each one's turn computed in
JavaScript averaging back to it. Run in node and in headless Chromium, on the same cases
(``js/engine_check.mjs``).
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from advisor.model import Dice, Scorecard
from advisor.ranking import TurnAdvisor
from solver.formats.webtable import web_table_bytes
from solver.game.rules import RULE_NAMES, get_rules

ENGINE = Path(__file__).resolve().parents[2] / "advisor" / "web" / "static" / "engine.js"
CHECK = Path(__file__).resolve().parent / "js"
POSITIONS = 500
"""Positions per rule set (2,500 in all)."""
STATES = 60
"""Sampled states per rule set whose value and turn are checked."""


def random_card(rules, rng: random.Random) -> Scorecard:
    """A card reached by random play: random dice (five alike one time in six), each put
    in a random box the rules allow (the Joker applied, bonuses earned)."""
    card = Scorecard.new(rules.name)
    for _ in range(rng.randrange(rules.n_boxes)):
        faces = random_dice(rng)
        box, points, bonus = rng.choice(card.placements(faces))
        card = card.placed(box, points, bonus)
    return card


def random_dice(rng: random.Random) -> list[int]:
    if rng.random() < 1 / 6:
        return [rng.randint(1, 6)] * 5
    return [rng.randint(1, 6) for _ in range(5)]


def rule_cases(table, rng: random.Random) -> dict:
    """The cases of one rule set: its tables, sampled states, positions with their advice."""
    rules = table.rules
    positions = []
    for _ in range(POSITIONS):
        card = random_card(rules, rng)
        faces = random_dice(rng)
        rolls_left = rng.randrange(rules.rolls_per_turn)
        advice = TurnAdvisor(card, table).advise(Dice(tuple(faces)), rolls_left)
        positions.append({"card": str(card), "entries": list(card.entries),
                          "bonuses": card.yahtzee_bonuses, "dice": faces,
                          "rolls_left": rolls_left,
                          "options": [o.to_json() for o in advice.options]})
    reachable = np.argwhere(~np.isnan(table.values))
    sample = reachable[rng.sample(range(len(reachable)), STATES)].tolist() + [[0, 0, 0]]
    return {"boxes": [b.name for b in rules.boxes],
            "scores": rules.scores.T.tolist(), "joker_tier": rules.joker_tier.tolist(),
            "joker_points": rules.joker_points.tolist(),
            "states": [[m, u, y, float(table.values[m, u, y])] for m, u, y in sample],
            "positions": positions}


@pytest.fixture(scope="module")
def cases(table_of, tmp_path_factory) -> Path:
    """A folder with ``cases.json`` and each rule set's site table file."""
    folder = tmp_path_factory.mktemp("engine")
    rng = random.Random(36)
    found = {}
    for name in RULE_NAMES:
        table = table_of(name)
        (folder / f"{name}.f64planes").write_bytes(web_table_bytes(table))
        found[name] = rule_cases(table, rng)
    (folder / "cases.json").write_text(json.dumps(found))
    return folder


def assert_checked(result: dict) -> None:
    assert result["mismatches"] == []
    assert result["positions"] == POSITIONS * len(RULE_NAMES)
    assert result["options"] > 10 * result["positions"]  # keeps and boxes, not a few
    assert result["states"] == (STATES + 1) * len(RULE_NAMES)


def test_engine_in_node_gives_the_python_advice(cases):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (apt-get install nodejs)")
    run = subprocess.run([node, str(CHECK / "engine_check_node.mjs"), str(ENGINE),
                          str(cases / "cases.json"), str(cases)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert_checked(json.loads(run.stdout))


def test_engine_in_chromium_gives_the_python_advice(cases, browser):
    files = {"engine.js": ENGINE, "engine_check.mjs": CHECK / "engine_check.mjs",
             "cases.json": cases / "cases.json"}
    files.update({f"{name}.f64planes": cases / f"{name}.f64planes" for name in RULE_NAMES})
    page = browser.new_page()
    page.route("http://engine.test/**", lambda route: route.fulfill(
        status=200, path=str(files[route.request.url.rsplit("/", 1)[1]]),
        content_type="text/javascript" if route.request.url.endswith("js") else
        "application/octet-stream"))
    page.goto("http://engine.test/engine.js")
    result = page.evaluate("""async (names) => {
      const engine = await import("/engine.js");
      const { check } = await import("/engine_check.mjs");
      const cases = await (await fetch("/cases.json")).json();
      const tables = {};
      for (const name of names) {
        const answer = await fetch(`/${name}.f64planes`);
        tables[name] = new Uint8Array(await answer.arrayBuffer());
      }
      return check(engine, cases, tables);
    }""", list(RULE_NAMES))
    page.close()
    assert_checked(result)


def test_rule_sets_of_the_engine_are_the_rule_sets_of_the_solver():
    """The engine's rule book names every rule set the solver has (and no other)."""
    text = ENGINE.read_text(encoding="utf-8")
    book = text[text.index("export const RULE_BOOK"):text.index("};", text.index(
        "export const RULE_BOOK"))]
    named = [line.strip().split(":")[0].strip('"') for line in book.splitlines()[1:]]
    assert named == list(RULE_NAMES)
    assert all(get_rules(n) for n in named)


def test_engine_refuses_a_table_file_of_any_other_size():
    """The site's table file has no header: its size is its only check. Exactly the
    stored states of the rule set (counted here by the Python writer's rule) are read;
    one value more or less, or another rule set's file, is refused with the command that
    builds the site again."""
    from solver.formats.webtable import stored_states

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (apt-get install nodejs)")
    counts = {name: int(stored_states(get_rules(name)).sum()) for name in RULE_NAMES}
    script = """
      const engine = await import(process.argv[1]);
      const counts = JSON.parse(process.argv[2]);
      const out = {};
      for (const [name, n] of Object.entries(counts)) {
        const rules = engine.getRules(name);
        out[name] = {};
        const sizes = { at: 8 * n, under: 8 * (n - 1), over: 8 * (n + 1), byte: 8 * n + 1 };
        for (const [other, m] of Object.entries(counts)) if (m !== n) sizes[other] = 8 * m;
        for (const [what, size] of Object.entries(sizes)) {
          try {
            const table = new engine.Table(rules, new Uint8Array(size));
            out[name][what] = table.values.length;
          } catch (err) {
            out[name][what] = err.message;
          }
        }
      }
      process.stdout.write(JSON.stringify(out));
    """
    run = subprocess.run([node, "--input-type=module", "-e", script, "--",
                          ENGINE.as_uri(), json.dumps(counts)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout)
    for name, n in counts.items():
        assert found[name].pop("at") == n
        assert found[name], name  # sizes of other files were tried
        for what, answer in found[name].items():
            assert isinstance(answer, str) and answer.startswith(
                f"the {name} table file holds ") and answer.endswith(
                f"not {8 * n} ({n} states): build the site again with yahtzee site"), \
                (name, what, answer)
