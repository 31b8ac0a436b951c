"""Two- and three-card Guts hands: pairs, trips, optional straights and flushes, wilds.

Two-card Guts: any pair beats any two unequal cards, a higher pair beats a lower one, and
two non-pairs compare their higher, then their lower card (A-A best, 3-2 worst).
Three-card Guts: three of a kind > straight flush > straight > flush > pair > high card
by default, with the order, straights, flushes and the ace-low straight as options.

>>> from guts.cards import parse_cards
>>> ThreeCardRanking().describe(parse_cards("Qh Jh 10h"))
'Straight flush, queen high'
>>> TwoCardRanking().describe(parse_cards("Ad Ks"))
'Ace-king high'
>>> TwoCardRanking(crumpler=True).describe(parse_cards("2c 3d"))
'Royal Crumpler'

Wild cards and jokers. A wild card stands for any natural card that the hand does not
already hold as a natural card (it may stand for itself), each wild for a different card;
the hand takes its best value over all such substitutions, and ties the natural hand it
equals. A joker is wild when ``wilds.joker`` is ``wild``; when it is the ``bug`` (the
default) it stands for an ace, or for any card that makes the hand a straight or a flush
as the ranking counts them (so with two-card straights on, a bug with a deuce may be the
three of a Royal Crumpler). Straights never wrap around the ace: three-card K-A-2 is not
a straight; A-2-3 (two-card A-2) is one, three (two) high, only with ``ace_low``.

Batches (``strength_batch``) look each hand up in one table indexed by its codes in
order (54**3 entries for three cards), filled on first use with the strength of every
hand of the pack under each of its orderings, wild cards and jokers included.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations, permutations
from typing import TYPE_CHECKING, NamedTuple, NoReturn, Self

from guts.cards import Card, DeckKind, Rank
from guts.errors import HandError, OptionError
from guts.rankings.base import Category, Evaluation, Ranking, pack
from guts.rankings.wilds import Wilds

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = ["ThreeCardRanking", "TwoCardRanking"]

_ACE_CODE_RANK = 12  # code >> 2 of an ace
_DECKS = {0: DeckKind.STANDARD, 1: DeckKind.ONE_JOKER, 2: DeckKind.TWO_JOKERS}
_BOOLEANS = {"yes": True, "no": False}
_NO_WILDS = Wilds()
_BLOCK = 1 << 16
_TWO_CARD_OPTIONS = ("straights", "flushes", "ace-low", "crumpler", "order")
_THREE_CARD_OPTIONS = ("straights", "flushes", "ace-low", "order")
_EVALUATIONS_KEPT = 1 << 16
"""The most evaluations a ranking keeps (all 2,862 two-card sequences fit)."""


class _Shape(NamedTuple):
    """A natural hand's category, tie-break ranks and card codes, most significant first.

    ``straight_or_flush`` says whether the cards form a counted straight or flush shape
    (a bug may stand in such a hand for a card other than an ace).
    """

    category: Category
    ranks: tuple[int, ...]
    cards: tuple[int, ...]
    straight_or_flush: bool


class _Tables(NamedTuple):
    """Strength by card bitmask: every natural hand, and those holding no wild card."""

    natural: dict[int, int]
    fast: dict[int, int]


def _rank(code: int) -> int:
    return (code >> 2) + 2


def _mask(codes: Iterable[int]) -> int:
    key = 0
    for code in codes:
        key |= 1 << code
    return key


def _describe(shape: _Shape) -> str:
    """The hand in words: ``"Three of a kind, sevens"``, ``"Ace-king high"``."""
    ranks = [Rank(r) for r in shape.ranks]
    category = shape.category
    if category is Category.ROYAL_CRUMPLER:
        return "Royal Crumpler"
    if category is Category.THREE_OF_A_KIND:
        return f"Three of a kind, {ranks[0].plural}"
    if category is Category.STRAIGHT_FLUSH:
        return f"Straight flush, {ranks[0].word} high"
    if category is Category.STRAIGHT:
        return f"Straight, {ranks[0].word} high"
    if category is Category.FLUSH:
        return "Flush, " + "-".join(r.word for r in ranks)
    if category is Category.PAIR:
        kicker = f", {ranks[1].word} kicker" if len(ranks) > 1 else ""
        return f"Pair of {ranks[0].plural}{kicker}"
    return "-".join(r.word for r in ranks).capitalize() + " high"


class _SmallRanking(Ranking):
    """What two- and three-card Guts share: order, tables, wilds, jokers and options.

    Subclasses are frozen dataclasses with the fields ``straights``, ``flushes``,
    ``ace_low``, ``order``, ``wilds`` and ``jokers``; they say how to classify a natural
    hand (:meth:`_shape`) and which categories they have by default, and their
    ``__post_init__`` calls :meth:`_validate`, which also sets what the options imply:
    the levels of the categories, the wild card codes and the strength of every natural
    hand (built once per distinct ranking, and shared).
    """

    straights: bool
    flushes: bool
    ace_low: bool
    order: tuple[Category, ...]
    wilds: Wilds
    jokers: int
    _levels: dict[Category, int]
    _wild_codes: frozenset[int]
    _tables: _Tables
    _evaluations: dict[int, Evaluation]

    @property
    @abstractmethod
    def size(self) -> int:
        """The number of cards of a hand."""
        raise NotImplementedError

    @property
    def min_cards(self) -> int:
        """:attr:`size`: a hand holds exactly that many cards."""
        return self.size

    @property
    def max_cards(self) -> int:
        """:attr:`size`: a hand holds exactly that many cards."""
        return self.size

    @abstractmethod
    def _default_order(self) -> tuple[Category, ...]:
        """The categories in force, best first, in the rule text's usual order."""

    @abstractmethod
    def _shape(self, codes: tuple[int, ...]) -> _Shape:
        """Classify distinct natural cards given as codes, highest code first."""

    # -- construction --------------------------------------------------------------

    def _validate(self) -> None:
        """Check ``jokers`` and ``order``; store a default order as ``()``; set what the
        options imply (these are no dataclass fields: equality, hash, repr and pickles
        leave them out)."""
        if self.jokers not in _DECKS:
            raise OptionError(f"option 'jokers' must be 0, 1 or 2, not {self.jokers!r}")
        order = tuple(self.order)
        default = self._default_order()
        if order and (len(order) != len(default) or set(order) != set(default)):
            allowed = ",".join(c.value for c in default)
            given = ",".join(getattr(c, "value", str(c)) for c in order)
            raise OptionError(
                f"option 'order' must list each of these categories exactly once, best "
                f"first: {allowed} (got {given})"
            )
        object.__setattr__(self, "order", () if order == default else order)
        levels = self.categories()
        object.__setattr__(self, "_levels", {
            category: len(levels) - 1 - index for index, category in enumerate(levels)
        })  # fmt: skip
        wild = frozenset(c.code for c in self.deck.cards if self.wilds.is_wild(c))
        object.__setattr__(self, "_wild_codes", wild)
        object.__setattr__(self, "_evaluations", {})
        object.__setattr__(self, "_tables", _build_tables(self))

    @staticmethod
    def _read_options(
        options: Mapping[str, str], name: str, keys: tuple[str, ...]
    ) -> dict[str, str]:
        """Options with normalised keys; a key not in ``keys`` (the options of the ranking
        called ``name``) raises OptionError."""
        values: dict[str, str] = {}
        for raw_key, value in options.items():
            key = raw_key.strip().lower().replace("_", "-")
            if key not in keys:
                allowed = ", ".join(keys)
                raise OptionError(
                    f"unknown option {raw_key!r} for the {name} ranking: "
                    f"allowed options are {allowed}"
                )
            values[key] = value.strip()
        return values

    @staticmethod
    def _flag(values: Mapping[str, str], key: str, default: bool) -> bool:
        """A ``yes``/``no`` option."""
        if key not in values:
            return default
        try:
            return _BOOLEANS[values[key].lower()]
        except KeyError:
            raise OptionError(f"option {key!r} must be yes or no, not {values[key]!r}") from None

    @staticmethod
    def _parse_order(values: Mapping[str, str]) -> tuple[Category, ...]:
        """The ``order`` option: category keys best first, ``trips`` accepted."""
        text = values.get("order", "")
        order: list[Category] = []
        for token in text.split(","):
            if not token.strip():
                continue
            try:
                order.append(Category.parse(token))
            except ValueError:
                raise OptionError(
                    f"option 'order': {token.strip()!r} is not a hand category; use keys "
                    "like trips, straight-flush, straight, flush, pair, high-card"
                ) from None
        if text.strip() and not order:
            raise OptionError("option 'order' must list the categories, best first")
        return tuple(order)

    # -- the Ranking API -----------------------------------------------------------

    @property
    def deck(self) -> DeckKind:
        """The standard pack, plus the jokers in play."""
        return _DECKS[self.jokers]

    def check(self, cards: Sequence[Card]) -> tuple[Card, ...]:
        """Validate size, duplicates and pack (a quick test first, then the full one)."""
        hand = tuple(cards)
        if len(hand) == self.size:
            key = _mask(card.code for card in hand)
            if key.bit_count() == self.size and key >> (52 + self.jokers) == 0:
                return hand
        return super().check(hand)

    def categories(self) -> tuple[Category, ...]:
        """The categories in force, best first."""
        return self.order or self._default_order()

    def strength(self, cards: Sequence[Card]) -> int:
        """The hand's strength: a table lookup for hands without wild cards."""
        if len(cards) == self.size:
            key = 0
            for card in cards:
                key |= 1 << card.code
            value = self._tables.fast.get(key)
            if value is not None:
                return value
        hand = self.check(cards)
        naturals, wild, bugs = self._split(hand)
        if not wild and not bugs:
            return self._tables.natural[_mask(naturals)]
        return self._substitute(naturals, len(wild), len(bugs))[0]

    def evaluate(self, cards: Sequence[Card]) -> Evaluation:
        """Category, playing cards (most significant first), wild stand-ins, words.

        An evaluation depends only on the cards in their order, so each one made is kept
        (up to :data:`_EVALUATIONS_KEPT` of them) and a repeated hand is one lookup.
        """
        hand = cards if type(cards) is tuple else tuple(cards)
        key = 0
        for card in hand:
            if type(card) is not Card:
                key = -1
                break
            key = (key << 6) + card.code + 1  # digits 1-54 base 64: one key per sequence
        kept = self._evaluations
        if key >= 0:
            found = kept.get(key)
            if found is not None:
                return found
        evaluation = self._evaluate(hand)
        if key >= 0:
            if len(kept) >= _EVALUATIONS_KEPT:
                kept.clear()
            kept[key] = evaluation
        return evaluation

    def _evaluate(self, cards: Sequence[Card]) -> Evaluation:
        hand = self.check(cards)
        naturals, wild, bugs = self._split(hand)
        strength, subs = self._substitute(naturals, len(wild), len(bugs))
        stand_ins = tuple(zip(wild + bugs, (Card(code) for code in subs), strict=True))
        shape = self._shape(tuple(sorted(naturals + subs, reverse=True)))
        source = {code: Card(code) for code in naturals}
        source.update((substitute.code, card) for card, substitute in stand_ins)
        playing = tuple(source[code] for code in shape.cards)
        return Evaluation(strength, shape.category, playing, _describe(shape), stand_ins)

    def strength_batch(self, codes: NDArray[np.integer]) -> NDArray[np.int64]:
        """Strengths of an (N, size) array of codes: one lookup per row, wild hands too.

        The table (:func:`_build_dense_table`) holds every ordering of every hand of the
        pack, so hands with wild cards and jokers cost the same as natural ones. Hands are
        not validated beyond that: a repeated card or a card outside the pack raises the
        error :meth:`check` gives for it.
        """
        import numpy as np

        rows = np.asarray(codes)
        if rows.size == 0 and rows.ndim < 2:
            return np.zeros(0, np.int64)
        if rows.ndim != 2 or rows.shape[1] != self.size:
            return super().strength_batch(codes)  # the scalar path explains the error
        if rows.dtype != np.uint8 and rows.size and not 0 <= rows.min() <= rows.max() < 256:
            _reject(self, rows[np.flatnonzero(((rows < 0) | (rows > 255)).any(axis=1))[0]])
        dense = _build_dense_table(self)
        weights = _column_weights(self.size)
        out = np.empty(len(rows), np.int64)
        for start in range(0, len(rows), _BLOCK):
            block = rows[start : start + _BLOCK]
            index = weights[0].take(block[:, 0])
            for column in range(1, self.size):
                index += weights[column].take(block[:, column])
            out[start : start + _BLOCK] = dense.take(index, mode="clip")
        if len(out) and out.min() < 0:
            _reject(self, rows[int(np.argmax(out < 0))])
        return out

    def category_batch(self, codes: NDArray[np.integer]) -> NDArray[np.int64]:
        """Categories of an (N, size) array of hands, as indices into :meth:`categories`."""
        levels: NDArray[np.int64] = self.strength_batch(codes) >> 20
        return (len(self.categories()) - 1) - levels

    def options(self) -> dict[str, str]:
        """The options as ``from_options`` reads them back."""
        shown = {
            "straights": "yes" if self.straights else "no",
            "flushes": "yes" if self.flushes else "no",
            "ace-low": "yes" if self.ace_low else "no",
        }
        shown.update(self._extra_options())
        shown["order"] = ",".join(c.value for c in self.categories())
        return shown

    def _extra_options(self) -> dict[str, str]:
        return {}

    # -- internals -----------------------------------------------------------------

    def _strength_of(self, shape: _Shape) -> int:
        return pack(self._levels[shape.category], shape.ranks)

    def _split(
        self, hand: tuple[Card, ...]
    ) -> tuple[tuple[int, ...], tuple[Card, ...], tuple[Card, ...]]:
        """Natural codes (highest first), wild cards, and bug jokers of a hand."""
        wild_codes = self._wild_codes
        wild = tuple(card for card in hand if card.code in wild_codes)
        bugs = tuple(card for card in hand if card.code >= 52 and card.code not in wild_codes)
        naturals = sorted(
            (card.code for card in hand if card.code < 52 and card.code not in wild_codes),
            reverse=True,
        )
        return tuple(naturals), wild, bugs

    def _substitute(
        self, naturals: tuple[int, ...], wild: int, bugs: int
    ) -> tuple[int, tuple[int, ...]]:
        """Best strength and the cards the wild cards, then the bugs, stand for."""
        if not wild and not bugs:
            return self._tables.natural[_mask(naturals)], ()
        canonical, to_real = _relabel(naturals)
        strength, subs = _best_substitution(self, canonical, wild, bugs)
        return strength, tuple((code & ~3) | to_real[code & 3] for code in subs)


def _relabel(codes: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Rename suits in order of first appearance; return the codes and the way back.

    Suits do not rank in these games, so the renamed hand has the same value, and wild
    searches are shared between hands that differ only by suit names.
    """
    to_canonical: dict[int, int] = {}
    for code in codes:
        to_canonical.setdefault(code & 3, len(to_canonical))
    for suit in range(4):
        to_canonical.setdefault(suit, len(to_canonical))
    to_real = [0] * 4
    for real, canonical in to_canonical.items():
        to_real[canonical] = real
    renamed = tuple(sorted(((c & ~3) | to_canonical[c & 3] for c in codes), reverse=True))
    return renamed, tuple(to_real)


@lru_cache(maxsize=1 << 14)
def _best_substitution(
    ranking: _SmallRanking, naturals: tuple[int, ...], wild: int, bugs: int
) -> tuple[int, tuple[int, ...]]:
    """Search every substitution of distinct natural cards for the wilds and bugs.

    Cards of suits the hand does not hold are interchangeable, so only as many of those
    suits as there are stand-ins are tried (``naturals`` uses suits 0, 1, ... first).
    """
    count = wild + bugs
    suits = min(4, len(set(c & 3 for c in naturals)) + count)
    held = set(naturals)
    candidates = [c for c in range(51, -1, -1) if c not in held and (c & 3) < suits]
    table = ranking._tables.natural
    best: tuple[int, tuple[int, ...]] | None = None
    for subs in combinations(candidates, count):
        strength = table[_mask(naturals) | _mask(subs)]
        if best is not None and strength <= best[0]:
            continue
        arranged = subs if not bugs else _bug_arrangement(ranking, naturals, subs, bugs)
        if arranged is not None:
            best = (strength, arranged)
    if best is None:  # pragma: no cover - an ace is always free for a bug
        raise AssertionError("no substitution found")
    return best


def _bug_arrangement(
    ranking: _SmallRanking, naturals: tuple[int, ...], subs: tuple[int, ...], bugs: int
) -> tuple[int, ...] | None:
    """``subs`` ordered wilds first, bugs last, with each bug an ace or in a straight or
    flush; None if no such ordering exists."""
    shape = ranking._shape(tuple(sorted(naturals + subs, reverse=True)))
    if shape.straight_or_flush:
        return subs
    aces = [c for c in subs if c >> 2 == _ACE_CODE_RANK]
    if len(aces) < bugs:
        return None
    others = [c for c in subs if c >> 2 != _ACE_CODE_RANK]
    return (*others, *aces[bugs:], *aces[:bugs])


@cache
def _build_tables(ranking: _SmallRanking) -> _Tables:
    """Strengths of every natural hand, built once per distinct ranking.

    A natural hand's value depends only on its ranks and on whether it is one suit, so
    each such class is classified once.
    """
    natural: dict[int, int] = {}
    fast: dict[int, int] = {}
    by_class: dict[tuple[tuple[int, ...], bool], int] = {}
    wild_codes = ranking._wild_codes
    for codes in combinations(range(51, -1, -1), ranking.size):
        suits = {code & 3 for code in codes}
        hand_class = (tuple(code >> 2 for code in codes), len(suits) == 1)
        strength = by_class.get(hand_class)
        if strength is None:
            strength = by_class[hand_class] = ranking._strength_of(ranking._shape(codes))
        key = _mask(codes)
        natural[key] = strength
        if wild_codes.isdisjoint(codes):
            fast[key] = strength
    return _Tables(natural, fast if len(fast) < len(natural) else natural)


def _strength_of_codes(ranking: _SmallRanking, codes: Sequence[int]) -> int:
    """The strength of a valid hand given as card codes (wild cards searched)."""
    wild_codes = ranking._wild_codes
    naturals = tuple(sorted((c for c in codes if c < 52 and c not in wild_codes), reverse=True))
    wild = sum(1 for c in codes if c in wild_codes)
    return ranking._substitute(naturals, wild, len(codes) - len(naturals) - wild)[0]


@cache
def _build_dense_table(ranking: _SmallRanking) -> NDArray[np.int32]:
    """Strength by ``sum(code * 54**(size - 1 - i))`` for every ordering of every hand of
    the pack, wild cards and jokers included; -1 elsewhere (repeated cards, cards not in
    the pack) and in the one extra entry at the end, where invalid codes are sent.

    Each hand is solved once (natural hands from the natural table, wild ones by the
    cached substitution search) and written under all its orderings at once.
    """
    import numpy as np

    size = ranking.size
    deck = [card.code for card in ranking.deck.cards]
    hands = np.array(list(combinations(deck, size)), np.int64)
    values = np.array([_strength_of_codes(ranking, h) for h in hands.tolist()], np.int32)
    dense = np.full(54**size + 1, -1, np.int32)
    for ordering in permutations(range(size)):
        index = np.zeros(len(hands), np.int64)
        for column in ordering:
            index = index * 54 + hands[:, column]
        dense[index] = values
    return dense


@cache
def _column_weights(size: int) -> tuple[NDArray[np.int64], ...]:
    """Per column, ``code * 54**(size - 1 - column)`` for codes 0-255; a code above 53
    maps past the end of the dense table (which ``take(mode="clip")`` sends to -1)."""
    import numpy as np

    weights = []
    for column in range(size):
        weight = np.full(256, 54**size, np.int64)
        weight[:54] = np.arange(54, dtype=np.int64) * 54 ** (size - 1 - column)
        weights.append(weight)
    return tuple(weights)


def _reject(ranking: Ranking, row: NDArray[np.integer]) -> NoReturn:
    """Raise the error a player understands for a batch row that is not a hand."""
    codes = [int(code) for code in row.tolist()]
    if all(0 <= code < 54 for code in codes):
        ranking.check([Card(code) for code in codes])
    raise HandError(f"{codes} is not a {ranking.name} hand of card codes 0-53")


@dataclass(frozen=True)
class TwoCardRanking(_SmallRanking):
    """Two-card Guts: pairs, then high cards; straights, flushes, Royal Crumpler optional.

    ``straights``/``flushes`` count above other non-pairs and below pairs (a straight
    flush needs both); ``ace_low`` makes A-2 a straight (two high); ``crumpler`` makes
    2-3 of any suits the best hand. ``order`` (best first) may rearrange the categories.

    >>> from guts.cards import parse_cards
    >>> two = TwoCardRanking()
    >>> two.strength(parse_cards("2c 2d")) > two.strength(parse_cards("As Ks"))
    True
    """

    straights: bool = False
    flushes: bool = False
    ace_low: bool = False
    crumpler: bool = False
    order: tuple[Category, ...] = ()
    wilds: Wilds = _NO_WILDS
    jokers: int = 0

    def __post_init__(self) -> None:
        self._validate()

    @property
    def name(self) -> str:
        """``two-card``."""
        return "two-card"

    @property
    def size(self) -> int:
        """Two."""
        return 2

    @classmethod
    def from_options(
        cls, options: Mapping[str, str], *, wilds: Wilds = _NO_WILDS, jokers: int = 0
    ) -> Self:
        """Build from CLI strings: ``straights``, ``flushes``, ``ace-low``, ``crumpler``
        (yes|no) and ``order`` (category keys, best first)."""
        values = cls._read_options(options, "two-card", _TWO_CARD_OPTIONS)
        default = cls()
        return cls(
            straights=cls._flag(values, "straights", default.straights),
            flushes=cls._flag(values, "flushes", default.flushes),
            ace_low=cls._flag(values, "ace-low", default.ace_low),
            crumpler=cls._flag(values, "crumpler", default.crumpler),
            order=cls._parse_order(values),
            wilds=wilds,
            jokers=jokers,
        )

    def _default_order(self) -> tuple[Category, ...]:
        order = [Category.ROYAL_CRUMPLER] if self.crumpler else []
        order.append(Category.PAIR)
        if self.straights and self.flushes:
            order.append(Category.STRAIGHT_FLUSH)
        if self.straights:
            order.append(Category.STRAIGHT)
        if self.flushes:
            order.append(Category.FLUSH)
        order.append(Category.HIGH_CARD)
        return tuple(order)

    def _extra_options(self) -> dict[str, str]:
        return {"crumpler": "yes" if self.crumpler else "no"}

    def _shape(self, codes: tuple[int, ...]) -> _Shape:
        high, low = codes
        top, bottom = _rank(high), _rank(low)
        wheel = self.ace_low and (top, bottom) == (14, 2)
        straight = self.straights and (top - bottom == 1 or wheel)
        flush = self.flushes and (high & 3) == (low & 3)
        shaped = straight or flush
        if self.crumpler and (top, bottom) == (3, 2):
            return _Shape(Category.ROYAL_CRUMPLER, (), codes, shaped)
        if top == bottom:
            return _Shape(Category.PAIR, (top,), codes, False)
        if straight:
            category = Category.STRAIGHT_FLUSH if flush else Category.STRAIGHT
            return _Shape(
                category, (2,) if wheel else (top,), (low, high) if wheel else codes, True
            )
        category = Category.FLUSH if flush else Category.HIGH_CARD
        return _Shape(category, (top, bottom), codes, shaped)


@dataclass(frozen=True)
class ThreeCardRanking(_SmallRanking):
    """Three-card Guts, and Three Five Seven's first stage.

    Default order: three of a kind, straight flush, straight, flush, pair, high card.
    ``order`` (best first) rearranges it; ``straights``/``flushes`` off removes those
    categories (both off: trips > pairs > unmatched cards); ``ace_low`` makes A-2-3 a
    straight (three high). A-K-Q is always a straight; K-A-2 never is.

    >>> from guts.cards import parse_cards
    >>> stage_one = ThreeCardRanking(straights=False, flushes=False, wilds=Wilds.of([3]))
    >>> stage_one.describe(parse_cards("3c 9h 9d"))
    'Three of a kind, nines'
    """

    straights: bool = True
    flushes: bool = True
    ace_low: bool = True
    order: tuple[Category, ...] = ()
    wilds: Wilds = _NO_WILDS
    jokers: int = 0

    def __post_init__(self) -> None:
        self._validate()

    @property
    def name(self) -> str:
        """``three-card``."""
        return "three-card"

    @property
    def size(self) -> int:
        """Three."""
        return 3

    @classmethod
    def from_options(
        cls, options: Mapping[str, str], *, wilds: Wilds = _NO_WILDS, jokers: int = 0
    ) -> Self:
        """Build from CLI strings: ``straights``, ``flushes``, ``ace-low`` (yes|no) and
        ``order`` (``trips,straight-flush,straight,flush,pair,high-card``, best first)."""
        values = cls._read_options(options, "three-card", _THREE_CARD_OPTIONS)
        default = cls()
        return cls(
            straights=cls._flag(values, "straights", default.straights),
            flushes=cls._flag(values, "flushes", default.flushes),
            ace_low=cls._flag(values, "ace-low", default.ace_low),
            order=cls._parse_order(values),
            wilds=wilds,
            jokers=jokers,
        )

    def _default_order(self) -> tuple[Category, ...]:
        order = [Category.THREE_OF_A_KIND]
        if self.straights and self.flushes:
            order.append(Category.STRAIGHT_FLUSH)
        if self.straights:
            order.append(Category.STRAIGHT)
        if self.flushes:
            order.append(Category.FLUSH)
        order += [Category.PAIR, Category.HIGH_CARD]
        return tuple(order)

    def _shape(self, codes: tuple[int, ...]) -> _Shape:
        first, second, third = codes
        top, middle, bottom = _rank(first), _rank(second), _rank(third)
        if top == bottom:
            return _Shape(Category.THREE_OF_A_KIND, (top,), codes, False)
        wheel = self.ace_low and (top, middle, bottom) == (14, 3, 2)
        straight = self.straights and (top - middle == middle - bottom == 1 or wheel)
        flush = self.flushes and (first & 3) == (second & 3) == (third & 3)
        if straight:
            category = Category.STRAIGHT_FLUSH if flush else Category.STRAIGHT
            if wheel:
                return _Shape(category, (3,), (second, third, first), True)
            return _Shape(category, (top,), codes, True)
        if flush:
            return _Shape(Category.FLUSH, (top, middle, bottom), codes, True)
        if top == middle:
            return _Shape(Category.PAIR, (top, bottom), codes, False)
        if middle == bottom:
            return _Shape(Category.PAIR, (middle, top), (second, third, first), False)
        return _Shape(Category.HIGH_CARD, (top, middle, bottom), codes, False)
