"""The addresses at which other machines on the network can reach a server listening on
``host``: for ``0.0.0.0`` (or ``::``) the machine's own non-loopback interface addresses.

No packet is sent: the address of the default route comes from connecting a UDP socket
(which only picks a route); on Linux every interface's address is read from the kernel
(``SIOCGIFADDR``, ``/proc/net/if_inet6``); elsewhere the host name's addresses fill in.
"""

from __future__ import annotations

import ipaddress
import socket
import struct
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

_ROUTE_PROBES = ((socket.AF_INET, "198.51.100.1"), (socket.AF_INET6, "2001:db8::1"))
"""Documentation addresses (RFC 5737, RFC 3849): a UDP connect to them picks the default
route's source address and sends nothing."""
_SIOCGIFADDR = 0x8915
_IF_INET6 = Path("/proc/net/if_inet6")

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def reachable(address: Address) -> bool:
    """True for an address another machine can open: not loopback, link-local,
    multicast or unspecified."""
    return not (address.is_loopback or address.is_link_local or address.is_multicast
                or address.is_unspecified)


def route_address(family: socket.AddressFamily) -> str | None:
    """The source address of the default route for ``family``, or None without one."""
    probe = dict(_ROUTE_PROBES)[family]
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as sock:
            sock.connect((probe, 9))
            return str(sock.getsockname()[0])
    except OSError:
        return None


def linux_ipv4() -> list[str]:
    """The IPv4 address of every interface (Linux; elsewhere an empty list)."""
    if not sys.platform.startswith("linux"):
        return []
    import fcntl

    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for _, name in socket.if_nameindex():
            request = struct.pack("256s", name.encode()[:15])
            try:
                answer = fcntl.ioctl(sock.fileno(), _SIOCGIFADDR, request)
            except OSError:
                continue  # no IPv4 address on this interface
            found.append(socket.inet_ntoa(answer[20:24]))
    return found


def linux_ipv6(table: Path = _IF_INET6) -> list[str]:
    """Every interface's IPv6 address from ``/proc/net/if_inet6`` (empty elsewhere)."""
    try:
        lines = table.read_text().splitlines()
    except OSError:
        return []
    return [str(ipaddress.IPv6Address(bytes.fromhex(line.split()[0])))
            for line in lines if line.split()]


def host_name_addresses(family: socket.AddressFamily) -> list[str]:
    """The addresses the machine's own host name resolves to."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, family, socket.SOCK_STREAM)
    except OSError:
        return []
    return [str(info[4][0]).split("%")[0] for info in infos]


Sources = dict[socket.AddressFamily, list[Callable[[], list[str]]]]


def _sources() -> Sources:
    def route(family: socket.AddressFamily) -> Callable[[], list[str]]:
        return lambda: [a for a in [route_address(family)] if a]

    return {socket.AF_INET: [route(socket.AF_INET), linux_ipv4,
                             lambda: host_name_addresses(socket.AF_INET)],
            socket.AF_INET6: [route(socket.AF_INET6), linux_ipv6,
                              lambda: host_name_addresses(socket.AF_INET6)]}


def interface_addresses(families: Iterable[socket.AddressFamily],
                        sources: Sources | None = None) -> list[str]:
    """The machine's reachable addresses of ``families`` (from ``sources``: functions
    listing address texts per family), the first found first (the default route's), then
    IPv4 before IPv6 and private before public, without repeats."""
    found: list[Address] = []
    table = sources if sources is not None else _sources()
    for family in families:
        for source in table.get(family, []):
            for text in source():
                try:
                    address = ipaddress.ip_address(text)
                except ValueError:
                    continue
                if reachable(address) and address not in found:
                    found.append(address)
    firsts = found[:1]
    rest = sorted(found[1:], key=lambda a: (a.version, not a.is_private, a.packed))
    return [str(a) for a in firsts + rest]


def url(host: str, port: int) -> str:
    """``http://HOST:PORT/`` with an IPv6 address in brackets."""
    host = host.strip("[]")
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def served_urls(host: str, port: int, sock: socket.socket) -> list[str]:
    """What to open from another machine for a server bound to ``host`` (on ``sock``):
    every reachable interface address for a wildcard host (``0.0.0.0``: IPv4; ``::``:
    IPv6, and IPv4 too when the socket takes both), else ``host`` itself."""
    bare = host.strip("[]")
    try:
        address = ipaddress.ip_address(bare)
    except ValueError:
        return [url(bare, port)]  # a host name: the user knows it
    if not address.is_unspecified:
        return [url(bare, port)]
    families = [socket.AF_INET]
    if address.version == 6:
        families = [socket.AF_INET6]
        try:
            if not sock.getsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY):
                families.insert(0, socket.AF_INET)
        except OSError:
            pass
    return [url(a, port) for a in interface_addresses(families)]
