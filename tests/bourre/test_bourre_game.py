"""Tests for a game of Bourré: every rule sentence in a real deal, with stacked decks.

Seats are A, B, C, ...; the dealer is the last seat, so seat 0 is the dealer's left and
speaks, draws and leads first. ``stacked(hands)`` deals ``hands[i]`` to seat i one card at
a time; the dealer's fifth card (the last of the last hand) sets trumps.

Sections of the Bourré rule text held here, in its order: the rules paragraph (the pack,
two to seven players and the seven-player discard cap, the trump card, saying in turn
whether one plays and the second ante, the draw and the stock's reserves, the first lead,
following suit, trumping and playing to win, off cards), the forced plays after it
(``test_cinch_*``), the object and the result (most tricks, split pots, matching the pot
when bourréd), the deal passing left, and the variations (the dealer's ante for all, a pot
limit, trumping even when it cannot win, and the punishments for a misplay:
``test_policed_mode_*``, ``test_retract_mode_*``, ``test_strict_mode_*``). Eight players
are a custom the text leaves open; the bots' tests hold no section.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from random import Random
from typing import Any

import pytest

from guts.cards import Deck, DeckKind, deck_cards, parse_cards
from guts.errors import GutsError, IllegalAction, OptionError
from guts.games.bourre import (
    PRESETS,
    BourreRules,
    BourreSession,
    EndPot,
    LonePlayer,
    RenegeMode,
    TrumpCard,
    new_session,
    preset,
)
from guts.games.bourre.bots import RandomBot, SensibleBot
from guts.games.bourre.events import (
    CardsDealt,
    Discarded,
    Drew,
    Folded,
    HandResult,
    PileShuffled,
    Reneged,
    TrickWon,
    TrumpTurned,
)
from guts.games.bourre.rules import CINCH_TEXT
from guts.table import Reason

DEFAULT = BourreRules()


def stacked(hands: Sequence[str], stock: str = "") -> Deck:
    """Deal ``hands`` (seat order from the dealer's left) one card at a time, then
    ``stock``, then the rest of the pack in new-deck order: ``BourreSession.stacked`` on
    a table where seat i is i places left of the dealer."""
    rules = BourreRules(eight_players=len(hands) > 7)
    table = BourreSession(rules, [(str(i), 1) for i in range(len(hands))], button=len(hands) - 1)
    return table.stacked(dict(enumerate(hands)), stock)


def session(rules: BourreRules = DEFAULT, players: int = 3, stacks: int = 100) -> BourreSession:
    names = [chr(ord("A") + i) for i in range(players)]
    return BourreSession(rules, [(n, stacks) for n in names], button=players - 1)


def run(s: BourreSession, actions: str) -> None:
    """Apply ``seat:action`` steps separated by commas: ``"0:play, 1:fold, 0:7h"``."""
    for step in actions.split(","):
        seat, action = step.strip().split(":")
        s.act(int(seat), action)


def start(s: BourreSession, hands: Sequence[str], stock: str = "") -> None:
    order = s.table.turn_order()
    s.start_deal(stacked([hands[seat] for seat in order], stock), seed=1)


def legal(s: BourreSession) -> set[str]:
    return set(s.pending()[0].actions)


def results(s: BourreSession) -> list[HandResult]:
    return [e for e in s.events if isinstance(e, HandResult)]


def reasons(s: BourreSession, reason: Reason) -> list[tuple[object, int]]:
    return [(t.source, t.amount) for t in s.table.ledger if t.reason is reason]


# -- the deal ---------------------------------------------------------------------------------


def test_five_cards_each_one_at_a_time_and_the_dealers_fifth_card_is_trumps() -> None:
    s = session()
    deck = [c.ascii for c in deck_cards(DeckKind.STANDARD)]
    s.start_deal(Deck.stacked(" ".join(deck)))
    dealt = {e.seat: e.cards for e in s.events if isinstance(e, CardsDealt)}
    for seat in range(3):
        assert dealt[seat] == tuple(deck[seat::3][:5])
    assert next(e for e in s.events if isinstance(e, CardsDealt)).audience == (0,)
    (trump,) = [e for e in s.events if isinstance(e, TrumpTurned)]
    assert (trump.card, trump.seat, trump.audience) == (deck[14], 2, None)
    assert s.deal is not None and s.deal.trump.name.lower() == trump.suit
    assert deck[14] in s.view(2)["hand"], "the dealer keeps the face-up trump card"
    assert s.public_view()["trump_card"] == deck[14]


def test_a_deal_needs_the_whole_pack() -> None:
    s = session()
    before = s.events
    with pytest.raises(GutsError, match="52-card pack"):
        s.start_deal(Deck.stacked("As Ks Qs"))
    with pytest.raises(GutsError, match="duplicate"):
        s.start_deal(Deck(list(parse_cards("As")) * 52))
    assert s.deals_played == 0 and s.events == before


def test_the_trump_card_may_be_turned_from_the_stock_and_set_aside() -> None:
    s = session(BourreRules(trump_card=TrumpCard.STOCK))
    start(s, ["2c 3c 4c 5c 6c", "2d 3d 4d 5d 6d", "2h 3h 4h 5h 6h"], stock="Ks")
    (trump,) = [e for e in s.events if isinstance(e, TrumpTurned)]
    assert (trump.card, trump.suit, trump.seat) == ("Ks", "spades", None)
    assert s.public_view()["stock"] == 52 - 15 - 1
    assert all("Ks" not in s.view(seat)["hand"] for seat in range(3))


def test_everyone_antes_and_the_dealer_may_ante_for_all() -> None:
    s = session()
    start(s, ["2c 3c 4c 5c 6c", "2d 3d 4d 5d 6d", "2h 3h 4h 5h 6s"])
    assert reasons(s, Reason.ANTE) == [(0, 1), (1, 1), (2, 1)] and s.table.pot == 3
    s = session(BourreRules(dealer_antes=True, ante=2))
    start(s, ["2c 3c 4c 5c 6c", "2d 3d 4d 5d 6d", "2h 3h 4h 5h 6s"])
    assert reasons(s, Reason.ANTE) == [(2, 6)]


def test_players_say_in_turn_from_the_dealers_left_whether_they_play() -> None:
    s = session(players=4)
    start(s, ["2c 3c 4c 5c 6c", "2d 3d 4d 5d 6d", "2h 3h 4h 5h 6h", "7c 7d 7h 8c 8s"])
    asked = []
    for choice in ("play", "fold", "play", "play"):
        asked.append(s.pending()[0].seat)
        s.act(asked[-1], choice)
    assert asked == [0, 1, 2, 3]
    folded = [e for e in s.events if isinstance(e, Folded)]
    assert [(e.seat, e.cards, e.audience) for e in folded] == [
        (1, ("2d", "3d", "4d", "5d", "6d"), ())
    ]
    assert s.view(1)["hand"] == [] and s.public_view()["playing"] == [0, 2, 3]


def test_the_second_ante_is_paid_by_those_who_play() -> None:
    s = session(BourreRules(play_ante=2))
    start(s, ["2c 3c 4c 5c 6c", "2d 3d 4d 5d 6d", "2h 3h 4h 5h 6s"])
    run(s, "0:play, 1:fold, 2:play")
    assert reasons(s, Reason.ANTE) == [(0, 1), (1, 1), (2, 1), (0, 2), (2, 2)]


def test_nobody_plays_the_pot_stays_for_the_next_deal() -> None:
    s = session()
    start(s, ["2c 3c 4c 5c 6c", "2d 3d 4d 5d 6d", "2h 3h 4h 5h 6s"])
    run(s, "0:fold, 1:fold, 2:fold")
    assert s.deal_over and s.table.pot == 3
    s.start_deal()
    assert s.table.pot == 6


def test_a_lone_player_takes_the_pot() -> None:
    s = session()
    start(s, ["2c 3c 4c 5c 6c", "2d 3d 4d 5d 6d", "2h 3h 4h 5h 6s"])
    run(s, "0:play, 1:fold, 2:fold")
    assert s.deal_over and s.table.pot == 0 and s.table.stack(0) == 102
    assert results(s)[-1].winner == 0


def test_the_dealer_may_have_to_play_against_a_lone_player() -> None:
    s = session(BourreRules(lone_player=LonePlayer.DEALER_PLAYS))
    start(s, ["2c 3c 4c 5c 6c", "2d 3d 4d 5d 6d", "2h 3h 4h 5h 6s"])
    run(s, "0:play, 1:fold")
    assert legal(s) == {"play"}
    with pytest.raises(IllegalAction):
        s.act(2, "fold")
    s.act(2, "play")
    assert s.public_view()["phase"] == "draw"


# -- the draw ---------------------------------------------------------------------------------


def test_each_player_discards_zero_to_five_and_receives_as_many() -> None:
    s = session()
    start(s, ["2c 3c 4c 5c 6c", "2d 3d 4d 5d 6d", "2h 3h 4h 5h 6s"], stock="As Ks Qs Js Ts 9s")
    run(s, "0:play, 1:play, 2:play")
    assert len(s.pending()[0].actions) == 32  # stand and the 31 non-empty subsets of five
    run(s, "0:discard 6c 2C, 1:stand")
    assert s.view(0)["hand"] == ["3c", "4c", "5c", "As", "Ks"]
    s.act(2, "discard 2h 3h 4h 5h 6s")
    assert s.view(2)["hand"] == ["Qs", "Js", "Ts", "9s", "2s"]  # then the rest, 2s first
    drew = [(e.seat, e.count) for e in s.events if isinstance(e, Drew)]
    assert drew == [(0, 2), (1, 0), (2, 5)]
    assert s.public_view()["phase"] == "tricks" and s.pending()[0].seat == 0


def test_a_discard_not_held_or_repeated_is_refused() -> None:
    s = session()
    start(s, ["2c 3c 4c 5c 6c", "2d 3d 4d 5d 6d", "2h 3h 4h 5h 6s"])
    run(s, "0:play, 1:play, 2:play")
    before = s.events
    for action in ("discard 2d", "discard 2c 2c", "discard", "throw 2c"):
        if action == "discard":
            assert s.can_act(0, action)  # an empty discard is standing pat
            continue
        assert not s.can_act(0, action)
        with pytest.raises(IllegalAction):
            s.act(0, action)
    assert s.events == before


def test_with_seven_players_at_most_three_cards_may_be_discarded() -> None:
    s = session(players=7)
    s.start_deal()
    for seat in range(7):
        s.act(seat, "play")
    actions = s.pending()[0].actions
    assert len(actions) == 1 + 5 + 10 + 10
    hand = s.view(0)["hand"]
    assert not s.can_act(0, "discard " + " ".join(hand[:4]))
    assert s.can_act(0, "discard " + " ".join(reversed(hand[:3])))


def test_eight_players_only_as_an_option_with_two_discards() -> None:
    with pytest.raises(OptionError, match="eight-players"):
        session(players=8)
    s = session(BourreRules(eight_players=True), players=8)
    s.start_deal()
    for seat in range(8):
        s.act(seat, "play")
    assert len(s.pending()[0].actions) == 1 + 5 + 10


def test_when_the_stock_runs_out_the_folded_hands_then_the_discards_are_dealt() -> None:
    s = session(BourreRules(seven_player_discard=5), players=7)
    s.start_deal(seed=4)
    folded = set(s.view(0)["hand"])
    s.act(0, "fold")
    for seat in range(1, 7):
        s.act(seat, "play")
    discards: dict[int, set[str]] = {}
    for seat in range(1, 7):
        hand = s.view(seat)["hand"]
        discards[seat] = set(hand)
        s.act(seat, "discard " + " ".join(hand))
        assert not discards[seat] & set(s.view(seat)["hand"]), "no one draws their own"
    piles = [e.piles for e in s.events if isinstance(e, Drew)]
    main, fold, disc = ("main",) * 5, ("folded",), ("discards",)
    assert piles == [main, main, main, main[:2] + fold * 3, fold * 2 + disc * 3, disc * 5]
    shuffles = [(e.pile, e.cards, e.audience) for e in s.events if isinstance(e, PileShuffled)]
    assert shuffles == [("folded", 5, None), ("discards", 20, None)]
    drawn_from_folded = set(s.view(4)["hand"][2:]) | set(s.view(5)["hand"][:2])
    assert drawn_from_folded <= folded
    assert set(s.view(6)["hand"]) <= discards[1] | discards[2] | discards[3] | discards[4]


# -- trick play -------------------------------------------------------------------------------

PLAY_TO_WIN = ["7c 3d 9h 3h 8h", "Js 4s 5h 6h 2d", "9d Td Kh Qs 2s"]  # trumps: spades


def trick_deal(rules: BourreRules = DEFAULT, hands: Sequence[str] = PLAY_TO_WIN) -> BourreSession:
    s = session(rules)
    start(s, hands)
    run(s, "0:play, 1:play, 2:play, 0:stand, 1:stand, 2:stand")
    return s


def test_the_first_trick_is_led_by_the_first_player_left_of_the_dealer_who_plays() -> None:
    s = session()
    start(s, PLAY_TO_WIN)
    run(s, "0:fold, 1:play, 2:play, 1:stand, 2:stand")
    assert s.pending()[0].seat == 1 and legal(s) == {"Js", "4s", "5h", "6h", "2d"}


def test_you_must_follow_suit_even_when_a_trump_has_been_played() -> None:
    hands = ["8h 3d 9c 3c 7c", "Js 4s 5c 6c 2d", "9d Td Kh Qs 2s"]
    s = trick_deal(hands=hands)
    s.act(0, "8h")
    assert legal(s) == {"Js", "4s"}  # void in hearts: trump
    s.act(1, "4s")
    assert legal(s) == {"Kh"}
    with pytest.raises(IllegalAction, match="you must follow suit: you hold K♥"):
        s.act(2, "Qs")


def test_a_player_void_in_the_led_suit_must_trump_and_play_to_win() -> None:
    s = trick_deal()
    s.act(0, "7c")
    with pytest.raises(IllegalAction, match="you have no clubs, so you must trump"):
        s.act(1, "5h")
    s.act(1, "4s")
    assert legal(s) == {"Qs"}, "the two of trumps cannot beat the four"
    with pytest.raises(IllegalAction, match="trump that beats 4♠"):
        s.act(2, "2s")
    s.act(2, "Qs")
    assert [e.seat for e in s.events if isinstance(e, TrickWon)] == [2]
    assert s.pending()[0].seat == 2, "the trick's winner leads the next"


def test_without_play_to_win_any_trump_will_do() -> None:
    s = trick_deal(BourreRules(play_to_win=False))
    run(s, "0:7c, 1:4s")
    assert legal(s) == {"Qs", "2s"}
    s.act(2, "2s")
    assert [e.seat for e in s.events if isinstance(e, TrickWon)] == [1]


def test_a_player_who_cannot_win_may_play_any_card_unless_they_must_trump() -> None:
    hands = ["7c 3d 9h 3h 8h", "Js 4s 5h 6h 2d", "9d Td Kh 3s 2s"]
    s = trick_deal(hands=hands)
    run(s, "0:7c, 1:Js")
    assert legal(s) == {"9d", "Td", "Kh", "3s", "2s"}
    s = trick_deal(BourreRules(must_trump_even_if_losing=True), hands=hands)
    run(s, "0:7c, 1:Js")
    assert legal(s) == {"3s", "2s"}


def test_with_neither_the_led_suit_nor_trumps_any_card_may_be_played() -> None:
    hands = ["7c 3d 9h 3h 8h", "Js 4s 5h 6h 2d", "9d Td Kh Qh 2s"]
    s = trick_deal(hands=hands)
    run(s, "0:9h, 1:5h, 2:Kh, 2:2s")  # C leads the trump two; A has no trump
    assert legal(s) == {"7c", "3d", "3h", "8h"}


# -- reneges ----------------------------------------------------------------------------------


def test_policed_mode_accepts_a_renege_and_the_player_bourres() -> None:
    s = trick_deal(BourreRules(renege_mode=RenegeMode.POLICED))
    assert legal(s) == {"7c", "3d", "9h", "3h", "8h"}
    run(s, "0:7c")
    assert s.view(1)["legal"] == ["Js", "4s"] and "5h" in legal(s)
    s.act(1, "5h")  # a renege: B must trump
    (renege,) = [e for e in s.events if isinstance(e, Reneged)]
    assert (renege.seat, renege.card, renege.retracted, renege.audience) == (1, "5h", False, None)
    assert renege.reason == "you have no clubs, so you must trump", "no held card revealed"
    assert s.public_view()["trick"] == [[0, "7c"], [1, "5h"]]
    finish_legally(s)
    result = results(s)[-1]
    assert 1 in result.reneged and 1 in result.bourre
    assert (1, 3) in reasons(s, Reason.PENALTY)


def test_retract_mode_takes_the_card_back_and_still_penalises() -> None:
    s = trick_deal(BourreRules(renege_mode=RenegeMode.RETRACT))
    run(s, "0:7c, 1:5h")
    assert s.pending()[0].seat == 1 and legal(s) == {"Js", "4s"}
    assert s.public_view()["trick"] == [[0, "7c"]] and "5h" in s.view(1)["hand"]
    s.act(1, "Js")
    finish_legally(s)
    assert 1 in results(s)[-1].bourre
    assert [e.retracted for e in s.events if isinstance(e, Reneged)] == [True]


def test_strict_mode_refuses_an_illegal_card_and_changes_nothing() -> None:
    s = trick_deal()
    s.act(0, "7c")
    before, view = s.events, s.view(1)
    with pytest.raises(
        IllegalAction, match=r"B \(seat 1\) cannot play 5♥: you have no clubs, so you must trump"
    ):
        s.act(1, "5h")
    assert s.events == before and s.view(1) == view


def finish_legally(s: BourreSession) -> None:
    while not s.deal_over:
        seat = s.pending()[0].seat
        s.act(seat, s.view(seat)["legal"][0])


# -- the cinch --------------------------------------------------------------------------------

CINCH = ["Ah Ad As 3c 4c", "2h 2d 5c 6c 9s"]  # B deals; trumps: spades


def test_cinch_after_two_tricks_the_ace_of_trumps_must_be_played() -> None:
    s = session(BourreRules(cinch=True), players=2)
    start(s, CINCH)
    run(s, "0:play, 1:play, 0:stand, 1:stand, 0:Ah, 1:2h")
    assert "3c" in legal(s), "one trick taken: not yet a cinch"
    run(s, "0:Ad, 1:2d")
    assert legal(s) == {"As"}
    with pytest.raises(IllegalAction, match="cinch"):
        s.act(0, "3c")
    s = session(players=2)
    start(s, CINCH)
    run(s, "0:play, 1:play, 0:stand, 1:stand, 0:Ah, 1:2h, 0:Ad, 1:2d")
    assert legal(s) == {"As", "3c", "4c"}, "without the cinch rule any lead"


# -- the result -------------------------------------------------------------------------------

SPLIT = ["Ac Kc 2d 3d 4h", "Ad Kd 2c 3c 5h", "6c 8c 6d 7d 2s"]
SPLIT_PLAY = (
    "0:Ac, 1:2c, 2:6c, 0:Kc, 1:3c, 2:8c, 0:2d, 1:Ad, 2:6d, 1:Kd, 2:7d, 0:3d, 1:5h, 2:2s, 0:4h"
)
BOURRE = ["As Ks Qs Js 2h", "Ah Kh 2c 3c 4c", "5d 6d 7d 8d 2s"]
BOURRE_PLAY = (
    "0:As, 1:2c, 2:2s, 0:Ks, 1:3c, 2:5d, 0:Qs, 1:4c, 2:6d, 0:2h, 1:Ah, 2:7d, 1:Kh, 2:8d, 0:Js"
)


def test_a_tie_for_most_tricks_is_a_split_pot_that_stays_for_the_next_deal() -> None:
    s = trick_deal(hands=SPLIT)
    run(s, SPLIT_PLAY)
    result = results(s)[-1]
    assert result.tricks == ((0, 2), (1, 2), (2, 1)) and result.winner is None
    assert s.table.pot == 3 and [seat.stack for seat in s.table.seats] == [99, 99, 99]
    s.start_deal()
    assert s.table.pot == 6, "the chips stay and everyone antes again"


def test_the_most_tricks_take_the_pot_and_no_trick_matches_it() -> None:
    s = trick_deal(hands=BOURRE)
    run(s, BOURRE_PLAY)
    result = results(s)[-1]
    assert result.tricks == ((0, 4), (1, 1), (2, 0))
    assert (result.winner, result.bourre, result.cost) == (0, (2,), 3)
    assert s.table.stack(0) == 102 and s.table.stack(2) == 96 and s.table.pot == 3
    assert reasons(s, Reason.BOURRE) == [(2, 3)]
    assert s.exempt == frozenset({2})
    s.start_deal()
    assert reasons(s, Reason.ANTE)[-2:] == [(1, 1), (0, 1)], "who bourréd does not ante"
    assert s.table.pot == 5


def test_the_pot_limit_caps_what_a_bourre_costs() -> None:
    s = trick_deal(BourreRules(pot_limit=2), hands=BOURRE)
    run(s, BOURRE_PLAY)
    assert reasons(s, Reason.BOURRE) == [(2, 2)] and s.table.pot == 2


@pytest.mark.parametrize(("limit", "each"), [(None, 4), (3, 3)])
def test_every_player_without_a_trick_matches_the_same_pot(limit: int | None, each: int) -> None:
    s = session(BourreRules(pot_limit=limit), players=4)
    start(s, ["As Ks Qs Js Ts", "2h 3h 4h 5h 6h", "2d 3d 4d 5d 6d", "2c 3c 4c 5c 2s"])
    run(s, "0:play, 1:play, 2:play, 3:play, 0:stand, 1:stand, 2:stand, 3:stand")
    finish_legally(s)
    assert results(s)[-1].tricks == ((0, 5), (1, 0), (2, 0), (3, 0))
    assert reasons(s, Reason.BOURRE) == [(1, each), (2, each), (3, each)]
    assert s.table.stack(0) == 103 and s.table.pot == 3 * each


def test_the_deal_passes_left() -> None:
    s = trick_deal(hands=SPLIT)
    run(s, SPLIT_PLAY)
    assert s.table.button == 0
    s.start_deal()
    assert s.pending()[0].seat == 1 and s.deal is not None and s.deal.dealer == 0


def test_each_hand_is_five_tricks() -> None:
    s = trick_deal(hands=BOURRE)
    run(s, BOURRE_PLAY)
    assert [e.trick for e in s.events if isinstance(e, TrickWon)] == [1, 2, 3, 4, 5]
    assert all(s.view(seat)["hand"] == [] for seat in range(3))


# -- the end of the game ----------------------------------------------------------------------


def test_the_players_end_the_game_and_the_pot_stays_on_the_table() -> None:
    s = trick_deal(hands=SPLIT)
    assert not s.can_stop
    with pytest.raises(IllegalAction, match="finish deal 1"):
        s.stop()
    run(s, SPLIT_PLAY)
    s.stop()
    assert s.is_over and s.table.pot == 3
    assert s.table.snapshot()["places"] == {"pot": 3}
    with pytest.raises(IllegalAction, match="over"):
        s.start_deal()


def test_the_pot_may_be_split_among_everyone_when_the_game_ends() -> None:
    s = trick_deal(BourreRules(end_pot=EndPot.SPLIT, max_deals=1), hands=SPLIT)
    run(s, SPLIT_PLAY)
    assert s.is_over and "deal limit" in s.over_reason
    assert s.table.pot == 0 and [seat.stack for seat in s.table.seats] == [100, 100, 100]


def test_at_table_stakes_the_game_ends_when_fewer_than_two_have_chips() -> None:
    s = session(BourreRules(credit=False), players=2, stacks=1)
    start(s, CINCH)
    run(s, "0:play, 1:play, 0:stand, 1:stand, 0:Ah, 1:2h, 0:Ad, 1:2d, 0:As, 1:9s")
    run(s, "0:3c, 1:5c, 1:6c, 0:4c")
    assert s.is_over and s.over_reason == "fewer than two players have chips"
    assert s.table.stack(0) == 2 and s.table.stack(1) == 0


# -- views, records, options ------------------------------------------------------------------


def test_views_show_only_a_seats_own_hand_and_its_own_discards() -> None:
    s = session()
    start(s, ["2c 3c 4c 5c 6c", "2d 3d 4d 5d 6d", "2h 3h 4h 5h 6s"])
    run(s, "0:play, 1:play, 2:play, 0:discard 2c")
    assert s.view(1)["hand"] == ["2d", "3d", "4d", "5d", "6d"]
    assert s.public_view()["hand"] is None
    for seat in (None, 1, 2):
        text = json.dumps(s.public_view() if seat is None else s.view(seat))
        assert '"2c"' not in text and "discard 2c" not in text
    assert "discard 2c" in json.dumps(s.view(0))
    assert [e.audience for e in s.events if isinstance(e, Discarded)] == [()]


def test_a_record_replays_to_the_same_events() -> None:
    s = trick_deal(hands=BOURRE)
    run(s, BOURRE_PLAY)
    s.start_deal()
    run(s, "1:fold, 2:fold, 0:fold")
    s.stop()
    copy = BourreSession.replay(json.loads(json.dumps(s.record())))
    assert copy.events == s.events and copy.table.snapshot() == s.table.snapshot()


def test_options_by_name_with_errors_naming_the_option_and_the_allowed_values() -> None:
    rules = BourreRules.from_options(None, {"pot-limit": "25", "renege_mode": "policed"})
    assert (rules.pot_limit, rules.renege_mode) == (25, RenegeMode.POLICED)
    assert BourreRules.from_options(None, rules.to_options()) == rules
    bad: list[tuple[dict[str, str], str]] = [
        ({"pot_cap": "3"}, "allowed: ante, dealer-antes"),
        ({"trump-card": "river"}, "trump-card: unknown value 'river'; allowed: dealer, stock"),
        ({"cinch": "maybe"}, "cinch: expected yes or no"),
        ({"pot-limit": "lots"}, "pot-limit: expected a whole number or none"),
        ({"pot-limit": "0"}, "pot-limit"),
        ({"renege-mode": "lax"}, "strict, policed, retract"),
        ({"max-discard": "6"}, "max-discard"),
        ({"ante": "-1"}, "ante"),
    ]
    for options, words in bad:
        with pytest.raises(OptionError, match=words):
            BourreRules.from_options(None, options)


def test_describe_lists_every_option_its_value_and_the_cinch() -> None:
    text = preset("bourre-house").describe()
    for key, value in preset("bourre-house").options().items():
        assert f"{key} = {value}" in text
    assert CINCH_TEXT in text and "s = (m + r - w) // 2 + 1" in text


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_plays_a_deal(name: str) -> None:
    rules, line = PRESETS[name]
    assert line and preset(name) == rules
    s = new_session(name, ["Ann", "Bob", "Cy", "Di"], buy_in=50, options={"max-deals": "1"})
    s.start_deal()
    while not s.deal_over:
        seat = s.pending()[0].seat
        view: dict[str, Any] = s.view(seat)
        s.act(seat, view["legal"][0] if view["legal"] else s.pending()[0].actions[0])
    assert s.is_over
    with pytest.raises(OptionError, match="presets: bourre"):
        preset("boo-ray")


# -- the sensible bot -------------------------------------------------------------------------

BOT_HANDS = ["Ks 3s Ah 4d 7c", "Qh Jh 9d 8d 5c", "Ac Kd 6h 5h 2s"]  # trumps: spades


def test_the_sensible_bot_draws_for_trumps_keeping_trumps_and_aces() -> None:
    s = session()
    start(s, BOT_HANDS)
    run(s, "0:play, 1:play, 2:play")
    kept = {0: {"Ks", "3s", "Ah"}, 1: set(), 2: {"Ac", "2s"}}
    for seat in (0, 1, 2):
        view = s.view(seat)
        assert view["phase"] == "draw" and s.pending()[0].seat == seat
        action = SensibleBot().choose(view)
        thrown = set(action.split()[1:])
        assert thrown == set(view["hand"]) - kept[seat], (seat, action)
        assert s.can_act(seat, action) and action.startswith("discard")
        s.act(seat, action)
    assert s.view(0)["phase"] == "tricks"


def test_the_sensible_bot_stands_with_only_trumps_and_aces_and_keeps_within_the_cap() -> None:
    s = session(players=7)
    start(s, ["As Ks 3s Ah Ad", "Qh Jh 9d 8d 5c", "Qc Jc 9c 8c 7c", "Qd Jd Td 7d 6d",
              "Th 9h 8h 7h 6h", "Tc 6c 5d 4d 3d", "Ac Kd 6s 5h 2s"])  # fmt: skip
    run(s, "0:play, 1:play, 2:fold, 3:fold, 4:fold, 5:fold, 6:play")
    assert SensibleBot().choose(s.view(0)) == "stand"
    s.act(0, "stand")
    action = SensibleBot().choose(s.view(1))
    assert s.can_act(1, action) and set(action.split()[1:]) == {"5c", "8d", "9d"}, "cap 3"


def _bot_plays(s: BourreSession) -> list[str]:
    """Let the sensible bot play out the tricks, checking each card is legal."""
    played = []
    while not s.deal_over:
        seat = s.pending()[0].seat
        view = s.view(seat)
        card = SensibleBot().choose(view)
        assert card in view["legal"], (card, view["legal"])
        s.act(seat, card)
        played.append(card)
    return played


def test_the_sensible_bot_trumps_when_it_must_even_when_the_trump_loses() -> None:
    hands = ["7c 3d 9h 3h 8h", "Js 4s 5h 6h 2d", "9d Td Kh 3s 2s"]
    s = trick_deal(BourreRules(must_trump_even_if_losing=True), hands=hands)
    run(s, "0:7c, 1:Js")
    assert SensibleBot().choose(s.view(2)) == "2s", "the cheapest trump, though it loses"
    s.act(2, "2s")
    _bot_plays(s)
    assert not [e for e in s.events if isinstance(e, Reneged)]


def test_the_sensible_bot_never_reneges_when_the_table_would_accept_it() -> None:
    s = trick_deal(BourreRules(renege_mode=RenegeMode.POLICED))
    s.act(0, "7c")
    assert {"5h", "6h", "2d"} <= legal(s), "policed: any held card is accepted"
    assert SensibleBot().choose(s.view(1)) == "4s", "the cheapest trump that wins"
    _bot_plays(s)
    assert not [e for e in s.events if isinstance(e, Reneged)]


@pytest.mark.parametrize("name", ["bourre-must-trump", "bourre-policed", "bourre-house"])
def test_sensible_bots_play_whole_sessions_legally(name: str) -> None:
    for seed in range(5):
        s = new_session(name, ["Ann", "Bob", "Cy", "Di"], buy_in=60, rng=Random(seed),
                        options={"max-deals": "6"})  # fmt: skip
        bots: list[SensibleBot | RandomBot] = [SensibleBot(), RandomBot(Random(seed))] * 2
        while not s.is_over:
            if s.deal_over:
                s.start_deal()
                continue
            seat = s.pending()[0].seat
            view = s.view(seat)
            action = bots[seat].choose(view)
            if view["phase"] == "tricks":
                assert action in view["legal"], (name, seed, action, view["legal"])
            s.act(seat, action)
        assert not [e for e in s.events if isinstance(e, Reneged)]
