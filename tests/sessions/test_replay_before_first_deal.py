"""A session's record replays at every point, even before anything has happened: a
server killed just after a game of the night was chosen stores such a record."""

from __future__ import annotations

import json

import pytest

from guts.catalog import find_game, games, replay_record

PLAYERS = [(name, 50) for name in ("Ann", "Bob", "Cat", "Dee")]  # every preset seats four


@pytest.mark.parametrize("name", sorted(games()))
def test_a_record_with_nothing_dealt_yet_replays(name: str) -> None:
    session = find_game(name).new_session(PLAYERS)
    again = replay_record(json.loads(json.dumps(session.record())))
    assert again.events == session.events
    assert [again.view(seat) for seat in range(4)] == [session.view(seat) for seat in range(4)]
    assert again.public_view() == session.public_view()
    assert again.pending() == session.pending()
