"""``yahtzee serve`` as a user starts it: the address printed, a warning for a host other
machines can reach, a clear error for a busy port, and a clean stop on Ctrl-C."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

YAHTZEE = str(Path(sys.executable).parent / "yahtzee")


def start(*args: str) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([YAHTZEE, "serve", "--port", "0", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    return proc, line


def stop(proc: subprocess.Popen) -> tuple[int, str, str]:
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    return proc.returncode, out, err


def address(line: str) -> str:
    return next(w for w in line.split() if w.startswith("http://"))


def test_serve_prints_the_address_and_stops_cleanly_on_ctrl_c(official_table):
    proc, line = start()
    try:
        assert "http://127.0.0.1:" in line and "Ctrl-C" in line
        with urllib.request.urlopen(address(line) + "api/advise?dice=22256", timeout=60) as r:
            assert json.loads(r.read())["options"][0]["keep"] == [2, 2, 2]
    finally:
        code, out, err = stop(proc)
    assert code == 0
    assert "Stopped." in out
    assert "Traceback" not in err and "warning" not in err


def test_serve_warns_for_a_non_loopback_host(official_table):
    proc, line = start("--host", "0.0.0.0")
    code, _, err = stop(proc)
    assert "http://0.0.0.0:" in line
    assert code == 0 and "warning: listening on 0.0.0.0, not a loopback address" in err


def test_serve_refuses_a_busy_port(official_table):
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen(1)
    try:
        port = str(busy.getsockname()[1])
        result = subprocess.run([YAHTZEE, "serve", "--port", port], capture_output=True,
                                text=True, timeout=60)
    finally:
        busy.close()
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"Error: Invalid value for --host/--port: cannot listen on 127.0.0.1:{port}: "
        "Address already in use"]


@pytest.mark.parametrize("host, loopback", [("127.0.0.1", True), ("127.3.4.5", True),
                                            ("localhost", True), ("::1", True),
                                            ("[::1]", True), ("0.0.0.0", False),
                                            ("192.168.1.2", False), ("example.org", False)])
def test_is_loopback(host, loopback):
    from advisor.cli.serve import is_loopback

    assert is_loopback(host) is loopback


def test_serve_help_is_instant():
    start_time = time.perf_counter()
    result = subprocess.run([YAHTZEE, "serve", "--help"], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0 and "--host" in result.stdout and "--port" in result.stdout
    assert "starlette" not in sys.modules or start_time  # imports happen inside the command
