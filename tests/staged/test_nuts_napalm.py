"""Nuts and Napalm, sentence by sentence, with stacked decks.

Sections of the Guts rule text held here: the encyclopedia's Nuts (``test_nuts_*``: the
stake from each player, the two-card low start, the high-low-high later cards, the nuts
that carry across rounds) and Napalm from the three-stage games (``test_napalm_*``).
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from staged_helpers import declare, session, start

from guts.games.staged import Declare, LowPairs, StagedRules, StagedSession, preset
from guts.games.staged.events import CardsShown, Outcome, PointScored
from guts.table import Reason

NUTS = replace(preset("nuts"), declare=Declare.IN_TURN)  # in turn: easier to drive
NAPALM = preset("napalm")


def _winner(s: StagedSession) -> tuple[int, ...]:
    return next(e for e in reversed(s.events) if isinstance(e, Outcome)).winners


def _compare_at(rules: StagedRules, stage: int, a: str, b: str) -> tuple[int, ...]:
    """Both players are out until ``stage`` (1-based), then both in: the winners."""
    s = session(rules, players=2, button=1)
    start(s, [a, b])
    for _ in range(stage - 1):
        declare(s, ("out", "out"))
    declare(s, ("in", "in"))
    return _winner(s)


def test_nuts_everyone_puts_in_the_amount_and_declares_at_once() -> None:
    s = session(preset("nuts"), players=5)
    start(
        s,
        ["2c 3c 4c 5c 6c", "2d 3d 4d 5d 6d", "2h 3h 4h 5h 6h", "2s 3s 4s 5s 6s", "Ac Ad Ah As Kc"],
    )
    assert s.table.pot == 5
    assert len(s.pending()) == 5 and all(d.simultaneous for d in s.pending())
    assert all(len(s.view(i)["hand"]) == 2 for i in range(5))


@pytest.mark.parametrize(
    ("a", "b", "winner"),
    [
        ("2c 3d", "5h 7s", 0),  # two cards: the lowest wins
        ("Ac 2d", "2h 3s", 0),  # aces are low
        ("9c 9d", "Ac 2d", 0),  # pairs are strong
        ("Kc Kd", "9h 9s", 0),  # between pairs, high order
    ],
)
def test_nuts_two_cards_lowest_wins_pairs_strong(a: str, b: str, winner: int) -> None:
    assert _compare_at(NUTS, 1, a + " Jh Qh Th", b + " Js Qs Ts") == (winner,)


def test_nuts_pairs_bad_reading() -> None:
    bad = replace(NUTS, low_pairs=LowPairs.BAD)
    assert _compare_at(bad, 1, "9c 9d 4h 5h 6h", "Kc Qd 7c 8c Tc") == (1,)
    assert "bad" in bad.describe() and "strong" in NUTS.describe()


def test_nuts_third_card_highest_fourth_lowest_fifth_highest() -> None:
    # third card: A has 2-3-K (king high), B 5-7-Q: the highest wins
    assert _compare_at(NUTS, 2, "2c 3d Kh 4s 6s", "5h 7s Qd 8c 9c") == (0,)
    # fourth card: A 2-3-K-4, B 5-7-Q-8: the lowest (here king high against queen) loses
    assert _compare_at(NUTS, 3, "2c 3d Kh 4s 6s", "5h 7s Qd 8c 9c") == (1,)
    # fifth card: A flush, B straight: the highest wins
    assert _compare_at(NUTS, 4, "2c 5c 9c Jc Kc", "5h 6s 7d 8c 9d") == (0,)


def test_nuts_lone_player_gets_a_nut_two_in_the_loser_pays_the_winner_the_pot() -> None:
    s = session(NUTS, players=3)
    start(s, ["2c 3d Kh 4s 6s", "5h 7s Qd 8c 9c", "Th Js Ad Ac As"])
    declare(s, ("in", "out", "out"))
    assert s.points == {0: 1}
    assert any(isinstance(e, PointScored) and e.word == "nut" for e in s.events)
    declare(s, ("in", "in", "out"))  # third card: A king high beats B queen high
    shown = [e for e in s.events if isinstance(e, CardsShown)]
    assert shown and all(e.audience is None for e in shown)
    assert s.table.stack(1) == 100 - 1 - 3 and s.table.stack(0) == 100 - 1 + 3
    assert s.table.ledger[-1].reason is Reason.PAY_WINNER and s.table.pot == 3
    assert s.points == {0: 1}  # two in: neither gets a nut


def test_nuts_three_nuts_take_the_pot_and_nuts_carry_into_new_rounds() -> None:
    s = session(NUTS, players=3)
    hands = ["2c 3d Kh 4s 6s", "5h 7s Qd 8c 9c", "Th Js Ad Ac As"]
    start(s, hands)
    declare(s, ("in", "out", "out"))
    declare(s, ("out", "out", "in"))
    declare(s, ("out", "out", "out"))
    declare(s, ("in", "out", "out"))
    assert s.deal_over and not s.is_over and s.points == {0: 2, 2: 1}
    start(s, hands)  # a new round: everyone adds the amount again
    assert s.table.pot == 6 and s.points == {0: 2, 2: 1}
    order = s.table.turn_order()
    choices = ["out"] * 3
    choices[0] = "in"
    assert order[0] == 1
    declare(s, choices)
    assert s.is_over and s.table.stack(0) == 100 - 2 + 6 and "3 nuts" in s.over_reason


def test_napalm_two_cards_high_five_low_seven_high() -> None:
    # stage one (high): a pair beats ace-king
    assert _compare_at(NAPALM, 1, "2c 2d 9h 8h 7h Kc Qc", "Ac Kd 3s 4s 5s Ks Qs") == (0,)
    # stage two (low, ace-to-five): A-2-3-4-5 beats 6-4-3-2-A; a pair is bad
    assert _compare_at(NAPALM, 2, "Ac 2d 3h 4h 5c Kc Qc", "Ad 2h 3s 4s 6s Ks Qs") == (0,)
    assert _compare_at(NAPALM, 2, "Ac Ad 3h 4h 5c Kc Qc", "Kd Qh Js 9s 8s Ks Qs") == (1,)
    # stage three (high, best five of seven): a pair of kings beats ace high
    assert _compare_at(NAPALM, 3, "Ac 2d 3h 4h 6c Tc 9c", "Ad 2h 3s 4s 6s Ks Kh") == (1,)


def test_napalm_private_stages_and_legs() -> None:
    s = session(NAPALM, players=3)
    start(s, ["2c 2d 9h 8h 7h Kc Qc", "Ac Kd 3s 4s 5s Ks Qs", "Th Js 6d 6c 6h 5d 5h"])
    declare(s, ("in", "in", "out"))
    assert all(e.audience == (0, 1) for e in s.events if isinstance(e, CardsShown))
    declare(s, ("out", "out", "in"))
    assert s.points == {2: 1}
    declare(s, ("in", "in", "in"))
    last = [e for e in s.events if isinstance(e, CardsShown)][-3:]
    assert all(e.audience is None for e in last)
    text = NAPALM.describe()
    for words in (
        "2-card hands, high",
        "5-card hands, low",
        "7-card hands, high",
        "ace-to-five",
        "No wild",
    ):
        assert words in text
