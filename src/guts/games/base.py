"""The engine contract every game family follows: events, decisions, sessions.

A :class:`Session` is a state machine spanning deals. :meth:`Session.pending` lists the
:class:`Decision` each seat must make now (several at once for simultaneous choices);
:meth:`Session.act` applies one decision or raises :class:`~guts.errors.IllegalAction`
and changes nothing. Everything that happens is an :class:`Event` in
:attr:`Session.events`, the append-only record. Each event says who may see it
(``audience``: ``None`` for everyone, otherwise the seats that may, so ``()`` is nobody:
the deck order, an undisclosed simultaneous choice of another seat ...). A seat's
:meth:`Session.view` and the spectator's :meth:`Session.public_view` only ever draw on
what their audience allows.

Events are frozen dataclasses of JSON values (ints, strings, booleans, ``None`` and
tuples of those), registered by ``kind``, so a log serializes and reads back exactly:

>>> @register_event
... @dataclass(frozen=True)
... class Hello(Event):
...     kind: ClassVar[str] = "hello"
...     seat: int
>>> event = Hello(seat=2, audience=(2,))
>>> event.to_dict()
{'kind': 'hello', 'audience': [2], 'seat': 2}
>>> Event.from_dict(event.to_dict()) == event
True
"""

from __future__ import annotations

import json
from abc import abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import MISSING, dataclass, fields
from functools import cache
from types import NoneType, UnionType
from typing import (
    Any,
    ClassVar,
    Literal,
    Self,
    TypeVar,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

from guts.errors import GutsError, IllegalAction
from guts.games.decision import Decision
from guts.table import Place, Table, Transfer

__all__ = [
    "Decision",
    "EndedEvent",
    "Event",
    "EventError",
    "MovedEvent",
    "Session",
    "event_kinds",
    "events_from_json",
    "events_to_json",
    "names_of",
    "register_event",
    "visible_to",
]

_EVENTS: dict[str, type[Event]] = {}
E = TypeVar("E", bound="type[Event]")


class EventError(GutsError):
    """A serialized event that is malformed or of an unknown kind."""


@dataclass(frozen=True, kw_only=True)
class Event:
    """One thing that happened. ``audience``: None (public) or the seats that may see it."""

    kind: ClassVar[str] = "event"
    audience: tuple[int, ...] | None = None

    def visible_to(self, seat: int | None) -> bool:
        """True if ``seat`` (None: a spectator) may see this event."""
        return self.audience is None or (seat is not None and seat in self.audience)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict: ``kind``, ``audience`` and the fields (tuples as lists)."""
        data: dict[str, Any] = {"kind": self.kind}
        values = self.__dict__
        for name in type(self)._field_names():
            value = values[name] if name in values else getattr(self, name)
            data[name] = _to_json(value) if isinstance(value, tuple | list) else value
        return data

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Event:
        """The event :meth:`to_dict` wrote; malformed data (not an object, an unknown kind,
        a missing or unknown field, a value of the wrong type) raises EventError."""
        if not isinstance(data, Mapping):
            raise EventError(f"an event must be a JSON object, not {_shown(data)}")
        kind = data.get("kind")
        if not isinstance(kind, str):
            raise EventError(f"an event needs a 'kind' string, not {_shown(kind)}")
        cls = _EVENTS.get(kind)
        if cls is None:
            raise EventError(f"unknown event kind {kind!r}")
        hints = cls._field_hints()
        values = {k: _from_json(v) for k, v in data.items() if k != "kind"}
        unknown = sorted(str(k) for k in set(values) - set(hints))
        if unknown:
            raise EventError(f"{kind} event: unknown fields {unknown}")
        missing = [name for name in cls._required_fields() if name not in values]
        if missing:
            raise EventError(f"{kind} event: missing fields {missing}")
        for name, value in values.items():
            if not _matches(value, hints[name]):
                raise EventError(
                    f"{kind} event: {name!r} must be {_expected(hints[name])}, not {_shown(value)}"
                )
        try:
            return cls(**values)
        except (TypeError, ValueError) as error:  # a family's own check of its fields
            raise EventError(f"{kind} event: {error}") from None

    # What an event class's fields are, asked once per class (``dataclasses.fields`` and
    # ``get_type_hints`` are slow to ask for every event written or read).

    @classmethod
    @cache
    def _field_names(cls) -> tuple[str, ...]:
        """The field names, in order."""
        return tuple(item.name for item in fields(cls))

    @classmethod
    @cache
    def _field_hints(cls) -> dict[str, Any]:
        """Each field and its resolved type."""
        resolved = get_type_hints(cls)
        return {item.name: resolved[item.name] for item in fields(cls)}

    @classmethod
    @cache
    def _required_fields(cls) -> tuple[str, ...]:
        """The fields without a default."""
        return tuple(
            item.name
            for item in fields(cls)
            if item.default is MISSING and item.default_factory is MISSING
        )


@dataclass(frozen=True, kw_only=True)
class MovedEvent(Event):
    """One ledger transfer (see :class:`guts.table.Transfer`), in its dict form.

    Each family registers a subclass under its own kind (``moved``, ``draw-moved``).
    """

    source: int | str
    destination: int | str
    amount: int
    reason: str
    note: str = ""
    shortfall: int = 0

    @classmethod
    def from_transfer(cls, transfer: Transfer) -> Self:
        """The event that records ``transfer`` (places by name, seats by number)."""
        source, destination = transfer.source, transfer.destination
        return cls(
            source=source.name if isinstance(source, Place) else source,
            destination=destination.name if isinstance(destination, Place) else destination,
            amount=transfer.amount,
            reason=transfer.reason._value_,
            note=transfer.note,
            shortfall=transfer.shortfall,
        )


@dataclass(frozen=True, kw_only=True)
class EndedEvent(Event):
    """The session is over, and why (each family registers a subclass under its kind)."""

    reason: str


def _matches(value: object, hint: Any) -> bool:
    """True if the JSON value ``value`` (lists read as tuples) has type ``hint``; a bool is
    not an int here, and an annotation this check does not know accepts anything."""
    origin = get_origin(hint)
    if origin is Union or origin is UnionType:
        return any(_matches(value, arg) for arg in get_args(hint))
    if origin is Literal:
        return any(type(value) is type(arg) and value == arg for arg in get_args(hint))
    if origin is tuple:
        args = get_args(hint)
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_matches(item, args[0]) for item in value)
        return len(value) == len(args) and all(map(_matches, value, args))
    if hint is None or hint is NoneType:
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if isinstance(hint, type) and origin is None:
        return isinstance(value, hint)
    return True


def _expected(hint: Any, plural: bool = False) -> str:
    """Type ``hint`` in words, in JSON terms (``a list of integers, or null``)."""
    origin = get_origin(hint)
    if origin is Union or origin is UnionType:
        return " or ".join(_expected(arg, plural) for arg in get_args(hint))
    if origin is Literal:
        return "one of " + ", ".join(repr(arg) for arg in get_args(hint))
    if origin is tuple:
        args = get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            inner = _expected(args[0], plural=True)
            return f"lists of {inner}" if plural else f"a list of {inner}"
        inner = ", ".join(_JSON_WORDS.get(arg) or _expected(arg) for arg in args)
        return f"[{inner}] lists" if plural else f"a [{inner}] list"
    if hint is None or hint is NoneType:
        return "null"
    if hint is bool:
        return "true/false values" if plural else "true or false"
    word = _JSON_WORDS.get(hint) or str(getattr(hint, "__name__", hint))
    if plural:
        return word + "s"
    return ("an " if word[0] in "aeiou" else "a ") + word


_JSON_WORDS: dict[Any, str] = {int: "integer", str: "string", float: "number"}


def _shown(value: object) -> str:
    """A JSON value as an error message shows it (its JSON text, cut short)."""
    try:
        text = json.dumps(_to_json(value))
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def register_event(cls: E) -> E:
    """Class decorator: make ``cls`` readable by :meth:`Event.from_dict` under its kind."""
    if cls.kind in _EVENTS and _EVENTS[cls.kind] is not cls:
        raise EventError(f"event kind {cls.kind!r} is already registered")
    _EVENTS[cls.kind] = cls
    return cls


def event_kinds() -> tuple[str, ...]:
    """Every registered event kind."""
    return tuple(_EVENTS)


def _to_json(value: object) -> Any:
    if isinstance(value, tuple | list):
        return [_to_json(v) for v in value]
    return value


def _from_json(value: object) -> Any:
    if isinstance(value, list):
        return tuple(_from_json(v) for v in value)
    return value


def events_to_json(events: Iterable[Event]) -> list[dict[str, Any]]:
    """A list of JSON-able dicts, one per event."""
    return [event.to_dict() for event in events]


def events_from_json(data: Iterable[Mapping[str, Any]]) -> list[Event]:
    """The events :func:`events_to_json` wrote (a JSON list of event objects); a malformed
    one raises EventError naming its place in the list (``event 3: ...``, 1 first)."""
    if isinstance(data, str | bytes | Mapping) or not isinstance(data, Iterable):
        raise EventError(f"the events must be a JSON list of objects, not {_shown(data)}")
    events = []
    for number, item in enumerate(data, start=1):
        try:
            events.append(Event.from_dict(item))
        except EventError as error:
            raise EventError(f"event {number}: {error}") from None
    return events


def visible_to(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events ``seat`` (None: a spectator) may see, in order."""
    return [event for event in events if event.visible_to(seat)]


class Session:
    """A game session: deals, one after another, on one :class:`~guts.table.Table`.

    Drive it with: ``while not s.is_over: if s.deal_over: s.start_deal(); else: pick a
    seat and action from s.pending() and call s.act(seat, action)``. The families build
    on :class:`guts.games.session.RecordedSession`, which keeps the record and replays it.
    """

    # Not an ABC (mypy still refuses a class that leaves an abstract method): the classes
    # mypyc compiles from it have no ABC state of their own but share this one, so one
    # failed isinstance against a compiled family's session class (a staged session is no
    # GutsSession) would make every later isinstance of that session's class against
    # RecordedSession or Session False too.

    game: ClassVar[str] = "game"

    @property
    @abstractmethod
    def table(self) -> Table:
        """The chip table: seats, stacks, button, pot, reserve, ledger."""

    @property
    @abstractmethod
    def events(self) -> tuple[Event, ...]:
        """Every event so far, hidden ones included (the full record; not for players)."""

    @property
    @abstractmethod
    def is_over(self) -> bool:
        """True once the session has ended (see :attr:`over_reason`)."""

    @property
    @abstractmethod
    def over_reason(self) -> str:
        """Why the session ended, in words ('' while it goes on)."""

    @property
    @abstractmethod
    def deal_over(self) -> bool:
        """True when no deal is in progress (before the first, between deals, at the end)."""

    @abstractmethod
    def start_deal(self) -> None:
        """Start the next deal (antes, shuffle, deal); raises IllegalAction if not now."""

    @abstractmethod
    def pending(self) -> tuple[Decision, ...]:
        """The decisions to be made now, one per seat that must act."""

    @abstractmethod
    def _apply(self, seat: int, action: str) -> None:
        """Apply a legal action (already checked against :meth:`pending`)."""

    @abstractmethod
    def view(self, seat: int, *, events: bool = True) -> dict[str, Any]:
        """Everything ``seat`` may see, as a JSON-able dict (without the list of the
        events it has seen when ``events`` is False: a client that has them)."""

    @abstractmethod
    def public_view(self, *, events: bool = True) -> dict[str, Any]:
        """Everything a spectator may see, as a JSON-able dict (``events`` as in
        :meth:`view`)."""

    def views(self, seats: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
        """The view of each of ``seats`` without its events (None: a spectator's), all at
        once: equal to :meth:`view` (or :meth:`public_view`) with ``events=False`` for
        each. A family may make what the views show alike once: the dicts and lists
        inside them may then be shared between the views, so treat them as read-only."""
        return {
            seat: self.public_view(events=False) if seat is None else self.view(seat, events=False)
            for seat in seats
        }

    def record(self) -> dict[str, Any]:
        """A JSON-able record (rules, players, button, events) that ``replay`` rebuilds."""
        raise NotImplementedError(f"{type(self).__name__} cannot record itself")

    def stop(self, reason: str = "the players stopped") -> None:
        """End the session between deals (families share out or keep what is left)."""
        raise NotImplementedError(f"{type(self).__name__} cannot be stopped early")

    def decision(self, seat: int) -> Decision | None:
        """``seat``'s decision now (None if it has nothing to decide); a seat that is not
        a seat of the table (a bool, a string, out of range) raises IllegalAction."""
        self._check_seat(seat)
        for decision in self.pending():
            if decision.seat == seat:
                return decision
        return None

    def legal_actions(self, seat: int) -> tuple[str, ...]:
        """Representative actions of ``seat`` now (empty if it has nothing to decide);
        :meth:`decision` describes exactly what is legal."""
        decision = self.decision(seat)
        return () if decision is None else decision.actions

    def canonical(self, seat: int, action: object) -> str:
        """The canonical spelling of ``action`` if ``seat`` may take it now (any legal bet
        size, cards in any order and spelling); IllegalAction naming what is legal if not."""
        decision = self.decision(seat)
        if decision is None:
            raise IllegalAction(self._illegal_message(seat, action))
        try:
            return self._canonical(decision, action)
        except IllegalAction as error:
            why = str(error)
            if not why.startswith("cannot "):
                why = f"cannot {action!r:.60}: {why}"
            raise IllegalAction(f"{self._who(seat)} {why}") from None

    def _canonical(self, decision: Decision, action: object) -> str:
        """How a family reads an action for ``decision`` (the options' own reading)."""
        return decision.canonical(action)

    def can_act(self, seat: object, action: object) -> bool:
        """True if :meth:`act` would accept ``action`` from ``seat`` now."""
        try:
            self.canonical(seat, action)  # type: ignore[arg-type]
        except IllegalAction:
            return False
        return True

    def act(self, seat: int, action: object) -> tuple[Event, ...]:
        """Apply ``seat``'s decision and return the events it caused (hidden ones
        included: filter with :meth:`Event.visible_to`), or raise IllegalAction and
        change nothing."""
        text = self.canonical(seat, action)
        start = self._event_count()
        self._apply(seat, text)
        return self._events_since(start)

    def _event_count(self) -> int:
        return len(self.events)

    def _events_since(self, start: int) -> tuple[Event, ...]:
        return self.events[start:]

    def visible_events(self, seat: int | None) -> list[Event]:
        """The events ``seat`` (None: a spectator) may see."""
        return visible_to(self.events, seat)

    def _check_seat(self, seat: object) -> None:
        count = len(self.table.names)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < count:
            raise IllegalAction(f"no seat {seat!r:.40}: seats are the numbers 0 to {count - 1}")

    def _who(self, seat: int) -> str:
        return f"{self.table.names[seat]} (seat {seat})"

    def _illegal_message(self, seat: int, action: object) -> str:
        who, names = self._who(seat), self.table.names
        if self.is_over:
            return f"{who} cannot {action!r:.60}: the session is over ({self.over_reason})"
        waiting = ", ".join(names[d.seat] for d in self.pending())
        if not waiting:
            return f"{who} cannot {action!r:.60}: no deal in progress; start the next deal"
        return f"{who} cannot {action!r:.60}: it is not their turn (waiting for {waiting})"


def names_of(seats: Sequence[int], table: Table) -> str:
    """Seat names joined with commas and 'and'."""
    names = [table.names[s] for s in seats]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
