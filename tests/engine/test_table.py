"""Tests for guts.table: seats, button, pot, reserve, holds and the ledger."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guts.errors import GutsError, OptionError
from guts.table import (
    BANK,
    POT,
    RESERVE,
    ChipError,
    LedgerError,
    OddChipRule,
    Place,
    Reason,
    Seat,
    SeatError,
    Table,
    TableError,
    Transfer,
    capped,
)

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed"]


def table_with_pot(pot: int, players: int = 4, stack: int = 1000, **kwargs: Any) -> Table:
    """A table whose pot holds ``pot`` chips, paid by seat 0 as an ante."""
    table = Table(NAMES[:players], buy_in=stack, **kwargs)
    table.pay(0, POT, pot, Reason.ANTE)
    return table


def state(table: Table) -> dict[str, object]:
    return table.snapshot()


# -- setup, seats and the button ----------------------------------------------------------------


def test_names_and_buy_in_seat_everyone_with_a_recorded_buy_in() -> None:
    table = Table(["Ann", "Bob", "Cy"], buy_in=50)
    assert table.seats == (Seat(0, "Ann", 50), Seat(1, "Bob", 50), Seat(2, "Cy", 50))
    assert table.total_bought_in == 150
    assert [(t.source, t.destination, t.amount, t.reason) for t in table.ledger] == [
        (BANK, seat, 50, Reason.BUY_IN) for seat in range(3)
    ]
    table.check_invariant()


def test_pairs_give_each_seat_its_own_buy_in() -> None:
    table = Table([("Ann", 30), "Bob", ("Cy", 0)], buy_in=10)
    assert [s.stack for s in table.seats] == [30, 10, 0]
    assert table.total_bought_in == 40
    assert len(table.ledger) == 2  # a zero buy-in records nothing


@pytest.mark.parametrize(
    "players, kwargs, error",
    [
        ([], {}, SeatError),
        (["Ann", "Ann"], {}, SeatError),
        (["Ann", " "], {}, SeatError),
        ([("Ann", -5), "Bob"], {}, ChipError),
        (["Ann", "Bob"], {"buy_in": -1}, ChipError),
        (["Ann", "Bob"], {"button": 2}, SeatError),
        (["Ann", "Bob"], {"odd_chips": "to-the-dog"}, OptionError),
        ([("Ann", 1, 2)], {}, SeatError),
    ],
)
def test_bad_setup_is_refused(
    players: list[Any], kwargs: dict[str, Any], error: type[GutsError]
) -> None:
    with pytest.raises(error):
        Table(players, **kwargs)


def test_button_moves_left_to_the_next_seat_and_wraps() -> None:
    table = Table(NAMES[:3], button=1)
    assert table.button == 1
    assert [table.move_button() for _ in range(4)] == [2, 0, 1, 2]


def test_turn_order_starts_at_dealers_left_and_ends_with_the_dealer() -> None:
    table = Table(NAMES, button=3)
    assert table.turn_order() == (4, 0, 1, 2, 3)
    assert table.left_of(4) == 0
    assert table.left_of(3, 2) == 0


# -- paying, collecting, moving -----------------------------------------------------------------


def test_pay_and_collect_move_chips_through_the_pot() -> None:
    table = Table(NAMES[:3], buy_in=100)
    assert table.pay_each(table.turn_order(), POT, 5, Reason.ANTE) == {1: 5, 2: 5, 0: 5}
    assert table.pot == 15
    assert table.collect(POT, 2) == 15
    assert [s.stack for s in table.seats] == [95, 95, 110]
    assert table.pot == 0
    assert table.ledger[-1] == Transfer(POT, 2, 15, Reason.WIN)


def test_seat_may_pay_another_seat_directly() -> None:
    table = Table(NAMES[:2], buy_in=100)
    assert table.pay(1, 0, 40, Reason.PAY_WINNER) == 40
    assert [s.stack for s in table.seats] == [140, 60]


def test_collect_part_of_a_place() -> None:
    table = table_with_pot(30)
    assert table.collect(POT, 1, 10, Reason.REFUND) == 10
    assert table.pot == 20


def test_zero_amounts_record_nothing() -> None:
    table = Table(NAMES[:2], buy_in=10)
    before = len(table.ledger)
    assert table.pay(0, POT, 0, Reason.ANTE) == 0
    assert table.collect(POT, 0) == 0
    assert table.move(POT, RESERVE, None, Reason.TO_RESERVE) == 0
    table.buy_in(0, 0)
    assert len(table.ledger) == before


def test_named_holds_count_in_the_invariant() -> None:
    side = Place("side-pot")
    table = table_with_pot(60)
    assert table.move(POT, side, 20, Reason.SET_ASIDE) == 20
    assert table.places == {POT: 40, side: 20}
    assert table.chips_in(side) == 20
    assert table.chips_in(Place("never-used")) == 0
    table.check_invariant()
    assert table.collect(side, 3, reason=Reason.RELEASE) == 20
    assert table.places == {POT: 40}


def test_place_names_must_be_words() -> None:
    for bad in ["", " pot", 7]:
        with pytest.raises(TableError):
            Place(bad)  # type: ignore[arg-type]


def test_chips_enter_and_leave_only_through_the_bank_by_buy_in_and_cash_out() -> None:
    table = table_with_pot(10)
    with pytest.raises(TableError):
        table.pay(0, BANK, 5, Reason.PENALTY)
    with pytest.raises(TableError):
        table.pay(0, POT, 5, Reason.BUY_IN)
    with pytest.raises(TableError):
        table.collect(BANK, 0, 5)
    with pytest.raises(TableError):
        table.move(POT, BANK, 5, Reason.CASH_OUT)


def test_buy_in_and_cash_out_change_the_chips_bought_in() -> None:
    table = Table(NAMES[:2], buy_in=100)
    table.buy_in(1, 50)
    assert table.stack(1) == 150
    assert table.cash_out(0, 30) == 30
    assert table.cash_out(1) == 150
    assert table.total_bought_in == 70
    assert [s.stack for s in table.seats] == [70, 0]
    table.check_invariant()


def test_cash_out_more_than_the_stack_is_refused() -> None:
    table = Table(NAMES[:2], buy_in=100)
    with pytest.raises(ChipError):
        table.cash_out(0, 101)


# -- table stakes and credit ----------------------------------------------------------------------


def test_table_stakes_pays_what_the_stack_holds_and_records_the_shortfall() -> None:
    table = Table([("Ann", 30), ("Bob", 100)])
    assert not table.credit
    assert table.pay(0, POT, 80, Reason.MATCH) == 30
    assert table.stack(0) == 0
    assert table.ledger[-1] == Transfer(0, POT, 30, Reason.MATCH, shortfall=50)
    assert table.describe(table.ledger[-1]) == "Ann -> pot: 30 (match), 50 short"


def test_table_stakes_seat_with_nothing_records_a_wholly_short_payment() -> None:
    table = Table([("Ann", 0), ("Bob", 100)])
    assert table.pay(0, POT, 80, Reason.MATCH) == 0
    assert table.ledger[-1] == Transfer(0, POT, 0, Reason.MATCH, shortfall=80)
    assert table.stack(0) == 0
    table.check_invariant()


def test_credit_pays_in_full_and_the_stack_goes_negative() -> None:
    table = Table([("Ann", 30), ("Bob", 100)], credit=True)
    assert table.pay(0, POT, 80, Reason.MATCH) == 80
    assert table.stack(0) == -50
    assert table.ledger[-1].shortfall == 0
    table.check_invariant()


def test_credit_settlement_says_who_pays_whom() -> None:
    table = Table(["Ann", "Bob", "Cy", "Di"], credit=True)
    table.pay(1, POT, 30, Reason.MATCH)
    table.pay(2, POT, 20, Reason.MATCH)
    table.pay(3, POT, 5, Reason.ANTE)
    table.collect(POT, 0, 45)
    table.collect(POT, 3, 10)
    result = table.settlement()
    assert result.net == {"Ann": 45, "Bob": -30, "Cy": -20, "Di": 5}
    # Applying the payments squares everyone, independently of how they were chosen.
    balance = dict(result.net)
    for payer, payee, amount in result.payments:
        assert amount > 0
        balance[payer] += amount
        balance[payee] -= amount
    assert set(balance.values()) == {0}
    assert result.payments[0] == ("Bob", "Ann", 30)


def test_a_debtor_cashes_out_nothing_and_keeps_the_debt() -> None:
    table = Table(["Ann", "Bob"], credit=True)
    table.pay(1, 0, 25, Reason.PAY_WINNER)
    assert table.cash_out(1) == 0
    assert table.cash_out(0) == 25
    assert table.settlement().net == {"Ann": 25, "Bob": -25}
    assert table.settlement().payments == (("Bob", "Ann", 25),)


def test_settlement_counts_rebuys_as_chips_received() -> None:
    table = Table(["Ann", "Bob", "Cy"], buy_in=100, credit=True)
    table.buy_in(1, 50)
    table.pay(1, 0, 170, Reason.PAY_WINNER)
    result = table.settlement()
    assert result.net == {"Ann": 170, "Bob": -170, "Cy": 0}
    assert result.payments == (("Bob", "Ann", 170),)


def test_settlement_needs_every_place_empty() -> None:
    table = table_with_pot(10)
    with pytest.raises(TableError, match="10 in the pot"):
        table.settlement()


def test_net_counts_cash_outs() -> None:
    table = Table(NAMES[:2], buy_in=100)
    table.pay(1, 0, 40, Reason.PAY_WINNER)
    table.cash_out(0)
    assert (table.net(0), table.net(1)) == (40, -40)


# -- splits and odd chips -------------------------------------------------------------------------


def test_default_odd_chip_rule_is_nearest_the_dealers_left() -> None:
    assert Table(NAMES[:2]).odd_chips is OddChipRule.NEAREST_LEFT


@pytest.mark.parametrize("button", range(5))
@pytest.mark.parametrize("pot, winners", [(10, [0, 2, 4]), (11, [1, 3, 4, 0]), (7, [2, 3])])
def test_nearest_left_gives_odd_chips_clockwise_from_the_dealers_left(
    button: int, pot: int, winners: list[int]
) -> None:
    table = table_with_pot(pot, players=5, button=button)
    stacks = [s.stack for s in table.seats]
    shares = table.split(POT, winners)
    # Independent reckoning: walk clockwise from the dealer's left handing out single chips.
    expected = dict.fromkeys(winners, 0)
    seat, left = button, pot
    while left:
        seat = (seat + 1) % 5
        if seat in expected:
            expected[seat] += 1
            left -= 1
    assert shares == expected
    assert table.pot == 0
    assert [s.stack for s in table.seats] == [stacks[i] + expected.get(i, 0) for i in range(5)]


def test_first_listed_gives_odd_chips_in_the_games_order() -> None:
    table = table_with_pot(11, players=5, odd_chips=OddChipRule.FIRST_LISTED)
    assert table.split(POT, [4, 2, 0, 1]) == {4: 3, 2: 3, 0: 3, 1: 2}
    assert table.pot == 0


def test_leave_in_pot_keeps_the_odd_chips_for_the_next_deal() -> None:
    table = table_with_pot(11, players=5, odd_chips=OddChipRule.LEAVE_IN_POT)
    assert table.split(POT, [1, 2, 3]) == {1: 3, 2: 3, 3: 3}
    assert table.pot == 2


def test_split_rule_may_be_chosen_per_split_and_amount_limited() -> None:
    table = table_with_pot(11, players=5)
    assert table.split(POT, [0, 1], amount=5, rule=OddChipRule.LEAVE_IN_POT) == {0: 2, 1: 2}
    assert table.pot == 7
    assert table.split(POT, [3]) == {3: 7}
    assert [t.reason for t in table.ledger[-3:]] == [Reason.SPLIT] * 3


def test_split_smaller_than_the_winners_records_only_real_shares() -> None:
    table = table_with_pot(2, players=5, odd_chips=OddChipRule.LEAVE_IN_POT)
    before = len(table.ledger)
    assert table.split(POT, [1, 2, 3]) == {1: 0, 2: 0, 3: 0}
    assert len(table.ledger) == before and table.pot == 2


def test_odd_chip_rule_parses_names_and_rejects_others() -> None:
    assert OddChipRule.parse(" Leave-In-Pot ") is OddChipRule.LEAVE_IN_POT
    with pytest.raises(OptionError, match=r"odd-chips.*nearest-left, first-listed, leave-in-pot"):
        OddChipRule.parse("dealer")


# -- pot limit and reserve --------------------------------------------------------------------


def test_pot_limit_worked_example_from_the_rules() -> None:
    """80 in the pot, limit 100, four stay in: the winner takes 80 and three losers pay 80."""
    table = table_with_pot(80)
    table.collect(POT, 0)
    table.refill_pot_from_reserve(100)  # nothing in reserve yet
    for loser in (1, 2, 3):
        table.pay(loser, POT, 80, Reason.MATCH)
    assert table.apply_pot_limit(100) == 140
    assert (table.pot, table.reserve) == (100, 140)
    # "If this pot is won without a contest there will be 100 in the pot and 40 in reserve."
    table.collect(POT, 2)
    assert table.refill_pot_from_reserve(100) == 100
    assert (table.pot, table.reserve) == (100, 40)
    # "If this too is won without a contest there will be 40 in the pot and no reserve."
    table.collect(POT, 3)
    assert table.refill_pot_from_reserve(100) == 40
    assert (table.pot, table.reserve) == (40, 0)
    reasons = [(t.source, t.destination, t.amount, t.reason) for t in table.ledger[-5:]]
    assert reasons == [
        (POT, RESERVE, 140, Reason.TO_RESERVE),
        (POT, 2, 100, Reason.WIN),
        (RESERVE, POT, 100, Reason.FROM_RESERVE),
        (POT, 3, 100, Reason.WIN),
        (RESERVE, POT, 40, Reason.FROM_RESERVE),
    ]
    table.check_invariant()


def test_pot_within_the_limit_stays_and_an_empty_reserve_brings_nothing() -> None:
    table = table_with_pot(100)
    assert table.apply_pot_limit(100) == 0
    assert table.refill_pot_from_reserve(100) == 0
    assert (table.pot, table.reserve) == (100, 0)


def test_pot_limit_must_be_positive() -> None:
    table = table_with_pot(10)
    for bad in (0, -1):
        with pytest.raises(ChipError):
            table.apply_pot_limit(bad)
        with pytest.raises(ChipError):
            table.refill_pot_from_reserve(bad)


def test_wikipedia_cap_the_pot_at_fifty() -> None:
    """Five players ante $1; after three doublings the pot is $40; the next doubling pays $40,
    the pot stays at $50 and $30 is set aside as the ante of the next uncontested win."""
    aside = Place("aside")
    table = Table(NAMES, buy_in=500)
    table.pay_each(table.turn_order(), POT, 1, Reason.ANTE)
    for loser in (1, 2, 3):
        table.pay(loser, POT, table.pot, Reason.DOUBLE)
    assert table.pot == 40
    table.pay(4, POT, 40, Reason.DOUBLE)
    table.apply_pot_limit(50, reserve=aside)
    assert (table.pot, table.chips_in(aside)) == (50, 30)
    table.collect(POT, 0)  # a hand with a winner and no loser
    table.refill_pot_from_reserve(50, reserve=aside)
    assert (table.pot, table.chips_in(aside)) == (30, 0)


def test_capped_payment_for_a_maximum_loss_per_deal() -> None:
    table = table_with_pot(8)
    table.pay(1, POT, capped(table.pot, 5), Reason.MATCH)  # "losers only pay the maximum"
    assert table.pot == 13
    assert capped(3, 5) == 3 and capped(9, None) == 9
    with pytest.raises(ChipError):
        capped(-1, 5)


# -- errors leave the state untouched --------------------------------------------------------


BAD_CALLS: list[tuple[str, Callable[[Table], object], type[GutsError]]] = [
    ("negative pay", lambda t: t.pay(0, POT, -1, Reason.ANTE), ChipError),
    ("fractional pay", lambda t: t.pay(0, POT, 1.5, Reason.ANTE), ChipError),  # type: ignore[arg-type]
    ("bool pay", lambda t: t.pay(0, POT, True, Reason.ANTE), ChipError),
    ("unknown payer", lambda t: t.pay(9, POT, 1, Reason.ANTE), SeatError),
    ("negative seat", lambda t: t.pay(-1, POT, 1, Reason.ANTE), SeatError),
    ("unknown payee", lambda t: t.pay(0, 9, 1, Reason.PAY_WINNER), SeatError),
    ("pay self", lambda t: t.pay(0, 0, 1, Reason.PAY_WINNER), TableError),
    ("string reason", lambda t: t.pay(0, POT, 1, "ante"), TableError),  # type: ignore[arg-type]
    ("overdraw pot", lambda t: t.collect(POT, 0, 31), ChipError),
    ("collect to unknown", lambda t: t.collect(POT, 7), SeatError),
    ("collect from seat", lambda t: t.collect(1, 0, 5), TableError),  # type: ignore[arg-type]
    ("negative collect", lambda t: t.collect(POT, 0, -3), ChipError),
    ("overdraw move", lambda t: t.move(POT, RESERVE, 31, Reason.TO_RESERVE), ChipError),
    ("move to seat", lambda t: t.move(POT, 1, 5, Reason.WIN), TableError),  # type: ignore[arg-type]
    ("split no winners", lambda t: t.split(POT, []), SeatError),
    ("split twice", lambda t: t.split(POT, [1, 1]), SeatError),
    ("split unknown", lambda t: t.split(POT, [1, 8]), SeatError),
    ("split a seat", lambda t: t.split(0, [1, 2], amount=4), TableError),  # type: ignore[arg-type]
    ("split the bank", lambda t: t.split(BANK, [1, 2], amount=4), TableError),
    ("split too much", lambda t: t.split(POT, [1, 2], amount=40), ChipError),
    ("pay_each bad seat", lambda t: t.pay_each([1, 2, 9], POT, 5, Reason.ANTE), SeatError),
    ("pay_each twice", lambda t: t.pay_each([1, 2, 1], POT, 5, Reason.ANTE), SeatError),
    ("pay_each to payer", lambda t: t.pay_each([1, 2], 2, 5, Reason.ANTE), SeatError),
    ("pay_each buy-in", lambda t: t.pay_each([1, 2], POT, 5, Reason.BUY_IN), TableError),
    ("negative buy-in", lambda t: t.buy_in(0, -10), ChipError),
    ("buy-in unknown", lambda t: t.buy_in(4, 10), SeatError),
    ("cash out too much", lambda t: t.cash_out(0, 10**6), ChipError),
    ("bad limit", lambda t: t.apply_pot_limit(-5), ChipError),
    ("left of unknown", lambda t: t.left_of(4), SeatError),
    ("stack of unknown", lambda t: t.stack(-1), SeatError),
]


@pytest.mark.parametrize("credit", [False, True])
@pytest.mark.parametrize("call, error", [(c, e) for _, c, e in BAD_CALLS],
                         ids=[name for name, _, _ in BAD_CALLS])  # fmt: skip
def test_errors_leave_the_state_untouched(
    credit: bool, call: Callable[[Table], object], error: type[GutsError]
) -> None:
    table = table_with_pot(30, credit=credit)
    before = state(table)
    with pytest.raises(error) as raised:
        call(table)
    assert str(raised.value)  # a message a player can read
    assert state(table) == before
    table.check_invariant()


def test_check_invariant_notices_a_table_that_disagrees_with_its_ledger() -> None:
    table = table_with_pot(30)
    table._stacks[1] += 1  # simulate a bug that bypassed the ledger
    with pytest.raises(TableError, match="ledger"):
        table.check_invariant()


# -- records and replay -------------------------------------------------------------------


def played_table() -> Table:
    table = Table(NAMES[:4], buy_in=100, credit=True, odd_chips=OddChipRule.LEAVE_IN_POT)
    table.pay_each(table.turn_order(), POT, 5, Reason.ANTE, note="deal 1")
    table.split(POT, [1, 2, 3])
    table.pay(0, POT, 120, Reason.MATCH)
    table.apply_pot_limit(50)
    table.move(POT, Place("side-pot"), 10, Reason.SET_ASIDE)
    table.move_button()
    table.cash_out(1)
    return table


def test_transfer_dicts_are_json_and_round_trip() -> None:
    for transfer in played_table().ledger:
        data = json.loads(json.dumps(transfer.to_dict()))
        assert Transfer.from_dict(data) == transfer
    assert Transfer(0, POT, 5, Reason.MATCH, shortfall=2).to_dict() == {
        "source": 0, "destination": "pot", "amount": 5, "reason": "match", "shortfall": 2,
    }  # fmt: skip


def test_replaying_the_ledger_reproduces_the_state() -> None:
    table = played_table()
    again = Table.from_ledger(
        table.names, table.ledger, credit=True, odd_chips=table.odd_chips, button=table.button
    )
    assert again.snapshot() == table.snapshot()
    assert again.seats == table.seats and again.places == table.places
    assert again.total_bought_in == table.total_bought_in


def test_snapshot_survives_json_and_rebuilds_the_table() -> None:
    table = played_table()
    data = json.loads(json.dumps(table.snapshot()))
    again = Table.from_snapshot(data)
    assert again.snapshot() == table.snapshot()
    assert again.credit and again.odd_chips is OddChipRule.LEAVE_IN_POT and again.button == 1


def test_a_snapshot_whose_totals_do_not_match_its_ledger_is_refused() -> None:
    data = played_table().snapshot()
    data["stacks"] = [0, 0, 0, 0]
    with pytest.raises(LedgerError, match="stacks"):
        Table.from_snapshot(data)
    data = played_table().snapshot()
    data["places"] = {"pot": 1}
    with pytest.raises(LedgerError, match="places"):
        Table.from_snapshot(data)


def test_a_ledger_with_an_impossible_transfer_does_not_replay() -> None:
    ledger = [Transfer(BANK, 0, 10, Reason.BUY_IN), Transfer(POT, 0, 5, Reason.WIN)]
    with pytest.raises(LedgerError, match="transfer 1"):
        Table.from_ledger(["Ann", "Bob"], ledger)
    # A shortfall is only possible at table stakes, and only when paying the whole stack.
    short = [Transfer(BANK, 0, 10, Reason.BUY_IN), Transfer(0, POT, 4, Reason.MATCH, "", 6)]
    with pytest.raises(LedgerError, match="transfer 1"):
        Table.from_ledger(["Ann", "Bob"], short)
    with pytest.raises(LedgerError, match="transfer 1"):
        Table.from_ledger(["Ann", "Bob"], short, credit=True)


@pytest.mark.parametrize(
    "data",
    [
        {"source": 0, "destination": "pot", "amount": 5},
        {"source": 0, "destination": "pot", "amount": 5, "reason": "tip"},
        {"source": 0.5, "destination": "pot", "amount": 5, "reason": "ante"},
        {"source": 0, "destination": "pot", "amount": "5", "reason": "ante"},
        {"source": 0, "destination": "pot", "amount": 0, "reason": "ante"},
        {"source": "pot", "destination": 0, "amount": 1, "reason": "win", "shortfall": 1},
        {"source": 0, "destination": 0, "amount": 1, "reason": "win"},
    ],
)
def test_malformed_transfer_dicts_raise_ledger_error(data: dict[str, object]) -> None:
    with pytest.raises(LedgerError):
        Transfer.from_dict(data)


@pytest.mark.parametrize(
    "change",
    [
        {"seats": "Ann"},
        {"ledger": [5]},
        {"credit": "yes"},
        {"odd_chips": "nobody"},
        {"button": 9},
        {"seats": ["Ann", "Ann", "Cy", "Di"]},
    ],
)
def test_malformed_snapshots_raise_ledger_error(change: dict[str, object]) -> None:
    data = played_table().snapshot() | change
    with pytest.raises(LedgerError):
        Table.from_snapshot(data)


def test_repr_and_describe_use_names() -> None:
    table = table_with_pot(30, players=2)
    assert repr(table) == "<Table Ann 970, Bob 1000, pot 30; button Ann>"
    assert table.describe(table.ledger[-1]) == "Ann -> pot: 30 (ante)"


# -- property: chips are conserved under any sequence of operations -------------------------------

SIDE = Place("side")
PLACES = [POT, RESERVE, SIDE, BANK]
seats_st = st.integers(0, 2) | st.integers(-1, 10)  # mostly seats every table has
amounts_st = st.integers(-3, 150)
maybe_amount_st = st.none() | amounts_st
places_st = st.sampled_from(PLACES)
reasons_st = st.sampled_from(list(Reason))

operations = st.one_of(
    st.tuples(st.just("pay"), seats_st, places_st | seats_st, amounts_st, reasons_st),
    st.tuples(st.just("collect"), places_st, seats_st, maybe_amount_st),
    st.tuples(st.just("move"), places_st, places_st, maybe_amount_st),
    st.tuples(
        st.just("split"),
        places_st,
        st.lists(seats_st, max_size=4, unique=True),
        st.sampled_from(list(OddChipRule)),
    ),
    st.tuples(st.just("limit"), st.integers(-1, 120)),
    st.tuples(st.just("refill"), st.integers(-1, 120)),
    st.tuples(st.just("buy_in"), seats_st, amounts_st),
    st.tuples(st.just("cash_out"), seats_st, maybe_amount_st),
    st.tuples(st.just("button")),
)


def apply(table: Table, op: tuple[Any, ...]) -> int:
    """Apply one operation; return the change it makes to the chips bought in."""
    kind, *args = op
    if kind == "pay":
        seat, to, amount, reason = args
        paid = table.pay(seat, to, amount, reason)
        assert paid == amount or (
            not table.credit and 0 <= paid < amount and table.stack(seat) == 0
        )
        return 0
    if kind == "collect":
        table.collect(args[0], args[1], args[2])
    elif kind == "move":
        table.move(args[0], args[1], args[2], Reason.SET_ASIDE)
    elif kind == "split":
        shares = table.split(args[0], args[1], rule=args[2])
        assert max(shares.values()) - min(shares.values()) <= 1
    elif kind == "limit":
        table.apply_pot_limit(args[0])
        assert table.pot <= args[0]
    elif kind == "refill":
        table.refill_pot_from_reserve(args[0])
    elif kind == "buy_in":
        table.buy_in(args[0], args[1])
        return int(args[1])
    elif kind == "cash_out":
        return -table.cash_out(args[0], args[1])
    else:
        table.move_button()
    return 0


@settings(max_examples=150, deadline=None)
@given(
    players=st.integers(2, 10),
    stacks=st.data(),
    credit=st.booleans(),
    rule=st.sampled_from(list(OddChipRule)),
    ops=st.lists(operations, max_size=40),
)
def test_chips_are_conserved_and_the_ledger_replays(
    players: int, stacks: st.DataObject, credit: bool, rule: OddChipRule, ops: list[Any]
) -> None:
    chips = stacks.draw(st.lists(st.integers(0, 200), min_size=players, max_size=players))
    names = [f"P{i}" for i in range(players)]
    table = Table(list(zip(names, chips, strict=True)), credit=credit, odd_chips=rule)
    bought = sum(chips)
    for op in ops:
        before = state(table)
        try:
            bought += apply(table, op)
        except TableError:
            assert state(table) == before
        on_table = sum(s.stack for s in table.seats) + sum(table.places.values())
        assert on_table == bought == table.total_bought_in
        assert all(n > 0 for n in table.places.values())
        assert credit or all(s.stack >= 0 for s in table.seats)
        assert all(t.amount > 0 or t.shortfall > 0 for t in table.ledger)
    table.check_invariant()
    again = Table.from_snapshot(json.loads(json.dumps(table.snapshot())))
    assert again.snapshot() == table.snapshot()
