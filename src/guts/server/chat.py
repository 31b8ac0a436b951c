"""A table's chat: who may speak, how often, and how many lines a night.

Approved seats and the host chat; spectators too where the table lets them. Each speaker
(a seat over all its connections, the host, the spectators together) has an allowance
that refills at :data:`CHAT_RATE` lines a second up to :data:`CHAT_BURST`, and a table
keeps at most :data:`MAX_CHAT_LINES` lines in its record a night. A line is committed as
any command is, and told to every client.
"""

from __future__ import annotations

import time

from guts.server.commands import ChatCommand
from guts.server.open_table import Client, OpenTable
from guts.server.protocol import Chat, ProtocolError
from guts.server.seats import check_host

MAX_CHAT_LINES = 1000
"""The most lines of chat a table keeps (in its record) a night."""
CHAT_RATE, CHAT_BURST = 0.5, 5.0
"""Each speaker may chat a line every ``1/CHAT_RATE`` seconds, ``CHAT_BURST`` at once."""
HOST_CHAT, SPECTATOR_CHAT = -1, -2
"""The ``seat_id`` of a chat line of the host with no seat, and of a spectator."""


class TableChat:
    """The chat of one table: its limits (its actor gives this module's) and what is left
    of each speaker's allowance."""

    def __init__(self, table: OpenTable, *, max_lines: int, rate: float, burst: float) -> None:
        self.table = table
        self.max_lines = max_lines
        self.rate = rate
        self.burst = burst
        self._allowance: dict[int, tuple[float, float]] = {}
        """Each speaker's allowance, and when it was taken from last (monotonic seconds)."""

    async def say(self, message: Chat, client: Client) -> None:
        """A line from an approved seat, the host or (where the table lets them) a
        spectator, within the speaker's allowance and the table's lines."""
        table = self.table
        state = table.state
        seat = state.seats.get(client.seat_id) if client.seat_id is not None else None
        nickname = None
        if message.secret is not None:
            check_host(table, message.secret)
            if state.host_seat is None:
                seat_id, nickname = HOST_CHAT, "Host"
            else:
                seat_id = state.host_seat
        elif seat is not None and seat.status == "approved":
            seat_id = seat.seat_id
        elif seat is None and state.spectator_chat:
            seat_id, nickname = SPECTATOR_CHAT, "Spectator"
        else:
            raise ProtocolError("not-seated", "only approved players and the host chat here")
        if state.chat_lines >= self.max_lines:
            raise ProtocolError("not-now", f"this table has kept {self.max_lines} lines of chat "
                                           "tonight: no more")  # fmt: skip
        if not self._allowed(seat_id):
            raise ProtocolError("rate-limited", "too much chat: a line every 2 seconds")
        await table.commit(ChatCommand(seat_id=seat_id, text=message.text, nickname=nickname))

    def _allowed(self, speaker: int) -> bool:
        """Take a line from ``speaker``'s allowance (a seat's, over all its connections;
        the host's; the spectators' together): False when it is spent."""
        now = time.monotonic()
        allowance, checked = self._allowance.get(speaker, (self.burst, now))
        allowance = min(self.burst, allowance + (now - checked) * self.rate)
        if allowance < 1:
            self._allowance[speaker] = (allowance, now)
            return False
        self._allowance[speaker] = (allowance - 1, now)
        return True
