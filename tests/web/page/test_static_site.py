"""The page as a static site (``yahtzee site``) on a plain static server, in headless
Chromium on a 390 px phone: a two-player game from turn 1 to the end (every list of
choices shown equal to the Python advisor's), the record saved and read back, the review
(every decision's loss and luck equal to ``analyze``'s) and practice (every grade equal to
``train``'s); then with the network off, after a reload, all of it again from the
service worker's copy. Screenshots in build/screenshots/web-390-site-*.png."""

from __future__ import annotations

import functools
import json
import random
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest

from advisor.analysis import analyze
from advisor.caches import Caches
from advisor.model import Dice, Keep, Scorecard
from advisor.ranking import advise
from advisor.record import parse_record
from advisor.request.page import read_noted_record, record_json
from advisor.site import build_site
from advisor.train import Position, grade
from solver.errors import InvalidRecordError, ObjectiveError
from solver.game.rules import get_rules
from tests.web.page.test_browser import PHONE, Table, held_detail, play_turn, start_game, whole_page

PLAYERS = ("Ann", "Bob")


class SiteServer(ThreadingHTTPServer):
    """A static server that can be taken off the network: while ``down`` it answers no
    request (each connection is closed unread, as by a host that has gone away) and
    counts the attempts in ``refused``; ``answered`` counts the requests it served."""

    down = False
    answered = 0
    refused = 0

    def finish_request(self, request, client_address) -> None:
        if self.down:
            self.refused += 1
            return  # closed by the caller without a byte read or written
        self.answered += 1
        super().finish_request(request, client_address)


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # noqa: D102 (the test's output stays clean)
        pass


@pytest.fixture(scope="module")
def site_server(official_table, tmp_path_factory):
    """The site of the official rules on a static server (Python's http.server)."""
    out = tmp_path_factory.mktemp("static") / "site"
    build_site(out, ["official"], table_of=lambda name: official_table)
    server = SiteServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(out)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    thread.join(10)
    server.server_close()


@pytest.fixture(scope="module")
def site_url(site_server):
    return f"http://127.0.0.1:{site_server.server_address[1]}/"


def play_game(table: Table, rng: random.Random, official_table) -> None:
    """Both players' cards from turn 1 to full: random dice, the choices shown checked
    against the Python advisor's, the best one taken mostly (the second now and then, so
    the review has losses)."""
    while table.phase != "over":
        play_turn(table, rng, official_table, check=True,
                  pick=lambda shown: 1 if shown > 1 and rng.random() < 0.2 else 0)


def check_review(table: Table, record, official_table) -> None:
    """The review shown: drawn from the page's own analysis, which equals ``analyze``'s."""
    page = table.page
    page.click("#analyze")
    table.settle()
    page.wait_for_selector("#analysis:not([hidden])")
    mine = page.evaluate("""async (text) => {
      const local = await import("./static/local.js");
      return local.post("/api/analyze", text);
    }""", str(record))
    want = analyze(record, table=official_table).to_json()
    assert len(mine["decisions"]) == len(want["decisions"]) > 26
    for got, exp in zip(mine["decisions"], want["decisions"], strict=True):
        assert (got["player"], got["turn"], got["rolls_left"], got["dice"]) == \
            (exp["player"], exp["turn"], exp["rolls_left"], exp["dice"])
        assert got["chosen"]["action"] == exp["chosen"]["action"]
        assert got["best"].get("box") == exp["best"].get("box")
        assert got["best"].get("keep") == exp["best"].get("keep")
        assert got["loss"] == pytest.approx(exp["loss"], abs=1e-9)
        assert got["luck"] == pytest.approx(exp["luck"], abs=1e-9)
    for got, exp in zip(mine["players"], want["players"], strict=True):
        assert got["name"] == exp["name"]
        for key in ("decisions", "errors", "keep_decisions", "box_decisions"):
            assert got[key] == exp[key], key
        for key in ("total_loss", "keep_loss", "box_loss", "luck"):
            assert got[key] == pytest.approx(exp[key], abs=1e-9), key
        # the worst: the three largest errors of the player's decisions, largest first
        errors = sorted((d["loss"] for d in want["decisions"]
                         if d["player"] == exp["name"] and d["loss"] > 1e-9), reverse=True)
        assert len(errors) > 3
        assert [d["loss"] for d in got["worst"]] == pytest.approx(errors[:3], abs=1e-9)
        assert [(d["turn"], d["rolls_left"]) for d in got["worst"]] == \
            [(d["turn"], d["rolls_left"]) for d in exp["worst"]]
    rows = page.locator("#analysis-players tr").all_inner_texts()
    for p in want["players"]:
        row = next(r for r in rows if r.startswith(p["name"]))
        assert str(p["total"]) in row and f"{p['total_loss']:.2f}" in row


def check_practice(table: Table, official_table) -> list[float]:
    """Three positions answered (a box, or the first die held and kept), each grade equal
    to ``train``'s grade of the same position and answer; the summary shown."""
    page = table.page
    page.locator("#view-practice").tap()
    table.settle()
    if page.is_visible("#practice-again"):
        page.locator("#practice-again").tap()
    page.fill("#practice-count", "3")
    page.fill("#practice-seed", "7")
    page.locator("#practice-start").tap()
    table.settle()
    losses = []
    for i in range(3):
        stored = json.loads(page.evaluate("() => localStorage.getItem('yahtzee-practice-v1')"))
        position = stored["positions"][i]
        if page.is_visible("#practice-keep") and i % 2 == 0:
            page.locator("#practice-dice button").nth(0).tap()
            page.locator("#practice-keep").tap()
        else:
            page.locator("#practice-boxes button").first.tap()
        table.settle()
        page.wait_for_selector("#practice-grade:not([hidden])")
        stored = json.loads(page.evaluate("() => localStorage.getItem('yahtzee-practice-v1')"))
        mine = stored["grades"][i]
        card = Scorecard.parse(position["card"]["text"])
        want = grade(Position(card, Dice(tuple(position["dice"])), position["rolls_left"]),
                     stored["answers"][i], official_table, memory=Caches())
        assert mine["loss"] == pytest.approx(want.loss, abs=1e-12)
        assert mine["best"]["expected_final"] == pytest.approx(want.best.expected_final,
                                                               abs=1e-12)
        assert mine["kinds"] == list(want.kinds)
        assert mine["tied"] == want.tied
        losses.append(mine["loss"])
        if i == 0:
            shot = SHOTS["dir"] / f"web-390-site-practice-{SHOTS['when']}.png"
            table.page.screenshot(path=str(shot))
        page.locator("#practice-next").tap()
        table.settle()
    page.wait_for_selector("#practice-summary:not([hidden])")
    assert f"{sum(losses) / 3:.3f}" in page.inner_text("#practice-mean")
    return losses


SHOTS: dict = {}


def one_round(table: Table, official_table, screenshots, when: str, seed: int) -> None:
    """A game, its record, its review and a practice session, with screenshots."""
    SHOTS.update(dir=screenshots, when=when)
    page = table.page
    start_game(table, PLAYERS)
    assert page.is_visible("#site-note")
    assert "to top a tournament" in page.inner_text("#site-note")  # needs yahtzee serve
    # dice held: that keep's figures at once (no "why" asked: a static site has none)
    table.tap_dice([2, 2, 2, 5, 6])
    page.locator("#dice button").nth(0).tap()
    page.locator("#dice button").nth(1).tap()
    table.settle()
    keep = next(o for o in advise(Scorecard.new(), Dice("22256"), rolls_left=2,
                                  table=official_table).options if o.keep == Keep((2, 2)))
    assert held_detail(table)["value"] == keep.expected_final
    assert page.locator("#options .why-button").first.is_hidden()
    assert page.is_hidden("#roll-error") and page.is_hidden("#page-error")
    table.undo()
    assert table.state()["current"]["rolls"] == []
    play_game(table, random.Random(seed), official_table)
    whole_page(page, screenshots / f"web-390-site-game-{when}.png")
    with page.expect_download() as download:
        page.click("#download")
    with open(download.value.path(), encoding="utf-8") as f:
        record = parse_record(f.read())
    assert record.is_finished and record.players == PLAYERS
    standings = page.locator("#standings li").all_inner_texts()
    final = sorted(record.cards().items(), key=lambda item: -item[1].total)
    assert standings == [f"{name}: {card.total}" for name, card in final]
    check_review(table, record, official_table)
    whole_page(page, screenshots / f"web-390-site-review-{when}.png")
    check_practice(table, official_table)
    page.screenshot(path=str(screenshots / f"web-390-site-summary-{when}.png"))


def test_static_site_game_review_and_practice_online_then_offline(site_server, site_url,
                                                                   browser, official_table,
                                                                   screenshots):
    context = browser.new_context(**PHONE)
    table = Table(context.new_page(), site_url)
    page = table.page
    assert page.evaluate("() => document.body.dataset.site") == "static"
    assert page.evaluate("async () => !!(await navigator.serviceWorker.ready).active")
    one_round(table, official_table, screenshots, "online", 1)
    # Offline by what it means, not by a browser's flag (navigator.onLine stays true after
    # set_offline in some Chromium releases): the server answers nothing from here on.
    context.set_offline(True)
    site_server.down = True
    answered = site_server.answered
    try:
        page.reload()
        table.settle()
        assert page.evaluate("() => document.body.dataset.site") == "static"
        one_round(table, official_table, screenshots, "offline", 2)
        # what needs the server is refused with a message that says so
        refusal = page.evaluate("""async () => {
          const local = await import("./static/local.js");
          try { await local.get("/api/distribution", { card: "" }); return "answered"; }
          catch (e) { return e.message; }
        }""")
        assert "yahtzee serve" in refusal
        assert site_server.answered == answered, "a request reached the server while offline"
        assert table.errors == []
    finally:
        site_server.down = False
        context.close()


def random_record(rng: random.Random, rules_name: str, players: tuple[str, ...]) -> str:
    """The text of a random game (random dice and keeps, a random allowed box; short box
    names, comments and blank lines now and then; the last turn sometimes unfinished)."""
    rules = get_rules(rules_name)
    cards = {p: Scorecard.new(rules_name) for p in players}
    lines = [f"rules {rules_name}", f"players {','.join(players)}", "", "# a comment"]
    for i in range(rng.randrange(1, rules.n_boxes * len(players) + 1)):
        player = players[i % len(players)]
        roll = [rng.randint(1, 6) for _ in range(5)]
        tokens = ["".join(map(str, roll))]
        for _ in range(rng.randrange(rules.rolls_per_turn)):
            keep = sorted(rng.sample(roll, rng.randrange(5)))
            roll = keep + [rng.randint(1, 6) for _ in range(5 - len(keep))]
            rng.shuffle(roll)
            tokens += ["".join(map(str, keep)) or "-", "".join(map(str, roll))]
        box, _, _ = rng.choice(cards[player].placements(roll))
        named = rules.boxes[box]
        tokens.append(rng.choice((named.name, *named.aliases)))
        cards[player] = cards[player].place(Dice(tuple(roll)), box)
        lines.append(f"{player}: {' '.join(tokens)}" + ("  # noted" if rng.random() < 0.1 else ""))
    if rng.random() < 0.3 and not all(c.is_full for c in cards.values()):
        lines.append(f"{players[(len(lines) - 4) % len(players)]}: 12346 46")  # unfinished
    return "\n".join(lines) + "\n"


BAD_RECORDS = (
    "Ann: 22256 222 13456 twos\n",                   # the roll lacks the kept dice
    "Ann: 22256 222 22234 22 22211 22 22222 twos\n",  # too many rolls
    "Ann: 22256 22256 22256 twos\n",                 # a keep of five dice
    "Ann: 22256 twos\nAnn: 22256 twos\n",             # a box already filled
    "Ann: 33333 yahtzee\nAnn: 33333 chance\n",        # the forced Joker: threes first
    "players Ann,Bob\nCid: 22256 twos\n",              # an unknown player
    "players Ann,Bob\nBob: 22256 twos\n",              # a player out of turn
    "Ann: 22256 tows\n",                             # an unknown box
    "Ann: 22257 twos\n",                             # dice that are not faces 1 to 6
    "Ann: 2225 twos\n",                              # four dice
    "Ann: 22256 twos\nAnn: 22256\nAnn: 12345 chance\n",  # an unfinished turn in the middle
    '{"rules": "official", "players": ["Ann"], "turns": [{"rolls": ["22256"], "keeps": ["7"]}]}',
)


NOTED = (  # first lines naming what the game was played for, as play writes them
    "# objective: win (each player against the best of the others, from the first turn)",
    "# objective: win (each player against the best of the others, from 4 open boxes on)",
    '# objective: {"kind": "target", "target": 230}',
    '# objective: {"kind": "tournament", "players": 10000, "field": "optimal"}',
    '# objective: {"kind": "win", "opponent": "twos=6,yahtzee=50"}',
    '# objective: {"kind": "win", "opponents": ["twos=6", "chance=20"]}',
    '# objective: {"kind": "ev"}',
    "# a comment, not an objective",
)
BAD_NOTES = (
    "# objective: win (each player against the best of the others, from 16 open boxes on)",
    "# objective: win (from everyone)",
    "# objective: target 300",
    '# objective: {"kind": "target"}',
    '# objective: {"kind": "win", "opponent": "twos=7"}',
    '# objective: {"kind": "ev", "target": 3}',
    '# objective: {"kind": "tournament", "players": 1, "field": "optimal"}',
    '# objective: {"kind": "tournament", "players": 10, "field": "greedy"}',
)


def test_a_record_played_to_win_or_for_a_target_is_not_reviewed_by_expected_score(
        site_url, browser, tmp_path):
    """The site cannot work out a chance: a record noted so is opened under its own
    objective, and its review says what it needs instead of judging it by expected
    score."""
    page = browser.new_page()
    table = Table(page, site_url)
    for i, line in enumerate(NOTED[:4]):
        path = tmp_path / f"noted{i}.txt"
        path.write_text(f"{line}\nplayers Ann,Bob\nAnn: 22256 twos\nBob: 12345 ls\n")
        page.set_input_files("#upload-file", str(path))
        table.settle()
        assert table.state()["objectiveLine"] == line
        page.click("#analyze")
        table.settle()
        assert table.phase != "analysis"
        message = page.inner_text("#page-error")
        assert message.startswith("Analysis: ") and "yahtzee serve" in message, message
        played = ("to win" if "win" in line else "to top a tournament of 10000"
                  if "tournament" in line else "for a target")
        assert played in message, message
    assert table.errors == []
    page.close()


def test_records_are_read_as_the_python_reader_reads_them(site_url, browser):
    """Random records of every rule set in the site (text and JSON form, names and short
    names, comments): the page's answer equals POST /api/record's (record_json); every
    kind of bad record of docs/records.md is refused by both, naming where."""
    page = browser.new_page()
    page.goto(site_url)
    page.wait_for_selector("body[data-busy='0']", state="attached")
    read = """async (texts) => {
      const local = await import("./static/local.js");
      const out = [];
      for (const text of texts) {
        try { out.push(await local.post("/api/record", text)); }
        catch (e) { out.push({ refused: e.message }); }
      }
      return out;
    }"""
    rng = random.Random(36)
    texts = [random_record(rng, "official", ("Ann", "Bob")) for _ in range(30)]
    texts += [random_record(rng, "official", ("Solo",)) for _ in range(5)]
    texts += [json.dumps(parse_record(t).to_json()) for t in texts[:5]]
    texts.append("\ufeffAnn: 22256 222 22234 2s\r\nAnn: 12345 ls\r\n")
    texts += [f"{line}\n{texts[i]}" for i, line in enumerate(NOTED)]
    answers = page.evaluate(read, texts)
    for text, mine in zip(texts, answers, strict=True):
        want = record_json(*read_noted_record(text.encode()))
        assert (mine["objective"], mine["objective_line"]) == (
            want["objective"], want["objective_line"]), text
        assert mine.get("refused") is None, (text, mine)
        assert mine["record"] == want["record"], text
        assert mine["cards"] == want["cards"], text
        assert mine["finished"] == want["finished"]
        assert parse_record(mine["text"]).to_json() == want["record"]
    refusals = page.evaluate(read, list(BAD_RECORDS))
    for text, mine in zip(BAD_RECORDS, refusals, strict=True):
        with pytest.raises(InvalidRecordError):
            parse_record(text)
        assert "refused" in mine, text
        assert mine["refused"].startswith(("line ", "turn ")), mine["refused"]
    bad_notes = [f"{line}\nAnn: 22256 twos\n" for line in BAD_NOTES]
    for text, mine in zip(bad_notes, page.evaluate(read, bad_notes), strict=True):
        with pytest.raises(ObjectiveError) as refused:
            read_noted_record(text.encode())
        named = str(refused.value)[:str(refused.value).index("'", 26) + 1]  # the line
        assert named.startswith("the record's first line '# objective:")
        assert mine.get("refused", "").startswith(named), text
    page.close()
