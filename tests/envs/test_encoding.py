"""The shared encoding: decisions onto the fixed action space, views onto the vector."""

from __future__ import annotations

import numpy as np
import pytest

from guts.betting import Legal
from guts.catalog import find_game
from guts.envs.encoding import CARDS, Encoder, Layout, card_index
from guts.errors import GutsError, IllegalAction
from guts.games.decision import Decision, Discard, PlayCard, Wager


def layout(preset: str, seats: int = 3) -> Layout:
    game = find_game(preset)
    return Layout.for_rules(game.family, game.rules(), seats)


def test_card_slots_are_the_card_codes() -> None:
    assert [card_index(c) for c in ("2c", "2s", "As", "Jk")] == [0, 3, 51, 52]
    with pytest.raises(GutsError, match="not a card code"):
        card_index("1x")


def test_each_family_has_a_fixed_action_space() -> None:
    assert layout("two-card-guts").names == ("in", "out", "high", "low", "both")
    assert layout("nuts").names == ("in", "out", "in-turn", "simultaneous")
    bourre = layout("bourre")
    assert bourre.names[:7] == ("play", "fold", "card 0", "card 1", "card 2", "card 3", "card 4")
    assert bourre.size == 2 + 5 + 2**5
    draw, seven = layout("five-card-draw"), layout("seven-card-draw")
    assert draw.size == 2 + 11 + 9 + 2**5  # take up/down, declarations, betting, discards
    assert seven.size == 2 + 11 + 9 + 2**7
    assert draw.names[13:22] == ("fold", "check", "call", "bet min", "bet mid", "bet max",
                                 "raise min", "raise mid", "raise max")  # fmt: skip


def test_bets_and_raises_come_in_the_least_middle_and_most_size() -> None:
    draw = layout("five-card-draw")
    ranged = Decision(1, Wager(Legal(1, True, True, 0, min_bet=10, max_bet=40)))
    assert sorted(draw.legal(ranged).values()) == ["bet 10", "bet 25", "bet 40", "check", "fold"]
    narrow = Decision(1, Wager(Legal(1, True, False, 5, min_raise_to=10, max_raise_to=11)))
    legal = {draw.names[n]: text for n, text in draw.legal(narrow).items()}
    assert legal == {
        "fold": "fold",
        "call": "call",
        "raise min": "raise 10",
        "raise max": "raise 11",
    }
    single = Decision(1, Wager(Legal(1, False, False, 5, min_raise_to=10, max_raise_to=10)))
    assert list(draw.legal(single).values()) == ["call", "raise 10"]


def test_discards_are_subsets_of_hand_positions() -> None:
    draw = layout("five-card-draw")
    hand = ("Ah", "Kd", "7c", "3s", "2h")
    up_to_three = Decision(0, Discard(hand, counts=(0, 1, 2, 3)))
    legal = draw.legal(up_to_three)
    assert len(legal) == 1 + 5 + 10 + 10
    start = draw.names.index("stand pat")
    assert legal[start] == "stand pat"
    assert legal[start + 0b10100] == "discard 7c 2h"
    assert draw.names[start + 0b10100] == "discard 2 4"
    all_for_one = Decision(0, Discard(hand, counts=(0, 1), extra=(hand,)))
    assert sorted(n - start for n in draw.legal(all_for_one)) == [0, 1, 2, 4, 8, 16, 31]


def test_a_card_is_played_by_its_position_in_the_hand() -> None:
    bourre = layout("bourre")
    decision = Decision(2, PlayCard(("As", "Kh", "9h"), allowed=("Kh", "9h")))
    assert bourre.mask(decision).tolist()[2:7] == [0, 1, 1, 0, 0]
    assert bourre.action(decision, 3) == "Kh"
    with pytest.raises(IllegalAction, match=r"legal are 3 \(card 1\), 4 \(card 2\)"):
        bourre.action(decision, 2)


def test_the_view_is_encoded_from_the_seats_own_place() -> None:
    game = layout("ghost-guts", seats=3)
    encoder = Encoder(game, chips=300)
    view = {
        "seat": 1, "stacks": [90, 100, 110], "pot": 30, "hand": ["As", "Kd"],
        "shown": {"0": ["2c", "3c"], "-1": ["Qh", "Qs"]},  # seat 0, and the ghost
        "declared": {"2": "in"}, "to_act": [1],
    }  # fmt: skip
    vector = encoder.encode(view, seat=1)
    assert vector.shape == (encoder.size,) and vector.dtype == np.float32
    sections, start = {}, 0
    for name, size in encoder.sections.items():
        sections[name] = vector[start : start + size]
        start += size
    hand = sections["hand"].reshape(game.hand, CARDS)
    assert hand[0, card_index("As")] == 1 and hand[1, card_index("Kd")] == 1
    seats = sections["seat_cards"].reshape(3, CARDS)
    assert seats[2, card_index("2c")] == 1  # seat 0 is two to the left of seat 1
    assert seats.sum() == 2
    assert sections["table_cards"][[card_index("Qh"), card_index("Qs")]].tolist() == [1, 1]
    per_seat = sections["seats"].reshape(3, -1)
    assert per_seat[:, 0].tolist() == pytest.approx([100 / 300, 110 / 300, 90 / 300])
    assert per_seat[1, 11] == 1  # seat 2 (the next one) said "in", the first word
    assert per_seat[0, 3] == 1  # seat 1 itself is to act
