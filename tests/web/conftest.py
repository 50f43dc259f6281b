"""Fixtures of the web tests: one live server per session (uvicorn in a thread, on a free
loopback port) and, for the browser tests, headless Chromium driven by Playwright.

Without Chromium (``/usr/bin/chromium``, Debian's ``chromium``) or the ``playwright``
package the browser tests are skipped with a message saying what to install; under CI
(``CI=true``) they fail instead, so a CI run never passes without them.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
# Headless on a closed network: no background connections, no sandbox (CI runs as root).
CHROMIUM_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage"]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"


class Server:
    """A running ``yahtzee serve`` application: ``url`` and JSON helpers."""

    def __init__(self, url: str, stats: Any = None) -> None:
        self.url = url
        self.stats = stats
        """The server's :class:`~advisor.web.charts.StatsService`."""

    def get(self, path: str, params: dict[str, Any] | None = None) -> tuple[int, Any]:
        """(HTTP status, decoded JSON body) of a GET request."""
        query = "?" + urllib.parse.urlencode(params) if params else ""
        return self.request("GET", path + query)

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, Any]:
        req = urllib.request.Request(self.url + path, data=body, method=method,
                                     headers=headers or {})
        try:
            with urllib.request.urlopen(req, timeout=120) as res:
                status, raw = res.status, res.read()
        except urllib.error.HTTPError as exc:
            status, raw = exc.code, exc.read()
        try:
            return status, json.loads(raw)
        except ValueError:
            return status, raw.decode("utf-8", "replace")


def _serve(default_rules: str) -> Iterator[Server]:
    """The app of ``default_rules`` on a free loopback port until the generator closes."""
    import uvicorn

    from advisor.cli.serve import listen
    from advisor.web.app import create_app
    from advisor.web.charts import StatsService

    sock = listen("127.0.0.1", 0)
    port = sock.getsockname()[1]
    stats = StatsService()
    app = create_app(default_rules, stats=stats)
    uv = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=uv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not uv.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    yield Server(f"http://127.0.0.1:{port}", stats)
    uv.should_exit = True
    thread.join(30)
    sock.close()


@pytest.fixture(scope="session")
def server(official_table) -> Iterator[Server]:
    """The app on a free loopback port for the whole session (official table built first)."""
    yield from _serve("official")


SERVED_RULES = "yatzy"
"""The default rule set of :func:`yatzy_server` (``yahtzee serve --rules yatzy``)."""


@pytest.fixture(scope="session")
def yatzy_server(table_of) -> Iterator[Server]:
    """A second app whose default rule set is yatzy, for the whole session."""
    table_of(SERVED_RULES)
    yield from _serve(SERVED_RULES)


def _browser_missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is missing (pip install -e '.[test]')"
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    return None


@pytest.fixture(scope="session")
def browser():
    """Headless system Chromium (never a downloaded one), or a skip/failure (see module)."""
    missing = _browser_missing()
    if missing:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"browser tests must run under CI: {missing}")
        pytest.skip(f"browser tests skipped: {missing}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM if os.path.exists(CHROMIUM)
                                      else shutil.which("chromium"), args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
