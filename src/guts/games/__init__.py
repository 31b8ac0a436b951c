"""Game families as state machines; :mod:`guts.games.base` is the contract they share,
:mod:`guts.games.session` the recorded, replayable session and :mod:`guts.games.options`
the rules-as-data option machinery every family builds on."""

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
from guts.games.options import RuleOptions
from guts.games.session import EndedEvent, MovedEvent, RecordedSession

__all__ = [
    "Decision",
    "EndedEvent",
    "Event",
    "EventError",
    "MovedEvent",
    "RecordedSession",
    "RuleOptions",
    "Session",
    "events_from_json",
    "events_to_json",
    "register_event",
    "visible_to",
]
