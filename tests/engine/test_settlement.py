"""Settling up: the fewest payments that square every net, checked against a brute force
that tries every way to split the players into groups that square among themselves."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guts.table import EXACT_SETTLEMENT_UP_TO, TableError, settling_payments

Payments = tuple[tuple[str, str, int], ...]


def nets(amounts: Sequence[int]) -> dict[str, int]:
    """Players P0, P1, ... with ``amounts``, and a last player who makes them add up to 0."""
    net = {f"P{n}": amount for n, amount in enumerate(amounts)}
    net[f"P{len(amounts)}"] = -sum(amounts)
    return net


def squared(net: Mapping[str, int], payments: Payments) -> dict[str, int]:
    """The nets once every payment is made."""
    left = dict(net)
    for payer, payee, amount in payments:
        left[payer] += amount
        left[payee] -= amount
    return left


def most_groups(amounts: list[int]) -> int:
    """The most groups adding up to zero that ``amounts`` (adding up to zero) split
    into: the group of the first amount is tried with every choice of the others."""
    if not amounts:
        return 0
    first, rest = amounts[0], amounts[1:]
    best = 0
    for choice in range(1 << len(rest)):
        group = [rest[i] for i in range(len(rest)) if choice >> i & 1]
        if first + sum(group) == 0:
            others = [rest[i] for i in range(len(rest)) if not choice >> i & 1]
            best = max(best, 1 + most_groups(others))
    return best


def fewest(net: Mapping[str, int]) -> int:
    """The fewest payments, by brute force: every payment joins two players, so the
    players a settlement connects are groups adding up to zero."""
    amounts = [n for n in net.values() if n]
    return len(amounts) - most_groups(amounts)


def test_a_loser_pays_two_winners_and_the_other_loser_one() -> None:
    # The biggest loser paying the biggest winner first takes 4 payments here.
    net = {"A": -7, "B": -5, "C": 4, "D": 3, "E": 5}
    assert settling_payments(net) == (("A", "C", 4), ("A", "D", 3), ("B", "E", 5))


def test_a_winner_and_a_loser_of_the_same_amount_settle_alone() -> None:
    net = {"Ann": -6, "Bob": -4, "Cy": 5, "Di": 4, "Ed": 1}
    assert settling_payments(net) == (("Ann", "Cy", 5), ("Ann", "Ed", 1), ("Bob", "Di", 4))


def test_players_who_are_square_pay_nothing() -> None:
    assert settling_payments({"Ann": 0, "Bob": 0}) == ()
    assert settling_payments({"Ann": 3, "Bob": 0, "Cy": -3}) == (("Cy", "Ann", 3),)


def test_nets_that_do_not_add_up_to_zero_are_refused() -> None:
    with pytest.raises(TableError, match=r"add up to -3"):
        settling_payments({"Ann": -3, "Bob": -3, "Cy": 3})


def test_the_fewest_payments_are_exact_up_to_the_limit() -> None:
    # Five losers, each squared by two winners: 15 players settle in 10 payments (the
    # biggest loser paying the biggest winner first takes 13).
    groups = [(-31, 17, 14), (-28, 16, 12), (-26, 14, 12), (-19, 1, 18), (-38, 18, 20)]
    net = {
        f"{name}{k}": n
        for k, group in enumerate(groups)
        for name, n in zip("LWV", group, strict=True)
    }
    assert len(net) == 15 <= EXACT_SETTLEMENT_UP_TO
    payments = settling_payments(net)
    assert set(squared(net, payments).values()) == {0}
    assert len(payments) == 10


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-12, 12), max_size=7))
def test_the_payments_are_the_fewest_that_square_every_net(amounts: list[int]) -> None:
    net = nets(amounts)
    payments = settling_payments(net)
    assert set(squared(net, payments).values()) <= {0}
    assert all(amount > 0 and net[payer] < 0 < net[payee] for payer, payee, amount in payments)
    players = sum(1 for n in net.values() if n)
    assert len(payments) <= max(players - 1, 0)
    assert len(payments) == fewest(net)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(-30, 30), max_size=12))
def test_the_payments_are_the_same_each_time_in_the_players_order(amounts: list[int]) -> None:
    net = nets(amounts)
    payments = settling_payments(net)
    assert settling_payments(dict(net)) == payments
    order = list(net)
    keys = [(order.index(payer), order.index(payee)) for payer, payee, _ in payments]
    assert keys == sorted(set(keys))


def test_past_the_limit_winners_and_losers_of_the_same_amount_still_settle_alone() -> None:
    net = {f"L{k}": -k for k in range(1, 11)} | {f"W{k}": k for k in range(10, 0, -1)}
    assert len(net) > EXACT_SETTLEMENT_UP_TO
    assert settling_payments(net) == tuple((f"L{k}", f"W{k}", k) for k in range(1, 11))


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(-100, 100).filter(bool), min_size=EXACT_SETTLEMENT_UP_TO + 1,
                max_size=40))  # fmt: skip
def test_past_the_limit_the_payments_still_square_every_net(amounts: list[int]) -> None:
    net = nets(amounts)
    payments = settling_payments(net)
    assert set(squared(net, payments).values()) <= {0}
    assert all(amount > 0 and net[payer] < 0 < net[payee] for payer, payee, amount in payments)
    assert len(payments) <= sum(1 for n in net.values() if n) - 1
