"""The events of a Guts session: those it shares with the other families that declare
(:mod:`guts.games.declaration.events`, re-exported here) and its own (the ghost's hand,
community cards, wild ranks, passed cards, a No Peek look).

``audience`` (see :class:`guts.games.base.Event`) hides what must stay hidden: face-down
cards only by their holder (by no one under No Peek until they look), a passed card by
the two seats it passes between.
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
    acted,
    cards_dealt,
    cards_shown,
    deal_ended,
    deal_started,
    declared,
    shuffled,
)

__all__ = [
    "DECK",
    "GHOST",
    "Acted",
    "CardsDealt",
    "CardsShown",
    "Chose",
    "CommunityDealt",
    "DealEnded",
    "DealStarted",
    "Declared",
    "GhostDealt",
    "Looked",
    "Moved",
    "Outcome",
    "Passed",
    "SessionEnded",
    "Shuffled",
    "Stopped",
    "WildRanks",
    "acted",
    "cards_dealt",
    "cards_shown",
    "deal_ended",
    "deal_started",
    "declared",
    "shuffled",
]

GHOST = -1
"""The seat number the ghost (kitty, dummy) hand is shown under."""
DECK = -2
"""The seat number the deck's cards (ghost=deck) are shown under."""


@register_event
@dataclass(frozen=True, kw_only=True)
class GhostDealt(Event):
    """The ghost's hand is dealt face down: only how many cards is public."""

    kind: ClassVar[str] = "ghost-dealt"
    count: int


@register_event
@dataclass(frozen=True, kw_only=True)
class CommunityDealt(Event):
    """Community cards turned face up."""

    kind: ClassVar[str] = "community-dealt"
    cards: tuple[str, ...]


@register_event
@dataclass(frozen=True, kw_only=True)
class WildRanks(Event):
    """Ranks made wild for this deal (one or two low in and wild), and who is forced in."""

    kind: ClassVar[str] = "wild-ranks"
    ranks: tuple[int, ...]
    forced_in: tuple[int, ...]


@register_event
@dataclass(frozen=True, kw_only=True)
class Passed(Event):
    """``seat`` passed ``card`` to ``to`` (seen by the two of them)."""

    kind: ClassVar[str] = "passed"
    seat: int
    to: int
    card: str


@register_event
@dataclass(frozen=True, kw_only=True)
class Looked(Event):
    """No Peek: ``seat`` looks at its cards after declaring."""

    kind: ClassVar[str] = "looked"
    seat: int
    cards: tuple[str, ...]
