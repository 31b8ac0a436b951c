"""A table's state as its commands build it: seats, sessions, status, and the log.

:class:`TableState` is the pure part of a table, with no I/O and no clock: applying a
command (:meth:`TableState.apply`) does the same thing live and when the record is
replayed (:meth:`TableState.replay`), the dealer recording its draws in the one case and
fed them back in the other. The actor (:mod:`guts.server.actor`) commits each command
and tells the clients; this module decides what a command does.

The night: the host starts the game with the approved seats, in the order they were
given (seat 0 deals first). When a session of the game ends, the next deal starts a new
one, the same game for the same seats with the chips as they stand, until the host ends
the night, the rules' deal limit is reached, or fewer than two players have chips.

>>> from guts.server.commands import BotCommand, StartCommand
>>> from guts.server.storage import TableRow
>>> state = TableState(TableRow("t", "two-card-guts", {}, {"buy_in": 10}, False, "h"))
>>> for n, name in enumerate(["Ann", "Bob"]):
...     _ = state.apply(BotCommand(seat_id=n, nickname=name, bot="random", buy_in=10))
>>> state.apply(StartCommand())
[0, 1]
>>> state.status, state.session.table.names
('playing', ('Ann', 'Bob'))
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from guts.bots import Policy, policy_for
from guts.catalog import Game, find_game
from guts.errors import GutsError
from guts.games.session import RecordedSession
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
    read_command,
)
from guts.server.dealer import Dealer
from guts.server.storage import SeatRow, StoredTable, TableRow
from guts.table import Table

__all__ = ["SHARES_OUT", "TAKES_TABLE", "Logged", "Seat", "TableState"]

TAKES_TABLE = frozenset({"guts", "staged"})
"""The families whose sessions take over a table (stacks, pot, button). Draw and Bourré
count their players before they look for a table (``len(Table)``), so their next
session gets a fresh table."""

SHARES_OUT = frozenset({"guts", "staged", "draw"})
"""The families whose sessions, once over, share out what is left in the pot when
stopped; Bourré's rules say what becomes of its last pot (``end-pot``)."""


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
        """The seat as stored."""
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
        """The seat as everyone sees it."""
        return {
            "seat_id": self.seat_id,
            "nickname": self.nickname,
            "kind": self.kind,
            "buy_in": self.buy_in,
            "status": self.status,
            "seat": self.number,
        }


@dataclass(frozen=True)
class Logged:
    """One committed command: its sequence number, kind, and the engine events it made
    (``events[start:end]`` of session number ``session``, -1 before the start)."""

    seq: int
    kind: str
    session: int
    start: int
    end: int


class TableState:
    """Everything a table's commands build; rebuilt from scratch by :meth:`replay`."""

    def __init__(self, row: TableRow) -> None:
        self.row = row
        self.game: Game = find_game(row.preset)
        self.dealer = Dealer()
        self.seats: dict[int, Seat] = {}
        self.sessions: list[RecordedSession[Any, Any]] = []
        self.status = "lobby"
        self.ending = False
        self.stopped = False
        self.seq = 0
        self.client_seqs: dict[int, tuple[int, int]] = {}
        """Each seat's last applied client sequence number, and the command it made."""
        self.log: list[Logged] = []
        self.policies: dict[int, Policy] = {}
        """The bot of each bot's seat number in the session in play."""

    @property
    def session(self) -> RecordedSession[Any, Any] | None:
        """The session in play (or the last one), None before the start."""
        return self.sessions[-1] if self.sessions else None

    def seat_at(self, number: int) -> Seat | None:
        """The lobby seat playing seat ``number`` of the game."""
        for seat in self.seats.values():
            if seat.number == number:
                return seat
        return None

    def number(self, seat_id: int | None) -> int | None:
        """The game seat of lobby seat ``seat_id`` (None if it has none)."""
        seat = self.seats.get(seat_id) if seat_id is not None else None
        return None if seat is None else seat.number

    def approved(self) -> list[Seat]:
        """The approved seats in the order they were asked for."""
        return sorted(
            (s for s in self.seats.values() if s.status == "approved"), key=lambda s: s.seat_id
        )

    # -- applying ---------------------------------------------------------------------------

    def mark(self) -> tuple[int, int]:
        """Where the next events will start: the session's number and its event count."""
        session = self.session
        return len(self.sessions) - 1, 0 if session is None else len(session.events)

    def apply(self, command: Command) -> list[int]:
        """Apply ``command`` (live or replaying); the seat ids whose rows it changed.
        Raises GutsError, changing nothing, if the engine refuses it."""
        if isinstance(command, JoinCommand | BotCommand):
            approved = isinstance(command, BotCommand) or self.row.auto_approve
            token = command.token_hash if isinstance(command, JoinCommand) else None
            kind = command.bot if isinstance(command, BotCommand) else "person"
            self.seats[command.seat_id] = Seat(
                command.seat_id,
                command.nickname,
                kind,
                token,
                command.buy_in,
                "approved" if approved else "requested",
            )
            return [command.seat_id]
        if isinstance(command, ApproveCommand | RefuseCommand):
            seat = self.seats[command.seat_id]
            if isinstance(command, ApproveCommand):
                seat.status, seat.buy_in = "approved", command.buy_in
            else:
                seat.status = "refused"
            return [command.seat_id]
        if isinstance(command, StartCommand):
            return self._start()
        if isinstance(command, EndCommand):
            if self.session is None or self.session.is_over:
                self.status = "over"
            else:
                self.ending = True
            return []
        session = self.session
        if session is None:
            raise CommandError(f"a {command.kind} command before the start")
        if isinstance(command, DealCommand):
            if session.is_over:  # the night goes on: the next session
                session = self._new_session(session.table)
            session.start_deal()
            if session is not self.session:
                self._begin(session)
        elif isinstance(command, ActCommand):
            session.act(command.seat, command.action)
        else:
            session.stop(command.reason)
            self.stopped = True
        self._update_status()
        return []

    def leftover(self) -> bool:
        """True when the night is over with chips still on the table (a deal limit
        reached with a pot), which stopping the session shares out."""
        session = self.session
        return (
            self.status == "over"
            and not self.stopped
            and session is not None
            and session.is_over
            and self.game.family in SHARES_OUT
            and any(session.table.places.values())
        )

    def committed(self, seq: int, command: Command, mark: tuple[int, int]) -> Logged:
        """Note that ``command``, applied since ``mark``, is command ``seq`` of the record."""
        number, start = mark
        if len(self.sessions) - 1 != number:  # it began a new session
            number, start = len(self.sessions) - 1, 0
        session = self.session
        entry = Logged(
            seq, command.kind, number, start, 0 if session is None else len(session.events)
        )
        self.log.append(entry)
        self.seq = seq
        if isinstance(command, ActCommand) and command.client_seq is not None:
            self.client_seqs[command.seat_id] = (command.client_seq, seq)
        return entry

    def _start(self) -> list[int]:
        approved = self.approved()
        players = [(seat.nickname, seat.buy_in) for seat in approved]
        session = self.game.new_session(players, options=self.row.options, rng=self.dealer)
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
        if self.game.family in TAKES_TABLE:
            return make(rules, table, rng=self.dealer, button=None)
        players = [(seat.name, seat.stack) for seat in table.seats]
        return make(rules, players, rng=self.dealer, button=table.button)

    def _begin(self, session: RecordedSession[Any, Any]) -> None:
        self.sessions.append(session)
        self.policies = {
            seat.number: policy_for(seat.kind, self.game.family, session)
            for seat in self.seats.values()
            if seat.kind != "person" and seat.number is not None
        }

    def _update_status(self) -> None:
        """The table is over when its session is and the night does not go on: the host
        ended it, the rules' deal limit was reached, fewer than two have chips, or a fresh
        table would not carry what is left (chips in the pot, debts)."""
        session = self.session
        if session is None or not session.is_over:
            self.status = "playing" if session is not None else self.status
            return
        table = session.table
        with_chips = sum(seat.stack > 0 for seat in table.seats)
        carried = self.game.family in TAKES_TABLE or (
            not any(table.places.values()) and all(seat.stack >= 0 for seat in table.seats)
        )
        goes_on = (
            not self.ending
            and getattr(session.rules, "max_deals", None) is None
            and (table.credit or with_chips >= 2)
            and carried
        )
        self.status = "playing" if goes_on else "over"

    # -- the record -------------------------------------------------------------------------

    @classmethod
    def replay(cls, stored: StoredTable) -> TableState:
        """The table its record builds: every stored command applied in order, with the
        shuffles fed back; CommandError if the record does not replay."""
        state = cls(stored.table)
        for expected, action in enumerate(stored.actions, start=1):
            if action.seq != expected:
                raise CommandError(f"table {stored.table.id}: command {expected} is missing")
            command = read_command(action.payload)
            mark = state.mark()
            state.dealer.feed(getattr(command, "draws", ()))
            try:
                state.apply(command)
                state.dealer.done()
            except GutsError as error:
                raise CommandError(
                    f"table {stored.table.id}: command {expected} "
                    f"({command.kind}) does not replay: {error}"
                ) from None
            state.committed(expected, command, mark)
        return state

    def check(self) -> None:
        """Check that every session's chips add up to its ledger (GutsError if not)."""
        for session in self.sessions:
            session.table.check_invariant()
