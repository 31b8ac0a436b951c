"""The table actor: one asyncio task per open table, owning its engine session.

Every command for a table goes through its actor's inbox, one at a time, so the engine
session is never touched concurrently and needs no lock: the clients' messages, the
host's commands, the bots' turns and the next deal (which the actor schedules for
itself), even a summary for the HTTP routes. An accepted command is applied, then
committed to the database with its sequence number, and only then is anyone told
("persist, then tell"); if the commit fails the actor rebuilds the table from the
database, which is the truth (memory is a cache). On server start every open table is
rebuilt by replaying its stored commands through the same code (:meth:`TableActor.load`),
with the shuffles fed back from the record (:class:`~guts.server.dealer.Dealer`).

What a client receives of the game is made by :func:`guts.server.barrier.disclose`
alone; the actor adds the lobby (seats, nicknames) and the sequence numbers.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import random
import secrets
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from guts.catalog import Game, find_game
from guts.errors import GutsError
from guts.games.session import RecordedSession
from guts.play import BOT_NAMES, Policy, check_bot_kind, policy_for
from guts.server.barrier import disclose
from guts.server.commands import (
    ActCommand,
    ApproveCommand,
    BotCommand,
    Command,
    CommandError,
    DealCommand,
    EndCommand,
    JoinCommand,
    RefuseCommand,
    StartCommand,
    StopCommand,
    read_command,
)
from guts.server.dealer import Dealer
from guts.server.protocol import (
    PROTOCOL_VERSION,
    Act,
    AddBot,
    Approve,
    Chat,
    End,
    Join,
    ProtocolError,
    Refuse,
    Resume,
    Start,
)
from guts.server.storage import ActionRow, SeatRow, Storage, StoredTable, TableRow
from guts.table import Table

__all__ = ["Client", "Settings", "TableActor", "Tables", "digest", "new_table_id"]

log = logging.getLogger("guts.server")

T = TypeVar("T")
Message = Join | Resume | Act | Chat | Start | AddBot | Approve | Refuse | End

MAX_SEATS = 32
"""The most seats (asked for, given or refused) a table keeps."""
TAKES_TABLE = frozenset({"guts", "staged"})
"""The families whose sessions take over a table (stacks, pot, button). Draw and Bourré
count their players before they look for a table (``len(Table)``), so their next
session gets a fresh table."""
MAX_CATCH_UP = 1000
"""A client that missed more commands than this gets a snapshot instead."""


def digest(secret: str) -> str:
    """The SHA-256 of a secret or token, as stored (they carry 128 bits or more)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def new_table_id() -> str:
    """An unguessable table id: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


@dataclass(frozen=True)
class Settings:
    """How a server's tables run: the pause before a bot acts and before the next deal
    (seconds; 0 in tests)."""

    bot_delay: float = 0.6
    deal_delay: float = 1.5


class Client:
    """One connected client as its table sees it. The actor alone sets ``seat_id`` and
    ``ready``; :meth:`send` must not block (the websocket layer queues the message)."""

    def __init__(self) -> None:
        self.seat_id: int | None = None
        self.ready = False
        self.outbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()

    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message`` for the client."""
        self.outbox.put_nowait(message)


@dataclass
class Seat:
    """A seat of the lobby: asked for, given or refused; ``number`` its seat in the game."""

    seat_id: int
    nickname: str
    kind: str
    token_hash: str | None
    buy_in: int
    status: str
    number: int | None = None

    def row(self) -> SeatRow:
        return SeatRow(
            self.seat_id,
            self.nickname,
            self.kind,
            self.token_hash,
            self.buy_in,
            self.status,
            self.number,
        )

    def public(self) -> dict[str, Any]:
        return {
            "seat_id": self.seat_id,
            "nickname": self.nickname,
            "kind": self.kind,
            "buy_in": self.buy_in,
            "status": self.status,
            "seat": self.number,
        }


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


_Item = _Inbound | _Query | _Attach | _Detach | _Auto | _Close


@dataclass
class _Logged:
    """One committed command: its sequence number, kind, and the engine events it made
    (``events[start:end]`` of session number ``session``, -1 before the start)."""

    seq: int
    kind: str
    session: int
    start: int
    end: int


@dataclass
class _State:
    """Everything a table's commands build (rebuilt from scratch on load)."""

    seats: dict[int, Seat] = field(default_factory=dict)
    sessions: list[RecordedSession[Any, Any]] = field(default_factory=list)
    status: str = "lobby"
    ending: bool = False
    seq: int = 0
    client_seqs: dict[int, tuple[int, int]] = field(default_factory=dict)
    log: list[_Logged] = field(default_factory=list)

    @property
    def session(self) -> RecordedSession[Any, Any] | None:
        """The session in play (or the last one), None before the start."""
        return self.sessions[-1] if self.sessions else None

    def mark(self) -> tuple[int, int]:
        """Where the next events will start: the session's number and its event count."""
        session = self.session
        return len(self.sessions) - 1, 0 if session is None else len(session.events)

    def logged(self, seq: int, kind: str, mark: tuple[int, int]) -> _Logged:
        """The log entry of a command applied since ``mark``."""
        number, start = mark
        if len(self.sessions) - 1 != number:  # it began a new session
            number, start = len(self.sessions) - 1, 0
        session = self.session
        return _Logged(seq, kind, number, start, 0 if session is None else len(session.events))


class TableActor:
    """The owner of one table: its engine session, its seats and its clients."""

    def __init__(self, row: TableRow, storage: Storage, settings: Settings | None = None) -> None:
        self.row = row
        self.storage = storage
        self.settings = settings or Settings()
        self.game: Game = find_game(row.preset)
        self.clients: set[Client] = set()
        self._state = _State()
        self._dealer = Dealer()
        self._policies: dict[int, Policy] = {}
        self._bot_rng = random.SystemRandom()
        self._inbox: asyncio.Queue[_Item] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._auto_due = False
        self._due_at = 0.0
        self._timer: asyncio.TimerHandle | None = None
        self.stalled = ""
        """Why the table stopped acting by itself (an unexpected error), '' if it did not."""

    # -- the outside world's handles ------------------------------------------------------

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def seq(self) -> int:
        """The sequence number of the last committed command."""
        return self._state.seq

    @property
    def session(self) -> RecordedSession[Any, Any] | None:
        """The engine session (None before the start); read it only between commands."""
        return self._state.session

    @property
    def status(self) -> str:
        return self._state.status

    @property
    def buy_in(self) -> int:
        return int(self.row.stakes.get("buy_in", 100))

    @property
    def queued(self) -> int:
        """How many commands and steps wait in the inbox."""
        return self._inbox.qsize()

    def next_step(self) -> float | None:
        """The delay before the table acts by itself (a bot plays, the next deal starts,
        the night stops), None while it waits for people."""
        return self._automatic()

    def start(self) -> None:
        """Start the actor's task."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=f"table {self.id}")
            self._schedule()

    async def close(self) -> None:
        """Finish the commands queued so far and stop."""
        if self._timer is not None:
            self._timer.cancel()
        if self._task is not None:
            self._inbox.put_nowait(_Close())
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def post(self, message: Message, client: Client | None) -> None:
        """Queue a client's message (the answer, if any, goes to the client)."""
        self._inbox.put_nowait(_Inbound(message, client))

    async def call(self, message: Message, client: Client | None = None) -> None:
        """Apply ``message`` and wait for it: ProtocolError if it is refused."""
        reply: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._inbox.put_nowait(_Inbound(message, client, reply))
        await reply

    async def query(self, ask: Callable[[], T]) -> T:
        """``ask()`` run by the actor between two commands (a consistent picture)."""
        reply: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._inbox.put_nowait(_Query(ask, reply))
        return await reply

    def attach(self, client: Client) -> None:
        self._inbox.put_nowait(_Attach(client))

    def detach(self, client: Client) -> None:
        self._inbox.put_nowait(_Detach(client))

    # -- the loop -----------------------------------------------------------------------

    async def _run(self) -> None:
        while True:
            item = await self._inbox.get()
            if isinstance(item, _Close):
                return
            try:
                await self._handle(item)
            except Exception as error:  # never let one command kill the table
                log.exception("table %s: unexpected error", self.id)
                if isinstance(item, _Auto):  # do not try it again and again
                    self.stalled = f"{type(error).__name__}: {error}"
            self._schedule()

    async def _handle(self, item: _Item) -> None:
        if isinstance(item, _Attach):
            self.clients.add(item.client)
        elif isinstance(item, _Detach):
            self.clients.discard(item.client)
        elif isinstance(item, _Query):
            if not item.reply.done():
                try:
                    item.reply.set_result(item.ask())
                except Exception as error:
                    item.reply.set_exception(error)
        elif isinstance(item, _Auto):
            self._auto_due = False
            await self._auto()
        elif isinstance(item, _Inbound):
            try:
                await self._message(item.message, item.client)
            except ProtocolError as error:
                if item.reply is not None:
                    if not item.reply.done():
                        item.reply.set_exception(error)
                elif item.client is not None:
                    item.client.send(error.to_dict())
                return
            except Exception as error:
                if item.reply is not None and not item.reply.done():
                    item.reply.set_exception(error)
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
            self._chat(message, _needs(client))
        else:
            self._check_host(message.secret)
            await self._host(message)

    def _resume(self, message: Resume, client: Client) -> None:
        state = self._state
        if message.token is not None:
            wanted = digest(message.token)
            found = [
                seat
                for seat in state.seats.values()
                if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, wanted)
            ]
            if not found:
                raise ProtocolError("no-such-seat", "no seat of this table has that token")
            client.seat_id = found[0].seat_id
            client.ready = True
            client.send(self.snapshot(client))
            return
        client.ready = True
        missed = self._missed(message.last_seq)
        if missed is None:
            client.send(self.snapshot(client))
        else:
            client.send(self._event_frame(client, missed))

    def _missed(self, last_seq: int | None) -> list[_Logged] | None:
        """The commands after ``last_seq`` if they can be sent as events (None: send a
        snapshot instead)."""
        state = self._state
        if last_seq is None or not 0 <= last_seq <= state.seq or state.session is None:
            return None
        missed = [entry for entry in state.log if entry.seq > last_seq]
        lobby = {"join", "bot", "approve", "refuse", "start"}
        current = len(state.sessions) - 1
        if len(missed) > MAX_CATCH_UP or any(
            entry.kind in lobby or entry.session != current for entry in missed
        ):
            return None
        return missed

    async def _join(self, message: Join, client: Client) -> None:
        state = self._state
        if client.seat_id is not None:
            raise ProtocolError("not-now", "this connection has a seat already")
        if state.status != "lobby":
            raise ProtocolError("not-now", "the game has started: seats are given before the start")
        self._check_free(message.nickname)
        buy_in = message.buy_in if message.buy_in is not None else self.buy_in
        if buy_in > self.buy_in:
            raise ProtocolError("invalid", f"the buy-in is at most {self.buy_in}")
        token = secrets.token_urlsafe(32)
        seat_id = len(state.seats)
        await self._commit(
            JoinCommand(
                seat_id=seat_id, nickname=message.nickname, buy_in=buy_in, token_hash=digest(token)
            )
        )
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

    async def _act(self, message: Act, client: Client) -> None:
        state = self._state
        seat = state.seats.get(client.seat_id) if client.seat_id is not None else None
        if seat is None:
            raise ProtocolError("not-seated", "only a seated player acts: join or resume first")
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
        try:
            action = state.session.canonical(seat.number, message.action)
        except GutsError as error:
            raise ProtocolError("illegal", str(error)[:300]) from None
        await self._commit(
            ActCommand(
                seat=seat.number, action=action, seat_id=seat.seat_id, client_seq=message.client_seq
            )
        )
        client.send(
            {"type": "ack", "client_seq": message.client_seq, "seq": state.seq, "duplicate": False}
        )

    def _chat(self, message: Chat, client: Client) -> None:
        seat = self._state.seats.get(client.seat_id) if client.seat_id is not None else None
        if seat is None:
            raise ProtocolError("not-seated", "only a seated player chats: join or resume first")
        line = {
            "type": "chat",
            "seat_id": seat.seat_id,
            "nickname": seat.nickname,
            "text": message.text,
        }
        for other in self.clients:
            if other.ready:
                other.send(line)

    def _check_host(self, secret: str) -> None:
        if not hmac.compare_digest(digest(secret), self.row.host_secret_hash):
            raise ProtocolError("not-host", "that is not this table's host secret")

    async def _host(self, message: Start | AddBot | Approve | Refuse | End) -> None:
        state = self._state
        if isinstance(message, End):
            if state.status == "over" or state.ending:
                raise ProtocolError("not-now", "the night is over already")
            await self._commit(EndCommand())
            return
        if isinstance(message, Start | AddBot) and state.status != "lobby":
            raise ProtocolError("not-now", "the game has started already")
        if isinstance(message, Start):
            players = self._players()
            try:  # the engine's own checks (player counts...), on a throwaway session
                self.game.new_session(players, options=self.row.options)
            except GutsError as error:
                raise ProtocolError("not-now", f"cannot start: {error}") from None
            await self._commit(StartCommand())
        elif isinstance(message, AddBot):
            try:
                check_bot_kind(message.bot, self.game.family)
            except GutsError as error:
                raise ProtocolError("invalid", str(error)) from None
            name = message.nickname or self._bot_name()
            self._check_free(name)
            await self._commit(
                BotCommand(
                    seat_id=len(state.seats), nickname=name, bot=message.bot, buy_in=self.buy_in
                )
            )
        else:
            seat = state.seats.get(message.seat_id)
            if seat is None or seat.status != "requested":
                raise ProtocolError("no-such-seat", f"no seat request {message.seat_id} waits")
            if isinstance(message, Approve):
                if state.status != "lobby":
                    raise ProtocolError(
                        "not-now", "the game has started: seats are given before the start"
                    )
                buy_in = message.buy_in if message.buy_in is not None else seat.buy_in
                await self._commit(ApproveCommand(seat_id=seat.seat_id, buy_in=buy_in))
            else:
                await self._commit(RefuseCommand(seat_id=seat.seat_id))

    def _check_free(self, nickname: str) -> None:
        state = self._state
        if len(state.seats) >= MAX_SEATS:
            raise ProtocolError("not-now", f"this table has {MAX_SEATS} seats already")
        taken = {s.nickname.casefold() for s in state.seats.values() if s.status != "refused"}
        if nickname.casefold() in taken:
            raise ProtocolError("taken", f"the nickname {nickname!r} is taken at this table")

    def _bot_name(self) -> str:
        taken = {seat.nickname.casefold() for seat in self._state.seats.values()}
        for name in BOT_NAMES:
            if name.casefold() not in taken:
                return name
        return f"Bot {len(taken) + 1}"

    def _players(self) -> list[tuple[str, int]]:
        approved = [s for s in self._state.seats.values() if s.status == "approved"]
        return [(seat.nickname, seat.buy_in) for seat in sorted(approved, key=lambda s: s.seat_id)]

    # -- what the table does by itself -----------------------------------------------------

    def _automatic(self) -> float | None:
        """The delay before the next automatic step, or None if there is none now."""
        state = self._state
        session = state.session
        if state.status != "playing" or session is None or self.stalled:
            return None
        if session.deal_over:
            return 0.0 if state.ending else self.settings.deal_delay
        bots = {
            seat.number
            for seat in state.seats.values()
            if seat.kind != "person" and seat.number is not None
        }
        if any(decision.seat in bots for decision in session.pending()):
            return self.settings.bot_delay
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
        state = self._state
        session = state.session
        if self._automatic() is None or session is None:
            return
        if session.deal_over:
            if state.ending:
                await self._commit(StopCommand(reason="the host ended the night"))
            else:
                await self._commit(DealCommand())
            return
        for decision in session.pending():
            seat = self._seat_at(decision.seat)
            if seat is not None and seat.kind != "person":
                policy = self._policies[decision.seat]
                view = session.view(decision.seat)
                action = session.canonical(
                    decision.seat, policy.choose(view, decision, self._bot_rng)
                )
                await self._commit(
                    ActCommand(seat=decision.seat, action=action, seat_id=seat.seat_id)
                )
                return

    def _seat_at(self, number: int) -> Seat | None:
        for seat in self._state.seats.values():
            if seat.number == number:
                return seat
        return None

    # -- applying and committing -----------------------------------------------------------

    async def _commit(self, command: Command) -> None:
        """Apply ``command``, commit it, then tell every client what it may see of it."""
        state = self._state
        status = state.status
        mark = state.mark()
        self._dealer.take()
        try:
            changed = self._apply(command)
        except GutsError:
            raise  # the engine refused it and changed nothing
        except Exception:  # a bug: the state may be half changed, so rebuild it
            await self.reload()
            raise
        draws = self._dealer.take()
        if draws:
            command = command.model_copy(update={"draws": draws})
        seq = state.seq + 1
        action = ActionRow(seq, command.kind, command.model_dump())
        try:
            await self.storage.append(
                self.id,
                action,
                seats=[state.seats[s].row() for s in changed],
                status=state.status if state.status != status else None,
            )
        except Exception:
            log.exception("table %s: command %d was not committed; reloading", self.id, seq)
            await self.reload()
            raise ProtocolError(
                "internal", "the table could not record that: nothing changed"
            ) from None
        state.seq = seq
        entry = state.logged(seq, command.kind, mark)
        state.log.append(entry)
        if isinstance(command, ActCommand) and command.client_seq is not None:
            state.client_seqs[command.seat_id] = (command.client_seq, seq)
        self._tell(entry, lobby=bool(changed))

    def _apply(self, command: Command) -> list[int]:
        """Apply ``command`` to the state (live or replaying); the seat ids whose rows it
        changed. Raises GutsError (changing nothing) if the engine refuses it."""
        state = self._state
        if isinstance(command, JoinCommand | BotCommand):
            approved = isinstance(command, BotCommand) or self.row.auto_approve
            token = command.token_hash if isinstance(command, JoinCommand) else None
            kind = command.bot if isinstance(command, BotCommand) else "person"
            state.seats[command.seat_id] = Seat(
                command.seat_id,
                command.nickname,
                kind,
                token,
                command.buy_in,
                "approved" if approved else "requested",
            )
            return [command.seat_id]
        if isinstance(command, ApproveCommand | RefuseCommand):
            seat = state.seats[command.seat_id]
            if isinstance(command, ApproveCommand):
                seat.status, seat.buy_in = "approved", command.buy_in
            else:
                seat.status = "refused"
            return [command.seat_id]
        if isinstance(command, StartCommand):
            return self._start()
        if isinstance(command, EndCommand):
            if state.session is None or state.session.is_over:
                state.status = "over"
            else:
                state.ending = True
            return []
        session = state.session
        if session is None:
            raise CommandError(f"a {command.kind} command before the start")
        if isinstance(command, DealCommand):
            if session.is_over:  # the night goes on: a new session on the same table
                session = self._new_session(session.table)
            session.start_deal()
            if session is not state.session:
                self._begin(session)
        elif isinstance(command, ActCommand):
            session.act(command.seat, command.action)
        else:
            session.stop(command.reason)
        self._update_status()
        return []

    def _start(self) -> list[int]:
        state = self._state
        approved = sorted(
            (s for s in state.seats.values() if s.status == "approved"), key=lambda s: s.seat_id
        )
        players = [(seat.nickname, seat.buy_in) for seat in approved]
        session = self.game.new_session(players, options=self.row.options, rng=self._dealer)
        session.start_deal()
        for number, seat in enumerate(approved):
            seat.number = number
        self._begin(session)
        self._update_status()
        return [seat.seat_id for seat in approved]

    def _new_session(self, table: Table) -> RecordedSession[Any, Any]:
        """The next session of the night: the same game on the same table, its stacks,
        pot and button carried over (the engine's dealer's-choice way); for a family whose
        sessions do not take over a table, a fresh one with each seat's stack and the next
        dealer first (and :meth:`_update_status` lets the night go on only when that
        loses nothing)."""
        family = self.game.games_family
        rules = family.rules(self.game.name, self.row.options)
        make: Callable[..., RecordedSession[Any, Any]] = family.session_class
        if self._takes_table():
            return make(rules, table, rng=self._dealer, button=None)
        players = [(seat.name, seat.stack) for seat in table.seats]
        return make(rules, players, rng=self._dealer, button=table.button)

    def _takes_table(self) -> bool:
        """True if the family's sessions carry on a table (see :meth:`_new_session`)."""
        return self.game.family in TAKES_TABLE

    @staticmethod
    def _fresh_table_loses_nothing(table: Table) -> bool:
        return not any(table.places.values()) and all(s.stack >= 0 for s in table.seats)

    def _begin(self, session: RecordedSession[Any, Any]) -> None:
        self._state.sessions.append(session)
        self._policies = {
            seat.number: policy_for(seat.kind, self.game.family, session)
            for seat in self._state.seats.values()
            if seat.kind != "person" and seat.number is not None
        }

    def _update_status(self) -> None:
        """The table is over when its session is and the night does not go on: the host
        ended it, the rules' deal limit was reached, fewer than two have chips, or chips
        were left in the pot (which a new session would not carry)."""
        state = self._state
        session = state.session
        if session is None or not session.is_over:
            state.status = "playing" if session is not None else state.status
            return
        table = session.table
        with_chips = sum(seat.stack > 0 for seat in table.seats)
        goes_on = (
            not state.ending
            and getattr(session.rules, "max_deals", None) is None
            and (table.credit or with_chips >= 2)
            and (self._takes_table() or self._fresh_table_loses_nothing(table))
        )
        state.status = "playing" if goes_on else "over"

    # -- telling -----------------------------------------------------------------------------

    def _tell(self, entry: _Logged, *, lobby: bool) -> None:
        state = self._state
        if lobby:
            seats = {
                "type": "seats",
                "seq": entry.seq,
                "status": state.status,
                "seats": [seat.public() for seat in state.seats.values()],
            }
            for client in self.clients:
                if client.ready:
                    client.send(seats)
        if state.session is None:
            if state.status == "over":
                for client in self.clients:
                    if client.ready:
                        client.send(self.snapshot(client))
            return
        frames: dict[int | None, dict[str, Any]] = {}
        for client in self.clients:
            if not client.ready:
                continue
            seat = self._number(client)
            if seat not in frames:
                frames[seat] = self._event_frame(client, [entry])
            client.send(frames[seat])

    def _number(self, client: Client) -> int | None:
        seat = self._state.seats.get(client.seat_id) if client.seat_id is not None else None
        return None if seat is None else seat.number

    def _event_frame(self, client: Client, entries: Iterable[_Logged]) -> dict[str, Any]:
        state = self._state
        assert state.session is not None
        happened = [
            event
            for entry in entries
            for event in state.sessions[entry.session].events[entry.start : entry.end]
        ]
        return {
            "type": "event",
            "seq": state.seq,
            "status": state.status,
            **disclose(state.session, self._number(client), happened),
        }

    def snapshot(self, client: Client | None) -> dict[str, Any]:
        """Everything ``client`` (None: a spectator) may see now."""
        state = self._state
        seat = state.seats.get(client.seat_id) if client and client.seat_id is not None else None
        you = (
            None
            if seat is None
            else {
                "seat_id": seat.seat_id,
                "seat": seat.number,
                "nickname": seat.nickname,
                "status": seat.status,
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
            "seats": [s.public() for s in state.seats.values()],
            "you": you,
            "game": game,
        }

    def info(self) -> dict[str, Any]:
        """The table as everyone sees it."""
        return {
            "id": self.id,
            "preset": self.row.preset,
            "family": self.game.family,
            "options": dict(self.row.options),
            "buy_in": self.buy_in,
            "auto_approve": self.row.auto_approve,
            "status": self._state.status,
        }

    def summary(self) -> dict[str, Any]:
        """The public summary of the HTTP route (call it through :meth:`query`)."""
        session = self._state.session
        return {
            **self.info(),
            "seq": self._state.seq,
            "protocol": PROTOCOL_VERSION,
            "seats": [seat.public() for seat in self._state.seats.values()],
            "stacks": None if session is None else [s.stack for s in session.table.seats],
            "pot": None if session is None else session.table.pot,
        }

    # -- rebuilding ---------------------------------------------------------------------------

    def load(self, stored: StoredTable) -> None:
        """Rebuild the table from its record: every stored command replayed in order, the
        shuffles fed back. CommandError (or the engine's GutsError) if it does not replay."""
        self.row = stored.table
        self._state = _State()
        self._policies = {}
        for expected, action in enumerate(stored.actions, start=1):
            if action.seq != expected:
                raise CommandError(f"table {self.id}: command {expected} is missing")
            command = read_command(action.payload)
            mark = self._state.mark()
            self._dealer.feed(getattr(command, "draws", ()))
            try:
                self._apply(command)
                self._dealer.done()
            except GutsError as error:
                raise CommandError(
                    f"table {self.id}: command {expected} ({command.kind}) does not replay: {error}"
                ) from None
            self._state.log.append(self._state.logged(expected, command.kind, mark))
            if isinstance(command, ActCommand) and command.client_seq is not None:
                self._state.client_seqs[command.seat_id] = (command.client_seq, expected)
            self._state.seq = expected

    def check(self) -> None:
        """Check that every session's chips add up to its ledger (GutsError if not)."""
        for session in self._state.sessions:
            session.table.check_invariant()

    async def reload(self) -> None:
        """Rebuild from the database (after a failed commit) and resend every snapshot."""
        stored = await self.storage.load(self.id)
        if stored is None:
            raise CommandError(f"table {self.id} is gone from the database")
        self.load(stored)
        for client in self.clients:
            if client.ready:
                client.send(self.snapshot(client))


def _needs(client: Client | None) -> Client:
    if client is None:
        raise ProtocolError("not-seated", "this message needs a connection")
    return client


class Tables:
    """A server's tables: the open ones are rebuilt at startup, others loaded when asked."""

    def __init__(self, storage: Storage, settings: Settings | None = None) -> None:
        self.storage = storage
        self.settings = settings or Settings()
        self.actors: dict[str, TableActor] = {}
        self._loading = asyncio.Lock()

    async def open_all(self) -> list[str]:
        """Rebuild every open table; the ids that would not replay (left out, logged)."""
        broken = []
        for table_id in await self.storage.table_ids():
            try:
                await self.get(table_id)
            except GutsError:
                log.exception("table %s does not replay", table_id)
                broken.append(table_id)
        return broken

    async def get(self, table_id: str) -> TableActor | None:
        """The actor of ``table_id`` (loaded and started if need be), None if no such table."""
        actor = self.actors.get(table_id)
        if actor is not None:
            return actor
        async with self._loading:
            actor = self.actors.get(table_id)
            if actor is not None:
                return actor
            stored = await self.storage.load(table_id)
            if stored is None:
                return None
            actor = TableActor(stored.table, self.storage, self.settings)
            actor.load(stored)
            actor.check()
            self.actors[table_id] = actor
            actor.start()
            return actor

    async def create(
        self, preset: str, options: dict[str, str], buy_in: int, *, auto_approve: bool
    ) -> tuple[TableActor, str]:
        """A new table and its host secret."""
        secret = secrets.token_urlsafe(24)
        row = TableRow(
            new_table_id(), preset, options, {"buy_in": buy_in}, auto_approve, digest(secret)
        )
        await self.storage.create_table(row)
        actor = TableActor(row, self.storage, self.settings)
        self.actors[row.id] = actor
        actor.start()
        return actor, secret

    async def close(self) -> None:
        """Stop every actor (after the commands already queued)."""
        await _gather(actor.close() for actor in self.actors.values())
        self.actors.clear()


async def _gather(waits: Iterable[Awaitable[None]]) -> None:
    await asyncio.gather(*waits)
