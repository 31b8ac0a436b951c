"""The events of a Fan Tan session. Cards are written as ASCII codes (``7h``, ``Td``).

The family-neutral events (a deal starts, the deck order, a chip transfer, an action, a
hand dealt or shown, the outcome, the end of a deal or of the session) are the shared
ones, so every game's history reads the same; the events below are Fan Tan's own, all
public: a card played, a pass (never whether the passer could have played: that is found
only when the card comes out), a false pass found, and the deal's result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from guts.games.base import Event, register_event
from guts.games.declaration.events import (
    Acted,
    CardsDealt,
    CardsShown,
    DealEnded,
    DealStarted,
    Moved,
    Outcome,
    SessionEnded,
    Shuffled,
)

__all__ = [
    "Acted",
    "CardPlaced",
    "CardsDealt",
    "CardsShown",
    "DealEnded",
    "DealStarted",
    "FalsePassFound",
    "FanTanResult",
    "Moved",
    "Outcome",
    "Passed",
    "SessionEnded",
    "Shuffled",
]


@register_event
@dataclass(frozen=True, kw_only=True)
class CardPlaced(Event):
    """``seat`` plays ``card`` to its row; ``left``: the cards it still holds."""

    kind: ClassVar[str] = "fantan-played"
    seat: int
    card: str
    left: int


@register_event
@dataclass(frozen=True, kw_only=True)
class Passed(Event):
    """``seat`` passes and puts ``paid`` chips in the pot."""

    kind: ClassVar[str] = "fantan-passed"
    seat: int
    paid: int


@register_event
@dataclass(frozen=True, kw_only=True)
class FalsePassFound(Event):
    """``card`` came out, so ``seat`` could have played it on ``passes`` of its passes:
    ``fine`` chips (for them all) paid to each of ``paid_to`` (seats), or to the pot when
    ``paid_to`` is empty."""

    kind: ClassVar[str] = "fantan-false-pass"
    seat: int
    card: str
    fine: int
    paid_to: tuple[int, ...] = ()
    passes: int = 1


@register_event
@dataclass(frozen=True, kw_only=True)
class FanTanResult(Event):
    """``winner`` went out; ``cards``: (seat, cards left) for each other player."""

    kind: ClassVar[str] = "fantan-result"
    winner: int
    cards: tuple[tuple[int, int], ...]
