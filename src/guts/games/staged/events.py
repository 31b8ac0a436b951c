"""The events of the staged games. Cards are written as ASCII codes (``As``, ``Td``).

The family-neutral events (a deal starts, the deck order, a chip transfer, an action, a
declaration, cards dealt or shown, the outcome, the end of a deal or of the session) are
the Guts family's, so every game's history reads the same. Audiences
(:class:`guts.games.base.Event`): the deck order is seen by no one, face-down cards only
by their holder, a private comparison's hands (:class:`CardsShown` with an audience)
only by the players who are in; the events below are public.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from guts.games.base import Event, register_event
from guts.games.declaration.events import (
    Acted,
    CardsDealt,
    CardsShown,
    Chose,
    DealEnded,
    DealStarted,
    Declared,
    Moved,
    Outcome,
    SessionEnded,
    Shuffled,
    Stopped,
)

__all__ = [
    "Acted",
    "CardsDealt",
    "CardsShown",
    "Chose",
    "DealEnded",
    "DealStarted",
    "Declared",
    "LastHand",
    "ModeChosen",
    "Moved",
    "Outcome",
    "PointScored",
    "SessionEnded",
    "Shuffled",
    "StageStarted",
    "StockCount",
    "Stopped",
    "TargetAnnounced",
]


@register_event
@dataclass(frozen=True, kw_only=True)
class ModeChosen(Event):
    """Dealer's choice: how this deal is declared (in-turn or simultaneous)."""

    kind: ClassVar[str] = "staged-mode"
    dealer: int
    mode: str


@register_event
@dataclass(frozen=True, kw_only=True)
class StageStarted(Event):
    """A stage begins: its number, the cards each player gets now, how hands rank."""

    kind: ClassVar[str] = "staged-stage"
    stage: int
    count: int
    size: int
    low: bool
    wild: tuple[int, ...]
    private: bool
    label: str


@register_event
@dataclass(frozen=True, kw_only=True)
class PointScored(Event):
    """``seat`` scores a leg, nut or point (Toh: ``card``, kept face up); ``points`` is its
    new total and ``target`` what takes the pot."""

    kind: ClassVar[str] = "staged-point"
    seat: int
    points: int
    target: int
    word: str
    card: str = ""


@register_event
@dataclass(frozen=True, kw_only=True)
class LastHand(Event):
    """Toh: the stock cannot deal another hand after this one: a reshuffle comes next."""

    kind: ClassVar[str] = "staged-last-hand"
    deal: int
    stock: int


@register_event
@dataclass(frozen=True, kw_only=True)
class StockCount(Event):
    """Toh, after a hand: the cards left in the stock and on the discard pile."""

    kind: ClassVar[str] = "staged-stock"
    stock: int
    discards: int


@register_event
@dataclass(frozen=True, kw_only=True)
class TargetAnnounced(Event):
    """Announced before the first deal: how many points (legs, nuts, cards) take the pot."""

    kind: ClassVar[str] = "staged-target"
    target: int
    word: str
