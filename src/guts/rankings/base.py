"""What every hand ranking shares: categories, evaluations, and the :class:`Ranking` API.

A ranking is an immutable object that puts every hand of its games in a total order:
``strength(cards)`` is an int, bigger is better (also for low games), and two hands tie
exactly when their strengths are equal. ``evaluate(cards)`` says why: the category, the
cards that play, what each wild card stands for, and the hand in plain words.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from enum import Enum
from typing import TYPE_CHECKING, Any, ClassVar, Self

from guts.cards import Card, DeckKind, check_distinct
from guts.errors import HandError

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from guts.rankings.wilds import Wilds

__all__ = ["Category", "Evaluation", "Ranking", "pack"]


class Category(Enum):
    """A kind of hand. Which categories a ranking has, and their order, is the ranking's."""

    ROYAL_CRUMPLER = "royal-crumpler"
    FIVE_OF_A_KIND = "five-of-a-kind"
    STRAIGHT_FLUSH = "straight-flush"
    FOUR_OF_A_KIND = "four-of-a-kind"
    FULL_HOUSE = "full-house"
    FLUSH = "flush"
    STRAIGHT = "straight"
    THREE_OF_A_KIND = "three-of-a-kind"
    TWO_PAIR = "two-pair"
    PAIR = "pair"
    HIGH_CARD = "high-card"

    @property
    def label(self) -> str:
        """The category in words, capitalised: ``"Full house"``."""
        return self.value.replace("-", " ").capitalize()

    @classmethod
    def parse(cls, text: str) -> Category:
        """A category from its key (``full-house``), also accepting ``trips`` and spaces."""
        key = text.strip().lower().replace(" ", "-").replace("_", "-")
        key = {"trips": "three-of-a-kind", "quads": "four-of-a-kind", "nothing": "high-card",
               "crumpler": "royal-crumpler"}.get(key, key)  # fmt: skip
        try:
            return cls(key)
        except ValueError:
            allowed = ", ".join(c.value for c in cls)
            raise HandError(f"{text!r} is not a hand category: expected one of {allowed}") from None


def pack(level: int, ranks: Sequence[int] = ()) -> int:
    """A strength from a category level and up to five tie-break ranks (each 0-15).

    The level sits above bit 20 and the ranks fill the nibbles below it, most significant
    first, so comparing packed ints compares level, then ranks in order.

    >>> pack(1, [14, 13]) > pack(1, [14, 12, 11])
    True
    """
    value = level
    for index in range(5):
        value = (value << 4) | (ranks[index] if index < len(ranks) else 0)
    return value


@dataclass(frozen=True, slots=True)
class Evaluation:
    """Why a hand has its strength.

    ``cards`` are the cards that play (the best five of a best-of-n ranking, all of them
    otherwise), most significant first; ``stands_for`` maps each wild card or joker that
    plays to the natural card it represents.
    """

    strength: int
    category: Category
    cards: tuple[Card, ...]
    description: str
    stands_for: tuple[tuple[Card, Card], ...] = ()


class Ranking:
    """A total order on hands. Subclasses are frozen dataclasses of their options.

    ``min_cards`` and ``max_cards`` bound the hand sizes it ranks; ``deck`` is the pack its
    cards come from. Strengths are comparable between any two hands of one ranking object.
    ``name``, ``min_cards`` and ``max_cards`` are properties, not class variables: mypyc
    makes every assignment in a dataclass's body a field, so a class variable set there
    would be a field that its ``__init__`` cannot set.
    """

    # Not an ABC (mypy still refuses a subclass that leaves an abstract method): the
    # classes mypyc compiles from an ABC share its isinstance caches, so asking whether a
    # ranking is a LowRanking (False) would make it no Ranking for the rest of the run.

    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def name(self) -> str:
        """The ranking's name, as :func:`guts.rankings.make_ranking` takes it."""
        raise NotImplementedError

    @property
    def min_cards(self) -> int:
        """The fewest cards of a hand this ranking ranks."""
        return 1

    @property
    def max_cards(self) -> int:
        """The most cards of a hand this ranking ranks."""
        return 7

    @classmethod
    def from_options(
        cls, options: Mapping[str, str], *, wilds: Wilds, jokers: int = 0
    ) -> Self:
        """Build from CLI strings (``{"straights": "yes"}``); bad keys raise OptionError."""
        raise NotImplementedError(f"{cls.__name__} does not take options")

    @property
    def deck(self) -> DeckKind:
        """The pack this ranking's hands are drawn from."""
        return DeckKind.STANDARD

    @abstractmethod
    def evaluate(self, cards: Sequence[Card]) -> Evaluation:
        """The strength, category, playing cards and description of ``cards``."""
        raise NotImplementedError

    @abstractmethod
    def categories(self) -> tuple[Category, ...]:
        """The categories this ranking has, best first."""
        raise NotImplementedError

    def strength(self, cards: Sequence[Card]) -> int:
        """The hand's strength: bigger is better, equal means a tie."""
        return self.evaluate(cards).strength

    def category(self, cards: Sequence[Card]) -> Category:
        """The hand's category."""
        return self.evaluate(cards).category

    def describe(self, cards: Sequence[Card]) -> str:
        """The hand in plain words: ``"Full house, kings over fives"``."""
        return self.evaluate(cards).description

    def check(self, cards: Sequence[Card]) -> tuple[Card, ...]:
        """Validate a hand for this ranking: size, duplicates, cards of the right pack."""
        hand = tuple(cards)
        if not self.min_cards <= len(hand) <= self.max_cards:
            allowed = (
                str(self.min_cards)
                if self.min_cards == self.max_cards
                else f"{self.min_cards} to {self.max_cards}"
            )
            raise HandError(
                f"a {self.name} hand has {allowed} cards, not {len(hand)}"
            )
        check_distinct(hand)
        self.deck.check(hand)
        return hand

    def strength_batch(self, codes: NDArray[np.integer]) -> NDArray[np.int64]:
        """Strengths of many hands at once: ``codes`` is an (N, k) array of card codes.

        Element by element equal to :meth:`strength`. This generic version loops in
        Python; rankings override it with table lookups. Hands are not validated.
        """
        import numpy as np

        table = [Card(code) for code in range(54)]
        rows = np.asarray(codes)
        return np.fromiter(
            (self.strength([table[c] for c in row]) for row in rows.tolist()),
            dtype=np.int64,
            count=len(rows),
        )

    def category_batch(self, codes: NDArray[np.integer]) -> NDArray[np.int64]:
        """Category of many hands, as indices into :meth:`categories` (best first)."""
        import numpy as np

        order = {category: index for index, category in enumerate(self.categories())}
        table = [Card(code) for code in range(54)]
        rows = np.asarray(codes)
        return np.fromiter(
            (order[self.category([table[c] for c in row])] for row in rows.tolist()),
            dtype=np.int64,
            count=len(rows),
        )

    def options(self) -> dict[str, str]:
        """The ranking's options and their values, as shown to players."""
        return {}

    def __reduce__(self) -> tuple[type[Self], tuple[object, ...]]:
        # rebuilt by the constructor from its options (rankings travel to simulation
        # workers by pickle): what the options imply, tables included, is made again
        return (type(self), tuple(getattr(self, item.name) for item in fields(self) if item.init))
