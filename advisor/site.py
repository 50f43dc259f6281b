"""``yahtzee site``: the page as a folder of static files that any static host serves.

The folder holds the page (``index.html``, its scripts and styles under ``static/``),
``site.json`` (the marker that tells the page it is a static site, with each rule set's
table file, the unpacked table's size and SHA-256, which the page checks before it reads
a value, the new-game expected score and ``/api/rules`` answer), the expected-score table
of each chosen rule set (``tables/NAME.f64planes.gz``: :mod:`solver.formats.webtable`,
gzipped), a
web-app manifest and a service worker (``sw.js``) that keeps every file for offline use.
The page answers its own questions from the tables (``static/local.js``, docs/web.md).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import struct
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from solver.formats.webtable import SUFFIX, web_table_bytes
from solver.game.rules import get_rules

from .rules_info import rules_json
from .site_folder import KIND, MARKER, check_target, write_folder

STATIC = Path(__file__).resolve().parent / "web" / "static"
_INDEX_CHANGES = (
    ('href="/static/', 'href="static/'),
    ('src="/static/', 'src="static/'),
    ('<link rel="icon"', '<link rel="manifest" href="manifest.webmanifest">\n'
                         '<link rel="stylesheet" href="static/site.css">\n'
                         '<meta name="theme-color" content="#1d4e89">\n'
                         '<meta name="yahtzee-site" content="site.json">\n<link rel="icon"'),
    ('<a href="/api/rules">API</a> &middot; ', ""),
    ("</head>", '<link rel="apple-touch-icon" href="icon-192.png">\n</head>'),
)
"""index.html as served -> as on a static site: relative addresses (a host may serve the
folder below its root), the manifest, the site's style sheet, the marker that tells the
page it is a static site (site.js), no API link."""
GZIP_LEVEL = 6
"""The compression level of most static hosts (nginx's gzip_comp_level 1-9, Apache
mod_deflate's default 6): the sizes printed are of each file at this level (a table file
is sent as it is: it is gzipped already)."""
TABLE_GZIP_LEVEL = 9
"""The tables are stored gzipped (the page unpacks them with the browser's
DecompressionStream): hosts compress by content type, and most leave binary files as
they are."""


def table_path(rules_name: str) -> str:
    """The table file of a rule set inside the site."""
    return f"tables/{rules_name}{SUFFIX}.gz"


@dataclass(frozen=True)
class SiteSummary:
    """What ``yahtzee site`` built: the folder, every file's size and gzip size."""

    out: Path
    rules: tuple[str, ...]
    files: dict[str, tuple[int, int]]
    """Path inside the folder -> (bytes, bytes gzipped at :data:`GZIP_LEVEL`)."""

    @property
    def size(self) -> int:
        return sum(n for n, _ in self.files.values())

    @property
    def gzipped(self) -> int:
        return sum(g for _, g in self.files.values())

    def first_load(self, rules_name: str) -> tuple[int, int]:
        """(bytes, gzipped) the first visit fetches to advise under ``rules_name``: every
        file but the other rule sets' tables (the service worker fetches those after)."""
        others = {table_path(n) for n in self.rules if n != rules_name}
        kept = [v for k, v in self.files.items() if k not in others]
        return sum(n for n, _ in kept), sum(g for _, g in kept)

    def to_json(self) -> dict[str, Any]:
        return {"out": str(self.out), "rules": list(self.rules), "bytes": self.size,
                "gzip_bytes": self.gzipped,
                "first_load": {n: dict(zip(("bytes", "gzip_bytes"), self.first_load(n),
                                           strict=True)) for n in self.rules},
                "files": {k: {"bytes": n, "gzip_bytes": g} for k, (n, g) in self.files.items()}}


def site_index(html: str) -> str:
    """The served index.html changed for a static site (:data:`_INDEX_CHANGES`); a
    ValueError when the page no longer has what is changed (so the site never ships a
    page with server addresses)."""
    for old, new in _INDEX_CHANGES:
        if old not in html:
            raise ValueError(f"index.html has no {old!r}: update advisor/site.py")
        html = html.replace(old, new)
    return html


ICON_SIZES = (192, 512)
"""The PNG icons of the manifest (what Android's home screen and install prompt use)."""


def icon_png(size: int) -> bytes:
    """The page's icon (static/favicon.svg: a blue die showing three) as a ``size`` px
    square PNG, drawn here (no image library): the die on white, its edges antialiased
    by 4 x 4 supersampling."""
    step = 40 / (4 * size)  # the SVG's 40 units over 4 samples a pixel
    v, u = np.mgrid[0:4 * size, 0:4 * size] * step + step / 2
    pip = np.zeros(u.shape, dtype=bool)
    for c in (11, 20, 29):
        pip |= (u - c) ** 2 + (v - c) ** 2 <= 3.6 ** 2
    dx = np.maximum(np.maximum(9 - u, 0), u - 31)
    dy = np.maximum(np.maximum(9 - v, 0), v - 31)
    die = (u >= 2) & (u <= 38) & (v >= 2) & (v <= 38) & (dx * dx + dy * dy <= 49) & ~pip
    blue = die.reshape(size, 4, size, 4).mean(axis=(1, 3))  # share of each pixel
    rgb = np.stack([255 + blue * (c - 255) for c in (0x0B, 0x6B, 0xCB)], axis=2)
    rows = np.concatenate([np.zeros((size, 1), np.uint8),
                           np.rint(rgb).astype(np.uint8).reshape(size, 3 * size)], axis=1)

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(rows.tobytes(), 9)) + chunk(b"IEND", b""))


def _manifest() -> dict[str, Any]:
    return {"name": "Yahtzee advisor", "short_name": "Yahtzee", "start_url": ".",
            "scope": ".", "display": "standalone", "background_color": "#ffffff",
            "theme_color": "#1d4e89", "description": "The best play of every Yahtzee turn, "
            "exactly: advice, a guided game, practice and reviews, offline.",
            "icons": [{"src": "static/favicon.svg", "sizes": "any", "type": "image/svg+xml",
                       "purpose": "any"}]
            + [{"src": f"icon-{n}.png", "sizes": f"{n}x{n}", "type": "image/png",
                "purpose": "any"} for n in ICON_SIZES]}


_SERVICE_WORKER = """\
// The service worker of a static Yahtzee advisor site (written by `yahtzee site`): every
// file of the site is kept at install, so the page works offline after the first visit.
const VERSION = %(version)s;
const FILES = %(files)s;
const CACHE = `yahtzee-site-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((keys) => Promise.all(keys
    .filter((k) => k.startsWith("yahtzee-site-") && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

// The site's own files from the cache first (then from the network, kept for next
// time); site.json from the network first, so a rebuilt site is noticed when online.
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  const fresh = request.url.endsWith("/site.json");
  event.respondWith(caches.open(CACHE).then(async (cache) => {
    const kept = await cache.match(request, { ignoreSearch: true });
    if (kept && !fresh) return kept;
    try {
      const answer = await fetch(request);
      if (answer.ok) cache.put(request, answer.clone());
      return answer;
    } catch (error) {
      if (kept) return kept;
      throw error;
    }
  }));
});
"""


def build_site(out: str | os.PathLike[str], rules_names: Sequence[str], *,
               table_of: Callable[[str], Any], force: bool = False) -> SiteSummary:
    """Write the site of ``rules_names`` (the first is the page's default) to ``out``.

    ``table_of(name)`` gives each rule set's solved table. ``out`` must be missing, an
    empty folder, or an earlier site (its ``site.json`` says so), and not the current
    folder, the home folder, the root or a folder holding one, else
    :class:`~advisor.site_folder.SiteError` (``force``: any other folder). The site's own
    entries are replaced, everything else ``out`` holds is kept; the folder is written
    beside ``out`` and moved in place at the end: a failure leaves the earlier site as it
    was (:mod:`advisor.site_folder`).
    """
    names = tuple(dict.fromkeys(get_rules(n).name for n in rules_names))
    target = check_target(out, force=force)
    files: dict[str, bytes] = {}
    for path in sorted(STATIC.iterdir()):  # the page's files, as the server serves them
        if path.is_file() and path.name != "index.html":
            files[f"static/{path.name}"] = path.read_bytes()
    files["index.html"] = site_index((STATIC / "index.html").read_text("utf-8")).encode()
    rules_info = {}
    for name in names:
        table = table_of(name)
        stored = table_path(name)
        plain = web_table_bytes(table)
        files[stored] = gzip.compress(plain, TABLE_GZIP_LEVEL, mtime=0)
        info = rules_json(name)
        info["rule_sets"] = [r for r in info["rule_sets"] if r["name"] in names]
        info["objectives"] = ["ev"]
        rules_info[name] = {"table": stored, "bytes": len(plain),
                            "sha256": hashlib.sha256(plain).hexdigest(),
                            "expected_score": table.expected_score, "info": info}
    digest = hashlib.sha256()
    for key in sorted(files):
        digest.update(key.encode() + b"\0" + files[key])
    version = digest.hexdigest()[:16]
    files[MARKER] = json.dumps({"kind": KIND, "version": version, "default": names[0],
                                "rules": rules_info}, indent=1).encode()
    files["manifest.webmanifest"] = json.dumps(_manifest(), indent=1).encode()
    for n in ICON_SIZES:
        files[f"icon-{n}.png"] = icon_png(n)
    cached = ["./", *sorted(k for k in files if k != MARKER), MARKER]
    files["sw.js"] = (_SERVICE_WORKER % {"version": json.dumps(version),
                                         "files": json.dumps(cached)}).encode()
    write_folder(target, files)
    sizes = {k: (len(v), len(v) if k.endswith(".gz") else
                 len(gzip.compress(v, GZIP_LEVEL, mtime=0))) for k, v in files.items()}
    return SiteSummary(target, names, dict(sorted(sizes.items())))
