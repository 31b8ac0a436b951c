"""One-card hands (Toh): high card wins, and suits break ties, clubs lowest.

"High card wins; card value increases by suit, club-diamond-heart-spade."

>>> from guts.cards import parse_cards
>>> toh = SingleCardRanking()
>>> toh.describe(parse_cards("As"))
'Ace of spades'
>>> toh.strength(parse_cards("7s")) > toh.strength(parse_cards("7h"))
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, NoReturn, Self

from guts.cards import Card
from guts.errors import HandError, OptionError
from guts.rankings.base import Category, Evaluation, Ranking, pack
from guts.rankings.wilds import Wilds

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = ["SingleCardRanking"]

_NO_WILDS = Wilds()
_STRENGTHS = tuple(pack(0, ((code >> 2) + 2, code & 3)) for code in range(52))
"""Strength by card code: the rank, then the suit (clubs 0 < diamonds < hearts < spades)."""


@cache
def _strength_table() -> NDArray[np.int64]:
    """:data:`_STRENGTHS` as a numpy array over every code 0-255; -1 where no card is."""
    import numpy as np

    table = np.full(256, -1, np.int64)
    table[:52] = _STRENGTHS
    return table


def _reject(ranking: Ranking, row: list[int]) -> NoReturn:
    """Raise the error a player understands for a batch row that is not a hand."""
    if all(0 <= code < 54 for code in row):
        ranking.check([Card(code) for code in row])
    raise HandError(f"{row} is not a {ranking.name} hand of card codes 0-53")


@dataclass(frozen=True)
class SingleCardRanking(Ranking):
    """A single card: rank (ace high), then suit clubs < diamonds < hearts < spades.

    Every card is its own class, so no two different cards tie. There are no options,
    wild cards or jokers.
    """

    @property
    def name(self) -> str:
        """``single``."""
        return "single"

    @property
    def max_cards(self) -> int:
        """One: a hand is one card."""
        return 1

    @classmethod
    def from_options(
        cls, options: Mapping[str, str], *, wilds: Wilds = _NO_WILDS, jokers: int = 0
    ) -> Self:
        """The one single-card ranking; any option, wild card or joker is an error."""
        for key in options:
            raise OptionError(f"unknown option {key!r} for the single ranking: it has no options")
        if wilds:
            raise OptionError("the single ranking (Toh) has no wild cards")
        if jokers:
            raise OptionError("the single ranking (Toh) uses the 52-card pack: no jokers")
        return cls()

    def categories(self) -> tuple[Category, ...]:
        """Only high card."""
        return (Category.HIGH_CARD,)

    def strength(self, cards: Sequence[Card]) -> int:
        """The card's rank, then its suit."""
        if len(cards) == 1 and cards[0].code < 52:
            return _STRENGTHS[cards[0].code]
        return _STRENGTHS[self.check(cards)[0].code]

    def strength_batch(self, codes: NDArray[np.integer]) -> NDArray[np.int64]:
        """Strengths of an (N, 1) array of card codes: one table lookup per hand.

        >>> import numpy as np
        >>> SingleCardRanking().strength_batch(np.array([[51], [0]])).tolist()
        [929792, 131072]
        """
        import numpy as np

        rows = np.asarray(codes)
        if rows.size == 0 and rows.ndim < 2:
            return np.zeros(0, np.int64)
        if rows.ndim != 2 or rows.shape[1] != 1:
            raise HandError(
                f"a single hand has 1 card: expected an (N, 1) array of card codes, "
                f"not shape {rows.shape}"
            )
        column = rows[:, 0]
        if column.dtype != np.uint8 and len(column) and not 0 <= column.min() <= column.max() < 52:
            column = np.where((column >= 0) & (column < 52), column, 255)
        result: NDArray[np.int64] = _strength_table().take(column, mode="clip")
        if len(result) and result.min() < 0:
            _reject(self, rows[int(np.argmax(result < 0))].tolist())
        return result

    def category_batch(self, codes: NDArray[np.integer]) -> NDArray[np.int64]:
        """Every hand is a high card: index 0 of :meth:`categories`."""
        import numpy as np

        return np.zeros(len(self.strength_batch(codes)), np.int64)

    def evaluate(self, cards: Sequence[Card]) -> Evaluation:
        """The card, described in words: ``"Ace of spades"``."""
        card = self.check(cards)[0]
        description = card.name[0].upper() + card.name[1:]
        return Evaluation(_STRENGTHS[card.code], Category.HIGH_CARD, (card,), description)
