"""Ace-to-five lowball: the lowest hand wins (Jacks Back's lowball, Nuts, Napalm).

Aces are low (an ace counts 1), straights and flushes do not count, so the best hand is
A-2-3-4-5 (a "bicycle"). A hand of five to seven cards plays its best five; a hand of one
to four cards (Nuts' two- and four-card low rounds) plays all its cards. Categories, best
first: no pair, pair, two pair, three of a kind, full house, four of a kind. A-A-2-3-4 is
a pair: worse than any hand without a pair, better than any other pair.

>>> from guts.cards import parse_cards
>>> low = LowRanking()
>>> low.describe(parse_cards("7s 5h 4d 3c 2s")), low.describe(parse_cards("As 2h 3d 4c 5s"))
('Seven-five low', 'Five-four low')

**The joker as fitter** (``jokers=1`` or ``2``, a 53- or 54-card pack): a joker represents
the lowest rank not already present among the other cards that play (two jokers: the two
lowest missing ranks). ``stands_for`` names a card of that rank; suits never matter in low,
so the suit shown is simply the first of clubs, diamonds, hearts, spades whose card is not
in the hand. Natural wild cards (``--wild 2``) play exactly like fitters, since the lowest
missing rank is always the best card a wild card could be in ace-to-five.

>>> low1 = LowRanking(jokers=1)
>>> low1.describe(parse_cards("As 2h 3d 4c jk")), low1.describe(parse_cards("2s 3h 4d 5c jk"))
('Five-four low', 'Five-four low')

**Pairs are strong** (``pairs="strong"``, Nuts' "lowest cards win (pairs are strong)"):
any hand with a pair or better beats every hand without one. Between two such hands the
order is that of high poker: four of a kind, full house, three of a kind, two pair, pair,
then the higher ranks win, kickers included. Aces stay low (rank 1) in this mode too, so a
pair of aces is the lowest pair. Hands without a pair still rank lowest-best. In this mode
the joker still plays as the fitter (the rule text's low joker); wild natural cards and a
wild joker are not supported, since what a wild card should be there is not the fitter.

**Strength** is :func:`guts.rankings.base.pack` of the category level (worst category 0)
and the ranks of the groups (bigger group first, then higher rank first). In ace-to-five a
low rank is good, so each rank ``r`` (ace 1 .. king 13) is stored as ``14 - r``; pairs-strong
made hands store ``r``. Missing nibbles of short hands are 0; only hands of one size are
meant to be compared. :meth:`LowRanking.strength` is cached on the sorted rank multiset
(and number of wild cards).

**Batches** (:meth:`LowRanking.strength_batch`) are table lookups: a hand's strength
depends only on the multiset of its natural ranks and its number of wild cards, so each
card code maps to an additive word (the rank keys of :mod:`guts.rankings.tables`, whose
sums identify a multiset, plus ``1 << 25`` per wild card) and one lookup in the table of
that hand size gives the strength. The tables are built in numpy on first use (a few
hundredths of a second): hands of up to five natural cards by ordering each multiset's
groups, wild cards as the lowest missing ranks they stand for, and six and seven cards
as the best of the hands one card smaller (the best five of seven are the best five of
one of its six-card parts).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations
from typing import TYPE_CHECKING, Literal, NamedTuple, NoReturn

from guts.cards import Card, DeckKind, Rank
from guts.errors import CardError, HandError, OptionError
from guts.rankings.base import Category, Evaluation, Ranking, pack
from guts.rankings.wilds import JokerMode, Wilds

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from guts.rankings.word_sums import WordSums

__all__ = ["LowRanking", "low_rank", "top_card"]

PairsRule = Literal["bad", "strong"]
_PAIRS_RULES: dict[str, PairsRule] = {"bad": "bad", "strong": "strong"}
_NO_WILDS = Wilds()

_BAD_ORDER = (
    Category.HIGH_CARD, Category.PAIR, Category.TWO_PAIR,
    Category.THREE_OF_A_KIND, Category.FULL_HOUSE, Category.FOUR_OF_A_KIND,
)  # fmt: skip
_STRONG_ORDER = (*reversed(_BAD_ORDER[1:]), Category.HIGH_CARD)

_SHAPES = {
    (1,): Category.HIGH_CARD, (1, 1): Category.HIGH_CARD, (2,): Category.PAIR,
    (2, 1): Category.PAIR, (3,): Category.THREE_OF_A_KIND,
    (4,): Category.FOUR_OF_A_KIND, (2, 2): Category.TWO_PAIR, (3, 1): Category.THREE_OF_A_KIND,
    (3, 2): Category.FULL_HOUSE, (4, 1): Category.FOUR_OF_A_KIND,
}  # fmt: skip

# The low rank (ace 1 .. king 13) of each natural card code.
_LOW_OF_CODE = tuple(1 if code >> 2 == 12 else (code >> 2) + 2 for code in range(52))


def low_rank(card: Card) -> int:
    """The card's rank with aces low: ace 1, two 2, ..., king 13 (a joker is an error).

    >>> from guts.cards import parse_card
    >>> low_rank(parse_card("As")), low_rank(parse_card("Kd"))
    (1, 13)
    """
    if card.is_joker:
        raise CardError("a joker has no rank of its own")
    return _LOW_OF_CODE[card.code]


def top_card(evaluation: Evaluation) -> Card:
    """The natural card at the top of a hand: its first playing card, a wild one resolved.

    For a hand without a pair this is the card a census groups it by ("seven-low" hands).
    """
    first = evaluation.cards[0]
    return dict(evaluation.stands_for).get(first, first)


def _natural(rank: int, suit: int) -> Card:
    return Card.of(Rank.ACE if rank == 1 else rank, suit)


def _word(rank: int) -> str:
    return Rank(14 if rank == 1 else rank).word


def _plural(rank: int) -> str:
    return Rank(14 if rank == 1 else rank).plural


class _Solved(NamedTuple):
    """The best play of a rank multiset: strength, category, and (rank, is_wild) in order."""

    strength: int
    category: Category
    played: tuple[tuple[int, bool], ...]


def _score(strong: bool, naturals: tuple[int, ...], wilds: int) -> _Solved:
    """All these cards play; each wild is the lowest rank still missing."""
    missing = [rank for rank in range(1, 14) if rank not in naturals]
    fitters = missing[:wilds]
    counts = Counter(naturals + tuple(fitters))
    groups = sorted(counts.items(), key=lambda item: (-item[1], -item[0]))
    category = _SHAPES[tuple(count for _, count in groups)[:2]]
    order = _STRONG_ORDER if strong else _BAD_ORDER
    level = len(order) - 1 - order.index(category)
    made = strong and category is not Category.HIGH_CARD
    strength = pack(level, [rank if made else 14 - rank for rank, _ in groups])
    played = tuple(
        (rank, count == 1 and rank in fitters) for rank, count in groups for _ in range(count)
    )
    return _Solved(strength, category, played)


@cache
def _solve(strong: bool, naturals: tuple[int, ...], wilds: int) -> _Solved:
    """The best five (or all, for five or fewer) of sorted natural ranks plus wilds."""
    tokens = naturals + (0,) * wilds
    if len(tokens) <= 5:
        return _score(strong, naturals, wilds)
    best: _Solved | None = None
    for combo in dict.fromkeys(combinations(tokens, 5)):
        solved = _score(strong, tuple(t for t in combo if t), combo.count(0))
        if best is None or solved.strength > best.strength:
            best = solved
    assert best is not None
    return best


@dataclass(frozen=True)
class LowRanking(Ranking):
    """Ace-to-five low, optionally with jokers as fitters and strong pairs (see module)."""

    pairs: PairsRule = "bad"
    jokers: int = 0
    wilds: Wilds = _NO_WILDS
    _wild_codes: frozenset[int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.pairs not in _PAIRS_RULES:
            raise OptionError(f"pairs must be 'bad' or 'strong', not {self.pairs!r}")
        if self.jokers not in (0, 1, 2):
            raise OptionError(f"jokers must be 0, 1 or 2, not {self.jokers!r}")
        if self.pairs == "strong" and self.wilds:
            raise OptionError("wild cards are not supported in low with pairs=strong")
        if self.pairs == "strong" and self.jokers and self.wilds.joker is JokerMode.WILD:
            raise OptionError(
                "a wild joker is not supported in low with pairs=strong: "
                "the joker plays as the fitter (use joker=bug)"
            )
        wild = {card.code for card in self.deck.cards if card.is_joker or self.wilds.is_wild(card)}
        object.__setattr__(self, "_wild_codes", frozenset(wild))

    @property
    def name(self) -> str:
        """``low``."""
        return "low"

    @classmethod
    def from_options(
        cls, options: Mapping[str, str], *, wilds: Wilds = _NO_WILDS, jokers: int = 0
    ) -> LowRanking:
        """Build from CLI strings: ``pairs=bad|strong``."""
        for key in options:
            if key != "pairs":
                raise OptionError(f"unknown option {key!r} for low: the only option is 'pairs'")
        value = options.get("pairs", "bad")
        pairs = _PAIRS_RULES.get(value.strip().lower())
        if pairs is None:
            raise OptionError(f"option 'pairs' must be 'bad' or 'strong', not {value!r}")
        return cls(pairs=pairs, jokers=jokers, wilds=wilds)

    @property
    def deck(self) -> DeckKind:
        """The 52-card pack, with one or two jokers when they play as fitters."""
        return (DeckKind.STANDARD, DeckKind.ONE_JOKER, DeckKind.TWO_JOKERS)[self.jokers]

    def categories(self) -> tuple[Category, ...]:
        """No pair first (pairs=bad), or four of a kind first (pairs=strong)."""
        return _STRONG_ORDER if self.pairs == "strong" else _BAD_ORDER

    def options(self) -> dict[str, str]:
        """``pairs``, plus ``jokers`` and ``wild`` when they are in play."""
        shown: dict[str, str] = {"pairs": self.pairs}
        if self.jokers:
            shown["jokers"] = str(self.jokers)
        if self.wilds:
            shown["wild"] = self.wilds.spec()
        return shown

    def check(self, cards: Sequence[Card]) -> tuple[Card, ...]:
        """Validate a hand: one to seven distinct cards of this ranking's pack."""
        hand = tuple(cards)
        codes = {card.code for card in hand}
        if 1 <= len(hand) <= 7 and len(codes) == len(hand) and max(codes) < 52 + self.jokers:
            return hand
        return super().check(hand)  # raises the error a player understands

    def strength(self, cards: Sequence[Card]) -> int:
        """The hand's strength, without an evaluation object (cached by rank multiset)."""
        hand = self.check(cards)
        wild = self._wild_codes
        naturals = tuple(sorted(_LOW_OF_CODE[c.code] for c in hand if c.code not in wild))
        return _solve(self.pairs == "strong", naturals, len(hand) - len(naturals)).strength

    def strength_batch(self, codes: NDArray[np.integer]) -> NDArray[np.int64]:
        """Strengths of an (N, k) array of card codes, 1 <= k <= 7: one lookup per row.

        Equal element by element to :meth:`strength`. Cards outside the pack raise the
        error :meth:`check` gives; repeated cards are not detected.
        """
        import numpy as np

        rows = np.asarray(codes)
        if rows.size == 0 and rows.ndim < 2:
            return np.zeros(0, np.int64)
        if rows.ndim != 2 or not 1 <= rows.shape[1] <= 7:
            raise HandError(
                f"a low hand has 1 to 7 cards: expected an (N, k) array of card codes "
                f"with 1 <= k <= 7, not shape {rows.shape}"
            )
        if rows.dtype != np.uint8 and rows.size and not 0 <= rows.min() <= rows.max() < 256:
            _reject(self, rows[np.flatnonzero(((rows < 0) | (rows > 255)).any(axis=1))[0]])
        from guts.rankings.word_sums import as_code_bytes

        hands = as_code_bytes(rows)
        size = hands.shape[1]
        tables = _low_tables(self.pairs == "strong")
        strengths, offsets = tables.strengths[size], tables.offsets[size]
        sums = _word_sums(self._wild_codes, self.jokers)
        out = np.empty(len(hands), np.int64)
        for start in range(0, len(hands), _BLOCK):
            block = hands[start : start + _BLOCK]
            total = sums.total(block)
            wild = total >> _WILD_SHIFT
            if wild.max() > size:
                _reject(self, block[int(np.argmax(wild > size))])
            index = offsets.take(wild) + tables.dense.take(total & _KEY_MASK, mode="clip")
            out[start : start + _BLOCK] = strengths.take(index, mode="clip")
        return out

    def category_batch(self, codes: NDArray[np.integer]) -> NDArray[np.int64]:
        """Categories of an (N, k) array of hands, as indices into :meth:`categories`."""
        levels: NDArray[np.int64] = self.strength_batch(codes) >> 20
        return (len(self.categories()) - 1) - levels

    def evaluate(self, cards: Sequence[Card]) -> Evaluation:
        """Strength, category, the playing cards (top card first), fitters, description."""
        hand = self.check(cards)
        wild_cards = sorted((c for c in hand if c.code in self._wild_codes), key=lambda c: c.code)
        naturals = sorted((c for c in hand if c.code not in self._wild_codes), key=lambda c: c.code)
        ranks = tuple(sorted(_LOW_OF_CODE[c.code] for c in naturals))
        solved = _solve(self.pairs == "strong", ranks, len(wild_cards))
        playing: list[Card] = []
        stands_for: list[tuple[Card, Card]] = []
        for rank, is_wild in solved.played:
            if is_wild:
                wild = wild_cards.pop(0)
                stands_for.append((wild, _represented(wild, rank, hand)))
                playing.append(wild)
            else:
                card = next(c for c in naturals if _LOW_OF_CODE[c.code] == rank)
                naturals.remove(card)
                playing.append(card)
        return Evaluation(
            solved.strength,
            solved.category,
            tuple(playing),
            _describe(solved),
            tuple(stands_for),
        )


_BLOCK = 1 << 16
_WILD_SHIFT = 25  # = guts.rankings.tables.KEY_BITS: wild cards count above the rank keys
_KEY_MASK = (1 << _WILD_SHIFT) - 1
_NOT_IN_PACK = 8  # a code outside the pack counts as eight wild cards: more than any hand


class _LowTables:
    """Low strengths by hand size ``k`` (1-7): ``strengths[k]`` holds one block per number
    of wild cards ``w`` (0..k), starting at ``offsets[k][w]``, of the strengths of the
    multisets of ``k - w`` natural ranks, in the order of ``dense`` (the multiset's index
    within its size, by sum of rank keys; see :func:`guts.rankings.tables.rank_multisets`).
    """

    # A plain class, not a NamedTuple: mypyc would look up the numpy annotations of a
    # NamedTuple's fields when the module loads, and importing a ranking loads no numpy.
    __slots__ = ("dense", "offsets", "strengths")

    def __init__(
        self,
        strengths: tuple[NDArray[np.int32], ...],
        offsets: tuple[NDArray[np.intp], ...],
        dense: NDArray[np.uint16],
    ) -> None:
        self.strengths = strengths
        self.offsets = offsets
        self.dense = dense


@cache
def _low_tables(strong: bool) -> _LowTables:
    """The batch tables of ``pairs="strong"`` (``strong``) or ``"bad"``, built once."""
    import numpy as np

    from guts.rankings.tables import rank_multisets

    counts, sums, dense = rank_multisets()
    first = np.searchsorted(counts.sum(axis=1), np.arange(9)).tolist()
    strengths: list[NDArray[np.int32]] = [np.zeros(0, np.int32)]
    offsets: list[NDArray[np.intp]] = [np.zeros(16, np.intp)]
    for size in range(1, 8):
        parts = [slice(first[size - wild], first[size - wild + 1]) for wild in range(size + 1)]
        if size <= 5:
            natural = _natural_block(strong, counts[parts[0]])
            blocks = [natural] + [
                natural[dense[_with_fitters(counts[part], sums[part], wild)]]
                for wild, part in enumerate(parts[1:], start=1)
            ]
        else:
            previous = (strengths[size - 1], offsets[size - 1])
            blocks = [
                _drop_block(counts[part], sums[part], wild, previous, dense)
                for wild, part in enumerate(parts)
            ]
        starts = np.zeros(16, np.intp)
        starts[1 : size + 2] = np.cumsum([len(block) for block in blocks])
        strengths.append(np.concatenate(blocks))
        offsets.append(starts)
    return _LowTables(tuple(strengths), tuple(offsets), dense)


# The low rank of each rank index (code >> 2) of the rank multisets: two 2 .. ace 1.
_LOW_OF_INDEX = (*range(2, 14), 1)
# Rank indices from the lowest rank in ace-to-five (the ace) to the highest (the king).
_LOW_ORDER = (12, *range(12))


def _natural_block(strong: bool, counts: NDArray[np.uint8]) -> NDArray[np.int32]:
    """:func:`_score` of natural multisets of at most five cards (all play), in numpy:
    groups ordered by size then rank, the category from the two biggest groups."""
    import numpy as np

    order = _STRONG_ORDER if strong else _BAD_ORDER
    levels = np.full((5, 5), -1, np.int64)
    for shape, category in _SHAPES.items():
        levels[shape[0], shape[1] if len(shape) > 1 else 0] = len(order) - 1 - order.index(category)
    amounts = counts.astype(np.int64)
    keys = np.where(amounts > 0, amounts * 16 + np.array(_LOW_OF_INDEX), 0)
    groups = -np.sort(-keys, axis=1)[:, :5]
    sizes, ranks = groups >> 4, groups & 15
    level = levels[sizes[:, 0], sizes[:, 1]]
    made = strong & (sizes[:, 0] > 1)
    nibbles = np.where(sizes > 0, np.where(made[:, None], ranks, 14 - ranks), 0)
    value: NDArray[np.int64] = level << 20
    for index in range(5):
        value |= nibbles[:, index] << (16 - 4 * index)
    return value.astype(np.int32)


def _with_fitters(
    counts: NDArray[np.uint8], sums: NDArray[np.int64], wild: int
) -> NDArray[np.int64]:
    """Key sums of the multisets with their ``wild`` lowest missing ranks added: what a
    hand whose every card plays is worth, since each wild card is such a fitter."""
    import numpy as np

    from guts.rankings.tables import RANK_KEYS

    need = np.full(len(counts), wild, np.int64)
    total = sums.copy()
    for index in _LOW_ORDER:
        fits = (counts[:, index] == 0) & (need > 0)
        total += fits * RANK_KEYS[index]
        need -= fits
    return total


def _drop_block(
    counts: NDArray[np.uint8],
    sums: NDArray[np.int64],
    wild: int,
    previous: tuple[NDArray[np.int32], NDArray[np.intp]],
    dense: NDArray[np.uint16],
) -> NDArray[np.int32]:
    """Strengths of six- or seven-card hands: the best over leaving out one card, looked
    up in the tables of the size below (``previous``: strengths and offsets)."""
    import numpy as np

    from guts.rankings.tables import RANK_KEYS

    table, starts = previous
    best = np.full(len(counts), -1, np.int32)
    for rank, key in enumerate(RANK_KEYS):
        held = np.flatnonzero(counts[:, rank])
        value = table[starts[wild] + dense[sums[held] - key]]
        best[held] = np.maximum(best[held], value)
    if wild:
        best = np.maximum(best, table[starts[wild - 1] + dense[sums]])
    return best


@cache
def _card_words(wild_codes: frozenset[int], jokers: int) -> NDArray[np.int64]:
    """The additive word of every code 0-255: a rank key, one wild card, or not in pack."""
    import numpy as np

    from guts.rankings.tables import RANK_KEYS

    words = np.full(256, _NOT_IN_PACK << _WILD_SHIFT, np.int64)
    for code in range(52 + jokers):
        words[code] = (1 << _WILD_SHIFT) if code in wild_codes else RANK_KEYS[code >> 2]
    return words


@cache
def _word_sums(wild_codes: frozenset[int], jokers: int) -> WordSums:
    """:func:`_card_words` summed two cards per lookup (every byte has its word)."""
    from guts.rankings.word_sums import BYTE_CODES, WordSums

    return WordSums.of(_card_words(wild_codes, jokers), BYTE_CODES)


def _reject(ranking: Ranking, row: NDArray[np.integer]) -> NoReturn:
    """Raise the error a player understands for a batch row that is not a hand."""
    codes = [int(code) for code in row.tolist()]
    if all(0 <= code < 54 for code in codes):
        ranking.check([Card(code) for code in codes])
    raise HandError(f"{codes} is not a {ranking.name} hand of card codes 0-53")


def _represented(wild: Card, rank: int, hand: Sequence[Card]) -> Card:
    """The natural card a fitter shows: itself if it has the rank, else a card not in hand."""
    if not wild.is_joker and _LOW_OF_CODE[wild.code] == rank:
        return wild
    return next(card for card in (_natural(rank, suit) for suit in range(4)) if card not in hand)


def _describe(solved: _Solved) -> str:
    ranks = [rank for rank, _ in solved.played]
    category = solved.category
    if category is Category.HIGH_CARD:
        words = "-".join(_word(rank) for rank in ranks[:2])
        return f"{words.capitalize()} low"
    if category is Category.PAIR:
        return f"Pair of {_plural(ranks[0])}"
    if category is Category.TWO_PAIR:
        return f"Two pair, {_plural(ranks[0])} and {_plural(ranks[2])}"
    if category is Category.THREE_OF_A_KIND:
        return f"Three of a kind, {_plural(ranks[0])}"
    if category is Category.FULL_HOUSE:
        return f"Full house, {_plural(ranks[0])} over {_plural(ranks[3])}"
    return f"Four of a kind, {_plural(ranks[0])}"
