"""The static site (``yahtzee site``): its build, its size, and advice in a phone's browser.

- ``build``: ``build_site`` of the official rules (the table already solved);
- ``first load``: the bytes the first visit fetches, and gzipped at level 6 (as a
  static host serves them);
- in headless Chromium with the CPU throttled 4x (DevTools' ``Emulation.
  setCPUThrottlingRate``, a mid-range phone), the site on a local static server:
  ``table ready`` (fetch, gunzip and decode of the table file), ``one advice`` (a card's whole
  turn computed and every option ranked by ``engine.js``, median of 20 over six cards),
  ``another roll`` (the same turn, another roll), and ``first advice`` (from opening the
  page to the choices of a first roll on screen: load, the table, a new game, five dice
  typed).

Wall-clock times, with the load average (2 cores: above ~1 means shared).
"""

from __future__ import annotations

import functools
import shutil
import sys
import tempfile
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from _fresh import load_average

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-dev-shm-usage"]
THROTTLE = 4
CARDS = ["", "twos=6", "aces=3,threes=9,sixes=24", "fours=12,3k=20,fh=25,ss=30",
         "aces=3,twos=6,threes=9,fours=12,3k=20,fh=25",
         "aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30"]


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


def main() -> int:
    from advisor.site import build_site
    from solver.table import open_table

    table = open_table("official", build=True)
    chromium = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sync_playwright = None
    print(f"load average before: {load_average()}")
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "site"
        start = time.perf_counter()
        summary = build_site(out, ["official"], table_of=lambda name: table)
        print(f"build, official: {time.perf_counter() - start:.2f} s")
        size, zipped = summary.first_load("official")
        print(f"first load, official: {size / 1e6:.2f} MB, {zipped / 1e6:.2f} MB gzipped "
              f"({len(summary.files)} files)")
        if sync_playwright is None or chromium is None:
            print("browser timings skipped: no playwright or no Chromium")
            return 0
        server = ThreadingHTTPServer(("127.0.0.1", 0),
                                     functools.partial(_Quiet, directory=str(out)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            browser_timings(f"http://127.0.0.1:{server.server_address[1]}/", chromium,
                            sync_playwright)
        finally:
            server.shutdown()
            server.server_close()
    print(f"load average after: {load_average()}")
    return 0


def browser_timings(url: str, chromium: str, sync_playwright) -> None:  # noqa: ANN001
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=FLAGS)
        context = browser.new_context(viewport={"width": 390, "height": 844},
                                      is_mobile=True, has_touch=True)
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": THROTTLE})
        start = time.perf_counter()
        page.goto(url)
        page.wait_for_selector("body[data-busy='0']", state="attached")
        page.click("#start")
        page.wait_for_selector("body[data-busy='0']", state="attached")
        page.fill("#typed", "22256")
        page.press("#typed", "Enter")
        page.wait_for_selector("#options button.take")
        first = time.perf_counter() - start
        script = """async (cards) => {
          const engine = await import("./static/engine.js");
          const local = await import(`./static/local.js?fresh=${Math.random()}`);
          await local.detectSite();
          let t = performance.now();
          const table = await local.tableOf("official");
          const ready = performance.now() - t;
          const one = [];
          const again = [];
          for (let i = 0; i < 20; i += 1) {
            const entries = Array(13).fill(null);
            const text = cards[i % cards.length];
            const names = ["aces", "twos", "threes", "fours", "fives", "sixes", "3k", "4k",
              "fh", "ss", "ls", "yahtzee", "chance"];
            for (const pair of text ? text.split(",") : []) {
              const [box, points] = pair.split("=");
              entries[names.indexOf(box)] = Number(points);
            }
            const card = { entries, bonuses: 0 };
            t = performance.now();
            const s = engine.cardState(table.rules, card);
            const stages = engine.turnValues(table, s.m, s.u, s.y);
            engine.advise(table, card, [1, 2, 3, 4, 6], 2, stages);
            one.push(performance.now() - t);
            t = performance.now();
            for (let k = 0; k < 100; k += 1) engine.advise(table, card, [2, 2, 2, 5, 6], 1, stages);
            again.push((performance.now() - t) / 100);
          }
          const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
          return { ready, one: median(one), again: median(again) };
        }"""
        figures = page.evaluate(script, CARDS)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
        plain = page.evaluate(script, CARDS)
        print(f"CPU throttled {THROTTLE}x (Chromium, 390 px phone):")
        print(f"  table ready (fetch, gunzip, decode: 2.1 MB file): {figures['ready']:.0f} ms")
        print(f"  one advice (a new turn), median of 20: {figures['one']:.1f} ms")
        print(f"  another roll of the same turn: {figures['again']:.3f} ms")
        print(f"  first advice (open the page, new game, 22256): {first:.2f} s")
        print(f"not throttled: one advice {plain['one']:.1f} ms, another roll "
              f"{plain['again']:.3f} ms, table ready {plain['ready']:.0f} ms")
        browser.close()


if __name__ == "__main__":
    sys.exit(main())
