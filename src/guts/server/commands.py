"""The commands a table accepts, as they are stored (the table's record).

Every change to a table is one of these, numbered by the table's sequence: seats asked
for, given, refused, bots seated (the lobby); the game started, each deal started, each
action, the end asked for and the stop (the engine); the host's and players' controls
(pause, away, leave, chips, options, the host role) and the chat. A command that
shuffles carries the draws it made (:mod:`guts.server.dealer`), so replaying the
commands in order rebuilds the table exactly. Unlike the protocol's messages these
never leave the server: they hold token hashes and deck orders.

>>> command = read_command({"kind": "act", "seat": 1, "action": "in", "seat_id": 1,
...                         "client_seq": 3, "draws": []})
>>> command.action, command.client_seq
('in', 3)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from guts.errors import GutsError

__all__ = [
    "ActCommand",
    "ApproveCommand",
    "AwayCommand",
    "BotCommand",
    "ChatCommand",
    "ChipsCommand",
    "Command",
    "CommandError",
    "DealCommand",
    "EndCommand",
    "HostCommand",
    "JoinCommand",
    "LeaveCommand",
    "OptionsCommand",
    "PauseCommand",
    "RefuseCommand",
    "StartCommand",
    "StopCommand",
    "read_command",
]


class CommandError(GutsError):
    """A stored command that does not read back (a corrupted record)."""


class _Command(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class JoinCommand(_Command):
    """A person asked for a seat (approved at once on an auto-approve table); ``host``:
    the holder of the host's credential asked for it (the host page), so it is the host's
    own seat, which settles the bots' chips (their chips are the host's)."""

    kind: Literal["join"] = "join"
    seat_id: int
    nickname: str
    buy_in: int
    token_hash: str
    host: bool = False


class BotCommand(_Command):
    """The host seated a bot."""

    kind: Literal["bot"] = "bot"
    seat_id: int
    nickname: str
    bot: str
    buy_in: int


class ApproveCommand(_Command):
    """The host approved a seat request, for ``buy_in``."""

    kind: Literal["approve"] = "approve"
    seat_id: int
    buy_in: int


class RefuseCommand(_Command):
    """The host refused a seat request, or (``by`` the player) it was withdrawn: the
    request frees its seat id and nickname."""

    kind: Literal["refuse"] = "refuse"
    seat_id: int
    by: Literal["host", "player"] = "host"


class StartCommand(_Command):
    """The game started with the approved seats, and its first deal."""

    kind: Literal["start"] = "start"
    draws: list[dict[str, Any]] = Field(default_factory=list)


class DealCommand(_Command):
    """The next deal started."""

    kind: Literal["deal"] = "deal"
    draws: list[dict[str, Any]] = Field(default_factory=list)


class ActCommand(_Command):
    """A seat's decision (``seat_id`` the lobby seat, ``client_seq`` the client's number
    for it; None for a bot's, an away seat's or a timeout's). ``timeout``: the seat's
    clock ran out and the table took the safe action for it; ``bank_ms``: how much of the
    seat's time bank the decision used."""

    kind: Literal["act"] = "act"
    seat: int
    action: str
    seat_id: int
    client_seq: int | None = None
    timeout: bool = False
    bank_ms: int = 0
    draws: list[dict[str, Any]] = Field(default_factory=list)


class PauseCommand(_Command):
    """The host paused the table (nothing happens by itself, nobody acts) or resumed it."""

    kind: Literal["pause"] = "pause"
    paused: bool


class AwayCommand(_Command):
    """A seat was set away (the table takes its safe actions, and it is dealt out of the
    next table) or came back; ``by`` the host, the player (sitting out) or the clock."""

    kind: Literal["away"] = "away"
    seat_id: int
    away: bool
    by: Literal["host", "player", "clock"]


class LeaveCommand(_Command):
    """A seat leaves (``by`` the player) or is kicked or removed (``by`` the host): it
    plays safe until the next deal boundary with an empty pot, then is cashed out."""

    kind: Literal["leave"] = "leave"
    seat_id: int
    by: Literal["host", "player"]


class ChipsCommand(_Command):
    """Chips for a seat (a rebuy or a top-up): ``asked`` by the player, ``approved`` (by
    the host, or the table's auto-approve) or ``refused``. Approved chips are added at the
    next deal boundary with an empty pot."""

    kind: Literal["chips"] = "chips"
    seat_id: int
    amount: int
    status: Literal["asked", "approved", "refused"]


class OptionsCommand(_Command):
    """The host changed the game's options (and the buy-in) for the next table: from the
    next deal boundary with an empty pot."""

    kind: Literal["options"] = "options"
    options: dict[str, str]
    buy_in: int


class HostCommand(_Command):
    """The host handed the host role to seat ``seat_id``: its device token is the host's
    credential from then on, and the old host secret no longer is."""

    kind: Literal["host"] = "host"
    seat_id: int


class ChatCommand(_Command):
    """A line of chat (kept with the table's record, not part of the game): a seat's,
    or (``seat_id`` -1) the host's without a seat, or (-2) a spectator's, ``nickname``
    saying who for those."""

    kind: Literal["chat"] = "chat"
    seat_id: int
    text: str
    nickname: str | None = None


class EndCommand(_Command):
    """The host asked to end the night: at once between deals, else after this deal."""

    kind: Literal["end"] = "end"


class StopCommand(_Command):
    """The session was stopped between deals (what is left shared out)."""

    kind: Literal["stop"] = "stop"
    reason: str
    draws: list[dict[str, Any]] = Field(default_factory=list)


Command = (
    JoinCommand
    | BotCommand
    | ApproveCommand
    | RefuseCommand
    | StartCommand
    | DealCommand
    | ActCommand
    | EndCommand
    | StopCommand
    | PauseCommand
    | AwayCommand
    | LeaveCommand
    | ChipsCommand
    | OptionsCommand
    | HostCommand
    | ChatCommand
)
_COMMANDS: TypeAdapter[Command] = TypeAdapter(Annotated[Command, Field(discriminator="kind")])


def read_command(data: Mapping[str, Any]) -> Command:
    """The command a stored payload holds; CommandError if it holds none."""
    try:
        return _COMMANDS.validate_python(dict(data))
    except ValidationError as error:
        problem = error.errors(include_url=False)[0]
        where = ".".join(str(part) for part in problem["loc"])
        raise CommandError(f"a stored command does not read: {where}: {problem['msg']}") from None
