"""Percentages as people read them: never "100 %" or "0 %" unless the probability is
exactly that, in the CLI's why lines and on the page (advisor/web/static/percent.js, run in
node). The expected strings are written by hand at, just under and just over each of the
formatter's boundaries (0, 0.05 %, 9.5 %, 99.5 %, 99.95 %, 1)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from advisor.why import _percent

STATIC = Path(__file__).resolve().parents[3] / "advisor" / "web" / "static"

# probability -> what the why line prints (the page writes the same without the space)
CASES = [
    (0.0, "0 %"),
    (1e-15, "<0.1 %"),            # a chance, however small, is not "0 %"
    (0.0004, "<0.1 %"),
    (0.00049, "<0.1 %"),          # 0.049 % would print as 0.0: not shown as zero
    (0.00051, "0.1 %"),
    (0.0012, "0.1 %"),
    (0.0949, "9.5 %"),            # just under 9.5 %: tenths
    (0.0951, "10 %"),             # just over: whole percents
    (0.5, "50 %"),
    (0.9949, "99 %"),             # just under 99.5 %: whole percents
    (0.9951, "99.5 %"),           # just over: tenths, not "100 %"
    (0.9965, "99.7 %"),           # an upper bonus of 99.65 % (issue: was "100 %")
    (0.99899, "99.9 %"),
    (0.99949, "99.9 %"),          # just under 99.95 %
    (0.99951, ">99.9 %"),         # just over: still not "100 %"
    (0.999999, ">99.9 %"),
    (1 - 1e-9, ">99.9 %"),        # a billionth short of certain is not certain
    (1 - 1e-14, "100 %"),         # a certainty up to float rounding
    (1.0, "100 %"),
]


@pytest.mark.parametrize(("p", "printed"), CASES)
def test_the_why_percent_at_each_boundary(p, printed):
    assert _percent(p) == printed


_NODE = """
const fs = require("fs");
const source = fs.readFileSync(process.argv[1], "utf8");
import("data:text/javascript," + encodeURIComponent(source)).then((m) => {
  const ps = JSON.parse(process.argv[2]);
  console.log(JSON.stringify({pct: ps.map(m.pct), two: ps.map((p) => m.fixed(p, 2))}));
});
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_the_page_writes_the_same_percentages():
    ps = [p for p, _ in CASES]
    out = subprocess.run(["node", "-e", _NODE, str(STATIC / "percent.js"), json.dumps(ps)],
                         capture_output=True, text=True, check=True).stdout
    page = json.loads(out)
    assert page["pct"] == [printed.replace(" %", "%") for _, printed in CASES]
    # the analysis' two decimals: the same rule at its own digits
    two = dict(zip(ps, page["two"], strict=True))
    assert (two[0.0], two[1e-15], two[0.00049], two[0.5], two[0.99951], two[0.999999],
            two[1 - 1e-14], two[1.0]) == ("0%", "<0.01%", "0.05%", "50.00%", "99.95%",
                                          ">99.99%", "100%", "100%")


def test_the_page_and_its_charts_use_that_formatter():
    """No other rounding of a probability to a percentage is left in the page's scripts."""
    for path in STATIC.glob("*.js"):
        if path.name != "percent.js":
            text = path.read_text(encoding="utf-8")
            assert "0.9995" not in text and "1 - 5e-7" not in text, path.name
    for name in ("words.js", "options.js", "charts.js"):  # the page's percentages
        assert 'from "./percent.js"' in (STATIC / name).read_text(encoding="utf-8"), name
