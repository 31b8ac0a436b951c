"""High poker hands: the best five cards of n, with wild cards and jokers.

The categories, best first: five of a kind (only with wild cards or jokers), straight
flush, four of a kind, full house, flush, straight, three of a kind, two pair, pair, high
card. Hands of fewer than five cards play all their cards and can make only the "of a
kind" categories.

Wild cards follow the rule text: a wild card stands for any card the holder needs, but it
may not duplicate a card already in the hand except to make five of a kind, so in a flush
it stands for the highest card of the suit that is missing. A joker plays as a **bug**
(an ace, or any card that completes a straight, flush or straight flush) or as a fully wild
card.

>>> from guts.cards import parse_cards
>>> bug = HighRanking(jokers=1)
>>> bug.describe(parse_cards("9s 9h 7d 7c jk"))
'Two pair, nines and sevens, ace kicker'
>>> bug.strength(parse_cards("As Ks Js 4s 2s")) > bug.strength(parse_cards("Ah Th 9h 8h jk"))
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

from guts.cards import Card, DeckKind, Rank, Suit
from guts.errors import OptionError
from guts.rankings.base import Category, Evaluation, Ranking
from guts.rankings.high_plans import (
    HIGH_LEVELS,
    LEVEL_OF,
    Plan,
    best_plan,
    nonflush_plan,
    suit_plan,
)
from guts.rankings.wilds import JokerMode, Wilds

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

# guts.rankings.tables and guts.rankings.batch_high (numpy with them) sit below this module
# and never import it; they are imported where first needed only so that importing the
# ranking stays fast and loads no tables (tests/test_batch_high.py checks this).

# The plan search lives in guts.rankings.high_plans, below the tables that are built from
# it; Plan, best_plan, nonflush_plan and suit_plan are still importable from here.
__all__ = [
    "HIGH_LEVELS",
    "HighRanking",
    "Plan",
    "best_plan",
    "describe_plan",
    "nonflush_plan",
    "parse_yes_no",
    "suit_plan",
]


def parse_yes_no(key: str, value: str) -> bool:
    """``yes``/``no`` (also true/false, on/off, 1/0) for option ``key``."""
    text = value.strip().lower()
    if text in ("yes", "y", "true", "on", "1"):
        return True
    if text in ("no", "n", "false", "off", "0"):
        return False
    raise OptionError(f"option {key} must be yes or no, not {value!r}")


@dataclass(frozen=True)
class HighRanking(Ranking):
    """High poker hands, best five of up to seven cards.

    ``wilds`` names the wild natural cards and how jokers play; ``jokers`` (0, 1 or 2)
    adds jokers to the pack; ``ace_low`` lets A-2-3-4-5 count as a straight.
    """

    wilds: Wilds = field(default_factory=Wilds)
    jokers: int = 0
    ace_low: bool = True

    def __post_init__(self) -> None:
        if self.jokers not in (0, 1, 2):
            raise OptionError(f"jokers must be 0, 1 or 2, not {self.jokers}")

    @property
    def name(self) -> str:
        """``high``."""
        return "high"

    @property
    def natural(self) -> bool:
        """True without wild cards or jokers: hands then take the table-driven path of
        :meth:`strength`."""
        return not self.jokers and not self.wilds

    @classmethod
    def from_options(
        cls, options: Mapping[str, str], *, wilds: Wilds | None = None, jokers: int = 0
    ) -> HighRanking:
        """Build from CLI options: ``ace-low=yes|no``."""
        ace_low = True
        for key, value in options.items():
            if key in ("ace-low", "ace_low"):
                ace_low = parse_yes_no(key, value)
            else:
                raise OptionError(f"unknown option {key!r} for the high ranking: allowed: ace-low")
        return cls(wilds=wilds if wilds is not None else Wilds(), jokers=jokers, ace_low=ace_low)

    @property
    def deck(self) -> DeckKind:
        """The 52-card pack, or 53/54 with the jokers."""
        return (DeckKind.STANDARD, DeckKind.ONE_JOKER, DeckKind.TWO_JOKERS)[self.jokers]

    def categories(self) -> tuple[Category, ...]:
        """Best first; five of a kind only when wild cards or jokers make it possible."""
        best_first = tuple(reversed(HIGH_LEVELS))
        if self.wilds or self.jokers:
            return best_first
        return best_first[1:]

    def options(self) -> dict[str, str]:
        """``ace-low``, the wild cards, and the jokers."""
        shown = {"ace-low": "yes" if self.ace_low else "no"}
        if self.wilds:
            shown["wild"] = self.wilds.spec()
        if self.jokers:
            shown["jokers"] = str(self.jokers)
            shown["joker"] = self.wilds.joker.value
        return shown

    def category_of(self, strength: int) -> Category:
        """The category of a strength this ranking produced."""
        return HIGH_LEVELS[strength >> 20]

    def plan(self, cards: Sequence[Card]) -> Plan:
        """The best hand the cards make, without building an Evaluation."""
        naturals: list[Card] = []
        wild = bugs = 0
        for card in cards:
            if card.is_joker:
                if self.wilds.joker is JokerMode.WILD:
                    wild += 1
                else:
                    bugs += 1
            elif self.wilds.is_wild(card):
                wild += 1
            else:
                naturals.append(card)
        return best_plan(naturals, wild, bugs, self.ace_low, min(len(cards), 5))

    def strength(self, cards: Sequence[Card]) -> int:
        """The hand's strength: bigger is better.

        Without wild cards or jokers this adds one precomputed integer per card (rank
        key, suit count, card bit) and looks the sum up in tables; any hand the fast
        path cannot vouch for (wrong size, duplicates, jokers) goes through
        :meth:`check` and :meth:`plan`, which raise the usual errors.
        """
        if self.natural:
            tables = _SCALAR[self.ace_low] or _scalar_tables(self.ace_low)
            try:
                count = len(cards)
                if count == 5:
                    # five cards: rank keys in bits 0-19, suit nibbles at 20, cards at 36
                    one, two, three, four, five = cards
                    words = tables.five_words
                    total = (words[one.code] + words[two.code] + words[three.code]
                             + words[four.code] + words[five.code])  # fmt: skip
                elif 0 < count <= 7:
                    words = tables.words
                    total = 0
                    for card in cards:
                        total += words[card.code]
            except (AttributeError, IndexError, TypeError, ValueError):
                count = 0  # not natural cards: check() says why
            if count == 5:
                if (total >> 36).bit_count() == 5:  # fewer card bits: duplicates
                    if (total + 0x333300000) & 0x888800000:  # a nibble of 5 + 3
                        return tables.five_flush[total & 0xFFFFF]
                    return tables.five_nonflush[total & 0xFFFFF]
            # bits 64+ hold one bit per card: fewer set bits than cards: duplicates
            elif 0 < count <= 7 and (total >> 64).bit_count() == count:
                # a suit nibble (bits 32-47) of 5 or more: + 3 sets its top bit
                if (total + 0x333300000000) & 0x888800000000:
                    return _with_flush(cards, total, tables.nonflush, tables.flushes)
                return tables.nonflush[total & 0x1FFFFFF]
        return self.plan(self.check(cards)).strength

    def category(self, cards: Sequence[Card]) -> Category:
        """The hand's category (from :meth:`strength`)."""
        return HIGH_LEVELS[self.strength(cards) >> 20]

    def strength_batch(self, codes: NDArray[np.integer]) -> NDArray[np.int64]:
        """Strengths of an (N, k) array of card codes, 1 <= k <= 7, by table lookups.

        Equal element by element to :meth:`strength`; hands are not validated.
        """
        from guts.rankings.batch_high import kernel

        return kernel(self.wilds, self.jokers, self.ace_low).strengths(codes)

    def category_batch(self, codes: NDArray[np.integer]) -> NDArray[np.int64]:
        """Categories of an (N, k) array of hands, as indices into :meth:`categories`."""
        return (len(self.categories()) - 1) - (self.strength_batch(codes) >> 20)

    def census(
        self, cards: int, progress: Callable[[int, int], None] | None = None
    ) -> tuple[dict[Category, int], int]:
        """Count every ``cards``-card hand of this ranking's pack exactly.

        Returns the number of hands of each category (every category of
        :meth:`categories`, best first, zeros included) and the number of distinct
        strengths. ``progress(done, total)`` is called as the enumeration advances.
        Hands are enumerated as fixed leading cards joined to precomputed sums over
        every five-card tail, so each hand costs a few vector operations.

        >>> counts, classes = HighRanking().census(5)
        >>> counts[Category.STRAIGHT_FLUSH], classes
        (40, 7462)
        """
        from guts.rankings.batch_high import kernel

        deck = [card.code for card in self.deck.cards]
        if not self.min_cards <= cards <= min(self.max_cards, len(deck)):
            raise OptionError(
                f"the high ranking takes {self.min_cards} to {self.max_cards} cards, "
                f"not {cards}"
            )
        by_level, classes = kernel(self.wilds, self.jokers, self.ace_low).census(
            deck, cards, progress
        )
        counts = {category: by_level.get(LEVEL_OF[category], 0) for category in self.categories()}
        return counts, classes

    def describe(self, cards: Sequence[Card]) -> str:
        """The hand in plain words. A natural five-card hand's words follow from its
        strength (category and ranks), so they are looked up by it once worked out."""
        if self.natural and len(cards) == 5:
            # the table path (a bad hand raises as ever); the words kept by strength
            return _strength_words(self.strength(cards))
        return self.evaluate(cards).description

    def evaluate(self, cards: Sequence[Card]) -> Evaluation:
        """Category, the five cards that play, what each wild stands for, and words."""
        hand = self.check(cards)
        plan = self.plan(hand)
        playing, stands_for = self._assign(hand, plan)
        return Evaluation(
            plan.strength, plan.category, playing, describe_plan(plan), stands_for
        )

    def _assign(
        self, hand: Sequence[Card], plan: Plan
    ) -> tuple[tuple[Card, ...], tuple[tuple[Card, Card], ...]]:
        """Pick the actual cards that fill the plan's demands, naturals first."""
        free = [c for c in hand if c.is_joker or self.wilds.is_wild(c)]
        # Bugs may only be aces outside straights and flushes: give them ace demands first.
        free.sort(key=lambda c: not (c.is_joker and self.wilds.joker is JokerMode.BUG))
        naturals = [c for c in hand if c not in free]
        taken: set[Card] = set(hand)
        playing: list[Card] = []
        stands_for: list[tuple[Card, Card]] = []
        straightish = plan.category in (
            Category.STRAIGHT, Category.FLUSH, Category.STRAIGHT_FLUSH
        )  # fmt: skip
        for rank in plan.demands:
            natural = _take_natural(naturals, rank, plan.suit)
            if natural is not None:
                playing.append(natural)
                continue
            wild = _take_free(free, rank, straightish, self.wilds.joker)
            stood = _stand_in(rank, plan.suit, taken)
            taken.add(stood)
            playing.append(wild)
            stands_for.append((wild, stood))
        return tuple(playing), tuple(stands_for)


_CARD_SHIFT = 64
_KEY_MASK = (1 << 25) - 1

@dataclass(frozen=True, slots=True)
class _ScalarTables:
    """What the scalar path of natural hands looks up (built once per ``ace_low``).

    ``words[code]`` is the card's rank key, plus one in its suit's nibble at bit 32, plus
    a bit of its own at bit 64 + code (so duplicates show as a short bit count);
    ``nonflush`` maps rank-key sums to strengths and ``flushes`` 13-bit rank masks.
    Five-card hands use ``five_words`` (the keys of :data:`FIVE_RANK_KEYS` in bits 0-19,
    suit nibbles at 20, card bits at 36) and lists indexed by their rank-key sum.
    """

    words: list[int]
    nonflush: dict[int, int]
    flushes: list[int]
    five_words: list[int]
    five_nonflush: list[int]
    five_flush: list[int]


_SCALAR: dict[bool, _ScalarTables | None] = {False: None, True: None}


def _scalar_tables(ace_low: bool) -> _ScalarTables:
    """Build the scalar tables of :class:`_ScalarTables` from the batch tables."""
    from guts.rankings.tables import FIVE_RANK_KEYS, RANK_KEYS, high_tables, rank_multisets

    tables = high_tables(ace_low)
    words = [
        RANK_KEYS[code >> 2] + (1 << (32 + 4 * (code & 3))) + (1 << (_CARD_SHIFT + code))
        for code in range(52)
    ]
    five_words = [
        FIVE_RANK_KEYS[code >> 2] + (1 << (20 + 4 * (code & 3))) + (1 << (36 + code))
        for code in range(52)
    ]
    counts, sums, _dense = rank_multisets()
    sizes = counts.sum(axis=1)
    nonflush: dict[int, int] = {}
    for size in range(1, 8):
        keys = sums[sizes == size].tolist()
        nonflush.update(zip(keys, tables.natural_block(size).tolist(), strict=True))
    five_nonflush, five_flush = tables.five_card
    found = _ScalarTables(
        words, nonflush, tables.flush[0].tolist(),
        five_words, five_nonflush.tolist(), five_flush.tolist(),
    )  # fmt: skip
    _SCALAR[ace_low] = found
    return found


def _with_flush(
    cards: Sequence[Card], total: int, nonflush: dict[int, int], flushes: list[int]
) -> int:
    """The strength of a natural hand with five or more cards of one suit."""
    counts = (total >> 32) & 0xFFFF
    suit = next(s for s in range(4) if (counts >> (4 * s)) & 15 >= 5)
    mask = 0
    for card in cards:
        if card.code & 3 == suit:
            mask |= 1 << (card.code >> 2)
    return max(nonflush[total & _KEY_MASK], flushes[mask])


def _take_natural(naturals: list[Card], rank: int, suit: int | None) -> Card | None:
    for card in naturals:
        if card.rank == rank and (suit is None or card.suit == suit):
            naturals.remove(card)
            return card
    return None


def _take_free(free: list[Card], rank: int, straightish: bool, mode: JokerMode) -> Card:
    for card in free:
        is_bug = card.is_joker and mode is JokerMode.BUG
        if not is_bug or straightish or rank == Rank.ACE:
            free.remove(card)
            return card
    raise AssertionError("plan demands more wild cards than the hand holds")


def _stand_in(rank: int, suit: int | None, taken: set[Card]) -> Card:
    """The card a wild represents: of ``suit`` if given, else a suit not already used."""
    if suit is not None:
        return Card.of(rank, suit)
    for candidate in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS):
        card = Card.of(rank, candidate)
        if card not in taken:
            return card
    return Card.of(rank, Suit.SPADES)  # a fifth card of a rank: five of a kind


def _word(rank: int) -> str:
    return Rank(rank).word


def _plural(rank: int) -> str:
    return Rank(rank).plural


@cache
def _strength_words(strength: int) -> str:
    """A natural hand's words from its packed strength: the category's level above bit
    20, then the plan's key ranks (2-14, never 0) in nibbles, zeros after the last (kept:
    7,462 strengths at most for each ``ace_low``)."""
    nibbles = ((strength >> shift) & 15 for shift in (16, 12, 8, 4, 0))
    key = tuple(rank for rank in nibbles if rank)
    return describe_plan(Plan(HIGH_LEVELS[strength >> 20], key, key))


def describe_plan(plan: Plan) -> str:
    """A high hand in words: ``"Full house, kings over fives"``."""
    key = plan.key
    match plan.category:
        case Category.FIVE_OF_A_KIND:
            return f"Five of a kind, {_plural(key[0])}"
        case Category.STRAIGHT_FLUSH:
            return "Royal flush" if key[0] == 14 else f"Straight flush, {_word(key[0])} high"
        case Category.FOUR_OF_A_KIND:
            return f"Four of a kind, {_plural(key[0])}"
        case Category.FULL_HOUSE:
            return f"Full house, {_plural(key[0])} over {_plural(key[1])}"
        case Category.FLUSH:
            return f"Flush, {_word(key[0])} high"
        case Category.STRAIGHT:
            return f"Straight, {_word(key[0])} high"
        case Category.THREE_OF_A_KIND:
            return f"Three of a kind, {_plural(key[0])}"
        case Category.TWO_PAIR:
            kicker = f", {_word(key[2])} kicker" if len(key) > 2 else ""
            return f"Two pair, {_plural(key[0])} and {_plural(key[1])}{kicker}"
        case Category.PAIR:
            return f"Pair of {_plural(key[0])}"
        case _:
            return f"{_word(key[0]).capitalize()} high"
