"""Batch evaluation of every ranking but high: ``strength_batch`` and ``category_batch``
equal the scalar ``strength`` and ``category`` hand by hand, for every option set, on
seeded random samples, on hypothesis examples and on full enumerations; and the census
module on these rankings (category counts derived here by combinatorics).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from itertools import combinations, product
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from guts.cards import Card, parse_cards
from guts.census import census, hands, sample_census
from guts.errors import GutsError, HandError
from guts.rankings import make_ranking
from guts.rankings.base import Category, Ranking
from guts.rankings.high import HighRanking
from guts.rankings.low import LowRanking
from guts.rankings.single import SingleCardRanking
from guts.rankings.small import ThreeCardRanking, TwoCardRanking
from guts.rankings.stripped import StrippedRanking
from guts.rankings.wilds import Wilds

C = Category
ONE_EYED_JACKS = parse_cards("Js Jh")
WILD_JOKER = Wilds.of(joker="wild")

TWO_CARD_OPTIONS = [
    TwoCardRanking(straights=s, flushes=f, ace_low=a, crumpler=c)
    for s, f, a, c in product([False, True], repeat=4)
]
TWO_CARD_WILD = [
    TwoCardRanking(wilds=Wilds.of([2])),
    TwoCardRanking(straights=True, wilds=Wilds.of([2], ONE_EYED_JACKS)),
    TwoCardRanking(jokers=1),
    TwoCardRanking(straights=True, flushes=True, crumpler=True, jokers=2),
    TwoCardRanking(jokers=2, wilds=WILD_JOKER),
    TwoCardRanking(crumpler=True, order=(C.PAIR, C.ROYAL_CRUMPLER, C.HIGH_CARD)),
]
THREE_CARD_OPTIONS = [
    ThreeCardRanking(straights, flushes, ace_low)
    for straights, flushes, ace_low in product([True, False], repeat=3)
]
THREE_CARD_OTHER = [
    ThreeCardRanking(order=(C.STRAIGHT_FLUSH, C.THREE_OF_A_KIND, C.STRAIGHT, C.FLUSH,
                            C.PAIR, C.HIGH_CARD)),
    ThreeCardRanking(order=(C.THREE_OF_A_KIND, C.STRAIGHT_FLUSH, C.FLUSH, C.STRAIGHT,
                            C.PAIR, C.HIGH_CARD)),
    ThreeCardRanking(straights=False, flushes=False, wilds=Wilds.of([3])),
    ThreeCardRanking(wilds=Wilds.of([3])),
    ThreeCardRanking(wilds=Wilds.of([2], ONE_EYED_JACKS)),
    ThreeCardRanking(jokers=1),
    ThreeCardRanking(jokers=2),
    ThreeCardRanking(straights=False, flushes=False, jokers=2),
    ThreeCardRanking(jokers=1, wilds=WILD_JOKER),
    ThreeCardRanking(jokers=2, wilds=Wilds.of([2], joker="wild")),
]  # fmt: skip
LOWS = [
    *(LowRanking(pairs=p, jokers=jokers) for p in ("bad", "strong") for jokers in (0, 1, 2)),
    LowRanking(wilds=Wilds.of([2])),
    LowRanking(jokers=2, wilds=Wilds.of([2], ONE_EYED_JACKS, joker="wild")),
]
STRIPPED = StrippedRanking()
SINGLE = SingleCardRanking()

CASES: list[tuple[Ranking, int, int]] = [
    *((r, 2, 2) for r in TWO_CARD_OPTIONS + TWO_CARD_WILD),
    *((r, 3, 3) for r in THREE_CARD_OPTIONS + THREE_CARD_OTHER),
    *((r, 1, 7) for r in LOWS),
    (STRIPPED, 5, 7),
    (SINGLE, 1, 1),
]
"""Every ranking and option set checked here, with its hand sizes."""


def label(ranking: Ranking) -> str:
    options = ",".join(f"{key}={value}" for key, value in ranking.options().items())
    wilds: Wilds | None = getattr(ranking, "wilds", None)
    if wilds is not None and (wilds or wilds.joker.value == "wild"):
        options += f",wild={wilds.spec()},joker={wilds.joker.value}"
    jokers = getattr(ranking, "jokers", 0)
    if jokers and "jokers" not in ranking.options():
        options += f",jokers={jokers}"
    return f"{ranking.name}[{options}]"


def deck_codes(ranking: Ranking) -> list[int]:
    return [card.code for card in ranking.deck.cards]


def sample(ranking: Ranking, size: int, count: int, seed: int) -> NDArray[np.uint8]:
    """``count`` random hands of ``size`` distinct cards of the ranking's pack."""
    deck = np.array(deck_codes(ranking), np.uint8)
    keys = np.random.default_rng(seed).random((count, len(deck)))
    return deck[np.argsort(keys, axis=1)[:, :size]]


def every_hand(ranking: Ranking, size: int) -> NDArray[np.uint8]:
    return np.array(list(combinations(deck_codes(ranking), size)), np.uint8)


def scalar_strengths(ranking: Ranking, rows: NDArray[np.integer]) -> list[int]:
    return [ranking.strength([Card(code) for code in row]) for row in rows.tolist()]


def scalar_categories(ranking: Ranking, rows: NDArray[np.integer]) -> list[int]:
    """Category indices (into ``categories()``) from full scalar evaluations."""
    order = {category: index for index, category in enumerate(ranking.categories())}
    return [order[ranking.evaluate([Card(c) for c in row]).category] for row in rows.tolist()]


def assert_batch_matches(ranking: Ranking, rows: NDArray[np.integer], stride: int = 1) -> None:
    """Batch strengths equal scalar ones on every row; categories on every ``stride``-th
    row and on one row of each strength (the batch reads the category off the strength)."""
    strengths = ranking.strength_batch(rows)
    assert strengths.tolist() == scalar_strengths(ranking, rows)
    _values, first = np.unique(strengths, return_index=True)
    picked = np.union1d(first, np.arange(0, len(rows), stride))
    categories = ranking.category_batch(rows)[picked].tolist()
    assert categories == scalar_categories(ranking, rows[picked])


# -- seeded samples ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ranking", "size"),
    [(r, s) for r, low, high in CASES for s in range(low, high + 1)],
    ids=lambda value: label(value) if isinstance(value, Ranking) else str(value),
)
def test_batch_equals_scalar_on_seeded_samples(ranking: Ranking, size: int) -> None:
    count = 3000 if isinstance(ranking, StrippedRanking) else 1200
    rows = sample(ranking, size, count, seed=size)
    assert_batch_matches(ranking, rows)


@pytest.mark.parametrize("ranking", [r for r, _low, _high in CASES], ids=label)
def test_batch_ignores_card_order_and_dtype(ranking: Ranking) -> None:
    size = ranking.max_cards if isinstance(ranking, LowRanking) else ranking.min_cards
    rows = sample(ranking, size, 500, seed=99)
    expected = ranking.strength_batch(rows)
    assert expected.dtype == np.int64
    rng = np.random.default_rng(7)
    for dtype in ("uint8", "int16", "int32", "int64"):
        shuffled = rng.permuted(rows, axis=1).astype(dtype)
        assert (ranking.strength_batch(shuffled) == expected).all()
        assert (ranking.category_batch(shuffled) == ranking.category_batch(rows)).all()


@pytest.mark.parametrize("ranking", [r for r, _low, _high in CASES], ids=label)
def test_empty_batches_and_wrong_shapes(ranking: Ranking) -> None:
    for size in (ranking.min_cards, ranking.max_cards):
        assert ranking.strength_batch(np.zeros((0, size), np.uint8)).tolist() == []
        assert ranking.category_batch(np.zeros((0, size), np.uint8)).tolist() == []
    assert ranking.strength_batch(np.zeros(0, np.uint8)).tolist() == []
    with pytest.raises(HandError):
        ranking.strength_batch(np.full((2, ranking.max_cards + 1), 40, np.uint8))


# -- hypothesis -------------------------------------------------------------------------


@st.composite
def ranked_hands(draw: st.DrawFn) -> tuple[Ranking, list[int]]:
    ranking, low, high = draw(st.sampled_from(CASES))
    codes = draw(
        st.lists(st.sampled_from(deck_codes(ranking)), min_size=low, max_size=high, unique=True)
    )
    return ranking, codes


@settings(max_examples=400, deadline=None)
@given(ranked_hands())
def test_batch_equals_scalar_property(case: tuple[Ranking, list[int]]) -> None:
    ranking, codes = case
    rows = np.array([codes, codes[::-1]], np.uint8)
    strength = ranking.strength([Card(code) for code in codes])
    category = ranking.categories().index(ranking.category([Card(code) for code in codes]))
    assert ranking.strength_batch(rows).tolist() == [strength, strength]
    assert ranking.strength_batch(rows.astype(np.int64)).tolist() == [strength, strength]
    assert ranking.category_batch(rows).tolist() == [category, category]


# -- full enumerations ------------------------------------------------------------------


@pytest.mark.parametrize("ranking", TWO_CARD_OPTIONS + TWO_CARD_WILD, ids=label)
def test_every_two_card_hand(ranking: TwoCardRanking) -> None:
    rows = every_hand(ranking, 2)
    assert len(rows) == comb(52 + ranking.jokers, 2)
    assert_batch_matches(ranking, rows)
    assert_batch_matches(ranking, rows[:, ::-1], stride=5)


@pytest.mark.parametrize("ranking", THREE_CARD_OPTIONS + THREE_CARD_OTHER, ids=label)
def test_every_three_card_hand(ranking: ThreeCardRanking) -> None:
    rows = every_hand(ranking, 3)
    assert len(rows) == comb(52 + ranking.jokers, 3)
    assert_batch_matches(ranking, rows, stride=5)
    assert (ranking.strength_batch(rows[:, [2, 0, 1]]) == ranking.strength_batch(rows)).all()


def test_every_single_card() -> None:
    rows = every_hand(SINGLE, 1)
    assert_batch_matches(SINGLE, rows)
    assert len(set(SINGLE.strength_batch(rows).tolist())) == 52


def test_every_stripped_five_card_hand() -> None:
    rows = every_hand(STRIPPED, 5)
    assert len(rows) == comb(32, 5) == 201_376
    strengths = STRIPPED.strength_batch(rows)
    expected = [STRIPPED.strength([Card(code) for code in row]) for row in rows.tolist()]
    assert strengths.tolist() == expected
    order = STRIPPED.categories()
    categories = STRIPPED.category_batch(rows)
    # Every strength belongs to one category, and a better category has bigger strengths.
    tops = [int(strengths[categories == index].max()) for index in range(len(order))]
    bottoms = [int(strengths[categories == index].min()) for index in range(len(order))]
    assert all(low > high for low, high in zip(bottoms, tops[1:], strict=False))


def rank_classes(rows: NDArray[np.uint8]) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """One representative row per sorted rank multiset, and each row's class."""
    ranks = np.sort(rows >> 2, axis=1).astype(np.int64)
    keys = ranks @ (13 ** np.arange(rows.shape[1], dtype=np.int64))
    _unique, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    return first, inverse.reshape(-1)


def test_every_low_five_card_hand() -> None:
    """All 2,598,960 hands: low strength depends on the ranks only (the scalar tests check
    that), so each rank class is evaluated once by the scalar path and compared with the
    batch strength of every hand of the class."""
    low = LowRanking()
    rows = np.concatenate(list(hands(low.deck.cards, 5)))
    assert len(rows) == comb(52, 5)
    first, inverse = rank_classes(rows)
    assert len(first) == comb(13 + 4, 5) - 13  # multisets of five ranks, no five of a kind
    expected = np.array(scalar_strengths(low, rows[first]), np.int64)
    assert (low.strength_batch(rows) == expected[inverse]).all()


@pytest.mark.parametrize("size", [6, 7])
def test_low_best_five_of_more_is_the_best_five_card_part(size: int) -> None:
    """Batches of six and seven cards against the batch of every five-card part."""
    for low in (LowRanking(), LowRanking(pairs="strong", jokers=2), LOWS[-1]):
        rows = sample(low, size, 3000, seed=size)
        parts = [low.strength_batch(rows[:, list(part)]) for part in combinations(range(size), 5)]
        assert (low.strength_batch(rows) == np.max(parts, axis=0)).all()


def test_stripped_best_five_of_more_is_the_best_five_card_part() -> None:
    for size in (6, 7):
        rows = sample(STRIPPED, size, 3000, seed=size)
        parts = [STRIPPED.strength_batch(rows[:, list(p)]) for p in combinations(range(size), 5)]
        assert (STRIPPED.strength_batch(rows) == np.max(parts, axis=0)).all()


def test_hands_of_only_wild_cards() -> None:
    """Every size of hand made of wild cards and jokers alone (rare in random samples)."""
    rankings: list[LowRanking | ThreeCardRanking | TwoCardRanking] = [
        LOWS[-1], THREE_CARD_OTHER[-1], TWO_CARD_WILD[1], TWO_CARD_WILD[4]
    ]  # fmt: skip
    for ranking in rankings:
        cards = ranking.deck.cards
        wild = [card.code for card in cards if card.is_joker or ranking.wilds.is_wild(card)]
        for size in range(ranking.min_cards, ranking.max_cards + 1):
            rows = np.array(list(combinations(wild, size))[:200], np.uint8)
            assert_batch_matches(ranking, rows)


@pytest.mark.parametrize("size", [5, 6, 7])
def test_stripped_flush_heavy_hands(size: int) -> None:
    """Every hand from the eight hearts and four other cards: flushes of five to seven
    cards, straight flushes, and flushes beside straights, pairs and trips."""
    pool = [card.code for card in parse_cards("7h 8h 9h 10h Jh Qh Kh Ah 9s 9d Qc Ad")]
    rows = np.array(list(combinations(pool, size)), np.uint8)
    assert_batch_matches(STRIPPED, rows)


# -- bad input --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ranking", "row"),
    [
        (SINGLE, [52]),
        (SINGLE, [200]),
        (TwoCardRanking(), [52, 3]),
        (TwoCardRanking(), [7, 7]),
        (ThreeCardRanking(jokers=1), [53, 1, 2]),
        (ThreeCardRanking(), [0, 1, 255]),
        (LowRanking(), [52, 1, 2, 3, 4]),
        (LowRanking(jokers=1), [0, 1, 2, 3, 60]),
        (STRIPPED, [0, 40, 41, 42, 43]),
        (STRIPPED, [52, 40, 41, 42, 43]),
        (HighRanking(), [52, 1, 2, 3, 4]),
        (HighRanking(), [0, 1, 2, 3, 4, 5, 53]),
        (HighRanking(wilds=Wilds.of([2])), [0, 1, 2, 3, 60]),
        (HighRanking(jokers=1), [53, 1, 2, 3, 4, 5]),
        (HighRanking(jokers=2), [0, 1, 2, 54]),
        (HighRanking(), [0, 1, 2, 3, 255]),
    ],
    ids=str,
)
def test_cards_outside_the_pack_are_errors(ranking: Ranking, row: list[int]) -> None:
    for dtype in ("uint8", "int64"):
        good = sample(ranking, len(row), 3, seed=1)
        rows = np.vstack([good, np.array([row])]).astype(dtype)
        with pytest.raises(GutsError):
            ranking.strength_batch(rows)


@pytest.mark.parametrize(
    "ranking", [SINGLE, TwoCardRanking(), LowRanking(), STRIPPED, HighRanking()], ids=label
)
def test_negative_codes_are_errors(ranking: Ranking) -> None:
    rows = sample(ranking, ranking.min_cards, 2, seed=3).astype(np.int64)
    rows[1, 0] = -1
    with pytest.raises(GutsError):
        ranking.strength_batch(rows)


def test_importing_the_rankings_loads_no_numpy() -> None:
    code = (
        "import sys, guts, guts.census\n"
        "from guts.rankings import make_ranking\n"
        "for name in ('low', 'stripped', 'two-card', 'three-card', 'single'):\n"
        "    make_ranking(name)\n"
        "print('numpy' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)  # fmt: skip
    assert out.stdout.split() == ["False"]


# -- the census module on rankings other than high --------------------------------------

LOW_FIVE = {
    C.HIGH_CARD: comb(13, 5) * 4**5,  # straights and flushes do not count in low
    C.PAIR: 13 * comb(4, 2) * comb(12, 3) * 4**3,
    C.TWO_PAIR: comb(13, 2) * comb(4, 2) ** 2 * 11 * 4,
    C.THREE_OF_A_KIND: 13 * comb(4, 3) * comb(12, 2) * 4**2,
    C.FULL_HOUSE: 13 * comb(4, 3) * 12 * comb(4, 2),
    C.FOUR_OF_A_KIND: 13 * 48,
}


def test_low_census_counts_every_hand() -> None:
    result = census(make_ranking("low"), 5)
    assert result.total == comb(52, 5) == sum(LOW_FIVE.values())
    assert result.categories == LOW_FIVE
    assert result.classes == comb(13 + 4, 5) - 13
    # A no-pair hand topped by low rank t holds four lower ranks: C(t - 1, 4) rank sets.
    words = {5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10", 11: "J", 12: "Q", 13: "K"}
    expected = {words[t]: comb(t - 1, 4) * 4**5 for t in range(5, 14)}
    assert result.no_pair_by_top_card == expected


def test_low_sample_census_intervals_hold_the_exact_shares() -> None:
    low = make_ranking("low")
    result = sample_census(low, 5, 20000, seed=1)
    assert result.sampled and result.total == 20000
    assert sum(result.categories.values()) == 20000
    for category, (lower, upper) in result.intervals.items():
        assert lower <= LOW_FIVE[category] / comb(52, 5) <= upper
    again = sample_census(low, 5, 20000, seed=1)
    assert again.categories == result.categories and again.intervals == result.intervals
    other = sample_census(low, 5, 20000, seed=2)
    assert other.categories != result.categories


def test_stripped_census_counts_every_hand() -> None:
    ranks, suits, windows = 8, 4, 5
    no_run = comb(ranks, 5) - windows
    expected = {
        C.STRAIGHT_FLUSH: windows * suits,
        C.FOUR_OF_A_KIND: ranks * 28,
        C.FLUSH: suits * no_run,
        C.FULL_HOUSE: ranks * 4 * (ranks - 1) * 6,
        C.STRAIGHT: windows * (suits**5 - suits),
        C.THREE_OF_A_KIND: ranks * 4 * comb(ranks - 1, 2) * suits**2,
        C.TWO_PAIR: comb(ranks, 2) * 36 * (ranks - 2) * suits,
        C.PAIR: ranks * 6 * comb(ranks - 1, 3) * suits**3,
        C.HIGH_CARD: no_run * (suits**5 - suits),
    }
    result = census(make_ranking("stripped"), 5)
    assert result.total == comb(32, 5) == sum(expected.values())
    assert result.categories == expected
    sampled = sample_census(make_ranking("stripped"), 6, 5000, seed=4)
    assert sampled.total == 5000 and sum(sampled.categories.values()) == 5000


def three_card_counts(straights: bool, flushes: bool, ace_low: bool) -> dict[Category, int]:
    """Three-card hands by category, from combinatorics."""
    runs = (12 if ace_low else 11) if straights else 0  # A-K-Q .. 4-3-2, and A-2-3
    singles = comb(13, 3) - runs  # unpaired rank sets that are not a counted straight
    counts = {C.THREE_OF_A_KIND: 13 * comb(4, 3), C.PAIR: 13 * comb(4, 2) * 48}
    if straights and flushes:
        counts[C.STRAIGHT_FLUSH] = runs * 4
        counts[C.STRAIGHT] = runs * (4**3 - 4)
        counts[C.FLUSH] = singles * 4
        counts[C.HIGH_CARD] = singles * (4**3 - 4)
    elif straights:
        counts[C.STRAIGHT] = runs * 4**3
        counts[C.HIGH_CARD] = singles * 4**3
    elif flushes:
        counts[C.FLUSH] = comb(13, 3) * 4
        counts[C.HIGH_CARD] = comb(13, 3) * (4**3 - 4)
    else:
        counts[C.HIGH_CARD] = comb(13, 3) * 4**3
    return counts


@pytest.mark.parametrize("ranking", THREE_CARD_OPTIONS, ids=label)
def test_three_card_census_counts_every_hand(ranking: ThreeCardRanking) -> None:
    result = census(ranking, 3)
    assert result.total == comb(52, 3)
    expected = three_card_counts(ranking.straights, ranking.flushes, ranking.ace_low)
    assert result.categories == expected
    assert sum(expected.values()) == comb(52, 3)


@pytest.mark.parametrize(
    ("ranking", "size"),
    [
        (make_ranking("two-card"), 2),
        (make_ranking("two-card", {"straights": "yes"}, jokers=2), 2),
        (make_ranking("three-card", wilds=Wilds.of([2], ONE_EYED_JACKS), jokers=2), 3),
        (make_ranking("single"), 1),
        (make_ranking("low", jokers=1), 4),
        (make_ranking("low", {"pairs": "strong"}), 2),
    ],
    ids=lambda value: label(value) if isinstance(value, Ranking) else str(value),
)
def test_census_totals_are_every_hand_of_the_pack(ranking: Ranking, size: int) -> None:
    result = census(ranking, size)
    assert result.total == sum(result.categories.values()) == comb(len(ranking.deck.cards), size)
    assert set(result.categories) == set(ranking.categories())
    strengths = np.concatenate([ranking.strength_batch(b) for b in hands(ranking.deck.cards, size)])
    assert result.classes == len(np.unique(strengths))


def test_two_card_census_counts() -> None:
    result = census(make_ranking("two-card"), 2)
    assert result.categories == {C.PAIR: 13 * 6, C.HIGH_CARD: comb(13, 2) * 16}
    assert result.classes == 13 + comb(13, 2)
    assert census(make_ranking("single"), 1).classes == 52


def _share(counts: Sequence[int]) -> list[float]:
    total = sum(counts)
    return [count / total for count in counts]


def test_sample_census_of_three_card_guts_is_reproducible() -> None:
    ranking = make_ranking("three-card")
    exact = census(ranking, 3)
    result = sample_census(ranking, 3, 30000, seed=11)
    assert result == sample_census(ranking, 3, 30000, seed=11)
    shares = dict(zip(exact.categories, _share(list(exact.categories.values())), strict=True))
    for category, (lower, upper) in result.intervals.items():
        assert lower <= shares[category] <= upper
