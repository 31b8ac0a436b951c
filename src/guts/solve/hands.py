"""Hand classes: every hand of a deal's size, grouped where suits cannot matter.

All ``C(52, k)`` hands are evaluated under the game's ranking. Hands are grouped into one
*class* only where they are strategically identical:

- if no hand's strength depends on its suits (two-card Guts without flushes), a class is
  a multiset of ranks: 91 two-card classes (13 pairs, 78 high-card hands);
- otherwise (flushes count, three-card Guts) a class is a suit-isomorphism class (the
  hands that a renaming of the suits maps onto each other): 169 two-card or 1,755
  three-card classes;
- if even a renaming of suits changes strengths (single wild cards such as one-eyed jacks),
  every hand is its own class.

In every case the hands of a class have one strength, and what a class blocks of an
opponent's hand (card removal) is the same for each of its hands, so :attr:`HandClasses.meeting`
(how many opponent hands of each class are disjoint from a hand of this class) is exact.

>>> from guts.games.guts import preset
>>> classes = HandClasses.of(preset("two-card-guts").hand_ranking)
>>> len(classes.words), int(classes.count.sum()), classes.words[-1], classes.words[0]
(91, 1326, 'pair of aces', 'three-two high')
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache

import numpy as np
from numpy.typing import NDArray

from guts.cards import Card
from guts.rankings.base import Ranking

__all__ = ["HandClasses"]

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]

_PERMUTATIONS = np.array(list(itertools.permutations(range(4))), dtype=np.int64)


@dataclass(frozen=True, eq=False)
class HandClasses:
    """The hand classes of one ranking and hand size, weakest first.

    ``hands``: every hand (card codes, one row each); ``of_hand``: each hand's class;
    ``count``: hands per class; ``strength``: each class's strength; ``level``: its rank
    among the distinct strengths (0 the weakest); ``words``: its name ("pair of fours");
    ``grouping``: ``ranks``, ``suits`` or ``hands`` (how hands were grouped).
    """

    ranking: Ranking | None
    size: int
    hands: IntArray
    of_hand: IntArray
    count: IntArray
    strength: IntArray
    level: IntArray
    words: tuple[str, ...]
    grouping: str

    @classmethod
    def of(
        cls, ranking: Ranking, size: int | None = None, cards: tuple[Card, ...] | None = None
    ) -> HandClasses:
        """The classes of ``size``-card hands (the ranking's own size when None) dealt from
        ``cards`` (the ranking's pack when None: a smaller pack serves the tests)."""
        codes = None if cards is None else tuple(sorted(card.code for card in cards))
        return _classes(ranking, size or _size_of(ranking), codes)

    @classmethod
    def uniform(cls, count: int) -> HandClasses:
        """``count`` equally likely hands, each stronger than the last, that block nothing:
        the continuous model's hands in ``[0, 1]`` cut into ``count`` slices.

        >>> HandClasses.uniform(4).words
        ('hand 1 of 4', 'hand 2 of 4', 'hand 3 of 4', 'hand 4 of 4')
        """
        index = np.arange(count, dtype=np.int64)
        words = tuple(f"hand {i + 1} of {count}" for i in range(count))
        ones = np.ones(count, dtype=np.int64)
        return cls(None, 1, index[:, None], index, ones, index, index, words, "uniform")

    @property
    def levels(self) -> int:
        """How many distinct strengths there are."""
        return int(self.level.max()) + 1

    @property
    def prior(self) -> FloatArray:
        """The chance of being dealt each class."""
        return np.asarray(self.count / self.count.sum(), dtype=np.float64)

    def class_of(self, cards: tuple[Card, ...] | list[Card]) -> int:
        """The class of a hand of cards."""
        codes = np.sort(np.array([card.code for card in cards], dtype=np.int64))
        found = np.flatnonzero((self.hands == codes[None, :]).all(axis=1))
        if len(found) != 1:
            raise ValueError(f"not a {self.size}-card hand of this pack: {cards}")
        return int(self.of_hand[found[0]])

    @property
    def meeting(self) -> FloatArray:
        """``meeting[h, g]``: how many hands of class ``g`` share no card with one hand of
        class ``h`` (exact card removal between two players)."""
        return _meeting(self)

    def conditional(self) -> FloatArray:
        """``P(opponent's class g | my class h)`` for one opponent (rows sum to 1)."""
        if self.ranking is None:
            return np.tile(self.prior, (len(self.count), 1))
        meet = self.meeting
        return np.asarray(meet / meet.sum(axis=1, keepdims=True), dtype=np.float64)


def _size_of(ranking: Ranking) -> int:
    name = type(ranking).__name__
    return 2 if name.startswith("Two") else 3


@cache
def _classes(ranking: Ranking, size: int, codes: tuple[int, ...] | None = None) -> HandClasses:
    pack = [card.code for card in ranking.deck.cards] if codes is None else list(codes)
    deck = np.array(pack, dtype=np.int64)
    hands = np.array(list(itertools.combinations(deck.tolist(), size)), dtype=np.int64)
    strength = np.asarray(ranking.strength_batch(hands), dtype=np.int64)
    grouping, keys = "ranks", _rank_keys(hands)
    if not _one_strength_each(keys, strength):
        grouping, keys = "suits", _suit_keys(hands)
        if not _one_strength_each(keys, strength):
            grouping, keys = "hands", hands
    _, first, inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    class_strength = strength[first]
    order = np.lexsort((first, class_strength))  # weakest first, then deck order
    rank_of = np.empty(len(order), dtype=np.int64)
    rank_of[order] = np.arange(len(order))
    of_hand = rank_of[inverse]
    count = np.bincount(of_hand, minlength=len(order)).astype(np.int64)
    ordered_strength = class_strength[order]
    level = np.unique(ordered_strength, return_inverse=True)[1].reshape(-1).astype(np.int64)
    reps = hands[first[order]]
    words = tuple(_words(ranking, row) for row in reps)
    return HandClasses(
        ranking, size, hands, of_hand, count, ordered_strength, level, words, grouping
    )


def _words(ranking: Ranking, codes: IntArray) -> str:
    text = ranking.describe([Card(int(code)) for code in codes])
    return text[:1].lower() + text[1:]


def _rank_keys(hands: IntArray) -> IntArray:
    ranks = np.where(hands >= 52, 100 + hands, hands >> 2)
    return np.sort(ranks, axis=1)


def _suit_keys(hands: IntArray) -> IntArray:
    """The smallest sorted code row over every renaming of the suits (jokers kept)."""
    ranks, suits = hands >> 2, hands & 3
    natural = hands < 52
    best: IntArray | None = None
    for perm in _PERMUTATIONS:
        codes = np.where(natural, 4 * ranks + perm[suits], hands)
        codes = np.sort(codes, axis=1)
        if best is None:
            best = codes
        else:
            smaller = _lex_less(codes, best)
            best = np.where(smaller[:, None], codes, best)
    assert best is not None
    return best


def _lex_less(a: IntArray, b: IntArray) -> NDArray[np.bool_]:
    less = np.zeros(len(a), dtype=bool)
    decided = np.zeros(len(a), dtype=bool)
    for column in range(a.shape[1]):
        less |= ~decided & (a[:, column] < b[:, column])
        decided |= a[:, column] != b[:, column]
    return less


def _one_strength_each(keys: IntArray, strength: IntArray) -> bool:
    _, inverse = np.unique(keys, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    low = np.full(inverse.max() + 1, np.iinfo(np.int64).max)
    high = np.full(inverse.max() + 1, np.iinfo(np.int64).min)
    np.minimum.at(low, inverse, strength)
    np.maximum.at(high, inverse, strength)
    return bool((low == high).all())


@cache
def _meeting(classes: HandClasses) -> FloatArray:
    masks = np.zeros(len(classes.hands), dtype=np.uint64)
    for column in range(classes.size):
        masks |= np.left_shift(np.uint64(1), classes.hands[:, column].astype(np.uint64))
    first = np.full(len(classes.count), -1, dtype=np.int64)
    seen = np.zeros(len(classes.count), dtype=bool)
    for index, cls in enumerate(classes.of_hand.tolist()):
        if not seen[cls]:
            seen[cls] = True
            first[cls] = index
    size = len(classes.count)
    meet = np.zeros((size, size), dtype=np.float64)
    for cls in range(size):
        free = (masks & masks[first[cls]]) == 0
        meet[cls] = np.bincount(classes.of_hand[free], minlength=size)
    return meet
