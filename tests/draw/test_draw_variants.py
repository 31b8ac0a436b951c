"""The bug, deuces wild and declarations, Wild Widow, Diablo, Jacks Back, All for One,
32-card poker and the Bosnian exchange, Seven Card Draw (P0 deals; P1 is dealer's left).

Sections of the draw poker rule text held here, by test name: the bug (``test_bug_*``),
deuces wild with declared hands (``test_deuces_*``, ``test_declaring_*``,
``test_an_under_declared_*``, ``test_a_deuce_*``), Wild Widow, Diablo, Jacks Back and its
joker fitter (``test_jacks_back_*``, ``test_joker_*``), All for One and One for All,
32-card poker with its Bosnian exchange (``test_32_card_*``, ``test_bosnian_*``) and Seven
Card Draw (``test_seven_card_*``, ``test_without_reshuffling_*``).
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from draw_helpers import hand, of_kind, play, stacked, table_session, to_act

from guts.cards import DeckKind, parse_cards
from guts.errors import OptionError
from guts.games.draw import DrawSession, Phase, preset
from guts.games.draw.events import BettingStarted, Dealt, Offered, Showed, WidowTurned


def start(
    name: str,
    hands: list[str],
    rest: str = "",
    *,
    kind: DeckKind = DeckKind.STANDARD,
    widow: str | None = None,
    players: int = 3,
    **options: object,
) -> DrawSession:
    rules = replace(preset(name), **options)  # type: ignore[arg-type]
    session = table_session(rules, players)
    session.start_deal(stacked(hands, rest, kind=kind, widow=widow))
    return session


def everyone(session: DrawSession, action: str) -> None:
    """The seats to act take ``action`` until the phase changes."""
    assert session.deal is not None
    phase, rounds = session.deal.phase, session.deal.rounds
    while (session.pending() and session.deal.phase is phase
           and session.deal.rounds == rounds):  # fmt: skip
        session.act(to_act(session), action)


# -- the bug -------------------------------------------------------------------------------


def test_bug_game_uses_53_cards_and_five_aces_beat_a_straight_flush() -> None:
    hands = ["As Ah Ad Ac jk", "9s 8s 7s 6s 5s", "Kd Qd 4c 3h 2c"]
    session = start("draw-with-bug", hands, kind=DeckKind.ONE_JOKER)
    assert session.rules.deck is DeckKind.ONE_JOKER
    play(session, (1, "bet 1"), (2, "call"), (0, "call"))
    everyone(session, "stand pat")
    everyone(session, "check")
    assert session.table.stack(1) == 98 + 6
    shown = [e for e in session.events if isinstance(e, Showed)]
    assert shown[0].description.startswith("Five of a kind")


def test_bug_is_an_ace_not_a_wild_card() -> None:
    hands = ["9s 9h 7d 7c jk", "8s 8h 8d 2c 3c", "Kd Qd 4c 3h 2h"]
    session = start("draw-with-bug", hands, kind=DeckKind.ONE_JOKER)
    play(session, (1, "bet 1"), (2, "call"), (0, "fold"))
    everyone(session, "stand pat")
    everyone(session, "check")
    shown = {e.seat: e.description for e in session.events if isinstance(e, Showed)}
    assert shown[1] == "Two pair, nines and sevens, ace kicker"
    assert session.table.stack(2) == 98 + 5  # not a full house: trip eights win


# -- deuces wild, declaring ----------------------------------------------------------------

DEUCES = ["2s 2h Kc Kd Kh", "9h 8h 7h 6h 5h", "Js Jd 4c 5c 7d"]


def _to_declarations() -> DrawSession:
    session = start("deuces-wild", DEUCES, min_players=3)  # Jacks or Better: "at least four"
    play(session, (1, "bet 1"), (2, "call"), (0, "call"))
    everyone(session, "stand pat")
    everyone(session, "check")
    assert session.deal is not None and session.deal.phase is Phase.DECLARING
    return session


def test_deuces_wild_players_declare_in_showdown_order() -> None:
    session = _to_declarations()
    decision = session.pending()[0]
    assert decision.seat == 1  # everyone checked: the opener first
    assert "declare five-of-a-kind" in decision.actions
    play(session, (1, "declare five-of-a-kind"), (2, "declare straight-flush"),
         (0, "declare pair"))  # fmt: skip
    assert session.table.stack(1) == 98 + 6


def test_declaring_more_than_the_hand_holds_kills_it_and_less_is_held_to_the_call() -> None:
    session = _to_declarations()
    play(session, (1, "declare four-of-a-kind"), (2, "declare five-of-a-kind"),
         (0, "declare pair"))  # fmt: skip
    # P2 over-declared (dead); P1 under-declared but four of a kind still beats a pair.
    assert session.table.stack(1) == 98 + 6


def test_an_under_declared_hand_loses_to_a_correct_declaration_of_a_better_category() -> None:
    session = _to_declarations()
    play(session, (1, "declare flush"), (2, "declare straight flush"), (0, "declare pair"))
    assert session.table.stack(2) == 98 + 6


def test_a_deuce_completes_jacks_to_open() -> None:
    hands = ["2s Jh 7c 5h 3s", "Ts 9h 8c 6d 4s", "Kd Qd 4c 3h 6c"]
    session = start("deuces-wild", hands, enforce_openers=True, min_players=3)
    assert "bet 1" in session.pending()[0].actions


# -- Wild Widow ---------------------------------------------------------------------------------


def test_wild_widow_is_turned_after_the_fourth_round_and_its_rank_is_wild() -> None:
    hands = ["Kc Kd 7c 5h 3s", "Ac Ad 9c 8h 4s", "Qs Jd 6c 5c 2d"]
    session = start("wild-widow", hands, widow="7d")
    widow = [e for e in session.events if isinstance(e, WidowTurned)]
    assert widow == [WidowTurned(card="7d")]
    assert hand(session, 1) == parse_cards("Kc Kd 7c 5h 3s")
    play(session, (1, "bet 1"), (2, "call"), (0, "call"))
    everyone(session, "stand pat")
    everyone(session, "check")
    shown = {e.seat: e.description for e in session.events if isinstance(e, Showed)}
    assert shown[1].startswith("Three of a kind, kings")
    assert session.table.stack(1) == 98 + 6


# -- Diablo ---------------------------------------------------------------------------------------

DIABLO = ["Kc Kd 7c 5h 3s", "Ac Ad 9c 8h 4s", "Qs Jd 6c 5c 3d"]


def test_diablo_draws_at_most_two_and_the_losing_opener_makes_a_new_pot() -> None:
    session = start("diablo", DIABLO, "6h 4d")
    play(session, (1, "bet 1"), (2, "call"), (0, "fold"))
    assert not session.can_act(1, "discard 7c 5h 3s")
    play(session, (1, "discard 5h 3s"), (2, "stand pat"))
    assert hand(session, 1) == parse_cards("Kc Kd 7c 6h 4d")
    everyone(session, "check")
    assert session.deal is not None and session.deal.won == {2: 5}
    assert session.table.pot == 5 and session.table.stack(1) == 98 - 5
    assert not session.is_over
    session.start_deal()
    assert session.table.pot == 5  # no new antes


def test_diablo_cap_limits_the_new_pot() -> None:
    session = start("diablo", DIABLO, "6h 4d", diablo_cap=2)
    play(session, (1, "bet 1"), (2, "call"), (0, "fold"))
    play(session, (1, "discard 5h 3s"), (2, "stand pat"))
    everyone(session, "check")
    assert session.table.pot == 2


def test_diablo_ends_when_the_opener_wins() -> None:
    session = start("diablo", DIABLO, "Th Td 9d 9h")
    play(session, (1, "check"), (2, "bet 1"), (0, "fold"), (1, "fold"))
    assert session.is_over and session.table.stack(2) == 99 + 3


# -- Jacks Back --------------------------------------------------------------------------------

BACK = ["As 2h 3d 4c 9s", "Kc Qd 9h 7s 6c", "Ts 8d 6h 5c 3c"]


def test_jacks_back_nobody_opens_so_the_hands_play_lowball() -> None:
    session = start("jacks-back", BACK, "5s", kind=DeckKind.ONE_JOKER)
    everyone(session, "check")
    started = [e for e in session.events if isinstance(e, BettingStarted)]
    assert started[-1] == BettingStarted(round=1, game="low", first=1)
    play(session, (1, "bet 1"), (2, "fold"), (0, "call"))
    play(session, (1, "discard 9s"), (0, "stand pat"))
    assert to_act(session) == 1  # after the draw, the first active player to dealer's left
    everyone(session, "check")
    assert session.table.stack(1) == 98 + 5 and session.is_over


def test_jacks_back_everyone_checks_again_and_the_cards_are_thrown_in() -> None:
    session = start("jacks-back", BACK, kind=DeckKind.ONE_JOKER)
    everyone(session, "check")
    everyone(session, "check")
    assert session.deal is not None and session.deal.result == "thrown-in"
    assert session.table.button == 1


def test_jacks_back_lowball_blind_and_no_check_raise() -> None:
    session = start("jacks-back", BACK, kind=DeckKind.ONE_JOKER, lowball_blind=True,
                    lowball_check_raise=False)  # fmt: skip
    everyone(session, "check")
    assert session.table.stack(1) == 98  # ante and the blind
    assert to_act(session) == 2
    play(session, (2, "call"), (0, "call"))
    assert "raise 2" in session.pending()[0].actions  # the blind may raise when called


def test_jacks_back_opened_for_high_plays_normally() -> None:
    hands = ["Js Jh 3d 4c 9s", "Kc Qd 9h 7s 6c", "Ts 8d 6h 5c 3c"]
    session = start("jacks-back", hands, kind=DeckKind.ONE_JOKER)
    play(session, (1, "bet 1"), (2, "fold"), (0, "call"))
    everyone(session, "stand pat")
    everyone(session, "check")
    assert session.table.stack(1) == 98 + 5


def test_joker_is_a_fitter_for_low() -> None:
    hands = ["As 2h 3d 4c jk", "Kc Qd 9h 7s 6c", "6s 5d 4h 3c 2c"]
    session = start("jacks-back", hands, kind=DeckKind.ONE_JOKER)
    everyone(session, "check")
    play(session, (1, "bet 1"), (2, "fold"), (0, "call"))
    everyone(session, "stand pat")
    everyone(session, "check")
    assert session.table.stack(1) == 98 + 5


# -- All for One -------------------------------------------------------------------------------

AFO = ["As Ah 7c 5h 2s", "Ks Kd 9c 8h 3s", "Qs Qd Jc 4h 6d"]


def test_all_for_one_stand_pat_one_card_or_all_five() -> None:
    session = start("all-for-one", AFO, "Tc Td Th 9s 9d 9h 8s 8c")
    play(session, (1, "bet 1"), (2, "call"), (0, "call"))
    actions = session.pending()[0].actions
    assert len(actions) == 1 + 5 + 1
    assert "discard As Ah 7c 5h 2s" in actions and "discard As Ah" not in actions


def test_all_for_one_five_only_if_enough_cards_remain_for_the_others() -> None:
    session = start("all-for-one", AFO, "Tc Td Th 9s 9d 9h")
    play(session, (1, "bet 1"), (2, "call"), (0, "call"))
    assert not session.can_act(1, "discard all")  # 6 - 5 leaves 1 for the other two


def test_all_for_one_repeats_with_the_next_player_beginning_each_drawing_round() -> None:
    session = start("all-for-one", AFO, "Tc Td Th 9s 9d 9h 8s 8c 7d 7h")
    play(session, (1, "bet 1"), (2, "call"), (0, "call"))
    play(session, (1, "discard 2s"), (2, "discard 3s"), (0, "stand pat"))
    everyone(session, "check")
    assert to_act(session) == 2  # the second drawing round begins left of P1
    play(session, (2, "discard 8h"), (0, "discard 6d"), (1, "stand pat"))
    everyone(session, "check")
    assert to_act(session) == 0


def test_all_for_one_stops_drawing_when_fewer_cards_than_players_remain() -> None:
    session = start("all-for-one", AFO, "Tc Td Th 9s")
    play(session, (1, "bet 1"), (2, "call"), (0, "call"))
    play(session, (1, "discard 2s"), (2, "discard 3s"), (0, "discard 6d"))
    everyone(session, "check")
    assert session.is_over  # one card left for three players: showdown


def test_all_for_one_a_round_of_everyone_standing_pat_ends_the_drawing() -> None:
    session = start("all-for-one", AFO, "Tc Td Th 9s 9d 9h 8s 8c")
    play(session, (1, "bet 1"), (2, "call"), (0, "call"))
    everyone(session, "stand pat")
    everyone(session, "check")
    assert session.is_over


# -- 32-card poker, Bosnian exchange -------------------------------------------------------

STRIP = ["Ah Kh Jh 9h 7h", "Ks Kd Kc 8s 8d", "Qs Qd Jc Ts 7d"]


def test_32_card_poker_uses_the_stripped_pack_and_a_flush_beats_a_full_house() -> None:
    session = start("32-card-poker", STRIP, kind=DeckKind.STRIPPED)
    play(session, (1, "bet 1"), (2, "call"), (0, "call"))
    everyone(session, "stand pat")
    everyone(session, "check")
    assert session.table.stack(1) == 98 + 6


def test_32_card_poker_takes_at_most_five_players() -> None:
    with pytest.raises(OptionError, match="5"):
        table_session("32-card-poker", 6)


def test_bosnian_four_card_exchange_take_the_face_up_card() -> None:
    session = start("bosnian-32-card-poker", STRIP, "As Ad Ac 8h 9s",
                    kind=DeckKind.STRIPPED)  # fmt: skip
    play(session, (1, "bet 1"), (2, "call"), (0, "call"))
    play(session, (1, "discard Kh Jh 9h 7h"))
    assert [e for e in session.events if isinstance(e, Offered)] == [Offered(seat=1, up="8h")]
    assert session.pending()[0].actions == ("take up", "take down")
    play(session, (1, "take up"))
    assert hand(session, 1) == parse_cards("Ah As Ad Ac 8h")
    assert "9s" not in str(session.view(1)) and "9s" not in str(session.public_view())


def test_bosnian_take_the_face_down_card() -> None:
    session = start("bosnian-32-card-poker", STRIP, "As Ad Ac 8h 9s", kind=DeckKind.STRIPPED)
    play(session, (1, "bet 1"), (2, "call"), (0, "call"))
    play(session, (1, "discard Kh Jh 9h 7h"), (1, "take down"))
    assert hand(session, 1) == parse_cards("Ah As Ad Ac 9s")
    dealt = [e for e in session.events if isinstance(e, Dealt) and e.cards == ("9s",)]
    assert dealt and dealt[0].audience == (1,)


# -- Seven Card Draw -----------------------------------------------------------------------

SEVEN = ["As Ah Ad 7c 5h 2s 3d", "Ks Kd 9c 8h 3s 4d 6c", "Qs Qd Jc 4h 6d 8s 9d"]


def test_seven_card_draw_blinds_seven_cards_and_draw_up_to_four() -> None:
    session = start("seven-card-draw", SEVEN, "7d 7h 8c 8d")
    assert session.table.stack(1) == 99 and session.table.stack(2) == 98
    assert len(hand(session, 1)) == 7
    assert to_act(session) == 0  # left of the big blind
    play(session, (0, "raise 6"), (1, "call"), (2, "call"))
    assert to_act(session) == 0  # draws begin left of the big blind
    assert session.can_act(0, "discard Jc 4h 6d 8s")
    assert not session.can_act(0, "discard Jc 4h 6d 8s 9d")
    play(session, (0, "discard Jc 4h 6d 8s"), (1, "stand pat"), (2, "stand pat"))
    decision = session.pending()[0]
    assert decision.seat == 1  # the second round begins at dealer's left
    assert "bet 12" in decision.actions and "bet 11" not in str(decision.actions)
    assert not session.can_act(1, "bet 11") and session.can_act(1, "bet 13")
    everyone(session, "check")
    assert session.table.stack(1) == 94 + 18  # trip aces, best five of seven
    assert of_kind(session, "draw-showed")


def test_seven_card_draw_reshuffles_the_cards_already_discarded() -> None:
    ranks = "23456789TJQKA"
    deck = [r + s for s in "cdhs" for r in ranks]
    hands = [" ".join(deck[7 * k : 7 * k + 7]) for k in range(7)]
    session = table_session(preset("seven-card-draw", {"max-players": "7"}), 7)
    session.start_deal(stacked(hands, " ".join(deck[49:])))
    while session.deal is not None and session.deal.phase is Phase.BETTING:
        seat = to_act(session)
        session.act(seat, "check" if session.can_act(seat, "check") else "call")
    first = to_act(session)
    thrown = hand(session, first)[:4]
    play(session, (first, "discard " + " ".join(c.ascii for c in thrown)))
    reshuffled = of_kind(session, "draw-reshuffled")
    assert reshuffled and reshuffled[0].count == 4  # type: ignore[attr-defined]
    assert len(hand(session, first)) == 7


def test_without_reshuffling_own_discards_the_first_drawer_is_limited_by_the_stock() -> None:
    ranks = "23456789TJQKA"
    deck = [r + s for s in "cdhs" for r in ranks]
    hands = [" ".join(deck[7 * k : 7 * k + 7]) for k in range(7)]
    rules = replace(preset("seven-card-draw"), reshuffle_own=False, max_players=7)
    session = table_session(rules, 7)
    session.start_deal(stacked(hands, " ".join(deck[49:])))
    while session.deal is not None and session.deal.phase is Phase.BETTING:
        seat = to_act(session)
        session.act(seat, "check" if session.can_act(seat, "check") else "call")
    first = to_act(session)
    assert max(len(a.split()) - 1 for a in session.pending()[0].actions) == 3
    assert first is not None
