"""32-card (stripped deck) poker: seven to ace, flushes above full houses, ranked suits.

The best five of five to seven cards play. Categories, best first: straight flush, four of a
kind, flush, full house, straight, three of a kind, two pair, pair, high card (a flush is
harder to make with 32 cards, so it ranks above a full house). The ace is also adjacent to
the seven, so A-7-8-9-10 is the lowest straight (and straight flush); it is ten high.

Suits rank hearts > diamonds > clubs > spades and break hands that are otherwise equal
(same category, same ranks, kickers included) by the suit of the highest card of the
combination; the suits of kickers never count. That card is: for a pair, the better-suited
card of the pair; for two pair, of the top pair; for three or four of a kind and a full
house, the better-suited card of the set; for a flush, its suit; for a straight (flush),
its top card; for high card, the highest card.

**Strength** is ``pack(level, ranks) << 2 | suit``: the usual
:func:`guts.rankings.base.pack` of the category level (high card 0 .. straight flush 8) and
the ranks that matter (7..14; the ten for A-7-8-9-10), shifted left two bits, with the
deciding card's suit order (spades 0, clubs 1, diamonds 2, hearts 3) as the last tie-break.
``Evaluation.cards`` puts that deciding card first.

**Batches** (:meth:`StrippedRanking.strength_batch`) add up one 64-bit word per card:
a base-5 count of each rank (bits 0-18), the card's own bit (``19 + 4 * rank + suit``,
ranks seven 0 .. ace 7 and suits in the stripped order) and a 3-bit count of each suit
(bits 51-62). Without a flush the strength depends only on the rank counts and on the
best suit held in the deciding rank, so one table gives, by rank counts, the strength
without its suit and where in the word that rank's four suit bits lie. Only hands with
five cards of one suit look up that suit's ranks in a second, small table.

>>> from guts.cards import parse_cards
>>> stripped = StrippedRanking()
>>> stripped.describe(parse_cards("Ah 10h 9h 8h 7h Ks Kd"))
'Straight flush, ten high (hearts)'
>>> stripped.describe(parse_cards("Ah Jh 9h 8h 7h Ks Kd"))
'Flush, ace high (hearts)'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, NoReturn

from guts.cards import Card, DeckKind, Rank, Suit
from guts.errors import HandError, OptionError
from guts.rankings.base import Category, Evaluation, Ranking, pack
from guts.rankings.wilds import Wilds

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from guts.rankings.word_sums import WordSums

__all__ = ["SUIT_ORDER", "StrippedRanking"]

SUIT_ORDER: dict[Suit, int] = {Suit.SPADES: 0, Suit.CLUBS: 1, Suit.DIAMONDS: 2, Suit.HEARTS: 3}
"""The stripped game's suit order, lowest 0 to highest 3: spades, clubs, diamonds, hearts."""

_SUIT_OF_CODE = (1, 2, 3, 0)  # SUIT_ORDER by Suit value: clubs, diamonds, hearts, spades

_ORDER = (
    Category.STRAIGHT_FLUSH, Category.FOUR_OF_A_KIND, Category.FLUSH, Category.FULL_HOUSE,
    Category.STRAIGHT, Category.THREE_OF_A_KIND, Category.TWO_PAIR, Category.PAIR,
    Category.HIGH_CARD,
)  # fmt: skip
_LEVEL = {category: len(_ORDER) - 1 - index for index, category in enumerate(_ORDER)}

# Straights, best first, top card first; the last is A-7-8-9-10, ten high.
_WINDOWS = (
    *(tuple(range(top, top - 5, -1)) for top in range(14, 10, -1)),
    (10, 9, 8, 7, 14),
)

_LOWEST_CODE = 4 * (Rank.SEVEN - 2)
_NO_WILDS = Wilds()


# Sort value of each natural card code: rank, then the stripped suit order.
_SORT_VALUE = tuple((code >> 2) * 4 + _SUIT_OF_CODE[code & 3] for code in range(52))


def _sort_value(card: Card) -> int:
    return _SORT_VALUE[card.code]


def _rank(card: Card) -> int:
    return (card.code >> 2) + 2


def _straight(best_of_rank: dict[int, Card]) -> tuple[Card, ...] | None:
    """The best straight, given the best-suited card of each rank present."""
    if len(best_of_rank) < 5:
        return None
    for window in _WINDOWS:
        if all(rank in best_of_rank for rank in window):
            return tuple(best_of_rank[rank] for rank in window)
    return None


def _best(cards: Sequence[Card]) -> tuple[Category, tuple[Card, ...], list[int]]:
    """Category, the five cards that play (deciding card first), and the ranks that matter."""
    ordered = sorted(cards, key=_sort_value, reverse=True)
    by_rank: dict[int, list[Card]] = {}
    suited: dict[int, list[Card]] = {}
    for card in ordered:
        by_rank.setdefault((card.code >> 2) + 2, []).append(card)
        suited.setdefault(card.code & 3, []).append(card)
    flush = next((group for group in suited.values() if len(group) >= 5), None)
    if flush is not None:
        run = _straight({_rank(card): card for card in flush})
        if run is not None:
            return Category.STRAIGHT_FLUSH, run, [_rank(run[0])]
    # Bigger group first, then higher rank; each group is best-suited first.
    groups = sorted(by_rank.items(), key=lambda item: (len(item[1]), item[0]), reverse=True)
    first, second = len(groups[0][1]), len(groups[1][1])

    def with_kickers(made: list[Card], kickers: int) -> tuple[Card, ...]:
        rest = [card for card in ordered if card not in made]
        return (*made, *rest[:kickers])

    if first == 4:
        played = with_kickers(groups[0][1], 1)
        return Category.FOUR_OF_A_KIND, played, [groups[0][0], _rank(played[4])]
    if flush is not None:
        return Category.FLUSH, tuple(flush[:5]), [_rank(card) for card in flush[:5]]
    if first == 3 and second >= 2:
        played = (*groups[0][1], *groups[1][1][:2])
        return Category.FULL_HOUSE, played, [groups[0][0], groups[1][0]]
    run = _straight({rank: group[0] for rank, group in by_rank.items()})
    if run is not None:
        return Category.STRAIGHT, run, [_rank(run[0])]
    if first == 3:
        played = with_kickers(groups[0][1], 2)
        return Category.THREE_OF_A_KIND, played, [_rank(card) for card in played[2:]]
    if first == 2 and second == 2:
        played = with_kickers(groups[0][1] + groups[1][1], 1)
        return Category.TWO_PAIR, played, [groups[0][0], groups[1][0], _rank(played[4])]
    if first == 2:
        played = with_kickers(groups[0][1], 3)
        return Category.PAIR, played, [_rank(card) for card in played[1:]]
    played = tuple(ordered[:5])
    return Category.HIGH_CARD, played, [_rank(card) for card in played]


@dataclass(frozen=True)
class StrippedRanking(Ranking):
    """32-card poker (7 to A): flush over full house, A-7-8-9-10 straights, ranked suits."""

    @property
    def name(self) -> str:
        """``stripped``."""
        return "stripped"

    @property
    def min_cards(self) -> int:
        """Five: the best five of five to seven cards play."""
        return 5

    @classmethod
    def from_options(
        cls, options: Mapping[str, str], *, wilds: Wilds = _NO_WILDS, jokers: int = 0
    ) -> StrippedRanking:
        """Build from CLI strings; the stripped ranking has no options and no wild cards."""
        if options:
            key = next(iter(options))
            raise OptionError(f"unknown option {key!r} for stripped: it has no options")
        if wilds or jokers:
            raise OptionError("the stripped ranking does not support wild cards or jokers")
        return cls()

    @property
    def deck(self) -> DeckKind:
        """The 32-card stripped pack, seven to ace."""
        return DeckKind.STRIPPED

    def categories(self) -> tuple[Category, ...]:
        """Straight flush, four of a kind, flush, full house, ... high card."""
        return _ORDER

    def check(self, cards: Sequence[Card]) -> tuple[Card, ...]:
        """Validate a hand: five to seven distinct cards of the stripped pack."""
        hand = tuple(cards)
        codes = {card.code for card in hand}
        size_ok = 5 <= len(hand) <= 7 and len(codes) == len(hand)
        if size_ok and min(codes) >= _LOWEST_CODE and max(codes) < 52:
            return hand
        return super().check(hand)  # raises the error a player understands

    def strength(self, cards: Sequence[Card]) -> int:
        """The hand's strength, without building an evaluation."""
        category, played, ranks = _best(self.check(cards))
        return _strength(category, played, ranks)

    def strength_batch(self, codes: NDArray[np.integer]) -> NDArray[np.int64]:
        """Strengths of an (N, k) array of card codes, 5 <= k <= 7, by table lookups.

        Equal element by element to :meth:`strength`. Cards outside the stripped pack
        raise the error :meth:`check` gives; repeated cards are not detected.
        """
        import numpy as np

        rows = np.asarray(codes)
        if rows.size == 0 and rows.ndim < 2:
            return np.zeros(0, np.int64)
        if rows.ndim != 2 or not 5 <= rows.shape[1] <= 7:
            raise HandError(
                f"a stripped hand has 5 to 7 cards: expected an (N, k) array of card "
                f"codes with 5 <= k <= 7, not shape {rows.shape}"
            )
        if rows.size and not _LOWEST_CODE <= rows.min() <= rows.max() < 52:
            outside = (rows < _LOWEST_CODE) | (rows > 51)
            _reject(self, rows[np.flatnonzero(outside.any(axis=1))[0]])
        from guts.rankings.word_sums import as_code_bytes

        hands = as_code_bytes(rows)
        tables, sums = _tables(), _word_sums()
        out = np.empty(len(hands), np.int64)
        for start in range(0, len(hands), _BLOCK):
            out[start : start + _BLOCK] = _finish(tables, sums.total(hands[start : start + _BLOCK]))
        return out

    def category_batch(self, codes: NDArray[np.integer]) -> NDArray[np.int64]:
        """Categories of an (N, k) array of hands, as indices into :meth:`categories`."""
        levels: NDArray[np.int64] = self.strength_batch(codes) >> 22
        return (len(_ORDER) - 1) - levels

    def evaluate(self, cards: Sequence[Card]) -> Evaluation:
        """Strength, category, the five cards that play (deciding card first), description."""
        hand = self.check(cards)
        category, played, ranks = _best(hand)
        strength = _strength(category, played, ranks)
        return Evaluation(strength, category, played, _describe(category, played))


def _strength(category: Category, played: tuple[Card, ...], ranks: list[int]) -> int:
    return pack(_LEVEL[category], ranks) << 2 | _SUIT_OF_CODE[played[0].code & 3]


def _describe(category: Category, played: tuple[Card, ...]) -> str:
    suit = played[0].suit
    assert suit is not None
    words = _phrase(category, Rank(_rank(played[0])), played)
    if category is Category.FOUR_OF_A_KIND:
        return words  # the set holds every suit, so the suit cannot matter
    return f"{words} ({suit.name.lower()})"


def _phrase(category: Category, top: Rank, played: tuple[Card, ...]) -> str:
    def plural(index: int) -> str:
        return Rank(_rank(played[index])).plural

    if category is Category.STRAIGHT_FLUSH:
        return "Royal flush" if top is Rank.ACE else f"Straight flush, {top.word} high"
    if category is Category.FOUR_OF_A_KIND:
        return f"Four of a kind, {top.plural}"
    if category is Category.FLUSH:
        return f"Flush, {top.word} high"
    if category is Category.FULL_HOUSE:
        return f"Full house, {top.plural} over {plural(3)}"
    if category is Category.STRAIGHT:
        return f"Straight, {top.word} high"
    if category is Category.THREE_OF_A_KIND:
        return f"Three of a kind, {top.plural}"
    if category is Category.TWO_PAIR:
        return f"Two pair, {top.plural} and {plural(2)}"
    if category is Category.PAIR:
        return f"Pair of {top.plural}"
    second = Rank(_rank(played[1])).word
    return f"{top.word.capitalize()}-{second} high"


# -- batches ------------------------------------------------------------------------------

_BLOCK = 1 << 16
_RANKS = 8  # seven .. ace
_KEY_MASK = (1 << 19) - 1  # rank counts, base 5: below 5**8
_CARD_SHIFT = 19
_SUIT_COUNT_SHIFT = 51
_ENTRY_SHIFT = 6  # a non-flush entry: (strength without suit) << 6 | shift of its suit bits


class _BatchTables:
    """Card words and lookup tables of :meth:`StrippedRanking.strength_batch`."""

    # A plain class, not a NamedTuple: mypyc would look up the numpy annotations of a
    # NamedTuple's fields when the module loads, and importing a ranking loads no numpy.
    __slots__ = ("best_suit", "flush", "flush_suit", "nonflush", "words")

    def __init__(
        self,
        words: NDArray[np.int64],
        nonflush: NDArray[np.int64],
        best_suit: NDArray[np.int64],
        flush_suit: NDArray[np.int64],
        flush: NDArray[np.int64],
    ) -> None:
        self.words = words
        self.nonflush = nonflush
        self.best_suit = best_suit
        self.flush_suit = flush_suit
        self.flush = flush


def _finish(tables: _BatchTables, total: NDArray[np.int64]) -> NDArray[np.int64]:
    """Strengths from the summed card words of a block of hands."""
    import numpy as np

    entry = tables.nonflush.take(total & _KEY_MASK)
    suits = (total >> (entry & ((1 << _ENTRY_SHIFT) - 1))) & 15
    strength: NDArray[np.int64] = (entry >> _ENTRY_SHIFT) | tables.best_suit.take(suits)
    suit = tables.flush_suit.take(total >> _SUIT_COUNT_SHIFT)
    rows = np.flatnonzero(suit >= 0)
    if len(rows):
        held, cards = suit[rows], total[rows] >> _CARD_SHIFT
        ranks = np.zeros(len(rows), np.int64)
        for rank in range(_RANKS):
            ranks |= ((cards >> (4 * rank + held)) & 1) << rank
        value = tables.flush.take(held * (1 << _RANKS) + ranks)
        strength[rows] = np.maximum(strength[rows], value)
    return strength


def _suit_order_code(rank_index: int, order: int) -> int:
    """The code of the card of rank ``7 + rank_index`` whose suit has stripped ``order``."""
    return 4 * (rank_index + 5) + _SUIT_OF_CODE.index(order)


@cache
def _word_sums() -> WordSums:
    """The batch words summed two cards per lookup (every byte has its word)."""
    from guts.rankings.word_sums import BYTE_CODES, WordSums

    return WordSums.of(_tables().words, BYTE_CODES)


@cache
def _tables() -> _BatchTables:
    """Build the batch tables (about 6,000 hand classes, each solved once by :func:`_best`).

    A non-flush class is solved on a hand of its ranks whose suits go round the four in
    turn (so no suit has five cards); the deciding card is then the best-suited card of
    the deciding rank in any hand of those ranks, which is what the batch reads.
    """
    import numpy as np

    words = np.zeros(256, np.int64)
    for code in range(_LOWEST_CODE, 52):
        rank, order = (code >> 2) - 5, _SUIT_OF_CODE[code & 3]
        words[code] = (
            5**rank + (1 << (_CARD_SHIFT + 4 * rank + order))
            + (1 << (_SUIT_COUNT_SHIFT + 3 * order))
        )  # fmt: skip
    digits = (np.arange(5**_RANKS)[:, None] // 5 ** np.arange(_RANKS)) % 5
    sizes = digits.sum(axis=1)
    nonflush = np.zeros(5**_RANKS, np.int64)
    for key in np.flatnonzero((sizes >= 5) & (sizes <= 7)).tolist():
        codes = [4 * (rank + 5) for rank in range(_RANKS) for _ in range(digits[key, rank])]
        hand = [Card(code + index % 4) for index, code in enumerate(codes)]
        category, played, ranks = _best(hand)
        shift = _CARD_SHIFT + 4 * (_rank(played[0]) - 7)
        nonflush[key] = (pack(_LEVEL[category], ranks) << 2) << _ENTRY_SHIFT | shift
    best_suit = np.array([max(0, value.bit_length() - 1) for value in range(16)], np.int64)
    flush_suit = np.full(1 << 12, -1, np.int64)
    for counts in range(1 << 12):
        for order in range(4):
            if (counts >> (3 * order)) & 7 >= 5:
                flush_suit[counts] = order
    flush = np.zeros(4 << _RANKS, np.int64)
    for order in range(4):
        for mask in range(1 << _RANKS):
            if mask.bit_count() >= 5:
                suited = [Card(_suit_order_code(r, order)) for r in range(_RANKS) if mask >> r & 1]
                flush[(order << _RANKS) | mask] = _strength(*_best(suited))
    return _BatchTables(words, nonflush, best_suit, flush_suit, flush)


def _reject(ranking: Ranking, row: NDArray[np.integer]) -> NoReturn:
    """Raise the error a player understands for a batch row that is not a hand."""
    codes = [int(code) for code in row.tolist()]
    if all(0 <= code < 54 for code in codes):
        ranking.check([Card(code) for code in codes])
    raise HandError(f"{codes} is not a {ranking.name} hand of card codes 0-53")
