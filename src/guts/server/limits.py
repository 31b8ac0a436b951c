"""What one client may ask of the server: request bodies, connections and tables per
address, and the address itself.

Every limit here is a number a host may read in ``docs/security.md``; the ones a host may
set are :class:`Limits`' fields (``guts serve`` flags).
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from starlette.requests import HTTPConnection, Request

if TYPE_CHECKING:
    from guts.server.shared_limits import SharedCounts

__all__ = [
    "MAX_BODY_BYTES",
    "AddressBook",
    "BodyTooLarge",
    "Limits",
    "client_address",
    "read_body",
]

MAX_BODY_BYTES = 1 << 20
"""The largest request body any route reads (``POST /api/narrate``'s; the others' are
smaller: :data:`~guts.server.protocol.MAX_MESSAGE_BYTES`)."""


class BodyTooLarge(Exception):
    """A request body over its route's limit (answered 413, unread past the limit)."""


def bearer_token(request: HTTPConnection) -> str:
    """The token of the request's ``Authorization: Bearer TOKEN`` header (a seat's device
    token or the host secret); empty without one."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


async def read_body(request: Request, limit: int) -> bytes:
    """The request's body, read no further than ``limit`` bytes (BodyTooLarge beyond)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise BodyTooLarge
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise BodyTooLarge
    return bytes(body)


@dataclass(frozen=True)
class Limits:
    """What one client address may hold or do (0: no limit): open websockets
    (``connections``), tables opened a minute (``tables_per_minute``), and which proxies'
    ``X-Forwarded-For`` is believed (``forwarded_allow_ips``: addresses or networks;
    empty: none, the peer's address is the client's). ``flood_closes``: messages over a
    connection's rate in a row after which the connection is closed. ``table_idle_s``:
    seconds after which a table with no seated person (and no game on) expires.
    ``allowed_hosts``: the ``Host`` names the server answers (empty: any)."""

    connections: int = 50
    tables_per_minute: int = 60
    forwarded_allow_ips: tuple[str, ...] = ()
    flood_closes: int = 200
    table_idle_s: float = 86_400.0
    allowed_hosts: tuple[str, ...] = ()

    def trusts(self, peer: str) -> bool:
        """True if ``peer`` is a proxy whose ``X-Forwarded-For`` is believed."""
        if not self.forwarded_allow_ips or not peer:
            return False
        if "*" in self.forwarded_allow_ips:
            return True
        try:
            address = ipaddress.ip_address(peer)
        except ValueError:
            return False
        for allowed in self.forwarded_allow_ips:
            try:
                if address in ipaddress.ip_network(allowed, strict=False):
                    return True
            except ValueError:
                continue
        return False

    def host_allowed(self, host: str) -> bool:
        """True if ``host`` (a ``Host`` header, its port left out) is one the server
        answers: any when no names are set; ``*.example.org`` allows its subdomains."""
        if not self.allowed_hosts:
            return True
        name = _host_name(host)
        for allowed in self.allowed_hosts:
            if allowed == "*" or name == allowed.lower():
                return True
            if allowed.startswith("*.") and name.endswith(allowed[1:].lower()):
                return True
        return False


def _host_name(host: str) -> str:
    """``host`` without its port, lower case (``[::1]:8000`` gives ``[::1]``)."""
    host = host.strip().lower()
    if host.startswith("["):
        return host.partition("]")[0] + "]"
    return host.rpartition(":")[0] if host.count(":") == 1 else host


def client_address(connection: HTTPConnection, limits: Limits) -> str:
    """The client's address: the peer's, or, when the peer is a trusted proxy, the last
    address of ``X-Forwarded-For`` that no trusted proxy holds."""
    peer = connection.client.host if connection.client else ""
    if not limits.trusts(peer):
        return peer
    forwarded = [part.strip() for part in
                 ",".join(connection.headers.getlist("x-forwarded-for")).split(",")]  # fmt: skip
    for address in reversed([part for part in forwarded if part]):
        if not limits.trusts(address):
            return address
    return peer


class AddressBook:
    """What each client address holds: its open websockets, and the tables it opened in
    the last minute. One node of several also counts with the others (``shared``,
    :class:`~guts.server.shared_limits.SharedCounts`), so that the limits hold for the
    nodes together; where Redis does not answer, this node's own count decides."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.open: dict[str, int] = {}
        self.opened: dict[str, list[float]] = {}
        self.shared: SharedCounts | None = None
        self._shared_open: dict[str, int] = {}
        """The websockets of each address this node counted in ``shared`` too."""

    async def connect(self, address: str) -> bool:
        """Count a websocket of ``address``: False (not counted) when it holds the most
        (here, or at all the nodes together)."""
        held = self.open.get(address, 0)
        if self.limits.connections and held >= self.limits.connections:
            return False
        self.open[address] = held + 1
        if self.shared is None or not self.limits.connections:
            return True
        admitted = await self.shared.connect(address, self.limits.connections)
        if admitted is False:
            self._uncount(address)
            return False
        if admitted:
            self._shared_open[address] = self._shared_open.get(address, 0) + 1
        return True

    async def disconnect(self, address: str) -> None:
        """Take back a websocket :meth:`connect` counted."""
        self._uncount(address)
        shared = self._shared_open.get(address, 0)
        if self.shared is not None and shared:
            if shared > 1:
                self._shared_open[address] = shared - 1
            else:
                del self._shared_open[address]
            await self.shared.disconnect(address)

    def _uncount(self, address: str) -> None:
        held = self.open.get(address, 0) - 1
        if held > 0:
            self.open[address] = held
        else:
            self.open.pop(address, None)

    async def may_open_table(self, address: str) -> bool:
        """Count a table opened by ``address``: False when it opened the most this minute
        (here, or at all the nodes together)."""
        if not self.opens_here(address):
            return False
        if self.shared is None or not self.limits.tables_per_minute:
            return True
        counted = await self.shared.open_table(address, self.limits.tables_per_minute)
        return counted is not False

    def opens_here(self, address: str, now: float | None = None) -> bool:
        """This node's own count of the tables ``address`` opened in the last minute:
        False, not counted, when it opened the most."""
        limit = self.limits.tables_per_minute
        if not limit:
            return True
        now = time.monotonic() if now is None else now
        recent = [moment for moment in self.opened.get(address, ()) if now - moment < 60]
        if len(recent) >= limit:
            self.opened[address] = recent
            return False
        recent.append(now)
        self.opened[address] = recent
        self._forget(now)
        return True

    def _forget(self, now: float) -> None:
        """Drop the addresses that opened nothing this minute (memory stays bounded)."""
        if len(self.opened) > 10_000:
            stale: Iterable[str] = [address for address, moments in self.opened.items()
                                    if not moments or now - moments[-1] >= 60]  # fmt: skip
            for address in list(stale):
                del self.opened[address]
