"""``view(seat, events=False)`` is the view without its list of events, in every family
and in a night of dealer's choice (the server sends it to clients that have the events).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from guts.catalog import find_game, games
from guts.games.base import Session
from guts.night import Night
from guts.night.rules import NightRules

PLAYERS = [(name, 40) for name in ("Ann", "Bob", "Cat", "Dee")]


def check_views(session: Session) -> None:
    seats: list[int | None] = [*range(len(session.table.names)), None]
    for seat in seats:
        if seat is None:
            full, bare = session.public_view(), session.public_view(events=False)
        else:
            full, bare = session.view(seat), session.view(seat, events=False)
        without: dict[str, Any] = {key: value for key, value in full.items() if key != "events"}
        assert bare == without and list(bare) == list(without)  # the same keys, in order
        assert "events" not in bare


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
