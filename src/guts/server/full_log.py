"""The night's full log as PokerNow's log CSV (``entry, at, order``, newest first): each
line the terminal and the page tell of what everyone may see (a spectator's narration:
nobody's hidden cards), when its command was committed, and an order that sorts the
lines as they happened (the command's sequence number times 1000, plus the line's place
among that command's lines).

>>> from datetime import UTC, datetime
>>> at = {1: datetime(2026, 12, 7, 20, 0, 1, 250000, tzinfo=UTC)}
>>> print(log_csv([("Jo antes 1", 1), ("=cmd", 1)], at), end="")
entry,at,order
'=cmd,2026-12-07T20:00:01.250Z,1001
Jo antes 1,2026-12-07T20:00:01.250Z,1000
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime

from guts.narrate import Narrator
from guts.night.narrate import NightNarrator
from guts.server.ledger import FORMULA_STARTS
from guts.server.state import TableState

__all__ = ["COLUMNS", "log_csv", "log_lines"]

COLUMNS = ("entry", "at", "order")
"""PokerNow's columns of its full log."""


def log_lines(state: TableState) -> list[tuple[str, int]]:
    """Each told line of the night, oldest first, with the sequence number of the
    command that made its event."""
    night = state.is_night
    lines: list[tuple[str, int]] = []
    for number, session in enumerate(state.sessions):
        spans = [(entry.start, entry.end, entry.seq) for entry in state.log
                 if entry.session == number and entry.end > entry.start]  # fmt: skip
        names = list(session.table.names)
        narrator: Narrator | NightNarrator = (
            NightNarrator(names) if night else Narrator(names, session.game)
        )
        seq = spans[0][2] if spans else state.seq
        for index, event in enumerate(session.events):
            seq = next((s for start, end, s in spans if start <= index < end), seq)
            if not event.visible_to(None):
                continue
            told = narrator.tell(event)
            if told:
                lines.append((told, seq))
    return lines


def _moment(at: datetime | None) -> str:
    if at is None:
        return ""
    if at.tzinfo is None:  # stored as UTC (SQLite keeps no zone)
        at = at.replace(tzinfo=UTC)
    at = at.astimezone(UTC)
    return at.strftime("%Y-%m-%dT%H:%M:%S.") + f"{at.microsecond // 1000:03d}Z"


def log_csv(lines: Sequence[tuple[str, int]], at: Mapping[int, datetime]) -> str:
    """The lines as PokerNow's log CSV, newest first, no cell read as a formula."""
    rows: list[tuple[str, str, int]] = []
    place: dict[int, int] = {}
    for text, seq in lines:
        index = place.get(seq, 0)
        place[seq] = index + 1
        entry = "'" + text if text.startswith(FORMULA_STARTS) else text
        rows.append((entry, _moment(at.get(seq)), seq * 1000 + index))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    rows.sort(key=lambda row: row[2], reverse=True)
    writer.writerows(rows)
    return out.getvalue()
