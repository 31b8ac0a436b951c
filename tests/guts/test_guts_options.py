"""Every Guts option: a stacked-deck test that fails if the custom is broken.

Sections of the Guts rule text held here, by test name:
- the variations of two-card Guts: declaring all at once, with everyone out and the wimp
  rule (``test_simultaneous_*``, ``test_wimp_rule_*``); one loser pays and everyone antes
  each deal (``test_single_loser_*``); the kitty or ghost hand (``test_ghost_*``,
  ``test_a_tie_with_the_ghost``);
- three-card Guts: its hand order and the pass to the left (``test_three_card_*``,
  ``test_ace_low_straights_in_three_card_guts``, ``test_pass_one_card_left_*``);
- the games with a second deal: Two Plus One (``test_two_plus_one_*``), Four-Two-Two and
  Four-Two-Three (``test_four_two_*``) and their numbered variants
  (``test_dropouts_pay_a_new_ante``, ``test_nobody_plays_best_non_player_*``,
  ``test_lone_player_against_the_decks_top_four``);
- the encyclopedia's basic rules (two-three above aces: ``test_two_card_royal_crumpler_*``)
  and its taming of fast-growing pots (``test_worst_hand_doubles_the_pot``,
  ``test_nobody_wins_unless_nobody_else_stays_in``, ``test_pot_cap_*``);
- its common variants, one test or more each: straights and flushes with two cards,
  partial hands, a dummy hand or a pair to beat (``test_lone_player_needs_*``,
  ``test_lone_qualifier_*``), the Batey, the dealer's option, the chicken fee, the Henry
  rule, one or two low cards in and wild, Hi-Lo (``test_hi_lo_*``), No Peek, Winner Takes
  All.
The remaining tests hold customs the text leaves open (the odd chip, a matcher's ante,
the last player's forced in, wild cards, a deal limit) and how options are named, checked
and described.
"""

from __future__ import annotations

import json

import pytest
from guts_helpers import deal_events, declare_all, declared, outcome, session, shown, start

from guts.errors import OptionError
from guts.games.guts import PRESETS, GutsRules, preset
from guts.games.guts.events import Chose, CommunityDealt, Declared

R = GutsRules


# -- declaration ---------------------------------------------------------------------------


def test_simultaneous_declaration_hides_each_choice_until_all_have_chosen() -> None:
    s = session(R(declare=R().declare.SIMULTANEOUS), 3)
    start(s, ["As Ad", "Ks Kd", "3s 2d"])
    assert sorted(d.seat for d in s.pending()) == [0, 1, 2]
    assert all(d.simultaneous for d in s.pending())
    s.act(1, "in")
    for seat in (0, 2):
        text = json.dumps(s.view(seat))
        assert '"action": "in"' not in text and '"1": "in"' not in text
    assert '"action": "in"' not in json.dumps(s.public_view())
    assert [e.seat for e in deal_events(s, Chose)] == [1]
    assert sorted(d.seat for d in s.pending()) == [0, 2]
    s.act(0, "in")
    assert deal_events(s, Declared) == []
    s.act(2, "out")
    assert [(e.seat, e.choice) for e in deal_events(s, Declared)] == [
        (0, "in"),
        (1, "in"),
        (2, "out"),
    ]
    assert "A takes the pot" in outcome(s)


def test_simultaneous_everyone_out_the_pot_stays() -> None:
    s = session(R(declare=R().declare.SIMULTANEOUS), 3)
    start(s, ["As Ad", "Ks Kd", "3s 2d"])
    declare_all(s, ["out", "out", "out"])
    assert s.table.pot == 3 and not s.is_over and shown(s) == []
    assert all(s.table.stack(i) == 99 for i in range(3))


def test_dealer_option_gives_the_others_a_second_chance() -> None:
    s = session(R(dealer_option=True), 3)
    start(s, ["Ks Kd", "7s 2d", "As Ad"])
    play = [(0, "out"), (1, "out")]
    for seat, action in play:
        s.act(seat, action)
    assert declared(s)[-1] == (2, "in", True)
    assert [d.seat for d in s.pending()] == [0]  # second chance, from the dealer's left
    s.act(0, "in")
    s.act(1, "out")
    assert shown(s) == [0, 2] and "C takes the pot" in outcome(s)
    assert s.table.stack(0) == 99 - 3


def test_dealer_option_nobody_challenges() -> None:
    s = session(R(dealer_option=True), 3)
    start(s, ["Ks Kd", "7s 2d", "As Ad"])
    declare_all(s, ["out", "out", "in"])
    declare_all(s, ["out", "out", "in"])
    assert s.table.stack(2) == 102 and shown(s) == []


# -- everyone out --------------------------------------------------------------------------

SIM = R().declare.SIMULTANEOUS


def test_chicken_fee_everyone_antes_again() -> None:
    s = session(R(declare=SIM, everyone_out=R().everyone_out.CHICKEN_FEE), 3)
    start(s, ["As Ad", "Ks Kd", "3s 2d"])
    declare_all(s, ["out", "out", "out"])
    assert s.table.pot == 6 and all(s.table.stack(i) == 98 for i in range(3))


def test_wimp_rule_best_hand_antes_for_everyone() -> None:
    s = session(R(declare=SIM, everyone_out=R().everyone_out.WIMP), 3)
    start(s, ["Ks Kd", "As Ad", "3s 2d"])
    declare_all(s, ["out", "out", "out"])
    assert shown(s) == [0, 1, 2]
    assert s.table.stack(1) == 99 - 3 and s.table.pot == 6


def test_henry_rule_would_be_winner_matches_the_pot() -> None:
    s = session(R(declare=SIM, everyone_out=R().everyone_out.HENRY), 3)
    start(s, ["Ks Kd", "As Ad", "3s 2d"])
    declare_all(s, ["out", "out", "out"])
    assert s.table.stack(1) == 99 - 3 and s.table.pot == 6 and s.table.stack(0) == 99


# -- payment -------------------------------------------------------------------------------


def test_single_loser_only_the_worst_hand_matches_and_ties_for_worst_all_pay() -> None:
    s = session(preset("single-loser-guts"), 4)
    start(s, ["As Ad", "Ks Kd", "7s 2d", "7h 2c"])
    declare_all(s, ["in", "in", "in", "in"])
    assert s.table.stack(1) == 99  # second best pays nothing
    assert s.table.stack(2) == 99 - 4 and s.table.stack(3) == 99 - 4
    assert s.table.pot == 8


def test_single_loser_ante_every_deal_except_who_matched() -> None:
    s = session(preset("single-loser-guts"), 3)
    start(s, ["As Ad", "Ks Kd", "7s 2d"])
    declare_all(s, ["in", "in", "out"])  # B matches 3
    assert s.table.pot == 3
    start(s, ["As Ad", "Ks Kd", "7s 2d"])
    assert s.table.pot == 5  # A and C ante; B is excused
    assert s.table.stack(1) == 99 - 3


def test_worst_hand_doubles_the_pot() -> None:
    s = session(R(payment=R().payment.WORST_DOUBLES), 4)
    start(s, ["As Ad", "Ks Kd", "7s 2d", "8s 3d"])
    declare_all(s, ["in", "in", "in", "out"])
    assert s.table.stack(2) == 99 - 8 and s.table.stack(1) == 99 and s.table.pot == 8


def test_winner_takes_all_takes_the_losers_matches_too() -> None:
    s = session(R(winner_takes_all=True), 3)
    start(s, ["As Ad", "Ks Kd", "7s 2d"])
    declare_all(s, ["in", "in", "in"])
    assert s.table.stack(0) == 99 + 3 + 6 and s.table.pot == 0 and s.is_over


def test_nobody_wins_unless_nobody_else_stays_in() -> None:
    s = session(R(nobody_wins_contested=True), 3)
    start(s, ["As Ad", "Ks Kd", "7s 2d"])
    declare_all(s, ["in", "in", "out"])
    assert s.table.stack(0) == 99 and s.table.stack(1) == 99 - 3 and s.table.pot == 6
    start(s, ["As Ad", "Ks Kd", "7s 2d"])
    declare_all(s, ["out", "in", "out"])
    assert s.table.stack(1) == 96 + 6 and s.is_over


# -- ghost, kitty, dummy -------------------------------------------------------------------


def test_ghost_always_plays_and_if_it_wins_all_who_were_in_match() -> None:
    s = session(R(ghost=R().ghost.ALWAYS), 3)
    start(s, ["Ks Kd", "Qs Qd", "7s 2d"], then="As Ad")  # the ghost's hand
    declare_all(s, ["in", "in", "out"])
    assert shown(s) == [0, 1, -1] and "ghost wins" in outcome(s)
    assert s.table.stack(0) == 99 - 3 and s.table.stack(1) == 99 - 3 and s.table.pot == 9


def test_ghost_always_must_be_beaten_by_a_lone_player_too() -> None:
    s = session(R(ghost=R().ghost.ALWAYS), 3)
    start(s, ["As Ad", "Qs Qd", "7s 2d"], then="Ks Kd")
    declare_all(s, ["in", "out", "out"])
    assert shown(s) == [0, -1] and s.table.stack(0) == 102 and s.is_over


def test_ghost_guts_everyone_out_all_ante() -> None:
    s = session(preset("ghost-guts"), 3)
    start(s, ["As Ad", "Qs Qd", "7s 2d"], then="Ks Kd")
    declare_all(s, ["out", "out", "out"])
    assert s.table.pot == 6 and not s.is_over


def test_ghost_lone_plays_only_when_exactly_one_stays_in() -> None:
    s = session(R(ghost=R().ghost.LONE), 3)
    start(s, ["Qs Qd", "Js Jd", "7s 2d"], then="As Ad")
    declare_all(s, ["in", "in", "out"])
    assert shown(s) == [0, 1] and "A takes the pot" in outcome(s)
    start(s, ["Qs Qd", "Js Jd", "7s 2d"], then="As Ad")
    declare_all(s, ["out", "in", "out"])
    assert shown(s) == [1, -1] and "ghost wins" in outcome(s)


@pytest.mark.parametrize(
    ("ties", "stack", "pot"),
    [("ghost-wins", 99 - 3, 6), ("players-win", 102, 0), ("push", 99, 3)],
)
def test_a_tie_with_the_ghost(ties: str, stack: int, pot: int) -> None:
    s = session(R.from_options(R(ghost=R().ghost.ALWAYS), {"ghost-ties": ties}), 3)
    start(s, ["As Kd", "Qs Qd", "7s 2d"], then="Ah Kc")
    declare_all(s, ["in", "out", "out"])
    assert s.table.stack(0) == stack and s.table.pot == pot


def test_lone_player_needs_a_pair_or_better() -> None:
    s = session(R(lone_qualifier=R().lone_qualifier.PAIR), 3)
    start(s, ["As Kd", "Qs Qd", "7s 2d"])
    declare_all(s, ["in", "out", "out"])
    assert shown(s) == [0] and s.table.stack(0) == 99 - 3 and s.table.pot == 6
    start(s, ["As Kd", "Qs Qd", "7s 2d"])
    declare_all(s, ["out", "in", "out"])
    assert s.table.stack(1) == 99 + 6 and s.is_over


# -- hands and rankings --------------------------------------------------------------------


def test_three_card_guts_trips_beat_a_straight_flush_by_default() -> None:
    s = session(preset("three-card-guts"), 3)
    start(s, ["2s 2d 2h", "Qh Jh Th", "7s 4d 2c"])
    declare_all(s, ["in", "in", "out"])
    assert "A takes the pot" in outcome(s)


def test_three_card_order_option_puts_the_straight_flush_first() -> None:
    rules = preset(
        "three-card-guts", {"order": "straight-flush,trips,straight,flush,pair,high-card"}
    )
    s = session(rules, 3)
    start(s, ["2s 2d 2h", "Qh Jh Th", "7s 4d 2c"])
    declare_all(s, ["in", "in", "out"])
    assert "B takes the pot" in outcome(s)


def test_three_card_without_straights_and_flushes() -> None:
    s = session(preset("three-card-guts", {"straights": "no", "flushes": "no"}), 3)
    start(s, ["2s 2d 9h", "Qh Jh Th", "7s 4d 3c"])
    declare_all(s, ["in", "in", "out"])
    assert "A takes the pot" in outcome(s)


def test_two_card_royal_crumpler_beats_aces() -> None:
    s = session(R(crumpler=True), 3)
    start(s, ["As Ad", "3s 2d", "7s 4c"])
    declare_all(s, ["in", "in", "out"])
    assert "B takes the pot" in outcome(s)


def test_two_card_straights_and_flushes_beat_other_non_pairs() -> None:
    s = session(R(straights=True, flushes=True), 3)
    start(s, ["As Jd", "9h 8c", "7s 4s"])
    declare_all(s, ["in", "in", "in"])
    assert "B takes the pot" in outcome(s)


def test_pass_one_card_left_chosen_before_seeing_what_arrives() -> None:
    s = session(R(pass_left=True, cards=3), 3)
    start(s, ["As Ad Kc", "Ks Kd 3c", "7s 4d 2c"])
    assert all(d.simultaneous for d in s.pending())
    assert s.pending()[0].actions == ("As", "Ad", "Kc")
    s.act(0, "Kc")
    assert "Kc" not in json.dumps(s.view(1))  # not arrived yet
    s.act(1, "3c")
    s.act(2, "2c")
    assert sorted(s.view(1)["hand"]) == sorted(["Ks", "Kd", "Kc"])
    assert sorted(s.view(0)["hand"]) == sorted(["As", "Ad", "2c"])
    assert "Kc" not in json.dumps(s.view(2))
    declare_all(s, ["in", "in", "out"])
    assert "B takes the pot" in outcome(s)  # K-K-K


def test_no_peek_declare_before_looking() -> None:
    s = session(preset("no-peek-guts"), 3)
    start(s, ["As Ad", "Ks Kd", "7s 2d"])
    assert s.view(0)["hand"] is None and "As" not in json.dumps(s.view(0))
    declare_all(s, ["in", "in", "out"])
    assert s.view(2)["hand"] == ["7s", "2d"]
    assert "A takes the pot" in outcome(s)


def test_partial_hands_last_card_face_up_only_to_those_in() -> None:
    s = session(preset("partial-hands-guts"), 3)
    start(s, ["As Ad", "Ks Kd", "7s 2d"], then="Ah Kh")  # A's then B's face-up card
    assert s.view(0)["hand"] == ["As", "Ad"] and s.view(0)["face_up"]["0"] == []
    declare_all(s, ["in", "in", "out"])
    face_up = s.public_view()["face_up"]
    assert face_up["0"] == ["Ah"] and face_up["1"] == ["Kh"] and face_up["2"] == []
    assert "A takes the pot" in outcome(s)


def test_the_batey_one_community_card_used_by_every_hand() -> None:
    s = session(preset("batey-guts"), 3)
    start(s, ["As Kd", "9s 9d", "7s 2d"], then="Ah")
    assert [e.cards for e in deal_events(s, CommunityDealt)] == [("Ah",)]
    declare_all(s, ["in", "in", "out"])
    assert "A takes the pot" in outcome(s)  # A-A-K beats 9-9-A


def test_one_low_in_and_wild() -> None:
    s = session(preset("one-low-in-wild"), 3)
    start(s, ["As Kd", "9s 9d", "7s 8d"], then="5h Qc 4c")  # face-up cards
    assert declared(s) == [(2, "in", True)]  # the 4 is lowest
    assert [d.seat for d in s.pending()] == [0]
    declare_all(s, ["in", "in", "in"])
    assert "C takes the pot" in outcome(s)  # 7-8 + wild 4: straight


def test_two_low_in_and_wild_with_ties_more_are_in() -> None:
    s = session(preset("two-low-in-wild"), 4)
    start(s, ["As Kd", "9s 9d", "7s 8d", "Js Jd"], then="5h 3c 3h Kc")
    assert sorted(seat for seat, _, _ in declared(s)) == [0, 1, 2]
    assert [d.seat for d in s.pending()] == [3]


# -- second deals --------------------------------------------------------------------------


def test_two_plus_one_third_card_only_to_those_in() -> None:
    s = session(preset("two-plus-one"), 3)
    start(s, ["As Kd", "9s 9d", "7s 2d"], then="Qh 9h")
    declare_all(s, ["in", "in", "out"])
    assert s.deal is not None and len(s.deal.hand(2)) == 2
    assert s.deal.hand(0)[-1].ascii == "Qh" and s.deal.hand(1)[-1].ascii == "9h"
    assert "B takes the pot" in outcome(s)  # trip nines beat A-K-Q straight


def test_two_plus_one_lone_player_takes_the_pot_without_a_third_card() -> None:
    s = session(preset("two-plus-one"), 3)
    start(s, ["As Kd", "9s 9d", "7s 2d"])
    declare_all(s, ["in", "out", "out"])
    assert s.table.stack(0) == 102 and s.deal is not None and len(s.deal.hand(0)) == 2


def test_two_plus_one_extra_ante_and_second_declaration() -> None:
    s = session(preset("two-plus-one-extra-ante"), 3)
    start(s, ["As Kd", "9s 9d", "7s 2d"], then="Qh 2h")
    for seat, action in [(0, "in"), (1, "in"), (2, "out")]:
        s.act(seat, action)
    assert s.table.pot == 5 and s.table.stack(0) == 98  # ante + extra ante
    assert [d.seat for d in s.pending()] == [0]
    s.act(0, "in")
    s.act(1, "out")  # B loses the extra ante but does not risk the pot
    assert s.table.stack(0) == 98 + 5 and s.table.stack(1) == 98 and s.is_over


def test_four_two_two() -> None:
    s = session(preset("four-two-two"), 3)
    start(s, ["As Ad 2c 5h", "Ks Kd Kh 4c", "7s 8d 9c 3h"], then="Jc Jd Qc Qd")
    assert all(d.simultaneous for d in s.pending())
    declare_all(s, ["in", "in", "out"])
    face_up = s.public_view()["face_up"]
    assert face_up["0"] == ["Jc", "Qc"] and face_up["1"] == ["Jd", "Qd"]
    # A: A-A with a wild deuce = three aces; B: three kings.
    assert "A takes the pot" in outcome(s)


def test_four_two_two_maximum_loss_per_deal() -> None:
    s = session(preset("four-two-two", {"ante": "10", "max-loss": "12"}), 3)
    start(s, ["As Ad 2c 5h", "Ks Kd Kh 4c", "7s 8d 9c 3h"], then="Jc Jd Qc Qd")
    declare_all(s, ["in", "in", "out"])
    assert s.table.stack(1) == 90 - 12 and s.table.pot == 12


def test_four_two_two_ends_when_one_stays_in_alone() -> None:
    s = session(preset("four-two-two"), 3)
    start(s, ["As Ad 2c 5h", "Ks Kd Kh 4c", "7s 8d 9c 3h"])
    declare_all(s, ["out", "in", "out"])
    assert s.is_over and s.table.stack(1) == 102


def test_four_two_three_three_community_cards_best_five_of_seven() -> None:
    s = session(preset("four-two-three"), 3)
    start(s, ["As Ad 5c 6h", "Ks Kd 4h 4c", "7s 8d 9c 3h"], then="Kh 7c 8c")
    declare_all(s, ["in", "in", "out"])
    assert [e.cards for e in deal_events(s, CommunityDealt)] == [("Kh", "7c", "8c")]
    assert "B takes the pot" in outcome(s)  # full house


def test_dropouts_pay_a_new_ante() -> None:
    s = session(preset("four-two-two", {"dropouts-ante": "yes"}), 3)
    start(s, ["As Ad 2c 5h", "Ks Kd Kh 4c", "7s 8d 9c 3h"], then="Jc Jd Qc Qd")
    declare_all(s, ["in", "in", "out"])
    assert s.table.stack(2) == 98 and s.table.pot == 4


def test_nobody_plays_best_non_player_and_every_holder_of_a_two_match() -> None:
    s = session(preset("four-two-two", {"everyone-out": "best-and-wilds-match"}), 3)
    start(s, ["As Ad Ah 5h", "Ks Kd 2h 4c", "7s 8d 9c 3h"])
    declare_all(s, ["out", "out", "out"])
    assert s.table.stack(0) == 99 - 3 and s.table.stack(1) == 99 - 3
    assert s.table.stack(2) == 99 and s.table.pot == 9


def test_lone_player_against_the_decks_top_four() -> None:
    rules = preset("four-two-two", {"ghost": "deck"})
    s = session(rules, 3)
    start(s, ["As Ad Ah 5h", "Ks Kd 3h 4c", "7s 8d 9c 3c"], then="Qs Qd Jc 6d")
    declare_all(s, ["in", "out", "out"])
    assert shown(s) == [0, -2] and s.is_over and s.table.stack(0) == 102
    s = session(rules, 3)
    start(s, ["As Kd Qh 5h", "Ks Kh 3h 4c", "7s 8d 9c 3c"], then="Qs Qd Jc 6d")
    declare_all(s, ["in", "out", "out"])
    assert s.table.stack(0) == 99 - 3 and s.table.pot == 6 and not s.is_over


# -- Hi-Lo -----------------------------------------------------------------------------------


def test_hi_lo_halves_to_the_best_each_way_others_match() -> None:
    s = session(preset("hi-lo-guts"), 4)
    start(s, ["As Ad", "Ks Kd", "3s 2d", "4s 2c"])
    assert s.pending()[0].actions == ("high", "low", "both", "out")
    declare_all(s, ["high", "high", "low", "low"])
    assert s.table.stack(0) == 99 + 2 and s.table.stack(2) == 99 + 2
    assert s.table.stack(1) == 99 - 4 and s.table.stack(3) == 99 - 4


def test_hi_lo_a_lone_high_takes_half_even_with_low_players_in() -> None:
    s = session(preset("hi-lo-guts"), 3)
    start(s, ["As Ad", "3s 2d", "4s 2c"])
    declare_all(s, ["high", "low", "low"])
    assert s.table.stack(0) == 99 + 2 and s.table.stack(1) == 99 + 1


def test_hi_lo_both_ways_must_win_both() -> None:
    s = session(preset("hi-lo-guts"), 3)
    start(s, ["As Ad", "3s 2d", "Ks Kd"])
    declare_all(s, ["both", "low", "out"])
    assert s.table.stack(0) == 99 - 3 and s.table.stack(1) == 99 + 3


def test_hi_lo_dummy_per_direction() -> None:
    s = session(preset("hi-lo-guts", {"ghost": "always"}), 3)
    start(s, ["Ks Kd", "3s 2d", "9s 8d"], then="As Ad")
    declare_all(s, ["high", "low", "out"])
    assert s.table.stack(0) == 99 - 3  # the ghost's aces win high
    assert s.table.stack(1) == 99 + 1  # 3-2 beats the ghost low
    assert s.table.pot == 2 + 3


# -- pot cap ----------------------------------------------------------------------------------


def test_pot_cap_sets_the_excess_aside_as_the_next_ante() -> None:
    s = session(R(pot_cap=5), 4)
    start(s, ["As Ad", "Ks Kd", "Qs Qd", "Js Jd"])
    declare_all(s, ["in", "in", "in", "in"])
    assert s.table.pot == 5 and s.public_view()["aside"] == 7
    start(s, ["As Ad", "Ks Kd", "Qs Qd", "Js Jd"])
    declare_all(s, ["in", "out", "out", "out"])
    assert s.table.pot == 5 and s.public_view()["aside"] == 2 and not s.is_over


# -- options as data --------------------------------------------------------------------------


def test_unknown_option_names_the_allowed_options() -> None:
    with pytest.raises(OptionError, match=r"unknown Guts option 'gost'.*ghost"):
        R.from_options(None, {"gost": "always"})


def test_bad_value_names_the_allowed_values() -> None:
    with pytest.raises(OptionError, match="payment: unknown value 'all'; allowed: match"):
        R.from_options(None, {"payment": "all"})
    with pytest.raises(OptionError, match="no-peek: expected yes or no"):
        R.from_options(None, {"no-peek": "maybe"})


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"declare": "simultaneous", "dealer-option": "yes"}, "dealer-option"),
        ({"pot-limit": "100", "pot-cap": "50"}, "pot-limit and pot-cap"),
        ({"ghost": "always", "lone-qualifier": "pair"}, "lone-qualifier"),
        ({"cards": "3", "crumpler": "yes"}, "crumpler"),
        ({"second-declare": "yes"}, "second-declare"),
        ({"hi-lo": "yes", "payment": "single-loser"}, "hi-lo"),
        ({"cards": "5"}, "cards"),
        ({"pass-left": "yes", "no-peek": "yes"}, "pass-left"),
    ],
)
def test_contradictory_options_fail_at_construction(options: dict[str, str], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        R.from_options(None, options)


def test_describe_lists_every_option_and_the_defaults_chosen() -> None:
    text = preset("ghost-guts").describe()
    for name in R.option_names():
        assert f"  {name} = " in text
    assert "ghost = always" in text and "Defaults chosen" in text


def test_options_round_trip_through_strings() -> None:
    for rules, _ in PRESETS.values():
        assert R.from_options(None, rules.to_options()) == rules
        assert R.from_options(None, rules.options()) == rules


def test_required_presets_exist_with_descriptions() -> None:
    required = {
        "two-card-guts",
        "three-card-guts",
        "simultaneous-guts",
        "ghost-guts",
        "single-loser-guts",
        "two-plus-one",
        "four-two-two",
        "four-two-three",
        "hi-lo-guts",
        "no-peek-guts",
        "winner-takes-all-guts",
    }
    assert required <= set(PRESETS)
    assert all(isinstance(r, R) and text for r, text in PRESETS.values())
    with pytest.raises(OptionError, match="presets: two-card-guts"):
        preset("three-card-gutz")


def test_lone_qualifier_uses_the_full_hand_after_a_second_deal() -> None:
    s = session(preset("two-plus-one", {"lone-qualifier": "pair"}), 3)
    start(s, ["As Kd", "9s 8d", "7s 2d"], then="Ah")
    declare_all(s, ["in", "out", "out"])
    assert s.deal is not None and len(s.deal.hand(0)) == 3
    assert s.table.stack(0) == 102


def test_matcher_skips_ante_can_be_turned_off() -> None:
    s = session(preset("single-loser-guts", {"matcher-skips-ante": "no"}), 3)
    start(s, ["As Ad", "Ks Kd", "7s 2d"])
    declare_all(s, ["in", "in", "out"])
    start(s, ["As Ad", "Ks Kd", "7s 2d"])
    assert s.table.pot == 6  # everyone antes, B too


def test_without_last_in_when_all_out_the_dealer_may_drop_too() -> None:
    s = session(R(last_in_when_all_out=False), 3)
    start(s, ["As Ad", "Ks Kd", "7s 2d"])
    declare_all(s, ["out", "out", "out"])
    assert declared(s)[-1] == (2, "out", False) and s.table.pot == 3 and not s.is_over


def test_hi_lo_without_both_ways() -> None:
    s = session(preset("hi-lo-guts", {"hi-lo-both": "no"}), 3)
    start(s, ["As Ad", "Ks Kd", "7s 2d"])
    assert s.pending()[0].actions == ("high", "low", "out")


def test_ace_low_straights_in_three_card_guts() -> None:
    s = session(preset("three-card-guts", {"ace-low": "no"}), 3)
    start(s, ["As 2d 3h", "Ks Qd 9h", "7s 4d 2c"])
    declare_all(s, ["in", "in", "out"])
    assert "A takes the pot" in outcome(s)  # ace high beats king high
    s = session(preset("three-card-guts"), 3)
    start(s, ["As 2d 3h", "Ks Kd 9h", "7s 4d 2c"])
    declare_all(s, ["in", "in", "out"])
    assert "A takes the pot" in outcome(s)  # A-2-3 straight beats a pair


def test_ranking_high_plays_five_card_categories_with_fewer_cards() -> None:
    rules = R.from_options(None, {"cards": "3", "ranking": "high"})
    s = session(rules, 3)
    start(s, ["Qh Jh Th", "2s 2d 5h", "7s 4d 3c"])
    declare_all(s, ["in", "in", "out"])
    assert "B takes the pot" in outcome(s)  # no three-card straights in poker ranking


def test_max_deals_ends_the_session() -> None:
    s = session(R(declare=SIM, max_deals=2), 3)
    for _ in range(2):
        start(s, ["As Ad", "Ks Kd", "7s 2d"])
        declare_all(s, ["out", "out", "out"])
    assert s.is_over and "deal limit" in s.over_reason and s.table.pot == 3


@pytest.mark.parametrize(("rule", "pot"), [("nearest-left", 0), ("leave-in-pot", 1)])
def test_odd_chips_rule_for_split_pots(rule: str, pot: int) -> None:
    s = session(R.from_options(None, {"odd-chips": rule, "continue-after-empty": "yes"}), 3)
    start(s, ["As Kd", "Ah Kc", "7s 2d"])
    declare_all(s, ["in", "in", "out"])
    assert s.table.pot == pot
    assert s.table.stack(0) == 99 + 1 + (1 - pot)  # A, nearest the dealer's left, gets it
    assert s.table.stack(1) == 99 + 1


def test_wild_cards_in_two_card_guts() -> None:
    s = session(R(wild="2"), 3)
    start(s, ["As 2d", "Ks Kd", "7s 4d"])
    declare_all(s, ["in", "in", "out"])
    assert "A takes the pot" in outcome(s)  # the deuce makes a pair of aces
    with pytest.raises(OptionError, match="wild: 'x' is not a wild rank"):
        R(wild="x")


def test_option_help_names_the_allowed_values() -> None:
    help_ = R.option_help()
    assert help_["ghost"][0] == "never|always|lone|deck"
    assert help_["straights"][0] == "yes|no|auto" and help_["pot-limit"][0] == "a number|none"
    assert set(help_) == set(R.option_names())
