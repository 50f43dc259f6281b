"""``yahtzee serve`` as a user starts it: the address printed (for ``--host 0.0.0.0`` every
address a phone on the network can open, served for real, and a QR code of the first that
zbar decodes), a warning for a host other machines can reach, a clear error for a busy
port, and a clean stop on Ctrl-C, even during a computation."""

from __future__ import annotations

import ipaddress
import json
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from advisor.cli import qr
from advisor.cli.addresses import interface_addresses, served_urls, url
from tests.qr_decode import decode, read_half_blocks

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


def announcement(proc: subprocess.Popen) -> list[str]:
    """The lines ``serve`` prints before serving, for a non-loopback host."""
    lines = []
    while True:
        line = proc.stdout.readline()
        assert line, f"serve stopped early: {lines}"
        lines.append(line.rstrip("\n"))
        if line.startswith(("If the phone cannot connect", "No network address found")):
            return lines


def get(address: str, timeout: float = 60) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(address, timeout=timeout) as res:
            return res.status, res.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def test_serve_on_every_interface_prints_the_addresses_a_phone_can_open(official_table,
                                                                         tmp_path):
    proc, first = start("--host", "0.0.0.0")
    try:
        lines = [first.rstrip("\n"), *announcement(proc)]
        assert lines[0] == "Serving the Yahtzee advisor (rules official) - press Ctrl-C to stop"
        urls = [line.strip() for line in lines if line.startswith("  http://")]
        if not urls:
            assert lines[1].startswith("No network address found")
            pytest.skip("this machine has no network address")
        assert "0.0.0.0" not in "\n".join(lines)
        for address in urls:
            host = address.removeprefix("http://").rsplit(":", 1)[0].strip("[]")
            ip = ipaddress.ip_address(host)
            assert ip.version == 4 and not ip.is_loopback and not ip.is_unspecified
            # served at that address, Host header and all (no trusted-host refusal)
            status, page = get(address)
            assert status == 200 and b"<title>Yahtzee advisor</title>" in page
            status, body = get(address + "api/advise?dice=22256&top=1")
            assert status == 200 and json.loads(body)["options"][0]["keep"] == [2, 2, 2]
        # the QR code drawn in the terminal is of the first address
        start_code = lines.index(f"or scan this code of {urls[0]} with the phone's camera:")
        code = lines[start_code + 1:-1]
        matrix = read_half_blocks(code)
        assert matrix == qr.encode(urls[0])
        assert decode(matrix, tmp_path) == urls[0]
        port = urls[0].rsplit(":", 1)[1].strip("/")
        assert lines[-1] == ("If the phone cannot connect: it must be on the same network, and "
                             f"this machine's firewall must let in TCP port {port}.")
    finally:
        code, _, err = stop(proc)
    assert code == 0 and "warning: listening on 0.0.0.0, not a loopback address" in err


def test_the_addresses_are_the_interfaces_ip_lists():
    """Compared with iproute2's own listing (skipped where ``ip`` is missing)."""
    if not shutil.which("ip"):
        pytest.skip("no `ip` command to compare with")
    listed = subprocess.run(["ip", "-o", "addr", "show", "up"], capture_output=True, text=True,
                            timeout=30).stdout.split("\n")
    words = [line.split() for line in listed if line.strip()]
    expected = {(w[2], w[3].split("/")[0]) for w in words if len(w) > 3}
    for family, name in ((socket.AF_INET, "inet"), (socket.AF_INET6, "inet6")):
        want = {a for f, a in expected if f == name
                and not ipaddress.ip_address(a).is_loopback
                and not ipaddress.ip_address(a).is_link_local}
        found = interface_addresses([family])
        assert set(found) >= want, (name, found, want)


def test_the_default_route_first_then_ipv4_private_first():
    sources = {socket.AF_INET: [lambda: ["192.0.2.9"],
                                lambda: ["127.0.0.1", "8.8.4.4", "10.0.0.7", "169.254.1.1",
                                         "192.0.2.9", "not an address"]],
               socket.AF_INET6: [lambda: ["fe80::1", "2001:db8::5", "::1"]]}
    assert interface_addresses([socket.AF_INET, socket.AF_INET6], sources) == [
        "192.0.2.9", "10.0.0.7", "8.8.4.4", "2001:db8::5"]
    assert interface_addresses([socket.AF_INET], {socket.AF_INET: [list]}) == []


def test_a_named_or_given_host_is_printed_as_it_is():
    with socket.socket() as sock:
        assert served_urls("192.0.2.44", 8000, sock) == ["http://192.0.2.44:8000/"]
        assert served_urls("myhost.lan", 80, sock) == ["http://myhost.lan:80/"]
        assert served_urls("[fd00::2]", 8000, sock) == ["http://[fd00::2]:8000/"]
    assert url("::1", 9) == "http://[::1]:9/"


def test_ctrl_c_during_a_computation_stops_without_a_traceback(official_table):
    proc, line = start()
    try:
        # a new game's distribution: seconds of work in the worker
        request = threading.Thread(target=get, args=(address(line) + "api/distribution?card=",
                                                     5), daemon=True)
        request.start()
        time.sleep(1.5)
    finally:
        code, out, err = stop(proc)
    assert code == 0, err
    assert "Traceback" not in err and "ERROR" not in err and "CancelledError" not in err
    assert out.strip().splitlines()[-1].startswith("Stopped.")


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
