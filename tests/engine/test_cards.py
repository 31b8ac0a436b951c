"""Cards, parsing, printing and decks."""

from __future__ import annotations

import pickle
from random import Random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from guts.cards import Card, Deck, DeckKind, Rank, Suit, format_cards, parse_card, parse_cards
from guts.errors import CardError, GutsError, HandError


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("As", Rank.ACE, Suit.SPADES),
        ("td", Rank.TEN, Suit.DIAMONDS),
        ("10d", Rank.TEN, Suit.DIAMONDS),
        ("10D", Rank.TEN, Suit.DIAMONDS),
        ("qC", Rank.QUEEN, Suit.CLUBS),
        ("2h", Rank.TWO, Suit.HEARTS),
        ("K♥", Rank.KING, Suit.HEARTS),
    ],
)
def test_parse_one_card(text: str, rank: Rank, suit: Suit) -> None:
    card = parse_card(text)
    assert (card.rank, card.suit) == (rank, suit)
    assert card is Card.of(rank, suit)


@pytest.mark.parametrize("text", ["jk", "JK", "joker", "Joker"])
def test_parse_joker(text: str) -> None:
    card = parse_card(text)
    assert card.is_joker and card.rank is None and card.suit is None


def test_hand_parses_spaced_and_run_together() -> None:
    expected = (parse_card("As"), parse_card("Kd"), parse_card("Th"))
    assert parse_cards("As Kd 10h") == expected
    assert parse_cards("AsKd10h") == expected
    assert parse_cards(["As", "Kd", "10h"]) == expected


def test_two_jokers_are_distinct_cards() -> None:
    first, second = parse_cards("jk joker")
    assert first.is_joker and second.is_joker and first is not second
    assert parse_cards(format_cards([first, second], ascii=True)) == (first, second)
    with pytest.raises(CardError, match="only two jokers"):
        parse_cards("jk jk jk")


def test_printing() -> None:
    assert str(parse_card("As")) == "A♠"
    assert str(parse_card("Td")) == "10♦"
    assert parse_card("10d").ascii == "Td"
    assert repr(parse_card("qc")) == "Card('Qc')"
    assert parse_card("As").name == "ace of spades"
    assert format_cards(parse_cards("As Kd"), ascii=True) == "As Kd"


def test_bad_token_is_named() -> None:
    with pytest.raises(CardError) as raised:
        parse_card("1x")
    message = str(raised.value)
    assert message.startswith("'1x' is not a card: expected a rank (2-10, J, Q, K, A)")
    assert "(s, h, d, c)" in message
    with pytest.raises(CardError, match="'Kx'"):
        parse_cards("AsKx")
    with pytest.raises(CardError, match="'Zz'"):
        parse_cards("Zz 2c")


def test_errors_are_value_errors() -> None:
    assert issubclass(CardError, GutsError) and issubclass(GutsError, ValueError)
    with pytest.raises(ValueError):
        parse_card("")


def test_duplicates_rejected() -> None:
    with pytest.raises(HandError, match="duplicate card As"):
        parse_cards("As Kd as")


@pytest.mark.parametrize(
    ("kind", "size", "jokers"),
    [
        (DeckKind.STANDARD, 52, 0),
        (DeckKind.ONE_JOKER, 53, 1),
        (DeckKind.TWO_JOKERS, 54, 2),
        (DeckKind.STRIPPED, 32, 0),
    ],
)
def test_deck_sizes(kind: DeckKind, size: int, jokers: int) -> None:
    cards = kind.cards
    assert len(cards) == len(set(cards)) == size
    assert sum(card.is_joker for card in cards) == jokers


def test_stripped_deck_is_seven_to_ace() -> None:
    ranks = {card.rank for card in DeckKind.STRIPPED.cards}
    assert ranks == {Rank(r) for r in range(7, 15)}
    with pytest.raises(CardError, match="not in the 32-card"):
        DeckKind.STRIPPED.check(parse_cards("6h"))
    with pytest.raises(CardError, match="not in the 52-card"):
        DeckKind.STANDARD.check(parse_cards("jk"))


def test_seeded_shuffle_is_reproducible_and_complete() -> None:
    first = Deck.shuffled(DeckKind.STANDARD, Random(7)).cards
    again = Deck.shuffled(DeckKind.STANDARD, Random(7)).cards
    other = Deck.shuffled(DeckKind.STANDARD, Random(8)).cards
    assert first == again != other
    assert sorted(first) == sorted(DeckKind.STANDARD.cards)


def test_default_shuffle_is_unpredictable() -> None:
    assert Deck.shuffled().cards != Deck.shuffled().cards


def test_stacked_deck_deals_in_order() -> None:
    deck = Deck.stacked("As Kd Qh Jc")
    assert deck.deal(2) == parse_cards("As Kd")
    assert deck.deal_one() is parse_card("Qh")
    assert len(deck) == 1
    with pytest.raises(HandError, match="only 1 remain"):
        deck.deal(2)
    with pytest.raises(CardError):
        Deck.stacked("6h 7h", DeckKind.STRIPPED)


def test_cards_are_immutable_and_pickle_to_themselves() -> None:
    card = parse_card("As")
    with pytest.raises(AttributeError):
        card.code = 3  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(card)) is card


@given(st.permutations(list(DeckKind.TWO_JOKERS.cards)))
def test_any_deck_order_round_trips_through_text(order: list[Card]) -> None:
    # The two jokers are interchangeable: the first printed joker parses as joker one.
    def shown(cards: tuple[Card, ...] | list[Card]) -> list[str]:
        return [card.ascii for card in cards]

    assert shown(parse_cards(format_cards(order, ascii=True))) == shown(order)
    assert shown(parse_cards(format_cards(order))) == shown(order)


@given(st.integers(min_value=0, max_value=2**64), st.integers(min_value=0, max_value=60))
def test_the_inlined_shuffle_draws_exactly_as_random_shuffle(seed: int, size: int) -> None:
    """Every stored deck depends on the order: the engine's shuffle and the standard
    library's give the same cards from the same seed and leave the stream at the same place."""
    from guts import cards
    from guts.cards import shuffle

    assert cards._PLAIN_SHUFFLE  # CPython's Random: the inlined path is the one played
    pack = list(Deck.shuffled(DeckKind.STANDARD, Random(1)).cards)[: min(size, 52)]
    pack += pack[: max(0, size - 52)]
    ours, theirs = list(pack), list(pack)
    rng, reference = Random(seed), Random(seed)
    shuffle(ours, rng)
    reference.shuffle(theirs)
    assert ours == theirs and rng.random() == reference.random()
