"""The address other machines reach this one at, for the links ``cardcore
serve --lan`` (``--host 0.0.0.0``) prints and shows: found without sending
anything (a UDP socket's ``connect`` only asks the kernel which source
address its route would use; no packet leaves), else the address the
machine's name resolves to, else 127.0.0.1."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Iterable

# where a route is asked for: TEST-NET-1 (RFC 5737), reachable by no one; a
# UDP connect sends nothing, it only picks the interface of the default route
PROBE = ("192.0.2.1", 9)
FALLBACK = "127.0.0.1"


def routed_address() -> str:
    """The source address of this machine's default route (no packet sent)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        sock.connect(PROBE)
        return str(sock.getsockname()[0])
    finally:
        sock.close()


def named_address() -> str:
    """The address the machine's own name resolves to (often 127.0.1.1 on Debian)."""
    return socket.gethostbyname(socket.gethostname())


def usable(address: str) -> bool:
    """An IPv4 address another machine could reach: not loopback, unspecified,
    link-local or multicast."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return (
        ip.version == 4
        and not ip.is_loopback
        and not ip.is_unspecified
        and not ip.is_link_local
        and not ip.is_multicast
    )


def network_address(ways: Iterable[Callable[[], str]] = (routed_address, named_address)) -> str:
    """The first usable address (``usable``) one of ``ways`` finds (a way that
    fails, ``OSError``, is skipped), else ``FALLBACK``."""
    for way in ways:
        try:
            found = way()
        except OSError:
            continue
        if usable(found):
            return found
    return FALLBACK
