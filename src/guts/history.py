"""Hand histories: a session's record as JSON lines, and replay.

The first line is the header: the format tag, the preset played, and the family's record
without its events (rules, players with their starting stacks, the first dealer). Every
further line is one event, hidden ones included (the deck orders are what replays use).
Replaying feeds the record to the family's ``replay``, which re-deals the recorded decks,
re-applies every action and checks the events come out identical. A night of dealer's
choice (:class:`~guts.night.Night`) is one history too: its header is the night's rules
and players, its events every game's, each game replayed by its family.

>>> import io, random
>>> from guts.catalog import find_game
>>> session = find_game("two-card-guts").new_session(["Ann", "Bob"], buy_in=20,
...                                                   rng=random.Random(2))
>>> session.start_deal(); _ = session.act(1, "out")
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
from guts.night import Night

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
    """Read a JSON-lines hand history (errors name the line; blank lines are skipped).

    Only the shape is checked here: a header object, then one JSON object per event;
    :func:`replay` checks the rest."""
    try:
        text = source.read()
    except UnicodeDecodeError as error:
        raise HistoryError(f"the history file is not UTF-8 text ({error.reason})") from None
    lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if not lines:
        raise HistoryError("the history file is empty")
    first, line = lines[0]
    header = _json_object(first, line)
    if header.get("format") != FORMAT:
        raise HistoryError(f"line {first} is not a {FORMAT} header (its format is "
                           f"{json.dumps(header.get('format'))[:40]})")  # fmt: skip
    preset = header.get("preset", "")
    if not isinstance(preset, str):
        raise HistoryError(f"line {first}: the header's preset must be a string")
    events = [_json_object(number, line) for number, line in lines[1:]]
    record = {k: v for k, v in header.items() if k not in ("format", "preset")}
    record["events"] = events
    return History(preset, record)


def _json_object(number: int, line: str) -> dict[str, Any]:
    """Line ``number`` of a history, which must hold one JSON object."""
    try:
        value = json.loads(line)
    except json.JSONDecodeError as error:
        raise HistoryError(f"line {number} is not JSON: {error.msg}") from None
    except RecursionError:
        raise HistoryError(f"line {number} is nested too deeply") from None
    if not isinstance(value, dict):
        raise HistoryError(f"line {number} is not a JSON object")
    return value


def replay(history: History) -> Session:
    """The session the history records, rebuilt and checked event by event (a night of
    dealer's choice: every game of it, and every choice)."""
    try:
        if history.record.get("game") == Night.game:
            return Night.replay(history.record)
        return replay_record(history.record)
    except GutsError:
        raise
    except (KeyError, TypeError, ValueError) as error:
        raise HistoryError(f"the history does not replay: {error}") from None
