"""The host's commands to a table: start it, seat bots, approve and refuse requests and
chips, pause and resume, change the options, set seats away, kick, hand the host's role
on, and end the night.

Each comes with the host's credential (the host secret, or the device token of the seat
the role was handed to), is checked against the table's state (and the engine's own
checks, on a throwaway session, for a start or new options), and is committed through
the actor.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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

if TYPE_CHECKING:
    from guts.server.actor import Client, TableActor


async def command(actor: TableActor, message: HostMessage, client: Client | None) -> None:
    """Run the host's ``message`` (from ``client``, None for the HTTP routes), once its
    credential is checked."""
    check_host(actor, message.secret)
    if isinstance(message, Kick) and message.seat_id in (
        actor.state.host_seat,
        None if client is None else client.seat_id,
    ):
        raise ProtocolError(
            "invalid", "the host cannot kick their own seat: leave from the Seat tab"
        )
    state = actor.state
    if isinstance(message, End):
        if state.status == "over" or state.ending:
            raise ProtocolError("not-now", "the night is over already")
        await actor.commit(EndCommand())
        return
    if state.status == "over":
        raise ProtocolError("not-now", "the night is over")
    if isinstance(message, Start | AddBot | Approve | Refuse):
        await _lobby(actor, message)
    elif isinstance(message, Pause):
        if state.paused == message.paused:
            word = "paused" if state.paused else "not paused"
            raise ProtocolError("not-now", f"the table is {word}")
        if not message.paused:
            actor.why_paused = ""
        await actor.commit(PauseCommand(paused=message.paused))
    elif isinstance(message, SetOptions):
        await _options(actor, message)
    else:
        await _seat_control(actor, message)


async def _lobby(actor: TableActor, message: Start | AddBot | Approve | Refuse) -> None:
    state = actor.state
    if isinstance(message, Start):
        if state.status != "lobby":
            raise ProtocolError("not-now", "the game has started already")
        players = [(seat.nickname, seat.buy_in) for seat in state.approved()]
        try:  # the engine's own checks (player counts...), on a throwaway session
            actor.game.new_session(players, options=state.options)
        except GutsError as error:
            raise ProtocolError("not-now", f"cannot start: {error}") from None
        await actor.commit(StartCommand())
    elif isinstance(message, AddBot):
        try:
            check_bots(actor.game, message.bot, state.options)
        except GutsError as error:
            raise ProtocolError("invalid", str(error)) from None
        name = message.nickname or bot_name(actor)
        check_free(actor, name)
        seat_id = free_seat(actor, message.seat_id)
        await actor.commit(
            BotCommand(seat_id=seat_id, nickname=name, bot=message.bot, buy_in=state.buy_in)
        )
    else:
        seat = state.seats.get(message.seat_id)
        if seat is None or seat.status != "requested":
            raise ProtocolError("no-such-seat", f"no seat request {message.seat_id} waits")
        if isinstance(message, Approve):
            buy_in = message.buy_in if message.buy_in is not None else seat.buy_in
            await actor.commit(ApproveCommand(seat_id=seat.seat_id, buy_in=buy_in))
        else:
            await withdraw(actor, seat, "host")


async def _options(actor: TableActor, message: SetOptions) -> None:
    options = dict(message.options)
    try:
        actor.game.rules(options)
    except GutsError as error:
        raise ProtocolError("invalid", str(error)[:300]) from None
    buy_in = message.buy_in if message.buy_in is not None else actor.state.buy_in
    await actor.commit(OptionsCommand(options=options, buy_in=buy_in))


async def _seat_control(
    actor: TableActor, message: SetAway | Kick | ApproveChips | RefuseChips | HandHost
) -> None:
    state = actor.state
    seat = state.seats.get(message.seat_id)
    if seat is None or seat.status != "approved" or seat.leaving:
        raise ProtocolError("no-such-seat", f"no seat {message.seat_id} is at the table")
    if isinstance(message, Kick):
        await actor.commit(LeaveCommand(seat_id=seat.seat_id, by="host"))
        return
    if isinstance(message, ApproveChips | RefuseChips):
        await _chips(actor, seat, message)
        return
    if seat.kind != "person":
        raise ProtocolError("invalid", f"{seat.nickname} is a bot: the table plays it")
    if isinstance(message, SetAway):
        if seat.away == message.away:
            word = "away" if seat.away else "not away"
            raise ProtocolError("not-now", f"{seat.nickname} is {word}")
        await actor.commit(AwayCommand(seat_id=seat.seat_id, away=message.away, by="host"))
    else:
        if state.host_seat == seat.seat_id:
            raise ProtocolError("not-now", f"{seat.nickname} is the host already")
        await actor.commit(HostCommand(seat_id=seat.seat_id))


async def _chips(actor: TableActor, seat: Seat, message: ApproveChips | RefuseChips) -> None:
    if isinstance(message, RefuseChips):
        if not seat.asked:
            raise ProtocolError("no-such-seat", f"{seat.nickname} has asked for no chips")
        await actor.commit(ChipsCommand(seat_id=seat.seat_id, amount=seat.asked,
                                        status="refused"))  # fmt: skip
        return
    amount = message.amount if message.amount is not None else seat.asked
    if not amount:
        raise ProtocolError("invalid", f"{seat.nickname} has asked for no chips: say how many")
    if amount > actor.state.buy_in:
        raise ProtocolError("invalid", f"a rebuy or top-up is at most {actor.state.buy_in}")
    await actor.commit(ChipsCommand(seat_id=seat.seat_id, amount=amount, status="approved"))
