"""A table's ledger: each player's buy-in, cash-out, stack and net, and the settlement.

The rows have PokerNow's columns (``player_nickname, player_id, session_start_at,
session_end_at, buy_in, buy_out, stack, net``), the chip amounts as integers, one row
per seat of the night that bought chips (every table it sat at), from the moment it is
approved. While the night goes on a player's chips are their ``stack``; once it is over,
or once they leave, they are cashed out (``buy_out``, the stack then 0). ``net`` is
``buy_out + stack - buy_in`` (less any debt a player left a table on credit with), so
the nets add up to zero whenever no chips are in a pot, and only then is there a
settlement (:func:`unsettled` says why not). A bot's chips are the host's: the settlement
settles people with people, and what the bots won or lost with the host (:data:`BOTS`);
the rows of one nickname (a player who left and came back) settle as one. Where the host
holds a seat the server knows (the seat the host role was handed to), the bots' chips are
that seat's: its net and the bots' are settled as one, so the host is never told to pay
themselves. Each row says who settles it (``settled_by``, also the CSV's last column).

>>> rows = [{"player_nickname": "=Jo", "net": 5}, {"player_nickname": "Ann", "net": -5}]
>>> settlement(rows)
[('Ann', '=Jo', 5)]
>>> settlement(rows + [{"player_nickname": "Bot", "bot": True, "net": 2},
...                    {"player_nickname": "Cy", "net": -2}])
[('Ann', '=Jo', 5), ('Cy', "the host (the bots' chips)", 2)]
>>> hosted = [{"player_nickname": "Hana", "net": 10}, {"player_nickname": "Cy", "net": 20},
...           {"player_nickname": "Bot", "bot": True, "net": -30, "settled_by": "Hana"}]
>>> settlement(hosted)  # the bots' -30 are Hana's: she pays Cy, and nobody pays her
[('Hana', 'Cy', 20)]
>>> unsettled(rows + [{"player_nickname": "Cy", "net": -3}])
'3 chips are still in the pot: settle once it is won'
>>> print(to_csv([{"player_nickname": "=1+1", "player_id": 0}]), end="")
player_nickname,player_id,session_start_at,session_end_at,buy_in,buy_out,stack,net,settled_by
'=1+1,0,,,,,,,
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from guts.server.state import Seat, TableState
from guts.table import settling_payments

__all__ = [
    "BOTS",
    "COLUMNS",
    "departures",
    "ledger_body",
    "ledger_rows",
    "settlement",
    "to_csv",
    "unsettled",
]

COLUMNS = ("player_nickname", "player_id", "session_start_at", "session_end_at", "buy_in",
           "buy_out", "stack", "net", "settled_by")  # fmt: skip
"""PokerNow's columns, then who settles the row's net (a bot's: the host)."""
BOTS = "the host (the bots' chips)"
"""Who the settlement names for the bots' chips (a bot plays the host's chips)."""
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""A cell starting with one of these would be read as a formula by a spreadsheet."""


def ledger_rows(
    state: TableState,
    joined: Mapping[int, datetime],
    ended: datetime | None,
    left: Mapping[int, datetime] | None = None,
    host_seat: int | None = None,
) -> list[dict[str, Any]]:
    """One row per seat that bought chips, in the order the seats were asked for
    (``joined``: when each seat was asked for; ``ended``: when the night ended, None
    while it goes on; ``left``: when each seat that left was cashed out, where known).
    ``buy_in`` counts every rebuy and top-up, ``buy_out`` every cash-out (a seat that
    left, and everyone once the night is over); ``stack`` is what a seat still has (on
    the table, held while it sits out, or approved and not yet dealt). ``host_seat``: the
    host's own seat (:meth:`TableState.host_holds`; the seat the host role was handed to
    when None), whose nickname settles the bots' rows (``settled_by``; :data:`BOTS` when
    the host holds no seat)."""
    over = state.status == "over"
    bots_by = _host_name(state, state.host_seat if host_seat is None else host_seat)
    rows = []
    for seat in sorted(state.seats.values(), key=lambda s: s.seat_id):
        if not seat.bought:
            continue
        stack = state.stack(seat) + seat.due
        buy_out = seat.cashed
        if over and seat.status == "approved":
            buy_out, stack = buy_out + stack, 0
        rows.append({
            "player_nickname": seat.nickname,
            "player_id": seat.seat_id,
            "session_start_at": _moment(joined.get(seat.seat_id)),
            "session_end_at": _moment(_end(seat, ended if over else None, left or {})),
            "buy_in": seat.bought,
            "buy_out": buy_out,
            "stack": stack,
            "net": state.net(seat),
            "settled_by": seat.nickname if seat.kind == "person" else bots_by,
            "bot": seat.kind != "person",
        })  # fmt: skip
    return rows


def _host_name(state: TableState, seat_id: int | None) -> str:
    """Who settles the bots' chips: the host's seat's nickname, if the host holds a
    person's seat that bought chips, else :data:`BOTS`."""
    seat = state.seats.get(seat_id) if seat_id is not None else None
    if seat is None or seat.kind != "person" or not seat.bought:
        return BOTS
    return seat.nickname


def departures(state: TableState) -> dict[int, int]:
    """The seats that left, each with the command (its seq) that cashed it out."""
    return {
        seat.seat_id: seat.left_at
        for seat in state.seats.values()
        if seat.status == "left" and seat.left_at is not None
    }


def _end(seat: Seat, ended: datetime | None, left: Mapping[int, datetime]) -> datetime | None:
    """When ``seat``'s night ended: when it was cashed out if it left (None if unknown),
    else the night's end (None while the night goes on)."""
    return left.get(seat.seat_id) if seat.status == "left" else ended


def _moment(when: datetime | None) -> str:
    """A time as the ledger writes it: ISO 8601, or empty when unknown."""
    return when.isoformat() if when else ""


def unsettled(rows: Sequence[Mapping[str, Any]]) -> str | None:
    """Why the nets cannot be settled now (chips are still in a pot: the nets fall short
    of zero by that much), None when they can."""
    in_pot = -sum(row["net"] for row in rows)
    if in_pot > 0:
        chips = "1 chip is" if in_pot == 1 else f"{in_pot} chips are"
        return f"{chips} still in the pot: settle once it is won"
    if in_pot < 0:
        return f"the nets add up to {-in_pot:+d}, not 0"
    return None


def settlement(rows: Sequence[Mapping[str, Any]]) -> list[tuple[str, str, int]]:
    """Who pays whom how much to settle the nets, in the fewest payments
    (:func:`~guts.table.settling_payments`) between people, the bots' nets settled with
    the host (each row's ``settled_by``: the host's seat, or :data:`BOTS`); none while the
    nets cannot be settled (:func:`unsettled`)."""
    if unsettled(rows):
        return []
    nets: dict[str, int] = {}
    for row in rows:
        who = str(row.get("settled_by") or (BOTS if row.get("bot") else row["player_nickname"]))
        nets[who] = nets.get(who, 0) + row["net"]
    return list(settling_payments(nets))


def ledger_body(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The JSON of a ledger's ``rows``: ``players`` (the rows), ``settlement`` (the
    payments, each ``from``, ``to`` and ``amount``) and ``unsettled`` (why there are no
    payments yet, else None)."""
    payments = [{"from": payer, "to": payee, "amount": amount}
                for payer, payee, amount in settlement(rows)]  # fmt: skip
    return {"players": list(rows), "settlement": payments, "unsettled": unsettled(rows)}


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
