"""What one client may cost the server (docs/WEB.md, "Limits"): a token
bucket (a connection's messages), an address's network prefix (the lobby
counts addresses one by one and by /24 or /64), an address's budget of
search CPU (hints, bots from the lobby), and names folded for comparison
(``Ρlayer 1`` in Greek is ``Player 1``)."""

from __future__ import annotations

import functools
import ipaddress
import threading
import time
import unicodedata

PREFIX_V4 = 24  # the addresses of one IPv4 /24 count together in the lobby ...
PREFIX_V6 = 64  # ... and of one IPv6 /64
SEARCH_CPU_PER_MINUTE = 30.0  # seconds of search CPU (hints, bots from the lobby) per address and minute


class Bucket:
    """A token bucket: ``burst`` at once, then ``rate`` a second. ``take()``:
    one spent (True), or none left (False). Not thread-safe: one owner."""

    def __init__(self, burst: float, rate: float, clock: float | None = None) -> None:
        self.burst = float(burst)
        self.rate = float(rate)
        self.credit = float(burst)
        self.when = time.monotonic() if clock is None else clock

    def take(self, cost: float = 1.0, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        self.credit = min(self.burst, self.credit + (now - self.when) * self.rate)
        self.when = now
        if self.credit < cost:
            return False
        self.credit -= cost
        return True

    def give_back(self, cost: float = 1.0) -> None:
        """What ``take`` spent on something that turned out free."""
        self.credit = min(self.burst, self.credit + cost)


def prefix(address: str | None) -> str | None:
    """The network an address belongs to for the lobby's limits: its /24
    (IPv4, an IPv4-mapped IPv6 address too) or its /64 (IPv6); a name that
    is no address is its own prefix. ``127.0.0.1`` and ``127.0.0.40`` are
    one prefix, ``127.0.0.0/24``."""
    if address is None:
        return None
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    bits = PREFIX_V4 if ip.version == 4 else PREFIX_V6
    return str(ipaddress.ip_network(f"{ip}/{bits}", strict=False))


class SearchBudget:
    """Each address's search CPU (seconds of its thread's CPU time): a bucket
    of ``per_minute`` seconds that fills at ``per_minute`` a minute. A search
    is charged what it took when it ends (``charge``); while an address's
    credit is below zero, ``wait`` says how long until it is not (its hints
    are refused, its lobby bots wait). Thread-safe (the tables' threads)."""

    def __init__(self, per_minute: float = SEARCH_CPU_PER_MINUTE, burst: float | None = None) -> None:
        self.rate = per_minute / 60.0
        self.burst = per_minute if burst is None else burst
        self._credit: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def _now(self, address: str, now: float) -> float:
        credit, when = self._credit.get(address, (self.burst, now))
        return min(self.burst, credit + (now - when) * self.rate)

    def wait(self, address: str | None) -> float:
        """Seconds until ``address`` may search again (0: now)."""
        if address is None:
            return 0.0
        with self._lock:
            credit = self._now(address, time.monotonic())
        if credit > 0:
            return 0.0
        return (-credit) / self.rate + 0.01 if self.rate > 0 else float("inf")

    def charge(self, address: str | None, seconds: float) -> None:
        """``address`` used ``seconds`` of search CPU."""
        if address is None:
            return
        with self._lock:
            now = time.monotonic()
            self._credit[address] = (self._now(address, now) - max(seconds, 0.0), now)
            if len(self._credit) > 4096:  # the full ones are forgotten (a full bucket is the default)
                full = [a for a, (c, w) in self._credit.items() if c + (now - w) * self.rate >= self.burst]
                for a in full:
                    del self._credit[a]


@functools.cache
def _confusable_classes() -> dict[str, str]:
    """Each character that looks like another → one representative of its
    look-alikes (the smallest code point: ASCII where one is among them),
    from Unicode's confusables (``confusable_homoglyphs``' table of UTS #39)."""
    from confusable_homoglyphs.confusables import confusables_data

    parent: dict[str, str] = {}

    def find(c: str) -> str:
        root = c
        while parent.get(root, root) != root:
            root = parent[root]
        while parent.get(c, c) != root:  # path compression
            parent[c], c = root, parent[c]
        return root

    for char, alikes in confusables_data.items():
        if len(char) != 1:
            continue
        for alike in alikes:
            other = alike.get("c", "")
            if len(other) != 1:
                continue
            a, b = find(char), find(other)
            if a != b:
                parent[max(a, b)] = min(a, b)
    return {c: find(c) for c in parent}


def fold_name(name: str) -> str:
    """A name as names are compared at a table: Unicode compatibility form
    (NFKC), no invisible characters, spaces folded, case folded, and each
    character replaced by one of its look-alikes (``Ρlayer 1`` with a Greek
    capital rho, ``Ｐlayer 1`` in full width, ``PLAYER 1`` are ``player 1``)."""
    classes = _confusable_classes()
    text = unicodedata.normalize("NFKC", str(name))
    text = "".join(ch for ch in text if unicodedata.category(ch)[0] not in "CZ" or ch == " ")
    text = " ".join(text.split()).casefold()
    text = "".join(classes.get(ch, ch) for ch in text)
    return unicodedata.normalize("NFKC", text).casefold()
