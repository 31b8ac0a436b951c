"""Toh, sentence by sentence of the rule text, with stacked decks.

Section of the Guts rule text held here: Toh, among the games like Guts (the target by
player count, one card each, the second chance when only the dealer is in, points kept out
of the stock, the pot to the first at the target).
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from staged_helpers import allowed_cards, declare, session, start

from guts.cards import Deck, parse_card
from guts.errors import CardError, IllegalAction, OptionError
from guts.games.staged import StagedRules, StagedSession, TohLone, TohNobody, new_session, preset
from guts.games.staged.events import (
    CardsDealt,
    CardsShown,
    DealStarted,
    LastHand,
    Outcome,
    PointScored,
    Shuffled,
)
from guts.table import Reason

TOH = preset("toh")
FEW = preset("toh", {"min-players": "2"})  # the text: "designed for 4 to 10 people"
HANDS = ["9c", "Kd", "Ks", "2h"]  # seat 3 deals, seat 0 first to speak


def test_target_is_announced_in_advance_by_player_count() -> None:
    few = {"min-players": "2"}
    targets = {
        n: new_session("toh", [str(i) for i in range(n)], options=few).target
        for n in range(2, 11)
    }
    assert targets == {2: 5, 3: 5, 4: 5, 5: 5, 6: 4, 7: 4, 8: 3, 9: 3, 10: 3}
    assert new_session("toh", ["a", "b"], options={"points": "7", **few}).target == 7
    assert "by the player count" in TOH.describe()
    with pytest.raises(OptionError, match="52"):
        new_session("toh", [str(i) for i in range(12)], options={"points": "5"})


def test_the_pot_is_seeded_with_one_chip_and_each_gets_one_card_face_down() -> None:
    s = session(TOH, players=4)
    start(s, HANDS)
    assert s.table.pot == 1
    seed = s.table.ledger[-1]
    assert seed.source == 3 and seed.reason is Reason.ANTE and seed.note == "seed"
    dealt = [e for e in s.events if isinstance(e, CardsDealt)]
    assert [(e.seat, e.cards, e.audience) for e in dealt] == [
        (i, (HANDS[i],), (i,)) for i in range(4)
    ]
    assert s.view(1)["hand"] == ["Kd"]
    assert [d.seat for d in s.pending()] == [0]  # in turn from the dealer's left


def test_showdown_high_card_wins_suits_break_ties_losers_match_winner_keeps_card() -> None:
    s = session(TOH, players=4)
    start(s, HANDS)
    declare(s, ("in", "in", "in", "out"))
    shown = [e for e in s.events if isinstance(e, CardsShown)]
    assert {e.seat for e in shown} == {0, 1, 2} and all(e.audience is None for e in shown)
    assert s.points == {2: 1}  # K♠ beats K♦: spades above diamonds
    assert s.point_cards == {2: (parse_card("Ks"),)}
    assert s.table.pot == 1 + 1 + 1  # two losers matched the one-chip pot
    assert [t.reason for t in s.table.ledger[-2:]] == [Reason.MATCH, Reason.MATCH]
    assert s.discard_count == 3  # the other cards go to the discard pile
    assert s.stock_size == 48


@pytest.mark.parametrize(
    ("cards", "winner"),
    [(["2c", "2d"], 1), (["2h", "2s"], 1), (["Ac", "Ks"], 0), (["5d", "5c"], 0)],
)
def test_suits_order_clubs_diamonds_hearts_spades(cards: list[str], winner: int) -> None:
    s = session(FEW, players=2, button=1)
    start(s, cards)
    declare(s, ("in", "in"))
    assert s.points == {winner: 1}


def test_the_deal_rotates() -> None:
    s = session(TOH, players=4)
    start(s, HANDS)
    declare(s, ("out", "out", "out", "out"))
    s.start_deal()
    started = [e for e in s.events if isinstance(e, DealStarted)]
    assert [e.dealer for e in started] == [3, 0]
    assert [d.seat for d in s.pending()] == [1]


def test_only_the_dealer_in_gives_the_others_a_second_chance() -> None:
    s = session(TOH, players=4)
    start(s, HANDS)
    for seat in (0, 1, 2):
        s.act(seat, "out")
    s.act(3, "in")
    assert [d.seat for d in s.pending()] == [0]
    assert "second chance" in s.pending()[0].prompt
    s.act(0, "out")
    s.act(1, "in")
    s.act(2, "out")
    assert s.points == {1: 1}  # K♦ beat the dealer's 2♥
    assert s.table.stack(3) == 100 - 1 - 1  # the seed, then matching the pot


def test_dealer_alone_after_the_second_chance_scores() -> None:
    s = session(FEW, players=3)
    start(s, ["9c", "Kd", "2h"])
    declare(s, ("out", "out", "in"))
    assert s.points == {2: 1} and s.table.pot == 1
    assert any(isinstance(e, PointScored) and e.card == "2h" for e in s.events)


def test_a_lone_non_dealer_scores_or_not_by_option() -> None:
    s = session(FEW, players=3)
    start(s, ["9c", "Kd", "2h"])
    declare(s, ("in", "out", "out"))
    assert s.points == {0: 1} and s.point_cards == {0: (parse_card("9c"),)}
    s2 = session(replace(FEW, toh_lone=TohLone.NOTHING), players=3)
    start(s2, ["9c", "Kd", "2h"])
    declare(s2, ("in", "out", "out"))
    assert s2.points == {} and s2.discard_count == 3


def test_nobody_in_nothing_happens_or_everyone_antes() -> None:
    s = session(FEW, players=3)
    start(s, ["9c", "Kd", "2h"])
    declare(s, ("out", "out", "out"))
    assert s.table.pot == 1 and s.points == {}
    s2 = session(replace(FEW, toh_nobody_in=TohNobody.ANTE), players=3)
    start(s2, ["9c", "Kd", "2h"])
    declare(s2, ("out", "out", "out"))
    assert s2.table.pot == 4


def test_no_reshuffle_while_enough_cards_remain_and_the_last_hand_is_announced() -> None:
    s = StagedSession(replace(FEW, points=17), ["a", "b", "c"], rng=random.Random(1))
    shuffles = []
    while s.deals_played < 20:
        s.start_deal()
        shuffles.append(sum(isinstance(e, Shuffled) for e in s.events))
        declare(s, ("out", "out", "out"))
    # 52 cards, 3 a hand: 17 hands, then the reshuffle
    assert shuffles[:17] == [1] * 17 and shuffles[17] == 2
    last = [e for e in s.events if isinstance(e, LastHand)]
    assert [e.deal for e in last] == [17] and last[0].stock == 1


def test_point_cards_never_return_to_the_stock() -> None:
    s = StagedSession(replace(FEW, points=26), ["a", "b"], rng=random.Random(2))
    while s.deals_played < 35:
        s.start_deal()
        declare(s, ("in", "in"))
    assert not s.is_over
    kept = {c for cards in s.point_cards.values() for c in cards}
    assert len(kept) == 35
    later = [e for e in s.events[-20:] if isinstance(e, Shuffled)]
    for event in [e for e in s.events if isinstance(e, Shuffled)][1:]:
        assert len(event.deck) < 52
    assert all(parse_card(code) not in kept for e in later for code in e.deck)
    assert s.stock_size + s.discard_count + len(kept) == 52


def test_a_stacked_toh_deck_must_hold_the_unscored_cards() -> None:
    s = session(FEW, players=2, button=1)
    with pytest.raises(CardError, match="52 cards"):
        s.start_deal(Deck.stacked("As Ks"))
    assert s.deals_played == 0 and not s.events


def test_first_to_the_target_takes_the_pot() -> None:
    s = session(replace(FEW, points=2), players=3)
    start(s, ["9c", "Kd", "2h"])
    declare(s, ("in", "in", "out"))  # B wins, A matches
    assert s.points == {1: 1} and s.table.pot == 2
    start(s, ["3d", "Ac", "4h"])  # dealer is now seat 0: B speaks first
    declare(s, ("in", "in", "in"))  # B wins again; A and C match the pot of 2 first
    assert s.is_over and s.table.pot == 0 and s.points == {1: 2}
    assert s.table.stack(1) == 100 + 1 + 1 + 2 + 2 and "2 points" in s.over_reason
    assert s.table.ledger[-1].reason is Reason.WIN
    with pytest.raises(IllegalAction):
        s.start_deal()


def test_views_show_only_own_and_face_up_cards() -> None:
    s = session(TOH, players=4)
    start(s, HANDS)
    declare(s, ("in", "out", "out", "out"))
    s.start_deal()
    for seat in (0, 1, 2, 3, None):
        view = s.public_view() if seat is None else s.view(seat)
        allowed = allowed_cards(s, seat)
        assert set(view["point_cards"].get("0", [])) <= allowed
        if seat is not None:
            assert set(view["hand"]) <= allowed
    assert "Kd" not in allowed_cards(s, 0)  # folded cards are never shown
    assert any(isinstance(e, Outcome) for e in s.events)


def test_toh_options_are_checked() -> None:
    with pytest.raises(OptionError, match="in turn"):
        StagedRules.from_options(TOH, {"declare": "simultaneous"})
    with pytest.raises(OptionError, match="no wild cards"):
        StagedRules.from_options(TOH, {"wilds": "2"})


def test_a_toh_session_with_reshuffles_replays() -> None:
    s = StagedSession(replace(FEW, points=17), ["a", "b", "c"], rng=random.Random(3))
    while s.deals_played < 25:
        s.start_deal()
        declare(s, ("in", "out", "in"))
    again = StagedSession.replay(s.record())
    assert again.events == s.events and again.point_cards == s.point_cards
    assert sum(isinstance(e, Shuffled) for e in s.events) >= 2
