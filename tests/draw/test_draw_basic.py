"""Basic Five Card Draw, rule by rule, with stacked decks (P0 deals; P1 is dealer's left).

Sections of the draw poker rule text held here, Five Card Draw's own in their order: the
pack and the players; the ante, the deal and the first betting round (a bet and four
raises); the draw (zero to three cards, counts public until the next round, the stock
refilled from the discards); the second betting round at double stakes; the showdown's
order. Then three of its variations: drawing more than three cards
(``test_drawing_four_*``), two draws, and blinds. Side pots and views hold what the text
leaves to the table.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from draw_helpers import hand, of_kind, play, stacked, table_session, to_act

from guts.betting import Limit
from guts.cards import parse_cards
from guts.errors import IllegalAction
from guts.games.draw import DrawRules, DrawSession, Phase
from guts.games.draw.events import Drew, Showed

# P1, P2, P0 in dealing order.
THREE = ["As Ad 7c 5h 2s", "Ks Kd 9c 8h 3s", "Qs Qd Jc 4h 6d"]
REST = "Tc Th Ts 9d 9h 9s 8c 8d 8s 7d 7h 7s"


def start(
    rules: DrawRules | str = "five-card-draw",
    hands: list[str] | None = None,
    rest: str = REST,
    players: int = 3,
    **kwargs: object,
) -> DrawSession:
    session = table_session(rules, players, **kwargs)  # type: ignore[arg-type]
    session.start_deal(stacked(hands or THREE, rest))
    return session


def test_each_player_antes_and_is_dealt_five_cards_one_at_a_time_from_dealers_left() -> None:
    session = start()
    assert session.table.pot == 3
    assert [session.table.stack(s) for s in range(3)] == [99, 99, 99]
    assert hand(session, 1) == parse_cards(THREE[0])
    assert hand(session, 2) == parse_cards(THREE[1])
    assert hand(session, 0) == parse_cards(THREE[2])


def test_first_betting_round_is_begun_by_the_player_to_dealers_left() -> None:
    session = start()
    assert to_act(session) == 1
    assert session.pending()[0].actions == ("fold", "check", "bet 1")


def test_everyone_checks_cards_thrown_in_deal_passes_pot_stays_and_everyone_antes_again() -> None:
    session = start()
    play(session, (1, "check"), (2, "check"), (0, "check"))
    assert session.deal is not None and session.deal.result == "thrown-in"
    assert session.table.pot == 3 and not session.is_over
    assert session.table.button == 1
    session.start_deal(stacked(THREE, REST))
    assert session.table.pot == 6
    assert to_act(session) == 2  # now dealer's left is P2


def test_fixed_limit_allows_a_bet_and_four_raises() -> None:
    session = start(players=3)
    play(session, (1, "bet 1"), (2, "raise 2"), (0, "raise 3"), (1, "raise 4"), (2, "raise 5"))
    assert session.pending()[0].actions == ("fold", "call")
    assert not session.can_act(0, "raise 6")


def test_a_player_discards_zero_to_three_cards_beginning_with_dealers_left() -> None:
    session = start()
    play(session, (1, "bet 1"), (2, "call"), (0, "call"))
    assert session.deal is not None and session.deal.phase is Phase.DRAWING
    decision = session.pending()[0]
    assert decision.seat == 1
    assert "stand pat" in decision.actions
    assert len(decision.actions) == 1 + 5 + 10 + 10
    assert not session.can_act(1, "discard 7c 5h 2s Ad")
    assert session.can_act(1, "discard 2s 7C 5h")  # any order, any case
    play(session, (1, "discard 7c 5h 2s"))
    assert hand(session, 1) == parse_cards("As Ad Tc Th Ts")


def test_the_draw_skips_folded_players() -> None:
    session = start()
    play(session, (1, "bet 1"), (2, "fold"), (0, "call"))
    assert to_act(session) == 1
    play(session, (1, "stand pat"))
    assert to_act(session) == 0


def test_the_number_drawn_is_public_but_the_cards_are_private() -> None:
    session = start()
    play(session, (1, "bet 1"), (2, "call"), (0, "call"), (1, "discard 7c 5h 2s"))
    drew = [e for e in of_kind(session, "draw-drew") if isinstance(e, Drew)]
    assert drew[0].seat == 1 and drew[0].count == 3 and drew[0].audience is None
    other = session.view(2)
    assert other["drawn"] == {"1": 3}
    assert "7c" not in str(other["events"]) and "Tc" not in str(other["events"])
    assert "Tc" not in str(session.public_view())
    assert "Tc" in str(session.view(1)["hand"])


def test_the_count_drawn_is_shown_only_until_the_second_betting_round() -> None:
    session = start()
    play(session, (1, "bet 1"), (2, "call"), (0, "call"))
    play(session, (1, "discard 2s"), (2, "stand pat"), (0, "discard 6d 4h"))
    assert session.deal is not None and session.deal.phase is Phase.BETTING
    assert session.public_view()["drawn"] == {}


def test_second_betting_round_is_begun_by_the_opener_with_double_bets() -> None:
    session = start()
    play(session, (1, "check"), (2, "bet 1"), (0, "call"), (1, "call"))
    play(session, (1, "stand pat"), (2, "stand pat"), (0, "stand pat"))
    decision = session.pending()[0]
    assert decision.seat == 2
    assert decision.actions == ("fold", "check", "bet 2")


def test_showdown_begins_with_the_last_aggressor_of_the_second_round() -> None:
    session = start()
    play(session, (1, "check"), (2, "bet 1"), (0, "call"), (1, "call"))
    play(session, (1, "stand pat"), (2, "stand pat"), (0, "stand pat"))
    play(session, (2, "check"), (0, "bet 2"), (1, "call"), (2, "call"))
    shown = [e.seat for e in session.events if isinstance(e, Showed)]
    assert shown == [0, 1, 2]
    assert session.is_over and session.table.stack(1) == 100 - 4 + 12


def test_showdown_begins_with_the_opener_when_everyone_checked() -> None:
    session = start()
    play(session, (1, "check"), (2, "bet 1"), (0, "call"), (1, "call"))
    play(session, (1, "stand pat"), (2, "stand pat"), (0, "stand pat"))
    play(session, (2, "check"), (0, "check"), (1, "check"))
    shown = [e.seat for e in session.events if isinstance(e, Showed)]
    assert shown == [2, 0, 1]


def test_best_hand_wins_the_pot_and_the_session_ends() -> None:
    session = start()
    play(session, (1, "bet 1"), (2, "call"), (0, "call"))
    play(session, (1, "discard 7c 5h 2s"), (2, "stand pat"), (0, "stand pat"))
    play(session, (1, "check"), (2, "check"), (0, "check"))
    assert session.table.stack(1) == 98 + 6  # aces full of tens
    assert session.is_over and session.table.pot == 0


def test_illegal_actions_raise_and_change_nothing() -> None:
    session = start()
    before = session.events
    with pytest.raises(IllegalAction, match="P2"):
        session.act(2, "check")
    with pytest.raises(IllegalAction):
        session.act(1, "bet 3")
    assert session.events == before


def test_stock_running_out_reshuffles_the_discards_of_those_who_already_drew() -> None:
    eight = [
        "2c 3c 4c 5c 7d",
        "2d 3d 4d 5d 7h",
        "2h 3h 4h 5h 7s",
        "2s 3s 4s 5s 8c",
        "6c 6d 9c 9d 8d",
        "6h 6s 9h 9s 8h",
        "Tc Td Jc Jd 8s",
        "Th Ts Jh Js Qc",
    ]
    rest = "Qd Qh Qs Kc Kd Kh Ks Ac Ad Ah As 7c"
    eight_players = replace(DrawRules(), max_players=8)  # "possible for ... eight people"
    session = start(eight_players, hands=eight, rest=rest, players=8)
    for seat in (1, 2, 3, 4, 5, 6, 7, 0):
        session.act(seat, "bet 1" if seat == 1 else "call")
    for seat in (1, 2, 3, 4):
        session.act(seat, "discard " + " ".join(c.ascii for c in hand(session, seat)[2:]))
    assert session.deal is not None and len(session.deal.stock) == 0
    pool = {c for seat in (1, 2, 3, 4) for c in session.deal.discards[seat]}
    session.act(5, "discard 9c 9d 8d")
    reshuffled = of_kind(session, "draw-reshuffled")
    assert len(reshuffled) == 1 and reshuffled[0].count == 12  # type: ignore[attr-defined]
    assert set(hand(session, 5)[2:]) <= pool
    assert not set(hand(session, 5)[2:]) & set(parse_cards("9c 9d 8d"))


def test_drawing_four_needs_the_option_and_an_ace() -> None:
    rules = replace(DrawRules(), four_with_ace=True)
    session = start(rules)
    play(session, (1, "bet 1"), (2, "call"), (0, "call"))
    assert session.can_act(1, "discard Ad 7c 5h 2s")
    assert not session.can_act(1, "discard As Ad 7c 5h")
    play(session, (1, "discard Ad 7c 5h 2s"))
    drew = of_kind(session, "draw-drew")[0]
    assert drew.shown == ("As",)  # type: ignore[attr-defined]
    assert not session.can_act(2, "discard Kd 9c 8h 3s")  # P2 has no ace to keep


def test_drawing_four_or_five_unconditionally() -> None:
    session = start(replace(DrawRules(), max_draw=5))
    play(session, (1, "bet 1"), (2, "call"), (0, "call"))
    assert session.can_act(1, "discard all")
    play(session, (1, "discard As Ad 7c 5h 2s"))
    assert hand(session, 1) == parse_cards("Tc Th Ts 9d 9h")


def test_two_draws_three_then_one_or_two_with_a_third_betting_round() -> None:
    session = start(replace(DrawRules(), draws=2))
    play(session, (1, "bet 1"), (2, "call"), (0, "call"))
    play(session, (1, "discard 7c 5h 2s"), (2, "stand pat"), (0, "stand pat"))
    play(session, (1, "check"), (2, "check"), (0, "check"))
    assert session.deal is not None and session.deal.phase is Phase.DRAWING
    assert not session.can_act(1, "discard Tc Th Ts")
    play(session, (1, "discard Tc Th"), (2, "discard 3s"), (0, "stand pat"))
    assert session.pending()[0].actions == ("fold", "check", "bet 2")
    play(session, (1, "check"), (2, "check"), (0, "check"))
    assert session.is_over


def test_blinds_straddle_and_the_big_blinds_option() -> None:
    rules = replace(DrawRules(), ante=0, blind=2, straddles=1, bet=2)
    session = start(rules, players=4, hands=[*THREE, "2c 3d 5d 5s 6h"])
    # P1 blind 2, P2 straddle 4; betting begins with P3.
    assert session.table.stack(1) == 98 and session.table.stack(2) == 96
    assert to_act(session) == 3
    play(session, (3, "call"), (0, "call"), (1, "call"))
    assert set(session.pending()[0].actions) >= {"check", "raise 6"}
    assert to_act(session) == 2


def test_side_pots_with_three_all_ins_of_different_sizes() -> None:
    rules = replace(DrawRules(), limit=Limit.NO_LIMIT, raise_cap=None)
    hands = ["As Ah Ad Ac 2s", "Ks Kh Kd Kc 3s", "Qs Qh Qd Qc 4s", "Js Jh Jd Jc 5s"]
    session = start(rules, hands=hands, players=4, stacks=[100, 10, 20, 30])
    # Dealing order P1 (10 chips, quad aces), P2 (20, kings), P3 (30, queens), P0 (100, jacks).
    play(session, (1, "bet 9"), (2, "raise 19"), (3, "raise 29"), (0, "call"))
    play(session, (1, "stand pat"), (2, "stand pat"), (3, "stand pat"), (0, "stand pat"))
    assert session.deal is not None and session.deal.over
    assert session.table.stack(1) == 40  # main pot: 10 from each
    assert session.table.stack(2) == 30  # 10 more from P2, P3, P0
    assert session.table.stack(3) == 20  # 10 more from P3 and P0
    assert session.table.stack(0) == 70
    assert session.table.pot == 0


def test_views_show_a_seat_its_own_cards_and_decision_and_spectators_neither() -> None:
    session = start()
    mine = session.view(1)
    assert mine["hand"] == ["As", "Ad", "7c", "5h", "2s"]
    assert mine["pending"][0]["actions"] == ["fold", "check", "bet 1"]
    assert mine["to_act"] == [1] and mine["pot"] == 3 and mine["phase"] == "betting"
    public = session.public_view()
    assert public["hand"] is None and public["pending"] == []
    assert session.view(2)["pending"] == []
    with pytest.raises(IllegalAction):
        session.view(7)


def test_replay_rebuilds_the_same_session_from_its_record() -> None:
    session = start()
    play(session, (1, "bet 1"), (2, "call"), (0, "call"))
    play(session, (1, "discard 7c 5h 2s"), (2, "stand pat"), (0, "stand pat"))
    again = DrawSession.replay(session.record())
    assert again.events == session.events
    assert again.view(1) == session.view(1)
    play(again, (1, "check"))
    assert session.events != again.events
