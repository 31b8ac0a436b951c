"""Two-card, three-card and single-card rankings, checked against the rule texts.

Category counts are derived here by combinatorics, and wild-card hands are checked against
a plain brute-force substitution search written in this file.
"""

from __future__ import annotations

import pickle
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import replace
from itertools import combinations, pairwise, permutations
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guts.cards import Card, DeckKind, Rank, Suit, parse_cards
from guts.errors import CardError, HandError, OptionError
from guts.rankings.base import Category
from guts.rankings.single import SingleCardRanking
from guts.rankings.small import ThreeCardRanking, TwoCardRanking
from guts.rankings.wilds import JokerMode, Wilds

C = Category
STANDARD = DeckKind.STANDARD.cards
ALL_TWO = list(combinations(STANDARD, 2))
ALL_THREE = list(combinations(STANDARD, 3))
SmallRanking = TwoCardRanking | ThreeCardRanking


def hand(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def ranks_of(cards: Sequence[Card]) -> list[int]:
    """Ranks of natural cards, highest first (from the codes, for speed)."""
    return sorted(((c.code >> 2) + 2 for c in cards), reverse=True)


def is_ace(card: Card) -> bool:
    return card.code < 52 and card.code >> 2 == Rank.ACE - 2


def survey(ranking: SmallRanking, hands: Sequence[Sequence[Card]]) -> tuple[Counter[Category], int]:
    """Counts by category and the number of distinct strengths; checks on the way that
    ``strength`` agrees with ``evaluate`` and that every hand of a better category beats
    every hand of a worse one."""
    low: dict[Category, int] = {}
    high: dict[Category, int] = {}
    counts: Counter[Category] = Counter()
    strengths: set[int] = set()
    for cards in hands:
        evaluation = ranking.evaluate(cards)
        value = evaluation.strength
        assert ranking.strength(cards) == value
        cat = evaluation.category
        counts[cat] += 1
        strengths.add(value)
        low[cat] = min(low.get(cat, value), value)
        high[cat] = max(high.get(cat, value), value)
    present = [c for c in ranking.categories() if c in low]
    for better, worse in pairwise(present):
        assert low[better] > high[worse], (better, worse)
    return counts, len(strengths)


# -- two-card guts -----------------------------------------------------------------------


def rule_text_two_card_order() -> list[tuple[int, int]]:
    """'A-A, then K-K, Q-Q, etc. down to 2-2, then A-K, A-Q, A-J, .. , A-2, K-Q, ..., 3-2'."""
    pairs = [(r, r) for r in range(14, 1, -1)]
    unequal = [(high, low) for high in range(14, 2, -1) for low in range(high - 1, 1, -1)]
    return pairs + unequal


def test_two_card_order_is_exactly_the_rule_texts() -> None:
    ranking = TwoCardRanking()
    expected = rule_text_two_card_order()
    assert len(expected) == 13 + comb(13, 2)
    strengths: dict[tuple[int, int], set[int]] = defaultdict(set)
    for cards in ALL_TWO:
        high, low = ranks_of(cards)
        strengths[(high, low)].add(ranking.strength(cards))
    assert all(len(s) == 1 for s in strengths.values()), "suits must not matter"
    ordered = [strengths[key].pop() for key in expected]
    assert ordered == sorted(ordered, reverse=True)
    assert len(set(ordered)) == len(ordered)


def test_two_card_rule_sentences() -> None:
    ranking = TwoCardRanking()

    def beats(a: str, b: str) -> bool:
        return ranking.strength(hand(a)) > ranking.strength(hand(b))

    assert beats("2c 2d", "As Ks")  # any pair beats any two unequal cards
    assert beats("3c 3d", "2h 2s")  # a higher pair beats a lower pair
    assert beats("Ac 2d", "Ks Qs")  # the highest card wins
    assert beats("Ac 3d", "As 2d")  # then the other card
    assert ranking.strength(hand("Ac 3d")) == ranking.strength(hand("Ah 3s"))  # tie
    assert not beats("Qs Js", "Qd Jc")  # no straights or flushes by default


def two_card_expected(
    straights: bool, flushes: bool, ace_low: bool, crumpler: bool
) -> tuple[Counter[Category], int]:
    """Counts by category over all C(52,2) hands, and the number of hand classes."""
    sets = comb(13, 2)  # rank pairs of unequal cards
    crumpler_sets = 1 if crumpler else 0
    straight_sets = (12 + ace_low - crumpler_sets) if straights else 0  # A-K .. 3-2, A-2
    other_sets = sets - crumpler_sets - straight_sets
    suited, offsuit = 4, 16 - 4
    counts: Counter[Category] = Counter({C.PAIR: 13 * comb(4, 2)})
    classes = 13 + crumpler_sets
    if crumpler:
        counts[C.ROYAL_CRUMPLER] = 16
    if straights and flushes:
        counts[C.STRAIGHT_FLUSH] = straight_sets * suited
        counts[C.STRAIGHT] = straight_sets * offsuit
        classes += 2 * straight_sets
    elif straights:
        counts[C.STRAIGHT] = straight_sets * 16
        classes += straight_sets
    if flushes:
        counts[C.FLUSH] = other_sets * suited
        counts[C.HIGH_CARD] = other_sets * offsuit
        classes += 2 * other_sets
    else:
        counts[C.HIGH_CARD] = other_sets * 16
        classes += other_sets
    return counts, classes


@pytest.mark.parametrize("straights", [False, True])
@pytest.mark.parametrize("flushes", [False, True])
@pytest.mark.parametrize("ace_low", [False, True])
@pytest.mark.parametrize("crumpler", [False, True])
def test_two_card_census(straights: bool, flushes: bool, ace_low: bool, crumpler: bool) -> None:
    ranking = TwoCardRanking(straights, flushes, ace_low, crumpler)
    counts, classes = two_card_expected(straights, flushes, ace_low, crumpler)
    assert sum(counts.values()) == comb(52, 2) == len(ALL_TWO)
    assert survey(ranking, ALL_TWO) == (counts, classes)


def test_two_card_straights_and_flushes_sit_between_pairs_and_high_cards() -> None:
    ranking = TwoCardRanking(straights=True, flushes=True)
    assert ranking.categories() == (C.PAIR, C.STRAIGHT_FLUSH, C.STRAIGHT, C.FLUSH, C.HIGH_CARD)
    assert ranking.describe(hand("Qs Js")) == "Straight flush, queen high"
    assert ranking.describe(hand("Kd Qc")) == "Straight, king high"
    assert ranking.describe(hand("Kd 9d")) == "Flush, king-nine"
    assert ranking.strength(hand("2c 2d")) > ranking.strength(hand("As Ks"))
    assert ranking.strength(hand("3c 2d")) > ranking.strength(hand("As Qs"))
    assert ranking.category(hand("Ac 2d")) is C.HIGH_CARD  # A-2 only with ace-low
    assert TwoCardRanking(straights=True).categories() == (C.PAIR, C.STRAIGHT, C.HIGH_CARD)
    assert TwoCardRanking(straights=True).category(hand("Qs Js")) is C.STRAIGHT
    assert TwoCardRanking(flushes=True).category(hand("Qs Js")) is C.FLUSH


def test_two_card_ace_low_straight() -> None:
    ranking = TwoCardRanking(straights=True, ace_low=True)
    wheel = ranking.evaluate(hand("Ac 2d"))
    assert wheel.category is C.STRAIGHT
    assert wheel.description == "Straight, two high"
    assert wheel.cards == hand("2d Ac")
    assert ranking.strength(hand("3c 2d")) > wheel.strength > ranking.strength(hand("Ac Qd"))
    assert TwoCardRanking(ace_low=True).category(hand("Ac 2d")) is C.HIGH_CARD


def test_royal_crumpler_beats_aces() -> None:
    ranking = TwoCardRanking(crumpler=True)
    crumplers = [h for h in ALL_TWO if ranks_of(h) == [3, 2]]
    assert len(crumplers) == 16
    assert {ranking.describe(h) for h in crumplers} == {"Royal Crumpler"}
    assert {ranking.strength(h) for h in crumplers} == {max(ranking.strength(h) for h in ALL_TWO)}
    assert ranking.strength(hand("3s 2s")) > ranking.strength(hand("As Ad"))
    assert ranking.category(hand("3s 2s")) is C.ROYAL_CRUMPLER
    assert TwoCardRanking(crumpler=True, straights=True).category(hand("3s 2d")) is (
        C.ROYAL_CRUMPLER
    )
    assert TwoCardRanking().category(hand("3s 2d")) is C.HIGH_CARD


def test_two_card_order_option() -> None:
    ranking = TwoCardRanking.from_options(
        {
            "straights": "yes",
            "flushes": "yes",
            "order": "pair,flush,straight-flush,straight,high-card",
        }
    )
    assert ranking.categories() == (C.PAIR, C.FLUSH, C.STRAIGHT_FLUSH, C.STRAIGHT, C.HIGH_CARD)
    assert ranking.strength(hand("Ks 9s")) > ranking.strength(hand("Qs Js"))
    survey(ranking, ALL_TWO)
    crumpler_last = TwoCardRanking(crumpler=True, order=(C.PAIR, C.HIGH_CARD, C.ROYAL_CRUMPLER))
    assert crumpler_last.strength(hand("3s 2s")) < crumpler_last.strength(hand("4s 2s"))


# -- three-card guts ---------------------------------------------------------------------


def three_card_expected(
    straights: bool, flushes: bool, ace_low: bool
) -> tuple[Counter[Category], int]:
    """Counts by category over all C(52,3) hands, and the number of hand classes."""
    sets = comb(13, 3)  # rank sets of three unequal cards
    straight_sets = (11 + ace_low) if straights else 0  # tops four to ace, plus A-2-3
    other_sets = sets - straight_sets
    suited, offsuit = 4, 4**3 - 4
    counts: Counter[Category] = Counter(
        {C.THREE_OF_A_KIND: 13 * comb(4, 3), C.PAIR: 13 * comb(4, 2) * 12 * 4}
    )
    classes = 13 + 13 * 12
    if straights and flushes:
        counts[C.STRAIGHT_FLUSH] = straight_sets * suited
        counts[C.STRAIGHT] = straight_sets * offsuit
        classes += 2 * straight_sets
    elif straights:
        counts[C.STRAIGHT] = straight_sets * 4**3
        classes += straight_sets
    if flushes:
        counts[C.FLUSH] = other_sets * suited
        counts[C.HIGH_CARD] = other_sets * offsuit
        classes += 2 * other_sets
    else:
        counts[C.HIGH_CARD] = other_sets * 4**3
        classes += other_sets
    return counts, classes


def test_three_card_default_census_matches_the_usual_numbers() -> None:
    counts, classes = three_card_expected(True, True, True)
    assert counts == {C.THREE_OF_A_KIND: 52, C.STRAIGHT_FLUSH: 48, C.STRAIGHT: 720,
                      C.FLUSH: 1096, C.PAIR: 3744, C.HIGH_CARD: 16440}  # fmt: skip
    assert classes == 13 + 12 + 12 + 274 + 156 + 274
    assert survey(ThreeCardRanking(), ALL_THREE) == (counts, classes)


@pytest.mark.parametrize("straights", [False, True])
@pytest.mark.parametrize("flushes", [False, True])
@pytest.mark.parametrize("ace_low", [False, True])
def test_three_card_census(straights: bool, flushes: bool, ace_low: bool) -> None:
    ranking = ThreeCardRanking(straights, flushes, ace_low)
    counts, classes = three_card_expected(straights, flushes, ace_low)
    assert sum(counts.values()) == comb(52, 3) == len(ALL_THREE)
    assert survey(ranking, ALL_THREE) == (counts, classes)


def test_three_card_default_order_and_descriptions() -> None:
    ranking = ThreeCardRanking()
    assert ranking.categories() == (
        C.THREE_OF_A_KIND, C.STRAIGHT_FLUSH, C.STRAIGHT, C.FLUSH, C.PAIR, C.HIGH_CARD,
    )  # fmt: skip
    examples = {
        "7c 7d 7h": "Three of a kind, sevens",
        "Qh Jh 10h": "Straight flush, queen high",
        "Kd Qc Js": "Straight, king high",
        "3d Ac 2s": "Straight, three high",
        "Kd 9d 4d": "Flush, king-nine-four",
        "Ah Ad Ks": "Pair of aces, king kicker",
        "Ah Kd 9s": "Ace-king-nine high",
    }
    for cards, words in examples.items():
        assert ranking.describe(hand(cards)) == words
    ladder = ["2c 2d 2h", "Ah Kh Qh", "Ah Kd Qs", "2h 5h 7h", "Ac Ad Ks", "Ah Kd Js"]
    strengths = [ranking.strength(hand(h)) for h in ladder]
    assert strengths == sorted(strengths, reverse=True)
    evaluation = ranking.evaluate(hand("Ac 2d 3s"))
    assert evaluation.cards == hand("3s 2d Ac")
    assert ranking.evaluate(hand("9c Kd 9s")).cards == hand("9s 9c Kd")


def test_ace_plays_high_or_low_but_straights_never_wrap() -> None:
    ranking = ThreeCardRanking()
    assert ranking.category(hand("Ac Kd Qs")) is C.STRAIGHT
    assert ranking.category(hand("Ac 2d 3s")) is C.STRAIGHT
    assert ranking.category(hand("Kc Ad 2s")) is C.HIGH_CARD
    assert ranking.strength(hand("4c 3d 2s")) > ranking.strength(hand("Ac 2d 3s"))
    no_wheel = ThreeCardRanking(ace_low=False)
    assert no_wheel.category(hand("Ac Kd Qs")) is C.STRAIGHT
    assert no_wheel.describe(hand("Ac 2d 3s")) == "Ace-three-two high"


def test_three_card_order_option_variants() -> None:
    high_flush = ThreeCardRanking.from_options(
        {"order": "straight-flush,trips,flush,straight,pair,high-card"}
    )
    assert high_flush.strength(hand("4s 3s 2s")) > high_flush.strength(hand("Ac Ad Ah"))
    assert high_flush.strength(hand("5s 3s 2s")) > high_flush.strength(hand("Ac Kd Qh"))
    survey(high_flush, ALL_THREE)
    same = ThreeCardRanking.from_options(
        {"order": "three-of-a-kind, straight flush, straight, flush, pair, nothing"}
    )
    assert same == ThreeCardRanking()
    stage_one = ThreeCardRanking.from_options(
        {"straights": "no", "flushes": "no", "order": "pair,trips,high-card"}
    )
    assert stage_one.strength(hand("2c 2d 5h")) > stage_one.strength(hand("Ac Ad Ah"))


@settings(max_examples=8, deadline=None)
@given(st.permutations(list(ThreeCardRanking().categories())))
def test_any_three_card_order_is_honoured(order: list[Category]) -> None:
    ranking = ThreeCardRanking(order=tuple(order))
    assert ranking.categories() == tuple(order)
    survey(ranking, ALL_THREE[::7])


# -- wild cards, jokers --------------------------------------------------------------------


def shaped(ranking: SmallRanking, cards: Sequence[Card]) -> bool:
    """Whether natural cards form a straight or flush that the ranking counts."""
    if ranking.flushes and len({c.code & 3 for c in cards}) == 1:
        return True
    ranks = ranks_of(cards)
    if not ranking.straights or len(set(ranks)) < len(ranks):
        return False
    if ranks[0] - ranks[-1] == len(ranks) - 1:
        return True
    return ranking.ace_low and set(ranks) == {14, *range(2, len(ranks) + 1)}


def brute_force(ranking: SmallRanking, cards: Sequence[Card]) -> int:
    """Try every substitute for every wild card and joker: distinct, none of them a
    natural card of the hand; a bug must be an ace or make a straight or flush."""
    natural = replace(ranking, wilds=Wilds(), jokers=0)
    wild = [c for c in cards if ranking.wilds.is_wild(c)]
    bugs = [c for c in cards if c.is_joker and c not in wild]
    naturals = [c for c in cards if c not in wild and c not in bugs]
    free = [c for c in STANDARD if c not in naturals]
    best = -1
    for subs in combinations(free, len(wild) + len(bugs)):
        full = [*naturals, *subs]
        # Which substitute each stand-in takes matters only for bugs: try every order.
        if (
            bugs
            and not shaped(ranking, full)
            and not any(all(is_ace(s) for s in order[len(wild) :]) for order in permutations(subs))
        ):
            continue
        best = max(best, natural.strength(full))
    return best


def check_against_brute_force(ranking: SmallRanking, hands: Sequence[Sequence[Card]]) -> int:
    natural = replace(ranking, wilds=Wilds(), jokers=0)
    checked = 0
    for cards in hands:
        stand_ins = [c for c in cards if ranking.wilds.is_wild(c) or c.is_joker]
        if not stand_ins:
            assert ranking.strength(cards) == natural.strength(cards)
            continue
        evaluation = ranking.evaluate(cards)
        assert evaluation.strength == ranking.strength(cards) == brute_force(ranking, cards)
        assert sorted(w for w, _ in evaluation.stands_for) == sorted(stand_ins)
        subs = [s for _, s in evaluation.stands_for]
        naturals = [c for c in cards if c not in stand_ins]
        assert len(set(subs)) == len(subs) and not set(subs) & set(naturals)
        assert all(not s.is_joker for s in subs)
        assert natural.strength([*naturals, *subs]) == evaluation.strength
        assert sorted(evaluation.cards) == sorted(cards)
        checked += 1
    return checked


def test_three_five_seven_stage_one_threes_wild_all_hands() -> None:
    ranking = ThreeCardRanking(straights=False, flushes=False, wilds=Wilds.of([3]))
    checked = check_against_brute_force(ranking, ALL_THREE)
    assert checked == comb(52, 3) - comb(48, 3)
    assert ranking.categories() == (C.THREE_OF_A_KIND, C.PAIR, C.HIGH_CARD)
    assert ranking.describe(hand("3c 9h 9d")) == "Three of a kind, nines"
    assert ranking.strength(hand("3c 9h 9d")) == ranking.strength(hand("9c 9h 9d"))
    assert ranking.describe(hand("3c Ah Kd")) == "Pair of aces, king kicker"
    assert ranking.evaluate(hand("3c 3d 3h")).description == "Three of a kind, aces"


def test_threes_wild_with_straights_and_flushes_all_hands() -> None:
    ranking = ThreeCardRanking(wilds=Wilds.of([3]))
    check_against_brute_force(ranking, ALL_THREE)
    # A wild card may stand for itself: 2-3-4 of clubs stays a straight flush.
    assert ranking.category(hand("2c 3c 4c")) is C.STRAIGHT_FLUSH
    evaluation = ranking.evaluate(hand("3d Kh Qh"))
    assert evaluation.description == "Straight flush, ace high"
    assert evaluation.stands_for == ((Card.of(3, Suit.DIAMONDS), Card.of(14, Suit.HEARTS)),)


@pytest.mark.parametrize("mode", [JokerMode.BUG, JokerMode.WILD])
@pytest.mark.parametrize("options", [{}, {"straights": "no"}, {"flushes": "no", "ace-low": "no"}])
def test_three_card_jokers(mode: JokerMode, options: dict[str, str]) -> None:
    ranking = ThreeCardRanking.from_options(options, wilds=Wilds.of(joker=mode), jokers=2)
    assert ranking.deck is DeckKind.TWO_JOKERS
    with_joker = [h for h in combinations(ranking.deck.cards, 3) if any(c.is_joker for c in h)]
    assert check_against_brute_force(ranking, with_joker) == 2 * comb(52, 2) + 52


def test_bug_is_an_ace_or_fills_a_straight_or_flush() -> None:
    ranking = ThreeCardRanking(jokers=1)
    assert ranking.describe(hand("Jk 7c 7d")) == "Pair of sevens, ace kicker"
    assert ranking.describe(hand("Jk Ac Ad")) == "Three of a kind, aces"
    assert ranking.describe(hand("Jk 8c 9d")) == "Straight, ten high"
    assert ranking.describe(hand("Jk Kh 4h")) == "Flush, ace-king-four"
    wild = ThreeCardRanking(jokers=1, wilds=Wilds.of(joker="wild"))
    assert wild.describe(hand("Jk 7c 7d")) == "Three of a kind, sevens"
    mixed = ThreeCardRanking(jokers=1, wilds=Wilds.of([2]))
    check_against_brute_force(
        mixed, [h for h in combinations(mixed.deck.cards, 3) if Card.joker() in h]
    )


@pytest.mark.parametrize(
    "options", [{}, {"straights": "yes", "flushes": "yes"}, {"crumpler": "yes", "straights": "yes"}]
)
@pytest.mark.parametrize("mode", [JokerMode.BUG, JokerMode.WILD])
def test_two_card_wilds_and_jokers(options: dict[str, str], mode: JokerMode) -> None:
    ranking = TwoCardRanking.from_options(options, wilds=Wilds.of([2], joker=mode), jokers=2)
    check_against_brute_force(ranking, list(combinations(ranking.deck.cards, 2)))


def test_two_card_wild_examples() -> None:
    ranking = TwoCardRanking(crumpler=True, wilds=Wilds.of([7]))
    assert ranking.describe(hand("7c Kd")) == "Pair of kings"
    assert ranking.describe(hand("7c 2d")) == "Royal Crumpler"
    assert ranking.describe(hand("7c 7d")) == "Royal Crumpler"
    bug = TwoCardRanking(jokers=1)
    assert bug.describe(hand("Jk Kd")) == "Ace-king high"
    assert bug.describe(hand("Jk Ad")) == "Pair of aces"


# -- strength_batch ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "ranking",
    [
        TwoCardRanking(),
        TwoCardRanking(crumpler=True, jokers=1),
        ThreeCardRanking(),
        ThreeCardRanking(wilds=Wilds.of([3]), jokers=2),
    ],
)
def test_strength_batch_matches_strength(ranking: SmallRanking) -> None:
    hands = list(combinations(ranking.deck.cards, ranking.size))[::5]
    rows = np.array([[c.code for c in h] for h in hands], dtype=np.uint8)
    assert ranking.strength_batch(rows).tolist() == [ranking.strength(h) for h in hands]
    assert ranking.strength_batch(rows[:, ::-1]).tolist() == [ranking.strength(h) for h in hands]


# -- options -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "ranking",
    [
        TwoCardRanking(),
        TwoCardRanking(True, True, True, True, jokers=1),
        ThreeCardRanking(straights=False, flushes=False, wilds=Wilds.of([3])),
        ThreeCardRanking(
            order=(C.STRAIGHT_FLUSH, C.THREE_OF_A_KIND, C.FLUSH, C.STRAIGHT, C.PAIR, C.HIGH_CARD)
        ),
    ],
)
def test_options_round_trip(ranking: SmallRanking) -> None:
    rebuilt = type(ranking).from_options(
        ranking.options(), wilds=ranking.wilds, jokers=ranking.jokers
    )
    assert rebuilt == ranking


def test_pickles_without_its_tables() -> None:
    ranking = ThreeCardRanking(wilds=Wilds.of([3]))
    ranking.strength(hand("3c Ah Kd"))
    data = pickle.dumps(ranking)
    assert len(data) < 2000
    assert pickle.loads(data) == ranking
    assert pickle.loads(data).strength(hand("Ah Kh Qh")) == ranking.strength(hand("Ah Kh Qh"))


def test_defaults_from_the_rule_texts() -> None:
    assert TwoCardRanking.from_options({}).options() == {
        "straights": "no", "flushes": "no", "ace-low": "no", "crumpler": "no",
        "order": "pair,high-card",
    }  # fmt: skip
    assert ThreeCardRanking.from_options({}).options() == {
        "straights": "yes", "flushes": "yes", "ace-low": "yes",
        "order": "three-of-a-kind,straight-flush,straight,flush,pair,high-card",
    }  # fmt: skip
    assert TwoCardRanking.from_options({"ACE_LOW": "Yes"}).ace_low


@pytest.mark.parametrize(
    ("cls", "options", "fragments"),
    [
        (TwoCardRanking, {"wild": "2"}, ["'wild'", "straights, flushes, ace-low, crumpler, order"]),
        (
            ThreeCardRanking,
            {"crumpler": "yes"},
            ["'crumpler'", "straights, flushes, ace-low, order"],
        ),
        (ThreeCardRanking, {"straights": "maybe"}, ["'straights'", "yes or no", "'maybe'"]),
        (TwoCardRanking, {"ace-low": "1"}, ["'ace-low'", "yes or no"]),
        (ThreeCardRanking, {"order": "trips,pair"}, ["'order'", "straight-flush", "high-card"]),
        (ThreeCardRanking, {"order": "trips,trips,straight,flush,pair,high-card"}, ["'order'"]),
        (ThreeCardRanking, {"order": "trips,quints,pair"}, ["'order'", "'quints'"]),
        (
            ThreeCardRanking,
            {"straights": "no", "order": "trips,straight,flush,pair,high-card"},
            ["'order'", "three-of-a-kind,flush,pair,high-card"],
        ),
        (TwoCardRanking, {"order": "pair,high-card,flush"}, ["'order'", "pair,high-card"]),
        (TwoCardRanking, {"order": ","}, ["'order'"]),
    ],
)
def test_option_errors_name_the_key_and_allowed_values(
    cls: type[SmallRanking], options: dict[str, str], fragments: list[str]
) -> None:
    with pytest.raises(OptionError) as error:
        cls.from_options(options)
    for fragment in fragments:
        assert fragment in str(error.value)


def test_bad_jokers_and_bad_hands() -> None:
    with pytest.raises(OptionError, match="'jokers'"):
        ThreeCardRanking.from_options({}, jokers=3)
    with pytest.raises(HandError, match="3 cards"):
        ThreeCardRanking().evaluate(hand("As Ks"))
    with pytest.raises(HandError, match="duplicate"):
        TwoCardRanking().strength([Card.of(14, 3), Card.of(14, 3)])
    with pytest.raises(CardError):
        TwoCardRanking().strength(hand("Jk As"))
    with pytest.raises(HandError):
        ThreeCardRanking().strength([*hand("2c 3c 4c"), Card.of(2, 0)])


# -- single card (Toh) ---------------------------------------------------------------------


def test_single_card_order_of_all_52_cards() -> None:
    ranking = SingleCardRanking()
    suit_order = [Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES]  # club-diamond-heart-spade
    expected = [Card.of(rank, suit) for rank in range(2, 15) for suit in suit_order]
    strengths = [ranking.strength([card]) for card in expected]
    assert len(expected) == 52
    assert strengths == sorted(strengths) and len(set(strengths)) == 52
    assert [ranking.evaluate([c]).strength for c in expected] == strengths


def test_single_card_describe_and_errors() -> None:
    ranking = SingleCardRanking()
    assert ranking.describe(hand("As")) == "Ace of spades"
    assert ranking.describe(hand("10c")) == "Ten of clubs"
    assert ranking.category(hand("2d")) is C.HIGH_CARD
    assert ranking.categories() == (C.HIGH_CARD,)
    assert SingleCardRanking.from_options({}) == ranking
    assert ranking.options() == {}
    with pytest.raises(OptionError, match="'suits'"):
        SingleCardRanking.from_options({"suits": "no"})
    with pytest.raises(OptionError, match="wild"):
        SingleCardRanking.from_options({}, wilds=Wilds.of([2]))
    with pytest.raises(OptionError, match="joker"):
        SingleCardRanking.from_options({}, jokers=1)
    with pytest.raises(HandError):
        ranking.strength(hand("As Kd"))
    with pytest.raises(CardError):
        ranking.strength(hand("Jk"))


# -- properties ---------------------------------------------------------------------------

rankings = st.one_of(
    st.builds(
        TwoCardRanking,
        straights=st.booleans(),
        flushes=st.booleans(),
        ace_low=st.booleans(),
        crumpler=st.booleans(),
        wilds=st.sampled_from([Wilds(), Wilds.of([2]), Wilds.of([3], joker="wild")]),
        jokers=st.sampled_from([0, 1, 2]),
    ),
    st.builds(
        ThreeCardRanking,
        straights=st.booleans(),
        flushes=st.booleans(),
        ace_low=st.booleans(),
        wilds=st.sampled_from([Wilds(), Wilds.of([3]), Wilds.of([3], joker="wild")]),
        jokers=st.sampled_from([0, 1, 2]),
    ),
)


def hands_for(ranking: SmallRanking) -> st.SearchStrategy[list[Card]]:
    pool = list(ranking.deck.cards)
    return st.lists(
        st.sampled_from(pool), min_size=ranking.size, max_size=ranking.size, unique=True
    )


def rename(cards: Sequence[Card], suits: Sequence[int]) -> list[Card]:
    return [c if c.is_joker else Card((c.code & ~3) | suits[c.code & 3]) for c in cards]


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_strength_ignores_card_order(data: st.DataObject) -> None:
    ranking = data.draw(rankings)
    cards = data.draw(hands_for(ranking))
    shuffled = data.draw(st.permutations(cards))
    assert ranking.strength(shuffled) == ranking.strength(cards)
    before, after = ranking.evaluate(cards), ranking.evaluate(shuffled)
    assert (after.strength, after.category, after.description) == (
        before.strength,
        before.category,
        before.description,
    )


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_suit_renaming_preserves_order(data: st.DataObject) -> None:
    ranking = data.draw(rankings)
    first = data.draw(hands_for(ranking))
    second = data.draw(hands_for(ranking))
    suits = data.draw(st.permutations([0, 1, 2, 3]))

    def sign(a: Sequence[Card], b: Sequence[Card]) -> int:
        difference = ranking.strength(a) - ranking.strength(b)
        return (difference > 0) - (difference < 0)

    assert sign(first, second) == sign(rename(first, suits), rename(second, suits))


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_wild_never_worse_than_any_natural_card_in_its_place(data: st.DataObject) -> None:
    ranking = data.draw(rankings)
    cards = data.draw(hands_for(ranking))

    def is_bug(card: Card) -> bool:
        return card.is_joker and not ranking.wilds.is_wild(card)

    stand_ins = [i for i, c in enumerate(cards) if ranking.wilds.is_wild(c) or is_bug(c)]
    if not stand_ins:
        return
    index = data.draw(st.sampled_from(stand_ins))
    replacement_pool = [c for c in STANDARD if c not in cards or c is cards[index]]
    if is_bug(cards[index]):  # the bug can always be an ace
        replacement_pool = [c for c in replacement_pool if c.rank == Rank.ACE]
    replacement = data.draw(st.sampled_from(replacement_pool))
    replaced = [*cards[:index], replacement, *cards[index + 1 :]]
    assert ranking.strength(cards) >= ranking.strength(replaced)
    if len(stand_ins) == 1:
        natural = replace(ranking, wilds=Wilds(), jokers=0)
        assert ranking.strength(cards) >= natural.strength(replaced)
