"""``view(seat, events=False)`` is the view without its list of events, in every family
and in a night of dealer's choice (the server sends it to clients that have the events),
and ``views(seats)`` is each of those at once, whichever seat comes first.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from guts.catalog import find_game, games
from guts.errors import IllegalAction
from guts.games.base import Session
from guts.night import Night
from guts.night.rules import NightRules

PLAYERS = [(name, 40) for name in ("Ann", "Bob", "Cat", "Dee")]


def check_views(session: Session) -> None:
    seats: list[int | None] = [*range(len(session.table.names)), None]
    bares: dict[int | None, dict[str, Any]] = {}
    for seat in seats:
        if seat is None:
            full, bare = session.public_view(), session.public_view(events=False)
        else:
            full, bare = session.view(seat), session.view(seat, events=False)
        without: dict[str, Any] = {key: value for key, value in full.items() if key != "events"}
        assert bare == without and list(bare) == list(without)  # the same keys, in order
        assert "events" not in bare
        bares[seat] = bare
    for order in (seats, seats[::-1], [seats[-2], None, seats[0]]):
        at_once = session.views(order)
        assert list(at_once) == order
        for seat in order:
            assert at_once[seat] == bares[seat] and list(at_once[seat]) == list(bares[seat])


def play(session: Session, rng: random.Random, steps: int) -> None:
    check_views(session)
    for _ in range(steps):
        if session.is_over:
            return
        pending = session.pending()
        if not pending:
            session.start_deal()
        else:
            decision = rng.choice(pending)
            session.act(decision.seat, rng.choice(decision.actions))
        check_views(session)


@pytest.mark.parametrize("name", sorted(games()))
def test_a_view_without_events_is_the_view_less_its_events(name: str) -> None:
    rng = random.Random(name)
    play(find_game(name).new_session(PLAYERS, rng=rng), rng, 60)


def test_a_night_views_without_events_between_and_during_games() -> None:
    rng = random.Random(4)
    options = {"games": "two-card-guts,three-five-seven,bourre", "most-games": "3", "cap": "2"}
    night = Night(NightRules.from_options(None, options), PLAYERS, rng=rng)
    play(night, rng, 400)
    assert len(night.results) >= 2  # views between games and in several games were checked


@pytest.mark.parametrize("name", ["two-card-guts", "five-card-draw", "bourre"])
def test_views_of_a_seat_that_is_no_seat_is_an_error(name: str) -> None:
    session = find_game(name).new_session(PLAYERS, rng=random.Random(1))
    session.start_deal()
    for wrong in (True, 4, -1):
        with pytest.raises(IllegalAction):
            session.views([0, wrong])
