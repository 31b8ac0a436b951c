"""The host's commands to a table: start it, seat bots, approve and refuse requests and
chips, pause and resume, change the options, set seats away, kick, hand the host's role
on, and end the night.

Each comes with the host's credential (the host secret, or the device token of the seat
the role was handed to), is checked against the table's state (and the engine's own
checks, on a throwaway session, for a start or new options), and is committed through
the table (:meth:`~guts.server.open_table.OpenTable.commit`).
"""

from __future__ import annotations

from guts.errors import GutsError
from guts.server.commands import (
    ApproveCommand,
    AwayCommand,
    BotCommand,
    ChipsCommand,
    EndCommand,
    HostCommand,
    LeaveCommand,
    OptionsCommand,
    PauseCommand,
    StartCommand,
)
from guts.server.open_table import Client, OpenTable
from guts.server.presets import check_bots
from guts.server.protocol import (
    AddBot,
    Approve,
    ApproveChips,
    End,
    HandHost,
    HostMessage,
    Kick,
    Pause,
    ProtocolError,
    Refuse,
    RefuseChips,
    SetAway,
    SetOptions,
    Start,
)
from guts.server.seats import bot_name, check_free, check_host, free_seat, withdraw
from guts.server.state import Seat


async def command(table: OpenTable, message: HostMessage, client: Client | None) -> None:
    """Run the host's ``message`` (from ``client``, None for the HTTP routes), once its
    credential is checked."""
    check_host(table, message.secret)
    if isinstance(message, Kick) and message.seat_id in (
        table.state.host_seat,
        None if client is None else client.seat_id,
    ):
        raise ProtocolError(
            "invalid", "the host cannot kick their own seat: leave from the Seat tab"
        )
    state = table.state
    if isinstance(message, End):
        if state.status == "over" or state.ending:
            raise ProtocolError("not-now", "the night is over already")
        await table.commit(EndCommand())
        return
    if state.status == "over":
        raise ProtocolError("not-now", "the night is over")
    if isinstance(message, Start | AddBot | Approve | Refuse):
        await _lobby(table, message)
    elif isinstance(message, Pause):
        if state.paused == message.paused:
            word = "paused" if state.paused else "not paused"
            raise ProtocolError("not-now", f"the table is {word}")
        if not message.paused:
            table.why_paused = ""
        await table.commit(PauseCommand(paused=message.paused))
    elif isinstance(message, SetOptions):
        await _options(table, message)
    else:
        await _seat_control(table, message)


async def _lobby(table: OpenTable, message: Start | AddBot | Approve | Refuse) -> None:
    state = table.state
    if isinstance(message, Start):
        if state.status != "lobby":
            raise ProtocolError("not-now", "the game has started already")
        players = [(seat.nickname, seat.buy_in) for seat in state.approved()]
        try:  # the engine's own checks (player counts...), on a throwaway session
            table.game.new_session(players, options=state.options)
        except GutsError as error:
            raise ProtocolError("not-now", f"cannot start: {error}") from None
        await table.commit(StartCommand())
    elif isinstance(message, AddBot):
        try:
            check_bots(table.game, message.bot, state.options)
        except GutsError as error:
            raise ProtocolError("invalid", str(error)) from None
        name = message.nickname or bot_name(table)
        check_free(table, name)
        seat_id = free_seat(table, message.seat_id)
        await table.commit(
            BotCommand(seat_id=seat_id, nickname=name, bot=message.bot, buy_in=state.buy_in)
        )
    else:
        seat = state.seats.get(message.seat_id)
        if seat is None or seat.status != "requested":
            raise ProtocolError("no-such-seat", f"no seat request {message.seat_id} waits")
        if isinstance(message, Approve):
            buy_in = message.buy_in if message.buy_in is not None else seat.buy_in
            await table.commit(ApproveCommand(seat_id=seat.seat_id, buy_in=buy_in))
        else:
            await withdraw(table, seat, "host")


async def _options(table: OpenTable, message: SetOptions) -> None:
    options = dict(message.options)
    try:
        table.game.rules(options)
    except GutsError as error:
        raise ProtocolError("invalid", str(error)[:300]) from None
    buy_in = message.buy_in if message.buy_in is not None else table.state.buy_in
    await table.commit(OptionsCommand(options=options, buy_in=buy_in))


async def _seat_control(
    table: OpenTable, message: SetAway | Kick | ApproveChips | RefuseChips | HandHost
) -> None:
    state = table.state
    seat = state.seats.get(message.seat_id)
    if seat is None or seat.status != "approved" or seat.leaving:
        raise ProtocolError("no-such-seat", f"no seat {message.seat_id} is at the table")
    if isinstance(message, Kick):
        await table.commit(LeaveCommand(seat_id=seat.seat_id, by="host"))
        return
    if isinstance(message, ApproveChips | RefuseChips):
        await _chips(table, seat, message)
        return
    if seat.kind != "person":
        raise ProtocolError("invalid", f"{seat.nickname} is a bot: the table plays it")
    if isinstance(message, SetAway):
        if seat.away == message.away:
            word = "away" if seat.away else "not away"
            raise ProtocolError("not-now", f"{seat.nickname} is {word}")
        await table.commit(AwayCommand(seat_id=seat.seat_id, away=message.away, by="host"))
    else:
        if state.host_seat == seat.seat_id:
            raise ProtocolError("not-now", f"{seat.nickname} is the host already")
        await table.commit(HostCommand(seat_id=seat.seat_id))


async def _chips(table: OpenTable, seat: Seat, message: ApproveChips | RefuseChips) -> None:
    if isinstance(message, RefuseChips):
        if not seat.asked:
            raise ProtocolError("no-such-seat", f"{seat.nickname} has asked for no chips")
        await table.commit(ChipsCommand(seat_id=seat.seat_id, amount=seat.asked,
                                        status="refused"))  # fmt: skip
        return
    amount = message.amount if message.amount is not None else seat.asked
    if not amount:
        raise ProtocolError("invalid", f"{seat.nickname} has asked for no chips: say how many")
    if amount > table.state.buy_in:
        raise ProtocolError("invalid", f"a rebuy or top-up is at most {table.state.buy_in}")
    await table.commit(ChipsCommand(seat_id=seat.seat_id, amount=amount, status="approved"))
