"""The events of a Bourré session. Cards are written as ASCII codes (``As``, ``Td``).

The family-neutral events (a deal starts, the deck order, a chip transfer, an action, a
hand dealt, the outcome, the end of a deal or of the session) are the Guts family's, so
every game's history reads the same; the events below are Bourré's own. Audiences
(:class:`guts.games.base.Event`): the deck order, the draw seed, folded hands and discards
are seen by no one; a hand and the cards a player draws only by that player; the trump
card, every intent, draw count, card played, renege, trick and result by everyone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from guts.games.base import Event, register_event
from guts.games.declaration.events import (
    Acted,
    CardsDealt,
    DealEnded,
    DealStarted,
    Moved,
    Outcome,
    SessionEnded,
    Shuffled,
)

__all__ = [
    "Acted",
    "CardPlayed",
    "CardsDealt",
    "CardsDrawn",
    "DealEnded",
    "DealStarted",
    "Discarded",
    "Drew",
    "Folded",
    "HandResult",
    "Intent",
    "Moved",
    "Outcome",
    "PileShuffled",
    "Reneged",
    "SessionEnded",
    "Shuffled",
    "StockSeed",
    "TrickWon",
    "TrumpTurned",
]


@register_event
@dataclass(frozen=True, kw_only=True)
class StockSeed(Event):
    """The seed of the random source that shuffles the folded hands and discards if the
    stock runs out (seen by no one; what replays use)."""

    kind: ClassVar[str] = "stock-seed"
    seed: int


@register_event
@dataclass(frozen=True, kw_only=True)
class TrumpTurned(Event):
    """The face-up card that sets trumps; ``seat`` is the dealer holding it, or None when
    it was turned from the stock and set aside."""

    kind: ClassVar[str] = "trump-turned"
    card: str
    suit: str
    seat: int | None = None


@register_event
@dataclass(frozen=True, kw_only=True)
class Intent(Event):
    """``seat`` says it plays or folds; ``forced`` when the rules left it no choice."""

    kind: ClassVar[str] = "intent"
    seat: int
    choice: str
    forced: bool = False


@register_event
@dataclass(frozen=True, kw_only=True)
class Folded(Event):
    """A folded hand, collected face down onto the folded pile (seen by no one)."""

    kind: ClassVar[str] = "folded"
    seat: int
    cards: tuple[str, ...]


@register_event
@dataclass(frozen=True, kw_only=True)
class Discarded(Event):
    """A player's discards, face down on the discard pile (seen by no one)."""

    kind: ClassVar[str] = "discarded"
    seat: int
    cards: tuple[str, ...]


@register_event
@dataclass(frozen=True, kw_only=True)
class PileShuffled(Event):
    """The stock ran out: the dealer shuffles ``pile`` (folded or discards) to deal from."""

    kind: ClassVar[str] = "pile-shuffled"
    pile: str
    cards: int


@register_event
@dataclass(frozen=True, kw_only=True)
class Drew(Event):
    """``seat`` exchanged ``count`` cards, dealt from ``piles`` (one entry per card)."""

    kind: ClassVar[str] = "drew"
    seat: int
    count: int
    piles: tuple[str, ...] = ()


@register_event
@dataclass(frozen=True, kw_only=True)
class CardsDrawn(Event):
    """The cards ``seat`` received in the draw (seen by that seat only)."""

    kind: ClassVar[str] = "cards-drawn"
    seat: int
    cards: tuple[str, ...]


@register_event
@dataclass(frozen=True, kw_only=True)
class CardPlayed(Event):
    """``seat`` plays ``card`` to trick number ``trick`` (1 to 5)."""

    kind: ClassVar[str] = "card-played"
    seat: int
    card: str
    trick: int


@register_event
@dataclass(frozen=True, kw_only=True)
class Reneged(Event):
    """``seat`` put down ``card`` against the play rules (``reason``: the rule broken);
    ``retracted`` when it was taken back (retract mode) rather than left standing
    (policed mode)."""

    kind: ClassVar[str] = "reneged"
    seat: int
    card: str
    reason: str
    retracted: bool = False


@register_event
@dataclass(frozen=True, kw_only=True)
class TrickWon(Event):
    """``seat`` took trick number ``trick`` with ``card``."""

    kind: ClassVar[str] = "trick-won"
    trick: int
    seat: int
    card: str


@register_event
@dataclass(frozen=True, kw_only=True)
class HandResult(Event):
    """The hand's result: (seat, tricks) for each player who played, the winner (None on
    a split pot or when nobody played), who bourréd, who reneged, what a bourré cost."""

    kind: ClassVar[str] = "hand-result"
    tricks: tuple[tuple[int, int], ...]
    winner: int | None
    bourre: tuple[int, ...] = ()
    reneged: tuple[int, ...] = ()
    cost: int = 0
