"""The events of a draw poker session. Cards are written as ASCII codes (``As``, ``Td``).

``audience`` (see :class:`guts.games.base.Event`) hides what must stay hidden: deck orders
are seen by no one; a player's cards, discards and draws only by that player. How many
cards a player draws is public (:class:`Drew`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from guts.games.base import Event, register_event
from guts.games.session import EndedEvent, MovedEvent

__all__ = [
    "Acted",
    "BettingStarted",
    "DealEnded",
    "DealStarted",
    "Dealt",
    "Declared",
    "Drew",
    "Moved",
    "Offered",
    "OpenersShown",
    "Reshuffled",
    "SessionEnded",
    "Showed",
    "Shuffled",
    "SplitOpeners",
    "Stopped",
    "WidowTurned",
    "acted",
    "betting_started",
    "deal_started",
    "dealt",
    "discarded",
    "drew",
    "showed",
]


@register_event
@dataclass(frozen=True, kw_only=True)
class DealStarted(Event):
    """A deal begins: its number, the dealer, the seats dealt in, the opening requirement."""

    kind: ClassVar[str] = "draw-deal-started"
    deal: int
    dealer: int
    seats: tuple[int, ...]
    openers: str = "any"
    antes: bool = True


@register_event
@dataclass(frozen=True, kw_only=True)
class Shuffled(Event):
    """A stock's order, top card first (seen by no one; what replays use)."""

    kind: ClassVar[str] = "draw-shuffled"
    deck: tuple[str, ...]


@register_event
@dataclass(frozen=True, kw_only=True)
class Reshuffled(Event):
    """The stock ran out: ``count`` discards were shuffled into a new stock."""

    kind: ClassVar[str] = "draw-reshuffled"
    count: int


@register_event
@dataclass(frozen=True, kw_only=True)
class Moved(MovedEvent):
    """One ledger transfer (see :class:`guts.table.Transfer`), in its dict form."""

    kind: ClassVar[str] = "draw-moved"


@register_event
@dataclass(frozen=True, kw_only=True)
class Dealt(Event):
    """Cards dealt face down to ``seat`` (seen by the holder only)."""

    kind: ClassVar[str] = "draw-dealt"
    seat: int
    cards: tuple[str, ...]


@register_event
@dataclass(frozen=True, kw_only=True)
class WidowTurned(Event):
    """Wild Widow: the card turned up; the other cards of its rank are wild."""

    kind: ClassVar[str] = "draw-widow"
    card: str


@register_event
@dataclass(frozen=True, kw_only=True)
class BettingStarted(Event):
    """A betting round begins: its number in the deal, the game (high or low), first seat."""

    kind: ClassVar[str] = "draw-betting"
    round: int
    game: str
    first: int


@register_event
@dataclass(frozen=True, kw_only=True)
class Acted(Event):
    """A seat's action as taken; a discard is seen by the seat only (see :class:`Drew`)."""

    kind: ClassVar[str] = "draw-acted"
    seat: int
    action: str


@register_event
@dataclass(frozen=True, kw_only=True)
class Drew(Event):
    """Public: ``seat`` discarded and drew ``count`` cards (``shown``: an ace shown to draw
    four, or a Bosnian face-up card)."""

    kind: ClassVar[str] = "draw-drew"
    seat: int
    count: int
    shown: tuple[str, ...] = ()


@register_event
@dataclass(frozen=True, kw_only=True)
class Offered(Event):
    """Bosnian exchange: after three cards down, one up (public) and one down (unseen)."""

    kind: ClassVar[str] = "draw-offered"
    seat: int
    up: str


@register_event
@dataclass(frozen=True, kw_only=True)
class SplitOpeners(Event):
    """The opener discarded part of the openers; ``count`` discards are kept apart."""

    kind: ClassVar[str] = "draw-split-openers"
    seat: int
    count: int


@register_event
@dataclass(frozen=True, kw_only=True)
class OpenersShown(Event):
    """The opener proves the openers (``proved`` False: the hand is dead)."""

    kind: ClassVar[str] = "draw-openers-shown"
    seat: int
    cards: tuple[str, ...]
    kept_apart: tuple[str, ...]
    proved: bool


@register_event
@dataclass(frozen=True, kw_only=True)
class Declared(Event):
    """A declaration at the showdown (cards do not speak)."""

    kind: ClassVar[str] = "draw-declared"
    seat: int
    category: str


@register_event
@dataclass(frozen=True, kw_only=True)
class Showed(Event):
    """A hand shown at the showdown (or to prove trips when the pot is won uncontested)."""

    kind: ClassVar[str] = "draw-showed"
    seat: int
    cards: tuple[str, ...]
    description: str
    live: bool = True


@register_event
@dataclass(frozen=True, kw_only=True)
class DealEnded(Event):
    """The deal is over: how (``won``, ``thrown-in``, ``pot-stays``), what each seat won."""

    kind: ClassVar[str] = "draw-deal-ended"
    result: str
    won: tuple[tuple[int, int], ...]
    reason: str


@register_event
@dataclass(frozen=True, kw_only=True)
class Stopped(Event):
    """The players stopped the session between deals; the pot is shared out."""

    kind: ClassVar[str] = "draw-stopped"
    reason: str


@register_event
@dataclass(frozen=True, kw_only=True)
class SessionEnded(EndedEvent):
    """The session is over, and why."""

    kind: ClassVar[str] = "draw-session-ended"


# -- shared events ---------------------------------------------------------------------------
#
# Events are immutable values, and a deal makes the same few again and again (seat 2 calls,
# the second round starts with seat 4, seat 1 draws three cards): these make each distinct
# one once and hand it out again (making an event costs several times finding it). The
# caches tell values apart by type too, and only seats that are plain ints are kept, so
# that a value of a subclass (a bool for an int) is never answered with an event made for
# another type.

_SHARED = 1 << 12
"""How many of each kind of event are kept (the least recently used go first)."""


@lru_cache(maxsize=_SHARED, typed=True)
def acted(seat: int, action: str) -> Acted:
    """``Acted(seat=seat, action=action)`` (a public action), shared."""
    return Acted(seat=seat, action=action)


@lru_cache(maxsize=_SHARED, typed=True)
def betting_started(round: int, game: str, first: int) -> BettingStarted:
    """``BettingStarted(round=round, game=game, first=first)``, shared."""
    return BettingStarted(round=round, game=game, first=first)


def deal_started(
    deal: int, dealer: int, seats: tuple[int, ...], openers: str, antes: bool
) -> DealStarted:
    """``DealStarted(deal=deal, dealer=dealer, seats=seats, openers=openers, antes=antes)``,
    shared."""
    if {*map(type, seats)} == _INT:
        return _deal_started(deal, dealer, seats, openers, antes)
    return DealStarted(deal=deal, dealer=dealer, seats=seats, openers=openers, antes=antes)


@lru_cache(maxsize=_SHARED, typed=True)
def _deal_started(
    deal: int, dealer: int, seats: tuple[int, ...], openers: str, antes: bool
) -> DealStarted:
    return DealStarted(deal=deal, dealer=dealer, seats=seats, openers=openers, antes=antes)


_INT = frozenset({int})


@lru_cache(maxsize=_SHARED, typed=True)
def drew(seat: int, count: int) -> Drew:
    """``Drew(seat=seat, count=count)`` (no cards shown), shared."""
    return Drew(seat=seat, count=count)


# A hand's cards repeat too rarely for its events to be kept.


def dealt(seat: int, cards: tuple[str, ...]) -> Dealt:
    """Cards dealt face down to ``seat``, seen by that seat alone."""
    return Dealt(seat=seat, cards=cards, audience=(seat,))


def discarded(seat: int, action: str) -> Acted:
    """A draw, seen by the drawer alone."""
    return Acted(seat=seat, action=action, audience=(seat,))


def showed(seat: int, cards: tuple[str, ...], description: str, live: bool) -> Showed:
    """``seat`` shows ``cards``, in words ``description`` (``live``: still in the pot)."""
    return Showed(seat=seat, cards=cards, description=description, live=live)
