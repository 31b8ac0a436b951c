"""A night's record cut into its games, and the checks of a replay.

The night's events hold each game's record whole: a ``night-game-started`` event (the
family, rules, players and first dealer: the game's record header), then the game's own
events up to the next night event. :func:`game_records` cuts them out, so that each
game replays through its family (every event checked).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from guts.catalog import FAMILIES
from guts.games.base import Event, EventError, events_to_json
from guts.night.events import GameStarted

__all__ = ["first_difference", "game_records", "record_players"]


def record_players(players: object) -> list[tuple[str, int]]:
    """A record's ``players``: ``[name, stack]`` pairs."""
    if not isinstance(players, list | tuple) or not all(
        isinstance(p, list | tuple) and len(p) == 2 and isinstance(p[0], str)
        and isinstance(p[1], int) and not isinstance(p[1], bool) for p in players
    ):  # fmt: skip
        raise EventError("bad night record: players must be a list of [name, stack] pairs")
    return [(str(p[0]), int(p[1])) for p in players]


def game_records(events: Sequence[Event]) -> list[dict[str, Any]]:
    """Each game's own record, cut from the night's events: its header from
    ``night-game-started``, its events up to the next night event."""
    records: list[dict[str, Any]] = []
    current: list[Event] | None = None
    for event in events:
        if isinstance(event, GameStarted):
            current = []
            records.append({
                "preset": event.game, "game": event.family, "rules": dict(event.rules),
                "players": [list(p) for p in event.players], "button": event.button,
                "events": current,
            })  # fmt: skip
        elif event.kind.startswith("night-"):
            current = None
        elif current is not None:
            current.append(event)
        else:
            raise EventError(f"a {event.kind} event outside any game")
    for entry in records:
        entry["events"] = events_to_json(entry["events"])
        if entry["game"] not in FAMILIES:
            raise EventError(f"unknown game family {entry['game']!r}")
    return records


def first_difference(made: Sequence[Event], recorded: Sequence[Event]) -> str:
    """Where the events a replay made first part from the recorded ones, in words."""
    for number, (mine, theirs) in enumerate(zip(made, recorded, strict=False), start=1):
        if mine != theirs:
            if mine.kind != theirs.kind:
                return f"event {number} is {theirs.kind}, the replay makes {mine.kind}"
            return f"event {number} ({theirs.kind}) is not what the replay makes"
    return f"the record has {len(recorded)} events, the replay makes {len(made)}"
