"""``yahtzee site``: the folder of static files (docs/web.md), its sizes and its refusals."""

from __future__ import annotations

import dataclasses
import gzip
import hashlib
import json
import re
import shlex
import shutil
import socket
import struct
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import numpy as np
from click.testing import CliRunner

from advisor.cli import cli
from advisor.site import site_index
from solver.formats.webtable import SUFFIX, read_web_table, stored_states
from solver.game.states import reachable_states, upper_classes
from tests.advisor.cli.test_solve import assert_clean_error, visible_lines

STATIC = Path(__file__).resolve().parents[3] / "advisor" / "web" / "static"


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_site_writes_every_file_with_its_sizes(table_of, tmp_path):
    tables = {name: table_of(name) for name in ("official", "yatzy")}
    out = tmp_path / "site"
    result = run("site", "--out", str(out), "--rules", "official", "--rules", "yatzy", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    files = files_of(out)
    assert set(report["files"]) == set(files)
    for key, data in files.items():  # a gzipped file is sent as it is
        zipped = len(data) if key.endswith(".gz") else len(gzip.compress(data, 6, mtime=0))
        assert report["files"][key] == {"bytes": len(data), "gzip_bytes": zipped}
    assert report["bytes"] == sum(len(d) for d in files.values())
    yatzy = report["files"][f"tables/yatzy{SUFFIX}.gz"]
    assert report["first_load"]["official"]["bytes"] == report["bytes"] - yatzy["bytes"]
    # the page's every file, the marker, the manifest, the service worker's list
    for path in STATIC.iterdir():
        if path.name != "index.html":
            assert files[f"static/{path.name}"] == path.read_bytes()
    site = json.loads(files["site.json"])
    assert site["kind"] == "yahtzee-site" and site["default"] == "official"
    assert list(site["rules"]) == ["official", "yatzy"]
    sw = files["sw.js"].decode()
    listed = json.loads(re.search(r"const FILES = (\[.*\]);", sw).group(1))
    assert set(listed) == (set(files) - {"sw.js"}) | {"./"}
    assert site["version"] in sw
    manifest = json.loads(files["manifest.webmanifest"])
    assert manifest["start_url"] == "." and manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        data = files[icon["src"]]
        if icon["type"] == "image/png":  # the size the manifest says (PNG's IHDR)
            assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
            width, height = struct.unpack(">II", data[16:24])
            assert icon["sizes"] == f"{width}x{height}" and width >= 192
    assert {"192x192", "512x512"} <= {i["sizes"] for i in manifest["icons"]}
    html = files["index.html"].decode()
    assert '"/static/' not in html and '"/api/' not in html
    for ref in re.findall(r'(?:href|src)="([^"]+)"', html):
        assert ref in files, ref
    assert 'name="yahtzee-site"' in html and 'rel="manifest"' in html
    # each table: every reachable state's value given back exactly, from its class
    classes = upper_classes()
    for name, table in tables.items():
        entry = site["rules"][name]
        assert entry["expected_score"] == table.expected_score
        assert entry["table"] == f"tables/{name}{SUFFIX}.gz"
        plain = gzip.decompress(files[entry["table"]])
        assert entry["bytes"] == len(plain)
        stored = read_web_table(plain, table.rules)
        keep = stored_states(table.rules)
        assert stored.tolist() == table.values[keep].tolist()
        m, u, y = np.nonzero(reachable_states(table.rules))
        rep = classes[m & 63, u]
        assert (table.values[m, rep, y] == table.values[m, u, y]).all()
        assert len(stored) < len(m)  # classes shared: fewer values than states
    assert entry["info"]["objectives"] == ["ev"]
    assert [r["name"] for r in entry["info"]["rule_sets"]] == ["official", "yatzy"]


def test_site_prints_its_size_and_rebuilds_an_earlier_site(table_of, tmp_path):
    table_of("official")
    out = tmp_path / "site"
    first = run("site", "--out", str(out), "--rules", "all")
    assert first.exit_code == 0, first.output
    assert len(list((out / "tables").iterdir())) == 5
    again = run("site", "--out", str(out))
    assert again.exit_code == 0, again.output
    assert [p.name for p in (out / "tables").iterdir()] == [f"official{SUFFIX}.gz"]
    lines = visible_lines(again.stdout)
    size = next(line for line in lines if line.startswith("size:"))
    total = sum(len(d) for d in files_of(out).values())
    assert size.startswith(f"size:       {total / 1e6:.2f} MB (")
    assert any(line.startswith("first load: official: ") for line in lines)
    assert not list(tmp_path.glob(".site*"))  # nothing left beside it


def _binds(port: int) -> bool:
    """Whether loopback can listen on ``port`` now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def test_site_suggests_a_loopback_server_on_a_free_port_that_serves_it(table_of, tmp_path):
    """The "try it" line: python3 (Debian has no `python`), loopback only, not port 8000
    (`yahtzee serve`'s) and not a busy one but the first free from 8080; typed as
    printed, it serves the site's files."""
    table_of("official")
    out = tmp_path / "my site"
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as busy:
        try:  # 8080 busy: the next free one is suggested
            busy.bind(("127.0.0.1", 8080))
            busy.listen()
        except OSError:
            pass  # already busy
        result = run("site", "--out", str(out))
        assert result.exit_code == 0, result.output
        first_free = next(p for p in range(8080, 8180) if p != 8000 and _binds(p))
    line = next(x for x in visible_lines(result.stdout) if x.startswith("try it:"))
    match = re.fullmatch(r"try it: +(python3 -m http\.server .*) (\d+), then open "
                         r"http://127\.0\.0\.1:(\d+)/", line)
    assert match, line
    port = int(match.group(2))
    assert port == int(match.group(3)) == first_free and port not in (8000, 8080)
    command = shlex.split(match.group(1))
    assert command[:3] == ["python3", "-m", "http.server"]
    assert command[3:] == ["--bind", "127.0.0.1", "-d", str(out)]
    server = subprocess.Popen([sys.executable, *command[1:], str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/site.json", timeout=5) as r:
                    assert r.read() == (out / "site.json").read_bytes()
                break
            except OSError:
                assert time.monotonic() < deadline, "the suggested server never answered"
                time.sleep(0.1)
    finally:
        server.terminate()
        server.wait(10)


def test_site_refusals(tmp_path):
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "notes.txt").write_text("mine")
    line = assert_clean_error(run("site", "--out", str(busy)))
    assert "not empty" in line and "--force" in line
    assert [p.name for p in busy.iterdir()] == ["notes.txt"]
    assert "'yahtze' is not one of 'official'" in assert_clean_error(
        run("site", "--out", str(tmp_path / "x"), "--rules", "yahtze"))
    assert "is not a folder" in assert_clean_error(run("site", "--out",
                                                       str(busy / "notes.txt")))
    assert "parent folder does not exist" in assert_clean_error(
        run("site", "--out", str(tmp_path / "no" / "site")))
    assert not (tmp_path / "x").exists()


def test_site_index_changes_only_what_it_names():
    served = (STATIC / "index.html").read_text("utf-8")
    changed = site_index(served)
    assert changed.replace('src="static/', 'src="/static/').count("\n") > served.count("\n")
    for line in served.splitlines():
        if "/static/" not in line and "/api/" not in line and "<link rel=\"icon\"" not in line:
            assert line in changed


def _site_version(out: Path) -> str:
    """The version in site.json, checked to be the one the service worker caches under,
    and each table's SHA-256 in site.json checked to be its unpacked file's."""
    site = json.loads((out / "site.json").read_text())
    sw = (out / "sw.js").read_text()
    found = re.search(r"^const VERSION = (\".*\");$", sw, re.M)
    assert found.group(1) == json.dumps(site["version"])
    for info in site["rules"].values():
        plain = gzip.decompress((out / info["table"]).read_bytes())
        assert info["sha256"] == hashlib.sha256(plain).hexdigest()
    return site["version"]


def test_site_version_changes_when_and_only_when_a_file_of_it_does(table_of, tmp_path,
                                                                  monkeypatch):
    """The service worker's cache key: the same for the same files (another folder, a
    rebuild), a new one when any byte of a page file, of the index or of a table changes,
    or a file is renamed: a returning visitor offline never keeps an old page."""
    import advisor.site as site

    official = table_of("official")
    tables = {"official": official}

    def build(name: str) -> str:
        site.build_site(tmp_path / name, ["official"], table_of=tables.__getitem__)
        return _site_version(tmp_path / name)

    first = build("a")
    assert build("b") == first  # the same content: the same version, wherever it is built
    static = tmp_path / "static"
    shutil.copytree(STATIC, static)
    monkeypatch.setattr(site, "STATIC", static)
    assert build("c") == first
    seen = {first}

    def changed(name: str) -> None:
        version = build(name)
        assert version not in seen, name
        seen.add(version)

    app = (static / "chase.js").read_bytes()
    (static / "chase.js").write_bytes(app.replace(b"worked out", b"worked-out", 1))  # same size
    changed("d")
    (static / "chase.js").write_bytes(app)
    assert build("e") == first  # back as it was: the version it had
    index = (static / "index.html").read_bytes()
    (static / "index.html").write_bytes(index.replace(b"<title>", b"<title> ", 1))
    changed("f")
    (static / "index.html").write_bytes(index)
    (static / "charts.js").rename(static / "charts2.js")  # the same bytes under a new name
    changed("g")
    (static / "charts2.js").rename(static / "charts.js")
    values = official.values.copy()
    assert np.isfinite(values[1, 0, 0])
    values[1, 0, 0] += 1e-9  # one state of the table, by its last bits
    tables["official"] = dataclasses.replace(official, values=values)
    changed("h")
