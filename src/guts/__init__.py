"""guts: the engine, simulator and table for Guts and the match-the-pot family.

Importing :mod:`guts` is cheap: numpy and the lookup tables load only when a batch
evaluation or a census first needs them.
"""

from guts.cards import Card, Deck, DeckKind, Rank, Suit, parse_card, parse_cards
from guts.errors import CardError, GutsError, HandError, IllegalAction, OptionError

__all__ = [
    "Card",
    "CardError",
    "Deck",
    "DeckKind",
    "GutsError",
    "HandError",
    "IllegalAction",
    "OptionError",
    "Rank",
    "Suit",
    "parse_card",
    "parse_cards",
]

__version__ = "0.1.0"
