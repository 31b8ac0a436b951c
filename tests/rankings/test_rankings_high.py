"""High poker hands: the rule texts' examples, wild-card rules, and a brute-force referee."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guts.cards import Card, DeckKind, Rank, Suit, parse_cards
from guts.errors import HandError, OptionError
from guts.rankings import Category, make_ranking
from guts.rankings.high import HighRanking
from guts.rankings.wilds import JokerMode, Wilds

PLAIN = HighRanking()
BUG = HighRanking(jokers=1)
TWO_BUGS = HighRanking(jokers=2)
DEUCES = HighRanking(wilds=Wilds.of([2]))
ONE_EYED = HighRanking(wilds=Wilds.of([], parse_cards("Js Jh")))
WILD_JOKER = HighRanking(wilds=Wilds.of(joker=JokerMode.WILD), jokers=1)


def hand(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


# --- An independent referee: natural five-card ranks and brute-force substitution ----------

def natural_value(cards: tuple[Card, ...], ace_low: bool = True) -> tuple[int, ...]:
    """Rank a natural hand of five cards (or fewer) the slow, obvious way."""
    ranks = sorted((int(c.rank or 0) for c in cards), reverse=True)
    counts = Counter(ranks)
    shape = sorted(counts.values(), reverse=True)
    by_count = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    flush = len(cards) == 5 and len({c.suit for c in cards}) == 1
    straight_top = 0
    if len(cards) == 5 and len(counts) == 5:
        if ranks[0] - ranks[4] == 4:
            straight_top = ranks[0]
        elif ace_low and ranks == [14, 5, 4, 3, 2]:
            straight_top = 5
    if straight_top and flush:
        return (8, straight_top)
    if shape[0] == 4:
        return (7, *by_count)
    if shape[:2] == [3, 2]:
        return (6, *by_count)
    if flush:
        return (5, *ranks)
    if straight_top:
        return (4, straight_top)
    if shape[0] == 3:
        return (3, *by_count)
    if shape[:2] == [2, 2]:
        return (2, *by_count)
    if shape[0] == 2:
        return (1, *by_count)
    return (0, *ranks)


def referee(cards: tuple[Card, ...], ranking: HighRanking) -> tuple[int, ...]:
    """Best value over every five-card subset and every legal substitution of the wilds."""
    mode = ranking.wilds.joker
    size = min(5, len(cards))
    best: tuple[int, ...] = (-1,)
    naturals_all = [c for c in DeckKind.STANDARD.cards]
    for five in combinations(cards, size):
        wild = [c for c in five if ranking.wilds.is_wild(c)]
        bugs = [c for c in five if c.is_joker and mode is JokerMode.BUG]
        natural = tuple(c for c in five if c not in wild and c not in bugs)
        free = len(wild) + len(bugs)
        counts = Counter(int(c.rank or 0) for c in natural)
        # five of a kind: the only place a wild may duplicate a card in the hand
        if size == 5:
            for rank in range(14, 1, -1):
                bug_help = len(bugs) if rank == 14 else 0
                if counts[rank] + len(wild) + bug_help >= 5:
                    best = max(best, (9, rank))
                    break
        if free == 0:
            best = max(best, natural_value(natural, ranking.ace_low))
            continue
        unused = [c for c in naturals_all if c not in cards]
        for subs in permutations(unused, free):
            if any(subs[i] > subs[i + 1] for i in range(len(wild), free - 1)):
                continue  # bugs are interchangeable: try each set once
            wild_subs, bug_subs = subs[: len(wild)], subs[len(wild):]
            value = natural_value(natural + subs, ranking.ace_low)
            straightish = value[0] in (4, 5, 8)
            if bug_subs and not straightish and any(c.rank != Rank.ACE for c in bug_subs):
                continue
            del wild_subs
            best = max(best, value)
    return best


def to_value(ranking: HighRanking, cards: tuple[Card, ...]) -> tuple[int, ...]:
    """The referee's value shape, recovered from our strength."""
    strength = ranking.strength(cards)
    level = strength >> 20
    nibbles = [(strength >> shift) & 15 for shift in (16, 12, 8, 4, 0)]
    return (level, *[n for n in nibbles if n])


# --- The rule texts' examples ------------------------------------------------------------

def test_bug_two_pair_with_ace_kicker() -> None:
    result = BUG.evaluate(hand("9s 9h 7d 7c jk"))
    assert result.category is Category.TWO_PAIR
    assert result.description == "Two pair, nines and sevens, ace kicker"
    assert BUG.strength(hand("9s 9h 7d 7c jk")) == PLAIN.strength(hand("9s 9h 7d 7c Ad"))


def test_five_aces_is_the_top_bug_hand() -> None:
    five_aces = BUG.strength(hand("As Ah Ad Ac jk"))
    royal = BUG.strength(hand("Ks Qs Js Ts jk"))
    assert BUG.category(hand("As Ah Ad Ac jk")) is Category.FIVE_OF_A_KIND
    assert five_aces > royal
    assert BUG.category(hand("Ks Qs Js Ts jk")) is Category.STRAIGHT_FLUSH


def test_bug_in_a_flush_is_the_highest_missing_card() -> None:
    assert BUG.strength(hand("As Ks Js 4s 2s")) > BUG.strength(hand("Ah Th 9h 8h jk"))
    result = BUG.evaluate(hand("Ah Th 9h 8h jk"))
    assert dict(result.stands_for)[Card.joker()] is parse_cards("Kh")[0]


def test_bug_completes_a_straight_but_is_not_wild_for_pairs() -> None:
    assert BUG.category(hand("9s 8h 7d 6c jk")) is Category.STRAIGHT
    assert BUG.describe(hand("9s 8h 7d 6c jk")) == "Straight, ten high"
    assert BUG.category(hand("Ks Kh 7d 4c jk")) is Category.PAIR
    assert BUG.category(hand("As Kh 7d 4c jk")) is Category.PAIR  # the bug pairs the ace


def test_two_bugs() -> None:
    assert TWO_BUGS.category(hand("As Ah Ad jk joker")) is Category.FIVE_OF_A_KIND
    assert TWO_BUGS.category(hand("Ks Kh Kd jk joker")) is Category.FULL_HOUSE
    assert TWO_BUGS.category(hand("9s 8s 5s jk joker")) is Category.STRAIGHT_FLUSH


def test_wild_cannot_duplicate_a_natural_ace_in_a_flush() -> None:
    result = DEUCES.evaluate(hand("Ah 2c 9h 8h 4h"))
    assert result.category is Category.FLUSH
    assert dict(result.stands_for)[parse_cards("2c")[0]] is parse_cards("Kh")[0]
    assert DEUCES.strength(hand("Ah 2c 9h 8h 4h")) == PLAIN.strength(hand("Ah Kh 9h 8h 4h"))


def test_wilds_may_duplicate_only_for_five_of_a_kind() -> None:
    five = DEUCES.evaluate(hand("Ah Ac Ad As 2c"))
    assert five.category is Category.FIVE_OF_A_KIND
    assert five.description == "Five of a kind, aces"
    assert DEUCES.strength(hand("Ah Ac Ad As 2c")) > DEUCES.strength(hand("Kh Qh Jh Th 2c"))


def test_deuces_wild_and_one_eyed_jacks() -> None:
    assert DEUCES.category(hand("2s 2h 2d 2c 7h")) is Category.FIVE_OF_A_KIND
    assert ONE_EYED.category(hand("Js Jh 7d 7c 7h")) is Category.FIVE_OF_A_KIND
    assert ONE_EYED.category(hand("Js Jh Jd Jc 7h")) is Category.FOUR_OF_A_KIND
    assert ONE_EYED.category(hand("Js Jd Jc 5h 7h")) is Category.THREE_OF_A_KIND
    assert ONE_EYED.category(hand("Jd Jc 5h 7h 9s")) is Category.PAIR  # two-eyed jacks


def test_wild_joker_is_fully_wild() -> None:
    assert WILD_JOKER.category(hand("Ks Kh 7d 4c jk")) is Category.THREE_OF_A_KIND
    assert BUG.category(hand("Ks Kh 7d 4c jk")) is Category.PAIR


def test_wild_widow_rank_decided_at_run_time() -> None:
    widow = PLAIN.__class__(wilds=Wilds().with_rank(Rank.SEVEN))
    assert widow.category(hand("7s 7h Kd Kc 4c")) is Category.FOUR_OF_A_KIND


def test_jacks_or_better_boundaries() -> None:
    tens_best = PLAIN.strength(hand("Tc Td Ah Ks Qc"))
    jacks_worst = PLAIN.strength(hand("Jc Jd 2h 3s 4c"))
    two_pair_small = PLAIN.strength(hand("5c 5d 3h 3s 6c"))
    assert two_pair_small > jacks_worst > tens_best


def test_ace_low_straight_option() -> None:
    wheel = hand("Ah 2d 3c 4s 5h")
    assert PLAIN.category(wheel) is Category.STRAIGHT
    assert PLAIN.describe(wheel) == "Straight, five high"
    assert PLAIN.strength(wheel) < PLAIN.strength(hand("2d 3c 4s 5h 6h"))
    no_wheel = HighRanking(ace_low=False)
    assert no_wheel.category(wheel) is Category.HIGH_CARD


def test_best_five_of_seven_and_the_playing_cards() -> None:
    result = PLAIN.evaluate(hand("Kh Kd Ks 5c 5d 2h 2s"))
    assert result.description == "Full house, kings over fives"
    assert {c.ascii for c in result.cards} == {"Kh", "Kd", "Ks", "5c", "5d"}
    flush = PLAIN.evaluate(hand("Ah Qh 9h 5h 3h 2h Kc"))
    assert [c.ascii for c in flush.cards] == ["Ah", "Qh", "9h", "5h", "3h"]


def test_descriptions() -> None:
    cases = {
        "As Ks Qs Js Ts": "Royal flush",
        "9d 8d 7d 6d 5d": "Straight flush, nine high",
        "Qs Qh Qd Qc 3h": "Four of a kind, queens",
        "6s 6h 6d 2c 2h": "Full house, sixes over twos",
        "Ah 9h 7h 4h 3h": "Flush, ace high",
        "7s 7h 7d Kc 2h": "Three of a kind, sevens",
        "As Ah 9d 5c 2h": "Pair of aces",
        "Ks Jh 9d 5c 2h": "King high",
    }
    for text, words in cases.items():
        assert PLAIN.describe(hand(text)) == words


def test_short_hands_play_every_card() -> None:
    assert PLAIN.category(hand("As Ah")) is Category.PAIR
    assert PLAIN.category(hand("As Ah Ad Ac")) is Category.FOUR_OF_A_KIND
    assert PLAIN.category(hand("As Ks Qs")) is Category.HIGH_CARD  # no 3-card flushes here


def test_bad_hands_and_options() -> None:
    with pytest.raises(HandError, match="duplicate"):
        PLAIN.strength([Card.of(14, 3), Card.of(14, 3)])
    with pytest.raises(HandError, match="1 to 7 cards"):
        PLAIN.strength(DeckKind.STANDARD.cards[:8])
    with pytest.raises(ValueError, match="not in the 52-card"):
        PLAIN.strength(hand("As Kd jk Qh 2c"))
    with pytest.raises(OptionError, match="ace-low"):
        make_ranking("high", {"aces": "low"})
    with pytest.raises(OptionError, match="yes or no"):
        make_ranking("high", {"ace-low": "maybe"})


# --- Properties --------------------------------------------------------------------------

NATURALS = list(DeckKind.STANDARD.cards)
WITH_JOKERS = list(DeckKind.TWO_JOKERS.cards)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(NATURALS), min_size=5, max_size=5, unique=True))
def test_natural_five_matches_referee(cards: list[Card]) -> None:
    assert to_value(PLAIN, tuple(cards)) == referee(tuple(cards), PLAIN)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.sampled_from(WITH_JOKERS), min_size=5, max_size=5, unique=True),
    st.sampled_from(["deuces", "one-eyed", "bug", "wild-joker"]),
)
def test_wild_five_matches_brute_force_substitution(cards: list[Card], kind: str) -> None:
    ranking = {
        "deuces": HighRanking(wilds=Wilds.of([2]), jokers=2),
        "one-eyed": HighRanking(wilds=Wilds.of([], parse_cards("Js Jh")), jokers=2),
        "bug": TWO_BUGS,
        "wild-joker": HighRanking(wilds=Wilds.of(joker=JokerMode.WILD), jokers=2),
    }[kind]
    free = sum(ranking.wilds.is_wild(c) or c.is_joker for c in cards)
    if free > 2:
        cards = [c for c in cards if not (ranking.wilds.is_wild(c) or c.is_joker)]
        cards += [c for c in NATURALS if c not in cards and not ranking.wilds.is_wild(c)][
            : 5 - len(cards)
        ]
    assert to_value(ranking, tuple(cards)) == referee(tuple(cards), ranking)


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.sampled_from(NATURALS), min_size=6, max_size=7, unique=True),
    st.integers(0, 1),
)
def test_six_and_seven_cards_match_referee(cards: list[Card], deuces: int) -> None:
    ranking = HighRanking(wilds=Wilds.of([2])) if deuces else PLAIN
    if sum(ranking.wilds.is_wild(c) for c in cards) > 1:
        return
    assert to_value(ranking, tuple(cards)) == referee(tuple(cards), ranking)


@given(st.lists(st.sampled_from(WITH_JOKERS), min_size=5, max_size=7, unique=True),
       st.randoms())
def test_strength_independent_of_card_order(cards: list[Card], rng: object) -> None:
    shuffled = list(cards)
    rng.shuffle(shuffled)  # type: ignore[attr-defined]
    for ranking in (PLAIN, DEUCES, BUG, WILD_JOKER):
        full = HighRanking(ranking.wilds, jokers=2)
        assert full.strength(cards) == full.strength(shuffled)


@given(
    st.lists(st.sampled_from(NATURALS), min_size=5, max_size=7, unique=True),
    st.lists(st.sampled_from(NATURALS), min_size=5, max_size=7, unique=True),
    st.permutations(list(Suit)),
)
def test_suit_renaming_preserves_order(a: list[Card], b: list[Card], perm: list[Suit]) -> None:
    def rename(cards: list[Card]) -> list[Card]:
        return [Card.of(int(c.rank or 0), perm[c.code & 3]) for c in cards]

    for ranking in (PLAIN, DEUCES):
        before = (ranking.strength(a) > ranking.strength(b)) - (
            ranking.strength(a) < ranking.strength(b)
        )
        after = (ranking.strength(rename(a)) > ranking.strength(rename(b))) - (
            ranking.strength(rename(a)) < ranking.strength(rename(b))
        )
        assert before == after


@given(st.lists(st.sampled_from(NATURALS), min_size=5, max_size=7, unique=True),
       st.data())
def test_a_wild_never_makes_a_hand_worse(cards: list[Card], data: st.DataObject) -> None:
    """Replacing any natural card by a wild card (a deuce, a wild joker) never hurts."""
    deuces = HighRanking(wilds=Wilds.of([2], joker=JokerMode.WILD), jokers=1)
    natural = [c for c in cards if c.rank != Rank.TWO]
    if len(natural) < 5:
        return
    index = data.draw(st.integers(0, len(natural) - 1))
    spare_deuce = Card.of(2, data.draw(st.sampled_from(list(Suit))))
    for wild in (Card.joker(), spare_deuce):
        replaced = list(natural)
        replaced[index] = wild
        assert deuces.strength(replaced) >= deuces.strength(natural)
