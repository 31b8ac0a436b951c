"""Tests for guts.betting: structures, betting rounds, forced bets, side pots, awards."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from guts.betting import (
    BETS,
    Action,
    Bet,
    BettingRound,
    Blinds,
    Call,
    Check,
    Fold,
    Legal,
    Limit,
    Pot,
    Raise,
    Stakes,
    Structure,
    action_from_dict,
    award_pots,
    clockwise_from,
    post_antes,
    side_pots,
)
from guts.errors import IllegalAction, OptionError
from guts.table import POT, OddChipRule, Reason, Table

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo"]


def table_of(*stacks: int, button: int = 0, **kwargs: Any) -> Table:
    """A table with these stacks; seat 0 deals unless ``button`` says otherwise."""
    return Table(list(zip(NAMES, stacks, strict=False)), button=button, **kwargs)


def betting(table: Table, structure: Structure, **kwargs: Any) -> BettingRound:
    """A round among every seat, starting left of the button."""
    return BettingRound(table, table.turn_order(), structure, **kwargs)


def play(round_: BettingRound, *script: tuple[int, Action]) -> None:
    """Apply the script, checking the table's invariant after every action."""
    for seat, action in script:
        round_.act(seat, action)
        round_.table.check_invariant()


def legal(round_: BettingRound) -> Legal:
    pending = round_.pending()
    assert pending is not None
    return pending


FIXED = Structure.fixed(10)


# -- fixed limit: the cap, heads-up, second-round doubling -----------------------------------


def test_fixed_limit_allows_a_bet_and_four_raises_then_only_calls() -> None:
    table = table_of(*[1000] * 5)
    round_ = betting(table, FIXED)
    play(round_, (1, Bet(10)), (2, Raise(20)), (3, Raise(30)), (4, Raise(40)), (0, Raise(50)))
    choice = legal(round_)
    assert (choice.seat, choice.can_raise, choice.call_amount) == (1, False, 40)
    with pytest.raises(IllegalAction, match="capped at a bet and 4 raises"):
        round_.act(1, Raise(60))
    assert round_.raises == 5


def test_raise_cap_is_an_option() -> None:
    table = table_of(*[1000] * 3)
    round_ = betting(table, Structure.fixed(10, raise_cap=1))
    play(round_, (1, Bet(10)), (2, Raise(20)))
    assert not legal(round_).can_raise


def test_heads_up_the_cap_applies_by_default() -> None:
    round_ = betting(table_of(1000, 1000), FIXED)
    play(round_, (1, Bet(10)), (0, Raise(20)), (1, Raise(30)), (0, Raise(40)), (1, Raise(50)))
    assert not legal(round_).can_raise


def test_heads_up_uncapped_option_lets_two_players_raise_on() -> None:
    table = table_of(1000, 1000, 1000)
    round_ = betting(table, Structure.fixed(10, cap_heads_up=False))
    play(round_, (1, Bet(10)), (2, Raise(20)), (0, Fold()))  # now heads-up
    for k in range(3, 10):
        seat = legal(round_).seat
        round_.act(seat, Raise(10 * k))
    assert round_.raises == 9 and legal(round_).can_raise


def test_with_three_players_the_uncapped_option_still_caps() -> None:
    round_ = betting(table_of(1000, 1000, 1000), Structure.fixed(10, cap_heads_up=False))
    play(round_, (1, Bet(10)), (2, Raise(20)), (0, Raise(30)), (1, Raise(40)), (2, Raise(50)))
    assert not legal(round_).can_raise


def test_fixed_limit_bets_and_raises_are_exactly_one_bet() -> None:
    round_ = betting(table_of(1000, 1000, 1000), FIXED)
    assert (legal(round_).min_bet, legal(round_).max_bet) == (10, 10)
    with pytest.raises(IllegalAction, match="the smallest bet 10"):
        round_.act(1, Bet(5))
    with pytest.raises(IllegalAction, match="the largest bet 10"):
        round_.act(1, Bet(20))
    round_.act(1, Bet(10))
    assert (legal(round_).min_raise_to, legal(round_).max_raise_to) == (20, 20)


def test_second_round_bets_double_by_default() -> None:
    assert FIXED.stakes(1) == Stakes(20, 20)
    round_ = betting(table_of(1000, 1000, 1000), FIXED, round_index=1)
    assert legal(round_).min_bet == 20
    round_.act(1, Bet(20))
    assert legal(round_).min_raise_to == 40
    assert Structure.fixed(10, 10).stakes(1) == Stakes(10, 10)
    assert Structure.fixed(10, 30).stakes(2) == Stakes(30, 30)


# -- spread, pot and no limit -------------------------------------------------------------------


def test_spread_limit_bets_anywhere_in_the_spread_and_raises_at_least_the_last_raise() -> None:
    round_ = betting(table_of(1000, 1000, 1000, 1000), Structure.spread(5, 25))
    assert (legal(round_).min_bet, legal(round_).max_bet) == (5, 25)
    round_.act(1, Bet(10))
    assert (legal(round_).min_raise_to, legal(round_).max_raise_to) == (20, 35)
    round_.act(2, Raise(35))  # a raise of 25
    assert (legal(round_).min_raise_to, legal(round_).max_raise_to) == (60, 60)
    with pytest.raises(IllegalAction, match="the largest raise is to 60"):
        round_.act(3, Raise(61))


def test_spread_limit_doubles_in_later_rounds() -> None:
    assert Structure.spread(5, 25).stakes(1) == Stakes(10, 50)
    assert Structure.spread(5, 25, big_bet=5, big_max=30).stakes(1) == Stakes(5, 30)


def test_pot_limit_bet_is_at_most_the_pot_and_raise_at_most_the_pot_after_calling() -> None:
    table = table_of(1000, 1000, 1000)
    paid = post_antes(table, table.turn_order(), 1)
    round_ = betting(table, Structure.pot_limit(1), prior=paid)
    assert (legal(round_).min_bet, legal(round_).max_bet) == (1, 3)
    round_.act(1, Bet(3))
    # Cy calls 3 (pot 9), then raises by the pot: 3 + 9 = 12
    assert (legal(round_).min_raise_to, legal(round_).max_raise_to) == (6, 12)
    round_.act(2, Raise(12))
    # Ann calls 12 (pot 3 + 3 + 12 + 12 = 30) and raises 30: to 42
    assert legal(round_).max_raise_to == 42
    with pytest.raises(IllegalAction, match="the largest raise is to 42"):
        round_.act(0, Raise(43))


def test_pot_limit_with_blinds_raises_to_seven_over_one_two() -> None:
    round_ = betting(table_of(100, 100, 100, 100), Structure.pot_limit(2), blinds=Blinds(2, 1))
    choice = legal(round_)
    assert (choice.seat, choice.call_amount, choice.min_raise_to, choice.max_raise_to) == (
        3,
        2,
        4,
        7,
    )


def test_no_limit_min_raise_is_the_last_raise_and_max_is_all_in() -> None:
    table = table_of(100, 100, 100, 100, 300)
    round_ = betting(table, Structure.no_limit(2), blinds=Blinds(2, small=1))
    assert (legal(round_).min_raise_to, legal(round_).max_raise_to) == (4, 100)
    round_.act(3, Raise(10))  # a raise of 8
    assert (legal(round_).min_raise_to, legal(round_).max_raise_to) == (18, 300)
    with pytest.raises(IllegalAction, match="the smallest raise is to 18"):
        round_.act(4, Raise(17))
    round_.act(4, Raise(18))
    assert legal(round_).min_raise_to == 26


def test_no_limit_bet_at_least_the_minimum_and_at_most_the_stack() -> None:
    round_ = betting(table_of(50, 70), Structure.no_limit(5))
    assert (legal(round_).min_bet, legal(round_).max_bet) == (5, 70)
    round_.act(1, Bet(70))
    choice = legal(round_)
    assert (choice.call_amount, choice.can_raise) == (50, False)  # a short call, all-in


# -- blinds, straddles, the option --------------------------------------------------------------


def test_blinds_straddles_post_in_order_and_betting_starts_after_the_largest() -> None:
    table = table_of(*[100] * 6)
    round_ = betting(table, Structure.no_limit(2), blinds=Blinds(2, small=1, straddles=2))
    blinds = [(e["seat"], e["blind"], e["amount"]) for e in round_.events]
    assert blinds == [(1, "small", 1), (2, "big", 2), (3, "straddle", 4), (4, "straddle", 8)]
    assert table.chips_in(BETS) == 15
    choice = legal(round_)
    assert (choice.seat, choice.call_amount, choice.min_raise_to) == (5, 8, 16)
    play(round_, (5, Call()), (0, Call()), (1, Fold()), (2, Call()), (3, Call()))
    option = legal(round_)
    assert (option.seat, option.can_check, option.can_raise) == (4, True, True)
    round_.act(4, Check())
    assert round_.is_over and table.pot == 1 + 8 * 5
    assert round_.opener == 2 and round_.last_aggressor == 4


def test_the_draw_rules_single_blind_with_a_straddle() -> None:
    round_ = betting(table_of(*[100] * 4), FIXED, blinds=Blinds(10, straddles=1))
    assert [e["amount"] for e in round_.events] == [10, 20]
    assert legal(round_).seat == 3 and legal(round_).min_raise_to == 30
    assert round_.raises == 2  # the blind is the bet, the straddle a raise


def test_the_blind_counts_as_the_opening_bet_toward_the_cap() -> None:
    round_ = betting(table_of(*[100] * 6), FIXED, blinds=Blinds(10))
    play(round_, (2, Raise(20)), (3, Raise(30)), (4, Raise(40)), (5, Raise(50)))
    choice = legal(round_)
    assert (choice.seat, choice.call_amount, choice.can_raise) == (0, 50, False)


def test_the_big_blind_may_check_or_raise_when_called_round() -> None:
    table = table_of(100, 100, 100)
    round_ = betting(table, Structure.fixed(2), blinds=Blinds(2, small=1))
    assert legal(round_).seat == 0  # the button, left of the big blind
    play(round_, (0, Call()))
    assert legal(round_).call_amount == 1  # the small blind is a live bet toward the call
    play(round_, (1, Call()))
    option = legal(round_)
    assert (option.seat, option.can_check, option.min_raise_to) == (2, True, 4)
    round_.act(2, Raise(4))
    assert not round_.is_over and legal(round_).seat == 0
    play(round_, (0, Call()), (1, Call()))
    assert round_.is_over and table.pot == 12


def test_the_big_blind_checking_its_option_ends_the_round() -> None:
    round_ = betting(table_of(100, 100, 100), Structure.fixed(2), blinds=Blinds(2, small=1))
    play(round_, (0, Call()), (1, Call()), (2, Check()))
    assert round_.is_over and round_.table.pot == 6 and round_.last_aggressor == 2


def test_everyone_folding_to_the_big_blind_returns_its_uncalled_chip() -> None:
    table = table_of(100, 100, 100)
    round_ = betting(table, Structure.fixed(2), blinds=Blinds(2, small=1))
    play(round_, (0, Fold()), (1, Fold()))
    assert round_.is_over and round_.winner == 2
    assert table.stack(2) == 99 and table.pot == 2 and table.stack(1) == 99  # 1 back to Cy
    assert {"event": "uncalled", "seat": 2, "chips": 1} in round_.events


def test_a_short_blind_posts_what_it_has_and_the_others_still_call_the_full_blind() -> None:
    table = table_of(100, 100, 1)
    round_ = betting(table, Structure.no_limit(2), blinds=Blinds(2, small=1))
    assert round_.events[1] == {"event": "blind", "seat": 2, "blind": "big", "amount": 2, "paid": 1}
    assert legal(round_).call_amount == 2
    play(round_, (0, Call()), (1, Call()))
    assert round_.is_over and round_.totals == {0: 2, 1: 2, 2: 1}
    pots = side_pots(round_.totals)
    assert [(p.amount, p.eligible) for p in pots] == [(3, (1, 2, 0)), (2, (1, 0))]


def test_too_many_blinds_for_the_players_is_refused() -> None:
    with pytest.raises(OptionError, match="3 blinds"):
        betting(table_of(100, 100), FIXED, blinds=Blinds(2, small=1, straddles=1))


def test_blinds_refuse_bad_sizes() -> None:
    with pytest.raises(OptionError):
        Blinds(2, small=3)
    with pytest.raises(OptionError):
        Blinds(0)
    with pytest.raises(OptionError):
        Blinds(2, straddles=-1)


def test_seven_card_draw_second_round_minimum_is_twice_the_final_first_round_bet() -> None:
    table = table_of(100, 100, 100)
    no_limit = Structure.no_limit(2, big_bet=2)
    first = betting(table, no_limit, blinds=Blinds(2, small=1))
    play(first, (0, Raise(6)), (1, Fold()), (2, Call()))
    assert first.current_bet == 6
    second = BettingRound(
        table, table.turn_order(), no_limit, round_index=1, min_bet=2 * first.current_bet,
        folded=first.folded, prior=first.totals,
    )  # fmt: skip
    assert legal(second).seat == 2 and legal(second).min_bet == 12
    with pytest.raises(IllegalAction, match="the smallest bet 12"):
        second.act(2, Bet(11))


# -- check-raise, openers, order ---------------------------------------------------------------


@pytest.mark.parametrize("allowed", [True, False])
def test_check_raise_can_be_barred(allowed: bool) -> None:
    round_ = betting(table_of(100, 100, 100), Structure.fixed(10, check_raise=allowed))
    play(round_, (1, Check()), (2, Bet(10)), (0, Call()))
    choice = legal(round_)
    assert choice.seat == 1 and choice.call_amount == 10 and choice.can_raise is allowed
    if not allowed:
        with pytest.raises(IllegalAction, match="check-raise is not allowed"):
            round_.act(1, Raise(20))


def test_barred_check_raise_still_lets_the_blind_raise_its_option() -> None:
    structure = Structure.fixed(10, check_raise=False)
    round_ = betting(table_of(100, 100, 100), structure, blinds=Blinds(10))
    play(round_, (2, Call()), (0, Call()))
    assert legal(round_).seat == 1 and legal(round_).can_raise


def test_opener_and_last_aggressor_give_the_next_round_and_showdown_order() -> None:
    table = table_of(100, 100, 100, 100)
    first = betting(table, FIXED)
    play(first, (1, Check()), (2, Bet(10)), (3, Call()), (0, Fold()), (1, Call()))
    assert (first.opener, first.last_aggressor) == (2, 2)
    second = BettingRound(table, clockwise_from(table, 2), FIXED, round_index=1,
                          folded=first.folded, prior=first.totals)  # fmt: skip
    assert legal(second).seat == 2
    play(second, (2, Check()), (3, Bet(20)), (1, Call()), (2, Call()))
    assert (second.opener, second.last_aggressor) == (3, 3)
    assert second.totals == {0: 0, 1: 30, 2: 30, 3: 30}


def test_when_everyone_checks_no_one_opened_and_the_pot_is_unchanged() -> None:
    table = table_of(100, 100, 100)
    paid = post_antes(table, table.turn_order(), 5)
    round_ = betting(table, FIXED, prior=paid)
    play(round_, (1, Check()), (2, Check()), (0, Check()))
    assert round_.is_over and round_.opener is None and round_.last_aggressor is None
    assert table.pot == 15 and round_.totals == {0: 5, 1: 5, 2: 5}


def test_only_qualified_seats_may_open_but_anyone_may_then_raise() -> None:
    round_ = betting(table_of(100, 100, 100), FIXED, openers={2})
    choice = legal(round_)
    assert (choice.can_check, choice.can_bet) == (True, False)
    with pytest.raises(IllegalAction, match="may not open"):
        round_.act(1, Bet(10))
    play(round_, (1, Check()), (2, Bet(10)), (0, Raise(20)))
    assert legal(round_).can_raise


# -- all-ins -----------------------------------------------------------------------------------


def test_a_short_all_in_raise_does_not_reopen_the_betting_for_those_who_acted() -> None:
    table = table_of(100, 100, 15, 100)
    round_ = betting(table, FIXED)
    play(round_, (1, Bet(10)), (2, Raise(15)))  # all-in, 5 short of a full raise
    choice = legal(round_)  # Di has not acted: may call 15 or complete the raise to 20
    assert (choice.seat, choice.call_amount, choice.min_raise_to) == (3, 15, 20)
    play(round_, (3, Call()), (0, Call()))
    choice = legal(round_)  # Bob bet and faces only a short raise: call or fold
    assert (choice.seat, choice.call_amount, choice.can_raise) == (1, 5, False)
    with pytest.raises(IllegalAction, match="not reopened"):
        round_.act(1, Raise(25))
    round_.act(1, Call())
    assert round_.is_over and table.pot == 60


def test_no_raise_when_no_other_live_seat_can_cover_the_bet() -> None:
    # Bob moves all-in for 50 and Ann folds; Di, with 100, faces the bet while Cy, yet to
    # act, has only 30: no one could call a raise (its uncalled part would only come
    # back), so Di may only call or fold, as the docstring says.
    table = table_of(100, 50, 30, 100, button=0)
    round_ = BettingRound(table, (1, 0, 3, 2), Structure.no_limit(10))
    play(round_, (1, Bet(50)), (0, Fold()))
    choice = legal(round_)
    assert (choice.seat, choice.call_amount, choice.can_raise) == (3, 50, False)
    with pytest.raises(IllegalAction, match="no one else could call more than the bet"):
        round_.act(3, Raise(100))
    play(round_, (3, Call()), (2, Call()))
    assert round_.is_over and table.pot == 130 and table.stack(3) == 50


def test_a_raise_is_offered_when_one_other_seat_could_call_more_than_the_bet() -> None:
    table = table_of(100, 50, 60, 100, button=0)
    round_ = BettingRound(table, (1, 0, 3, 2), Structure.no_limit(10))
    play(round_, (1, Bet(50)), (0, Fold()))
    choice = legal(round_)  # Cy's 60 covers the 50 and 10 more
    assert (choice.seat, choice.can_raise, choice.max_raise_to) == (3, True, 100)


def test_a_full_raise_after_a_short_all_in_reopens_the_betting() -> None:
    round_ = betting(table_of(100, 100, 15, 100), FIXED)
    play(round_, (1, Bet(10)), (2, Raise(15)), (3, Raise(20)), (0, Call()))
    choice = legal(round_)
    assert (choice.seat, choice.call_amount, choice.min_raise_to) == (1, 10, 30)


def test_no_limit_short_all_ins_that_add_up_to_a_full_raise_reopen_the_betting() -> None:
    round_ = betting(table_of(100, 100, 45, 52), Structure.no_limit(10))
    play(round_, (1, Bet(30)), (2, Raise(45)), (3, Raise(52)), (0, Call()))
    choice = legal(round_)  # Bob bet 30 and faces 22 more: less than a full raise of 30
    assert (choice.seat, choice.call_amount, choice.can_raise) == (1, 22, False)
    round_ = betting(table_of(100, 100, 45, 62), Structure.no_limit(10))
    play(round_, (1, Bet(30)), (2, Raise(45)), (3, Raise(62)), (0, Call()))
    assert legal(round_).can_raise  # 15 + 17 = 32 >= 30


def test_an_all_in_bet_below_the_minimum_is_allowed_and_can_be_completed() -> None:
    round_ = betting(table_of(100, 100, 3, 100), FIXED)
    assert (legal(round_).min_bet, legal(round_).seat) == (10, 1)
    play(round_, (1, Check()))
    assert (legal(round_).min_bet, legal(round_).max_bet) == (3, 3)
    play(round_, (2, Bet(3)))
    choice = legal(round_)
    assert (choice.seat, choice.call_amount, choice.min_raise_to) == (3, 3, 10)


def test_no_limit_raising_an_all_in_bet_below_the_minimum_by_a_full_bet() -> None:
    round_ = betting(table_of(100, 3, 100, 100), Structure.no_limit(10))
    play(round_, (1, Bet(3)))
    assert legal(round_).min_raise_to == 13
    play(round_, (2, Raise(13)))
    assert legal(round_).min_raise_to == 23


def test_no_one_may_raise_when_everyone_else_is_all_in() -> None:
    round_ = betting(table_of(100, 40), Structure.no_limit(10))
    play(round_, (1, Bet(40)))
    choice = legal(round_)
    assert (choice.call_amount, choice.can_raise) == (40, False)
    round_.act(0, Call())
    assert round_.is_over


def test_an_all_in_seat_is_skipped_in_later_rounds() -> None:
    table = table_of(100, 100, 10)
    first = betting(table, FIXED)
    play(first, (1, Bet(10)), (2, Call()), (0, Call()))
    assert first.all_in == {2}
    second = BettingRound(table, table.turn_order(), FIXED, round_index=1,
                          folded=first.folded, prior=first.totals)  # fmt: skip
    play(second, (1, Check()), (0, Check()))
    assert second.is_over


def test_a_round_with_one_seat_able_to_bet_needs_no_action() -> None:
    table = table_of(100, 0, 0)
    round_ = betting(table, FIXED)
    assert round_.is_over and round_.pending() is None


def test_a_short_ante_puts_the_seat_all_in() -> None:
    table = table_of(100, 100, 3)
    paid = post_antes(table, table.turn_order(), 5)
    assert paid == {1: 5, 2: 3, 0: 5} and table.pot == 13
    round_ = betting(table, FIXED, prior=paid)
    play(round_, (1, Bet(10)), (0, Call()))
    assert round_.is_over and round_.all_in == {2}
    pots = side_pots(round_.totals, round_.folded)
    assert [(p.amount, p.eligible) for p in pots] == [(9, (1, 2, 0)), (24, (1, 0))]


def test_an_uncalled_bet_goes_back_to_the_bettor() -> None:
    table = table_of(100, 100, 100)
    round_ = betting(table, FIXED)
    play(round_, (1, Bet(10)), (2, Fold()), (0, Fold()))
    assert round_.winner == 1 and table.stack(1) == 100 and table.pot == 0
    assert round_.totals == {0: 0, 1: 0, 2: 0}
    reasons = [t.reason for t in table.ledger[3:]]
    assert reasons == [Reason.BET, Reason.REFUND]


def test_an_all_in_larger_than_anyone_can_call_is_partly_returned() -> None:
    table = table_of(100, 300, 100)
    round_ = betting(table, Structure.no_limit(10))
    play(round_, (1, Bet(300)), (2, Call()), (0, Call()))
    assert table.stack(1) == 200 and table.pot == 300
    assert {"event": "uncalled", "seat": 1, "chips": 200} in round_.events


# -- side pots and awards ----------------------------------------------------------------------


def test_three_all_ins_of_different_sizes_make_layered_side_pots() -> None:
    table = table_of(50, 120, 200, 500)
    round_ = betting(table, Structure.no_limit(10))
    play(round_, (1, Bet(120)), (2, Raise(200)), (3, Call()), (0, Call()))
    assert round_.is_over and round_.all_in == {0, 1, 2}
    assert round_.totals == {0: 50, 1: 120, 2: 200, 3: 200}
    pots = side_pots(round_.totals, round_.folded)
    assert pots == [Pot(200, (1, 2, 3, 0)), Pot(210, (1, 2, 3)), Pot(160, (2, 3))]
    assert sum(p.amount for p in pots) == table.pot == 570
    won = award_pots(table, pots, {0: 9, 1: 5, 2: 1, 3: 3})  # Ann best, then Bob
    assert won == {0: 200, 1: 210, 3: 160}
    assert table.pot == 0 and table.stack(0) == 200
    table.check_invariant()


def test_folded_chips_stay_in_the_layers_they_reach() -> None:
    pots = side_pots({0: 10, 1: 40, 2: 40, 3: 25}, folded={3})
    assert pots == [Pot(40, (0, 1, 2)), Pot(75, (1, 2))]
    assert side_pots({0: 10, 1: 5}, folded={0}) == [Pot(15, (1,))]  # the excess joins the top
    assert side_pots({0: 5, 1: 5}, dead=3) == [Pot(13, (0, 1))]
    assert side_pots({0: 0, 1: 0}) == []


def test_odd_chips_of_split_side_pots_go_nearest_the_dealers_left() -> None:
    table = Table([("Ann", 0), ("Bob", 0), ("Cy", 0), ("Di", 100)], button=0)
    table.pay(3, POT, 53, Reason.BET)
    pots = side_pots({0: 5, 1: 20, 2: 20, 3: 8}, folded={3})
    assert pots == [Pot(20, (0, 1, 2)), Pot(33, (1, 2))]
    won = award_pots(table, pots, {0: 7, 1: 7, 2: 7})
    assert won == {0: 6, 1: 7 + 17, 2: 7 + 16}  # Bob is the dealer's left
    assert table.pot == 0


def test_odd_chips_follow_the_tables_rule_or_the_given_one() -> None:
    table = Table([("Ann", 0), ("Bob", 0), ("Cy", 9)], odd_chips=OddChipRule.LEAVE_IN_POT)
    table.pay(2, POT, 9, Reason.BET)
    won = award_pots(table, [Pot(5, (0, 1, 2)), Pot(4, (0, 1))], {0: 1, 1: 1, 2: 0})
    assert won == {0: 2 + 2, 1: 2 + 2} and table.pot == 1
    table = Table([("Ann", 0), ("Bob", 0), ("Cy", 5)])
    table.pay(2, POT, 5, Reason.BET)
    won = award_pots(table, [Pot(5, (0, 1))], {0: 1, 1: 1}, rule=OddChipRule.FIRST_LISTED)
    assert won == {0: 3, 1: 2}


def test_a_pot_no_eligible_seat_can_win_stays_in_the_pot() -> None:
    table = table_of(0, 10, button=1)
    table.pay(1, POT, 10, Reason.BET)
    assert award_pots(table, [Pot(10, (0, 1))], {}) == {}
    assert table.pot == 10


def test_award_checks_everything_before_moving_chips() -> None:
    table = table_of(0, 10)
    table.pay(1, POT, 10, Reason.BET)
    before = table.snapshot()
    with pytest.raises(ValueError, match="the pots total 11"):
        award_pots(table, [Pot(10, (0, 1)), Pot(1, (1,))], {1: 1})
    with pytest.raises(ValueError, match="no seat 7"):
        award_pots(table, [Pot(10, (0, 1))], {7: 1})
    assert table.snapshot() == before


def test_side_pots_refuse_bad_contributions() -> None:
    with pytest.raises(ValueError):
        side_pots({0: -1})
    with pytest.raises(ValueError):
        side_pots({0: 1}, dead=-1)


# -- illegal actions ---------------------------------------------------------------------------


def frozen_state(round_: BettingRound) -> tuple[object, ...]:
    return (round_.table.snapshot(), round_.events, round_.pending(), round_.bets, round_.raises)


@pytest.mark.parametrize(
    "seat, action, message",
    [
        (0, Call(), r"seat 0 \(Ann\) cannot call: it is seat 2 \(Cy\)'s turn"),
        (2, Check(), "there is a bet of 10 to call; legal: fold, call 10, raise to 20"),
        (2, Raise(15), "the smallest raise is to 20"),
        (2, Raise(25), "the largest raise is to 20"),
        (2, Bet(10), "there is already a bet of 10; raise instead"),
        (5, Fold(), "seat 5 is not in this betting round"),
        (2, "fold", "'fold' is not a betting action"),
    ],
)
def test_illegal_actions_raise_and_leave_the_state_untouched(
    seat: int, action: Any, message: str
) -> None:
    round_ = betting(table_of(100, 100, 100), FIXED)
    round_.act(1, Bet(10))
    before = frozen_state(round_)
    assert not round_.can_act(seat, action)
    with pytest.raises(IllegalAction, match=message):
        round_.act(seat, action)
    assert frozen_state(round_) == before
    assert round_.can_act(2, Call())


def test_nothing_is_legal_once_the_round_is_over() -> None:
    round_ = betting(table_of(100, 100), FIXED)
    play(round_, (1, Check()), (0, Check()))
    with pytest.raises(IllegalAction, match="the betting round is over"):
        round_.act(1, Bet(10))


def test_a_call_with_nothing_to_call_and_a_raise_with_no_bet_are_refused() -> None:
    round_ = betting(table_of(100, 100), FIXED)
    with pytest.raises(IllegalAction, match="nothing to call"):
        round_.act(1, Call())
    with pytest.raises(IllegalAction, match="no bet to raise; bet instead"):
        round_.act(1, Raise(10))


def test_bad_amounts_and_setups_are_refused() -> None:
    with pytest.raises(IllegalAction):
        Bet(0)
    with pytest.raises(IllegalAction):
        Raise(True)
    table = table_of(100, 100)
    with pytest.raises(ValueError):
        BettingRound(table, [0, 0], FIXED)
    with pytest.raises(ValueError):
        BettingRound(table, [0, 4], FIXED)
    table.pay(0, BETS, 5, Reason.BET)
    with pytest.raises(OptionError, match="must be empty"):
        BettingRound(table, [0, 1], FIXED)


# -- structures and records --------------------------------------------------------------------


def test_structure_from_options() -> None:
    spread = Structure.from_options({"limit": "spread", "bet": "5", "max-bet": "25",
                                     "check-raise": "no"})  # fmt: skip
    assert spread == Structure.spread(5, 25, check_raise=False)
    assert Structure.from_options({}) == Structure.fixed(1)
    capped = Structure.from_options({"limit": "no-limit", "raise-cap": "3", "cap-heads-up": "no"})
    assert (capped.kind, capped.raise_cap, capped.cap_heads_up) == (Limit.NO_LIMIT, 3, False)
    assert Structure.from_options({"limit": "fixed", "raise-cap": "none"}).raise_cap is None


@pytest.mark.parametrize(
    "options, message",
    [
        ({"limits": "pot"}, "unknown betting option 'limits'; allowed: limit, bet"),
        ({"limit": "table"}, "limit: unknown value 'table'; allowed: fixed, spread"),
        ({"bet": "ten"}, "bet: expected a whole number"),
        ({"bet": "0"}, "at least 1"),
        ({"limit": "spread", "bet": "5"}, "spread limit needs its largest bet"),
        ({"limit": "spread", "bet": "5", "max-bet": "4"}, "below the minimum bet 5"),
        ({"limit": "pot", "max-bet": "4"}, "only for spread limit"),
        ({"check-raise": "maybe"}, "check-raise: expected yes or no"),
    ],
)
def test_bad_structure_options_name_the_option(options: dict[str, str], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        Structure.from_options(options)


def test_events_are_json_and_the_actions_replay() -> None:
    table = table_of(100, 100, 30, 100)
    round_ = betting(table, Structure.no_limit(2), blinds=Blinds(2, small=1))
    play(round_, (3, Raise(6)), (0, Call()), (1, Fold()), (2, Raise(30)), (3, Call()), (0, Fold()))
    assert json.loads(json.dumps(round_.events)) == list(round_.events)
    assert round_.events[-1] == {"event": "end", "pot": 67, "opener": 2, "last_aggressor": 2}
    records = json.loads(json.dumps([[s, a.to_dict()] for s, a in round_.actions]))
    again_table = table_of(100, 100, 30, 100)
    again = betting(again_table, Structure.no_limit(2), blinds=Blinds(2, small=1))
    for seat, data in records:
        again.act(seat, action_from_dict(data))
    assert again.events == round_.events and again_table.snapshot() == table.snapshot()
    with pytest.raises(IllegalAction):
        action_from_dict({"action": "dance"})


def test_legal_describes_itself() -> None:
    round_ = betting(table_of(100, 100), Structure.no_limit(2))
    choice = legal(round_)
    assert str(choice) == "fold, check, bet 2..100"
    assert json.loads(json.dumps(choice.to_dict()))["max_bet"] == 100


# -- properties --------------------------------------------------------------------------------

STRUCTURES = st.one_of(
    st.builds(Structure.fixed, st.integers(1, 10), cap_heads_up=st.booleans(),
              check_raise=st.booleans()),
    st.builds(Structure.spread, st.integers(1, 5), st.integers(5, 30)),
    st.builds(Structure.pot_limit, st.integers(1, 10)),
    st.builds(Structure.no_limit, st.integers(1, 10), check_raise=st.booleans()),
)  # fmt: skip


def choose(data: st.DataObject, choice: Legal) -> Action:
    options: list[Action] = [Fold()]
    if choice.can_check:
        options.append(Check())
    if choice.can_call:
        options.append(Call())
    if choice.min_bet is not None and choice.max_bet is not None:
        options.append(Bet(data.draw(st.integers(choice.min_bet, choice.max_bet))))
    if choice.min_raise_to is not None and choice.max_raise_to is not None:
        options.append(Raise(data.draw(st.integers(choice.min_raise_to, choice.max_raise_to))))
    return data.draw(st.sampled_from(options))


@settings(max_examples=300, deadline=None)
@given(
    stacks=st.lists(st.integers(0, 150), min_size=2, max_size=10),
    structure=STRUCTURES,
    ante=st.integers(0, 3),
    straddles=st.integers(0, 2) | st.none(),
    rounds=st.integers(1, 3),
    data=st.data(),
)
def test_random_legal_play_conserves_chips_terminates_and_the_pots_add_up(
    stacks: Sequence[int],
    structure: Structure,
    ante: int,
    straddles: int | None,
    rounds: int,
    data: st.DataObject,
) -> None:
    table = table_of(*stacks, button=data.draw(st.integers(0, len(stacks) - 1)))
    total = sum(stacks)
    prior = post_antes(table, table.turn_order(), ante)
    folded: frozenset[int] = frozenset()
    for index in range(rounds):
        blinds = None
        if index == 0 and straddles is not None and straddles + 2 <= len(stacks):
            blinds = Blinds(2, small=1, straddles=straddles)
        round_ = BettingRound(table, table.turn_order(), structure, round_index=index,
                              blinds=blinds, folded=folded, prior=prior)  # fmt: skip
        for _ in range(500):
            choice = round_.pending()
            if choice is None:
                break
            action = choose(data, choice)
            assert round_.can_act(choice.seat, action)
            round_.act(choice.seat, action)
            table.check_invariant()
        assert round_.is_over and table.chips_in(BETS) == 0
        prior, folded = round_.totals, round_.folded
        assert sum(prior.values()) == table.pot
        assert sum(table.stack(s) for s in range(len(stacks))) + table.pot == total
        if round_.winner is not None:
            break
    pots = side_pots(prior, folded)
    event(f"{len(pots)} pots")
    assert sum(p.amount for p in pots) == sum(prior.values()) == table.pot
    for pot in pots:
        assert pot.eligible and not set(pot.eligible) & folded
    top = max(prior[s] for s in prior if s not in folded)
    for seat in set(prior) - folded:  # a seat can win from each at most what it put in
        reach = sum(p.amount for p in pots if seat in p.eligible)
        expected = sum(min(c, prior[seat]) for c in prior.values())
        assert reach == (table.pot if prior[seat] == top else expected)
    in_hand = [s for s in range(len(stacks)) if s not in folded]
    strengths = {s: data.draw(st.integers(0, 3)) for s in in_hand}
    award_pots(table, pots, strengths)
    table.check_invariant()
    assert table.pot == 0
    assert sum(table.stack(s) for s in range(len(stacks))) == total
