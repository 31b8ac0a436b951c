"""The table actor: one asyncio task per open table, owning its engine session.

Every command for a table goes through its actor's inbox, one at a time, so the engine
session is never touched concurrently and needs no lock: the clients' messages, the
host's commands, the bots' turns and the next deal (which the table schedules for
itself), even a summary for the HTTP routes. An accepted command is applied, then
committed to the database with its sequence number, and only then is anyone told
("persist, then tell"); if the commit fails the actor rebuilds the table from the
database, which is the truth (memory is a cache), and if the database cannot be read
either the table refuses everything until it can (:attr:`TableActor.stale`). On server
start every open table is rebuilt by replaying its stored commands through the same
code (:meth:`TableActor.load`), with the shuffles fed back from the record
(:class:`~guts.server.dealer.Dealer`).

This module owns the inbox loop and the commit path. Each other concern of a table is
its own module, below this one: it sees the table as an
:class:`~guts.server.open_table.OpenTable` (the actor is the one kind) and commits through
:meth:`TableActor.commit`:

- :mod:`~guts.server.seats`: the seats and the lobby (resume, join, act, sit out, leave,
  chips; the credentials, nicknames and seat ids);
- :mod:`~guts.server.hosting`: the host's commands;
- :mod:`~guts.server.chat`: who may chat, and how much (:class:`~guts.server.chat.TableChat`);
- :mod:`~guts.server.clocks`: the action clocks (:class:`~guts.server.clocks.Clocks`);
- :mod:`~guts.server.autopilot`: what the table does by itself, and when
  (:class:`~guts.server.autopilot.Autopilot`);
- :mod:`~guts.server.telling`: what each client receives (snapshots, event frames, the
  seats). What a client receives of the game is made by :func:`guts.server.barrier.disclose`
  alone.

A concern that keeps something of its own between commands (the clocks, the chat's
allowances, the step scheduled) is an object the table holds; the others are functions
of the table. The time of the action clocks comes from ``Settings.clock`` (the event
loop's by default), so tests move it by hand and call :meth:`TableActor.tick`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import orjson

from guts.errors import GutsError
from guts.server import hosting, seats, telling
from guts.server.autopilot import Autopilot, Thought
from guts.server.chat import CHAT_BURST, CHAT_RATE, MAX_CHAT_LINES, TableChat
from guts.server.commands import ActCommand, Command, CommandError, PauseCommand
from guts.server.lease import LeaseLost
from guts.server.open_table import Client, OpenTable, Settings
from guts.server.protocol import (
    Act,
    AnyMessage,
    BuyChips,
    Chat,
    ComeBack,
    Join,
    Leave,
    ProtocolError,
    Resume,
    SitOut,
)
from guts.server.seats import MAX_REQUESTS, digest
from guts.server.state import TableState
from guts.server.storage import ActionRow, Storage, StoredTable, TableRow

__all__ = [
    "CHAT_BURST",
    "MAX_CHAT_LINES",
    "MAX_REQUESTS",
    "Client",
    "Remote",
    "Settings",
    "TableActor",
    "digest",
]

log = logging.getLogger("guts.server")

T = TypeVar("T")
Message = AnyMessage

FAILED = ProtocolError("internal", "the table failed to do that: nothing was changed")
"""What a client is told of an unexpected error in its command (the log has the rest)."""
UNTELLABLE = ProtocolError(
    "invalid",
    "the table cannot tell that to every seat (a number too large?): refused, nothing was changed",
)
"""What a client is told of a command whose events or views would not encode as JSON
(a number beyond 64 bits): it is rolled back, never committed."""
MOVED = ProtocolError("internal", "this table moved to another server: nothing was changed; "
                                  "reconnect")  # fmt: skip
"""What a client is told of a command refused because this node lost the table's lease."""
CLOSED = ProtocolError("internal", "the table closed here (it moved to another server, or "
                                   "the server stops): nothing was changed; reconnect")  # fmt: skip
"""What a command that comes after the table's actor stopped is told."""
WHY_HELD = ("the table could not tell its next step to every seat (a number too large): "
            "the host may end the night")  # fmt: skip
"""Why a table paused itself (:meth:`TableActor._hold`), as its snapshots say."""


@dataclass
class _Inbound:
    message: Message
    client: Client | None
    reply: asyncio.Future[None] | None = None


@dataclass
class _Query:
    ask: Callable[[], Any]
    reply: asyncio.Future[Any]


@dataclass
class _Attach:
    client: Client


@dataclass
class _Detach:
    client: Client


@dataclass
class _Auto:
    pass


@dataclass
class _Close:
    pass


_Item = _Inbound | _Query | _Attach | _Detach | _Auto | _Close | Thought


class Remote(Protocol):
    """Where the commands of a table go when another node owns it
    (:class:`guts.server.relay.Link`): its clients' messages, comings and goings."""

    def post(self, message: Message, client: Client) -> None: ...

    def attach(self, client: Client) -> None: ...

    def detach(self, client: Client) -> None: ...


class TableActor(OpenTable):
    """The owner of one table: its engine session, its seats and its clients."""

    def __init__(self, row: TableRow, storage: Storage, settings: Settings | None = None) -> None:
        super().__init__(row, storage, settings)
        self._inbox: asyncio.Queue[_Item] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self.chat = TableChat(self, max_lines=MAX_CHAT_LINES, rate=CHAT_RATE, burst=CHAT_BURST)
        """Who may chat, and how much (the limits as this module names them when the table
        opens: tests lower them)."""
        self.autopilot = Autopilot(self, tick=self.tick, hand_in=self.hand_in)
        """What the table does by itself (bots, deals, timeouts), and when."""
        self.fence: Callable[[Any], None] | None = None
        """The lease this node holds the table under (several nodes share the database):
        run in every commit's transaction, it refuses the commit once the lease is lost."""
        self.remote: Remote | None = None
        """Where the clients' messages go when another node owns the table (this actor is
        then a copy read from the database, never started)."""
        self.closed = False
        """True once the actor stopped (:meth:`close`): it takes no command any more."""
        self.on_lost: Callable[[TableActor], None] | None = None
        """Called once when a commit finds the lease lost (the node lets the table go)."""

    # -- the outside world's handles ------------------------------------------------------

    @property
    def queued(self) -> int:
        """How many commands and steps wait in the inbox."""
        return self._inbox.qsize()

    @property
    def thinking(self) -> bool:
        """True while a slow bot's choice is being made in a thread
        (:data:`~guts.server.autopilot.SLOW_BOTS`)."""
        return self.autopilot.thinking

    def next_step(self) -> float | None:
        """The delay before the table acts by itself (a bot plays, the next deal starts,
        the night stops), None while it waits for people; 0 while a bot's choice is
        being made in a thread."""
        return self.autopilot.next_step()

    def start(self) -> None:
        """Start the actor's task."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=f"table {self.id}")
            self.clocks.sync(self.state, None)
            self.autopilot.schedule()

    def tick(self) -> None:
        """Have the table look at once at what it must do by itself (a clock that ran
        out, a bot's turn): what its timer does when a step falls due."""
        self._inbox.put_nowait(_Auto())

    def hand_in(self, thought: Thought) -> None:
        """Queue a bot's choice made in a thread (the autopilot plays it in turn)."""
        self._inbox.put_nowait(thought)

    async def close(self) -> None:
        """Finish the commands queued so far and stop."""
        self.autopilot.stop()
        if self._task is not None:
            self._inbox.put_nowait(_Close())
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def post(self, message: Message, client: Client | None) -> None:
        """Queue a client's message (the answer, if any, goes to the client)."""
        if self.remote is not None and client is not None:
            self.remote.post(message, client)
            return
        if self.closed:
            _refuse(_Inbound(message, client), CLOSED)
            return
        self._inbox.put_nowait(_Inbound(message, client))

    async def call(self, message: Message, client: Client | None = None) -> None:
        """Apply ``message`` and wait for it: ProtocolError if it is refused."""
        if self.closed:
            raise CLOSED
        reply: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._inbox.put_nowait(_Inbound(message, client, reply))
        await reply

    async def query(self, ask: Callable[[], T]) -> T:
        """``ask()`` run by the actor between two commands (a consistent picture); at once
        by an actor that is not started (a copy of a table another node owns)."""
        if self._task is None:
            return ask()
        reply: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._inbox.put_nowait(_Query(ask, reply))
        return await reply

    def attach(self, client: Client) -> None:
        if self.remote is not None:
            self.remote.attach(client)
            return
        self._inbox.put_nowait(_Attach(client))

    def detach(self, client: Client) -> None:
        if self.remote is not None:
            self.remote.detach(client)
            return
        self._inbox.put_nowait(_Detach(client))

    # -- what the outside world reads (between commands) ----------------------------------

    def seat_list(self) -> list[dict[str, Any]]:
        """Every seat as everyone sees it (:func:`guts.server.telling.seat_list`)."""
        return telling.seat_list(self)

    def snapshot(self, client: Client | None) -> dict[str, Any]:
        """Everything ``client`` (None: a spectator) may see now."""
        return telling.snapshot(self, client)

    def info(self) -> dict[str, Any]:
        """The table as everyone sees it."""
        return telling.info(self)

    def summary(self) -> dict[str, Any]:
        """The public summary of the HTTP route (call it through :meth:`query`)."""
        return telling.summary(self)

    def clock_list(self) -> list[dict[str, Any]]:
        """The running clocks as the protocol's ``Clock`` objects."""
        return self.clocks.shown(self.state)

    def seat_of(self, token: str) -> int | None:
        """The lobby seat whose device token is ``token`` (None if none is)."""
        seat = seats.token_seat(self, token)
        return None if seat is None else seat.seat_id

    def is_host(self, secret: str) -> bool:
        """True if ``secret`` is the host's credential (:func:`guts.server.seats.is_host`)."""
        return seats.is_host(self, secret)

    # -- the loop -----------------------------------------------------------------------

    async def _run(self) -> None:
        while True:
            item = await self._inbox.get()
            if isinstance(item, _Close):
                self.closed = True
                while not self._inbox.empty():  # queued after the close: refused
                    left = self._inbox.get_nowait()
                    if isinstance(left, _Inbound | _Query):
                        _refuse(left, CLOSED)
                return
            try:
                await self._handle(item)
            except Exception as error:  # never let one command kill the table
                if error is MOVED:  # a step of its own, fenced off: logged already
                    continue
                log.exception("table %s: unexpected error", self.id,
                              extra={"event": "error", "table": self.id})  # fmt: skip
                if isinstance(item, _Auto | Thought) and not await self._hold(error):
                    self.stalled = f"{type(error).__name__}: {error}"  # not again and again
            self.autopilot.schedule()

    async def _hold(self, error: Exception) -> bool:
        """Pause the table, saying why, when a step it took by itself could not be told
        to every seat (:data:`UNTELLABLE`, rolled back): True if it is paused now. The
        host gets it back by ending the night (the chips settle as they stand) or, once
        what made the step untellable is changed, by resuming."""
        if error is not UNTELLABLE or self.state.paused:
            return False
        self.why_paused = WHY_HELD
        try:
            await self.commit(PauseCommand(paused=True))  # its snapshots say why
        except Exception:
            self.why_paused = ""
            raise
        return True

    async def _handle(self, item: _Item) -> None:
        if isinstance(item, _Auto):
            self.autopilot.stepping()
        if isinstance(item, Thought):
            self.autopilot.thought(item)
        if self.stale and isinstance(item, _Inbound | _Query | _Auto | Thought):
            try:
                await self._rebuild()
            except ProtocolError as error:
                _refuse(item, error)
                return
        if isinstance(item, _Attach):
            self.clients.add(item.client)
        elif isinstance(item, _Detach):
            before = telling.seat_list(self)
            self.clients.discard(item.client)
            telling.tell_connections(self, before)
        elif isinstance(item, _Query):
            if not item.reply.done():
                try:
                    item.reply.set_result(item.ask())
                except Exception as error:
                    item.reply.set_exception(error)
        elif isinstance(item, _Auto | Thought):
            await self.autopilot.step()
        elif isinstance(item, _Inbound):
            try:
                await self._message(item.message, item.client)
            except ProtocolError as error:
                _refuse(item, error)
                return
            except Exception as error:
                if item.reply is not None and not item.reply.done():
                    item.reply.set_exception(error)
                elif item.reply is None and item.client is not None:
                    item.client.send(FAILED.to_dict())
                raise
            if item.reply is not None and not item.reply.done():
                item.reply.set_result(None)

    async def _message(self, message: Message, client: Client | None) -> None:
        """Hand ``message`` to the concern it is for."""
        if isinstance(message, Resume):
            seats.resume(self, message, _needs(client))
        elif isinstance(message, Join):
            await seats.join(self, message, _needs(client))
        elif isinstance(message, Act):
            await seats.act(self, message, _needs(client))
        elif isinstance(message, Chat):
            await self.chat.say(message, _needs(client))
        elif isinstance(message, SitOut | ComeBack | Leave | BuyChips):
            await seats.player(self, message, _needs(client))
        else:
            await hosting.command(self, message, client)

    # -- applying and committing -----------------------------------------------------------

    async def commit(self, command: Command, *, acting: Client | None = None) -> bool:
        """Apply ``command``, commit it, then tell every client what it may see of it;
        True if the event frame sent to ``acting``, the client whose ``act`` the command
        is, says it was acknowledged (``acked``). For the table's own concerns, in the
        inbox loop only: ProtocolError (or the engine's GutsError) if it is refused, with
        nothing changed: a command applied but not committed, or that cannot be told to
        every seat, is undone by rebuilding the table from its record."""
        state = self.state
        status = state.status
        mark = state.mark()
        state.dealer.take()
        try:
            changed = state.apply(command)
        except GutsError:
            raise  # the engine refused it and changed nothing
        except Exception:  # a bug: the state may be half changed, so rebuild it
            with contextlib.suppress(ProtocolError):
                await self._rebuild()
            raise
        draws = state.dealer.take()
        if draws:
            command = command.model_copy(update={"draws": draws})
        if not _tellable(state, command, mark):  # refused and rolled back: the record
            await self._rebuild()  # is the truth, and it does not hold the command
            raise UNTELLABLE
        seq = state.seq + 1
        action = ActionRow(seq, command.kind, command.model_dump())
        try:
            await self.storage.append(
                self.id,
                action,
                seats=[state.row_of(s).row() for s in dict.fromkeys(changed)],
                status=state.status if state.status != status else None,
                fence=self.fence,
            )
        except LeaseLost:
            self._lose()
            raise MOVED from None
        except Exception:
            log.exception("table %s: command %d was not committed; reloading", self.id, seq,
                          extra={"event": "error", "table": self.id, "seq": seq})  # fmt: skip
            await self._rebuild()
            raise ProtocolError(
                "internal", "the table could not record that: nothing changed"
            ) from None
        entry = state.committed(seq, command, mark)
        self.clocks.sync(state, command.seat if isinstance(command, ActCommand) else None)
        return telling.tell(self, entry, command, lobby=bool(changed), acting=acting)

    def _lose(self) -> None:
        """Stop acting for the table: another node took its lease (this one was paused or
        cut off). Every commit it tries from now on is refused by the fence."""
        log.warning("table %s: the lease is lost; another node owns it", self.id,
                    extra={"event": "lease-lost", "table": self.id})  # fmt: skip
        self.stalled = "another node owns the table"
        lost, self.on_lost = self.on_lost, None
        if lost is not None:
            lost(self)

    # -- rebuilding ---------------------------------------------------------------------------

    def check(self) -> None:
        """Check that every session's chips add up to its ledger (GutsError if not)."""
        self.state.check()

    def load(self, stored: StoredTable) -> None:
        """Rebuild the table from its record (see :meth:`TableState.replay`)."""
        self.state = TableState.replay(stored)
        self.row = stored.table

    async def _rebuild(self) -> None:
        """Rebuild from the database after a failed commit; if it cannot be read, the
        table is :attr:`stale` and ProtocolError says so."""
        try:
            await self.reload()
        except Exception:
            log.exception("table %s: its record cannot be read", self.id,
                          extra={"event": "error", "table": self.id})  # fmt: skip
            self.stale = True
            raise ProtocolError(
                "internal", "the table cannot reach its record now: nothing changed; try again"
            ) from None
        self.stale = False

    async def reload(self) -> None:
        """Rebuild from the database (after a failed commit) and resend every snapshot."""
        stored = await self.storage.load(self.id)
        if stored is None:
            raise CommandError(f"table {self.id} is gone from the database")
        self.load(stored)
        telling.send_snapshots(self)


def _tellable(state: TableState, command: Command, mark: tuple[int, int]) -> bool:
    """True if what ``command`` (applied since ``mark``) makes can be told to every seat:
    the command itself, its engine events (hidden ones too) and the decisions pending
    encode as frames do (orjson: integers within 64 bits), and so do the stacks and the
    pot. The views hold nothing else that a command could make unbounded: their numbers
    are the stacks, the pot and what the events said."""
    session = state.session
    number, start = mark
    if state.session_number != number:
        start = 0
    try:
        orjson.dumps(command.model_dump(), option=orjson.OPT_NON_STR_KEYS)
        if session is not None:
            events = session.events[start:]
            if events:
                orjson.dumps([event.to_dict() for event in events],
                             option=orjson.OPT_NON_STR_KEYS)  # fmt: skip
            orjson.dumps([decision.to_dict() for decision in session.pending()],
                         option=orjson.OPT_NON_STR_KEYS)  # fmt: skip
            table = session.table
            if not all(-_BOUND < table.stack(n) < _BOUND for n in range(len(table.names))):
                return False
            if not -_BOUND < table.pot < _BOUND:
                return False
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return False
    return True


_BOUND = 2**63
"""Integers a frame may carry (orjson writes 64-bit integers)."""


def _refuse(item: _Inbound | _Query | _Auto | Thought, error: ProtocolError) -> None:
    """Tell whoever waits for ``item`` that it was refused with ``error``."""
    if isinstance(item, _Auto | Thought):
        return
    if item.reply is not None:
        if not item.reply.done():
            item.reply.set_exception(error)
    elif isinstance(item, _Inbound) and item.client is not None:
        item.client.send(error.to_dict())


def _needs(client: Client | None) -> Client:
    if client is None:
        raise ProtocolError("not-seated", "this message needs a connection")
    return client
