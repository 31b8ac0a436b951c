"""Cards, ranks, suits and decks.

A :class:`Card` is an interned value: there is exactly one object per card, so cards
compare by identity as well as by value and cost nothing to copy. Each card has a small
integer ``code`` (``4 * (rank - 2) + suit`` for the 52 natural cards, 52 and 53 for the two
jokers) that the batch evaluators use directly.

>>> parse_cards("As Kd 10h")
(Card('As'), Card('Kd'), Card('Th'))
>>> str(parse_card("qc")), parse_card("QC").ascii
('Q♣', 'Qc')
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable, Iterator, Mapping, Sequence
from enum import Enum, IntEnum
from functools import cache
from operator import attrgetter
from random import Random

from guts.errors import CardError, HandError

__all__ = [
    "JOKER_CODES",
    "Card",
    "Deck",
    "DeckKind",
    "Rank",
    "Suit",
    "card_codes",
    "deck_cards",
    "format_cards",
    "parse_card",
    "parse_cards",
    "shuffle",
]


class Rank(IntEnum):
    """A natural rank; the value is the rank's pip count with ace high (14)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def symbol(self) -> str:
        """One character: ``2``-``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""
        return _RANK_SYMBOLS[self - 2]

    @property
    def word(self) -> str:
        """The rank's name in words: ``"ace"``."""
        return _RANK_WORDS[self - 2]

    @property
    def plural(self) -> str:
        """The plural name: ``"sixes"``, ``"aces"``."""
        return "sixes" if self is Rank.SIX else self.word + "s"


class Suit(IntEnum):
    """A suit; the value order clubs < diamonds < hearts < spades is Toh's suit order."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """The ASCII letter: ``c``, ``d``, ``h``, ``s``."""
        return "cdhs"[self]

    @property
    def symbol(self) -> str:
        """The suit symbol: ``♣``, ``♦``, ``♥``, ``♠``."""
        return "♣♦♥♠"[self]


_RANK_SYMBOLS = "23456789TJQKA"
_RANK_WORDS = (
    "two", "three", "four", "five", "six", "seven", "eight",
    "nine", "ten", "jack", "queen", "king", "ace",
)  # fmt: skip
JOKER_CODES = (52, 53)
_RANK_OF = tuple(Rank(value) for value in range(2, 15))
_SUIT_OF_CODE = tuple(Suit)


class Card:
    """One playing card, natural or joker. Construct with :func:`parse_card` or ``Card.of``."""

    __slots__ = ("ascii", "code", "is_joker", "rank", "suit")
    code: int
    ascii: str
    """The ASCII form: ``As``, ``Td``, ``Jk``."""
    rank: Rank | None
    """The rank, or None for a joker."""
    suit: Suit | None
    """The suit, or None for a joker."""
    is_joker: bool
    """True for either joker."""

    def __new__(cls, code: int) -> Card:
        """The one card of ``code`` (0-53), made the first time it is asked for."""
        if type(code) is not int or not 0 <= code < 54:
            raise CardError(f"{code!r} is not a card code: expected 0-53")
        card = _CARDS[code]
        if card is None:
            card = super().__new__(cls)
            joker = code >= 52
            object.__setattr__(card, "code", code)
            object.__setattr__(card, "is_joker", joker)
            object.__setattr__(card, "rank", None if joker else _RANK_OF[code >> 2])
            object.__setattr__(card, "suit", None if joker else _SUIT_OF_CODE[code & 3])
            ascii = "Jk" if joker else _RANK_SYMBOLS[code >> 2] + "cdhs"[code & 3]
            object.__setattr__(card, "ascii", ascii)
            _CARDS[code] = card
        return card

    @classmethod
    def of(cls, rank: Rank | int, suit: Suit | int) -> Card:
        """The natural card of ``rank`` (2-14) and ``suit``."""
        if not 2 <= rank <= 14 or not 0 <= suit <= 3:
            raise CardError(f"no card has rank {rank} and suit {suit}")
        return cls(4 * (int(rank) - 2) + int(suit))

    @classmethod
    def joker(cls, which: int = 0) -> Card:
        """The first (0) or second (1) joker."""
        return cls(JOKER_CODES[which])

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (self.code,))

    @property
    def name(self) -> str:
        """The card in words: ``"ace of spades"``, ``"joker"``."""
        if self.code >= 52:
            return "joker"
        return f"{_RANK_WORDS[self.code >> 2]} of {Suit(self.code & 3).name.lower()}"

    def __str__(self) -> str:
        if self.code >= 52:
            return "🃏"
        return ("10" if self.code >> 2 == 8 else _RANK_SYMBOLS[self.code >> 2]) + "♣♦♥♠"[
            self.code & 3
        ]

    def __repr__(self) -> str:
        return f"Card({self.ascii!r})"

    def __lt__(self, other: Card) -> bool:
        return self.code < other.code

    def __hash__(self) -> int:
        return self.code

    def __eq__(self, other: object) -> bool:
        return self is other


_CARDS: list[Card | None] = [None] * 54
"""Every card made so far, by code: there is one object per card."""


_TOKEN = re.compile(
    r"(?P<joker>joker|jk|🃏)|(?P<rank>10|[2-9tjqka])(?P<suit>[shdc♠♥♦♣])", re.IGNORECASE
)
_SUIT_OF = {"c": 0, "d": 1, "h": 2, "s": 3, "♣": 0, "♦": 1, "♥": 2, "♠": 3}
_EXPECTED = "expected a rank (2-10, J, Q, K, A) and a suit (s, h, d, c), or 'jk' for a joker"


def _card_from_match(match: re.Match[str], jokers_seen: int) -> Card:
    if match.group("joker"):
        if jokers_seen >= 2:
            raise CardError("there are only two jokers")
        return Card.joker(jokers_seen)
    rank_text = match.group("rank").upper()
    rank = 10 if rank_text == "10" else _RANK_SYMBOLS.index(rank_text) + 2
    return Card.of(rank, _SUIT_OF[match.group("suit").lower()])


def parse_card(text: str) -> Card:
    """Parse one card: ``As``, ``td``, ``10D``, ``A♠``, ``jk`` or ``joker``."""
    token = text.strip()
    match = _TOKEN.fullmatch(token)
    if match is None:
        raise CardError(f"{token!r} is not a card: {_EXPECTED}")
    return _card_from_match(match, 0)


def _tokens(text: str) -> Iterator[re.Match[str]]:
    for chunk in text.replace(",", " ").split():
        position = 0
        while position < len(chunk):
            match = _TOKEN.match(chunk, position)
            if match is None:
                bad = _bad_token(chunk, position)
                raise CardError(f"{bad!r} is not a card: {_EXPECTED}")
            yield match
            position = match.end()


def _bad_token(chunk: str, position: int) -> str:
    """The smallest piece of ``chunk`` at ``position`` worth naming in an error."""
    rest = chunk[position:]
    following = _TOKEN.search(chunk, position + 1)
    end = following.start() if following is not None else len(chunk)
    return rest[: max(end - position, 2)] if len(rest) > 1 else rest


def parse_cards(text: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Parse a hand: ``"As Kd 10h"``, ``"AsKd10h"``, or an iterable of tokens or cards.

    Duplicate cards are an error. Repeated ``jk`` tokens name the first, then the second
    joker, so a printed hand parses back to the same cards.
    """
    cards: list[Card] = []
    jokers = 0
    items = [text] if isinstance(text, str) else list(text)
    for item in items:
        if isinstance(item, Card):
            found = [item]
        else:
            found = []
            for match in _tokens(item):
                found.append(_card_from_match(match, jokers))
                jokers += found[-1].is_joker
            if not isinstance(text, str) and len(found) != 1:
                raise CardError(f"{item!r} is not a card: {_EXPECTED}")
        cards.extend(found)
    check_distinct(cards)
    return tuple(cards)


def check_distinct(cards: Sequence[Card]) -> None:
    """Raise :class:`HandError` naming the first card that appears twice."""
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise HandError(f"duplicate card {card.ascii}: each card can be used only once")
        seen.add(card)


def format_cards(cards: Iterable[Card], *, ascii: bool = False) -> str:
    """Space-separated cards, ``A♠ K♦`` (or ``As Kd`` with ``ascii=True``)."""
    return " ".join(card.ascii if ascii else str(card) for card in cards)


class DeckKind(Enum):
    """The packs the rule texts use."""

    STANDARD = "52"
    ONE_JOKER = "53"
    TWO_JOKERS = "54"
    STRIPPED = "32"

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card of this pack, in a fixed new-deck order."""
        return deck_cards(self)

    @property
    def jokers(self) -> int:
        """How many jokers the pack has."""
        return {"53": 1, "54": 2}.get(self.value, 0)

    @property
    def lowest_rank(self) -> Rank:
        """The lowest natural rank in the pack (seven for the stripped deck)."""
        return Rank.SEVEN if self is DeckKind.STRIPPED else Rank.TWO

    def check(self, cards: Iterable[Card]) -> None:
        """Raise :class:`CardError` for the first card not in this pack."""
        allowed = _deck_set(self)
        for card in cards:
            if card not in allowed:
                raise CardError(f"{card.ascii} is not in the {self.describe()}")

    def describe(self) -> str:
        """The pack in words: ``"52-card pack"``, ``"32-card stripped pack (7 to A)"``."""
        if self is DeckKind.STRIPPED:
            return "32-card stripped pack (7 to A)"
        extra = {0: "", 1: " with one joker", 2: " with two jokers"}[self.jokers]
        return f"{self.value}-card pack{extra}"


def _numbered_jokers(
    pieces: Mapping[int | None, tuple[Card, ...]], pool: Sequence[Card], name: str
) -> dict[int | None, tuple[Card, ...]]:
    """``pieces`` with each joker, in order, replaced by the pack's next joker."""
    jokers = [card for card in pool if card.is_joker]
    given = sum(card.is_joker for cards in pieces.values() for card in cards)
    if not jokers:
        return dict(pieces)  # a joker given is then refused as not in the pack
    if given > len(jokers):
        raise CardError(f"Jk appears {given} times: the {name} has {len(jokers)}")
    left = iter(jokers)
    return {
        key: tuple(next(left) if card.is_joker else card for card in cards)
        for key, cards in pieces.items()
    }


@cache
def _deck_set(kind: DeckKind) -> frozenset[Card]:
    return frozenset(deck_cards(kind))


@cache
def deck_cards(kind: DeckKind) -> tuple[Card, ...]:
    """All the cards of a pack, lowest code first."""
    low = kind.lowest_rank - 2
    naturals = tuple(Card(code) for code in range(4 * low, 52))
    return naturals + tuple(Card.joker(i) for i in range(kind.jokers))


@cache
def _pack(value: str) -> tuple[Card, ...]:
    """:func:`deck_cards` of the kind of pack of this value (an Enum hashes in Python, its
    value in C)."""
    return deck_cards(DeckKind(value))


_PLAIN_SHUFFLE = getattr(Random, "_randbelow", None) is getattr(
    Random, "_randbelow_with_getrandbits", 0
)
"""True when ``Random.shuffle`` draws each index with ``getrandbits`` (as CPython's does),
which :func:`_shuffle` repeats without a method call per card."""


@cache
def _plan(size: int) -> tuple[tuple[tuple[int, int, int, int, int, int], ...], tuple[int, ...]]:
    """For a pack of ``size`` cards: for each position from the last down, the position, how
    many cards it draws among, and the bits ``getrandbits`` takes for that; two positions to
    a step, and the last position alone when their number is odd."""
    steps = [(i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1)]
    pairs = tuple(a + b for a, b in zip(steps[0::2], steps[1::2], strict=False))  # (odd: one left)
    return pairs, steps[-1] if len(steps) % 2 else ()


def _shuffle(rng: Random, cards: list[Card]) -> None:
    """``rng.shuffle(cards)`` exactly (the same order, the same draws from ``rng``), for a
    plain ``random.Random``: CPython's Fisher-Yates with rejection sampling, inlined, two
    positions a step. Kept because ``Random.shuffle`` is interpreted Python that costs 2.4x
    this in Python and more against this module compiled; every stored deck depends on the
    order, which a property test checks against ``Random.shuffle``."""
    getrandbits = rng.getrandbits
    pairs, odd = _plan(len(cards))
    for i, n, k, i2, n2, k2 in pairs:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]
        j = getrandbits(k2)
        while j >= n2:
            j = getrandbits(k2)
        cards[i2], cards[j] = cards[j], cards[i2]
    if odd:
        i, n, k = odd
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def shuffle(cards: list[Card], rng: Random) -> None:
    """Shuffle ``cards`` in place exactly as ``rng.shuffle(cards)`` does (the same order,
    the same draws from ``rng``), about twice as fast for a plain ``random.Random``."""
    if type(rng) is Random and _PLAIN_SHUFFLE:
        _shuffle(rng, cards)
    else:
        rng.shuffle(cards)


_ASCII = attrgetter("ascii")


def card_codes(cards: Iterable[Card]) -> tuple[str, ...]:
    """The cards' ASCII codes, in order, as records write them.

    >>> card_codes(parse_cards("As 10h"))
    ('As', 'Th')
    """
    return tuple(map(_ASCII, cards))


class Deck:
    """The stock: cards to be dealt, top card first.

    ``Deck.shuffled(kind, rng)`` shuffles with the injected random source (unpredictable
    ``secrets.SystemRandom()`` when none is given); ``Deck.stacked(cards, kind)`` deals an
    explicit order, for tests and replays, and is accepted wherever a shuffled deck is.
    """

    __slots__ = ("_cards", "kind")

    def __init__(self, cards: Iterable[Card], kind: DeckKind = DeckKind.STANDARD) -> None:
        self._cards = list(cards)
        self.kind = kind

    @classmethod
    def shuffled(cls, kind: DeckKind = DeckKind.STANDARD, rng: Random | None = None) -> Deck:
        """A full pack of ``kind`` in random order."""
        cards = list(_pack(kind._value_) if type(kind) is DeckKind else deck_cards(kind))
        if type(rng) is Random and _PLAIN_SHUFFLE:
            _shuffle(rng, cards)
        else:
            shuffle(cards, rng if rng is not None else secrets.SystemRandom())
        return cls(cards, kind)

    @classmethod
    def stacked(cls, cards: str | Iterable[str | Card], kind: DeckKind = DeckKind.STANDARD) -> Deck:
        """A deck that deals exactly ``cards`` in order (it may be shorter than a pack)."""
        parsed = parse_cards(cards)
        kind.check(parsed)
        return cls(parsed, kind)

    @classmethod
    def dealing(
        cls,
        hands: Mapping[int, str | Iterable[str | Card]],
        seats: Sequence[int],
        size: int,
        then: str | Iterable[str | Card] = "",
        kind: DeckKind = DeckKind.STANDARD,
        *,
        pack: Sequence[Card] | None = None,
        pack_name: str = "",
        widow_after: int | None = None,
    ) -> Deck:
        """A whole pack that deals ``hands`` (seat -> ``size`` cards) one card at a time to
        ``seats`` in order, round by round; then ``then``, then the rest of ``pack`` (every
        card of ``kind`` when None) in its order. A seat left out of ``hands`` gets the
        lowest unused cards; with ``widow_after``, the first card of ``then`` (or the lowest
        unused card) comes after that many rounds. Jokers are numbered as they come, so
        ``Jk`` may appear in two hands of a two-joker pack.

        A seat not in ``seats``, a hand not of ``size`` cards, a card twice or a card not in
        the pack (``pack_name`` in the message) raises a GutsError naming it.

        >>> deck = Deck.dealing({0: "As Ad", 1: "Kc Kd"}, seats=(1, 0), size=2, then="Qh")
        >>> format_cards(deck.cards[:6], ascii=True), len(deck)
        ('Kc As Kd Ad Qh 2c', 52)
        """
        pool = tuple(pack) if pack is not None else deck_cards(kind)
        name = pack_name or kind.describe()
        if not isinstance(hands, Mapping):
            raise HandError(f"hands: a mapping of seat number -> cards, not {type(hands).__name__}")
        pieces: dict[int | None, tuple[Card, ...]] = {}
        for seat, cards in hands.items():
            if isinstance(seat, bool) or seat not in seats:
                dealt = ", ".join(str(s) for s in seats)
                raise HandError(f"seat {seat!r} is not dealt in: the seats dealt in are {dealt}")
            pieces[seat] = parse_cards(cards)
            if len(pieces[seat]) != size:
                count = len(pieces[seat])
                raise HandError(f"seat {seat}'s hand has {count} card{'s' * (count != 1)}: "
                                f"each seat is dealt {size}")  # fmt: skip
        pieces[None] = parse_cards(then)
        given = _numbered_jokers(pieces, pool, name)
        check_distinct([card for cards in given.values() for card in cards])
        allowed = frozenset(pool)
        for card in (card for cards in given.values() for card in cards):
            if card not in allowed:
                raise CardError(f"{card.ascii} is not in the {name}")
        used = {card for cards in given.values() for card in cards}
        spare = iter([card for card in pool if card not in used])
        extra = list(given.pop(None))

        def take() -> Card:
            card = next(spare, None)
            if card is None:
                raise HandError(f"{len(seats)} hands of {size} cards: the {name} runs out")
            return card

        order: list[Card] = []
        for index in range(size):
            order += [given[seat][index] if seat in given else take() for seat in seats]
            if widow_after == index + 1:
                order.append(extra.pop(0) if extra else take())
        return cls([*order, *extra, *spare], kind)

    def deal(self, count: int = 1) -> tuple[Card, ...]:
        """Take ``count`` cards off the top."""
        if count > len(self._cards):
            raise HandError(f"cannot deal {count} cards: only {len(self._cards)} remain")
        dealt = tuple(self._cards[:count])
        del self._cards[:count]
        return dealt

    def take(self, count: int) -> list[Card]:
        """Take ``count`` cards off the top, as a new list (:meth:`deal` as a list).

        >>> deck = Deck.stacked("2c 3c 4c"); deck.take(2), len(deck)
        ([Card('2c'), Card('3c')], 1)
        """
        cards = self._cards
        if count > len(cards):
            raise HandError(f"cannot deal {count} cards: only {len(cards)} remain")
        dealt = cards[:count]
        del cards[:count]
        return dealt

    def deal_around(self, rounds: int, hands: int) -> list[list[Card]]:
        """Deal ``rounds`` cards to each of ``hands`` hands, one card at a time, round by
        round, hand 0 first in each round; each hand's cards in the order dealt.

        >>> [format_cards(h, ascii=True) for h in Deck.stacked("2c 3c 4c 5c 6c").deal_around(2, 2)]
        ['2c 4c', '3c 5c']
        """
        count = rounds * hands
        cards = self._cards
        if count > len(cards):
            raise HandError(f"cannot deal {count} cards: only {len(cards)} remain")
        dealt = cards[:count]
        del cards[:count]
        return [dealt[hand::hands] for hand in range(hands)]

    def deal_one(self) -> Card:
        """Take the top card."""
        if not self._cards:
            raise HandError("cannot deal 1 cards: only 0 remain")
        return self._cards.pop(0)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The remaining cards, top first."""
        return tuple(self._cards)

    @property
    def codes(self) -> tuple[str, ...]:
        """The remaining cards' ASCII codes, top first (as a record writes them)."""
        return tuple([card.ascii for card in self._cards])  # (twice map(attrgetter)'s speed)

    def __len__(self) -> int:
        return len(self._cards)

    def __repr__(self) -> str:
        return f"Deck({format_cards(self._cards, ascii=True)!r})"
