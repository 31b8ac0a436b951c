"""The protocol: every message between a client and the server, as typed models.

JSON over one websocket per client (``/ws/{table_id}``). Every inbound message is read by
:func:`read_message`, which refuses anything that is not exactly one of the client
messages below (malformed JSON, an unknown ``type``, a missing or unknown field, a value
of the wrong type) with a :class:`ProtocolError` carrying an error code and one line;
the server answers it with an ``error`` message and changes nothing.

>>> read_message('{"type": "act", "seat": 0, "action": "in", "client_seq": 1}')
Act(type='act', seat=0, action='in', client_seq=1)
>>> def refusal(text):
...     try:
...         read_message(text)
...     except ProtocolError as error:
...         print(error.to_dict())
>>> refusal('{"type": "act", "seat": 0, "action": "in"}')
{'type': 'error', 'code': 'invalid', 'message': "act message: 'client_seq' is missing"}
>>> refusal('{"type": "act", "seat": 0, "action": "in", "client_seq": 1, "x": 2}')
{'type': 'error', 'code': 'invalid', 'message': "act message: unknown field 'x'"}
>>> refusal('{"type": "teleport"}')  # doctest: +ELLIPSIS
{'type': 'error', 'code': 'unknown-type', 'message': "unknown message type 'teleport': ..."}
>>> refusal('{"type": ')
{'type': 'error', 'code': 'bad-json', 'message': 'a message must be one JSON object'}

The server's messages are built as plain dicts (they are many) in the shapes of the
server models here, which the tests hold them to. ``docs/protocol.md`` is written from
these models (:func:`protocol_document`; ``python -m guts.server.protocol`` prints it).
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Annotated, Any, Literal

import orjson
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    TypeAdapter,
    ValidationError,
)

from guts.errors import GutsError

__all__ = [
    "CLIENT_MESSAGES",
    "MAX_MESSAGE_BYTES",
    "MAX_NUMBER",
    "MAX_SEATS",
    "PROTOCOL_VERSION",
    "SERVER_MESSAGES",
    "ClientMessage",
    "CreateTable",
    "ErrorCode",
    "ProtocolError",
    "ServerMessage",
    "TableCreated",
    "check_nickname",
    "check_numbers",
    "describe",
    "protocol_document",
    "read_message",
]

PROTOCOL_VERSION = 2
"""Bumped whenever a message changes shape; the snapshot says which one the server speaks."""

MAX_MESSAGE_BYTES = 8192
"""The largest inbound message the server reads."""

MAX_NUMBER = 10**12
"""The largest number a client may write in text the engine reads (an option's value, an
action such as ``raise 50`` or a dealer's-choice game with its options): a message with
a larger one is refused (``invalid``). The integers of the schema have their own bounds,
none above 2**53."""

MAX_SEATS = 32
"""The most seats (asked for, given or refused) a table keeps: ``seat_id`` 0 to 31."""

ErrorCode = Literal[
    "bad-json",
    "too-large",
    "unknown-type",
    "invalid",
    "not-seated",
    "wrong-seat",
    "illegal",
    "not-host",
    "not-now",
    "taken",
    "no-such-seat",
    "no-such-table",
    "rate-limited",
    "bad-origin",
    "bad-host",
    "internal",
]
"""What an ``error`` message is about."""


class ProtocolError(GutsError):
    """An inbound message the server refuses: ``code`` and a one-line ``message``."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code: ErrorCode = code
        self.message = message

    def to_dict(self) -> dict[str, Any]:
        """The ``error`` message that answers it."""
        return {"type": "error", "code": self.code, "message": self.message}


def check_nickname(name: str) -> str:
    """A nickname as shown: normalised (NFKC), 1 to 24 characters once trimmed, none of
    them a control or format character (so no newlines, tabs, bidirectional
    overrides...), a line separator or one that shows as nothing, at most two marks on a
    letter, and something visible (:func:`guts.server.names.normal_nickname`).

    >>> check_nickname("  Jo ")
    'Jo'
    >>> check_nickname("Jo\\u202e")
    Traceback (most recent call last):
    ...
    ValueError: a nickname may not hold control characters
    """
    from guts.server.names import normal_nickname

    return normal_nickname(name, 24)


def _check_text(text: str, what: str, limit: int) -> str:
    text = text.strip()
    if not text:
        raise ValueError(f"{what} may not be empty")
    if len(text) > limit:
        raise ValueError(f"{what} has at most {limit} characters")
    if any(unicodedata.category(char)[0] == "C" or char in "\u2028\u2029" for char in text):
        raise ValueError(f"{what} may not hold control characters")
    return text


_NUMBER = re.compile(r"[\d_]+")


def check_numbers(text: str) -> str:
    """``text`` if every number in it (digits of any script, with ``_`` between them, as
    Python's ``int`` reads them) is at most :data:`MAX_NUMBER`.

    >>> check_numbers("two-card-guts ante=5")
    'two-card-guts ante=5'
    >>> check_numbers("two-card-guts ante=1_000_000_000_000_000")
    Traceback (most recent call last):
    ...
    ValueError: a number may be at most 10^12 (1000000000000)
    """
    for run in _NUMBER.findall(text):
        digits = run.replace("_", "")
        if len(digits) > 13 or (digits and int(digits) > MAX_NUMBER):
            raise ValueError(f"a number may be at most 10^12 ({MAX_NUMBER})")
    return text


def _check_chat(text: str) -> str:
    return _check_text(text, "a chat line", 500)


Nickname = Annotated[
    str,
    StringConstraints(max_length=64, pattern=r"^[^\x00-\x1f\x7f]*$"),
    AfterValidator(check_nickname),
    Field(
        description="1 to 24 characters once trimmed and normalised (NFKC), no control "
        "characters, line separators or characters that show as nothing, at most two "
        "marks on a letter; a name that looks like one at the table is taken"
    ),
]
ChatText = Annotated[
    str,
    StringConstraints(max_length=1000, pattern=r"^[^\x00-\x1f\x7f]*$"),
    AfterValidator(_check_chat),
    Field(description="1 to 500 characters once trimmed, no control characters"),
]
Secret = Annotated[
    str,
    StringConstraints(min_length=1, max_length=200),
    Field(description="the host secret of the host link"),
]
Count = Annotated[int, Field(ge=0, le=2**53)]
OptionValue = Annotated[
    str,
    StringConstraints(max_length=200),
    AfterValidator(check_numbers),
    Field(description="an option's value; any number in it at most 10^12"),
]
OptionName = Annotated[str, StringConstraints(max_length=64)]
Chips = Annotated[int, Field(ge=1, le=10**9)]
BotKind = Literal["random", "threshold", "sensible", "equilibrium"]


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


# -- client to server -------------------------------------------------------------------


class Join(_Message):
    """Ask for a seat with a nickname and a buy-in (the table's when left out). The
    answer is a ``welcome`` with the device token that identifies the seat from then on;
    the seat plays once the host (or the table's auto-approve) approves it."""

    type: Literal["join"]
    nickname: Nickname
    buy_in: Chips | None = None
    secret: Secret | None = None
    """The host's credential, when the host asks for a seat of their own (the host page):
    that seat settles the bots' chips in the ledger. A wrong one is refused."""


class Resume(_Message):
    """Take back a seat after reconnecting (``token``: the device token of its
    ``welcome``) and/or catch up from ``last_seq``, the last table sequence number seen:
    the server sends what was missed, or a fresh snapshot."""

    type: Literal["resume"]
    token: Annotated[str, StringConstraints(min_length=1, max_length=200)] | None = None
    last_seq: Count | None = None


class Act(_Message):
    """The seat's decision. ``client_seq`` numbers the client's actions (1, 2, ...): a
    retried message with a number already applied is acknowledged, not applied again."""

    type: Literal["act"]
    seat: Annotated[int, Field(ge=0, le=63)]
    action: Annotated[
        str,
        StringConstraints(min_length=1, max_length=200),
        AfterValidator(check_numbers),
        Field(description="the action's words; any number in them at most 10^12"),
    ]
    client_seq: Annotated[int, Field(ge=1, le=2**53)]


class Chat(_Message):
    """A line of chat to everyone at the table, from an approved seat, from the host
    (``secret``: the host secret; a host with no seat chats as "Host"), or from a
    spectator where the table lets them (``spectator_chat``, as "Spectator"). Each seat
    (over all its connections), the host and the spectators together may send a line
    every 2 seconds, 5 at once; a table keeps 1,000 lines a night."""

    type: Literal["chat"]
    text: ChatText
    secret: Secret | None = None


class Start(_Message):
    """Host: start the game with the approved seats."""

    type: Literal["start"]
    secret: Secret


class AddBot(_Message):
    """Host: seat a bot (approved at once; the table plays it) in seat ``seat_id``, or the
    first free seat when left out. The table deals its seats in the order of their
    ``seat_id``, so this says where the bot sits: from the start, or from the next deal
    boundary with an empty pot. A seat that any seat of the table's record holds (a
    player's, a bot's, one that left or was refused) is taken."""

    type: Literal["add_bot"]
    secret: Secret
    bot: BotKind = "sensible"
    nickname: Nickname | None = None
    seat_id: Annotated[int, Field(ge=0, le=MAX_SEATS - 1)] | None = None


class Approve(_Message):
    """Host: approve a seat request, optionally with another buy-in."""

    type: Literal["approve"]
    secret: Secret
    seat_id: Count
    buy_in: Chips | None = None


class Refuse(_Message):
    """Host: refuse a seat request."""

    type: Literal["refuse"]
    secret: Secret
    seat_id: Count


class End(_Message):
    """Host: end the night (at once between deals, else when the deal in progress ends)."""

    type: Literal["end"]
    secret: Secret


class SitOut(_Message):
    """Sit out: the table plays the seat safe (out, fold, check, stand pat) for the rest
    of the deal, and deals it out from the next deal boundary with an empty pot (its chips
    held for it) until it comes back."""

    type: Literal["sit_out"]


class ComeBack(_Message):
    """Come back after sitting out or being set away: dealt in again from the next deal
    boundary with an empty pot (the clock's timeouts forgotten)."""

    type: Literal["come_back"]


class Leave(_Message):
    """Leave the table: the seat plays safe until the next deal boundary with an empty
    pot, then is cashed out (a seat not dealt in is cashed out at once). A seat request
    not yet approved is withdrawn: it frees everything it held, as a refusal does."""

    type: Literal["leave"]


class BuyChips(_Message):
    """Ask for chips (a rebuy, or a top-up), at most the table's buy-in: the host approves
    (or the table's auto-approve does), and they are added at the next deal boundary
    with an empty pot."""

    type: Literal["buy_chips"]
    amount: Chips


class Pause(_Message):
    """Host: pause the table (``paused``: nobody acts, no clock runs, nothing happens by
    itself) or resume it (every clock starts afresh)."""

    type: Literal["pause"]
    secret: Secret
    paused: bool = True


class SetAway(_Message):
    """Host: set a person's seat away (``away``; played safe, dealt out from the next deal
    boundary with an empty pot) or back."""

    type: Literal["set_away"]
    secret: Secret
    seat_id: Count
    away: bool = True


class Kick(_Message):
    """Host: kick a person or remove a bot: the seat plays safe until the next deal
    boundary with an empty pot, then is cashed out."""

    type: Literal["kick"]
    secret: Secret
    seat_id: Count


class ApproveChips(_Message):
    """Host: approve a seat's rebuy or top-up (``amount``: the chips it asked for when
    left out; the host may also give chips unasked), added at the next deal boundary with
    an empty pot."""

    type: Literal["approve_chips"]
    secret: Secret
    seat_id: Count
    amount: Chips | None = None


class RefuseChips(_Message):
    """Host: refuse a seat's request for chips."""

    type: Literal["refuse_chips"]
    secret: Secret
    seat_id: Count


class SetOptions(_Message):
    """Host: change the game's options (all of them, as ``guts rules`` lists them; the
    stakes, such as ``ante``, are options) and the buy-in, from the next deal boundary
    with an empty pot."""

    type: Literal["set_options"]
    secret: Secret
    options: dict[OptionName, OptionValue] = Field(max_length=64)
    buy_in: Chips | None = None


class HandHost(_Message):
    """Host: hand the host role to a seated person. From then on that seat's device token
    is the host's ``secret`` and the old host secret is not."""

    type: Literal["hand_host"]
    secret: Secret
    seat_id: Count


PlayerMessage = SitOut | ComeBack | Leave | BuyChips
HostMessage = (
    Start
    | AddBot
    | Approve
    | Refuse
    | End
    | Pause
    | SetAway
    | Kick
    | ApproveChips
    | RefuseChips
    | SetOptions
    | HandHost
)
CLIENT_MESSAGES: tuple[type[_Message], ...] = (
    Join,
    Resume,
    Act,
    Chat,
    SitOut,
    ComeBack,
    Leave,
    BuyChips,
    Start,
    AddBot,
    Approve,
    Refuse,
    End,
    Pause,
    SetAway,
    Kick,
    ApproveChips,
    RefuseChips,
    SetOptions,
    HandHost,
)
ClientMessage = Annotated[
    Join | Resume | Act | Chat | PlayerMessage | HostMessage,
    Field(discriminator="type"),
]
_TYPES = {
    model.model_fields["type"].annotation.__args__[0]: model  # type: ignore[union-attr]
    for model in CLIENT_MESSAGES
}
_CLIENT: TypeAdapter[Any] = TypeAdapter(ClientMessage)


AnyMessage = Join | Resume | Act | Chat | PlayerMessage | HostMessage
"""Any client message, as :func:`read_message` returns it."""


def read_message(text: str | bytes) -> AnyMessage:
    """The client message ``text`` holds; ProtocolError if it is not exactly one."""
    if len(text) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too-large", f"a message has at most {MAX_MESSAGE_BYTES} bytes")
    try:
        data = orjson.loads(text)  # stricter than json: no NaN, no lone surrogates
    except (ValueError, UnicodeDecodeError):
        raise ProtocolError("bad-json", "a message must be one JSON object") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad-json", "a message must be a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _TYPES:
        shown = repr(kind[:40]) if isinstance(kind, str) else json.dumps(kind)[:40]
        raise ProtocolError(
            "unknown-type",
            f"unknown message type {shown}: docs/protocol.md lists the {len(_TYPES)} types "
            "(join, resume, act, chat, ...)",
        )
    try:
        message: AnyMessage = _CLIENT.validate_python(data)
    except ValidationError as error:
        raise ProtocolError("invalid", _one_line(kind, error)) from None
    return message


def _one_line(kind: str, error: ValidationError) -> str:
    """The first problem of ``error`` in words, naming the field."""
    problem = error.errors(include_url=False, include_input=False)[0]
    loc = [str(part) for part in problem["loc"] if part != kind]
    field = repr(".".join(loc)) if loc else "it"
    if problem["type"] == "missing":
        text = f"{field} is missing"
    elif problem["type"] == "extra_forbidden":
        text = f"unknown field {field}"
    else:
        text = f"{field}: {problem['msg'].removeprefix('Value error, ')}"
    return f"{kind} message: {text}"[:200]


# -- server to client -------------------------------------------------------------------


class TableInfo(_Message):
    """The table: its game and stakes (``why_paused``: why the table paused itself, null
    when the host paused it or it plays)."""

    id: str
    preset: str
    family: str
    options: dict[str, str]
    buy_in: int
    auto_approve: bool
    status: Literal["lobby", "playing", "over"]
    paused: bool = False
    why_paused: str | None = None
    spectator_chat: bool = False
    host_seat: int | None = None
    clock: int = 30
    time_bank: int = 60
    waiting: bool = False


SeatStatus = Literal["requested", "approved", "refused", "left"]


class SeatInfo(_Message):
    """A seat as everyone sees it (``seat``: its number in the session in play, null when
    not dealt in; ``away``: sitting out or set away; ``leaving``: cashed out at the next
    deal boundary with an empty pot; ``asked``: chips it asked for, waiting for the host;
    ``connected``: a person's seat has a client connected now, a bot's always)."""

    seat_id: int
    nickname: str
    kind: Literal["person", "random", "threshold", "sensible", "equilibrium"]
    buy_in: int
    status: SeatStatus
    seat: int | None
    away: bool = False
    leaving: bool = False
    asked: int = 0
    connected: bool = True


class You(_Message):
    """The receiving client's own seat (``host``: it holds the host role)."""

    seat_id: int
    seat: int | None
    nickname: str
    status: SeatStatus
    host: bool = False


class Clock(_Message):
    """The action clock of a seat that must decide: ``seconds`` left before its clock
    runs out, then ``bank`` seconds of its time bank; at the end of both the table takes
    the safe action for it."""

    seat: int
    seconds: float
    bank: float


class Snapshot(_Message):
    """Everything the client may see now: sent on connecting, on joining or resuming,
    and whenever the server cannot send just what was missed. ``game`` is the seat's
    view (a spectator's: the public view) once the game has started."""

    type: Literal["snapshot"]
    protocol: int
    seq: int
    table: TableInfo
    seats: list[SeatInfo]
    you: You | None
    game: dict[str, Any] | None
    clocks: list[Clock] = Field(default_factory=list)
    chat: list[ChatLine] = Field(default_factory=list)


class EventMessage(_Message):
    """What one command (table sequence number ``seq``) did, as the client may see it:
    the engine events it caused that the client may see, who is to act, the client's own
    decision (or null), the stacks and the pot, and ``game``: the client's view after
    the command (as in a snapshot) without its ``events``. When the command is this
    connection's own ``act``, ``acked`` is that act's ``client_seq``: the frame is its
    acknowledgement (no ``ack`` follows)."""

    type: Literal["event"]
    seq: int
    events: list[dict[str, Any]]
    to_act: list[int]
    decision: dict[str, Any] | None
    stacks: list[int]
    pot: int
    status: Literal["lobby", "playing", "over"]
    clocks: list[Clock] = Field(default_factory=list)
    game: dict[str, Any]
    acked: int | None = None


class Seats(_Message):
    """The seats changed (command ``seq``): a request, an approval, a bot, the start, or a
    person's connection came or went (``seq`` then the last command's)."""

    type: Literal["seats"]
    seq: int
    status: Literal["lobby", "playing", "over"]
    seats: list[SeatInfo]


class Welcome(_Message):
    """A ``join`` was accepted: keep ``token``, it is the seat's identity (``resume``)."""

    type: Literal["welcome"]
    seat_id: int
    nickname: str
    token: str
    status: SeatStatus


class Ack(_Message):
    """An ``act`` was applied as command ``seq`` (or had been, when ``duplicate``: a
    retried act, ``seq`` null if it is older than the seat's last) and no ``event``
    frame says so (``acked``): a retried act, or one the server answered with snapshots."""

    type: Literal["ack"]
    client_seq: int
    seq: int | None
    duplicate: bool


class Error(_Message):
    """A message was refused and nothing changed."""

    type: Literal["error"]
    code: ErrorCode
    message: str


class ChatLine(_Message):
    """A line of chat (kept with the table: ``seq`` its command's number; ``seat_id``
    -1: the host with no seat, -2: a spectator)."""

    type: Literal["chat"]
    seat_id: int
    nickname: str
    text: str
    seq: int | None = None


Snapshot.model_rebuild()

SERVER_MESSAGES: tuple[type[_Message], ...] = (
    Snapshot,
    EventMessage,
    Seats,
    Welcome,
    Ack,
    Error,
    ChatLine,
)
ServerMessage = Annotated[
    Snapshot | EventMessage | Seats | Welcome | Ack | Error | ChatLine,
    Field(discriminator="type"),
]
SERVER: TypeAdapter[Any] = TypeAdapter(ServerMessage)


# -- HTTP -----------------------------------------------------------------------------


class CreateTable(_Message):
    """``POST /api/tables``: open a table of ``preset`` with ``options`` (as
    ``guts rules`` lists them), each player's ``buy_in``, ``bots`` bots of kind ``bot``
    seated, seats approved without the host when ``auto_approve``, and the game started
    at once when ``start`` (with the bots seated by then). ``clock``: each person's
    seconds per decision (0: no clock), ``time_bank``: the seconds each person may spend
    beyond it over the night, ``away_after``: the timeouts in a row that set a seat away
    (0: never), ``spectator_chat``: people with no approved seat may chat."""

    preset: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    options: dict[OptionName, OptionValue] = Field(default_factory=dict, max_length=64)
    buy_in: Chips = 100
    bots: Annotated[int, Field(ge=0, le=16)] = 0
    bot: BotKind = "sensible"
    auto_approve: bool = False
    start: bool = False
    clock: Annotated[int, Field(ge=0, le=3600)] = 30
    time_bank: Annotated[int, Field(ge=0, le=3600)] = 60
    away_after: Annotated[int, Field(ge=0, le=100)] = 2
    spectator_chat: bool = False


class TableCreated(_Message):
    """The answer to ``POST /api/tables``: the link to send the players, and the host's
    link, whose ``#host=`` fragment holds the host secret (a fragment never reaches a
    server's logs). ``ws_url`` is the table's websocket."""

    table_id: str
    join_url: str
    host_url: str
    ws_url: str
    host_secret: str


# -- the document ---------------------------------------------------------------------


def protocol_document() -> str:
    """``docs/protocol.md``: every message with its JSON Schema (a test keeps the file
    equal to this)."""
    lines = [
        "# The guts table protocol",
        "",
        f"Protocol version: **{PROTOCOL_VERSION}**. Written by `python -m guts.server.protocol`"
        " from the models in `src/guts/server/protocol.py`; a test checks it is current.",
        "",
        "A client opens one websocket, `/ws/{table_id}` (a `?v=N` query names the protocol",
        "version it speaks; another one than the server's is refused), and exchanges JSON",
        "text messages, one object each, told apart by `type`. The server first sends a",
        "`snapshot` (the public one until the client is seated). Every inbound message is",
        "validated against its schema: malformed JSON, an unknown `type`, a missing or",
        "unknown field, a value of the wrong type, a wrong seat, an action out of turn or",
        "illegal get an `error` (a code and one line) and change nothing. A connection the",
        "server refuses gets an `error` and is closed (code 4404: no such table, 4403: a page",
        "of another site, 4400: another protocol version, 4429: the client's address holds",
        "too many connections; a connection that keeps flooding is closed with 1008; a",
        "`Host` the server does not serve is refused before it opens); one the server",
        "fails gets an `error` with code `internal`, and no detail, and is closed with code",
        "1011. Binary frames are refused: the protocol is text frames. A server of several",
        "nodes (docs/nodes.md) closes a connection with 1012 when its table moved to",
        "another node, or frames were lost between nodes: reconnect and `resume`.",
        "",
        "Each accepted command has the table's next sequence number (`seq`); the server",
        "commits it before anyone hears of it, then sends each client what it may see of it",
        "(an `event` or a `seats` message with that `seq`). A client that reconnects sends",
        "`resume` with its device token and the last `seq` it saw, and gets what it missed",
        "or a fresh `snapshot`. Game state reaches a client only as the engine lets that",
        "seat see it: its `view()`, the public view for spectators, and the events whose",
        "audience includes it.",
        "",
        "Host commands carry the host secret (`secret`) of the host link (once the host",
        "role is handed on, the new host's device token). Seats, chips and options change",
        "only at a deal boundary with no chips in the pot (after every hand of draw poker,",
        "when a pot is won in Guts): a seat that is away, sitting out or leaving is played",
        "safe until then (out, fold, check, stand pat; the sensible bot's choice where",
        "nothing is safe), and a person whose clock and time bank run out has the safe",
        "action taken for it (`clocks` in `snapshot` and `event` say how long each seat",
        "has). Misuse of any command gets an `error` and changes nothing.",
        "",
        "A server that restarts (after a crash too) rebuilds every open table from its",
        "record: the seat to act gets a fresh decision clock, and every time bank is as",
        "last committed (each accepted action records the bank it used; time spent on a",
        "decision the restart interrupted is not charged).",
        "",
        "`GET /api/tables/{table_id}/history` gives the table's hand histories as JSON",
        "lines (`guts replay` reads each session's), with the cards the requester could not",
        "see redacted: send a seat's device token (`Authorization: Bearer TOKEN`) to see",
        "that seat's cards, the host secret for a spectator's record (nothing: refused, 403). With",
        "`?format=phh` (draw poker) it gives the hands in PHH.",
        "",
        "## Client to server",
        "",
    ]
    for model in CLIENT_MESSAGES:
        lines += describe(model)
    lines += ["## Server to client", ""]
    for model in SERVER_MESSAGES:
        lines += describe(model)
    lines += [
        "## HTTP",
        "",
        "`POST /api/tables` takes a `CreateTable` object and answers `201` with a",
        "`TableCreated` one; `GET /api/tables/{table_id}` gives the table's public summary",
        "(its game, status, seats, stacks and pot, and `seq`); `GET",
        "/api/tables/{table_id}/ledger`, with the header `Authorization: Bearer SECRET` (the",
        "host secret), gives each player's `buy_in`, `buy_out`, `stack` and `net`, the",
        "settlement in the fewest payments (`settlement`) and, while chips are still in a",
        "pot, none and why (`unsettled`: a line, else null), or with `?format=csv` the CSV",
        "of PokerNow's columns. A refused request",
        "is answered with `400` (`403` without the host secret, `404` for an unknown table,",
        "`413` for a body over its limit: 8192 bytes, 1 MiB for `POST /api/narrate`)",
        "and an `error` object as above; a request the server fails, with `500` and an",
        "`internal` one.",
        "",
    ]
    for model in (CreateTable, TableCreated):
        lines += describe(model, f"`{model.__name__}`")
    from guts.server.night_protocol import night_section

    prose, parts = night_section()
    lines += prose
    for title, part in parts:
        lines += describe(part, title)
    lines += after_section()
    return "\n".join(lines).rstrip() + "\n"


def after_section() -> list[str]:
    """``docs/protocol.md``'s section on the routes of :mod:`guts.server.after` (its
    lines)."""
    return [
        "## After the deal: replays and the review",
        "",
        "Each of these routes wants `Authorization: Bearer TOKEN`: a seat's device token (that",
        "seat's own view; the review is the seat's alone) or the host secret (a spectator's",
        "view; no review). Without one, or with another, it answers `403` (`not-seated`);",
        "an unknown table `404`.",
        "",
        '`GET /api/tables/{table_id}/deals` lists the night\'s finished deals: `{"table_id",',
        '"deals": [{"session", "deal", "night", "game", "number"}]}`, `session` counted from',
        "1 in the night, `deal` from 1 in its session, `night` from 1 in the night,",
        "`number` the deal's number as its game",
        "counts it.",
        "",
        "`GET /api/tables/{table_id}/deals/{session}/{deal}` gives one finished deal step by",
        'step as the caller\'s seat saw it: `{"session", "deal", "night", "game", "seat",',
        '"players", "events", "steps"}` (`night`: the deal\'s number in the night, from 1).',
        "`events` are the deal's events the seat may",
        "see, as the `event` message carries them (for `POST /api/narrate`); each step is",
        '`{"view", "seen"}`: the seat\'s `view()` without its events (the public view for',
        "the host secret or a seat not dealt in) when the deal was dealt, before each later",
        "decision and at its end, and how many of `events` had happened then. The server",
        "replays the session's record up to each step (in a thread): nothing is sent but",
        "what the engine lets that seat see. A deal not finished, or not there, is `404`",
        "(`no-such-deal`). The page opens a deal's replay from the link",
        "`/t/{table_id}#replay={session}.{deal}`, for each reader from their own seat.",
        "",
        "`GET /api/tables/{table_id}/review` runs the coach (`guts review`) over the seat's",
        'own history download and gives the seat\'s own declarations: `{"available": true,',
        '"name", "decisions", "total", "costliest", "unjudged",',
        '"unjudged_reasons"}`, each decision as `guts review --json` gives it (with `best`,',
        "the equilibrium's declaration in words), `total` its `cost` (pot units) and",
        "`cost_chips`, the costliest five that cost anything, and the decisions not judged",
        "with their reasons. A server without the solve extra (numba) answers",
        '`{"available": false, "message"}`.',
        "",
    ]


def describe(model: type[BaseModel], title: str = "") -> list[str]:
    """A model's section of the document: its title, its docstring, its JSON Schema."""
    if not title:
        title = f"`{model.model_fields['type'].annotation.__args__[0]}`"  # type: ignore[union-attr]
    doc = " ".join((model.__doc__ or "").split())
    schema = json.dumps(model.model_json_schema(), indent=2, sort_keys=True)
    return [f"### {title}", "", doc, "", "```json", schema, "```", ""]


if __name__ == "__main__":
    print(protocol_document(), end="")
