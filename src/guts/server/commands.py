"""The commands a table accepts, as they are stored (the table's record).

Every change to a table is one of these, numbered by the table's sequence: seats asked
for, given, refused, bots seated (the lobby); the game started, each deal started, each
action, the end asked for and the stop (the engine). A command that shuffles carries the
draws it made (:mod:`guts.server.dealer`), so replaying the commands in order rebuilds
the table exactly. Unlike the protocol's messages these never leave the server: they hold
token hashes and deck orders.

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
    "BotCommand",
    "Command",
    "CommandError",
    "DealCommand",
    "EndCommand",
    "JoinCommand",
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
    """A person asked for a seat (approved at once on an auto-approve table)."""

    kind: Literal["join"] = "join"
    seat_id: int
    nickname: str
    buy_in: int
    token_hash: str


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
    """The host refused a seat request."""

    kind: Literal["refuse"] = "refuse"
    seat_id: int


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
    for it; None for a bot's)."""

    kind: Literal["act"] = "act"
    seat: int
    action: str
    seat_id: int
    client_seq: int | None = None
    draws: list[dict[str, Any]] = Field(default_factory=list)


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
