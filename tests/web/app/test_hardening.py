"""Issue 22 over HTTP: requests the server cannot parse answered in JSON, records of
hostile names and hostile numbers, a damaged cached table that must not turn a good
request into a refusal, and record bodies parsed off the event loop."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from advisor.record import parse_record

YAHTZEE = str(Path(sys.executable).parent / "yahtzee")


def start(env: dict[str, str] | None = None) -> tuple[subprocess.Popen, str, int]:
    proc = subprocess.Popen([YAHTZEE, "serve", "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    url = next(w for w in line.split() if w.startswith("http://"))
    return proc, url, int(url.rstrip("/").rsplit(":", 1)[1])


def stop(proc: subprocess.Popen) -> str:
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    return err


def raw(port: int, data: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(data)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


def test_requests_uvicorn_cannot_parse_get_json(official_table) -> None:
    proc, url, port = start()
    try:
        for data in (b"GARBAGE\r\n\r\n", b"GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n",
                     b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 64,
                     b"GET /api/advise?dice=22256 HTTP/1.1\r\nHost: localhost\r\n"
                     b"Content-Length: x\r\n\r\n"):
            answer = raw(port, data)
            head, _, body = answer.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 400"), answer[:200]
            assert b"content-type: application/json" in head.lower()
            assert "error" in json.loads(body)
        with urllib.request.urlopen(url + "api/advise?dice=22256", timeout=60) as res:
            assert res.status == 200  # the server is still there
    finally:
        err = stop(proc)
    assert "Traceback" not in err


@pytest.mark.parametrize("name", ["rules x", "players 2", "Zoë", "李 明", "a", "22256"])
def test_records_of_any_accepted_name_round_trip_through_the_api(server, name: str) -> None:
    text = (f"# a comment\nrules official\nplayers {name},Bob\n"
            f"{name}: 22256 222 22234 twos   # kept\nBob: 12345 ls\n{name}: 66666\n")
    record = parse_record(text)
    for body in (text, json.dumps(record.to_json())):
        status, answer = server.request("POST", "/api/record", body.encode())
        assert status == 200, answer
        assert parse_record(answer["text"]) == record
        assert parse_record(json.dumps(answer["record"])) == record


@pytest.mark.parametrize("body", [
    json.dumps({"players": ["A\u2028b"]}), '{"players": ["\\ud800"]}',
    '{"turns": [' + "9" * 5000 + "]}", "players Ann\n" + "Ann: 22256 twos\n" * 15000,
    "\ufeffAnn: 22256 twos\n",
])
def test_hostile_records_are_400_or_200_never_500(server, body: str) -> None:
    for path in ("/api/record", "/api/analyze"):
        status, answer = server.request("POST", path, body.encode())
        assert status in (200, 400), (status, answer)
        assert isinstance(answer, dict) and ("error" in answer) == (status == 400)


@pytest.mark.parametrize("query", ["target=99999999999999999999999", "beat=1000000000",
                                   "target=1576"])
def test_targets_beyond_any_game_are_answered_at_once(server, query: str) -> None:
    status, answer = server.request("GET", f"/api/advise?dice=22256&{query}")
    assert status == 200 and all(o["p_target"] == 0.0 for o in answer["options"])


@pytest.mark.parametrize("query", ["target=%EF%BC%93%EF%BC%90%EF%BC%90", "target=3_00",
                                   "target=" + "9" * 5000, "beat=%D9%A3%D9%A0%D9%A0"])
def test_targets_in_other_digits_are_refused(server, query: str) -> None:
    status, answer = server.request("GET", f"/api/advise?dice=22256&{query}")
    assert status == 400 and "ASCII digits" in answer["error"]


def test_a_damaged_cached_table_does_not_refuse_good_requests(tmp_path: Path,
                                                              tables_dir: str) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    shutil.copy(Path(tables_dir) / "official.ytable", cache / "official.ytable")
    proc, url, _ = start({**os.environ, "YAHTZEE_TABLES": str(cache)})
    try:
        with open(cache / "official.ytable", "r+b") as f:  # damaged while it serves
            f.seek(-100, os.SEEK_END)
            f.write(b"\xff\xff")
        with urllib.request.urlopen(url + "api/advise?dice=22256&card=twos=6",
                                    timeout=120) as res:
            assert res.status == 200 and json.loads(res.read())["card"]["total"] == 6
    finally:
        err = stop(proc)
    assert "Traceback" not in err


def test_advise_is_answered_while_records_are_parsed(server) -> None:
    """Record bodies (parsed and analysed off the event loop) and advise requests at
    once: every advise is answered, every record is 200 or 400 (the timing is in
    benchmarks/bench_serve_records.py)."""
    body = "players Ann\nAnn: 22256 twos   # kept\n" + ("# " + "y" * 200 + "\n") * 1100
    results: list[int] = []

    def post() -> None:
        for _ in range(3):
            results.append(server.request("POST", "/api/analyze", body.encode())[0])

    threads = [threading.Thread(target=post) for _ in range(4)]
    for t in threads:
        t.start()
    advised = 0
    deadline = time.monotonic() + 120
    while any(t.is_alive() for t in threads) and time.monotonic() < deadline:
        status, _ = server.get("/api/advise", {"dice": "12345", "rolls_left": "1"})
        assert status == 200
        advised += 1
    for t in threads:
        t.join(120)
    assert advised > 0 and results and set(results) <= {200, 400}


@pytest.mark.parametrize("query", ["rolls_left=%D9%A2", "top=%EF%BC%93", "rolls_left=1_0",
                                   "top=" + "9" * 5000])
def test_whole_numbers_in_other_digits_are_refused_as_the_cli_refuses_them(server,
                                                                           query: str) -> None:
    status, answer = server.request("GET", f"/api/advise?dice=22256&{query}")
    assert status == 400 and "not a valid integer" in answer["error"]
    assert len(answer["error"]) < 300
