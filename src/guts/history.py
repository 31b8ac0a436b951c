"""Hand histories: a session's record as JSON lines, and replay.

The first line is the header: the format tag, the preset played, and the family's record
without its events (rules, players with their starting stacks, the first dealer). Every
further line is one event, hidden ones included (the deck orders are what replays use).
Replaying feeds the record to the family's ``replay``, which re-deals the recorded decks,
re-applies every action and checks the events come out identical. A night of dealer's
choice (:class:`~guts.night.Night`) is one history too: its header is the night's rules
and players, its events every game's, each game replayed by its family.

A file may hold several histories, each from its own header line: a server's download
holds every session of a table's night. A download is *redacted* (``"redacted": true``
and the ``"viewer"`` seat in its header): it has only the events its viewer could see, no
deck orders, so it cannot be re-dealt; :func:`told_events` reads its events for telling
instead, each checked for its shape but not replayed.

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
from guts.games.base import Event, EventError, Session
from guts.night import Night

__all__ = [
    "FORMAT",
    "History",
    "HistoryError",
    "read_histories",
    "read_history",
    "replay",
    "told_events",
    "write_history",
]

FORMAT = "guts-history/1"


class HistoryError(GutsError):
    """A hand-history file that cannot be read or does not replay."""


@dataclass(frozen=True)
class History:
    """A hand history read back: the preset's name and the family's record."""

    preset: str
    record: dict[str, Any]
    line: int = 1
    """The header's line in the file."""
    event_lines: tuple[int, ...] = ()
    """Each event's line in the file (empty: not read from a file)."""

    @property
    def redacted(self) -> bool:
        """True for a download that holds only what one seat (or a spectator) saw."""
        return self.record.get("redacted") is True

    @property
    def viewer(self) -> int | None:
        """The seat a redacted history was written for (None: a spectator's)."""
        seat = self.record.get("viewer")
        return seat if isinstance(seat, int) and not isinstance(seat, bool) else None

    @property
    def names(self) -> list[str]:
        """The players' names, from the header (HistoryError when it has none)."""
        players = self.record.get("players")
        if not isinstance(players, list) or not players:
            raise HistoryError(f"line {self.line}: the header lists no players")
        names = [p[0] if isinstance(p, list) and p else None for p in players]
        if not all(isinstance(name, str) for name in names):
            raise HistoryError(f"line {self.line}: each player must be [name, stack]")
        return [str(name) for name in names]


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
    """Read a JSON-lines hand history of one session (errors name the line; blank lines
    are skipped); a file of several is a HistoryError (see :func:`read_histories`).

    Only the shape is checked here: a header object, then one JSON object per event;
    :func:`replay` checks the rest."""
    histories = read_histories(source)
    if len(histories) > 1:
        raise HistoryError(f"the file holds {len(histories)} histories, not one "
                           f"(the second starts at line {histories[1].line})")  # fmt: skip
    return histories[0]


def read_histories(source: IO[str]) -> list[History]:
    """Every history in a JSON-lines file, in order: each from a header line (an object
    with the ``format`` tag) up to the next (errors name the line)."""
    try:
        text = source.read()
    except UnicodeDecodeError as error:
        raise HistoryError(f"the history file is not UTF-8 text ({error.reason})") from None
    lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if not lines:
        raise HistoryError("the history file is empty")
    objects = [(number, _json_object(number, line)) for number, line in lines]
    first, header = objects[0]
    if header.get("format") != FORMAT:
        raise HistoryError(f"line {first} is not a {FORMAT} header (its format is "
                           f"{json.dumps(header.get('format'))[:40]})")  # fmt: skip
    starts = [i for i, (_, value) in enumerate(objects) if "format" in value]
    ends = [*starts[1:], len(objects)]
    return [_history(objects[start:end]) for start, end in zip(starts, ends, strict=True)]


def _history(objects: list[tuple[int, dict[str, Any]]]) -> History:
    """One history from its header and event objects (with their line numbers)."""
    first, header = objects[0]
    if header.get("format") != FORMAT:
        raise HistoryError(f"line {first} is not a {FORMAT} header (its format is "
                           f"{json.dumps(header.get('format'))[:40]})")  # fmt: skip
    preset = header.get("preset", "")
    if not isinstance(preset, str):
        raise HistoryError(f"line {first}: the header's preset must be a string")
    record = {k: v for k, v in header.items() if k not in ("format", "preset")}
    record["events"] = [value for _, value in objects[1:]]
    return History(preset, record, first, tuple(number for number, _ in objects[1:]))


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


def told_events(history: History) -> list[Event]:
    """The events of ``history`` as recorded, each checked for its shape (a malformed one
    is a HistoryError naming its line) but not replayed: how a redacted download, which
    has no deck orders to re-deal, is told."""
    import guts.catalog  # noqa: F401  (every family's events are known once it is loaded)

    events = history.record.get("events", [])
    if not isinstance(events, list):
        raise HistoryError("the history's events must be a list")
    lines = history.event_lines or tuple(range(2, len(events) + 2))
    told: list[Event] = []
    for number, data in zip(lines, events, strict=False):
        try:
            told.append(Event.from_dict(data))
        except EventError as error:
            raise HistoryError(f"line {number}: {error}") from None
    return told
