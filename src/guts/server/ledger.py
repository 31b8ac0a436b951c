"""A table's ledger: each player's buy-in, cash-out, stack and net, and the settlement.

The rows have PokerNow's columns (``player_nickname, player_id, session_start_at,
session_end_at, buy_in, buy_out, stack, net``), the chip amounts as integers, one row
per seat of the night (every table it sat at). While the night goes on a player's chips
are their ``stack``; once it is over, or once they leave, they are cashed out
(``buy_out``, the stack then 0). ``net`` is ``buy_out + stack - buy_in`` (less any debt a
player left a table on credit with), so the nets add up to zero whenever no chips are in
a pot.

>>> rows = [{"player_nickname": "=Jo", "net": 5}, {"player_nickname": "Ann", "net": -5}]
>>> settlement(rows)
[('Ann', '=Jo', 5)]
>>> print(to_csv([{"player_nickname": "=1+1", "player_id": 0}]), end="")
player_nickname,player_id,session_start_at,session_end_at,buy_in,buy_out,stack,net
'=1+1,0,,,,,,
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from guts.server.state import TableState
from guts.table import settling_payments

__all__ = ["COLUMNS", "ledger_rows", "settlement", "to_csv"]

COLUMNS = ("player_nickname", "player_id", "session_start_at", "session_end_at", "buy_in",
           "buy_out", "stack", "net")  # fmt: skip
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""A cell starting with one of these would be read as a formula by a spreadsheet."""


def ledger_rows(
    state: TableState, joined: Mapping[int, datetime], ended: datetime | None
) -> list[dict[str, Any]]:
    """One row per seat that bought chips, in the order the seats were asked for
    (``joined``: when each seat was asked for; ``ended``: when the night ended, None
    while it goes on). ``buy_in`` counts every rebuy and top-up, ``buy_out`` every
    cash-out (a seat that left, and everyone once the night is over); ``stack`` is what a
    seat still has (on the table, held while it sits out, or approved and not yet dealt)."""
    if state.session is None:
        return []
    over = state.status == "over"
    rows = []
    for seat in sorted(state.seats.values(), key=lambda s: s.seat_id):
        if not seat.bought:
            continue
        stack = state.stack(seat) + seat.due
        buy_out = seat.cashed
        if over and seat.status == "approved":
            buy_out, stack = buy_out + stack, 0
        start = joined.get(seat.seat_id)
        rows.append({
            "player_nickname": seat.nickname,
            "player_id": seat.seat_id,
            "session_start_at": start.isoformat() if start else "",
            "session_end_at": ended.isoformat() if ended and over else "",
            "buy_in": seat.bought,
            "buy_out": buy_out,
            "stack": stack,
            "net": state.net(seat),
        })  # fmt: skip
    return rows


def settlement(rows: Sequence[Mapping[str, Any]]) -> list[tuple[str, str, int]]:
    """Who pays whom how much to settle the nets: the biggest loser pays the biggest
    winner as much as one of them is owed, until all are square (at most one payment
    fewer than the players)."""
    return list(settling_payments({row["player_nickname"]: row["net"] for row in rows}))


def _cell(value: Any) -> Any:
    """A cell a spreadsheet reads as text, never as a formula."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def to_csv(rows: Sequence[Mapping[str, Any]]) -> str:
    """The rows as CSV with PokerNow's columns, guarded against formula injection."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in rows:
        writer.writerow([_cell(row.get(column, "")) for column in COLUMNS])
    return out.getvalue()
