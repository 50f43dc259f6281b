"""``yahtzee serve``: the web page and the HTTP API on a local address."""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import socket

import click

from ..request.params import options
from ._progress import load_table
from .addresses import served_urls, url
from .qr import LIGHT_ON_DARK, QrTooLongError, encode, half_blocks


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and addresses in 127.0.0.0/8 or ``::1``."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (port 0: any free port); a click error when
    the address cannot be used."""
    try:
        infos = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise click.BadParameter(f"cannot resolve {host!r}: {exc.strerror}",
                                 param_hint="--host") from exc
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise click.BadParameter(f"cannot listen on {host}:{port}: {exc.strerror}",
                                 param_hint="--host/--port") from exc
    sock.set_inheritable(True)
    return sock


class QuietStop(logging.Filter):
    """Drops uvicorn's report of requests cancelled by Ctrl-C (a traceback of
    ``CancelledError`` per request still computing, and "Cancel N running task(s)"),
    counting them in ``cancelled``: stopping is what the user asked for."""

    def __init__(self) -> None:
        super().__init__()
        self.cancelled = 0

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, asyncio.CancelledError):
            return False
        if str(record.msg).startswith("Cancel %s running task(s)"):
            count = record.args[0] if isinstance(record.args, tuple) and record.args else 1
            self.cancelled += int(str(count))
            return False
        return True


def announce(host: str, port: int, sock: socket.socket, rules_name: str,
             loopback: bool) -> None:
    """Print where the page is: the loopback address, or every address another machine
    on the network can open and a QR code of the first (for a phone's camera)."""
    stop = "press Ctrl-C to stop"
    if loopback:
        click.echo(f"Serving the Yahtzee advisor (rules {rules_name}) at {url(host, port)}"
                   f" - {stop}")
        return
    urls = served_urls(host, port, sock)
    click.echo(f"Serving the Yahtzee advisor (rules {rules_name}) - {stop}")
    if not urls:
        click.echo("No network address found: this machine is on no network a phone can "
                   f"reach. On this machine: {url('127.0.0.1', port)}")
        return
    click.echo("On a phone or another computer on the same network (Wi-Fi), open:")
    for address in urls:
        click.echo(f"  {address}")
    try:
        code = half_blocks(encode(urls[0]))
    except QrTooLongError:
        code = []
    if code:
        click.echo(f"or scan this code of {urls[0]} with the phone's camera:")
        on, off = LIGHT_ON_DARK
        for line in code:
            click.echo(f"{on}{line}{off}")
    click.echo(f"If the phone cannot connect: it must be on the same network, and this "
               f"machine's firewall must let in TCP port {port}.")


@click.command()
@options("host", "port", "rules", "proxy")
def serve(host: str, port: int, rules_name: str, proxy: str | None) -> None:
    """Serve the web page and the JSON API until Ctrl-C.

    A client (one address) may hold 32 connections at once, all clients together 512
    (at most half of `ulimit -n`; past that an idle one gives way); a connection that has
    not sent a request's headers 10 s after it opened (or after the previous answer) is
    closed.

    Example: yahtzee serve --host 0.0.0.0   (then open the printed address on a phone)
    """
    # here, with the web app: a second (measured) that `serve --help` skips
    from advisor.web.app import LOOPBACK_HOSTS, create_app
    from advisor.web.connections import GuardedServer, server_config

    loopback = is_loopback(host)
    if not loopback:
        click.echo(f"warning: listening on {host}, not a loopback address: other machines "
                   "can reach this server (it has no login)", err=True)
    load_table(rules_name)  # builds a missing table, with a progress bar, into the
    # process's table cache (solver.table.get_table) before the first request
    sock = listen(host, port)
    bound = sock.getsockname()[1]
    app = create_app(rules_name, allowed_hosts=list(LOOPBACK_HOSTS) if loopback else ["*"])
    config = server_config(app, proxy=proxy, log_level="warning", access_log=False,
                           lifespan="on", timeout_graceful_shutdown=2)
    server = GuardedServer(config)
    quiet = QuietStop()
    logging.getLogger("uvicorn.error").addFilter(quiet)
    try:
        announce(host, bound, sock, rules_name, loopback)
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    cancelled = quiet.cancelled
    click.echo("Stopped." + (f" ({cancelled} request{'s' if cancelled > 1 else ''} still "
                             "computing cancelled)" if cancelled else ""))
