"""Tests for the rules core of Bourré: trick play, the cinch, the result, the draw.

Sections of the Bourré rule text held here: in the rules paragraph, following suit,
trumping and playing to win, and off cards (the text's own example:
``test_the_texts_example_only_trump_played_is_a_three``), the result (one winner, the two
split shapes, who has bourréd), and the discard caps and the draw's stock; the forced plays
after it (``test_*cinch*``); and among the variations the pot limit, trumping even when it
cannot win (``test_must_trump_even_if_losing_variant``) and the punishments for a misplay.
"""

from __future__ import annotations

import itertools
from collections import Counter
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guts.cards import Card, DeckKind, Suit, parse_card, parse_cards
from guts.errors import GutsError, HandError, IllegalAction, OptionError
from guts.games.bourre.stock import (
    Draw,
    DrawRules,
    Pile,
    Stock,
    TrumpCard,
    dealer_trump,
    turn_trump,
)
from guts.games.bourre.tricks import (
    TRICKS,
    Play,
    PlayContext,
    Renege,
    RenegeMode,
    TrickRules,
    bourre_cost,
    cinch_cards,
    cinch_forced,
    explain_illegal,
    hand_result,
    is_legal,
    judge_play,
    legal_plays,
    sure_tricks,
    trick_winner,
)

SPADES = Suit.SPADES
CINCH = TrickRules(cinch=True)
DEFAULT = TrickRules()
NOTHING_KNOWN = PlayContext()


def hand(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def trick(text: str, first_seat: int = 1) -> tuple[Play, ...]:
    """The cards played so far, by seats first_seat, first_seat + 1, ..."""
    return tuple(Play(first_seat + i, card) for i, card in enumerate(parse_cards(text)))


def legal(
    held: str,
    played: str,
    rules: TrickRules = DEFAULT,
    context: PlayContext = NOTHING_KNOWN,
    trump: Suit = SPADES,
) -> set[str]:
    cards = legal_plays(hand(held), trick(played), trump, rules, context)
    return {card.ascii for card in cards}


# -- rule 1: follow suit ----------------------------------------------------------------------


def test_must_follow_suit_even_if_the_card_cannot_win() -> None:
    assert legal("7h 2s As Kd", "Ah") == {"7h"}
    message = explain_illegal(parse_card("As"), hand("7h 2s As Kd"), trick("Ah"), SPADES)
    assert message == "you must follow suit: you hold 7♥"


def test_must_follow_suit_even_after_a_trump_on_a_non_trump_lead() -> None:
    assert legal("7h As", "Kh 3s") == {"7h"}


def test_any_card_of_the_led_suit_by_default() -> None:
    assert legal("7h Qh 2s", "Jh") == {"7h", "Qh"}


def test_trump_lead_is_followed_with_trumps() -> None:
    assert legal("7s Qh 2d", "9s") == {"7s"}


def test_head_in_suit_must_beat_the_highest_of_the_led_suit() -> None:
    rules = TrickRules(head_in_suit=True)
    assert legal("7h Qh 2s", "Jh 9h", rules) == {"Qh"}
    message = explain_illegal(parse_card("7h"), hand("7h Qh"), trick("Jh"), SPADES, rules)
    assert message == "you must beat J♥ if you can: you hold Q♥"


def test_head_in_suit_when_unable_to_beat_any_card_of_the_suit() -> None:
    assert legal("7h 9h 2s", "Jh", TrickRules(head_in_suit=True)) == {"7h", "9h"}


def test_head_in_suit_not_required_once_trumped() -> None:
    assert legal("7h Qh", "Jh 2s", TrickRules(head_in_suit=True)) == {"7h", "Qh"}


def test_head_in_suit_on_a_trump_lead_beats_the_highest_trump() -> None:
    assert legal("7s Qs Kd", "9s", TrickRules(head_in_suit=True)) == {"Qs"}


def test_leader_may_lead_any_card() -> None:
    assert legal("7h 2s As Kd 9c", "") == {"7h", "2s", "As", "Kd", "9c"}


# -- rule 2: void, so trump and play to win -------------------------------------------------------


def test_the_texts_example_only_trump_played_is_a_three() -> None:
    assert legal("2s As 9d 5c", "Kh 3s") == {"As"}
    message = explain_illegal(parse_card("2s"), hand("2s As 9d 5c"), trick("Kh 3s"), SPADES)
    assert message == (
        "you have no hearts, so you must play a trump that beats 3♠ if you can: you hold A♠"
    )


def test_void_with_no_trump_played_yet_any_trump_wins() -> None:
    assert legal("2s As 9d", "Kh") == {"2s", "As"}
    message = explain_illegal(parse_card("9d"), hand("2s As 9d"), trick("Kh"), SPADES)
    assert message == "you have no hearts, so you must trump: you hold A♠ 2♠"


def test_must_overtrump_the_highest_trump() -> None:
    assert legal("7s Js Qs 4d", "Kh 5s 9s") == {"Js", "Qs"}


def test_cannot_win_so_any_card() -> None:
    assert legal("2s 10s 9d", "Kh Qs") == {"2s", "Ts", "9d"}


def test_must_trump_even_if_losing_variant() -> None:
    rules = TrickRules(must_trump_even_if_losing=True)
    assert legal("2s 10s 9d", "Kh Qs", rules) == {"2s", "Ts"}
    assert legal("2s As 9d", "Kh Qs", rules) == {"As"}  # still play to win when able
    message = explain_illegal(parse_card("9d"), hand("2s 10s 9d"), trick("Kh Qs"), SPADES, rules)
    assert message == (
        "you have no hearts, so you must play a trump even though it cannot win: you hold 10♠ 2♠"
    )


def test_without_play_to_win_any_trump() -> None:
    assert legal("2s As 9d", "Kh 3s", TrickRules(play_to_win=False)) == {"2s", "As"}
    assert legal("2s 10s 9d", "Kh Qs", TrickRules(play_to_win=False)) == {"2s", "Ts"}
    assert not is_legal(parse_card("9d"), hand("2s 9d"), trick("Kh"), SPADES)


# -- rule 3: void in both ---------------------------------------------------------------------


def test_void_in_the_led_suit_and_trumps_any_card() -> None:
    assert legal("9d Kc", "Jh") == {"9d", "Kc"}


def test_an_off_card_loses_to_a_two_of_the_lead_suit() -> None:
    assert trick_winner(trick("2h Ac Ad"), SPADES) == 0


# -- trick winner -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("played", "winner"),
    [
        ("9h Kh 3h", 1),  # highest of the led suit, aces high
        ("Kh Ah Qh", 1),
        ("Ah 2s", 1),  # a two of trumps beats an ace of another suit
        ("Ah 2s Js 10s", 2),  # the highest trump
        ("5s Ah 9s", 2),  # a trump lead
        ("2h Ad Kc", 0),  # off cards lose whatever their rank
        ("7d", 0),
    ],
)
def test_trick_winner(played: str, winner: int) -> None:
    assert trick_winner(trick(played), SPADES) == winner


def test_trick_winner_of_an_empty_trick() -> None:
    with pytest.raises(HandError):
        trick_winner((), SPADES)


# -- the cinch ----------------------------------------------------------------------------------


def test_cinch_second_trick_and_the_ace_of_trumps() -> None:
    context = PlayContext(tricks_won=2)
    assert legal("As 7h 8d", "", CINCH, context) == {"As"}
    assert legal("As 7h 8d", "", TrickRules(), context) == {"As", "7h", "8d"}
    message = explain_illegal(parse_card("7h"), hand("As 7h 8d"), (), SPADES, CINCH, context)
    assert message is not None and "cinch" in message and "A♠" in message


def test_cinch_one_trick_and_the_ace_and_king() -> None:
    context = PlayContext(tricks_won=1)
    assert legal("As Ks 7h 8d", "", CINCH, context) == {"As", "Ks"}


def test_cinch_one_trick_and_ace_queen_jack_with_the_king_unseen() -> None:
    context = PlayContext(tricks_won=1)
    assert sure_tricks(hand("As Qs Js 8d"), (), SPADES, context) == 2
    assert legal("As Qs Js 8d", "", CINCH, context) == {"As", "Qs", "Js"}


def test_no_cinch_when_the_unseen_king_and_jack_can_beat_two() -> None:
    context = PlayContext(tricks_won=1)
    assert sure_tricks(hand("As Qs 10s 8d"), (), SPADES, context) == 1
    assert legal("As Qs 10s 8d", "", CINCH, context) == {"As", "Qs", "Ts", "8d"}


def test_a_played_king_makes_the_queen_a_winner() -> None:
    context = PlayContext(played=frozenset(hand("Ks 2h 3h 4h")), tricks_won=1)
    assert sure_tricks(hand("As Qs Js 8d"), (), SPADES, context) == 3
    assert cinch_cards(hand("As Qs Js 8d"), (), SPADES, context) == frozenset(hand("As Qs"))


def test_a_trump_in_the_current_trick_is_a_threat() -> None:
    earlier = frozenset(hand("As 2c 3c 4c"))
    in_trick = PlayContext(played=earlier)
    assert sure_tricks(hand("Qs Js 8c 9d"), trick("9h Ks"), SPADES, in_trick) == 1
    gone = PlayContext(played=earlier | {parse_card("Ks")})
    assert sure_tricks(hand("Qs Js 8c 9d"), trick("9h"), SPADES, gone) == 2


def test_no_cinch_without_enough_sure_tricks() -> None:
    assert legal("As Ks 7h 8d 9c", "", CINCH) == {"As", "Ks", "7h", "8d", "9c"}


def test_no_cinch_once_the_hand_is_won() -> None:
    assert cinch_cards(hand("As 7h"), (), SPADES, PlayContext(tricks_won=3)) == frozenset()


def test_cinch_counts_a_plurality_as_a_win() -> None:
    # 1-1-1-1 after four tricks: one more trick makes the player the single winner
    context = PlayContext(tricks_won=1, most_by_other=1)
    assert cinch_cards(hand("As"), (), SPADES, context) == frozenset(hand("As"))


def test_follow_suit_comes_before_the_cinch() -> None:
    context = PlayContext(tricks_won=1)
    assert legal("As Ks 7h 8d", "Kh", CINCH, context) == {"7h"}
    forced = cinch_forced(hand("As Ks 7h 8d"), trick("Kh"), SPADES, CINCH, context)
    assert forced == frozenset()


def test_cinch_forced_is_empty_when_the_rule_is_off() -> None:
    context = PlayContext(tricks_won=2)
    assert cinch_forced(hand("As 7h 8d"), (), SPADES, TrickRules(), context) == frozenset()
    assert cinch_forced(hand("As 7h 8d"), (), SPADES, CINCH, context) == {parse_card("As")}


def test_context_must_be_consistent_with_the_hand() -> None:
    with pytest.raises(HandError):
        legal_plays(hand("As 7h 8d 9c 2c"), (), SPADES, CINCH, PlayContext(tricks_won=1))
    with pytest.raises(HandError):
        legal_plays(hand("As 7h"), (), SPADES, CINCH, PlayContext(played=frozenset(hand("As"))))
    with pytest.raises(HandError):
        legal_plays(hand("As 7h"), trick("As"), SPADES)


# -- reneges ------------------------------------------------------------------------------------


def test_strict_mode_rejects_an_illegal_card() -> None:
    with pytest.raises(IllegalAction, match="you must follow suit: you hold 7♥"):
        judge_play(parse_card("As"), hand("7h As"), trick("Kh"), SPADES)


def test_policed_mode_records_a_renege() -> None:
    rules = TrickRules(renege_mode=RenegeMode.POLICED)
    renege = judge_play(parse_card("As"), hand("7h As"), trick("Kh"), SPADES, rules)
    assert renege == Renege(parse_card("As"), "you must follow suit: you hold 7♥")


@pytest.mark.parametrize("mode", list(RenegeMode))
def test_a_legal_card_is_no_renege(mode: RenegeMode) -> None:
    rules = TrickRules(renege_mode=mode)
    assert judge_play(parse_card("7h"), hand("7h As"), trick("Kh"), SPADES, rules) is None


@pytest.mark.parametrize("mode", list(RenegeMode))
def test_a_card_not_held_is_always_refused(mode: RenegeMode) -> None:
    rules = TrickRules(renege_mode=mode)
    with pytest.raises(IllegalAction, match="you do not hold"):
        judge_play(parse_card("Qh"), hand("7h As"), trick("Kh"), SPADES, rules)


# -- options ------------------------------------------------------------------------------------


def test_options_from_strings() -> None:
    rules = TrickRules.from_options({"play-to-win": "no", "renege_mode": "policed"})
    assert rules == TrickRules(play_to_win=False, renege_mode=RenegeMode.POLICED)
    assert rules.options()["play-to-win"] == "no"
    assert set(TrickRules().options()) == set(TrickRules.option_names())


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"play-to-lose": "yes"}, "play-to-win"),
        ({"cinch": "maybe"}, "yes or no"),
        ({"renege-mode": "lax"}, "strict, policed"),
    ],
)
def test_bad_options_name_what_is_allowed(options: dict[str, str], words: str) -> None:
    with pytest.raises(OptionError, match=words):
        TrickRules.from_options(options)


# -- the result of a hand -------------------------------------------------------------------------


def test_single_winner_takes_the_pot() -> None:
    result = hand_result({0: 3, 1: 1, 2: 1})
    assert (result.winner, result.split, result.bourre) == (0, False, ())


def test_more_tricks_than_any_other_wins_without_a_majority() -> None:
    assert hand_result({0: 1, 1: 2, 2: 1, 3: 1}).winner == 1


def test_two_two_one_is_a_split_pot() -> None:
    result = hand_result({0: 2, 1: 1, 2: 2})
    assert (result.winner, result.split, result.bourre) == (None, True, ())


def test_one_each_is_a_split_pot() -> None:
    result = hand_result({seat: 1 for seat in range(5)})
    assert (result.winner, result.split, result.bourre) == (None, True, ())


def test_players_without_a_trick_have_bourred() -> None:
    result = hand_result({0: 5, 2: 0, 4: 0})
    assert (result.winner, result.bourre) == (0, (2, 4))


def test_a_renege_counts_as_a_bourre() -> None:
    result = hand_result({0: 3, 1: 2}, reneged=[1])
    assert (result.winner, result.bourre, result.reneged) == (0, (1,), (1,))
    cheat = hand_result({0: 3, 1: 2}, reneged=[0])
    assert (cheat.winner, cheat.bourre) == (0, (0,))


def test_result_checks_its_input() -> None:
    with pytest.raises(HandError):
        hand_result({0: 3, 1: 1})
    with pytest.raises(HandError):
        hand_result({0: 3, 1: 2}, reneged=[5])


@pytest.mark.parametrize("players", range(2, 8))
def test_the_only_splits_are_two_two_one_and_one_each(players: int) -> None:
    for counts in itertools.product(range(TRICKS + 1), repeat=players):
        if sum(counts) != TRICKS:
            continue
        result = hand_result(dict(enumerate(counts)))
        shape = sorted((n for n in counts if n), reverse=True)
        assert result.split == (shape in ([2, 2, 1], [1] * 5))
        assert result.bourre == tuple(s for s, n in enumerate(counts) if n == 0)


def test_bourre_cost_is_the_pot_capped_by_the_limit() -> None:
    assert bourre_cost(40) == 40
    assert bourre_cost(40, limit=25) == 25
    assert bourre_cost(10, limit=25) == 10
    with pytest.raises(GutsError):
        bourre_cost(-1)
    with pytest.raises(OptionError):
        bourre_cost(5, limit=-1)


# -- the draw -----------------------------------------------------------------------------------


def test_stock_uses_main_then_folded_then_discards() -> None:
    stock = Stock(hand("2c 3c"), folded=hand("4d 5d 6d 7d 8d"), discards=hand("9h Th Jh"))
    drawn = stock.deal(10, Random(3))
    assert [d.pile for d in drawn] == [Pile.MAIN] * 2 + [Pile.FOLDED] * 5 + [Pile.DISCARDS] * 3
    assert [d.card for d in drawn[:2]] == list(hand("2c 3c"))
    assert {d.card for d in drawn[2:7]} == set(hand("4d 5d 6d 7d 8d"))
    assert stock.shuffles == (Pile.FOLDED, Pile.DISCARDS)
    assert stock.draws == drawn and len(stock) == 0


def test_reserves_are_shuffled_only_when_needed() -> None:
    stock = Stock(hand("2c 3c 4c"), folded=hand("4d 5d"))
    stock.discard(hand("9h"))
    assert stock.draw(3, Random(0)) == hand("2c 3c 4c")
    assert stock.shuffles == ()
    assert (stock.count(Pile.FOLDED), stock.count(Pile.DISCARDS)) == (2, 1)


def test_folded_hands_are_shuffled_with_the_injected_rng() -> None:
    folded = parse_cards("4d 5d 6d 7d 8d 9d Td Jd Qd Kd")
    orders = {Stock((), folded=folded).draw(10, Random(seed)) for seed in range(20)}
    assert len(orders) > 1  # shuffled, not dealt in the order collected
    assert all(set(order) == set(folded) for order in orders)
    assert Stock((), folded=folded).draw(10, Random(5)) == Stock((), folded=folded).draw(
        10, Random(5)
    )


def test_discards_made_during_the_draw_are_used_last() -> None:
    stock = Stock(hand("2c"), folded=hand("3d"))
    assert stock.draw(1, Random(0)) == hand("2c")
    stock.discard(hand("9h"))
    assert stock.draw(1, Random(0)) == hand("3d")
    stock.discard(hand("Th"))
    assert set(stock.draw(2, Random(0))) == set(hand("9h Th"))


def test_overdrawing_is_refused_and_changes_nothing() -> None:
    stock = Stock(hand("2c 3c"), discards=hand("4h"))
    with pytest.raises(HandError):
        stock.draw(4, Random(0))
    assert len(stock) == 3 and stock.draws == ()
    assert stock.draw(0, Random(0)) == ()


def test_stock_refuses_duplicate_cards() -> None:
    with pytest.raises(HandError):
        Stock(hand("2c 3c"), folded=hand("2c"))
    stock = Stock(hand("2c"))
    with pytest.raises(HandError):
        stock.discard(hand("2c"))


def test_seven_players_use_every_card_and_no_one_gets_their_own_discards() -> None:
    deck = list(DeckKind.STANDARD.cards)
    Random(11).shuffle(deck)
    hands = [list(deck[5 * seat : 5 * seat + 5]) for seat in range(7)]
    stock = Stock(deck[35:])
    rules = DrawRules()
    cap = rules.discard_cap(7)
    rng = Random(2)
    for held in hands:
        rules.check_discard(cap, 7)
        thrown = held[:cap]
        held[:cap] = stock.draw(cap, rng)  # dealt before the discards join the pile
        assert not set(thrown) & set(held)
        stock.discard(thrown)
    assert Counter(d.pile for d in stock.draws) == {Pile.MAIN: 17, Pile.DISCARDS: 4}
    every = [card for held in hands for card in held]
    assert len(set(every)) == 35 and len(stock) == 17


def test_discard_caps_by_number_of_players() -> None:
    rules = DrawRules()
    assert [rules.discard_cap(n) for n in range(2, 8)] == [5, 5, 5, 5, 5, 3]
    rules.check_discard(3, 7)
    rules.check_discard(5, 6)
    with pytest.raises(IllegalAction, match="0 to 3 with 7 players"):
        rules.check_discard(4, 7)
    with pytest.raises(OptionError):
        rules.discard_cap(8)
    with pytest.raises(OptionError):
        rules.discard_cap(1)


def test_eight_players_as_an_option_with_its_own_cap() -> None:
    assert DrawRules(eight_players=True).discard_cap(8) == 2
    assert DrawRules(eight_players=True, eight_player_discard=1).discard_cap(8) == 1
    with pytest.raises(OptionError, match="seven-player-discard"):
        DrawRules(seven_player_discard=6)


def test_trump_is_the_dealers_fifth_card() -> None:
    dealer = hand("2c 3c 4c 5c 9h")
    stock = Stock(hand("Ks Qs"))
    assert dealer_trump(dealer) == parse_card("9h")
    assert turn_trump(TrumpCard.DEALER, dealer, stock) == parse_card("9h")
    assert len(stock) == 2
    with pytest.raises(HandError):
        dealer_trump(dealer[:4])


def test_trump_from_the_next_card_of_the_stock() -> None:
    stock = Stock(hand("Ks Qs"))
    assert turn_trump(TrumpCard.STOCK, hand("2c 3c 4c 5c 9h"), stock) == parse_card("Ks")
    assert stock.turned == parse_card("Ks")
    assert stock.draw(1, Random(0)) == hand("Qs") and len(stock) == 0
    with pytest.raises(HandError):
        stock.turn_up()


def test_draw_records_print_their_pile() -> None:
    assert str(Draw(parse_card("As"), Pile.FOLDED)) == "A♠ from folded"


# -- properties over random deals ------------------------------------------------------------

rules_strategy = st.builds(
    TrickRules,
    play_to_win=st.booleans(),
    must_trump_even_if_losing=st.booleans(),
    head_in_suit=st.booleans(),
    cinch=st.booleans(),
    renege_mode=st.sampled_from(list(RenegeMode)),
)


def _expected_winner(cards: list[Card], trump: Suit) -> int:
    """The winner by a different route: the best trump, else the best of the led suit."""
    trumps = [c for c in cards if c.suit == trump]
    pool = trumps or [c for c in cards if c.suit == cards[0].suit]
    best = max(pool, key=lambda c: c.rank or 0)
    return cards.index(best)


@settings(max_examples=150, deadline=None)
@given(
    deck=st.permutations(DeckKind.STANDARD.cards),
    players=st.integers(2, 7),
    trump=st.sampled_from(list(Suit)),
    rules=rules_strategy,
    data=st.data(),
)
def test_random_deals_play_out_legally(
    deck: list[Card], players: int, trump: Suit, rules: TrickRules, data: st.DataObject
) -> None:
    hands = [list(deck[5 * seat : 5 * seat + 5]) for seat in range(players)]
    sure_at_start = [sure_tricks(h, (), trump) for h in hands]
    won = [0] * players
    played: set[Card] = set()
    cinched: set[int] = set()
    leader = 0
    for _ in range(TRICKS):
        plays: list[Play] = []
        for seat in [(leader + i) % players for i in range(players)]:
            context = PlayContext(
                played=frozenset(played),
                tricks_won=won[seat],
                most_by_other=max(n for s, n in enumerate(won) if s != seat),
            )
            allowed = legal_plays(hands[seat], plays, trump, rules, context)
            assert allowed and allowed <= set(hands[seat])
            for card in hands[seat]:
                assert is_legal(card, hands[seat], plays, trump, rules, context) == (
                    card in allowed
                )
            if cinch_cards(hands[seat], plays, trump, context):
                cinched.add(seat)
            card = data.draw(st.sampled_from(sorted(allowed)))
            hands[seat].remove(card)
            plays.append(Play(seat, card))
        index = trick_winner(plays, trump)
        assert index == _expected_winner([p.card for p in plays], trump)
        leader = plays[index].seat
        won[leader] += 1
        played.update(p.card for p in plays)
    assert all(not h for h in hands) and sum(won) == TRICKS
    assert all(won[seat] >= sure_at_start[seat] for seat in range(players))
    result = hand_result(dict(enumerate(won)))
    assert cinched <= {result.winner}  # a cinched player always takes the hand


@settings(max_examples=150, deadline=None)
@given(
    deck=st.permutations(DeckKind.STANDARD.cards),
    size=st.integers(1, 5),
    led=st.integers(0, 6),
    trump=st.sampled_from(list(Suit)),
    rules=rules_strategy,
)
def test_an_illegal_card_is_refused_or_recorded(
    deck: list[Card], size: int, led: int, trump: Suit, rules: TrickRules
) -> None:
    held, plays = deck[:size], trick(" ".join(c.ascii for c in deck[size : size + led]))
    allowed = legal_plays(held, plays, trump, rules)
    for card in held:
        if card in allowed:
            assert judge_play(card, held, plays, trump, rules) is None
        elif rules.renege_mode is RenegeMode.STRICT:
            with pytest.raises(IllegalAction):
                judge_play(card, held, plays, trump, rules)
        else:
            renege = judge_play(card, held, plays, trump, rules)
            assert renege is not None and renege.card == card and renege.reason
