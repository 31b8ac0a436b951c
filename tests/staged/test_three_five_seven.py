"""Three Five Seven, sentence by sentence of the rule text, with stacked decks.

Sections of the Guts rule text held here: what the three-stage games share (an out player
keeps the cards for the later stages), and Three Five Seven stage by stage: the first
stage's three cards and its outcomes, the second stage's two more cards, the third stage
and its new ante when nobody is in, the legs kept between deals and the third leg that
takes the pot. ``test_option_*`` hold customs the text leaves to the table; the last
tests hold the session around the rules (views, records, table stakes, shared tables).
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from staged_helpers import allowed_cards, declare, session, start

from guts.errors import IllegalAction, OptionError
from guts.games.staged import (
    PRESETS,
    Declare,
    Payment,
    StagedRules,
    StagedSession,
    new_session,
    preset,
)
from guts.games.staged.events import (
    CardsDealt,
    CardsShown,
    Chose,
    Declared,
    ModeChosen,
    Outcome,
    PointScored,
    StageStarted,
)
from guts.table import POT, Reason

RULES = StagedRules()
OUT3 = ("out", "out", "out")

# Seat hands, seven cards each: stage one gets the first 3, stage two the next 2, stage
# three the last 2.
A7 = "Ah Ad 9c  Kd Qd  2s 4s"  # stage one: pair of aces
B7 = "Kh Kc Ks  8c 8d  2c 6h"  # stage one: trips
C7 = "2h 5d 9d  Jc Jd  Qs Qh"  # stage one: nine high


def test_everyone_antes_and_gets_three_cards_face_down() -> None:
    s = session(RULES)
    start(s, [A7, B7, C7])
    assert s.table.pot == 3
    antes = [t for t in s.table.ledger if t.reason is Reason.ANTE]
    assert sorted(str(t.source) for t in antes) == ["0", "1", "2"]
    for seat in range(3):
        assert len(s.view(seat)["hand"]) == 3
    dealt = [e for e in s.events if isinstance(e, CardsDealt)]
    assert [e.audience for e in dealt] == [(0,), (1,), (2,)]
    assert s.public_view()["hand"] is None
    assert [d.seat for d in s.pending()] == [0]  # dealer's left first


def test_nobody_in_goes_to_stage_two_where_everyone_gets_two_more() -> None:
    s = session(RULES)
    start(s, [A7, B7, C7])
    declare(s, OUT3)
    assert s.table.pot == 3 and not s.points
    assert s.deal is not None and s.deal.stage_index == 1
    assert all(len(s.view(seat)["hand"]) == 5 for seat in range(3))
    assert [e.stage for e in s.events if isinstance(e, StageStarted)] == [1, 2]


def test_one_in_scores_a_leg_and_play_goes_on() -> None:
    s = session(RULES)
    start(s, [A7, B7, C7])
    declare(s, ("out", "in", "out"))
    assert s.points == {1: 1}
    assert any(isinstance(e, PointScored) and e.seat == 1 and e.word == "leg" for e in s.events)
    assert s.table.pot == 3 and s.deal is not None and s.deal.stage_index == 1


def test_several_in_compare_privately_and_losers_pay_the_pot_to_the_winner() -> None:
    s = session(RULES, players=3)
    start(s, [A7, B7, C7])
    stacks = [s.table.stack(i) for i in range(3)]
    declare(s, ("in", "in", "out"))
    shown = [e for e in s.events if isinstance(e, CardsShown)]
    assert {e.seat for e in shown} == {0, 1}
    assert all(e.audience == (0, 1) for e in shown)  # exactly the players who are in
    assert s.table.stack(0) == stacks[0] - 3 and s.table.stack(1) == stacks[1] + 3
    assert s.table.pot == 3  # the pot itself is untouched
    assert [t.reason for t in s.table.ledger[-1:]] == [Reason.PAY_WINNER]
    # the player who is out sees no card of theirs, nor does a spectator
    for viewer in (2, None):
        view = s.view(2) if viewer == 2 else s.public_view()
        assert view["shown"] == []
        text = json.dumps(view)
        for code in ("Ah", "Ad", "Kh", "Kc", "Ks"):
            assert f'"{code}"' not in text
        assert allowed_cards(s, viewer).isdisjoint({"Ah", "Ad", "Kh", "Kc", "Ks"})
    seen = {tuple(x["cards"]) for x in s.view(0)["shown"]}
    assert seen == {("Ah", "Ad", "9c"), ("Kh", "Kc", "Ks")}
    outcome = [e for e in s.events if isinstance(e, Outcome)][-1]
    assert outcome.audience is None and outcome.winners == (1,) and outcome.payers == (0,)
    assert "Three" not in outcome.text and "aces" not in outcome.text  # no hand leaks


@pytest.mark.parametrize(
    ("a", "b", "winner"),
    [
        ("2c 2d 9h", "Ac Kd Qh", 0),  # a pair beats unmatched cards
        ("4c 4d 4h", "Ac Ad Kh", 0),  # triplets beat pairs
        ("Jc Qc Kc", "2d 2h 5s", 1),  # no straights or flushes: a pair beats J-Q-K suited
        ("3c 9d 9h", "Ac Ad Kh", 0),  # threes wild: 3-9-9 is three nines
        ("3c 3d 2h", "Kc Kd Kh", 1),  # 3-3-2: three deuces... lose to three kings
        ("3c Ad 8h", "Kc Kd 2h", 0),  # 3-A-8: a pair of aces beats kings
    ],
)
def test_stage_one_ranking(a: str, b: str, winner: int) -> None:
    s = session(RULES, players=2, button=1)
    start(s, [a + " 4s 6s 7h 8d", b + " Tc Th 8s Ts"])
    declare(s, ("in", "in"))
    outcome = [e for e in s.events if isinstance(e, Outcome)][-1]
    assert outcome.winners == (winner,)


def test_ties_losers_pay_every_winner_and_all_tied_nobody_pays() -> None:
    s = session(RULES, players=3)
    start(s, ["Ah Ad 9c Kd Qd 2s 4s", "As Ac 9d 8c 8d 2c 6h", "2h 5d Th Jc Jd Qs Qh"])
    declare(s, ("in", "in", "in"))
    assert s.table.stack(2) == 100 - 1 - 2 * 3
    assert s.table.stack(0) == s.table.stack(1) == 100 - 1 + 3
    s2 = session(RULES, players=2, button=1)
    start(s2, ["Ah Ad 9c Kd Qd 2s 4s", "As Ac 9d 8c 8d 2c 6h"])
    declare(s2, ("in", "in"))
    assert s2.table.stack(0) == s2.table.stack(1) == 99
    assert "Nobody pays" in [e for e in s2.events if isinstance(e, Outcome)][-1].text


def test_stage_two_five_cards_fives_wild_compared_privately() -> None:
    s = session(RULES, players=3)
    # A: 2-4-6-8-T of hearts (flush) ; B: 5 + K K K Q (fives wild: four kings) ; C out
    start(s, ["2h 4h 6h 8h Th 2c 3c", "5c Kc Kd Ks Qd 4c 6c", "9s Js Qs Ac Ad 7c 8c"])
    declare(s, OUT3)
    assert len(s.view(2)["hand"]) == 5  # those out at stage one still get cards
    declare(s, ("in", "in", "out"))
    shown = [e for e in s.events if isinstance(e, CardsShown)]
    assert all(e.audience == (0, 1) for e in shown)
    assert "Four of a kind" in next(e.description for e in shown if e.seat == 1)
    assert s.table.stack(1) == 100 - 1 + 3


def test_stage_three_best_five_of_seven_sevens_wild_shown_to_all() -> None:
    s = session(RULES, players=3)
    start(s, ["2h 4h 6h 8h Th 2c 3c", "5c Kc Kd Ks Qd 7d 7s", "9s Js Qs Ac Ad 9c 8c"])
    declare(s, OUT3)
    declare(s, OUT3)
    assert all(len(s.view(seat)["hand"]) == 7 for seat in range(3))
    declare(s, ("in", "in", "out"))
    shown = [e for e in s.events if isinstance(e, CardsShown)]
    assert all(e.audience is None for e in shown)
    # B: K K K + two sevens wild = five of a kind; fives are not wild any more
    assert next(e.description for e in shown if e.seat == 1).startswith("Five of a kind")
    assert s.public_view()["shown"] and len(s.view(2)["shown"]) == 2
    assert s.table.stack(1) == 100 - 1 + 3


def test_legs_carry_everyone_antes_again_and_the_next_dealer_deals() -> None:
    s = session(RULES, players=3)
    start(s, [A7, B7, C7])
    declare(s, ("in", "out", "out"))
    declare(s, ("out", "out", "out"))
    declare(s, ("out", "out", "in"))
    assert s.deal_over and not s.is_over
    assert s.points == {0: 1, 2: 1}
    assert s.table.button == 0  # the next dealer
    start(s, [A7, B7, C7])
    assert s.table.pot == 6 and s.points == {0: 1, 2: 1}
    assert [d.seat for d in s.pending()] == [1]


def test_nobody_in_at_stage_three_new_ante_and_deal() -> None:
    s = session(RULES, players=2, button=1)
    start(s, [A7, B7])
    for _ in range(3):
        declare(s, ("out", "out"))
    assert s.deal_over and s.table.pot == 2
    start(s, [A7, B7])
    assert s.table.pot == 4


@pytest.mark.parametrize("stage", [0, 1, 2])
def test_the_third_leg_at_any_stage_takes_the_whole_pot_and_ends_the_game(stage: int) -> None:
    s = session(RULES, players=3)
    for _ in range(2):  # two legs for A, at stage one of two deals
        start(s, [A7, B7, C7])
        declare(s, ("in", "out", "out"))
        while not s.deal_over:
            declare(s, OUT3)
    start(s, [A7, B7, C7])
    for _ in range(stage):
        declare(s, OUT3)
    assert s.points == {0: 2}
    pot = s.table.pot
    declare(s, ("in", "out", "out"))
    assert s.is_over and s.table.pot == 0 and s.deal_over
    assert s.table.ledger[-1].reason is Reason.WIN and s.table.ledger[-1].amount == pot
    assert "3 legs" in s.over_reason
    with pytest.raises(IllegalAction):
        s.start_deal()


def test_option_cumulative_wilds() -> None:
    crazy = preset("crazy-three-five-seven")
    assert [st.wild for st in crazy.stages()] == [(3,), (3, 5), (3, 5, 7)]
    s = session(crazy, players=2, button=1)
    # stage three: A holds 3-5-7 and A-A: with all wild, five aces
    start(s, ["3c 5c Ah 2d 4d Ad 7s", "Kc Kd Ks 9d 9h 2h 4h"])
    declare(s, ("out", "out"))
    declare(s, ("out", "out"))
    declare(s, ("in", "in"))
    shown = {e.seat: e.description for e in s.events if isinstance(e, CardsShown)}
    assert shown[0].startswith("Five of a kind")


def test_option_losers_match_the_pot() -> None:
    s = session(preset("three-five-seven-match-pot"), players=3)
    start(s, [A7, B7, C7])
    declare(s, ("in", "in", "in"))
    assert s.table.pot == 3 + 3 + 3
    assert s.table.stack(1) == 99
    assert {t.reason for t in s.table.ledger[-2:]} == {Reason.MATCH}


def test_option_legs_needed() -> None:
    s = session(replace(RULES, points=1), players=2, button=1)
    start(s, [A7, B7])
    declare(s, ("in", "out"))
    assert s.is_over and s.table.stack(0) == 101


def test_simultaneous_choices_are_hidden_until_all_have_chosen() -> None:
    s = session(replace(RULES, declare=Declare.SIMULTANEOUS), players=3)
    start(s, [A7, B7, C7])
    assert [(d.seat, d.simultaneous) for d in s.pending()] == [(0, True), (1, True), (2, True)]
    s.act(1, "in")
    assert s.view(0)["declared"] == {} and s.public_view()["declared"] == {}
    assert any(isinstance(e, Chose) for e in s.visible_events(0))
    assert not any(isinstance(e, Declared) for e in s.visible_events(0))
    s.act(0, "out")
    s.act(2, "out")
    assert s.points == {1: 1}
    assert sum(isinstance(e, Declared) for e in s.events) == 3


def test_dealers_choice_is_made_before_the_deal() -> None:
    s = session(preset("three-five-seven-dealers-choice"), players=3)
    start(s, [A7, B7, C7])
    assert [(d.seat, d.actions) for d in s.pending()] == [(2, ("in-turn", "simultaneous"))]
    assert s.view(2)["hand"] == []
    s.act(2, "simultaneous")
    assert any(isinstance(e, ModeChosen) and e.mode == "simultaneous" for e in s.events)
    assert all(d.simultaneous for d in s.pending()) and len(s.pending()) == 3
    assert len(s.view(0)["hand"]) == 3


def test_illegal_actions_change_nothing() -> None:
    s = session(RULES)
    start(s, [A7, B7, C7])
    before = s.events
    with pytest.raises(IllegalAction, match="not their turn"):
        s.act(1, "in")
    with pytest.raises(IllegalAction, match="choose one of in, out"):
        s.act(0, "fold")
    assert s.events == before


def test_options_errors_name_the_key_and_values() -> None:
    with pytest.raises(OptionError, match=r"unknown staged-game option 'legs'.*points"):
        StagedRules.from_options(None, {"legs": "2"})
    with pytest.raises(OptionError, match=r"declare: unknown value 'loud'.*dealer-choice"):
        StagedRules.from_options(None, {"declare": "loud"})
    with pytest.raises(OptionError, match="wilds: 3 stages"):
        StagedRules.from_options(None, {"wilds": "3/5"})
    with pytest.raises(OptionError, match="ante"):
        StagedRules.from_options(None, {"ante": "0"})
    with pytest.raises(OptionError, match="toh-lone"):
        StagedRules.from_options(None, {"toh-lone": "nothing"})
    with pytest.raises(OptionError, match="at most 7 players"):
        new_session("three-five-seven", [str(i) for i in range(8)])


def test_presets_and_rules_text() -> None:
    assert {"three-five-seven", "napalm", "nuts", "toh"} <= set(PRESETS)
    text = preset("three-five-seven").describe()
    for words in ("threes wild", "fives wild", "sevens wild", "compared privately",
                  "pay-winner", "legs to take the pot: 3"):  # fmt: skip
        assert words in text
    assert preset("three-five-seven", {"payment": "match-pot"}).payment is Payment.MATCH_POT


def test_record_is_json_and_replays() -> None:
    s = session(RULES)
    start(s, [A7, B7, C7])
    declare(s, ("in", "in", "out"))
    declare(s, ("out", "in", "in"))
    record = json.loads(json.dumps(s.record()))
    again = StagedSession.replay(record)
    assert again.events == s.events and again.points == s.points
    assert again.table.ledger == s.table.ledger
    assert POT in s.table.places


def test_stage_two_threes_are_no_longer_wild_and_straights_count() -> None:
    s = session(RULES, players=2, button=1)
    # A: 3-3 + K-Q-9 at stage two: only a pair of threes; B: 8-9-T-J-Q straight
    start(s, ["3c 3d Kh Qs 9d 2c 4d", "8c 9h Td Js Qd 2h 4h"])
    declare(s, ("out", "out"))
    declare(s, ("in", "in"))
    shown = {e.seat: e.description for e in s.events if isinstance(e, CardsShown)}
    assert shown[0].startswith("Pair of threes") and shown[1].startswith("Straight")
    assert s.table.stack(1) == 99 + 2


def test_stage_three_fives_are_no_longer_wild() -> None:
    s = session(RULES, players=2, button=1)
    start(s, ["5c 5d Kh Qs 9d 2c 4d", "8c 8h Td Js 2d 2h 4h"])
    for _ in range(2):
        declare(s, ("out", "out"))
    declare(s, ("in", "in"))
    shown = {e.seat: e.description for e in s.events if isinstance(e, CardsShown)}
    assert shown[0].startswith("Pair of fives") and shown[1].startswith("Two pair")


def test_table_stakes_a_player_without_chips_sits_out() -> None:
    rules = replace(RULES, credit=False)
    s = StagedSession(rules, [("A", 1), ("B", 50), ("C", 50)], button=2)
    start(s, [A7, B7, C7])
    assert s.table.stack(0) == 0
    declare(s, ("in", "in", "out"))  # A loses and pays what it has: nothing
    assert s.table.ledger[-1].shortfall == 3
    while not s.deal_over:
        declare(s, OUT3)
    s.start_deal()
    # A sits out and does not deal: the deal passes over A to B, so C is first to act
    assert s.table.button == 1
    assert s.deal is not None and s.deal.seats == (2, 1)


def test_a_shared_table_carries_stacks_and_button() -> None:
    from guts.table import Table

    table = Table(["A", "B"], buy_in=20, credit=True, button=1)
    s = StagedSession(RULES, table)
    s.start_deal()
    assert s.table is table and table.pot == 2 and s.deal is not None and s.deal.dealer == 1
    with pytest.raises(OptionError, match="credit"):
        StagedSession(replace(RULES, credit=False), table)


def test_stop_shares_the_pot_between_deals_and_replays() -> None:
    s = session(RULES, players=3)
    start(s, [A7, B7, C7])
    with pytest.raises(IllegalAction, match="in progress"):
        s.stop()
    for _ in range(3):
        declare(s, OUT3)
    s.stop()
    assert s.is_over and s.table.pot == 0 and [s.table.stack(i) for i in range(3)] == [100] * 3
    assert StagedSession.replay(s.record()).events == s.events
