"""The events that every family with a declaration round shares: deals starting and ending,
the shuffle, cards dealt and shown, actions, choices and declarations, outcomes, chips
moving, and the session's end. Cards are written as ASCII codes (``As``, ``Td``).

``audience`` (see :class:`guts.games.base.Event`) hides what must stay hidden: the deck
order is seen by no one, face-down cards only by their holder, a simultaneous choice only
by the chooser until all have chosen.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from guts.games.base import Event, register_event
from guts.games.session import EndedEvent, MovedEvent

__all__ = [
    "Acted",
    "CardsDealt",
    "CardsShown",
    "Chose",
    "DealEnded",
    "DealStarted",
    "Declared",
    "Moved",
    "Outcome",
    "SessionEnded",
    "Shuffled",
    "Stopped",
    "acted",
    "cards_dealt",
    "cards_shown",
    "deal_ended",
    "deal_started",
    "declared",
    "shuffled",
]


@register_event
@dataclass(frozen=True, kw_only=True)
class DealStarted(Event):
    """A deal begins: its number, the dealer, the seats dealt in."""

    kind: ClassVar[str] = "deal-started"
    deal: int
    dealer: int
    seats: tuple[int, ...]


@register_event
@dataclass(frozen=True, kw_only=True)
class Shuffled(Event):
    """The stock's order for this deal (seen by no one; what replays use)."""

    kind: ClassVar[str] = "shuffled"
    deck: tuple[str, ...]


@register_event
@dataclass(frozen=True, kw_only=True)
class Moved(MovedEvent):
    """One ledger transfer (see :class:`guts.table.Transfer`), in its dict form."""

    kind: ClassVar[str] = "moved"


@register_event
@dataclass(frozen=True, kw_only=True)
class CardsDealt(Event):
    """Cards dealt to ``seat``; face-down ones are seen only by the holder."""

    kind: ClassVar[str] = "cards-dealt"
    seat: int
    cards: tuple[str, ...]
    face_up: bool = False


@register_event
@dataclass(frozen=True, kw_only=True)
class Acted(Event):
    """A seat's action as it was taken (private to the seat while the choice is secret)."""

    kind: ClassVar[str] = "acted"
    seat: int
    action: str


@register_event
@dataclass(frozen=True, kw_only=True)
class Chose(Event):
    """``seat`` has made its simultaneous choice (what it chose is not said yet)."""

    kind: ClassVar[str] = "chose"
    seat: int


@register_event
@dataclass(frozen=True, kw_only=True)
class Declared(Event):
    """``seat`` is in, out, high, low or both; ``automatic`` when the rules decided."""

    kind: ClassVar[str] = "declared"
    seat: int
    choice: str
    round: int = 1
    automatic: bool = False


@register_event
@dataclass(frozen=True, kw_only=True)
class CardsShown(Event):
    """A hand shown face up (a negative seat: a hand that is no player's, such as Guts's ghost)."""

    kind: ClassVar[str] = "cards-shown"
    seat: int
    cards: tuple[str, ...]
    description: str


@register_event
@dataclass(frozen=True, kw_only=True)
class Outcome(Event):
    """What the deal came to, in words, with the winners and the players who pay."""

    kind: ClassVar[str] = "outcome"
    text: str
    winners: tuple[int, ...] = ()
    payers: tuple[int, ...] = ()


@register_event
@dataclass(frozen=True, kw_only=True)
class DealEnded(Event):
    """A deal is over: what is left in the pot, the reserve and set aside."""

    kind: ClassVar[str] = "deal-ended"
    deal: int
    pot: int
    reserve: int
    aside: int


@register_event
@dataclass(frozen=True, kw_only=True)
class SessionEnded(EndedEvent):
    """The session is over, and why."""

    kind: ClassVar[str] = "session-ended"


@register_event
@dataclass(frozen=True, kw_only=True)
class Stopped(Event):
    """The players stopped the session between deals; what was left is shared out."""

    kind: ClassVar[str] = "stopped"
    reason: str

# -- shared events ---------------------------------------------------------------------------
#
# Events are immutable values, and a deal makes the same few again and again (seat 1 is in,
# deal 2 starts with dealer 1, ...): these make each distinct one once and hand it out again
# (about 4,400 instructions an event made, 600 one found). The caches tell values apart by
# type too, and only tuples of plain ints are kept, so that a value of a subclass (a bool
# for an int) is never answered with an event made for another type.

_SHARED = 1 << 13
"""How many of each kind of event are kept (the least recently used go first)."""
_INT = frozenset({int})


def _plain(seats: tuple[int, ...] | None) -> bool:
    """True for None or a tuple of plain ints."""
    return seats is None or (type(seats) is tuple and {*map(type, seats)} <= _INT)


def acted(seat: int, action: str, audience: tuple[int, ...] | None = None) -> Acted:
    """``Acted(seat=seat, action=action, audience=audience)``, shared."""
    if audience is None or _plain(audience):
        return _acted(seat, action, audience)
    return Acted(seat=seat, action=action, audience=audience)


@lru_cache(maxsize=_SHARED, typed=True)
def _acted(seat: int, action: str, audience: tuple[int, ...] | None) -> Acted:
    return Acted(seat=seat, action=action, audience=audience)


@lru_cache(maxsize=_SHARED, typed=True)
def declared(seat: int, choice: str, round: int = 1, automatic: bool = False) -> Declared:
    """``Declared(seat=seat, choice=choice, round=round, automatic=automatic)``, shared."""
    return Declared(seat=seat, choice=choice, round=round, automatic=automatic)


def deal_started(deal: int, dealer: int, seats: tuple[int, ...]) -> DealStarted:
    """``DealStarted(deal=deal, dealer=dealer, seats=seats)``, shared."""
    if _plain(seats):
        return _deal_started(deal, dealer, seats)
    return DealStarted(deal=deal, dealer=dealer, seats=seats)


@lru_cache(maxsize=_SHARED, typed=True)
def _deal_started(deal: int, dealer: int, seats: tuple[int, ...]) -> DealStarted:
    return DealStarted(deal=deal, dealer=dealer, seats=seats)


@lru_cache(maxsize=_SHARED, typed=True)
def deal_ended(deal: int, pot: int, reserve: int, aside: int) -> DealEnded:
    """``DealEnded(deal=deal, pot=pot, reserve=reserve, aside=aside)``, shared."""
    return DealEnded(deal=deal, pot=pot, reserve=reserve, aside=aside)


# A hand's cards repeat too rarely for its events to be kept.


def cards_dealt(seat: int, cards: tuple[str, ...], audience: tuple[int, ...] | None) -> CardsDealt:
    """Face-down ``cards`` dealt to ``seat``, seen by ``audience``."""
    return CardsDealt(seat=seat, cards=cards, audience=audience)


def shuffled(deck: tuple[str, ...]) -> Shuffled:
    """The stock's order, seen by no one."""
    return Shuffled(deck=deck, audience=())


def cards_shown(seat: int, cards: tuple[str, ...], description: str) -> CardsShown:
    """``seat`` shows ``cards``, in words ``description``."""
    return CardsShown(seat=seat, cards=cards, description=description)
