"""``yahtzee serve``: the web page and the HTTP API on a local address."""

from __future__ import annotations

import ipaddress
import socket

import click

from ._base import cli, load_table, rules_option


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


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Anything but a loopback address lets other "
                   "machines in (a warning is printed).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port to listen on (0: any free port).")
@rules_option
def serve(host: str, port: int, rules_name: str) -> None:
    """Serve the web page and the JSON API (docs/web.md) until Ctrl-C.

    Example: yahtzee serve --port 8000
    """
    import uvicorn

    from advisor.web.app import LOOPBACK_HOSTS, create_app

    loopback = is_loopback(host)
    if not loopback:
        click.echo(f"warning: listening on {host}, not a loopback address: other machines "
                   "can reach this server (it has no login)", err=True)
    load_table(rules_name)  # builds a missing table, with a progress bar, into the
    # process's table cache (solver.table.get_table) before the first request
    sock = listen(host, port)
    bound = sock.getsockname()[1]
    shown = f"[{host.strip('[]')}]" if ":" in host else host
    app = create_app(rules_name, allowed_hosts=list(LOOPBACK_HOSTS) if loopback else ["*"])
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on",
                            timeout_graceful_shutdown=2)
    server = uvicorn.Server(config)
    try:
        click.echo(f"Serving the Yahtzee advisor (rules {rules_name}) at "
                   f"http://{shown}:{bound}/ - press Ctrl-C to stop")
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    click.echo("Stopped.")
