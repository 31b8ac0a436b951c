"""A table's seats and its lobby: what a connection asks for its own seat, and who it is.

A connection resumes (with a seat's device token, or as a spectator catching up), joins
(a seat request the host approves, or a seat at once where the table approves every
request), acts for its seat, sits out and comes back, leaves, and asks for chips. This
module also keeps what the lobby checks for the host's commands too: the credentials (a
seat's token, the host's secret, both kept as :func:`digest`), the nicknames people can
tell apart, the seat ids and the waiting requests. Each message is checked against the
table's state and committed through the table (:meth:`~guts.server.open_table.OpenTable.commit`).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Literal

from guts.bots import BOT_NAMES
from guts.errors import GutsError
from guts.server.commands import (
    ActCommand,
    AwayCommand,
    ChipsCommand,
    JoinCommand,
    LeaveCommand,
    RefuseCommand,
)
from guts.server.names import skeleton
from guts.server.open_table import Client, OpenTable
from guts.server.protocol import (
    MAX_SEATS,
    Act,
    BuyChips,
    ComeBack,
    Join,
    Leave,
    ProtocolError,
    Resume,
    SitOut,
)
from guts.server.state import Seat
from guts.server.telling import event_frame, missed, seat_list, snapshot, tell_connections

MAX_REQUESTS = 8
"""The most seat requests a table keeps waiting for the host (a refused or withdrawn
one frees its place, its seat id and its nickname)."""


def digest(secret: str) -> str:
    """The SHA-256 of a secret or token, as stored (they carry 128 bits or more)."""
    return hashlib.sha256(secret.encode()).hexdigest()


# -- who a connection is ---------------------------------------------------------------------


def token_seat(table: OpenTable, token: str) -> Seat | None:
    """The lobby seat whose device token is ``token`` (None if none is)."""
    wanted = digest(token)
    for seat in table.state.seats.values():
        if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, wanted):
            return seat
    return None


def is_host(table: OpenTable, secret: str) -> bool:
    """True if ``secret`` is the host's credential (compared in constant time): the
    host secret, or once the role was handed on, the new host seat's device token."""
    state = table.state
    if state.host_seat is None:
        return hmac.compare_digest(digest(secret), table.row.host_secret_hash)
    token_hash = state.seats[state.host_seat].token_hash or ""
    return hmac.compare_digest(digest(secret), token_hash)


def check_host(table: OpenTable, secret: str) -> None:
    """ProtocolError unless ``secret`` is the host's credential."""
    if not is_host(table, secret):
        raise ProtocolError("not-host", "that is not this table's host secret")


def seated(table: OpenTable, client: Client, doing: str) -> Seat:
    """The seat of ``client`` (ProtocolError saying who ``doing`` is for if it has none)."""
    seat = table.state.seats.get(client.seat_id) if client.seat_id is not None else None
    if seat is None:
        raise ProtocolError("not-seated", f"only a seated player {doing}: join or resume first")
    return seat


# -- a connection's own messages ------------------------------------------------------------


def resume(table: OpenTable, message: Resume, client: Client) -> None:
    """Give ``client`` its seat back (by its token) and a snapshot, or as a spectator
    the events it missed since ``last_seq`` (a snapshot where they cannot be sent)."""
    if message.token is not None:
        found = token_seat(table, message.token)
        if found is None:
            raise ProtocolError("no-such-seat", "no seat of this table has that token")
        before = seat_list(table)
        client.seat_id = found.seat_id
        client.ready = True
        client.send(snapshot(table, client))
        tell_connections(table, before)
        return
    client.ready = True
    entries = missed(table, message.last_seq)
    if entries is None:
        client.send(snapshot(table, client))
    else:
        client.send(event_frame(table, client, entries))


async def join(table: OpenTable, message: Join, client: Client) -> None:
    """Seat ``client`` (or ask the host to): it is welcomed with its seat's device token."""
    state = table.state
    if client.seat_id is not None:
        raise ProtocolError("not-now", "this connection has a seat already")
    if state.status == "over":
        raise ProtocolError("not-now", "the night is over")
    check_free(table, message.nickname, request=not table.row.auto_approve)
    buy_in = message.buy_in if message.buy_in is not None else state.buy_in
    if buy_in > state.buy_in:
        raise ProtocolError("invalid", f"the buy-in is at most {state.buy_in}")
    host = message.secret is not None
    if message.secret is not None:
        check_host(table, message.secret)
    token = secrets.token_urlsafe(32)
    seat_id = free_seat(table)
    await table.commit(
        JoinCommand(seat_id=seat_id, nickname=message.nickname, buy_in=buy_in,
                    token_hash=digest(token), host=host)
    )  # fmt: skip
    before = seat_list(table)
    client.seat_id = seat_id
    client.ready = True
    seat = state.seats[seat_id]
    client.send(
        {
            "type": "welcome",
            "seat_id": seat_id,
            "nickname": seat.nickname,
            "token": token,
            "status": seat.status,
        }
    )
    client.send(snapshot(table, client))
    tell_connections(table, before)


async def act(table: OpenTable, message: Act, client: Client) -> None:
    """Play ``client``'s seat's action, once (a client's sequence number seen before is
    acknowledged again, not applied), with the time bank its decision used."""
    state = table.state
    seat = seated(table, client, "acts")
    if state.session is None or seat.number is None:
        raise ProtocolError(
            "not-now",
            f"{seat.nickname} is not dealt in: the game has not started with this seat",
        )
    if message.seat != seat.number:
        raise ProtocolError(
            "wrong-seat", f"this connection plays seat {seat.number}, not {message.seat}"
        )
    last = state.client_seqs.get(seat.seat_id)
    if last is not None and message.client_seq <= last[0]:
        applied = last[1] if message.client_seq == last[0] else None
        client.send(
            {"type": "ack", "client_seq": message.client_seq, "seq": applied, "duplicate": True}
        )
        return
    if state.paused:
        raise ProtocolError("not-now", "the table is paused: wait for the host to resume")
    try:
        action = state.session.canonical(seat.number, message.action)
    except GutsError as error:
        raise ProtocolError("illegal", str(error)[:300]) from None
    command = ActCommand(
        seat=seat.number,
        action=action,
        seat_id=seat.seat_id,
        client_seq=message.client_seq,
        bank_ms=table.clocks.bank_used(state, seat.number),
    )
    if not await table.commit(command, acting=client):  # no event frame acknowledged it
        client.send(
            {"type": "ack", "client_seq": message.client_seq, "seq": state.seq,
             "duplicate": False}
        )  # fmt: skip


async def player(table: OpenTable, message: SitOut | ComeBack | Leave | BuyChips,
                 client: Client) -> None:  # fmt: skip
    """A seated player sits out, comes back, leaves (or withdraws their request), or asks
    for chips."""
    seat = seated(table, client, "does that")
    if seat.status == "requested" and isinstance(message, Leave):
        await withdraw(table, seat, "player")
        return
    if seat.status == "left" or seat.leaving:
        raise ProtocolError("not-now", f"{seat.nickname} has left the table")
    if seat.status != "approved":
        raise ProtocolError("not-now", f"{seat.nickname}'s seat is not approved")
    if isinstance(message, SitOut | ComeBack):
        away = isinstance(message, SitOut)
        if seat.away == away:
            word = "sitting out" if away else "dealt in"
            raise ProtocolError("not-now", f"{seat.nickname} is {word} already")
        await table.commit(AwayCommand(seat_id=seat.seat_id, away=away, by="player"))
    elif isinstance(message, Leave):
        await table.commit(LeaveCommand(seat_id=seat.seat_id, by="player"))
    else:
        await _ask_chips(table, seat, message.amount)


async def _ask_chips(table: OpenTable, seat: Seat, amount: int) -> None:
    state = table.state
    if amount > state.buy_in:
        raise ProtocolError("invalid", f"a rebuy or top-up is at most {state.buy_in}")
    if seat.asked:
        raise ProtocolError("not-now", f"{seat.nickname} has asked for chips already")
    approved = table.row.auto_approve
    await table.commit(ChipsCommand(seat_id=seat.seat_id, amount=amount,
                                    status="approved" if approved else "asked"))  # fmt: skip


async def withdraw(table: OpenTable, seat: Seat, by: Literal["host", "player"]) -> None:
    """Refuse (or, by the player, withdraw) seat request ``seat``: it frees its seat id
    and nickname, and its connections are spectators from then on."""
    await table.commit(RefuseCommand(seat_id=seat.seat_id, by=by))
    for client in table.clients:
        if client.seat_id == seat.seat_id:
            client.seat_id = None
            if client.ready:
                client.send(snapshot(table, client))


# -- names and seat ids -------------------------------------------------------------------------


def check_free(table: OpenTable, nickname: str, *, request: bool = False) -> None:
    """ProtocolError unless the table has room for one more seat (and, for a ``request``,
    for one more request waiting) and ``nickname`` looks like no nickname there."""
    state = table.state
    if request and state.requests() >= MAX_REQUESTS:
        raise ProtocolError("not-now", f"{MAX_REQUESTS} seat requests wait for the host "
                                       "already: try again later")  # fmt: skip
    if len(state.seats) >= MAX_SEATS:
        raise ProtocolError("not-now", f"this table has {MAX_SEATS} seats already")
    gone = ("refused", "left")  # their nicknames are free: a player who left may come back
    taken = {skeleton(s.nickname): s.nickname for s in state.seats.values()
             if s.status not in gone}  # fmt: skip
    alike = taken.get(skeleton(nickname))
    if alike is not None:
        shown = "" if alike == nickname else f" (it looks like {alike!r})"
        raise ProtocolError("taken", f"the nickname {nickname!r} is taken at this table"
                                     f"{shown}")  # fmt: skip


def free_seat(table: OpenTable, wanted: int | None = None) -> int:
    """Seat ``wanted`` (ProtocolError if a seat of the record holds it), else the first
    seat none holds (there is one: :func:`check_free` came first)."""
    seats = table.state.seats
    if wanted is None:
        return next(seat_id for seat_id in range(MAX_SEATS) if seat_id not in seats)
    holder = seats.get(wanted)
    if holder is None:
        return wanted
    if holder.status in ("left", "refused"):
        raise ProtocolError("taken", f"that seat was {holder.nickname}'s and stays in the "
                                     "table's record: pick a free seat")  # fmt: skip
    raise ProtocolError("taken", f"{holder.nickname} has that seat: pick a free seat")


def bot_name(table: OpenTable) -> str:
    """The first of the bots' names that no seat's nickname looks like."""
    taken = {skeleton(seat.nickname) for seat in table.state.seats.values()}
    for name in BOT_NAMES:
        if skeleton(name) not in taken:
            return name
    return f"Bot {len(taken) + 1}"
