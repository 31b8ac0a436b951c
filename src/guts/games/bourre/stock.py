"""The draw of Bourré: the stock, its reserves, the discard limits, and the trump card.

Each player who plays discards 0-5 cards (at most 3 with seven players) and receives as
many. The dealer deals from the main stock; when it runs out, the folded hands are
shuffled and dealt from, then the discards. A :class:`Stock` holds the three piles and
records which pile each card came from, for the event log.

>>> from random import Random
>>> from guts.cards import parse_cards
>>> stock = Stock(parse_cards("2c 3c"), folded=parse_cards("4d"))
>>> stock.discard(parse_cards("5h 6h"))
>>> [str(d) for d in stock.deal(4, Random(1))]
['2♣ from main', '3♣ from main', '4♦ from folded', '6♥ from discards']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from enum import StrEnum
from random import Random

from guts.cards import Card, Suit, check_distinct
from guts.errors import HandError, IllegalAction, OptionError

__all__ = [
    "Draw",
    "DrawRules",
    "Pile",
    "Stock",
    "TrumpCard",
    "dealer_trump",
    "turn_trump",
]

HAND = 5


class Pile(StrEnum):
    """Where a drawn card came from, in the order the dealer uses them."""

    MAIN = "main"
    FOLDED = "folded"
    DISCARDS = "discards"


@dataclass(frozen=True)
class Draw:
    """One card dealt in the draw, and the pile it came from."""

    card: Card
    pile: Pile

    def __str__(self) -> str:
        return f"{self.card} from {self.pile}"


class Stock:
    """The cards left to draw: the main stock (top first), the folded hands, the discards.

    The folded hands and the discards wait unshuffled; a pile is shuffled (with the injected
    ``rng``) when the dealer first needs it, and cards added to it after that are shuffled
    in the next time it is needed. ``draws`` and ``shuffles`` record what happened.
    """

    def __init__(
        self, main: Iterable[Card], folded: Iterable[Card] = (), discards: Iterable[Card] = ()
    ) -> None:
        self._main = list(main)
        self._waiting: dict[Pile, list[Card]] = {
            Pile.FOLDED: list(folded),
            Pile.DISCARDS: list(discards),
        }
        self._ready: dict[Pile, list[Card]] = {Pile.FOLDED: [], Pile.DISCARDS: []}
        self._draws: list[Draw] = []
        self._shuffles: list[Pile] = []
        self.turned: Card | None = None
        check_distinct(self._main + self._waiting[Pile.FOLDED] + self._waiting[Pile.DISCARDS])

    def fold(self, cards: Iterable[Card]) -> None:
        """Collect a folded hand onto the folded pile."""
        self._add(Pile.FOLDED, cards)

    def discard(self, cards: Iterable[Card]) -> None:
        """Put a player's discards on the discard pile."""
        self._add(Pile.DISCARDS, cards)

    def _add(self, pile: Pile, cards: Iterable[Card]) -> None:
        new = list(cards)
        check_distinct(new + self._every())
        self._waiting[pile].extend(new)

    def _every(self) -> list[Card]:
        piles = (self._main, *self._waiting.values(), *self._ready.values())
        turned = [self.turned] if self.turned is not None else []
        return [card for pile in piles for card in pile] + turned

    def __len__(self) -> int:
        """How many cards can still be drawn, from all three piles."""
        return len(self._every()) - (self.turned is not None)

    def count(self, pile: Pile) -> int:
        """How many cards are left in ``pile``."""
        if pile is Pile.MAIN:
            return len(self._main)
        return len(self._waiting[pile]) + len(self._ready[pile])

    @property
    def main(self) -> tuple[Card, ...]:
        """The main stock, top first."""
        return tuple(self._main)

    @property
    def draws(self) -> tuple[Draw, ...]:
        """Every card drawn so far, in order, with its pile."""
        return tuple(self._draws)

    @property
    def shuffles(self) -> tuple[Pile, ...]:
        """The piles shuffled so far, in order (a pile may be shuffled more than once)."""
        return tuple(self._shuffles)

    def deal(self, count: int, rng: Random) -> tuple[Draw, ...]:
        """Deal ``count`` cards (main stock, then folded hands, then discards)."""
        if not 0 <= count <= len(self):
            raise HandError(f"cannot draw {count} cards: {len(self)} are left to draw")
        dealt = tuple(self._next(rng) for _ in range(count))
        self._draws.extend(dealt)
        return dealt

    def draw(self, count: int, rng: Random) -> tuple[Card, ...]:
        """The cards of :meth:`deal` (their piles are in :attr:`draws`)."""
        return tuple(draw.card for draw in self.deal(count, rng))

    def _next(self, rng: Random) -> Draw:
        if self._main:
            return Draw(self._main.pop(0), Pile.MAIN)
        for pile in (Pile.FOLDED, Pile.DISCARDS):
            if not self._ready[pile] and self._waiting[pile]:
                self._ready[pile] = self._waiting[pile]
                self._waiting[pile] = []
                rng.shuffle(self._ready[pile])
                self._shuffles.append(pile)
            if self._ready[pile]:
                return Draw(self._ready[pile].pop(0), pile)
        raise HandError("no cards are left to draw")  # unreachable: deal counts first

    def turn_up(self) -> Card:
        """Turn the top card of the main stock face up for trumps and set it aside."""
        if self.turned is not None:
            raise HandError(f"a card is already turned up ({self.turned})")
        if not self._main:
            raise HandError("the main stock is empty: no card to turn up")
        self.turned = self._main.pop(0)
        return self.turned


class TrumpCard(StrEnum):
    """Which card sets trumps."""

    DEALER = "dealer"
    """The dealer's own fifth card, the last dealt, turned face up; the dealer keeps it."""
    STOCK = "stock"
    """The next card of the stock, turned face up and set aside out of play."""


def dealer_trump(dealer_hand: Sequence[Card]) -> Card:
    """The dealer's fifth card (the last dealt to them), which sets trumps."""
    if len(dealer_hand) != HAND:
        raise HandError(f"the dealer holds {len(dealer_hand)} cards, not {HAND}")
    return dealer_hand[-1]


def turn_trump(source: TrumpCard, dealer_hand: Sequence[Card], stock: Stock) -> Card:
    """The face-up trump card for ``source``: the dealer's fifth or the stock's next card.

    >>> from guts.cards import parse_cards
    >>> hand = parse_cards("2c 3c 4c 5c 9h")
    >>> str(turn_trump(TrumpCard.DEALER, hand, Stock(parse_cards("Ks"))))
    '9♥'
    >>> str(turn_trump(TrumpCard.STOCK, hand, Stock(parse_cards("Ks"))))
    'K♠'
    """
    card = dealer_trump(dealer_hand) if source is TrumpCard.DEALER else stock.turn_up()
    if not isinstance(card.suit, Suit):
        raise HandError("Bourré is played without jokers")
    return card


@dataclass(frozen=True)
class DrawRules:
    """How many cards a player may discard, by the number of players dealt in.

    ``max_discard`` (5) with two to six players; ``seven_player_discard`` (3, the text:
    "with seven players, only three cards may be discarded"); ``eight_players`` (no): allow
    an eighth player, who leaves only 12 cards in the stock, with ``eight_player_discard``
    (2, our choice: the text plays at most seven).
    """

    max_discard: int = 5
    seven_player_discard: int = 3
    eight_players: bool = False
    eight_player_discard: int = 2

    def __post_init__(self) -> None:
        for item in fields(self):
            value = getattr(self, item.name)
            key = item.name.replace("_", "-")
            if item.name == "eight_players":
                if not isinstance(value, bool):
                    raise OptionError(f"{key}: expected yes or no, not {value!r}")
            elif not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 5:
                raise OptionError(f"{key}: expected a number of cards from 0 to 5, not {value!r}")

    @property
    def most_players(self) -> int:
        """The most players a deal allows (7, or 8 with ``eight_players``)."""
        return 8 if self.eight_players else 7

    def discard_cap(self, players: int) -> int:
        """The most cards each player may discard when ``players`` are dealt in."""
        if not 2 <= players <= self.most_players:
            raise OptionError(f"Bourré is for 2 to {self.most_players} players, not {players}")
        if players == 8:
            return self.eight_player_discard
        if players == 7:
            return self.seven_player_discard
        return self.max_discard

    def check_discard(self, count: int, players: int) -> None:
        """Raise IllegalAction unless a player may discard ``count`` cards."""
        cap = self.discard_cap(players)
        if not 0 <= count <= cap:
            with_players = f" with {players} players" if cap < HAND else ""
            raise IllegalAction(
                f"you cannot discard {count} cards: you may discard 0 to {cap}{with_players}"
            )
