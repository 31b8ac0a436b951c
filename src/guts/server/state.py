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

The seats at the table change only at a deal boundary with no chips in the pot (in draw
poker after every hand, in Guts when a pot is won): seats approved after the start are
dealt in, seats that left or were kicked are cashed out, seats sitting out or away are
dealt out (their chips held for them), approved rebuys and top-ups are added and changed
options take effect. The session in play is stopped there (nothing is in the pot) and a
new one starts on a fresh table, so every session's record replays on its own. Until
then a seat that is away or leaving is played safe (out, fold, check, stand pat; the
bot's choice where nothing is safe, as in Bourre) at once.

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

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from guts.bots import Policy, policy_for
from guts.catalog import FAMILIES
from guts.errors import GutsError, OptionError
from guts.games.base import Decision, Event
from guts.games.session import RecordedSession
from guts.night import Night
from guts.night.bots import NightPolicy
from guts.night.rules import Chooser
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
    read_command,
)
from guts.server.dealer import Dealer
from guts.server.presets import NIGHT_FAMILY, NightPreset, TableGame, table_game
from guts.server.storage import SeatRow, StoredTable, TableRow

__all__ = [
    "CHOICE_TIMED_OUT",
    "LOG_KEPT",
    "RESEATED",
    "SAFE_ACTIONS",
    "ChatLine",
    "Logged",
    "Seat",
    "TableSession",
    "TableState",
    "safe_action",
    "shares_out",
    "takes_table",
]


def takes_table(family: str) -> bool:
    """Whether a session of ``family`` takes over the table it is played on (stacks, pot,
    button): if not, the next session gets a fresh table (a night: never)."""
    found = FAMILIES.get(family)
    return found is not None and found.takes_table


def shares_out(family: str) -> bool:
    """Whether a session of ``family``, once over, shares out what is left in the pot
    when stopped (if not, its rules say what becomes of the last pot)."""
    found = FAMILIES.get(family)
    return found is not None and found.shares_out


RESEATED = "the seats changed"
"""Why a session is stopped at a deal boundary when the seats or the chips change."""

SAFE_ACTIONS = ("check", "out", "fold", "stand pat")
"""The actions that risk nothing, best first: what a seat that is away, leaving or out of
time takes when one is legal."""

CHAT_KEPT = 50
"""How many chat lines a snapshot carries."""

LOG_KEPT = 1000
"""How many of the latest commands of the session in play a table in play keeps in its
log (a client that missed more gets a snapshot): older ones are read from the record."""

CHOICE_TIMED_OUT = "time-out"
"""The action the table records for a night's chooser who did not choose in time (or is
away): the night's own :meth:`~guts.night.Night.time_out` (no game is called that)."""

TableSession = RecordedSession[Any, Any] | Night
"""What a table plays: a game's session, or a night of dealer's choice."""


def safe_action(legal: tuple[str, ...], fallback: Callable[[], str]) -> str:
    """The first of :data:`SAFE_ACTIONS` that is ``legal``, else ``fallback()`` (a bot's
    choice, where nothing is safe: a card to play in Bourre).

    >>> safe_action(("fold", "check", "bet 1"), lambda: "bet 1")
    'check'
    >>> safe_action(("2c", "As"), lambda: "As")
    'As'
    """
    for action in SAFE_ACTIONS:
        if action in legal:
            return action
    return fallback()


@dataclass
class Seat:
    """A seat of the lobby: asked for, given, refused or left; ``number`` its seat in the
    session in play (None when it is not dealt in).

    The night's chips: ``bought`` (the buy-in and every approved rebuy and top-up),
    ``cashed`` (what it took away), ``held`` (its chips while no table has them: before it
    is dealt in, and while it sits out), ``due`` (approved chips not yet on a table),
    ``asked`` (chips asked for, waiting for the host) and ``debt`` (what it owed when it
    left a table on credit: a fresh table seats it with no chips, the debt stays)."""

    seat_id: int
    nickname: str
    kind: str
    token_hash: str | None
    buy_in: int
    status: str
    number: int | None = None
    away: bool = False
    leaving: bool = False
    timeouts: int = 0
    bank_ms: int = 0
    bought: int = 0
    cashed: int = 0
    held: int = 0
    due: int = 0
    asked: int = 0
    debt: int = 0
    left_at: int | None = None
    """The command (its seq) that cashed the seat out when it left."""

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
            "away": self.away,
            "leaving": self.leaving,
            "asked": self.asked,
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


@dataclass(frozen=True)
class ChatLine:
    """A line of chat as kept: the command's sequence number, the seat and the text."""

    seq: int
    seat_id: int
    nickname: str
    text: str

    def message(self) -> dict[str, Any]:
        """The ``chat`` message that carries it."""
        return {"type": "chat", "seq": self.seq, "seat_id": self.seat_id,
                "nickname": self.nickname, "text": self.text}  # fmt: skip


@dataclass
class _Night:
    """What spans the night's sessions: the options in force and the deals played."""

    options: dict[str, str]
    buy_in: int
    deals_before: int = 0
    changed_options: bool = False
    lineups: list[list[int]] = field(default_factory=list)
    """The lobby seat ids each kept session deals in, by game seat (as ``sessions``)."""
    games_before: int = 0
    """Dealer's choice: the games of the nights before this seating's."""


class TableState:
    """Everything a table's commands build; rebuilt from scratch by :meth:`replay`.

    A table in play keeps only what its next commands and a resuming client need: the
    session in play, its lineup and the latest :data:`LOG_KEPT` commands of it, so its
    memory does not grow with the sessions it finished. With ``keep`` every session,
    lineup and command is kept: the whole night, as the routes that read finished
    sessions (history, deals, review, full log, club stats) replay it from the record.
    """

    def __init__(self, row: TableRow, *, keep: bool = False) -> None:
        self.row = row
        self.keep = keep
        self.game: TableGame = table_game(row.preset)
        self.dealer = Dealer()
        self.seats: dict[int, Seat] = {}
        self.refused: dict[int, Seat] = {}
        """The requests refused or withdrawn, by the seat id they freed (until it is taken
        again): kept only for their stored rows."""
        self.sessions: list[TableSession] = []
        """The sessions kept: every one of the night with ``keep``, else the one in play."""
        self.sessions_before = 0
        """How many sessions of the night came before ``sessions[0]`` (dropped)."""
        self.status = "lobby"
        self.ending = False
        self.stopped = False
        self.paused = False
        self.host_seat: int | None = None
        """The seat holding the host role once the host handed it on (None: the host
        secret's holder)."""
        self.hosts_own: int | None = None
        """The seat the holder of the host's credential asked for (a join with it), while
        the seat is theirs (a refusal frees it); None if they asked for none."""
        self.seq = 0
        self.client_seqs: dict[int, tuple[int, int]] = {}
        """Each seat's last applied client sequence number, and the command it made."""
        self.log: list[Logged] = []
        """The committed commands kept (see the class's docstring), oldest first."""
        self.chat: list[ChatLine] = []
        self.chat_lines = 0
        """How many lines of chat the record holds."""
        self.policies: dict[int, Policy | NightPolicy] = {}
        """The bot of each bot's seat number in the session in play."""
        self.night = _Night(dict(row.options), int(row.stakes.get("buy_in", 100)))
        self._credit_of: dict[str, str] | None = None
        self._credit_now = False

    @property
    def session(self) -> TableSession | None:
        """The session in play (or the last one), None before the start."""
        return self.sessions[-1] if self.sessions else None

    @property
    def session_number(self) -> int:
        """The number of the session in play in the night (from 0; -1 before the start)."""
        return self.sessions_before + len(self.sessions) - 1

    def events_of(self, entry: Logged) -> tuple[Event, ...]:
        """The engine events (hidden ones included) that the command ``entry`` made
        (LookupError if its session is no longer kept)."""
        if entry.session < self.sessions_before:
            raise LookupError(f"session {entry.session} is no longer kept")
        return self.sessions[entry.session - self.sessions_before].events[entry.start : entry.end]

    @property
    def is_night(self) -> bool:
        """True for a table of dealer's choice."""
        return self.game.family == NIGHT_FAMILY

    def choosing(self) -> bool:
        """True while a night's chooser must name the next game."""
        session = self.session
        return isinstance(session, Night) and session.chooser is not None

    def between_games(self) -> bool:
        """True on a night between two games (a choice may be waiting)."""
        session = self.session
        return isinstance(session, Night) and session.session is None and not session.is_over

    @property
    def family(self) -> str:
        """The family being played now (a night: its current game's; ``night`` between
        games)."""
        session = self.session
        if isinstance(session, Night):
            return session.session.game if session.session is not None else NIGHT_FAMILY
        return self.game.family

    @property
    def options(self) -> dict[str, str]:
        """The game's options as the host last set them."""
        return self.night.options

    @property
    def buy_in(self) -> int:
        """The buy-in (and the most chips a rebuy or top-up may ask for)."""
        return self.night.buy_in

    def requests(self) -> int:
        """How many seat requests wait for the host."""
        return sum(seat.status == "requested" for seat in self.seats.values())

    def row_of(self, seat_id: int) -> Seat:
        """The seat ``seat_id`` as stored (a refused request's too)."""
        return self.seats.get(seat_id) or self.refused[seat_id]

    def seat_at(self, number: int) -> Seat | None:
        """The lobby seat playing seat ``number`` of the game."""
        lineup = self.night.lineups[-1] if self.night.lineups else []
        return self.seats[lineup[number]] if 0 <= number < len(lineup) else None

    def number(self, seat_id: int | None) -> int | None:
        """The game seat of lobby seat ``seat_id`` (None if it has none)."""
        seat = self.seats.get(seat_id) if seat_id is not None else None
        return None if seat is None else seat.number

    def approved(self) -> list[Seat]:
        """The approved seats in the order they were asked for."""
        return sorted(
            (s for s in self.seats.values() if s.status == "approved"), key=lambda s: s.seat_id
        )

    def stack(self, seat: Seat) -> int:
        """The chips ``seat`` has on the night: on the table in play, else held for it."""
        session = self.session
        if seat.number is not None and session is not None:
            return session.table.stack(seat.number)
        return seat.held

    def net(self, seat: Seat) -> int:
        """What ``seat`` has won (positive) or lost on the night so far."""
        return self.stack(seat) + seat.due + seat.cashed - seat.bought - self.owed(seat)

    def owed(self, seat: Seat) -> int:
        """The debts ``seat`` took on credit: those it left tables with, and a night's
        markers at the table in play."""
        session = self.session
        if isinstance(session, Night) and seat.number is not None:
            return seat.debt + session.ledger.markers[seat.number]
        return seat.debt

    # -- applying ---------------------------------------------------------------------------

    def mark(self) -> tuple[int, int]:
        """Where the next events will start: the session's number and its event count."""
        session = self.session
        return self.session_number, 0 if session is None else len(session.events)

    def apply(self, command: Command) -> list[int]:
        """Apply ``command`` (live or replaying); the seat ids whose rows it changed.
        Raises GutsError, changing nothing, if the engine refuses it."""
        if isinstance(command, JoinCommand | BotCommand):
            return self._seat(command) + self._reseat_night()
        if isinstance(command, ApproveCommand | RefuseCommand):
            seat = self.seats[command.seat_id]
            if isinstance(command, ApproveCommand):
                seat.status, seat.buy_in = "approved", command.buy_in
                seat.bought = seat.held = command.buy_in
            else:  # the request holds nothing from now on: its seat id is free again
                seat.status = "refused"
                self.refused[command.seat_id] = self.seats.pop(command.seat_id)
                if self.hosts_own == command.seat_id:
                    self.hosts_own = None
            return [command.seat_id, *self._reseat_night()]
        if isinstance(command, StartCommand):
            return self._start()
        if isinstance(command, EndCommand):
            if self.session is None or self.session.is_over:
                self.status = "over"
            else:
                self.ending = True
            return []
        control = self._control(command)
        if control is not None:
            return control + self._reseat_night()
        session = self.session
        if session is None:
            raise CommandError(f"a {command.kind} command before the start")
        changed: list[int] = []
        if isinstance(command, DealCommand):
            changed = self._deal(session)
        elif isinstance(command, ActCommand):
            if isinstance(session, Night) and command.action == CHOICE_TIMED_OUT:
                session.time_out()
            else:
                session.act(command.seat, command.action)
            changed = self._acted(command)
        elif isinstance(command, StopCommand):
            session.stop(command.reason)
            self.stopped = True
        self._update_status()
        return changed + self._reseat_night()

    def _seat(self, command: JoinCommand | BotCommand) -> list[int]:
        approved = isinstance(command, BotCommand) or self.row.auto_approve
        token = command.token_hash if isinstance(command, JoinCommand) else None
        kind = command.bot if isinstance(command, BotCommand) else "person"
        seat = Seat(
            command.seat_id,
            command.nickname,
            kind,
            token,
            command.buy_in,
            "approved" if approved else "requested",
            bank_ms=self.time_bank_ms,
        )
        if approved:
            seat.bought = seat.held = command.buy_in
        self.seats[command.seat_id] = seat
        self.refused.pop(command.seat_id, None)
        if isinstance(command, JoinCommand) and command.host:
            self.hosts_own = command.seat_id
        elif self.hosts_own == command.seat_id:  # a freed seat id taken by someone else
            self.hosts_own = None
        return [command.seat_id]

    def host_holds(self) -> int | None:
        """The host's own seat: the seat the host role was handed to, else the seat the
        host took with the host's credential (None: the host holds no seat we know)."""
        return self.host_seat if self.host_seat is not None else self.hosts_own

    def _control(self, command: Command) -> list[int] | None:
        """Apply a host's or player's control (None if ``command`` is none)."""
        if isinstance(command, PauseCommand):
            self.paused = command.paused
            return []
        if isinstance(command, OptionsCommand):
            self.night.options, self.night.buy_in = dict(command.options), command.buy_in
            self.night.changed_options = True
            return []
        if isinstance(command, HostCommand):
            self.host_seat = command.seat_id
            return []
        if isinstance(command, ChatCommand):
            seat = self.seats.get(command.seat_id)
            name = command.nickname or (seat.nickname if seat is not None else "?")
            self.chat.append(ChatLine(self.seq + 1, command.seat_id, name, command.text))
            del self.chat[:-CHAT_KEPT]
            self.chat_lines += 1
            return []
        if isinstance(command, AwayCommand):
            seat = self.seats[command.seat_id]
            seat.away = command.away
            if not command.away:
                seat.timeouts = 0
            return [seat.seat_id]
        if isinstance(command, LeaveCommand):
            seat = self.seats[command.seat_id]
            seat.leaving = True
            if seat.number is None or self.session is None:
                self._cash_out(seat)
            return [seat.seat_id]
        if isinstance(command, ChipsCommand):
            seat = self.seats[command.seat_id]
            seat.asked = command.amount if command.status == "asked" else 0
            if command.status == "approved":
                seat.bought += command.amount
                seat.due += command.amount
            return [seat.seat_id]
        return None

    def _acted(self, command: ActCommand) -> list[int]:
        """Note a seat's clock: the time bank it used, and its timeouts in a row (at
        ``away_after`` of them it is set away)."""
        seat = self.seats.get(command.seat_id)
        if seat is None or seat.kind != "person":
            return []
        seat.bank_ms = max(0, seat.bank_ms - command.bank_ms)
        if not command.timeout:
            if command.client_seq is not None:  # the person's own decision
                seat.timeouts = 0
            return []
        seat.timeouts += 1
        if self.away_after and seat.timeouts >= self.away_after and not seat.away:
            seat.away = True
            return [seat.seat_id]
        return []

    def _cash_out(self, seat: Seat) -> None:
        """``seat`` (dealt out) takes its chips away and leaves the table."""
        seat.cashed += seat.held + seat.due
        seat.held = seat.due = 0
        seat.status, seat.leaving, seat.away = "left", False, False
        seat.left_at = self.seq + 1  # the command being applied

    # -- the clocks' settings ---------------------------------------------------------------

    @property
    def clock_ms(self) -> int:
        """A person's time for each decision (0: no clock)."""
        return int(self.row.stakes.get("clock", 30)) * 1000

    @property
    def time_bank_ms(self) -> int:
        """Each person's time bank for the night, spent once a decision's clock runs out."""
        return int(self.row.stakes.get("time_bank", 60)) * 1000

    @property
    def away_after(self) -> int:
        """How many timeouts in a row set a seat away (0: never)."""
        return int(self.row.stakes.get("away_after", 2))

    @property
    def spectator_chat(self) -> bool:
        """Spectators may chat (a table option, off unless the host opened it so)."""
        return bool(self.row.stakes.get("spectator_chat", 0))

    # -- the seats at the table -------------------------------------------------------------

    def plays_safe(self, number: int) -> bool:
        """True when game seat ``number`` is away or leaving: the table acts for it."""
        seat = self.seat_at(number)
        return seat is not None and (seat.away or seat.leaving)

    def lineup(self) -> list[int]:
        """The seats the next table would deal in: approved, not away or leaving, with
        chips to play (or on credit), in the order they were asked for."""
        credit = self._credit()
        return [
            seat.seat_id
            for seat in self.approved()
            if not seat.away and not seat.leaving and (credit or self.stack(seat) + seat.due > 0)
        ]

    def _credit(self) -> bool:
        """True when the options in force play on credit (read once per options)."""
        options = self.options
        if self._credit_of is not options:
            self._credit_of = options
            self._credit_now = bool(getattr(self.game.rules(options), "credit", False))
        return self._credit_now

    def reseat_due(self) -> bool:
        """True at a deal boundary with an empty pot when the seats, their chips or the
        options must change before the next deal."""
        session = self.session
        if session is None:
            return False
        if isinstance(session, Night):
            if not self.between_games():  # a night changes seats between games only
                return False
        elif not session.deal_over or any(session.table.places.values()):
            return False
        current = self.night.lineups[-1] if self.night.lineups else []
        wanted = self.lineup()
        return (
            wanted != current
            or self.night.changed_options
            or any(self.seats[seat_id].due for seat_id in wanted)
            or any(self.seats[seat_id].leaving for seat_id in current)
        )

    def reseats(self) -> bool:
        """True when the next deal needs a fresh table: the seats, chips or options
        change, or a session of a family that cannot take over a table is over."""
        session = self.session
        if session is None or isinstance(session, Night):
            return False  # a night changes seats as soon as a game ends (_reseat_night)
        if session.is_over and not takes_table(self.game.family):
            return True
        return self.reseat_due()

    def can_deal(self) -> bool:
        """True unless the next deal needs a fresh table and the seats that would be
        dealt in are too few for the game (the table waits for players)."""
        if not self.reseats():
            return True
        players = [(self.seats[i].nickname, 1) for i in self.lineup()]
        try:
            self.game.new_session(players, options=self.options)
        except GutsError:
            return False
        return True

    def _deal(self, session: TableSession) -> list[int]:
        changed: list[int] = []
        if isinstance(session, Night):
            session.start_deal()
            return changed
        if self.reseats():
            if not session.is_over:
                session.stop(RESEATED)
            changed = self._release(session)
            changed += self._fresh(session)
            session = self.sessions[-1]
        elif session.is_over:
            session = self._take_over(session)
        session.start_deal()
        return changed

    def _take_over(self, old: RecordedSession[Any, Any]) -> RecordedSession[Any, Any]:
        """The next session of the night on the same table (stacks, pot and button carried
        over: the engine's dealer's-choice way)."""
        assert not isinstance(self.game, NightPreset)
        family = self.game.games_family
        rules = family.rules(self.game.name, self.options)
        make: Callable[..., RecordedSession[Any, Any]] = family.session_class
        session = make(rules, old.table, rng=self.dealer, button=None)
        self.night.deals_before += old.deals_played
        self._begin(session, list(self.night.lineups[-1]))
        return session

    def _release(self, old: TableSession) -> list[int]:
        """The seats of ``old`` leave its table with their stacks (held for them; a debt
        on credit kept as such, a night's markers too); those leaving are cashed out."""
        changed = []
        markers = old.ledger.markers if isinstance(old, Night) else ()
        for number, seat_id in enumerate(self.night.lineups[-1]):
            seat = self.seats[seat_id]
            final = old.table.stack(number)
            seat.held, seat.debt = max(final, 0), seat.debt + max(-final, 0)
            if markers:
                seat.debt += markers[number]
            seat.number = None
            changed.append(seat_id)
        for seat in self.seats.values():
            if seat.leaving and seat.status == "approved":
                self._cash_out(seat)
                changed.append(seat.seat_id)
        self.night.deals_before += old.deals_played
        return changed

    def _fresh(self, old: TableSession | None) -> list[int]:
        """A new session on a fresh table for the seats of :meth:`lineup`, each with its
        chips, the next dealer first; the night's deal limit carried on."""
        lineup = self.lineup()
        seats = [self.seats[seat_id] for seat_id in lineup]
        players = [(seat.nickname, seat.held + seat.due) for seat in seats]
        options = dict(self.options)
        limit, before = ("most-games", self.night.games_before) if self.is_night else (
            "max-deals", self.night.deals_before)  # fmt: skip
        wanted = options.get(limit) or options.get(limit.replace("-", "_"))
        if wanted is not None and wanted.isdigit():
            options.pop(limit.replace("-", "_"), None)
            options[limit] = str(max(1, int(wanted) - before))
        if self.is_night and before:
            options = self._rotation_goes_on(options, before)
        button = 0
        if old is not None and self.night.lineups:
            dealer = self.night.lineups[-1][old.table.button]
            later = [n for n, seat_id in enumerate(lineup) if seat_id >= dealer]
            button = later[0] if later else 0
        session: TableSession
        if isinstance(self.game, NightPreset):
            session = self.game.new_session(players, options=options, rng=self.dealer,
                                            button=button)  # fmt: skip
        else:
            family = self.game.games_family
            session = family.new_session(
                self.game.name, players, options=options, rng=self.dealer, button=button
            )
        for number, seat in enumerate(seats):
            seat.number, seat.held, seat.due = number, 0, 0
        self.night.changed_options = False
        self._begin(session, lineup)
        return lineup

    def _rotation_goes_on(self, options: dict[str, str], before: int) -> dict[str, str]:
        """A rotation's ``games`` turned so that a fresh night for a new seating plays
        the game after the ``before`` games played (the rotation goes on in turn)."""
        assert isinstance(self.game, NightPreset)
        rules = self.game.rules(options)
        if rules.chooser is not Chooser.ROTATION:
            return options
        entries = rules.entries
        turn = before % len(entries)
        turned = [entry.text() for entry in (*entries[turn:], *entries[:turn])]
        options.pop("games", None)
        return {**options, "games": ",".join(turned)}

    def leftover(self) -> bool:
        """True when the night is over with chips still on the table (a deal limit
        reached with a pot), which stopping the session shares out."""
        session = self.session
        return (
            self.status == "over"
            and not self.stopped
            and session is not None
            and session.is_over
            and shares_out(self.game.family)
            and any(session.table.places.values())
        )

    def committed(self, seq: int, command: Command, mark: tuple[int, int]) -> Logged:
        """Note that ``command``, applied since ``mark``, is command ``seq`` of the record."""
        number, start = mark
        if self.session_number != number:  # it began a new session
            number, start = self.session_number, 0
        session = self.session
        entry = Logged(
            seq, command.kind, number, start, 0 if session is None else len(session.events)
        )
        self.log.append(entry)
        if not self.keep:
            self._forget_commands()
        self.seq = seq
        if isinstance(command, ActCommand) and command.client_seq is not None:
            self.client_seqs[command.seat_id] = (command.client_seq, seq)
        return entry

    def _forget_commands(self) -> None:
        """Drop the log's commands that no client will be sent again: those of earlier
        sessions, and all but the latest :data:`LOG_KEPT` (a few at a time)."""
        log, current = self.log, self.session_number
        if log[0].session != current:
            self.log = log = [entry for entry in log if entry.session == current]
        if len(log) > 2 * LOG_KEPT:
            del log[:-LOG_KEPT]

    def _start(self) -> list[int]:
        changed = self._fresh(None)
        session = self.sessions[-1]
        if session.deal_over:  # a night's first chooser chooses before any deal
            session.start_deal()
        self._update_status()
        return changed

    def _reseat_night(self) -> list[int]:
        """Dealer's choice: between two games, when the seats, their chips or the options
        must change, the night so far ends and a fresh one begins for the new seating
        (the chips as they stand, the next dealer first, the games left of
        ``most-games``); the lobby seats it changed. Nothing happens while a game is
        played, or if the new seating could not play the night (it waits)."""
        session = self.session
        if not isinstance(session, Night) or not self.between_games() or not self.reseat_due():
            return []
        players = [(self.seats[i].nickname, 1) for i in self.lineup()]
        try:
            self.game.new_session(players, options=self.options)
        except GutsError:
            return []
        self.night.games_before += session.number
        session.stop(RESEATED)
        changed = self._release(session)
        changed += self._fresh(session)
        fresh = self.sessions[-1]
        if fresh.deal_over and not fresh.is_over:
            fresh.start_deal()  # a rotation's next game
        return changed

    def _begin(self, session: TableSession, lineup: list[int]) -> None:
        self.sessions.append(session)
        self.night.lineups.append(lineup)
        if not self.keep:  # the finished sessions are read from the record when asked for
            self.sessions_before += len(self.sessions) - 1
            del self.sessions[:-1]
            del self.night.lineups[:-1]
        self.policies = {
            number: self._bot(self.seats[seat_id].kind, session)
            for number, seat_id in enumerate(lineup)
            if self.seats[seat_id].kind != "person"
        }

    def _bot(self, kind: str, session: TableSession) -> Policy | NightPolicy:
        """The bot of ``kind`` for a seat of ``session``; an equilibrium bot whose game the
        host's new options put out of the solver's reach plays as the sensible bot."""
        if isinstance(session, Night):
            return NightPolicy(kind, session)
        try:
            return policy_for(kind, self.game.family, session)
        except OptionError:
            if kind != "equilibrium":
                raise
            return policy_for("sensible", self.game.family, session)

    def safe_policy(self) -> Policy:
        """The bot that chooses for a seat where no action is safe."""
        session = self.session
        assert session is not None
        if isinstance(session, Night):
            assert session.session is not None
            return policy_for("sensible", session.session.game, session.session)
        return policy_for("sensible", self.game.family, session)

    def safe(self, decision: Decision) -> str:
        """The safe action of ``decision`` (see :func:`safe_action`); the sensible bot's
        choice where none is safe (the action is recorded, so a replay needs no bot); a
        night's choice: :data:`CHOICE_TIMED_OUT`, the night's time-out."""
        session = self.session
        assert session is not None
        if self.choosing():
            return CHOICE_TIMED_OUT
        legal = session.legal_actions(decision.seat)

        def bots_choice() -> str:
            view = session.view(decision.seat)
            choice = self.safe_policy().choose(view, decision, random.SystemRandom())
            return session.canonical(decision.seat, choice)

        return safe_action(legal, bots_choice)

    def _update_status(self) -> None:
        """The table is over when its session is and the night does not go on: the host
        ended it, the rules' deal limit was reached, fewer than two seats have chips, or
        chips are left in a pot that a fresh table would not carry."""
        session = self.session
        if session is None or not session.is_over:
            self.status = "playing" if session is not None else self.status
            return
        if isinstance(session, Night):  # its own rules end it (games played, chips)
            self.status = "over"
            return
        credit = bool(getattr(session.rules, "credit", False))
        in_night = [
            seat
            for seat in self.approved()
            if not seat.leaving and (credit or self.stack(seat) + seat.due > 0)
        ]
        carried = takes_table(self.game.family) or not any(session.table.places.values())
        goes_on = (
            not self.ending
            and getattr(session.rules, "max_deals", None) is None
            and len(in_night) >= 2
            and carried
        )
        self.status = "playing" if goes_on else "over"

    # -- the record -------------------------------------------------------------------------

    @classmethod
    def replay(cls, stored: StoredTable, *, keep: bool = False) -> TableState:
        """The table its record builds: every stored command applied in order, with the
        shuffles fed back (``keep``: every session kept, as the class says); CommandError
        if the record does not replay."""
        state = cls(stored.table, keep=keep)
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
        """Check that every session kept has its chips add up to its ledger (GutsError if
        not)."""
        for session in self.sessions:
            session.table.check_invariant()
