"""A night's record cut into its games, and the checks of a replay.

The night's events hold each game's record whole: a ``night-game-started`` event (the
family, rules, players and first dealer: the game's record header), then the game's own
events up to the next night event. :func:`game_records` cuts them out, so that each
game replays through its family (every event checked).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from guts.catalog import FAMILIES
from guts.games.base import Event, EventError
from guts.night.events import GameStarted

__all__ = ["NIGHT", "first_difference", "game_records", "read_events", "record_players"]

NIGHT = "night-"
"""How the kind of every night event starts."""


def record_players(players: object) -> list[tuple[str, int]]:
    """A record's ``players``: ``[name, stack]`` pairs."""
    if not isinstance(players, list | tuple) or not all(
        isinstance(p, list | tuple) and len(p) == 2 and isinstance(p[0], str)
        and isinstance(p[1], int) and not isinstance(p[1], bool) for p in players
    ):  # fmt: skip
        raise EventError("bad night record: players must be a list of [name, stack] pairs")
    return [(str(p[0]), int(p[1])) for p in players]


def read_events(data: object) -> list[Event | Mapping[str, Any]]:
    """A night record's events: the night's own read (and checked) as events, each
    game's left as the JSON objects its family's replay reads and checks."""
    if not isinstance(data, list | tuple):
        raise EventError("bad night record: events must be a list of event objects")
    events: list[Event | Mapping[str, Any]] = []
    for number, item in enumerate(data, start=1):
        kind = item.get("kind") if isinstance(item, Mapping) else None
        if not isinstance(kind, str):
            raise EventError(f"event {number}: an event must be an object with a 'kind'")
        try:
            events.append(Event.from_dict(item) if kind.startswith(NIGHT) else item)
        except EventError as error:
            raise EventError(f"event {number}: {error}") from None
    return events


def game_records(events: Sequence[Event | Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Each game's own record, cut from the night's events (events, or a game's events
    as JSON objects): its header from ``night-game-started``, its events up to the next
    night event."""
    records: list[dict[str, Any]] = []
    current: list[Any] | None = None
    for event in events:
        kind = event.kind if isinstance(event, Event) else str(event["kind"])
        if isinstance(event, GameStarted):
            current = []
            records.append({
                "preset": event.game, "game": event.family, "rules": dict(event.rules),
                "players": [list(p) for p in event.players], "button": event.button,
                "events": current,
            })  # fmt: skip
        elif kind.startswith(NIGHT):
            current = None
        elif current is not None:
            current.append(event.to_dict() if isinstance(event, Event) else event)
        else:
            raise EventError(f"a {kind} event outside any game")
    for entry in records:
        if entry["game"] not in FAMILIES:
            raise EventError(f"unknown game family {entry['game']!r}")
    return records


def first_difference(
    made: Sequence[Event], recorded: Sequence[Event | Mapping[str, Any]]
) -> str | None:
    """Where the events a replay made first part from the recorded ones, in words (None
    if they agree): the night's own events compared whole, each game's by kind (its
    family's replay has compared them whole)."""
    for number, (mine, theirs) in enumerate(zip(made, recorded, strict=False), start=1):
        kind = theirs.kind if isinstance(theirs, Event) else theirs["kind"]
        if mine.kind != kind:
            return f"event {number} is {kind}, the replay makes {mine.kind}"
        if isinstance(theirs, Event) and mine != theirs:
            return f"event {number} ({kind}) is not what the replay makes"
    if len(made) != len(recorded):
        return f"the record has {len(recorded)} events, the replay makes {len(made)}"
    return None
