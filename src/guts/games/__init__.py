"""Game families as state machines; :mod:`guts.games.base` is the contract they share."""

from __future__ import annotations

from guts.games.base import (
    Decision,
    Event,
    EventError,
    Session,
    events_from_json,
    events_to_json,
    register_event,
    visible_to,
)

__all__ = [
    "Decision",
    "Event",
    "EventError",
    "Session",
    "events_from_json",
    "events_to_json",
    "register_event",
    "visible_to",
]
