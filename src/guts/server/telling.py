"""Telling a table's clients: what each one receives after a command, and on resuming.

After every committed command (persist, then tell) each ready client gets what it may
see of it: one event frame per seat, made by :func:`guts.server.barrier.disclose_each`
and shared by the seat's clients, with the running clocks; the seats when the lobby
changed; a snapshot after a host's command that changes what everyone sees, or once the
night is over. Whatever a client receives of the game comes from the barrier alone: this
module adds the lobby (seats, nicknames, who is connected), the clocks, the chat and the
sequence numbers. A client that resumes gets the events it missed, or a snapshot.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from guts.games.base import Event
from guts.server.barrier import disclose, disclose_each
from guts.server.commands import (
    ActCommand,
    ChatCommand,
    Command,
    HostCommand,
    OptionsCommand,
    PauseCommand,
)
from guts.server.open_table import Client, OpenTable
from guts.server.protocol import PROTOCOL_VERSION
from guts.server.state import LOG_KEPT, Logged

MAX_CATCH_UP = LOG_KEPT
"""A client that missed more commands than this gets a snapshot instead (the table in
play keeps no more)."""


def tell(table: OpenTable, entry: Logged, command: Command, *, lobby: bool,
         acting: Client | None) -> bool:  # fmt: skip
    """Tell every client of ``entry`` (``lobby``: it changed seats); True if ``acting``'s
    event frame acknowledged it (``acked``)."""
    state = table.state
    if isinstance(command, ChatCommand):
        broadcast(table, state.chat[-1].message())
        return False
    if lobby or isinstance(command, PauseCommand | OptionsCommand | HostCommand):
        broadcast(table, {
            "type": "seats",
            "seq": entry.seq,
            "status": state.status,
            "seats": seat_list(table),
        })  # fmt: skip
    if isinstance(command, PauseCommand | OptionsCommand | HostCommand) or (
        state.session is None and state.status == "over"
    ):
        send_snapshots(table)
        return False
    if state.session is None:
        return False
    ready = {client: _number(table, client) for client in table.clients if client.ready}
    events = happened(table, [entry])
    head = {"type": "event", "seq": state.seq, "status": state.status}
    clocks = table.clocks.shown(state)
    frames = disclose_each(state.session, set(ready.values()), events, head)
    for frame in frames.values():
        frame["clocks"] = clocks
    acked = {"acked": command.client_seq} if isinstance(command, ActCommand) else None
    for client, number in ready.items():  # one frame per seat, shared by its clients
        frame = frames[number]
        if acked is not None and client is acting:
            frame = {**frame, **acked}
        client.send(frame)
    return acting is not None and acting in ready


def broadcast(table: OpenTable, message: dict[str, Any]) -> None:
    """Send ``message`` to every ready client."""
    for client in table.clients:
        if client.ready:
            client.send(message)


def send_snapshots(table: OpenTable) -> None:
    """Send every ready client its snapshot."""
    for client in table.clients:
        if client.ready:
            client.send(snapshot(table, client))


def seat_list(table: OpenTable) -> list[dict[str, Any]]:
    """Every seat as everyone sees it, in the order of the seats (``seat_id``), with
    whether a person's client is connected."""
    online = {client.seat_id for client in table.clients if client.ready}
    seats = table.state.seats
    return [
        {**seats[n].public(), "connected": seats[n].kind != "person" or n in online}
        for n in sorted(seats)
    ]


def tell_connections(table: OpenTable, before: list[dict[str, Any]]) -> None:
    """Tell everyone the seats when a person's connection came or went since ``before``."""
    now = seat_list(table)
    if [seat["connected"] for seat in now] != [seat["connected"] for seat in before]:
        broadcast(table, {"type": "seats", "seq": table.state.seq,
                          "status": table.state.status, "seats": now})  # fmt: skip


def _number(table: OpenTable, client: Client) -> int | None:
    """The game seat ``client`` plays (None: it plays none)."""
    return table.state.number(client.seat_id)


def missed(table: OpenTable, last_seq: int | None) -> list[Logged] | None:
    """The commands after ``last_seq`` if they can be sent as events (None: send a
    snapshot instead)."""
    state = table.state
    if last_seq is None or not 0 <= last_seq <= state.seq or state.session is None:
        return None
    if state.log and state.log[0].seq > last_seq + 1:
        return None  # some it missed are no longer kept: they began an earlier session
    entries = [entry for entry in state.log if entry.seq > last_seq]
    plain = {"deal", "act", "stop", "end"}
    current = state.session_number
    if len(entries) > MAX_CATCH_UP or any(
        entry.kind not in plain or entry.session != current for entry in entries
    ):
        return None
    return entries


def event_frame(table: OpenTable, client: Client, entries: Iterable[Logged]) -> dict[str, Any]:
    """The event frame of ``entries`` as ``client`` may see it."""
    state = table.state
    assert state.session is not None
    events = happened(table, entries)
    return {
        "type": "event",
        "seq": state.seq,
        "status": state.status,
        **disclose(state.session, _number(table, client), events),
        "clocks": table.clocks.shown(table.state),
    }


def happened(table: OpenTable, entries: Iterable[Logged]) -> list[Event]:
    """The engine events (hidden ones included) that ``entries`` made."""
    state = table.state
    return [event for entry in entries for event in state.events_of(entry)]


def snapshot(table: OpenTable, client: Client | None) -> dict[str, Any]:
    """Everything ``client`` (None: a spectator) may see now."""
    state = table.state
    seat = state.seats.get(client.seat_id) if client and client.seat_id is not None else None
    you = (
        None
        if seat is None
        else {
            "seat_id": seat.seat_id,
            "seat": seat.number,
            "nickname": seat.nickname,
            "status": seat.status,
            "host": state.host_seat == seat.seat_id,
        }
    )
    game = None
    if state.session is not None:
        game = disclose(state.session, None if seat is None else seat.number)["game"]
    return {
        "type": "snapshot",
        "protocol": PROTOCOL_VERSION,
        "seq": state.seq,
        "table": info(table),
        "seats": seat_list(table),
        "you": you,
        "game": game,
        "clocks": table.clocks.shown(table.state),
        "chat": [line.message() for line in state.chat],
    }


def info(table: OpenTable) -> dict[str, Any]:
    """The table as everyone sees it."""
    state = table.state
    session = state.session
    return {
        "id": table.id,
        "preset": table.row.preset,
        "family": table.game.family,
        "options": dict(state.options),
        "buy_in": state.buy_in,
        "auto_approve": table.row.auto_approve,
        "status": state.status,
        "paused": state.paused,
        "why_paused": table.why_paused or None,
        "spectator_chat": state.spectator_chat,
        "host_seat": state.host_seat,
        "clock": state.clock_ms // 1000,
        "time_bank": state.time_bank_ms // 1000,
        "waiting": bool(
            state.status == "playing"
            and session is not None
            and session.deal_over
            and not state.can_deal()
        ),
    }


def summary(table: OpenTable) -> dict[str, Any]:
    """The public summary of the HTTP route."""
    session = table.state.session
    return {
        **info(table),
        "seq": table.state.seq,
        "protocol": PROTOCOL_VERSION,
        "seats": seat_list(table),
        "stacks": None if session is None else [s.stack for s in session.table.seats],
        "pot": None if session is None else session.table.pot,
    }
