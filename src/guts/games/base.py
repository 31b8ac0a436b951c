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

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar, TypeVar

from guts.errors import GutsError, IllegalAction
from guts.table import Table

__all__ = [
    "Decision",
    "Event",
    "EventError",
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
        for item in fields(self):
            data[item.name] = _to_json(getattr(self, item.name))
        return data

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Event:
        """The event :meth:`to_dict` wrote; malformed data raises EventError."""
        try:
            cls = _EVENTS[str(data["kind"])]
            names = {item.name for item in fields(cls)}
            values = {k: _from_json(v) for k, v in data.items() if k != "kind"}
            unknown = set(values) - names
            if unknown:
                raise EventError(f"unknown fields {sorted(unknown)} for {cls.kind}")
            return cls(**values)
        except EventError:
            raise
        except (KeyError, TypeError, ValueError) as error:
            raise EventError(f"bad event {dict(data)!r}: {error}") from None


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
    """The events :func:`events_to_json` wrote."""
    return [Event.from_dict(item) for item in data]


def visible_to(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events ``seat`` (None: a spectator) may see, in order."""
    return [event for event in events if event.visible_to(seat)]


@dataclass(frozen=True)
class Decision:
    """A decision a seat must make now: the actions it may take and what they mean.

    ``simultaneous`` is True when several seats choose at once and no one sees a choice
    before all have chosen.
    """

    seat: int
    actions: tuple[str, ...]
    prompt: str = ""
    simultaneous: bool = False

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict."""
        return {
            "seat": self.seat,
            "actions": list(self.actions),
            "prompt": self.prompt,
            "simultaneous": self.simultaneous,
        }


class Session(ABC):
    """A game session: deals, one after another, on one :class:`~guts.table.Table`.

    Drive it with: ``while not s.is_over: if s.deal_over: s.start_deal(); else: pick a
    seat and action from s.pending() and call s.act(seat, action)``. The families build
    on :class:`guts.games.session.RecordedSession`, which keeps the record and replays it.
    """

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
    def view(self, seat: int) -> dict[str, Any]:
        """Everything ``seat`` may see, as a JSON-able dict."""

    @abstractmethod
    def public_view(self) -> dict[str, Any]:
        """Everything a spectator may see, as a JSON-able dict."""

    def record(self) -> dict[str, Any]:
        """A JSON-able record (rules, players, button, events) that ``replay`` rebuilds."""
        raise NotImplementedError(f"{type(self).__name__} cannot record itself")

    def stop(self, reason: str = "the players stopped") -> None:
        """End the session between deals (families share out or keep what is left)."""
        raise NotImplementedError(f"{type(self).__name__} cannot be stopped early")

    def legal_actions(self, seat: int) -> tuple[str, ...]:
        """What ``seat`` may do now (empty if it has nothing to decide)."""
        for decision in self.pending():
            if decision.seat == seat:
                return decision.actions
        return ()

    def can_act(self, seat: int, action: str) -> bool:
        """True if :meth:`act` would accept ``action`` from ``seat`` now."""
        return action in self.legal_actions(seat)

    def act(self, seat: int, action: str) -> None:
        """Apply ``seat``'s decision, or raise IllegalAction and change nothing."""
        if not self.can_act(seat, action):
            raise IllegalAction(self._illegal_message(seat, action))
        self._apply(seat, action)

    def visible_events(self, seat: int | None) -> list[Event]:
        """The events ``seat`` (None: a spectator) may see."""
        return visible_to(self.events, seat)

    def _illegal_message(self, seat: int, action: str) -> str:
        names = self.table.names
        real = isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names)
        who = f"{names[seat]} (seat {seat})" if real else f"seat {seat!r}"
        legal = self.legal_actions(seat) if real else ()
        if legal:
            return f"{who} cannot {action!r} now: legal actions are {', '.join(legal)}"
        waiting = ", ".join(names[d.seat] for d in self.pending())
        if self.is_over:
            return f"{who} cannot {action!r}: the session is over ({self.over_reason})"
        if not waiting:
            return f"{who} cannot {action!r}: no deal in progress; start the next deal"
        return f"{who} cannot {action!r}: it is not their turn (waiting for {waiting})"


def names_of(seats: Sequence[int], table: Table) -> str:
    """Seat names joined with commas and 'and'."""
    names = [table.names[s] for s in seats]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
