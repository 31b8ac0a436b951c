"""An open table as each of its concerns sees it, and the clients connected to it.

The concerns of a table (:mod:`~guts.server.seats`, :mod:`~guts.server.hosting`,
:mod:`~guts.server.chat`, :mod:`~guts.server.autopilot`, :mod:`~guts.server.telling`)
read and change an :class:`OpenTable`: its record's row, what its commands built
(:class:`~guts.server.state.TableState`), its clients, its action clocks, and why it
paused or stopped by itself; and they change the game only through
:meth:`OpenTable.commit`. The table's actor (:class:`~guts.server.actor.TableActor`) is
the one kind of open table: it runs the concerns one command at a time from its inbox,
and its commit path persists each command before anyone is told of it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mypy_extensions import mypyc_attr

from guts.server.clocks import Clocks
from guts.server.commands import Command
from guts.server.presets import TableGame
from guts.server.state import TableSession, TableState
from guts.server.storage import Storage, TableRow


@dataclass(frozen=True)
class Settings:
    """How a server's tables run: the pause before a bot acts and before the next deal
    (seconds; 0 in tests), and the time the action clocks read (None: the event loop's;
    tests give their own)."""

    bot_delay: float = 0.6
    deal_delay: float = 1.5
    clock: Callable[[], float] | None = None


@mypyc_attr(allow_interpreted_subclasses=True)  # the websocket layer's, and tests'
class Client:
    """One connected client as its table sees it. The table alone sets ``seat_id`` and
    ``ready``; :meth:`send` must not block (the websocket layer queues the message)."""

    def __init__(self) -> None:
        self.seat_id: int | None = None
        self.ready = False
        self.closing = 1000
        self.outbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()

    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message`` for the client."""
        self.outbox.put_nowait(message)

    def hang_up(self, code: int = 1012) -> None:
        """Close the connection after what waits, with ``code`` (1012: the table moved to
        another node, or lost frames on the way: reconnect and resume)."""
        self.closing = code
        self.outbox.put_nowait(None)


class OpenTable:
    """One open table: its row, its state, its clients and its clocks."""

    def __init__(self, row: TableRow, storage: Storage, settings: Settings | None = None) -> None:
        self.row = row
        self.storage = storage
        self.settings = settings or Settings()
        self.clients: set[Client] = set()
        self.state = TableState(row)
        """What the table's commands have built (read it only between commands)."""
        self.clocks = Clocks(self.now)
        """The running action clock of each game seat a person must decide for."""
        self.why_paused = ""
        """Why the table paused itself ('' when it did not, or the host resumed it)."""
        self.stalled = ""
        """Why the table stopped acting by itself (an unexpected error), '' if it did not."""
        self.stale = False
        """True when a command was applied but not committed and the table could not be
        rebuilt from the database: memory is ahead of the truth, so the table does nothing
        by itself and rebuilds before anything else (refusing it while it cannot)."""

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def game(self) -> TableGame:
        return self.state.game

    @property
    def seq(self) -> int:
        """The sequence number of the last committed command."""
        return self.state.seq

    @property
    def session(self) -> TableSession | None:
        """The engine session (None before the start); read it only between commands."""
        return self.state.session

    @property
    def status(self) -> str:
        return self.state.status

    @property
    def buy_in(self) -> int:
        return int(self.row.stakes.get("buy_in", 100))

    def now(self) -> float:
        """The time of the action clocks, in seconds."""
        clock = self.settings.clock
        return clock() if clock is not None else asyncio.get_running_loop().time()

    async def commit(self, command: Command, *, acting: Client | None = None) -> bool:
        """Apply ``command``, commit it, then tell every client what it may see of it;
        True if the event frame sent to ``acting``, the client whose ``act`` the command
        is, says it was acknowledged (``acked``). ProtocolError (or the engine's
        GutsError) if it is refused, with nothing changed. The actor's commit path
        (:meth:`guts.server.actor.TableActor.commit`)."""
        raise NotImplementedError
