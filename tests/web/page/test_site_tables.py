"""A static site's page checks each table file before it reads a value from it: the
file must unpack, have the rule set's size and the SHA-256 that site.json gives (the
browser's crypto.subtle, or static/sha256.js where the page is not a secure context). A
table of NaN, a table with one value changed and a cut gzip are each refused with a
message that names the damaged file; a whole table is used as before, with or without
crypto.subtle."""

from __future__ import annotations

import functools
import gzip
import hashlib
import json
import random
import shutil
import struct
import subprocess
import threading
from http.server import ThreadingHTTPServer
from pathlib import Path

import numpy as np
import pytest

from advisor.site import build_site, table_path
from tests.web.page.test_static_site import _Quiet

SHA256_JS = Path(__file__).resolve().parents[3] / "advisor" / "web" / "static" / "sha256.js"
STORED = table_path("official")


def planes(values: np.ndarray) -> bytes:
    """float64 values as the table file stores them: eight byte planes, low byte first."""
    raw = values.astype("<f8").view(np.uint8).reshape(-1, 8)
    return raw.T.tobytes()


def values_of(plain: bytes) -> np.ndarray:
    n = len(plain) // 8
    return np.frombuffer(plain, np.uint8).reshape(8, n).T.copy().view("<f8").ravel()


@pytest.fixture(scope="module")
def sites(official_table, tmp_path_factory):
    """The official site, whole and in three damaged copies, on one static server:
    (base url, the whole table's values)."""
    root = tmp_path_factory.mktemp("sites")
    build_site(root / "whole", ["official"], table_of=lambda name: official_table)
    plain = gzip.decompress((root / "whole" / STORED).read_bytes())
    values = values_of(plain)
    changed = values.copy()
    i = random.Random(7).randrange(1, len(values))  # one value (not the new game's)
    changed[i] = changed[i] + 0.5
    nan = np.full_like(values, np.nan)
    nan[0] = values[0]  # the new game's value (the state stored first) as it should be
    damaged = {"nan": gzip.compress(planes(nan), 9, mtime=0),
               "changed": gzip.compress(planes(changed), 9, mtime=0),
               "cut": (root / "whole" / STORED).read_bytes()[:-2000]}
    for name, data in damaged.items():
        shutil.copytree(root / "whole", root / name)
        (root / name / STORED).write_bytes(data)
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", values
    server.shutdown()
    thread.join(10)
    server.server_close()


def test_site_json_gives_the_sha256_of_each_unpacked_table(sites, official_table, tmp_path):
    from solver.formats.webtable import web_table_bytes

    _, values = sites
    build_site(tmp_path / "s", ["official"], table_of=lambda name: official_table)
    info = json.loads((tmp_path / "s" / "site.json").read_text())["rules"]["official"]
    plain = web_table_bytes(official_table)
    assert info["sha256"] == hashlib.sha256(plain).hexdigest()
    assert info["bytes"] == len(plain) == 8 * len(values)
    assert gzip.decompress((tmp_path / "s" / STORED).read_bytes()) == plain


def open_site(browser, url: str, *, no_subtle: bool = False):
    context = browser.new_context()
    page = context.new_page()
    if no_subtle:  # as on plain http from another host: no crypto.subtle
        page.add_init_script("Object.defineProperty(crypto, 'subtle', { value: undefined })")
    page.goto(url)
    page.wait_for_selector("body[data-busy='0']", state="attached")
    return context, page


TABLE_OF = """async () => {
  const local = await import("./static/local.js");
  try {
    const t = await local.tableOf("official");
    return { values: t.values.length, first: t.value(0, 0, 0) };
  }
  catch (e) { return { refused: e.message }; }
}"""


@pytest.mark.parametrize("no_subtle", [False, True], ids=["crypto.subtle", "sha256.js"])
def test_a_damaged_table_is_refused_with_a_clear_message(sites, browser, official_table,
                                                         screenshots, no_subtle):
    base, values = sites
    context, page = open_site(browser, f"{base}/whole/", no_subtle=no_subtle)
    assert page.evaluate("() => !!(crypto && crypto.subtle)") is not no_subtle
    assert page.evaluate(TABLE_OF) == {"values": len(values),
                                       "first": official_table.expected_score}
    context.close()
    why = {"nan": "its SHA-256 is not the one site.json gives",
           "changed": "its SHA-256 is not the one site.json gives",
           "cut": "it does not unpack (cut short or altered)"}
    for name, reason in why.items():
        context, page = open_site(browser, f"{base}/{name}/", no_subtle=no_subtle)
        want = (f"the official table file ({STORED}) is damaged: {reason}; build the site "
                f"again with yahtzee site")
        assert page.evaluate(TABLE_OF) == {"refused": want}, name
        # as a player meets it: a new game, a roll, and the message instead of advice
        page.fill("#player-names li:nth-child(1) input", "Ann")
        page.click("#start")
        page.wait_for_selector("body[data-busy='0']", state="attached")
        for face in (2, 2, 2, 5, 6):
            page.click(f'.face[data-face="{face}"]')
        page.wait_for_selector("body[data-busy='0']", state="attached")
        assert page.is_visible("#roll-error") and page.inner_text("#roll-error") == want, name
        assert page.locator("#options button.take").count() == 0
        assert "NaN" not in page.inner_text("body")
        if not no_subtle:
            page.screenshot(path=str(screenshots / f"web-site-damaged-{name}.png"))
        context.close()


def test_the_engine_refuses_values_that_are_not_numbers(official_table):
    """Whatever site.json says: a table holding NaN or an infinity is no table."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (apt-get install nodejs)")
    from solver.formats.webtable import web_table_bytes

    values = values_of(web_table_bytes(official_table))
    engine = Path(SHA256_JS).with_name("engine.js").as_uri()
    for bad in (np.nan, np.inf, -np.inf):
        changed = values.copy()
        changed[len(values) // 3] = bad
        data = planes(changed)
        script = f"""
          const engine = await import({json.dumps(engine)});
          const bytes = new Uint8Array(require("fs").readFileSync(0));
          try {{ new engine.Table(engine.getRules("official"), bytes); console.log("read"); }}
          catch (e) {{ console.log(e.message); }}
        """
        run = subprocess.run([node, "--input-type=commonjs", "-e",
                              f"(async () => {{ {script} }})()"], input=data,
                             capture_output=True, timeout=120)
        assert run.returncode == 0, run.stderr
        shown = {np.nan: "NaN", np.inf: "Infinity", -np.inf: "-Infinity"}[bad]
        assert run.stdout.decode().strip() == (
            f"the official table file holds {shown} at value {len(values) // 3}, not an "
            f"expected score: build the site again with yahtzee site")


def test_the_pages_own_sha256_is_sha256():
    """static/sha256.js (where the page has no crypto.subtle) against hashlib: lengths
    around the 64-byte blocks and the 55/56-byte padding edge, and a large input."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (apt-get install nodejs)")
    rng = random.Random(5)
    inputs = [bytes(rng.randrange(256) for _ in range(n))
              for n in (0, 1, 3, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000)]
    inputs.append(struct.pack("<d", 1.5) * 40_000)
    script = f"""
      const {{ sha256Plain }} = await import({json.dumps(SHA256_JS.as_uri())});
      const inputs = JSON.parse(require("fs").readFileSync(0, "utf8"));
      const bytes = inputs.map((h) => Uint8Array.from(Buffer.from(h, "hex")));
      console.log(JSON.stringify(bytes.map(sha256Plain)));
    """
    run = subprocess.run([node, "--input-type=commonjs", "-e",
                          f"(async () => {{ {script} }})()"],
                         input=json.dumps([b.hex() for b in inputs]),
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == [hashlib.sha256(b).hexdigest() for b in inputs]
