"""The table actor: one asyncio task per open table, owning its engine session.

Every command for a table goes through its actor's inbox, one at a time, so the engine
session is never touched concurrently and needs no lock: the clients' messages, the
host's commands, the bots' turns and the next deal (which the actor schedules for
itself), even a summary for the HTTP routes. An accepted command is applied, then
committed to the database with its sequence number, and only then is anyone told
("persist, then tell"); if the commit fails the actor rebuilds the table from the
database, which is the truth (memory is a cache), and if the database cannot be read
either the table refuses everything until it can (:attr:`TableActor.stale`). On server
start every open table is rebuilt by replaying its stored commands through the same
code (:meth:`TableActor.load`), with the shuffles fed back from the record
(:class:`~guts.server.dealer.Dealer`).

What a client receives of the game is made by :func:`guts.server.barrier.disclose`
alone; the actor adds the lobby (seats, nicknames), the clocks, the chat and the
sequence numbers.

The action clocks: a person who must decide has the table's ``clock`` seconds, then
what is left of their time bank; when both run out the actor takes the seat's safe
action (:meth:`~guts.server.state.TableState.safe`) as a timeout, and after
``away_after`` timeouts in a row the seat is set away. A disconnected person's clock
runs the same way. The time comes from ``Settings.clock`` (the event loop's by default),
so tests move it by hand and call :meth:`TableActor.tick`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import random
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeVar

import orjson
from mypy_extensions import mypyc_attr

from guts.bots import BOT_NAMES, Policy
from guts.errors import GutsError
from guts.games.base import Decision, Event
from guts.night.bots import NightPolicy
from guts.server.barrier import disclose, disclose_each
from guts.server.commands import (
    ActCommand,
    ApproveCommand,
    AwayCommand,
    BotCommand,
    ChatCommand,
    ChipsCommand,
    Command,
    CommandError,
    DealCommand,
    EndCommand,
    HostCommand,
    JoinCommand,
    LeaveCommand,
    OptionsCommand,
    PauseCommand,
    RefuseCommand,
    StartCommand,
    StopCommand,
)
from guts.server.lease import LeaseLost
from guts.server.names import skeleton
from guts.server.presets import TableGame, check_bots
from guts.server.protocol import (
    MAX_SEATS,
    PROTOCOL_VERSION,
    Act,
    AddBot,
    AnyMessage,
    Approve,
    ApproveChips,
    BuyChips,
    Chat,
    ComeBack,
    End,
    HandHost,
    HostMessage,
    Join,
    Kick,
    Leave,
    Pause,
    ProtocolError,
    Refuse,
    RefuseChips,
    Resume,
    SetAway,
    SetOptions,
    SitOut,
    Start,
)
from guts.server.state import Logged, Seat, TableSession, TableState
from guts.server.storage import ActionRow, Storage, StoredTable, TableRow

__all__ = ["Client", "Remote", "Settings", "TableActor", "digest"]

log = logging.getLogger("guts.server")

T = TypeVar("T")
Message = AnyMessage

MAX_REQUESTS = 8
"""The most seat requests a table keeps waiting for the host (a refused or withdrawn
one frees its place, its seat id and its nickname)."""
MAX_CHAT_LINES = 1000
"""The most lines of chat a table keeps (in its record) a night."""
CHAT_RATE, CHAT_BURST = 0.5, 5.0
"""Each speaker may chat a line every ``1/CHAT_RATE`` seconds, ``CHAT_BURST`` at once."""
HOST_CHAT, SPECTATOR_CHAT = -1, -2
"""The ``seat_id`` of a chat line of the host with no seat, and of a spectator."""
MAX_CATCH_UP = 1000
"""A client that missed more commands than this gets a snapshot instead."""
FAILED = ProtocolError("internal", "the table failed to do that: nothing was changed")
UNTELLABLE = ProtocolError(
    "invalid",
    "the table cannot tell that to every seat (a number too large?): refused, nothing was changed",
)
"""What a client is told of a command whose events or views would not encode as JSON
(a number beyond 64 bits): it is rolled back, never committed."""
"""What a client is told of an unexpected error in its command (the log has the rest)."""
MOVED = ProtocolError("internal", "this table moved to another server: nothing was changed; "
                                  "reconnect")  # fmt: skip
"""What a client is told of a command refused because this node lost the table's lease."""
CLOSED = ProtocolError("internal", "the table closed here (it moved to another server, or "
                                   "the server stops): nothing was changed; reconnect")  # fmt: skip
"""What a command that comes after the table's actor stopped is told."""


def digest(secret: str) -> str:
    """The SHA-256 of a secret or token, as stored (they carry 128 bits or more)."""
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True)
class Settings:
    """How a server's tables run: the pause before a bot acts and before the next deal
    (seconds; 0 in tests), and the time the action clocks read (None: the event loop's;
    tests give their own)."""

    bot_delay: float = 0.6
    deal_delay: float = 1.5
    clock: Callable[[], float] | None = None


@dataclass
class _Clock:
    """A person's running action clock: since when, and their time bank then (ms)."""

    seat_id: int
    started: float
    bank_ms: int


@mypyc_attr(allow_interpreted_subclasses=True)  # the websocket layer's, and tests'
class Client:
    """One connected client as its table sees it. The actor alone sets ``seat_id`` and
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


@dataclass
class _Thought:
    """A bot's choice made off the event loop, for the decision ``key`` names (or the
    error its policy raised)."""

    key: tuple[Any, ...]
    action: str | None
    error: BaseException | None = None


_Item = _Inbound | _Query | _Attach | _Detach | _Auto | _Close | _Thought

SLOW_BOTS = frozenset({"equilibrium"})
"""The bots whose choice may take seconds of CPU (a first solve of the game): they choose
in a thread, so that no table of the server waits for them."""


class Remote(Protocol):
    """Where the commands of a table go when another node owns it
    (:class:`guts.server.relay.Link`): its clients' messages, comings and goings."""

    def post(self, message: Message, client: Client) -> None: ...

    def attach(self, client: Client) -> None: ...

    def detach(self, client: Client) -> None: ...


class TableActor:
    """The owner of one table: its engine session, its seats and its clients."""

    def __init__(self, row: TableRow, storage: Storage, settings: Settings | None = None) -> None:
        self.row = row
        self.storage = storage
        self.settings = settings or Settings()
        self.clients: set[Client] = set()
        self.state = TableState(row)
        """What the table's commands have built (read it only between commands)."""
        self._bot_rng = random.SystemRandom()
        self._inbox: asyncio.Queue[_Item] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._auto_due = False
        self._due_at = 0.0
        self._timer: asyncio.TimerHandle | None = None
        self.stalled = ""
        """Why the table stopped acting by itself (an unexpected error), '' if it did not."""
        self.stale = False
        """True when a command was applied but not committed and the table could not be
        rebuilt from the database: memory is ahead of the truth, so the table does nothing
        by itself and rebuilds before anything else (refusing it while it cannot)."""
        self._chat_allowance: dict[int, tuple[float, float]] = {}
        self.why_paused = ""
        """Why the table paused itself ('' when it did not, or the host resumed it)."""
        self.clocks: dict[int, _Clock] = {}
        """The running action clock of each game seat a person must decide for."""
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
        self._thinking: asyncio.Task[None] | None = None
        """A slow bot's choice being made in a thread (:data:`SLOW_BOTS`), if any."""
        self._thought: _Thought | None = None
        """The last choice made in a thread, until the table plays it or moves on."""

    # -- the outside world's handles ------------------------------------------------------

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

    @property
    def queued(self) -> int:
        """How many commands and steps wait in the inbox."""
        return self._inbox.qsize()

    @property
    def thinking(self) -> bool:
        """True while a slow bot's choice is being made in a thread (:data:`SLOW_BOTS`)."""
        return self._thinking is not None

    def next_step(self) -> float | None:
        """The delay before the table acts by itself (a bot plays, the next deal starts,
        the night stops), None while it waits for people; 0 while a bot's choice is
        being made in a thread."""
        return 0.0 if self._thinking is not None else self._automatic()

    def start(self) -> None:
        """Start the actor's task."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=f"table {self.id}")
            self._sync_clocks(None)
            self._schedule()

    def tick(self) -> None:
        """Have the table look at once at what it must do by itself (a clock that ran
        out, a bot's turn): what its timer does when a step falls due."""
        self._inbox.put_nowait(_Auto())

    def now(self) -> float:
        """The time of the action clocks, in seconds."""
        clock = self.settings.clock
        return clock() if clock is not None else asyncio.get_running_loop().time()

    async def close(self) -> None:
        """Finish the commands queued so far and stop."""
        if self._timer is not None:
            self._timer.cancel()
        if self._thinking is not None:  # its thread finishes alone; nothing waits for it
            self._thinking.cancel()
            self._thinking = None
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
                if isinstance(item, _Auto | _Thought) and not await self._hold(error):
                    self.stalled = f"{type(error).__name__}: {error}"  # not again and again
            self._schedule()

    async def _hold(self, error: Exception) -> bool:
        """Pause the table, saying why, when a step it took by itself could not be told
        to every seat (:data:`UNTELLABLE`, rolled back): True if it is paused now. The
        host gets it back by ending the night (the chips settle as they stand) or, once
        what made the step untellable is changed, by resuming."""
        if error is not UNTELLABLE or self.state.paused:
            return False
        self.why_paused = ("the table could not tell its next step to every seat (a number "
                           "too large): the host may end the night")  # fmt: skip
        try:
            await self._commit(PauseCommand(paused=True))  # its snapshots say why
        except Exception:
            self.why_paused = ""
            raise
        return True

    async def _handle(self, item: _Item) -> None:
        if isinstance(item, _Auto):
            self._auto_due = False
        if isinstance(item, _Thought):
            self._thinking, self._thought = None, item
        if self.stale and isinstance(item, _Inbound | _Query | _Auto | _Thought):
            try:
                await self._rebuild()
            except ProtocolError as error:
                _refuse(item, error)
                return
        if isinstance(item, _Attach):
            self.clients.add(item.client)
        elif isinstance(item, _Detach):
            before = self.seat_list()
            self.clients.discard(item.client)
            self._tell_connections(before)
        elif isinstance(item, _Query):
            if not item.reply.done():
                try:
                    item.reply.set_result(item.ask())
                except Exception as error:
                    item.reply.set_exception(error)
        elif isinstance(item, _Auto | _Thought):
            await self._auto()
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

    # -- messages --------------------------------------------------------------------------

    async def _message(self, message: Message, client: Client | None) -> None:
        if isinstance(message, Resume):
            self._resume(message, _needs(client))
        elif isinstance(message, Join):
            await self._join(message, _needs(client))
        elif isinstance(message, Act):
            await self._act(message, _needs(client))
        elif isinstance(message, Chat):
            await self._chat(message, _needs(client))
        elif isinstance(message, SitOut | ComeBack | Leave | BuyChips):
            await self._player(message, _needs(client))
        else:
            self._check_host(message.secret)
            if isinstance(message, Kick) and message.seat_id in (
                self.state.host_seat,
                None if client is None else client.seat_id,
            ):
                raise ProtocolError(
                    "invalid", "the host cannot kick their own seat: leave from the Seat tab"
                )
            await self._host(message)

    def _resume(self, message: Resume, client: Client) -> None:
        if message.token is not None:
            found = self._token_seat(message.token)
            if found is None:
                raise ProtocolError("no-such-seat", "no seat of this table has that token")
            before = self.seat_list()
            client.seat_id = found.seat_id
            client.ready = True
            client.send(self.snapshot(client))
            self._tell_connections(before)
            return
        client.ready = True
        missed = self._missed(message.last_seq)
        if missed is None:
            client.send(self.snapshot(client))
        else:
            client.send(self._event_frame(client, missed))

    def seat_of(self, token: str) -> int | None:
        """The lobby seat whose device token is ``token`` (None if none is)."""
        seat = self._token_seat(token)
        return None if seat is None else seat.seat_id

    def _token_seat(self, token: str) -> Seat | None:
        wanted = digest(token)
        for seat in self.state.seats.values():
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, wanted):
                return seat
        return None

    def _missed(self, last_seq: int | None) -> list[Logged] | None:
        """The commands after ``last_seq`` if they can be sent as events (None: send a
        snapshot instead)."""
        state = self.state
        if last_seq is None or not 0 <= last_seq <= state.seq or state.session is None:
            return None
        missed = [entry for entry in state.log if entry.seq > last_seq]
        plain = {"deal", "act", "stop", "end"}
        current = len(state.sessions) - 1
        if len(missed) > MAX_CATCH_UP or any(
            entry.kind not in plain or entry.session != current for entry in missed
        ):
            return None
        return missed

    async def _join(self, message: Join, client: Client) -> None:
        state = self.state
        if client.seat_id is not None:
            raise ProtocolError("not-now", "this connection has a seat already")
        if state.status == "over":
            raise ProtocolError("not-now", "the night is over")
        self._check_free(message.nickname, request=not self.row.auto_approve)
        buy_in = message.buy_in if message.buy_in is not None else state.buy_in
        if buy_in > state.buy_in:
            raise ProtocolError("invalid", f"the buy-in is at most {state.buy_in}")
        host = message.secret is not None
        if message.secret is not None:
            self._check_host(message.secret)
        token = secrets.token_urlsafe(32)
        seat_id = self._free_seat()
        await self._commit(
            JoinCommand(seat_id=seat_id, nickname=message.nickname, buy_in=buy_in,
                        token_hash=digest(token), host=host)
        )  # fmt: skip
        before = self.seat_list()
        client.seat_id = seat_id
        client.ready = True
        seat = state.seats[seat_id]
        client.send(
            {
                "type": "welcome",
                "seat_id": seat_id,
                "nickname": seat.nickname,
                "token": token,
                "status": seat.status,
            }
        )
        client.send(self.snapshot(client))
        self._tell_connections(before)

    def _seated(self, client: Client, doing: str) -> Seat:
        seat = self.state.seats.get(client.seat_id) if client.seat_id is not None else None
        if seat is None:
            raise ProtocolError("not-seated", f"only a seated player {doing}: join or resume first")
        return seat

    async def _act(self, message: Act, client: Client) -> None:
        state = self.state
        seat = self._seated(client, "acts")
        if state.session is None or seat.number is None:
            raise ProtocolError(
                "not-now",
                f"{seat.nickname} is not dealt in: the game has not started with this seat",
            )
        if message.seat != seat.number:
            raise ProtocolError(
                "wrong-seat", f"this connection plays seat {seat.number}, not {message.seat}"
            )
        last = state.client_seqs.get(seat.seat_id)
        if last is not None and message.client_seq <= last[0]:
            applied = last[1] if message.client_seq == last[0] else None
            client.send(
                {"type": "ack", "client_seq": message.client_seq, "seq": applied, "duplicate": True}
            )
            return
        if state.paused:
            raise ProtocolError("not-now", "the table is paused: wait for the host to resume")
        try:
            action = state.session.canonical(seat.number, message.action)
        except GutsError as error:
            raise ProtocolError("illegal", str(error)[:300]) from None
        command = ActCommand(
            seat=seat.number,
            action=action,
            seat_id=seat.seat_id,
            client_seq=message.client_seq,
            bank_ms=self._bank_used(seat.number),
        )
        if not await self._commit(command, acting=client):  # no event frame acknowledged it
            client.send(
                {"type": "ack", "client_seq": message.client_seq, "seq": state.seq,
                 "duplicate": False}
            )  # fmt: skip

    async def _chat(self, message: Chat, client: Client) -> None:
        """A line from an approved seat, the host or (where the table lets them) a
        spectator, within the speaker's allowance and the table's lines."""
        state = self.state
        seat = state.seats.get(client.seat_id) if client.seat_id is not None else None
        nickname = None
        if message.secret is not None:
            self._check_host(message.secret)
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
        if state.chat_lines >= MAX_CHAT_LINES:
            raise ProtocolError("not-now", f"this table has kept {MAX_CHAT_LINES} lines of chat "
                                           "tonight: no more")  # fmt: skip
        if not self._chat_allowed(seat_id):
            raise ProtocolError("rate-limited", "too much chat: a line every 2 seconds")
        await self._commit(ChatCommand(seat_id=seat_id, text=message.text, nickname=nickname))

    def _chat_allowed(self, speaker: int) -> bool:
        """Take a line from ``speaker``'s allowance (a seat's, over all its connections;
        the host's; the spectators' together): False when it is spent."""
        now = time.monotonic()
        allowance, checked = self._chat_allowance.get(speaker, (CHAT_BURST, now))
        allowance = min(CHAT_BURST, allowance + (now - checked) * CHAT_RATE)
        if allowance < 1:
            self._chat_allowance[speaker] = (allowance, now)
            return False
        self._chat_allowance[speaker] = (allowance - 1, now)
        return True

    async def _withdraw(self, seat: Seat, by: Literal["host", "player"]) -> None:
        """Refuse (or, by the player, withdraw) seat request ``seat``: it frees its seat id
        and nickname, and its connections are spectators from then on."""
        await self._commit(RefuseCommand(seat_id=seat.seat_id, by=by))
        for client in self.clients:
            if client.seat_id == seat.seat_id:
                client.seat_id = None
                if client.ready:
                    client.send(self.snapshot(client))

    async def _player(self, message: SitOut | ComeBack | Leave | BuyChips, client: Client) -> None:
        seat = self._seated(client, "does that")
        if seat.status == "requested" and isinstance(message, Leave):
            await self._withdraw(seat, "player")
            return
        if seat.status == "left" or seat.leaving:
            raise ProtocolError("not-now", f"{seat.nickname} has left the table")
        if seat.status != "approved":
            raise ProtocolError("not-now", f"{seat.nickname}'s seat is not approved")
        if isinstance(message, SitOut | ComeBack):
            away = isinstance(message, SitOut)
            if seat.away == away:
                word = "sitting out" if away else "dealt in"
                raise ProtocolError("not-now", f"{seat.nickname} is {word} already")
            await self._commit(AwayCommand(seat_id=seat.seat_id, away=away, by="player"))
        elif isinstance(message, Leave):
            await self._commit(LeaveCommand(seat_id=seat.seat_id, by="player"))
        else:
            await self._ask_chips(seat, message.amount)

    async def _ask_chips(self, seat: Seat, amount: int) -> None:
        state = self.state
        if amount > state.buy_in:
            raise ProtocolError("invalid", f"a rebuy or top-up is at most {state.buy_in}")
        if seat.asked:
            raise ProtocolError("not-now", f"{seat.nickname} has asked for chips already")
        approved = self.row.auto_approve
        await self._commit(ChipsCommand(seat_id=seat.seat_id, amount=amount,
                                        status="approved" if approved else "asked"))  # fmt: skip

    def is_host(self, secret: str) -> bool:
        """True if ``secret`` is the host's credential (compared in constant time): the
        host secret, or once the role was handed on, the new host seat's device token."""
        state = self.state
        if state.host_seat is None:
            return hmac.compare_digest(digest(secret), self.row.host_secret_hash)
        token_hash = state.seats[state.host_seat].token_hash or ""
        return hmac.compare_digest(digest(secret), token_hash)

    def _check_host(self, secret: str) -> None:
        if not self.is_host(secret):
            raise ProtocolError("not-host", "that is not this table's host secret")

    async def _host(self, message: HostMessage) -> None:
        state = self.state
        if isinstance(message, End):
            if state.status == "over" or state.ending:
                raise ProtocolError("not-now", "the night is over already")
            await self._commit(EndCommand())
            return
        if state.status == "over":
            raise ProtocolError("not-now", "the night is over")
        if isinstance(message, Start | AddBot | Approve | Refuse):
            await self._lobby(message)
        elif isinstance(message, Pause):
            if state.paused == message.paused:
                word = "paused" if state.paused else "not paused"
                raise ProtocolError("not-now", f"the table is {word}")
            if not message.paused:
                self.why_paused = ""
            await self._commit(PauseCommand(paused=message.paused))
        elif isinstance(message, SetOptions):
            await self._options(message)
        else:
            await self._seat_control(message)

    async def _lobby(self, message: Start | AddBot | Approve | Refuse) -> None:
        state = self.state
        if isinstance(message, Start):
            if state.status != "lobby":
                raise ProtocolError("not-now", "the game has started already")
            players = [(seat.nickname, seat.buy_in) for seat in state.approved()]
            try:  # the engine's own checks (player counts...), on a throwaway session
                self.game.new_session(players, options=state.options)
            except GutsError as error:
                raise ProtocolError("not-now", f"cannot start: {error}") from None
            await self._commit(StartCommand())
        elif isinstance(message, AddBot):
            try:
                check_bots(self.game, message.bot, state.options)
            except GutsError as error:
                raise ProtocolError("invalid", str(error)) from None
            name = message.nickname or self._bot_name()
            self._check_free(name)
            seat_id = self._free_seat(message.seat_id)
            await self._commit(
                BotCommand(seat_id=seat_id, nickname=name, bot=message.bot, buy_in=state.buy_in)
            )
        else:
            seat = state.seats.get(message.seat_id)
            if seat is None or seat.status != "requested":
                raise ProtocolError("no-such-seat", f"no seat request {message.seat_id} waits")
            if isinstance(message, Approve):
                buy_in = message.buy_in if message.buy_in is not None else seat.buy_in
                await self._commit(ApproveCommand(seat_id=seat.seat_id, buy_in=buy_in))
            else:
                await self._withdraw(seat, "host")

    async def _options(self, message: SetOptions) -> None:
        options = dict(message.options)
        try:
            self.game.rules(options)
        except GutsError as error:
            raise ProtocolError("invalid", str(error)[:300]) from None
        buy_in = message.buy_in if message.buy_in is not None else self.state.buy_in
        await self._commit(OptionsCommand(options=options, buy_in=buy_in))

    async def _seat_control(
        self, message: SetAway | Kick | ApproveChips | RefuseChips | HandHost
    ) -> None:
        state = self.state
        seat = state.seats.get(message.seat_id)
        if seat is None or seat.status != "approved" or seat.leaving:
            raise ProtocolError("no-such-seat", f"no seat {message.seat_id} is at the table")
        if isinstance(message, Kick):
            await self._commit(LeaveCommand(seat_id=seat.seat_id, by="host"))
            return
        if isinstance(message, ApproveChips | RefuseChips):
            await self._chips(seat, message)
            return
        if seat.kind != "person":
            raise ProtocolError("invalid", f"{seat.nickname} is a bot: the table plays it")
        if isinstance(message, SetAway):
            if seat.away == message.away:
                word = "away" if seat.away else "not away"
                raise ProtocolError("not-now", f"{seat.nickname} is {word}")
            await self._commit(AwayCommand(seat_id=seat.seat_id, away=message.away, by="host"))
        else:
            if state.host_seat == seat.seat_id:
                raise ProtocolError("not-now", f"{seat.nickname} is the host already")
            await self._commit(HostCommand(seat_id=seat.seat_id))

    async def _chips(self, seat: Seat, message: ApproveChips | RefuseChips) -> None:
        if isinstance(message, RefuseChips):
            if not seat.asked:
                raise ProtocolError("no-such-seat", f"{seat.nickname} has asked for no chips")
            await self._commit(ChipsCommand(seat_id=seat.seat_id, amount=seat.asked,
                                            status="refused"))  # fmt: skip
            return
        amount = message.amount if message.amount is not None else seat.asked
        if not amount:
            raise ProtocolError("invalid", f"{seat.nickname} has asked for no chips: say how many")
        if amount > self.state.buy_in:
            raise ProtocolError("invalid", f"a rebuy or top-up is at most {self.state.buy_in}")
        await self._commit(ChipsCommand(seat_id=seat.seat_id, amount=amount, status="approved"))

    def _check_free(self, nickname: str, *, request: bool = False) -> None:
        state = self.state
        if request and state.requests() >= MAX_REQUESTS:
            raise ProtocolError("not-now", f"{MAX_REQUESTS} seat requests wait for the host "
                                           "already: try again later")  # fmt: skip
        if len(state.seats) >= MAX_SEATS:
            raise ProtocolError("not-now", f"this table has {MAX_SEATS} seats already")
        gone = ("refused", "left")  # their nicknames are free: a player who left may come back
        taken = {skeleton(s.nickname): s.nickname for s in state.seats.values()
                 if s.status not in gone}  # fmt: skip
        alike = taken.get(skeleton(nickname))
        if alike is not None:
            shown = "" if alike == nickname else f" (it looks like {alike!r})"
            raise ProtocolError("taken", f"the nickname {nickname!r} is taken at this table"
                                         f"{shown}")  # fmt: skip

    def _free_seat(self, wanted: int | None = None) -> int:
        """Seat ``wanted`` (ProtocolError if a seat of the record holds it), else the
        first seat none holds (there is one: :meth:`_check_free` came first)."""
        seats = self.state.seats
        if wanted is None:
            return next(seat_id for seat_id in range(MAX_SEATS) if seat_id not in seats)
        holder = seats.get(wanted)
        if holder is None:
            return wanted
        if holder.status in ("left", "refused"):
            raise ProtocolError("taken", f"that seat was {holder.nickname}'s and stays in the "
                                         "table's record: pick a free seat")  # fmt: skip
        raise ProtocolError("taken", f"{holder.nickname} has that seat: pick a free seat")

    def _bot_name(self) -> str:
        taken = {skeleton(seat.nickname) for seat in self.state.seats.values()}
        for name in BOT_NAMES:
            if skeleton(name) not in taken:
                return name
        return f"Bot {len(taken) + 1}"

    # -- the clocks ----------------------------------------------------------------------

    def _sync_clocks(self, acted: int | None) -> None:
        """Start a clock for each person who must decide now (afresh for ``acted``, the
        game seat that just acted), and stop those of the others."""
        state = self.state
        session = state.session
        if acted is not None:
            self.clocks.pop(acted, None)
        if (
            not state.clock_ms
            or state.paused
            or state.status != "playing"
            or session is None
            or session.deal_over
        ):
            self.clocks.clear()
            return
        deciding = set()
        for decision in session.pending():
            seat = state.seat_at(decision.seat)
            if seat is None or seat.kind != "person" or state.plays_safe(decision.seat):
                continue
            deciding.add(decision.seat)
            running = self.clocks.get(decision.seat)
            if running is None or running.seat_id != seat.seat_id:
                self.clocks[decision.seat] = _Clock(seat.seat_id, self.now(), seat.bank_ms)
        for number in set(self.clocks) - deciding:
            del self.clocks[number]

    def _bank_used(self, number: int) -> int:
        """The ms of the time bank seat ``number``'s decision used so far."""
        clock = self.clocks.get(number)
        if clock is None:
            return 0
        spent = int((self.now() - clock.started) * 1000)
        return min(clock.bank_ms, max(0, spent - self.state.clock_ms))

    def _left(self, clock: _Clock) -> float:
        """Seconds before ``clock`` (its time, then its bank) runs out."""
        return clock.started + (self.state.clock_ms + clock.bank_ms) / 1000 - self.now()

    def clock_list(self) -> list[dict[str, Any]]:
        """The running clocks as the protocol's ``Clock`` objects."""
        shown = []
        for number, clock in sorted(self.clocks.items()):
            spent = self.now() - clock.started
            seconds = max(0.0, self.state.clock_ms / 1000 - spent)
            bank = min(clock.bank_ms / 1000, max(0.0, self._left(clock)))
            shown.append({"seat": number, "seconds": round(seconds, 1), "bank": round(bank, 1)})
        return shown

    # -- what the table does by itself -----------------------------------------------------

    def _automatic(self) -> float | None:
        """The delay before the next automatic step, or None if there is none now."""
        state = self.state
        session = state.session
        if self.stalled or self.stale or state.paused:
            return None
        if state.leftover():
            return 0.0
        if state.status != "playing" or session is None:
            return None
        if state.ending and state.between_games():
            return 0.0
        if session.deal_over:
            if state.ending:
                return 0.0
            return self.settings.deal_delay if state.can_deal() else None
        for decision in session.pending():
            seat = state.seat_at(decision.seat)
            if seat is None:
                continue
            if state.plays_safe(decision.seat):
                return self.settings.bot_delay
            if seat.kind in SLOW_BOTS and self._thinking is not None:
                continue  # its thread hands its choice in when it is made
            if seat.kind != "person":
                return self.settings.bot_delay
        if self.clocks:
            return max(0.0, min(self._left(clock) for clock in self.clocks.values()))
        return None

    def _schedule(self) -> None:
        """Queue the next automatic step after its delay (sooner, if one now falls due
        before the step already waiting)."""
        if self._task is None:
            return
        delay = self._automatic()
        if delay is None:
            return  # a step already waiting checks again when it comes
        loop = asyncio.get_running_loop()
        due = loop.time() + delay
        if self._auto_due:
            if self._due_at <= due:
                return
            if self._timer is not None:
                self._timer.cancel()
        self._auto_due, self._due_at, self._timer = True, due, None
        if delay <= 0:
            self._inbox.put_nowait(_Auto())
        else:
            self._timer = loop.call_later(delay, self._inbox.put_nowait, _Auto())

    async def _auto(self) -> None:
        state = self.state
        session = state.session
        if self._automatic() is None or session is None:
            return
        if state.leftover():
            await self._commit(StopCommand(reason="the night is over: what is left is shared out"))
            return
        if session.deal_over or (state.ending and state.between_games()):
            if state.ending:
                await self._commit(StopCommand(reason="the host ended the night"))
            else:
                await self._commit(DealCommand())
            return
        for decision in session.pending():
            seat = state.seat_at(decision.seat)
            if seat is None:
                continue
            if state.plays_safe(decision.seat):
                action = state.safe(decision)
            elif seat.kind in SLOW_BOTS:
                chosen = self._slow_choice(session, decision, seat)
                if chosen is None:
                    continue  # its choice is being made in a thread
                action = session.canonical(decision.seat, chosen)
            elif seat.kind != "person":
                policy = state.policies[decision.seat]
                view = session.view(decision.seat)
                action = session.canonical(
                    decision.seat, policy.choose(view, decision, self._bot_rng)
                )
            else:
                continue
            await self._commit(ActCommand(seat=decision.seat, action=action, seat_id=seat.seat_id))
            return
        for number, clock in sorted(self.clocks.items()):
            due = session.decision(number)
            if self._left(clock) <= 0 and due is not None:
                timeout = ActCommand(seat=number, action=state.safe(due), seat_id=clock.seat_id,
                                     timeout=True, bank_ms=clock.bank_ms)  # fmt: skip
                await self._commit(timeout)
                return

    def _decision_key(
        self, session: TableSession, decision: Decision, seat: Seat
    ) -> tuple[Any, ...]:
        """What a choice made for ``decision`` stays good for: this session object (a
        rebuild makes another), as far as its events went, the seat and its bot (objects
        compared as themselves)."""
        policy = self.state.policies[decision.seat]
        return (session, len(session.events), decision, seat.seat_id, policy)

    def _slow_choice(self, session: TableSession, decision: Decision, seat: Seat) -> str | None:
        """The choice a thread made for ``decision`` if the table has not moved on since
        it was asked for; else None, asking for it (unless a thread is at work already).
        A choice made for a table that moved on (an event, a rebuild) is dropped."""
        key = self._decision_key(session, decision, seat)
        thought, self._thought = self._thought, None
        if thought is not None and thought.key == key:
            if thought.error is not None:
                raise thought.error
            return thought.action
        if self._thinking is None:
            policy = self.state.policies[decision.seat]
            view = session.view(decision.seat)
            self._thinking = asyncio.create_task(
                self._think(key, policy, view, decision), name=f"table {self.id} bot"
            )
        return None

    async def _think(
        self,
        key: tuple[Any, ...],
        policy: Policy | NightPolicy,
        view: dict[str, Any],
        decision: Decision,
    ) -> None:
        """Have ``policy`` choose in a thread, then hand the choice to the actor's inbox
        (it is committed there, in turn with every other command)."""
        try:
            action = await asyncio.to_thread(policy.choose, view, decision, self._bot_rng)
        except Exception as error:
            self._inbox.put_nowait(_Thought(key, None, error))
        else:
            self._inbox.put_nowait(_Thought(key, action))

    # -- applying and committing -----------------------------------------------------------

    async def _commit(self, command: Command, *, acting: Client | None = None) -> bool:
        """Apply ``command``, commit it, then tell every client what it may see of it;
        True if the event frame sent to ``acting``, the client whose ``act`` the command
        is, says it was acknowledged (``acked``)."""
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
        self._sync_clocks(command.seat if isinstance(command, ActCommand) else None)
        return self._tell(entry, command, lobby=bool(changed), acting=acting)

    def _lose(self) -> None:
        """Stop acting for the table: another node took its lease (this one was paused or
        cut off). Every commit it tries from now on is refused by the fence."""
        log.warning("table %s: the lease is lost; another node owns it", self.id,
                    extra={"event": "lease-lost", "table": self.id})  # fmt: skip
        self.stalled = "another node owns the table"
        lost, self.on_lost = self.on_lost, None
        if lost is not None:
            lost(self)

    # -- telling -----------------------------------------------------------------------------

    def _tell(self, entry: Logged, command: Command, *, lobby: bool, acting: Client | None) -> bool:
        """Tell every client of ``entry``; True if ``acting``'s event frame acked it."""
        state = self.state
        if isinstance(command, ChatCommand):
            self._broadcast(state.chat[-1].message())
            return False
        if lobby or isinstance(command, PauseCommand | OptionsCommand | HostCommand):
            self._broadcast({
                "type": "seats",
                "seq": entry.seq,
                "status": state.status,
                "seats": self.seat_list(),
            })  # fmt: skip
        if isinstance(command, PauseCommand | OptionsCommand | HostCommand) or (
            state.session is None and state.status == "over"
        ):
            for client in self.clients:
                if client.ready:
                    client.send(self.snapshot(client))
            return False
        if state.session is None:
            return False
        ready = {client: self._number(client) for client in self.clients if client.ready}
        happened = self._happened([entry])
        head = {"type": "event", "seq": state.seq, "status": state.status}
        clocks = self.clock_list()
        frames = disclose_each(state.session, set(ready.values()), happened, head)
        for frame in frames.values():
            frame["clocks"] = clocks
        acked = {"acked": command.client_seq} if isinstance(command, ActCommand) else None
        for client, number in ready.items():  # one frame per seat, shared by its clients
            frame = frames[number]
            if acked is not None and client is acting:
                frame = {**frame, **acked}
            client.send(frame)
        return acting is not None and acting in ready

    def seat_list(self) -> list[dict[str, Any]]:
        """Every seat as everyone sees it, in the order of the seats (``seat_id``), with
        whether a person's client is connected."""
        online = {client.seat_id for client in self.clients if client.ready}
        seats = self.state.seats
        return [
            {**seats[n].public(), "connected": seats[n].kind != "person" or n in online}
            for n in sorted(seats)
        ]

    def _tell_connections(self, before: list[dict[str, Any]]) -> None:
        """Tell everyone the seats when a person's connection came or went since ``before``."""
        now = self.seat_list()
        if [seat["connected"] for seat in now] != [seat["connected"] for seat in before]:
            self._broadcast({"type": "seats", "seq": self.state.seq,
                             "status": self.state.status, "seats": now})  # fmt: skip

    def _broadcast(self, message: dict[str, Any]) -> None:
        for client in self.clients:
            if client.ready:
                client.send(message)

    def _number(self, client: Client) -> int | None:
        return self.state.number(client.seat_id)

    def _event_frame(
        self, client: Client, entries: Iterable[Logged], clocks: list[dict[str, Any]] | None = None
    ) -> dict[str, Any]:
        state = self.state
        assert state.session is not None
        happened = self._happened(entries)
        return {
            "type": "event",
            "seq": state.seq,
            "status": state.status,
            **disclose(state.session, self._number(client), happened),
            "clocks": self.clock_list() if clocks is None else clocks,
        }

    def _happened(self, entries: Iterable[Logged]) -> list[Event]:
        """The engine events (hidden ones included) that ``entries`` made."""
        sessions = self.state.sessions
        return [
            event
            for entry in entries
            for event in sessions[entry.session].events[entry.start : entry.end]
        ]

    def snapshot(self, client: Client | None) -> dict[str, Any]:
        """Everything ``client`` (None: a spectator) may see now."""
        state = self.state
        seat = state.seats.get(client.seat_id) if client and client.seat_id is not None else None
        you = (
            None
            if seat is None
            else {
                "seat_id": seat.seat_id,
                "seat": seat.number,
                "nickname": seat.nickname,
                "status": seat.status,
                "host": state.host_seat == seat.seat_id,
            }
        )
        game = None
        if state.session is not None:
            game = disclose(state.session, None if seat is None else seat.number)["game"]
        return {
            "type": "snapshot",
            "protocol": PROTOCOL_VERSION,
            "seq": state.seq,
            "table": self.info(),
            "seats": self.seat_list(),
            "you": you,
            "game": game,
            "clocks": self.clock_list(),
            "chat": [line.message() for line in state.chat],
        }

    def info(self) -> dict[str, Any]:
        """The table as everyone sees it."""
        state = self.state
        session = state.session
        return {
            "id": self.id,
            "preset": self.row.preset,
            "family": self.game.family,
            "options": dict(state.options),
            "buy_in": state.buy_in,
            "auto_approve": self.row.auto_approve,
            "status": state.status,
            "paused": state.paused,
            "why_paused": self.why_paused or None,
            "spectator_chat": state.spectator_chat,
            "host_seat": state.host_seat,
            "clock": state.clock_ms // 1000,
            "time_bank": state.time_bank_ms // 1000,
            "waiting": bool(
                state.status == "playing"
                and session is not None
                and session.deal_over
                and not state.can_deal()
            ),
        }

    def summary(self) -> dict[str, Any]:
        """The public summary of the HTTP route (call it through :meth:`query`)."""
        session = self.state.session
        return {
            **self.info(),
            "seq": self.state.seq,
            "protocol": PROTOCOL_VERSION,
            "seats": self.seat_list(),
            "stacks": None if session is None else [s.stack for s in session.table.seats],
            "pot": None if session is None else session.table.pot,
        }

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
        for client in self.clients:
            if client.ready:
                client.send(self.snapshot(client))


def _tellable(state: TableState, command: Command, mark: tuple[int, int]) -> bool:
    """True if what ``command`` (applied since ``mark``) makes can be told to every seat:
    the command itself, its engine events (hidden ones too) and the decisions pending
    encode as frames do (orjson: integers within 64 bits), and so do the stacks and the
    pot. The views hold nothing else that a command could make unbounded: their numbers
    are the stacks, the pot and what the events said."""
    session = state.session
    number, start = mark
    if len(state.sessions) - 1 != number:
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


def _refuse(item: _Inbound | _Query | _Auto | _Thought, error: ProtocolError) -> None:
    """Tell whoever waits for ``item`` that it was refused with ``error``."""
    if isinstance(item, _Auto | _Thought):
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
