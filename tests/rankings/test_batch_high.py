"""Batch high-hand evaluation: equal to the scalar ranking, and exact censuses.

Independent references used here, none of them sharing code with the tables:

* the scalar ranking itself (``evaluate``, which always runs the plan search);
* combinatorial formulas for the 52-card five-card table;
* a rank-multiset enumeration with suit-pattern counting for six and seven cards;
* a vectorized natural evaluator written below, driven by brute-force substitution of
  every wild card and bug (itself checked against the tables on every natural hand).

Brute-force coverage: every five-card hand of the pack (the batch evaluator on each hand;
the brute force once per class of natural cards up to suit renaming plus the wild and bug
counts, see :func:`five_card_reference`) for deuces wild; one and two bug jokers; one and
two wild jokers; deuces plus one bug joker; deuces plus two wild jokers; one-eyed jacks
(J♠ J♥) wild; and, marked slow, deuces plus two bugs, deuces plus one-eyed jacks (with
and without two wild jokers), and ace-high deuces and two bugs. Six- and seven-card hands
are checked against the best of their five-card subsets: 50,000 seeded hands per option
set and size by default, 400,000 more and every six-card hand of three packs when slow.
By default these exhaustive checks run on the kernels ``auto`` picks (numba's where it
is installed), and their repeat on the numpy kernels is slow (see ``ONCE_BY_DEFAULT``).
"""

from __future__ import annotations

import importlib.util
import os
import pickle
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import comb, prod
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from guts.cards import Card, parse_cards
from guts.errors import HandError
from guts.rankings import batch_high, tables
from guts.rankings.base import Category
from guts.rankings.high import HighRanking
from guts.rankings.tables import (
    FIVE_RANK_KEYS,
    RANK_KEYS,
    combinations_array,
    hand_chunks,
    high_tables,
    load_tables,
    rank_multisets,
    search_rank_keys,
)
from guts.rankings.wilds import JokerMode, Wilds

Codes = NDArray[np.int64]

KERNELS = ["numpy"] + (["numba"] if importlib.util.find_spec("numba") else [])
DEFAULT_KERNELS = KERNELS[-1]
"""The kernels ``GUTS_KERNELS=auto`` picks: the compiled ones where numba is installed."""
ONCE_BY_DEFAULT = {
    "test_every_five_card_hand_matches_brute_force_substitution",
    "test_six_and_seven_card_samples_match_brute_force",
    "test_scalar_strength_equals_batch_on_every_five_card_hand",
    "test_natural_batch_matches_the_simple_evaluator_on_every_hand",
    "test_census_matches_rank_multiset_counting",
    "test_brute_force_references_tell_wild_jokers_from_bugs",
}
"""The exhaustive tests (every hand of a pack, large samples, censuses), run by default on
the ``DEFAULT_KERNELS`` only: their repeat on the other kernels is marked slow. The same
test on the default kernels holds the rule, and ``tests/test_compiled.py`` holds the two
kernels alike (``test_every_five_card_hand_alike``, ``test_random_hands_alike``)."""


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Every test here on each of ``KERNELS``, the exhaustive repeats marked slow."""
    once = metafunc.function.__name__ in ONCE_BY_DEFAULT
    params = [
        pytest.param(name, marks=[pytest.mark.slow] if once and name != DEFAULT_KERNELS else [])
        for name in KERNELS
    ]
    metafunc.parametrize("kernels", params, indirect=True, scope="module")


@pytest.fixture(scope="module", autouse=True)
def kernels(request: pytest.FixtureRequest) -> Iterator[str]:
    """Every test here runs on the numpy kernels, and again on the compiled ones when
    numba (the ``fast`` extra) is installed (the exhaustive ones once by default, see
    ``ONCE_BY_DEFAULT``)."""
    before = os.environ.get("GUTS_KERNELS")
    os.environ["GUTS_KERNELS"] = request.param
    yield request.param
    if before is None:
        del os.environ["GUTS_KERNELS"]
    else:
        os.environ["GUTS_KERNELS"] = before

ONE_EYED = parse_cards("Js Jh")
OPTION_SETS: dict[str, HighRanking] = {
    "natural": HighRanking(),
    "natural-ace-high": HighRanking(ace_low=False),
    "deuces": HighRanking(wilds=Wilds.of([2])),
    "deuces-ace-high": HighRanking(wilds=Wilds.of([2]), ace_low=False),
    "deuces-one-eyed": HighRanking(wilds=Wilds.of([2], ONE_EYED)),
    "one-bug": HighRanking(jokers=1),
    "two-bugs": HighRanking(jokers=2),
    "two-bugs-ace-high": HighRanking(jokers=2, ace_low=False),
    "one-wild-joker": HighRanking(wilds=Wilds.of(joker=JokerMode.WILD), jokers=1),
    "two-wild-jokers": HighRanking(wilds=Wilds.of(joker=JokerMode.WILD), jokers=2),
    "deuces-two-bugs": HighRanking(wilds=Wilds.of([2]), jokers=2),
    "deuces-one-eyed-wild-jokers": HighRanking(
        wilds=Wilds.of([2], ONE_EYED, JokerMode.WILD), jokers=2
    ),
    "deuces-one-bug": HighRanking(wilds=Wilds.of([2]), jokers=1),
    "deuces-two-wild-jokers": HighRanking(wilds=Wilds.of([2], joker=JokerMode.WILD), jokers=2),
    "one-eyed": HighRanking(wilds=Wilds.of(cards=ONE_EYED)),
}
SUIT_SYMMETRIC = [name for name in OPTION_SETS if "one-eyed" not in name]
CARDS = [Card(code) for code in range(54)]


def deck_codes(ranking: HighRanking) -> list[int]:
    return [card.code for card in ranking.deck.cards]


def free_codes(ranking: HighRanking) -> list[int]:
    """Codes of the wild cards and jokers of the ranking's pack."""
    return [c for c in deck_codes(ranking) if c >= 52 or ranking.wilds.is_wild(CARDS[c])]


def sample_hands(ranking: HighRanking, cards: int, count: int, seed: int) -> Codes:
    """Random hands; in half of them wild cards and jokers are drawn first, so hands with
    several wild cards (four deuces and two jokers, say) are common."""
    rng = np.random.default_rng(seed)
    deck = np.array(deck_codes(ranking))
    keys = rng.random((count, len(deck)))
    wild = np.isin(deck, free_codes(ranking))
    favoured = (rng.random((count, len(deck))) < 0.5) & wild & (np.arange(count) % 2 == 0)[:, None]
    keys -= favoured
    return deck[np.argsort(keys, axis=1)[:, :cards]]


def scalar_strengths(ranking: HighRanking, hands: Codes) -> list[int]:
    return [ranking.strength([CARDS[c] for c in row]) for row in hands.tolist()]


def reference_strengths(ranking: HighRanking, hands: Codes) -> list[int]:
    """Through ``evaluate``: the plan search, never the natural fast path."""
    return [ranking.evaluate([CARDS[c] for c in row]).strength for row in hands.tolist()]


# --- Batch equals scalar ------------------------------------------------------------------


@pytest.mark.parametrize("name", OPTION_SETS)
@pytest.mark.parametrize("cards", [5, 6, 7])
def test_batch_equals_scalar_on_seeded_samples(name: str, cards: int) -> None:
    ranking = OPTION_SETS[name]
    hands = sample_hands(ranking, cards, 500, seed=cards)
    reference = reference_strengths(ranking, hands)
    assert ranking.strength_batch(hands).tolist() == reference
    assert scalar_strengths(ranking, hands) == reference
    order = {category: index for index, category in enumerate(ranking.categories())}
    categories = [order[ranking.category_of(s)] for s in reference]
    assert ranking.category_batch(hands).tolist() == categories


@pytest.mark.parametrize("name", ["natural", "natural-ace-high", "deuces-two-bugs",
                                  "deuces-one-eyed-wild-jokers", "one-bug"])  # fmt: skip
@pytest.mark.parametrize("cards", [1, 2, 3, 4])
def test_batch_equals_scalar_on_short_hands(name: str, cards: int) -> None:
    ranking = OPTION_SETS[name]
    hands = sample_hands(ranking, cards, 300, seed=10 + cards)
    reference = reference_strengths(ranking, hands)
    assert ranking.strength_batch(hands).tolist() == reference
    assert scalar_strengths(ranking, hands) == reference


@st.composite
def ranked_hands(draw: st.DrawFn) -> tuple[HighRanking, list[int]]:
    ranking = OPTION_SETS[draw(st.sampled_from(sorted(OPTION_SETS)))]
    size = draw(st.integers(1, 7))
    codes = draw(st.lists(st.sampled_from(deck_codes(ranking)), min_size=size,
                          max_size=size, unique=True))  # fmt: skip
    return ranking, codes


@settings(max_examples=300, deadline=None)
@given(ranked_hands())
def test_batch_equals_scalar_property(case: tuple[HighRanking, list[int]]) -> None:
    ranking, codes = case
    cards = [CARDS[c] for c in codes]
    expected = ranking.evaluate(cards).strength
    assert ranking.strength(cards) == expected
    assert ranking.strength_batch(np.array([codes], np.uint8)).tolist() == [expected]
    assert ranking.strength_batch(np.array([codes], np.int64)).tolist() == [expected]


@pytest.mark.parametrize("name", OPTION_SETS)
def test_batch_ignores_card_order(name: str) -> None:
    ranking = OPTION_SETS[name]
    hands = sample_hands(ranking, 7, 3000, seed=3)
    expected = ranking.strength_batch(hands)
    rng = np.random.default_rng(4)
    for _ in range(3):
        shuffled = np.take_along_axis(hands, np.argsort(rng.random(hands.shape), axis=1), 1)
        assert (ranking.strength_batch(shuffled) == expected).all()


@pytest.mark.parametrize("name", SUIT_SYMMETRIC)
def test_batch_suit_renaming_preserves_strength(name: str) -> None:
    ranking = OPTION_SETS[name]
    for cards in (5, 7):
        hands = sample_hands(ranking, cards, 3000, seed=5)
        expected = ranking.strength_batch(hands)
        for permutation in ([3, 2, 1, 0], [1, 2, 3, 0], [0, 1, 3, 2]):
            renamed = np.where(hands >= 52, hands, (hands & ~3) | np.array(permutation)[hands & 3])
            assert (ranking.strength_batch(renamed) == expected).all()


@pytest.mark.parametrize("name", ["deuces", "deuces-one-eyed", "two-wild-jokers"])
def test_wild_card_never_worse_than_a_natural_card(name: str) -> None:
    ranking = OPTION_SETS[name]
    wild = set(free_codes(ranking))
    naturals = [c for c in range(52) if c not in wild]
    rng = np.random.default_rng(6)
    for cards in (5, 7):
        hands = sample_hands(ranking, cards, 4000, seed=7)
        has_wild = np.isin(hands, list(wild))
        hands = hands[has_wild.any(axis=1)]
        column = np.argmax(np.isin(hands, list(wild)), axis=1)
        replaced = hands.copy()
        for row, hand in enumerate(hands.tolist()):
            choices = [c for c in naturals if c not in hand]
            replaced[row, column[row]] = choices[rng.integers(len(choices))]
        assert (ranking.strength_batch(hands) >= ranking.strength_batch(replaced)).all()


def test_batch_rejects_hands_of_the_wrong_size() -> None:
    with pytest.raises(HandError):
        HighRanking().strength_batch(np.zeros((3, 8), np.uint8))
    with pytest.raises(HandError):
        HighRanking().strength_batch(np.zeros((3, 0), np.uint8))
    assert HighRanking().strength_batch(np.zeros((0, 5), np.uint8)).tolist() == []


def test_scalar_fast_path_keeps_the_errors() -> None:
    ranking = HighRanking()
    with pytest.raises(HandError):
        ranking.strength(parse_cards("As Ks Qs Js") + parse_cards("As"))
    with pytest.raises(HandError):
        ranking.strength(parse_cards("As Ks Qs Js Ts 9s 8s 7s"))
    with pytest.raises(HandError):
        ranking.strength([])
    with pytest.raises(ValueError, match="not in the 52-card pack"):
        ranking.strength(parse_cards("As Ks Qs Js jk"))


def test_pickle_keeps_options_not_tables() -> None:
    ranking = HighRanking(ace_low=False)
    ranking.strength(parse_cards("As Ks Qs Js 9h"))
    copy = pickle.loads(pickle.dumps(ranking))
    assert copy == ranking
    assert len(pickle.dumps(ranking)) < 1000
    assert copy.strength(parse_cards("5s 4h 3d 2c Ah")) == ranking.strength(
        parse_cards("5s 4h 3d 2c Ah")
    )


# --- Five cards: combinatorics ------------------------------------------------------------


def five_card_table(ace_low: bool) -> tuple[dict[Category, int], int]:
    """Counts of the 52-card five-card hands by category, and the number of classes."""
    windows = 10 if ace_low else 9
    no_pair_ranks = comb(13, 5) - windows
    counts = {
        Category.STRAIGHT_FLUSH: windows * 4,
        Category.FOUR_OF_A_KIND: 13 * 48,
        Category.FULL_HOUSE: 13 * comb(4, 3) * 12 * comb(4, 2),
        Category.FLUSH: 4 * comb(13, 5) - windows * 4,
        Category.STRAIGHT: windows * 4**5 - windows * 4,
        Category.THREE_OF_A_KIND: 13 * comb(4, 3) * comb(12, 2) * 4**2,
        Category.TWO_PAIR: comb(13, 2) * comb(4, 2) ** 2 * 11 * 4,
        Category.PAIR: 13 * comb(4, 2) * comb(12, 3) * 4**3,
        Category.HIGH_CARD: no_pair_ranks * (4**5 - 4),
    }
    classes = (windows + 13 * 12 + 13 * 12 + no_pair_ranks + windows + 13 * comb(12, 2)
               + comb(13, 2) * 11 + 13 * comb(12, 3) + no_pair_ranks)  # fmt: skip
    return counts, classes


def chunk_census(ranking: HighRanking, cards: int) -> tuple[dict[Category, int], int]:
    """A census through the public batch API and the chunk enumerator."""
    categories = ranking.categories()
    tally = np.zeros(len(categories), np.int64)
    seen: list[Codes] = []
    for block in hand_chunks(deck_codes(ranking), cards):
        tally += np.bincount(ranking.category_batch(block), minlength=len(categories))
        seen.append(np.unique(ranking.strength_batch(block)))
    classes = len(np.unique(np.concatenate(seen)))
    return dict(zip(categories, tally.tolist(), strict=True)), classes


@pytest.mark.parametrize("ace_low", [True, False])
def test_five_card_census_matches_combinatorics(ace_low: bool) -> None:
    counts, classes = five_card_table(ace_low)
    assert sum(counts.values()) == comb(52, 5)
    assert classes == 7462
    ranking = HighRanking(ace_low=ace_low)
    assert ranking.census(5) == (counts, classes)
    assert chunk_census(ranking, 5) == (counts, classes)


def test_census_reports_progress() -> None:
    calls: list[tuple[int, int]] = []
    HighRanking().census(6, lambda done, total: calls.append((done, total)))
    assert calls[-1] == (comb(52, 6), comb(52, 6))
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)


# --- Six and seven cards: rank multisets and suit patterns ------------------------------


@cache
def windows_of(ace_low: bool) -> list[tuple[int, frozenset[int]]]:
    """Straights as (top card, ranks), best first."""
    found = [(top, frozenset(range(top - 4, top + 1))) for top in range(14, 5, -1)]
    if ace_low:
        found.append((5, frozenset({14, 2, 3, 4, 5})))
    return found


def rank_value(counts: dict[int, int], ace_low: bool) -> tuple[int, tuple[int, ...]]:
    """(level, tie-break ranks) of the best five cards of a hand with no flush."""
    ranks = sorted(counts, reverse=True)
    by_count = {n: [r for r in ranks if counts[r] >= n] for n in (2, 3, 4)}
    if by_count[4]:
        quad = by_count[4][0]
        return 7, (quad, next(r for r in ranks if r != quad))
    if by_count[3]:
        trips = by_count[3][0]
        pairs = [r for r in by_count[2] if r != trips]
        if pairs:
            return 6, (trips, pairs[0])
    tops = [top for top, window in windows_of(ace_low) if window <= set(ranks)]
    if tops:
        return 4, (tops[0],)
    if by_count[3]:
        trips = by_count[3][0]
        return 3, (trips, *[r for r in ranks if r != trips][:2])
    if len(by_count[2]) >= 2:
        high, low = by_count[2][:2]
        return 2, (high, low, next(r for r in ranks if r not in (high, low)))
    if by_count[2]:
        pair = by_count[2][0]
        return 1, (pair, *[r for r in ranks if r != pair][:3])
    return 0, tuple(ranks[:5])


@cache
def flush_value(suited: tuple[int, ...], ace_low: bool) -> tuple[int, tuple[int, ...]]:
    tops = [top for top, window in windows_of(ace_low) if window <= set(suited)]
    if tops:
        return 8, (tops[0],)
    return 5, tuple(sorted(suited, reverse=True)[:5])


def multiset_census(cards: int, ace_low: bool) -> tuple[dict[int, int], int]:
    """Hands per level and distinct (level, ranks) values, counted over rank multisets.

    With at most seven cards only one suit can hold five, and a flush then beats every
    rank-only hand, so a multiset's hands split into those whose five-or-more suit holds
    exactly the ranks ``F`` (for each ``F``: 4 suits * ways to give the other cards of
    each rank other suits) and the rest.
    """
    per_level: dict[int, int] = {}
    values: set[tuple[int, tuple[int, ...]]] = set()

    def add(value: tuple[int, tuple[int, ...]], ways: int) -> None:
        per_level[value[0]] = per_level.get(value[0], 0) + ways
        values.add(value)

    for multiset in combinations_with_replacement(range(2, 15), cards):
        counts = {r: multiset.count(r) for r in set(multiset)}
        if max(counts.values()) > 4:
            continue
        total = prod(comb(4, n) for n in counts.values())
        suited_ways = 0
        for size in range(5, len(counts) + 1):
            for suited in combinations(sorted(counts), size):
                ways = 4 * prod(comb(3, counts[r] - 1) if r in suited else comb(3, counts[r])
                                for r in counts)  # fmt: skip
                if ways:
                    add(flush_value(suited, ace_low), ways)
                    suited_ways += ways
        if total > suited_ways:
            add(rank_value(counts, ace_low), total - suited_ways)
    return per_level, len(values)


def by_level(counts: dict[Category, int], ranking: HighRanking) -> dict[int, int]:
    return {ranking.categories()[::-1].index(c): n for c, n in counts.items() if n}


@pytest.mark.parametrize(("cards", "ace_low"), [(6, True), (7, True)])
def test_census_matches_rank_multiset_counting(cards: int, ace_low: bool) -> None:
    expected_levels, expected_classes = multiset_census(cards, ace_low)
    assert sum(expected_levels.values()) == comb(52, cards)
    ranking = HighRanking(ace_low=ace_low)
    counts, classes = ranking.census(cards)
    assert (by_level(counts, ranking), classes) == (expected_levels, expected_classes)
    if cards == 6:
        chunked, chunk_classes = chunk_census(ranking, 6)
        assert (by_level(chunked, ranking), chunk_classes) == (expected_levels, classes)


@pytest.mark.slow
def test_seven_card_chunk_census_matches_rank_multiset_counting() -> None:
    expected_levels, expected_classes = multiset_census(7, True)
    ranking = HighRanking()
    counts, classes = chunk_census(ranking, 7)
    assert (by_level(counts, ranking), classes) == (expected_levels, expected_classes)
    assert classes == 4824


# --- Wild cards and bugs: brute-force substitution -----------------------------------------


def natural_strength(ranks: Codes, suits: Codes, ace_low: bool = True) -> Codes:
    """Packed strengths of five-card hands given ranks (2-14) and suits (0-3; 4 means no
    suit), the obvious way: sort by (count, rank), classify by the count pattern."""
    descending = -np.sort(-ranks, axis=1)
    counts = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2)
    ordered = -np.sort(-(counts * 16 + ranks), axis=1)
    tie, shape = ordered & 15, ordered >> 4
    flush = (suits == suits[:, :1]).all(axis=1) & (suits[:, 0] < 4)
    distinct = shape[:, 0] == 1
    top = np.where(distinct & (descending[:, 0] - descending[:, 4] == 4), descending[:, 0], 0)
    if ace_low:
        wheel = distinct & (descending == [14, 5, 4, 3, 2]).all(axis=1)
        top = np.where(wheel, 5, top)
    zero = np.zeros_like(top)
    two_pair = (shape[:, 0] == 2) & (shape[:, 2] == 2)
    cases = [
        (flush & (top > 0), 8, [top, zero, zero, zero, zero]),
        (shape[:, 0] == 4, 7, [tie[:, 0], tie[:, 4], zero, zero, zero]),
        ((shape[:, 0] == 3) & (shape[:, 3] == 2), 6, [tie[:, 0], tie[:, 3], zero, zero, zero]),
        (flush, 5, [tie[:, i] for i in range(5)]),
        (top > 0, 4, [top, zero, zero, zero, zero]),
        (shape[:, 0] == 3, 3, [tie[:, 0], tie[:, 3], tie[:, 4], zero, zero]),
        (two_pair, 2, [tie[:, 0], tie[:, 2], tie[:, 4], zero, zero]),
        (shape[:, 0] == 2, 1, [tie[:, 0], tie[:, 2], tie[:, 3], tie[:, 4], zero]),
        (np.ones_like(flush), 0, [tie[:, i] for i in range(5)]),
    ]
    packed = [level << 20 | k[0] << 16 | k[1] << 12 | k[2] << 8 | k[3] << 4 | k[4]
              for _, level, k in cases]  # fmt: skip
    result: Codes = np.select([c for c, _, _ in cases], packed)
    return result


NATURAL = HighRanking()


def test_natural_batch_matches_the_simple_evaluator_on_every_hand() -> None:
    """Every natural five-card hand: tables == the obvious evaluator (ace low, as in the
    rankings the brute force below serves; ace high is covered by the census tests).
    This is what lets the brute force below evaluate its substituted hands in batch."""
    hands = np.concatenate(list(hand_chunks(range(52), 5, chunk=1 << 22))).astype(np.int64)
    simple = natural_strength((hands >> 2) + 2, hands & 3)
    assert (NATURAL.strength_batch(hands) == simple).all()


@pytest.mark.parametrize("ace_low", [True, False])
def test_five_card_table_agrees_with_the_general_tables_on_every_hand(ace_low: bool) -> None:
    """Natural five-card hands take their own one-lookup path (FIVE_RANK_KEYS): on every
    hand it agrees with the general path, which a one-joker pack's ranking takes for the
    hands without its joker."""
    hands = np.concatenate(list(hand_chunks(range(52), 5, chunk=1 << 22)))
    general = HighRanking(jokers=1, ace_low=ace_low).strength_batch(hands)
    assert (HighRanking(ace_low=ace_low).strength_batch(hands) == general).all()


def test_scalar_strength_equals_batch_on_every_five_card_hand() -> None:
    hands = np.concatenate(list(hand_chunks(range(52), 5, chunk=1 << 22)))
    cards = [Card(code) for code in range(52)]
    strength = NATURAL.strength
    scalar = [strength([cards[c] for c in row]) for row in hands.tolist()]
    assert scalar == NATURAL.strength_batch(hands).tolist()


def test_five_rank_keys_are_the_greedy_keys_for_five_cards() -> None:
    assert search_rank_keys(5) == FIVE_RANK_KEYS
    nonflush, flush = high_tables(True).five_card
    assert len(nonflush) == len(flush) < 1 << tables.FIVE_KEY_BITS
    assert np.count_nonzero(nonflush) == comb(13 + 4, 5) - 13  # five of a rank: none
    assert np.count_nonzero(flush) == comb(13, 5)


@cache
def substitutions(wild: int, bugs: int) -> Codes:
    """Every choice of stand-ins: ``wild + bugs`` distinct natural cards, the first
    ``wild`` for the wild cards and the rest for the bugs (each group in any order, as
    its members are alike): every set of distinct cards, split every way."""
    chosen = np.array(list(combinations(range(52), wild + bugs)), np.int64)
    chosen = chosen.reshape(len(chosen), wild + bugs)
    splits = []
    for for_bugs in combinations(range(wild + bugs), bugs):
        order = [i for i in range(wild + bugs) if i not in for_bugs] + list(for_bugs)
        splits.append(chosen[:, order])
    return np.concatenate(splits)


def brute_force(ranking: HighRanking, naturals: Codes, wild: int, bugs: int) -> Codes:
    """Best strength of ``naturals`` plus ``wild`` wild cards and ``bugs`` bugs (five cards).

    Each wild card and bug stands for a natural card that is not one of the hand's natural
    cards (a wild deuce may stand for itself), all different; a bug's substitution counts
    only if it is an ace or the hand is then a straight, flush or straight flush. Five of
    a kind is counted directly: some rank's naturals plus the wild cards (plus the bugs,
    for aces) make five. A bug as an ace never needs to repeat an ace outside five aces,
    so natural aces stand for it everywhere else.
    """
    ranks = (naturals >> 2) + 2
    fives = np.zeros(len(naturals), np.int64)
    for rank in range(2, 15):
        total = (ranks == rank).sum(axis=1) + wild + (bugs if rank == 14 else 0)
        fives = np.where(total >= 5, 9 << 20 | rank << 16, fives)
    # Five of a kind beats every substitution: search only the other hands.
    searched = np.flatnonzero(fives == 0)
    stand_ins = substitutions(wild, bugs) if len(searched) else np.zeros((0, 0), np.int64)
    best = np.zeros(len(naturals), np.int64)
    step = max(1, 1_000_000 // max(1, len(stand_ins)))
    for start in range(0, len(searched), step):
        rows = searched[start : start + step]
        nat = naturals[rows]
        full = np.concatenate(
            [np.repeat(nat[:, None, :], len(stand_ins), 1),
             np.broadcast_to(stand_ins, (len(nat), *stand_ins.shape))], axis=2,
        ).reshape(-1, 5)  # fmt: skip
        value = NATURAL_BY_ACE[ranking.ace_low].strength_batch(full)
        value = value.reshape(len(nat), len(stand_ins))
        clash = (stand_ins[None, :, :, None] == nat[:, None, None, :]).any(axis=(2, 3))
        odd_bug = ((stand_ins[:, wild:] >> 2) != 12).any(axis=1)
        level = value >> 20
        straightish = (level == 4) | (level == 5) | (level == 8)
        value = np.where(clash | (odd_bug & ~straightish), -1, value)
        best[rows] = value.max(axis=1)
    return np.maximum(best, fives)


NATURAL_BY_ACE = {True: NATURAL, False: HighRanking(ace_low=False)}


def natural_classes(naturals: NDArray[np.int64], free: Codes) -> tuple[Codes, Codes]:
    """Hands up to renaming suits, by their natural cards and their ``free`` count (wild
    cards and bugs): (index of one representative per class, class of each hand).

    The natural cards are four per-suit rank masks (-1 marks no card); sorting the masks
    forgets which suit is which. The wild cards' own suits never matter.
    """
    masks = np.zeros((len(naturals), 4), np.int64)
    for column in naturals.T:
        bit = np.where(column >= 0, 1 << (column >> 2), 0)
        for suit in range(4):
            masks[:, suit] |= np.where((column & 3) == suit, bit, 0)
    masks.sort(axis=1)
    key = masks[:, 0] | masks[:, 1] << 13 | masks[:, 2] << 26 | masks[:, 3] << 39 | free << 52
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    return first, inverse.reshape(-1)


def free_split(ranking: HighRanking, codes: Codes) -> tuple[Codes, Codes]:
    """The natural cards of each hand (highest first, -1 for each free card) and its
    ``3 * wild + bugs`` count (wild cards and wild jokers; bug jokers)."""
    bug = codes >= 52 if ranking.wilds.joker is JokerMode.BUG else np.zeros_like(codes, bool)
    wild = np.isin(codes, free_codes(ranking)) & ~bug
    natural = -np.sort(-np.where(wild | bug, -1, codes), axis=1)
    return natural, wild.sum(axis=1) * 3 + bug.sum(axis=1)


def brute_force_hands(ranking: HighRanking, codes: Codes) -> Codes:
    """Brute-force strengths of five-card hands, one hand at a time (no classes)."""
    natural, counts = free_split(ranking, codes)
    expected = np.zeros(len(codes), np.int64)
    for group in np.unique(counts).tolist():
        rows = np.flatnonzero(counts == group)
        w, b = divmod(group, 3)
        expected[rows] = brute_force(ranking, natural[rows, : 5 - w - b], w, b)
    return expected


@cache
def five_card_reference(name: str) -> NDArray[np.int32]:
    """Brute-force strength of every five-card hand of the pack, by colex index of its
    positions in the pack (see :func:`colex_index`).

    The brute force runs once per class of hands with the same natural cards up to
    renaming suits and the same numbers of wild cards and bugs. That is exact for every
    wild set, one-eyed jacks included: the reference value depends only on the natural
    cards and the two counts (stand-ins range over every natural card not held, whatever
    the wild cards are), and renaming the suits of the natural cards and of every
    stand-in together maps substitutions one to one onto substitutions of equal value.
    The hand set itself need not be suit-symmetric.
    """
    ranking = OPTION_SETS[name]
    hands = np.concatenate(list(hand_chunks(deck_codes(ranking), 5, chunk=1 << 22)))
    codes = hands.astype(np.int64)
    natural, counts = free_split(ranking, codes)
    first, inverse = natural_classes(natural, counts)
    by_class = brute_force_hands(ranking, codes[first])
    table = np.zeros(len(hands), np.int32)
    table[colex_index(codes)] = by_class[inverse]
    return table


@cache
def _binomials() -> Codes:
    return np.array([[comb(n, r) for r in range(6)] for n in range(55)], np.int64)


def colex_index(positions: Codes) -> Codes:
    """Colex rank of each row of five distinct positions (any order) among the
    five-subsets of range(54): the sum of ``comb(p_i, i + 1)`` over the sorted row."""
    ordered = np.sort(positions, axis=1)
    index: Codes = sum(_binomials()[ordered[:, i], i + 1] for i in range(5))
    return index


EXHAUSTIVE = ["deuces", "one-bug", "two-bugs", "one-wild-joker", "two-wild-jokers",
              "deuces-one-bug", "deuces-two-wild-jokers", "one-eyed"]  # fmt: skip
EXHAUSTIVE_SLOW = ["deuces-two-bugs", "deuces-one-eyed", "deuces-one-eyed-wild-jokers",
                   "deuces-ace-high", "two-bugs-ace-high"]  # fmt: skip


def check_every_five_card_hand(name: str) -> None:
    """Every hand of the pack: batch strength == brute force (see five_card_reference);
    the batch evaluator runs on every single hand, and a seeded sample of hands is also
    brute-forced directly, not through its class."""
    ranking = OPTION_SETS[name]
    hands = np.concatenate(list(hand_chunks(deck_codes(ranking), 5, chunk=1 << 22)))
    assert len(hands) == comb(len(deck_codes(ranking)), 5)
    expected = five_card_reference(name)[colex_index(hands.astype(np.int64))]
    assert (ranking.strength_batch(hands) == expected).all()
    sample = sample_hands(ranking, 5, 400, seed=21).astype(np.int64)
    direct = brute_force_hands(ranking, sample)
    assert (direct == five_card_reference(name)[colex_index(sample)]).all()


@pytest.mark.parametrize("name", EXHAUSTIVE)
def test_every_five_card_hand_matches_brute_force_substitution(name: str) -> None:
    check_every_five_card_hand(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", EXHAUSTIVE_SLOW)
def test_every_five_card_hand_matches_brute_force_more_wild_sets(name: str) -> None:
    check_every_five_card_hand(name)


def best_of_five_subsets(name: str, hands: Codes) -> Codes:
    """The brute-force strength of 6- or 7-card hands: the best of their five-card
    subsets (a wild card never needs to duplicate a held card that does not play: that
    card could play in its place)."""
    table = five_card_reference(name)
    best = np.zeros(len(hands), np.int64)
    for subset in combinations(range(hands.shape[1]), 5):
        best = np.maximum(best, table[colex_index(hands[:, list(subset)])])
    return best


def check_sampled_hands(name: str, cards: int, count: int, seed: int) -> None:
    ranking = OPTION_SETS[name]
    hands = sample_hands(ranking, cards, count, seed).astype(np.int64)
    assert (ranking.strength_batch(hands) == best_of_five_subsets(name, hands)).all()


@pytest.mark.parametrize("name", EXHAUSTIVE)
@pytest.mark.parametrize("cards", [6, 7])
def test_six_and_seven_card_samples_match_brute_force(name: str, cards: int) -> None:
    """50,000 seeded hands (half with the free cards favoured) per option set and size."""
    check_sampled_hands(name, cards, 50_000, seed=30 + cards)


@pytest.mark.slow
@pytest.mark.parametrize("name", EXHAUSTIVE + EXHAUSTIVE_SLOW)
@pytest.mark.parametrize("cards", [6, 7])
def test_large_six_and_seven_card_samples_match_brute_force(name: str, cards: int) -> None:
    """400,000 more seeded hands per option set and size."""
    check_sampled_hands(name, cards, 400_000, seed=40 + cards)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["one-wild-joker", "deuces-two-wild-jokers", "one-eyed"])
def test_every_six_card_hand_matches_brute_force(name: str) -> None:
    ranking = OPTION_SETS[name]
    for block in hand_chunks(deck_codes(ranking), 6, chunk=1 << 21):
        hands = block.astype(np.int64)
        assert (ranking.strength_batch(hands) == best_of_five_subsets(name, hands)).all()


@pytest.mark.parametrize(
    ("text", "wild", "bugs", "expected"),
    [
        ("Ks Qs 9s", 2, 0, "Ks Qs Js Ts 9s"),  # wild cards fill a straight flush
        ("Ks 8s 3s", 2, 0, "As Ks Qs 8s 3s"),  # or stand for the highest missing spades
        ("3c 4c 5c Ac", 1, 0, "5c 4c 3c 2c Ac"),  # a deuce may stand for itself
        ("As Ah Ad Ac", 0, 1, None),  # five aces
        ("9s 9h 7d 7c", 0, 1, "9s 9h 7d 7c Ah"),  # the bug is an ace kicker
        ("5s 4h 3d 2c", 0, 1, "6d 5s 4h 3d 2c"),  # or completes a straight
        ("Ks Kh Kd", 0, 2, "Ks Kh Kd As Ah"),  # two bugs: aces full
    ],
)
def test_brute_force_referee_on_examples(
    text: str, wild: int, bugs: int, expected: str | None
) -> None:
    naturals = np.array([[c.code for c in parse_cards(text)]], np.int64)
    value = brute_force(NATURAL, naturals, wild, bugs).tolist()
    if expected is None:
        assert value == [9 << 20 | 14 << 16]
    else:
        assert value == [NATURAL.strength(parse_cards(expected))]


# --- Tables, keys, enumeration and cache --------------------------------------------------


def test_rank_keys_give_every_multiset_its_own_sum() -> None:
    sums = [
        sum(RANK_KEYS[r] for r in multiset)
        for size in range(8)
        for multiset in combinations_with_replacement(range(13), size)
        if not multiset or max(multiset.count(r) for r in set(multiset)) <= 4
    ]
    assert len(sums) == len(set(sums)) == len(rank_multisets()[1]) == 76155
    assert max(sums) < 1 << tables.KEY_BITS


def test_greedy_key_search_for_five_cards() -> None:
    keys = search_rank_keys(5)
    assert list(keys) == sorted(set(keys))
    sums = [
        sum(keys[r] for r in multiset)
        for size in range(6)
        for multiset in combinations_with_replacement(range(13), size)
        if not multiset or max(multiset.count(r) for r in set(multiset)) <= 4
    ]
    assert len(sums) == len(set(sums))
    # greedy: one less than any key (above the previous one) collides
    for index in range(1, 13):
        smaller = keys[index] - 1
        if smaller > keys[index - 1]:
            trial = (*keys[:index], smaller)
            seen = {sum(trial[r] for r in m) for size in range(6)
                    for m in combinations_with_replacement(range(index + 1), size)
                    if not m or max(m.count(r) for r in set(m)) <= 4}  # fmt: skip
            count = sum(1 for size in range(6)
                        for m in combinations_with_replacement(range(index + 1), size)
                        if not m or max(m.count(r) for r in set(m)) <= 4)  # fmt: skip
            assert len(seen) < count


@pytest.mark.slow
def test_greedy_key_search_reproduces_the_rank_keys() -> None:
    assert search_rank_keys(7) == RANK_KEYS


def test_combinations_and_chunks_enumerate_in_order() -> None:
    for n, r in [(6, 0), (6, 1), (7, 3), (9, 5), (10, 7)]:
        assert combinations_array(n, r).tolist() == [list(c) for c in combinations(range(n), r)]
    deck = [5, 9, 13, 40, 41, 42, 50, 52, 53]
    for cards in range(1, 10):
        blocks = list(hand_chunks(deck, cards, chunk=11))
        assert all(len(block) <= 11 and block.dtype == np.uint8 for block in blocks)
        rows = np.concatenate(blocks).tolist()
        assert rows == [list(c) for c in combinations(deck, cards)]
    assert list(hand_chunks(deck, 10)) == []


def test_tables_stay_under_200_megabytes() -> None:
    arrays: list[NDArray[np.generic]] = [*rank_multisets()]
    for ace_low in (True, False):
        found = high_tables(ace_low)
        arrays += [found.nonflush, found.base, found.flush, *found.five_card]
    assert sum(array.nbytes for array in arrays) < 200 * 2**20
    kernels = [batch_high.kernel(r.wilds, r.jokers, r.ace_low) for r in OPTION_SETS.values()]
    every = {
        id(array): array
        for k in kernels
        for array in (k.tables.dense, k.tables.nonflush, k.tables.flush, k.five_nonflush,
                      k.sums.pair, k.sums.first_pair)
    }
    assert sum(a.nbytes for a in every.values()) < 200 * 2**20
    natural = batch_high.kernel(Wilds(), 0, True)
    assert 40 * 2**20 < natural.table_bytes() < 100 * 2**20  # the dense key table is 37 MB


@pytest.fixture
def counted_builds(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Make rebuilding cheap (copies of the real tables) and record each rebuild."""
    builds: list[bool] = []
    real = high_tables(True)

    def build_nonflush(ace_low: bool) -> NDArray[np.int32]:
        builds.append(ace_low)
        return real.nonflush.copy()

    monkeypatch.setattr(tables, "_build_nonflush", build_nonflush)
    monkeypatch.setattr(tables, "_build_flush", lambda ace_low: real.flush.copy())
    return builds


def test_cache_file_is_written_then_reused(tmp_path: Path, counted_builds: list[bool]) -> None:
    first = load_tables(True, tmp_path)
    (path,) = tmp_path.iterdir()
    assert path.suffix == ".npz" and f"v{tables.VERSION}" in path.name
    second = load_tables(True, tmp_path)
    assert counted_builds == [True]
    assert (first.nonflush == second.nonflush).all() and (first.flush == second.flush).all()


@pytest.mark.parametrize("damage", ["garbage", "truncated", "flipped", "empty"])
def test_corrupt_cache_file_is_rebuilt(
    tmp_path: Path, counted_builds: list[bool], damage: str
) -> None:
    load_tables(True, tmp_path)
    (path,) = tmp_path.iterdir()
    data = path.read_bytes()
    if damage == "garbage":
        path.write_bytes(b"not an npz file" * 100)
    elif damage == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "empty":
        path.write_bytes(b"")
    else:
        with np.load(path) as stored:
            contents = {key: stored[key].copy() for key in stored.files}
        contents["nonflush"][1000] += 1
        np.savez(path, **contents)
    found = load_tables(True, tmp_path)
    assert counted_builds == [True, True]
    assert (found.nonflush == high_tables(True).nonflush).all()
    load_tables(True, tmp_path)
    assert counted_builds == [True, True]


def test_unwritable_cache_dir_falls_back_to_memory(
    tmp_path: Path, counted_builds: list[bool]
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    found = load_tables(True, blocker / "guts")
    assert (found.flush == high_tables(True).flush).all()
    assert counted_builds == [True]


def test_importing_builds_no_tables() -> None:
    code = (
        "import sys, guts, guts.rankings.high as high\n"
        "high.HighRanking()\n"
        "print('guts.rankings.tables' in sys.modules, 'numpy' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)  # fmt: skip
    assert out.stdout.split()[0] == "False"


def test_brute_force_references_tell_wild_jokers_from_bugs() -> None:
    """The same 53-card hands, judged with the joker wild and as the bug: the wild joker
    is never worse and sometimes better, so each check above can see the mode."""
    wild, bug = five_card_reference("one-wild-joker"), five_card_reference("one-bug")
    assert (wild >= bug).all() and (wild > bug).sum() > 0
    assert (five_card_reference("two-wild-jokers") > five_card_reference("two-bugs")).any()


@pytest.mark.parametrize("name", ["natural", "natural-ace-high", "deuces", "one-bug"])
@pytest.mark.parametrize("cards", [5, 6, 7])
def test_batch_reads_any_layout_and_integer_type(name: str, cards: int) -> None:
    """Hands are read two card bytes at a time in place, so the layout must not matter:
    column slices of a wider array, reversed rows, Fortran order and other dtypes."""
    ranking = OPTION_SETS[name]
    wide = sample_hands(ranking, 7, 3000, seed=11)
    expected = ranking.strength_batch(np.ascontiguousarray(wide[:, :cards]))
    padded = np.hstack([wide[:, :cards], wide[:, :1]])
    layouts = [
        padded[:, :cards],
        np.hstack([wide[:, :1], wide[:, :cards]])[:, 1:],
        np.asfortranarray(wide[:, :cards]),
        wide[:, :cards].astype(np.int16),
        wide[:, :cards].astype(np.int64),
    ]
    for hands in layouts:
        assert (ranking.strength_batch(hands) == expected).all()
    assert (ranking.strength_batch(wide[::-1, :cards]) == expected[::-1]).all()


@pytest.mark.parametrize("name", ["natural", "deuces", "one-bug"])
@pytest.mark.parametrize("cards", [1, 4, 5, 6, 7])
def test_a_code_outside_the_pack_is_an_error_in_every_position(name: str, cards: int) -> None:
    ranking = OPTION_SETS[name]
    outside = 53 if ranking.jokers == 1 else 52
    good = sample_hands(ranking, cards, 40, seed=3)
    for position in range(cards):
        for bad in (outside, 200):
            hands = good.copy()
            hands[17, position] = bad
            with pytest.raises(HandError, match=f"card code {bad} is not in this"):
                ranking.strength_batch(hands)
