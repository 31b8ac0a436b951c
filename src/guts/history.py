"""Hand histories: a session's record as JSON lines, and replay.

The first line is the header: the format tag, the preset played, and the family's record
without its events (rules, players with their starting stacks, the first dealer). Every
further line is one event, hidden ones included (the deck orders are what replays use).
Replaying feeds the record to the family's ``replay``, which re-deals the recorded decks,
re-applies every action and checks the events come out identical.

>>> import io, random
>>> from guts.catalog import find_game
>>> session = find_game("two-card-guts").new_session(["Ann", "Bob"], buy_in=20,
...                                                   rng=random.Random(2))
>>> session.start_deal(); session.act(1, "out")
>>> buffer = io.StringIO()
>>> write_history(buffer, session, "two-card-guts")
>>> _ = buffer.seek(0)
>>> replay(read_history(buffer)).events == session.events
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import IO, Any

from guts.catalog import replay_record
from guts.errors import GutsError
from guts.games.base import Session

__all__ = ["FORMAT", "History", "HistoryError", "read_history", "replay", "write_history"]

FORMAT = "guts-history/1"


class HistoryError(GutsError):
    """A hand-history file that cannot be read or does not replay."""


@dataclass(frozen=True)
class History:
    """A hand history read back: the preset's name and the family's record."""

    preset: str
    record: dict[str, Any]


def history_lines(session: Session, preset: str) -> Iterable[str]:
    """The JSON lines of a session's history."""
    record = session.record()
    header = {key: value for key, value in record.items() if key != "events"}
    yield json.dumps({"format": FORMAT, "preset": preset, **header})
    for event in record["events"]:
        yield json.dumps(event)


def write_history(out: IO[str], session: Session, preset: str) -> None:
    """Write ``session`` as a JSON-lines hand history."""
    for line in history_lines(session, preset):
        out.write(line + "\n")


def read_history(source: IO[str]) -> History:
    """Read a JSON-lines hand history (errors name the line)."""
    lines = [line for line in source.read().splitlines() if line.strip()]
    if not lines:
        raise HistoryError("the history file is empty")
    try:
        header = json.loads(lines[0])
    except json.JSONDecodeError as error:
        raise HistoryError(f"line 1 is not JSON: {error.msg}") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise HistoryError(f"line 1 is not a {FORMAT} header")
    events = []
    for number, line in enumerate(lines[1:], start=2):
        try:
            events.append(json.loads(line))
        except json.JSONDecodeError as error:
            raise HistoryError(f"line {number} is not JSON: {error.msg}") from None
    record = {k: v for k, v in header.items() if k not in ("format", "preset")}
    record["events"] = events
    return History(str(header.get("preset", "")), record)


def replay(history: History) -> Session:
    """The session the history records, rebuilt and checked event by event."""
    try:
        return replay_record(history.record)
    except GutsError:
        raise
    except (KeyError, TypeError, ValueError) as error:
        raise HistoryError(f"the history does not replay: {error}") from None
