"""At table stakes a player without chips sits out: they are not dealt in, and they do
not deal either. The button passes to the next player with chips, in every family."""

from __future__ import annotations

import itertools
import random

import pytest

from guts.catalog import find_game

GAMES = ["two-card-guts", "three-five-seven", "five-card-draw", "bourre"]


def dealers(game: str, stacks: list[int], deals: int) -> list[int]:
    """The dealer of each of the first ``deals`` deals (random legal play between them)."""
    players = [(name, stack) for name, stack in zip("ABCD", stacks, strict=True)]
    session = find_game(game).new_session(
        players, options={"credit": "no"}, rng=random.Random(7)
    )
    rng = random.Random(3)
    seen: list[int] = []
    while len(seen) < deals and not session.is_over:
        session.start_deal()
        if session.is_over:
            break
        seen.append(session.table.button)
        assert session.table.stack(seen[-1]) > 0 or not session.deal_over
        while not session.deal_over:
            decision = session.pending()[0]
            session.act(decision.seat, rng.choice(decision.actions))
    return seen


@pytest.mark.parametrize("game", GAMES)
def test_a_broke_player_on_the_button_does_not_deal(game: str) -> None:
    first = dealers(game, [0, 50, 50, 50], 1)
    assert first == [1]


@pytest.mark.parametrize("game", GAMES)
def test_the_button_skips_a_broke_player(game: str) -> None:
    seen = dealers(game, [50, 50, 0, 50], 6)
    assert seen, "at least one deal is played"
    assert 2 not in seen
    for before, after in itertools.pairwise(seen):
        assert after == {0: 1, 1: 3, 3: 0}[before]


@pytest.mark.parametrize("game", GAMES)
def test_a_broke_player_is_not_dealt_in(game: str) -> None:
    session = find_game(game).new_session(
        [("A", 0), ("B", 50), ("C", 50)], options={"credit": "no"}, rng=random.Random(1)
    )
    session.start_deal()
    assert session.table.button == 1
    assert 0 not in session.view(1)["to_act"]


@pytest.mark.parametrize("game", GAMES)
def test_a_session_with_a_broke_dealer_replays(game: str) -> None:
    session = find_game(game).new_session(
        [("A", 0), ("B", 50), ("C", 50)], options={"credit": "no"}, rng=random.Random(1)
    )
    rng = random.Random(5)
    for _ in range(3):
        if session.is_over:
            break
        session.start_deal()
        while not session.deal_over:
            decision = session.pending()[0]
            session.act(decision.seat, rng.choice(decision.actions))
    again = type(session).replay(session.record())
    assert again.events == session.events


@pytest.mark.parametrize(
    ("game", "hands"),
    [
        ("two-card-guts", {1: "As Ad", 2: "Kc Kd"}),
        ("three-five-seven", {1: "As Ad 2c 3c 4c 5c 6c", 2: "Kc Kd 3h 4h 5h 6h 7h"}),
        ("five-card-draw", {1: "As Ad Ac 2d 3d", 2: "Kc Kd Kh 4s 5s"}),
        ("bourre", {1: "As Ks Qs Js 9h", 2: "2c 3c 4c 5c 6c"}),
    ],
)
def test_a_stacked_deck_deals_as_if_the_next_player_with_chips_deals(
    game: str, hands: dict[int, str]
) -> None:
    session = find_game(game).new_session(
        [("A", 0), ("B", 50), ("C", 50)], options={"credit": "no"}, rng=random.Random(1)
    )
    session.start_deal(session.stacked(hands))
    assert session.table.button == 1
    for seat, hand in hands.items():
        shown = session.view(seat)["hand"]  # Three Five Seven shows the stage's cards
        assert shown and set(shown) <= set(hand.split())
