"""What every family's session shares: a record of events that replays.

:class:`RecordedSession` is a :class:`~guts.games.base.Session` that keeps its events in a
list, mirrors every ledger transfer as a ``Moved`` event (:class:`MovedEvent`), ends with
a ``SessionEnded`` event (:class:`EndedEvent`), writes a record (rules, players, first
dealer, events) and rebuilds itself from one. A family says which event classes it emits
(:attr:`~RecordedSession.moved_event`, :attr:`~RecordedSession.ended_event`), which
rules it plays (:attr:`~RecordedSession.rules_class`) and how a replay re-applies one
event (:meth:`~RecordedSession._replay_event`); it keeps its own deals and views.
:func:`open_table` builds a session's table (or takes a shared one, dealer's choice), and
:meth:`~RecordedSession.play_out` plays a session to its end with bots.
"""

from __future__ import annotations

from abc import abstractmethod
from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from mypy_extensions import mypyc_attr

from guts.errors import GutsError, IllegalAction, OptionError
from guts.games.base import (
    Decision,
    EndedEvent,
    Event,
    EventError,
    MovedEvent,
    Session,
    events_from_json,
    events_to_json,
)
from guts.games.decision import Discard
from guts.games.options import RuleOptions
from guts.table import OddChipRule, Table, Transfer

__all__ = [
    "SHORT_OF_PLAYERS",
    "EndedEvent",
    "MovedEvent",
    "PlayedDeal",
    "RecordedSession",
    "TableRules",
    "open_table",
]


SHORT_OF_PLAYERS = "fewer than two players have chips"
"""Why a session at table stakes ends when it cannot go on (every family's word for it)."""


class _Record:
    """A session's events: the list it keeps, and how far the ledger is mirrored in it.

    It holds nothing of the session itself (see :attr:`RecordedSession._emit`).
    """

    __slots__ = ("events", "moved", "synced", "table")

    def __init__(
        self, events: list[Event], table: Table, moved: type[MovedEvent], synced: int
    ) -> None:
        self.events = events
        self.table = table
        self.moved = moved
        self.synced = synced

    def emit(self, event: Event) -> None:
        """Append ``event``, after a ``Moved`` event for each transfer not yet mirrored."""
        if self.table.ledger_size != self.synced:
            self.sync()
        self.events.append(event)

    def emit_all(self, events: Iterable[Event]) -> None:
        """:meth:`emit` each of ``events`` in turn (nothing moves chips between them)."""
        if self.table.ledger_size != self.synced:
            self.sync()
        self.events.extend(events)

    def sync(self) -> None:
        """Append a ``Moved`` event for each transfer not yet mirrored."""
        size = self.table.ledger_size
        if size != self.synced:
            moved, append = self.moved, self.events.append
            for transfer in self.table.ledger_since(self.synced):
                append(_moved_event(moved.from_transfer, transfer))
            self.synced = size


_LONGEST = 200
"""The longest action :func:`guts.games.decision.check_action` accepts."""



@lru_cache(maxsize=1 << 12)
def _moved_event(
    from_transfer: Callable[[Transfer], MovedEvent], transfer: Transfer
) -> MovedEvent:
    """``from_transfer(transfer)``: one event per recent distinct transfer and class (the
    same antes, bets and calls move again and again, and events are immutable values)."""
    return from_transfer(transfer)


@lru_cache(maxsize=1 << 8, typed=True)
def _ended(ended: Callable[..., EndedEvent], reason: str) -> EndedEvent:
    """``ended(reason=reason)``, one event per event class and reason (by type too, so a
    string's subclass gets an event of its own): events are immutable, and sessions end
    for the same few reasons."""
    return ended(reason=reason)


class PlayedDeal(Protocol):
    """What a session needs of its deal."""

    @property
    def over(self) -> bool:
        """True once the deal has ended."""
        ...

    def pending(self) -> tuple[Decision, ...]:
        """The decisions to be made now."""
        ...

    def act(self, seat: int, action: str, /) -> None:
        """Apply a legal action."""
        ...


class TableRules(Protocol):
    """What a session's table needs of its rules."""

    @property
    def credit(self) -> bool:
        """Stacks may go negative (no: table stakes)."""
        ...

    @property
    def odd_chips(self) -> OddChipRule:
        """Who gets the odd chips of a split."""
        ...


def open_table(
    rules: TableRules,
    players: Sequence[str | tuple[str, int]] | Table,
    *,
    buy_in: int = 0,
    button: int | None = None,
) -> Table:
    """The table a session plays on: a new one for ``players`` (names bought in for
    ``buy_in``, or ``(name, chips)`` pairs; ``button`` the first dealer, seat 0 if None),
    or ``players`` itself when it is a table (dealer's choice: its stacks, pot and button
    carry over, so its credit and odd-chips rule must be the rules' and ``button`` None)."""
    if not isinstance(players, Table):
        return Table(players, buy_in=buy_in, credit=rules.credit, odd_chips=rules.odd_chips,
                     button=button or 0)  # fmt: skip
    table = players
    if table.credit != rules.credit or table.odd_chips != rules.odd_chips:
        raise OptionError(
            f"credit/odd-chips: the table plays credit={'yes' if table.credit else 'no'}"
            f", odd-chips={table.odd_chips.value}; set the rules the same"
        )
    if button is not None:
        raise OptionError("button: a shared table keeps its own dealer button")
    return table


RulesT = TypeVar("RulesT", bound=RuleOptions)
DealT = TypeVar("DealT", bound=PlayedDeal)


@dataclass
class _Seen:
    """One audience's visible events so far: their numbers and dicts, up to ``upto``."""

    numbers: list[int] = field(default_factory=list)
    dicts: list[dict[str, Any]] = field(default_factory=list)
    upto: int = 0


@mypyc_attr(allow_interpreted_subclasses=True)  # every family but Guts, and tests'
class RecordedSession(Session, Generic[RulesT, DealT]):
    """A session on one table whose record is its events, and which replays from it.

    Subclasses build the table, then call ``super().__init__``; ``record_buy_ins`` says
    whether the transfers already on the table's ledger (the buy-ins) are recorded too.
    """

    rules_class: ClassVar[type[RuleOptions]]
    """The family's rules (read back from a record by ``from_options``)."""
    moved_event: ClassVar[type[MovedEvent]]
    """The event that mirrors a ledger transfer."""
    ended_event: ClassVar[type[EndedEvent]]
    """The event that ends the session."""
    reads_verbatim: ClassVar[bool] = True
    """True if the family reads every action of :attr:`Decision.verbatim` as that action
    itself (as :meth:`Decision.canonical` does), so :meth:`act` takes such an action as it
    is; a family whose ``_canonical`` reads actions otherwise sets it False."""

    def __init__(self, rules: RulesT, table: Table, *, record_buy_ins: bool) -> None:
        self.rules = rules
        self._table = table
        self._players = list(zip(table.names, table.stacks, strict=True))  # (name, stack)
        self._first_button = table.button
        self._events: list[Event] = []
        self._events_tuple: tuple[Event, ...] = ()
        self._json: list[dict[str, Any]] = []  # events[i].to_dict(), made once each
        self._seen: dict[int | None, _Seen] = {}  # each audience's visible events so far
        self._record = _Record(
            self._events, table, self.moved_event, 0 if record_buy_ins else table.ledger_size
        )
        self._deal: DealT | None = None
        self._deals = 0
        self._over = ""
        self._pending: tuple[Decision, ...] = ()
        self._pending_deal: DealT | None = None  # the deal _pending is of (None: none kept)
        self._pending_events = self._pending_size = -1  # and the record's and ledger's sizes
        if record_buy_ins:
            self._sync()  # (nothing to mirror otherwise: the record starts at the ledger's end)

    # -- the contract ---------------------------------------------------------------------

    @property
    def table(self) -> Table:
        """The chip table."""
        return self._table

    @property
    def events(self) -> tuple[Event, ...]:
        """The full record, hidden events included."""
        if len(self._events_tuple) != len(self._events):  # the record only grows
            self._events_tuple = tuple(self._events)
        return self._events_tuple

    @property
    def is_over(self) -> bool:
        """True once the session has ended."""
        return bool(self._over)

    @property
    def over_reason(self) -> str:
        """Why the session ended ('' while it goes on)."""
        return self._over

    @property
    def deal_over(self) -> bool:
        """True when no deal is in progress."""
        return self._deal is None or self._deal.over

    @property
    def deal(self) -> DealT | None:
        """The current (or last) deal."""
        return self._deal

    @property
    def players(self) -> tuple[tuple[str, int], ...]:
        """Each seat's name and stack when the session began."""
        return tuple(self._players)

    @property
    def deals_played(self) -> int:
        """How many deals have started."""
        return self._deals

    @property
    def can_stop(self) -> bool:
        """True if :meth:`stop` would end the session now (between deals)."""
        return not self.is_over and self.deal_over

    def stop(self, reason: str = "the players stopped the game") -> None:
        """End the session between deals, by the players' choice, leaving the chips where
        they are (a family that shares out what is left says so in its own ``stop``)."""
        if self.is_over:
            raise IllegalAction(f"the session is already over ({self._over})")
        if not self.deal_over:
            raise IllegalAction(f"finish deal {self._deals} before stopping the game")
        self._end(reason)

    def pending(self) -> tuple[Decision, ...]:
        """The decisions to be made now."""
        deal = self._deal
        if deal is None or self._over:
            return ()
        # Decisions are immutable, so the deal's are kept until anything changes: every
        # change is an action (_apply drops them), an event or a ledger transfer, and
        # the stamp notes the deal, the number of events and the ledger's length.
        events, size = len(self._events), self._table.ledger_size
        if (
            deal is not self._pending_deal
            or events != self._pending_events
            or size != self._pending_size
        ):
            self._pending_deal = None
            self._pending = deal.pending()
            self._pending_deal, self._pending_events, self._pending_size = deal, events, size
        return self._pending

    def _apply(self, seat: int, action: str) -> None:
        assert self._deal is not None
        self._pending_deal = None
        try:
            self._deal.act(seat, action)
            self._after_step()
        finally:
            self._pending_deal = None

    def act(self, seat: int, action: object) -> tuple[Event, ...]:
        """Apply ``seat``'s decision and return the events it caused (hidden ones
        included: filter with :meth:`Event.visible_to`), or raise IllegalAction and
        change nothing."""
        text = None
        if type(seat) is int and type(action) is str and self.reads_verbatim:
            for decision in self.pending():
                if decision.seat == seat:
                    if action in decision.verbatim:  # already spelled canonically
                        text = action
                    elif type(decision.options) is Discard and len(action) <= _LONGEST:
                        # a draw spelled as its actions spell it (every family reads a
                        # draw as Discard.canonical does; check_action takes its length)
                        text = decision.options.plain_canonical(action)
                    break
        if text is None:
            text = self.canonical(seat, action)
        events = self._events
        start = len(events)
        self._apply(seat, text)
        return tuple(events[start:])

    def _event_count(self) -> int:
        return len(self._events)

    def _events_since(self, start: int) -> tuple[Event, ...]:
        return tuple(self._events[start:])

    @abstractmethod
    def _after_step(self) -> None:
        """Record what a step of the deal did; between deals, decide what comes next."""

    def play_out(self, choose: Callable[[Decision], str], deals: int | None = None) -> None:
        """Play to the end, each decision answered by ``choose`` (a bot that sees the seat's
        view); with ``deals``, stop after that many deals (the players' choice)."""
        while not self.is_over:
            if not self.deal_over:
                decision = self.pending()[0]
                self.act(decision.seat, choose(decision))
            elif deals is not None and self._deals >= deals:
                self.stop()
            else:
                self.start_deal()

    def _check_can_deal(self) -> None:
        """Raise IllegalAction unless a new deal may start now."""
        if self.is_over:
            raise IllegalAction(f"the session is over ({self._over}): no more deals")
        if not self.deal_over:
            raise IllegalAction(f"deal {self._deals} is still in progress")

    def _dealing_order(self) -> tuple[int, ...]:
        """The seats with chips in turn order for the next deal, ending with its dealer: the
        button or, when the button's player has no chips (table stakes), the next player to
        the left who has; a player without chips neither plays nor deals."""
        table = self._table
        if table.credit:
            return table.turn_order()  # every seat plays, the button's seat last
        seats = self._seats_with_chips()
        if len(seats) >= 2 and table.button not in seats:
            return (*seats[1:], seats[0])
        return seats

    def _button_to_a_player(self, seats: tuple[int, ...] | None = None) -> None:
        """Give the button to the dealer of :meth:`_dealing_order` (``seats``, when the
        caller has it; nothing moves when fewer than two players have chips)."""
        table = self._table
        if table.credit:
            return  # every seat plays, and the turn order ends with the button's seat
        if seats is None:
            seats = self._dealing_order()
        while len(seats) >= 2 and table.button != seats[-1]:
            table.move_button()

    def _pass_button(self) -> None:
        """After a deal: the deal passes to the left, to the next player with chips."""
        self._table.move_button()
        self._button_to_a_player()

    def _seats_with_chips(self) -> tuple[int, ...]:
        """The seats in turn order that may play a deal (with chips, unless on credit)."""
        table = self._table
        order = table.turn_order()
        if table.credit:
            return order
        stacks = table.stacks
        return tuple([s for s in order if stacks[s] > 0])

    # -- the record ------------------------------------------------------------------------

    def _end(self, reason: str) -> None:
        self._over = reason
        ended: Callable[..., EndedEvent] = self.ended_event  # (a class: typed as its call)
        self._record.emit(_ended(ended, reason))  # (see _emit)

    @property
    def _emit(self) -> Callable[[Event], None]:
        """Record an event (after the transfers not yet mirrored): what deals are given.

        It is the record's method, not the session's, so that a session and its deal do
        not hold each other and a finished session is freed at once (a reference cycle
        waits for the garbage collector, with everything the session recorded). A module
        that mypyc compiles calls ``self._record.emit`` itself: compiled (mypyc 2.4),
        ``self._emit(event)`` reads the property and never calls what it hands out.
        """
        return self._record.emit

    def _sync(self) -> None:
        """Mirror the ledger's new transfers as ``Moved`` events."""
        record = self._record
        if self._table.ledger_size != record.synced:
            record.sync()

    # -- views -----------------------------------------------------------------------------

    def view(self, seat: int, *, events: bool = True) -> dict[str, Any]:
        """Everything ``seat`` may see: its own cards, the public state, visible events
        (last, under ``events``; left out with ``events=False``)."""
        count = len(self._table.names)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < count:
            raise IllegalAction(f"no seat {seat!r}: seats are 0 to {count - 1}")
        return self._with_events(seat) if events else self._view(seat)

    def public_view(self, *, events: bool = True) -> dict[str, Any]:
        """Everything a spectator may see (the events as :meth:`view` has them)."""
        return self._with_events(None) if events else self._view(None)

    def _with_events(self, seat: int | None) -> dict[str, Any]:
        data = self._view(seat)
        data["events"] = self._visible_json(seat, since=self._view_since)
        return data

    @property
    def _view_since(self) -> int:
        """The number of the first event a view lists (every family but Bourre: 0)."""
        return 0

    @abstractmethod
    def _view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may see, but the events."""

    def _table_view(self, seat: int | None, **state: Any) -> dict[str, Any]:
        """The head of a view: the game, the seats, stacks, button and pot, the family's
        ``state``, then who is to act and ``seat``'s own decision."""
        table, pending = self._table, self.pending()
        return {
            "game": self.game,
            "seat": seat,
            "players": list(table.names),
            "stacks": table.stacks,
            "button": table.button,
            "pot": table.pot,
            **state,
            "to_act": [d.seat for d in pending],
            "pending": [d.to_dict() for d in pending if d.seat == seat],
        }

    def _visible_json(self, seat: int | None, since: int = 0) -> list[dict[str, Any]]:
        """The JSON of the events from number ``since`` on that ``seat`` (None: a
        spectator) may see. Each event is serialized once and each audience's list grows
        as the record does, so a view costs a list copy, not a pass over the record; the
        dicts are shared between views and must be treated as read-only."""
        events, made = self._events, self._json
        for event in events[len(made) :]:
            made.append(event.to_dict())
        seen = self._seen.get(seat)
        if seen is None:
            seen = self._seen[seat] = _Seen()
        for number in range(seen.upto, len(events)):
            if events[number].visible_to(seat):
                seen.numbers.append(number)
                seen.dicts.append(made[number])
        seen.upto = len(events)
        start = bisect_left(seen.numbers, since) if since else 0
        return seen.dicts[start:]

    # -- records and replay -----------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        """A JSON-able record that :meth:`replay` turns back into this exact session."""
        return {
            "game": self.game,
            "rules": self.rules.to_options(),
            "players": [[name, stack] for name, stack in self._players],
            "button": self._first_button,
            "events": events_to_json(self._events),
        }

    @classmethod
    def replay(cls, record: Mapping[str, Any]) -> Self:
        """Rebuild a session from :meth:`record` (deck orders and actions replayed), and
        check that the replay makes exactly the recorded events. A malformed record, or
        one whose events the play does not make again, raises a GutsError (an EventError
        naming the field or the event, or the engine's own error)."""
        new: Callable[..., Self] = cls  # every family takes (rules, players, button=...)
        family = cls.rules_class.family
        if not isinstance(record, Mapping):
            raise EventError(f"a {family} record must be a JSON object, not {_json_type(record)}")
        missing = [key for key in ("rules", "players", "button", "events") if key not in record]
        if missing:
            raise EventError(f"bad {family} record: missing {', '.join(missing)}")
        try:
            rules = cls.rules_class.from_options(None, _record_rules(record["rules"], family))
        except OptionError as error:
            raise EventError(f"bad {family} record: rules: {error}") from None
        players = _record_players(record["players"], family)
        button = record["button"]
        if isinstance(button, bool) or not isinstance(button, int):
            raise EventError(f"bad {family} record: button must be a seat number, "
                             f"not {_json_type(button)}")  # fmt: skip
        events = events_from_json(record["events"])
        try:
            session = new(rules, players, button=button)
            session._prepare_replay(events)
        except GutsError as error:  # bad players, button or recorded deck orders
            raise EventError(f"bad {family} record: {error}") from None
        for number, event in enumerate(events, start=1):
            try:
                session._replay_event(event)
            except GutsError as error:
                raise EventError(f"event {number} ({event.kind}): {error}") from None
            except (LookupError, TypeError, AttributeError, ValueError) as error:
                # a safety net: the fields were checked, but a value may still not fit
                raise EventError(
                    f"event {number} ({event.kind}) does not replay: {error}"
                ) from None
        if session.events != tuple(events):
            raise EventError(f"the record does not replay to the same events: "
                             f"{_first_difference(session.events, events)}")  # fmt: skip
        return session

    def _prepare_replay(self, events: list[Event]) -> None:
        """Before replaying ``events`` (a family may note the deck orders to come)."""

    @abstractmethod
    def _replay_event(self, event: Event) -> None:
        """Re-apply the recorded ``event`` if it was a decision (a deal started, an
        action, a stop); the events that follow from it are made again by the play."""


def _json_type(value: object) -> str:
    """The JSON type of ``value`` in words, for error messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {value[:30]!r}"
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, list | tuple):
        return "a list"
    return type(value).__name__


def _record_rules(rules: object, family: str) -> dict[str, str]:
    """A record's ``rules``: a JSON object of option names and string values."""
    if not isinstance(rules, Mapping):
        raise EventError(f"bad {family} record: rules must be an object of options, "
                         f"not {_json_type(rules)}")  # fmt: skip
    for key, value in rules.items():
        if not isinstance(key, str) or not isinstance(value, str):
            raise EventError(f"bad {family} record: rule {key!r} must be a string, "
                             f"not {_json_type(value)}")  # fmt: skip
    return dict(rules)


def _record_players(players: object, family: str) -> list[tuple[str, int]]:
    """A record's ``players``: a list of ``[name, stack]`` pairs."""
    if not isinstance(players, list | tuple):
        raise EventError(f"bad {family} record: players must be a list of [name, stack] "
                         f"pairs, not {_json_type(players)}")  # fmt: skip
    seats = []
    for number, entry in enumerate(players):
        if (
            not isinstance(entry, list | tuple)
            or len(entry) != 2
            or not isinstance(entry[0], str)
            or isinstance(entry[1], bool)
            or not isinstance(entry[1], int)
        ):
            raise EventError(f"bad {family} record: player {number} must be a [name, stack] "
                             f"pair, not {_json_type(entry)}")  # fmt: skip
        seats.append((entry[0], entry[1]))
    return seats


def _first_difference(made: Sequence[Event], recorded: Sequence[Event]) -> str:
    """Where the events a replay made first part from the recorded ones, in words."""
    for number, (mine, theirs) in enumerate(zip(made, recorded, strict=False), start=1):
        if mine != theirs:
            if mine.kind != theirs.kind:
                return f"event {number} is {theirs.kind}, the replay makes {mine.kind}"
            return f"event {number} ({theirs.kind}) is not what the replay makes"
    return f"the record has {len(recorded)} events, the replay makes {len(made)}"
