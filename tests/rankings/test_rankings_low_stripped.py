"""Ace-to-five low (with the joker as fitter) and 32-card stripped-deck poker."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement, pairwise
from math import comb, prod
from random import Random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from guts.cards import Card, DeckKind, Rank, Suit, parse_cards
from guts.errors import CardError, HandError, OptionError
from guts.rankings.base import Category
from guts.rankings.low import LowRanking, low_rank, top_card
from guts.rankings.stripped import SUIT_ORDER, StrippedRanking
from guts.rankings.wilds import JokerMode, Wilds

STRIPPED = StrippedRanking()
LOW = LowRanking()
LOW_JOKERS = LowRanking(jokers=2)
STRONG = LowRanking(pairs="strong")


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def hands(deck: DeckKind, low: int, high: int) -> st.SearchStrategy[list[Card]]:
    return st.lists(st.sampled_from(deck.cards), min_size=low, max_size=high, unique=True)


def renamed(hand: Sequence[Card], mapping: Sequence[int]) -> list[Card]:
    """The hand with every suit s replaced by mapping[s] (jokers unchanged)."""
    out: list[Card] = []
    for card in hand:
        rank, suit = card.rank, card.suit
        out.append(card if rank is None or suit is None else Card.of(rank, mapping[suit]))
    return out


# --- 32-card stripped poker ---------------------------------------------------------------

RANKS, SUITS, WINDOWS = 8, 4, 5  # seven to ace; A-7-8-9-10 .. 10-J-Q-K-A


def test_stripped_counts_every_five_card_hand_by_category() -> None:
    no_run = comb(RANKS, 5) - WINDOWS
    expected = {
        Category.STRAIGHT_FLUSH: WINDOWS * SUITS,
        Category.FOUR_OF_A_KIND: RANKS * (32 - 4),
        Category.FLUSH: SUITS * no_run,
        Category.FULL_HOUSE: RANKS * comb(4, 3) * (RANKS - 1) * comb(4, 2),
        Category.STRAIGHT: WINDOWS * (SUITS**5 - SUITS),
        Category.THREE_OF_A_KIND: RANKS * comb(4, 3) * comb(RANKS - 1, 2) * SUITS**2,
        Category.TWO_PAIR: comb(RANKS, 2) * comb(4, 2) ** 2 * (RANKS - 2) * SUITS,
        Category.PAIR: RANKS * comb(4, 2) * comb(RANKS - 1, 3) * SUITS**3,
        Category.HIGH_CARD: no_run * (SUITS**5 - SUITS),
    }
    assert sum(expected.values()) == comb(32, 5)
    # Classes: the ranks that matter, times the suits the deciding card can have. The best
    # suit of a k-card group drawn from four ranked suits takes 4 - k + 1 values.
    best_suits = {k: 4 - k + 1 for k in (1, 2, 3, 4)}
    expected_classes = {
        Category.STRAIGHT_FLUSH: WINDOWS * SUITS,
        Category.FOUR_OF_A_KIND: RANKS * (RANKS - 1) * best_suits[4],
        Category.FLUSH: no_run * SUITS,
        Category.FULL_HOUSE: RANKS * (RANKS - 1) * best_suits[3],
        Category.STRAIGHT: WINDOWS * best_suits[1],
        Category.THREE_OF_A_KIND: RANKS * comb(RANKS - 1, 2) * best_suits[3],
        Category.TWO_PAIR: comb(RANKS, 2) * (RANKS - 2) * best_suits[2],
        Category.PAIR: RANKS * comb(RANKS - 1, 3) * best_suits[2],
        Category.HIGH_CARD: no_run * best_suits[1],
    }
    counts: Counter[Category] = Counter()
    strengths: dict[Category, set[int]] = {category: set() for category in expected}
    for hand in combinations(DeckKind.STRIPPED.cards, 5):
        evaluation = STRIPPED.evaluate(hand)
        counts[evaluation.category] += 1
        strengths[evaluation.category].add(evaluation.strength)
    assert dict(counts) == expected
    assert {c: len(s) for c, s in strengths.items()} == expected_classes
    order = STRIPPED.categories()
    for better, worse in pairwise(order):
        assert min(strengths[better]) > max(strengths[worse]), (better, worse)


def test_stripped_category_order_puts_flush_between_quads_and_full_house() -> None:
    assert STRIPPED.categories() == (
        Category.STRAIGHT_FLUSH, Category.FOUR_OF_A_KIND, Category.FLUSH, Category.FULL_HOUSE,
        Category.STRAIGHT, Category.THREE_OF_A_KIND, Category.TWO_PAIR, Category.PAIR,
        Category.HIGH_CARD,
    )  # fmt: skip
    worst_flush = STRIPPED.strength(cards("Qs 10s 9s 8s 7s"))
    best_full_house = STRIPPED.strength(cards("Ah Ad Ac Kh Kd"))
    worst_quads = STRIPPED.strength(cards("7h 7d 7c 7s 8s"))
    assert STRIPPED.category(cards("Qs 10s 9s 8s 7s")) is Category.FLUSH
    assert worst_quads > worst_flush > best_full_house
    assert STRIPPED.strength(cards("Ah Kh Qh Jh 9h")) < worst_quads


def test_stripped_ace_seven_straight_is_the_lowest_straight_and_ten_high() -> None:
    wheel = cards("Ah 7d 8c 9s 10h")
    evaluation = STRIPPED.evaluate(wheel)
    assert evaluation.category is Category.STRAIGHT
    assert [card.rank for card in evaluation.cards] == [10, 9, 8, 7, 14]
    assert evaluation.description == "Straight, ten high (hearts)"
    assert STRIPPED.strength(cards("7h 8d 9c 10s Js")) > evaluation.strength
    assert evaluation.strength > STRIPPED.strength(cards("Ah Ad Ac Kh Qd"))
    # The ace joins the seven only at the bottom: nothing wraps round.
    assert STRIPPED.category(cards("Qh Kd Ac 7s 8h")) is Category.HIGH_CARD
    assert STRIPPED.category(cards("Kh Ad 7c 8s 9h")) is Category.HIGH_CARD


def test_stripped_ace_seven_straight_flush_is_the_lowest_straight_flush() -> None:
    low_flush = STRIPPED.evaluate(cards("Ac 7c 8c 9c 10c"))
    assert low_flush.category is Category.STRAIGHT_FLUSH
    assert low_flush.description == "Straight flush, ten high (clubs)"
    assert STRIPPED.strength(cards("7c 8c 9c 10c Jc")) > low_flush.strength
    assert low_flush.strength > STRIPPED.strength(cards("Ah Ad Ac As Kd"))
    assert STRIPPED.describe(cards("Ah Kh Qh Jh 10h")) == "Royal flush (hearts)"


def test_stripped_suits_rank_hearts_diamonds_clubs_spades() -> None:
    assert sorted(SUIT_ORDER, key=SUIT_ORDER.__getitem__, reverse=True) == [
        Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES,
    ]  # fmt: skip
    flushes = [STRIPPED.strength(cards(f"A{s} J{s} 9{s} 8{s} 7{s}")) for s in "hdcs"]
    assert flushes == sorted(flushes, reverse=True) and len(set(flushes)) == 4
    high_cards = [STRIPPED.strength(cards(f"A{s} Kh Qh Jh 9h")) for s in "hdcs"]
    assert high_cards[1:] == sorted(high_cards[1:], reverse=True) and len(set(high_cards)) == 4


def test_stripped_pair_containing_the_heart_wins_and_kicker_suits_do_not_count() -> None:
    heart_pair = STRIPPED.strength(cards("Ah Ac Ks Qs Js"))
    diamond_pair = STRIPPED.strength(cards("Ad As Kh Qh Jh"))
    assert heart_pair > diamond_pair
    assert diamond_pair > STRIPPED.strength(cards("Ac As Kh Qh Jh"))
    # Same pair suit on top, kickers of other suits: a tie, although the hands differ.
    assert STRIPPED.strength(cards("Ah As Kd Qd Jd")) == STRIPPED.strength(cards("Ah As Kc Qc Js"))
    # The pair's other card does not count either.
    assert STRIPPED.strength(cards("Ah Ad Kd Qd Jd")) == STRIPPED.strength(cards("Ah Ac Kd Qd Jd"))
    # Suits only break otherwise equal hands: a better kicker beats a better suit.
    assert STRIPPED.strength(cards("As Ac Ks Qs Js")) > STRIPPED.strength(cards("Ah Ad Kh Qh 10h"))


def test_stripped_suit_of_the_deciding_card_for_each_combination() -> None:
    def beats(a: str, b: str) -> bool:
        return STRIPPED.strength(cards(a)) > STRIPPED.strength(cards(b))

    def ties(a: str, b: str) -> bool:
        return STRIPPED.strength(cards(a)) == STRIPPED.strength(cards(b))

    assert beats("Kh Ks 7s 7c 9s", "Kd Kc 7h 7d 9h")  # two pair: the top pair's suit
    assert ties("Kh Ks 7s 7c 9s", "Kh Kc 7h 7d 9h")
    assert beats("9h 9s 9c Ks Qs", "9d 9c 9s Kh Qh")  # trips: the set's suit
    assert beats("9h 9s 9c Ks Kc", "9d 9c 9s Kh Kd")  # full house: the set's suit
    assert ties("9h 9s 9c Ks Kc", "9h 9d 9c Kh Kd")
    assert beats("10h 9s 8s 7s As", "10d 9h 8h 7h Ah")  # straight: its top card
    assert ties("10h 9s 8s 7s As", "10h 9d 8d 7d Ad")
    assert beats("Ac Ks Qs Js 9s", "As Kh Qh Jh 9h")  # high card: the highest card
    assert ties("Ac Ks Qs Js 9s", "Ac Kh Qh Jh 9h")
    assert ties("Ah Ad Ac As 8s", "Ah Ad Ac As 8h")  # quads: suits cannot matter


def test_stripped_best_five_chooses_the_best_suited_top_card() -> None:
    evaluation = STRIPPED.evaluate(cards("10s 10h 9s 8c 7d As Kc"))
    assert evaluation.category is Category.STRAIGHT
    assert evaluation.cards[0] == Card.of(Rank.TEN, Suit.HEARTS)
    assert evaluation.description == "Straight, ten high (hearts)"
    # A flush in seven cards beats the full house made of the same cards.
    assert STRIPPED.category(cards("Kh Ks Kd 9h 9s 8h 7h")) is Category.FULL_HOUSE
    assert STRIPPED.category(cards("Kh Ks Kd 9h 10h 8h 7h")) is Category.FLUSH


@pytest.mark.parametrize(
    ("text", "description"),
    [
        ("Ah Jh 9h 8h 7h", "Flush, ace high (hearts)"),
        ("Ah Ac Ks Qs Js", "Pair of aces (hearts)"),
        ("Kd Kc Ks 7h 7c", "Full house, kings over sevens (diamonds)"),
        ("Ah Ad Ac As 8s", "Four of a kind, aces"),
        ("Ac Kh Qh Jh 9h", "Ace-king high (clubs)"),
        ("Kc Ks 7h 7d 9h", "Two pair, kings and sevens (clubs)"),
        ("9h 9s 9c Ks Qs", "Three of a kind, nines (hearts)"),
        ("Jd 10s 9s 8s 7s", "Straight, jack high (diamonds)"),
    ],
)
def test_stripped_descriptions(text: str, description: str) -> None:
    assert STRIPPED.describe(cards(text)) == description


def test_stripped_rejects_bad_hands_and_options() -> None:
    with pytest.raises(HandError):
        STRIPPED.evaluate(cards("Ah Kh Qh Jh"))
    with pytest.raises(HandError):
        STRIPPED.strength(cards("Ah Kh Qh Jh 10h 9h 8h 7h"))
    with pytest.raises(HandError):
        STRIPPED.strength([Card.of(14, 2)] * 5)
    with pytest.raises(CardError):
        STRIPPED.strength(cards("Ah Kh Qh Jh 6h"))
    with pytest.raises(CardError):
        STRIPPED.evaluate(cards("Ah Kh Qh Jh jk"))
    assert STRIPPED.deck is DeckKind.STRIPPED
    assert StrippedRanking.from_options({}) == STRIPPED
    with pytest.raises(OptionError, match="'straights'"):
        StrippedRanking.from_options({"straights": "yes"})
    with pytest.raises(OptionError, match="wild"):
        StrippedRanking.from_options({}, wilds=Wilds.parse("J"))
    with pytest.raises(OptionError, match="jokers"):
        StrippedRanking.from_options({}, jokers=1)
    assert STRIPPED.options() == {}


@given(hands(DeckKind.STRIPPED, 5, 7), st.randoms())
def test_stripped_strength_ignores_card_order(hand: list[Card], rng: Random) -> None:
    shuffled = list(hand)
    rng.shuffle(shuffled)
    assert STRIPPED.strength(shuffled) == STRIPPED.strength(hand)
    assert STRIPPED.evaluate(shuffled) == STRIPPED.evaluate(hand)


@given(hands(DeckKind.STRIPPED, 6, 7))
def test_stripped_best_five_is_the_best_five_card_subset(hand: list[Card]) -> None:
    evaluation = STRIPPED.evaluate(hand)
    best = max(STRIPPED.strength(five) for five in combinations(hand, 5))
    assert evaluation.strength == best == STRIPPED.strength(hand)
    assert len(evaluation.cards) == 5 and set(evaluation.cards) <= set(hand)
    assert STRIPPED.strength(evaluation.cards) == best


@given(hands(DeckKind.STRIPPED, 5, 7), st.permutations(range(4)))
def test_stripped_suit_renaming_changes_only_the_suit_tie_break(
    hand: list[Card], mapping: list[int]
) -> None:
    other = renamed(hand, mapping)
    assert STRIPPED.category(other) is STRIPPED.category(hand)
    # Documented encoding: the suit order sits in the two lowest bits.
    assert STRIPPED.strength(other) >> 2 == STRIPPED.strength(hand) >> 2


# --- ace-to-five low -----------------------------------------------------------------------

LOW_NAMES = {1: "A", 10: "10", 11: "J", 12: "Q", 13: "K"}


def low_multisets(size: int) -> list[tuple[int, ...]]:
    """Every rank multiset (aces 1) of a ``size``-card hand from one 52-card pack."""
    return [
        ranks
        for ranks in combinations_with_replacement(range(1, 14), size)
        if max(Counter(ranks).values()) <= 4
    ]


def representative(ranks: Sequence[int]) -> list[Card]:
    """One hand with these ranks: the n-th card of a rank gets the n-th suit."""
    seen: Counter[int] = Counter()
    hand: list[Card] = []
    for rank in ranks:
        hand.append(Card.of(14 if rank == 1 else rank, seen[rank]))
        seen[rank] += 1
    return hand


def ways(ranks: Sequence[int]) -> int:
    """How many 52-card hands have this rank multiset."""
    return prod(comb(4, count) for count in Counter(ranks).values())


def shape_key(counts: Counter[int]) -> int:
    """Lowball category from the group sizes, 0 best (no pair) to 5 (four of a kind)."""
    first, second = (*sorted(counts.values(), reverse=True), 0)[:2]
    if first == 1:
        return 0
    if first == 4:
        return 5
    return {(2, 1): 1, (2, 0): 1, (2, 2): 2, (3, 1): 3, (3, 0): 3, (3, 2): 4}[(first, second)]


def oracle_bad(ranks: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """An independent lowball key (smaller is better): category, then group ranks."""
    counts = Counter(ranks)
    groups = sorted(counts, key=lambda rank: (-counts[rank], -rank))
    return shape_key(counts), tuple(groups)


def test_low_counts_every_five_card_hand_by_category_and_top_card() -> None:
    multisets = low_multisets(5)
    assert len(multisets) == comb(13 + 5 - 1, 5) - 13  # minus the thirteen five-of-a-kinds
    assert sum(ways(ranks) for ranks in multisets) == comb(52, 5)
    counts: Counter[Category] = Counter()
    by_top: Counter[str] = Counter()
    strengths: dict[tuple[int, ...], int] = {}
    for ranks in multisets:
        evaluation = LOW.evaluate(representative(ranks))
        counts[evaluation.category] += ways(ranks)
        strengths[ranks] = evaluation.strength
        if evaluation.category is Category.HIGH_CARD:
            top = low_rank(top_card(evaluation))
            assert top == max(ranks)
            by_top[LOW_NAMES.get(top, str(top))] += ways(ranks)
    assert dict(counts) == {
        Category.HIGH_CARD: comb(13, 5) * 4**5,
        Category.PAIR: 13 * comb(4, 2) * comb(12, 3) * 4**3,
        Category.TWO_PAIR: comb(13, 2) * comb(4, 2) ** 2 * 11 * 4,
        Category.THREE_OF_A_KIND: 13 * comb(4, 3) * comb(12, 2) * 4**2,
        Category.FULL_HOUSE: 13 * comb(4, 3) * 12 * comb(4, 2),
        Category.FOUR_OF_A_KIND: 13 * 12 * 4,
    }
    # Top card t (aces low): the other four ranks come from the t - 1 below it.
    expected_top = {LOW_NAMES.get(t, str(t)): comb(t - 1, 4) * 4**5 for t in range(5, 14)}
    assert dict(by_top) == expected_top
    assert sum(expected_top.values()) == comb(13, 5) * 4**5
    # Every rank multiset is its own class, ordered as the independent key orders them.
    assert len(set(strengths.values())) == len(multisets)
    by_strength = sorted(multisets, key=strengths.__getitem__, reverse=True)
    assert by_strength == sorted(multisets, key=oracle_bad)


def test_low_categories_best_first() -> None:
    assert LOW.categories() == (
        Category.HIGH_CARD, Category.PAIR, Category.TWO_PAIR, Category.THREE_OF_A_KIND,
        Category.FULL_HOUSE, Category.FOUR_OF_A_KIND,
    )  # fmt: skip
    assert STRONG.categories() == (*reversed(LOW.categories()[1:]), Category.HIGH_CARD)


def test_low_wheel_is_best_and_straights_and_flushes_do_not_count() -> None:
    wheel = LOW.evaluate(cards("As 2h 3d 4c 5s"))
    assert wheel.description == "Five-four low"
    assert [low_rank(card) for card in wheel.cards] == [5, 4, 3, 2, 1]
    assert LOW.strength(cards("Ah 2h 3h 4h 5h")) == wheel.strength
    six_flush = LOW.evaluate(cards("2h 3h 4h 5h 6h"))
    assert six_flush.category is Category.HIGH_CARD
    assert six_flush.description == "Six-five low"
    assert six_flush.strength > LOW.strength(cards("7s 5h 4d 3c 2s"))
    assert wheel.strength > six_flush.strength
    assert max(LOW.strength(representative(r)) for r in low_multisets(5)) == wheel.strength


def test_low_aces_pair_is_worse_than_no_pair_but_best_of_the_pairs() -> None:
    aces = LOW.evaluate(cards("As Ah 2d 3c 4s"))
    assert aces.category is Category.PAIR and aces.description == "Pair of aces"
    worst_no_pair = LOW.strength(cards("Ks Qh Jd 10c 9s"))
    assert aces.strength < worst_no_pair
    assert aces.strength > LOW.strength(cards("2s 2h 3d 4c 5s"))
    assert LOW.strength(cards("As Ah Kd Qc Js")) > LOW.strength(cards("2s 2h 3d 4c 5s"))


@pytest.mark.parametrize(
    ("text", "description"),
    [
        ("7s 5h 4d 3c 2s", "Seven-five low"),
        ("Ks 2h 3d 4c 5s", "King-five low"),
        ("10s 9h 3d 4c 5s", "Ten-nine low"),
        ("5s 3h", "Five-three low"),
        ("7d", "Seven low"),
        ("As", "Ace low"),
        ("Ks Kh", "Pair of kings"),
        ("Ks Kh 5d 5c As", "Two pair, kings and fives"),
        ("7s 7h 7d", "Three of a kind, sevens"),
        ("Ks Kh Kd 5c 5s", "Full house, kings over fives"),
        ("Ks Kh Kd Kc 5s", "Four of a kind, kings"),
    ],
)
def test_low_descriptions(text: str, description: str) -> None:
    assert LOW.describe(cards(text)) == description


def test_low_best_five_of_seven_and_six() -> None:
    seven = LOW.evaluate(cards("As Ad 2s 3s 4s Kd Kh"))
    assert seven.description == "King-four low"
    assert len(seven.cards) == 5 and top_card(seven) in cards("Kd Kh")
    assert LOW.describe(cards("2s 3h 4d 5c 7s 9h 9d")) == "Seven-five low"
    assert LOW.describe(cards("Qs Qh Jd Jc 9s 9h")) == "Two pair, jacks and nines"
    assert LOW.describe(cards("Qs Qh Qd Qc 9s 9h 9d")) == "Full house, nines over queens"


def test_low_short_hands_play_every_card() -> None:
    assert LOW.strength(cards("As 2h")) > LOW.strength(cards("2s 3h"))
    assert LOW.strength(cards("Ks Qh")) > LOW.strength(cards("As Ah"))
    assert LOW.strength(cards("As Ah")) > LOW.strength(cards("2s 2h"))
    four = LOW.evaluate(cards("9s 9h 2d 2c"))
    assert four.category is Category.TWO_PAIR and len(four.cards) == 4
    assert LOW.category(cards("9s 9h 9d 9c")) is Category.FOUR_OF_A_KIND


def test_low_pairs_strong_reading() -> None:
    """Any pair beats any non-pair; between made hands the higher wins; aces stay low."""
    assert STRONG.strength(cards("2s 2h")) > STRONG.strength(cards("As 2h"))
    assert STRONG.strength(cards("Ks Kh")) > STRONG.strength(cards("Qs Qh"))
    assert STRONG.strength(cards("2s 2h")) > STRONG.strength(cards("As Ah"))
    assert STRONG.strength(cards("As 2h")) > STRONG.strength(cards("Ks Qh"))
    assert STRONG.strength(cards("3s 3h 3d")) > STRONG.strength(cards("Ks Kh Qd"))
    assert STRONG.strength(cards("Ks Kh Qd")) > STRONG.strength(cards("Ks Kh Jd"))
    assert STRONG.strength(cards("2s 2h 3d 3c")) > STRONG.strength(cards("Ks Kh Qd Jc"))
    assert STRONG.describe(cards("As Ad 2s 3s 4s Kd Kh")) == "Two pair, kings and aces"
    assert STRONG.describe(cards("As 2d 3s 4s 6s Kd Qh")) == "Six-four low"


def test_low_pairs_strong_orders_every_five_card_class() -> None:
    multisets = low_multisets(5)
    strength = {ranks: STRONG.strength(representative(ranks)) for ranks in multisets}

    def oracle(ranks: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
        shape_key, groups = oracle_bad(ranks)
        if shape_key == 0:
            return 0, tuple(-rank for rank in groups)  # no pair: low is good
        return shape_key, groups  # made hands: high poker, aces low

    assert sorted(multisets, key=strength.__getitem__) == sorted(multisets, key=oracle)
    assert len(set(strength.values())) == len(multisets)


def test_low_joker_is_the_lowest_missing_rank() -> None:
    one = LowRanking(jokers=1)
    joker = Card.joker(0)
    wheel = one.evaluate(cards("As 2h 3d 4c jk"))
    assert wheel.description == "Five-four low"
    assert wheel.strength == one.strength(cards("As 2h 3d 4c 5s"))
    ((wild, shown),) = wheel.stands_for
    assert wild == joker and shown.rank is Rank.FIVE
    assert top_card(wheel).rank is Rank.FIVE and wheel.cards[0] == joker
    ace = one.evaluate(cards("2s 3h 4d 5c jk"))
    assert ace.description == "Five-four low"
    assert dict(ace.stands_for)[joker].rank is Rank.ACE
    paired = one.evaluate(cards("7s 7h 2d 3c jk"))
    assert paired.category is Category.PAIR
    assert dict(paired.stands_for)[joker].rank is Rank.ACE
    assert one.evaluate(cards("jk")).description == "Ace low"
    # With 7 cards the joker fills the best five: A-2-4-joker-... makes the wheel's three.
    seven = one.evaluate(cards("As 2h 4d 5c Ks Qh jk"))
    assert seven.description == "Five-four low"
    assert dict(seven.stands_for)[joker].rank is Rank.THREE


def test_low_two_jokers_are_the_two_lowest_missing_ranks() -> None:
    two = LOW_JOKERS.evaluate(cards("2s 3h 4d jk jk"))
    assert two.description == "Five-four low"
    assert sorted(low_rank(shown) for _, shown in two.stands_for) == [1, 5]
    short = LOW_JOKERS.evaluate(cards("Ks Qh jk jk"))
    assert short.description == "King-queen low"
    assert sorted(low_rank(shown) for _, shown in short.stands_for) == [1, 2]


def test_low_card_a_fitter_shows_is_never_in_the_hand() -> None:
    hand = cards("2c 3c 4c 5c 6c Ac jk")
    shown = dict(LowRanking(jokers=1).evaluate(hand).stands_for)
    assert all(card not in hand for card in shown.values())


def test_low_natural_wild_cards_play_as_fitters() -> None:
    deuces = LowRanking(wilds=Wilds.parse("2"))
    evaluation = deuces.evaluate(cards("2c 3d 4h 5s 6c"))
    assert evaluation.description == "Six-five low"
    assert dict(evaluation.stands_for)[Card.of(2, Suit.CLUBS)].rank is Rank.ACE
    both = deuces.evaluate(cards("2c 2d 3h 4s 5c"))
    assert both.description == "Five-four low"
    assert sorted(low_rank(shown) for _, shown in both.stands_for) == [1, 2]
    assert deuces.options() == {"pairs": "bad", "wild": "2"}


def test_low_decks_options_and_errors() -> None:
    assert LOW.deck is DeckKind.STANDARD
    assert LowRanking(jokers=1).deck is DeckKind.ONE_JOKER
    assert LOW_JOKERS.deck is DeckKind.TWO_JOKERS
    assert LOW.options() == {"pairs": "bad"}
    assert LowRanking(pairs="strong", jokers=1).options() == {"pairs": "strong", "jokers": "1"}
    assert LowRanking.from_options({"pairs": "Strong"}) == LowRanking(pairs="strong")
    assert LowRanking.from_options({}, jokers=2) == LOW_JOKERS
    with pytest.raises(OptionError, match="'pairs'"):
        LowRanking.from_options({"pairs": "good"})
    with pytest.raises(OptionError, match="'ace-low'"):
        LowRanking.from_options({"ace-low": "yes"})
    with pytest.raises(OptionError, match="jokers"):
        LowRanking.from_options({}, jokers=3)
    with pytest.raises(OptionError, match="pairs"):
        LowRanking.from_options({"pairs": "strong"}, wilds=Wilds.parse("2"))
    with pytest.raises(OptionError, match="joker"):
        LowRanking(pairs="strong", jokers=1, wilds=Wilds(joker=JokerMode.WILD))
    with pytest.raises(CardError):
        LOW.strength(cards("As 2h 3d 4c jk"))
    with pytest.raises(CardError):
        LowRanking(jokers=1).evaluate([*cards("As 2h 3d"), Card.joker(1)])
    with pytest.raises(HandError):
        LOW.strength([])
    with pytest.raises(HandError):
        LOW.evaluate(cards("As 2h 3d 4c 5s 6s 7s 8s"))
    with pytest.raises(HandError):
        LOW.strength([Card.of(14, 0), Card.of(14, 0)])


@pytest.mark.parametrize("low", [LOW, LOW_JOKERS, STRONG, LowRanking(wilds=Wilds.parse("2"))])
@pytest.mark.parametrize("size", [1, 2, 5, 7])
def test_low_strength_batch_matches_strength(low: LowRanking, size: int) -> None:
    rng = np.random.default_rng(size)
    deck = np.array([card.code for card in low.deck.cards])
    rows = np.array([rng.permutation(deck)[:size] for _ in range(500)])
    expected = [low.strength([Card(int(code)) for code in row]) for row in rows]
    assert low.strength_batch(rows).tolist() == expected


def test_low_rank_of_a_joker_is_an_error() -> None:
    with pytest.raises(CardError):
        low_rank(Card.joker(0))


@given(hands(DeckKind.TWO_JOKERS, 1, 7), st.randoms(), st.sampled_from([LOW_JOKERS, STRONG]))
def test_low_strength_ignores_card_order(hand: list[Card], rng: Random, low: LowRanking) -> None:
    if low is STRONG:
        hand = [card for card in hand if not card.is_joker] or [Card.of(7, 0)]
    shuffled = list(hand)
    rng.shuffle(shuffled)
    assert low.strength(shuffled) == low.strength(hand) == low.evaluate(hand).strength


@given(hands(DeckKind.TWO_JOKERS, 1, 7), st.permutations(range(4)))
def test_low_suit_renaming_keeps_the_strength(hand: list[Card], mapping: list[int]) -> None:
    assert LOW_JOKERS.strength(renamed(hand, mapping)) == LOW_JOKERS.strength(hand)


@given(hands(DeckKind.STANDARD, 1, 7), st.randoms())
def test_low_strength_depends_only_on_ranks(hand: list[Card], rng: Random) -> None:
    """Any re-suiting keeps the strength (what the multiset census above relies on)."""
    suits = [0, 1, 2, 3]
    resuited: list[Card] = []
    for card in sorted(hand, key=lambda c: c.code):
        assert card.rank is not None
        rng.shuffle(suits)
        taken = {c.suit for c in resuited if c.rank == card.rank}
        suit = next(s for s in suits if s not in taken)
        resuited.append(Card.of(card.rank, suit))
    assert LOW.strength(resuited) == LOW.strength(hand)


@given(hands(DeckKind.TWO_JOKERS, 6, 7))
def test_low_best_five_is_the_best_five_card_subset(hand: list[Card]) -> None:
    evaluation = LOW_JOKERS.evaluate(hand)
    best = max(LOW_JOKERS.strength(five) for five in combinations(hand, 5))
    assert evaluation.strength == best
    assert len(evaluation.cards) == 5 and set(evaluation.cards) <= set(hand)
    assert LOW_JOKERS.strength(evaluation.cards) == best
    assert {wild for wild, _ in evaluation.stands_for} == {
        c for c in evaluation.cards if c.is_joker
    }


@given(hands(DeckKind.TWO_JOKERS, 1, 7))
def test_low_fitter_is_never_worse_than_any_natural_card(hand: list[Card]) -> None:
    strength = LOW_JOKERS.strength(hand)
    for index, card in enumerate(hand):
        if not card.is_joker:
            continue
        for natural in DeckKind.STANDARD.cards:
            if natural not in hand:
                replaced = [*hand[:index], natural, *hand[index + 1 :]]
                assert LOW_JOKERS.strength(replaced) <= strength


DEUCES = LowRanking(wilds=Wilds.parse("2"))


@given(hands(DeckKind.STANDARD, 1, 7))
def test_low_wild_deuce_is_never_worse_than_any_natural_card(hand: list[Card]) -> None:
    strength = DEUCES.strength(hand)
    for index, card in enumerate(hand):
        if card.rank is not Rank.TWO:
            continue
        for natural in DeckKind.STANDARD.cards:
            if natural not in hand and natural.rank is not Rank.TWO:
                replaced = [*hand[:index], natural, *hand[index + 1 :]]
                assert DEUCES.strength(replaced) <= strength
