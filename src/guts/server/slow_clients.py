"""Connections that send their request's headers too slowly are closed.

uvicorn closes a connection idle after a response (its keep-alive timeout), but waits
for ever on one that opened and sent nothing, or half a request's headers (a slowloris).
:func:`header_deadline` gives uvicorn an HTTP protocol that closes such a connection once
``seconds`` pass without a whole request head; a websocket, once upgraded, is its own
protocol's and never timed here.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

__all__ = ["header_deadline"]


def header_deadline(seconds: float) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol, closing a connection that takes over ``seconds`` to send
    the head of a request (from its opening, or from its first byte after a response)."""

    class Deadline(HttpToolsProtocol):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None
            super().connection_lost(exc)

        def _waiting(self) -> bool:
            """No request in hand: the connection owes the head of the next one."""
            return self.cycle is None or self.cycle.response_complete

        def _arm(self) -> None:
            if self._deadline is None and self._waiting():
                loop = asyncio.get_running_loop()
                self._deadline = loop.call_later(seconds, self._expire, self.cycle)

        def _expire(self, cycle: object) -> None:
            self._deadline = None
            transport = self.transport
            if transport is None or transport.is_closing() or transport.get_protocol() is not self:
                return  # closed, or a websocket now
            if self._waiting() and self.cycle is cycle:
                transport.close()  # no whole request head in time
            else:
                self._arm()

    return Deadline
