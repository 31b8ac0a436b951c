"""The HTTP and websocket routes (Starlette), and ``guts serve``.

``POST /api/tables`` opens a table, ``GET /api/tables/{id}`` is its public summary, and
``/ws/{id}`` its websocket, over which clients speak the protocol of
:mod:`guts.server.protocol`. The routes only relay: every message goes to the table's
actor (:mod:`guts.server.actor`), which answers on the connection. One structured line
(JSON) is logged per request, connection and error; a client never sees a stack trace:
an unexpected error is an ``internal`` error (a 500 answer, or an ``error`` frame and a
close with code 1011).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import socket
import sys
import threading
import time
from collections.abc import (
    AsyncIterator,
    Callable,
    Coroutine,
    Generator,
)
from typing import Any, TextIO, cast

import orjson
from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from guts.errors import GutsError
from guts.server.actor import Client, Settings, TableActor
from guts.server.after import after_routes
from guts.server.clubs import club_routes
from guts.server.limits import (
    AddressBook,
    BodyTooLarge,
    Limits,
    bearer_token,
    client_address,
    read_body,
)
from guts.server.pages import ledger_response, page_routes
from guts.server.past import from_record
from guts.server.presets import check_bots, table_game
from guts.server.protocol import (
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    AddBot,
    CreateTable,
    ProtocolError,
    Start,
    read_message,
)
from guts.server.records import history_lines, phh_documents
from guts.server.storage import Storage
from guts.server.tables import Tables

__all__ = ["JsonLines", "create_app", "serve"]

log = logging.getLogger("guts.server")

MAX_QUEUED = 1000
"""A client that falls this many messages behind is disconnected (it resumes)."""
HEADER_TIMEOUT = 10.0
"""Seconds a client has to send a request's headers (``--header-timeout``)."""
GC_THRESHOLDS = (50_000, 20, 20)
"""The cyclic garbage collector's thresholds while serving: a server makes many short
lived dicts a command (views, frames), and at the default 700 it spent a sixth of its
time collecting them, for little garbage (these free themselves)."""
RATE = 20.0
BURST = 60.0
"""Each connection may send ``RATE`` messages a second, ``BURST`` at once."""


class JsonLines(logging.Formatter):
    """One JSON object per log line: the time, level, message and any ``extra`` fields
    (an exception, or a stack, in one field as a string: never lines of its own)."""

    FIELDS = ("event", "method", "path", "status", "ms", "table", "tables", "client", "code",
              "seq", "messages")  # fmt: skip

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "at": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
            "level": record.levelname.lower(),
            "message": _message(record),
        }
        if not record.name.startswith("guts."):
            line["logger"] = record.name  # uvicorn's, asyncio's, a warning...
        for name in self.FIELDS:
            if hasattr(record, name):
                line[name] = getattr(record, name)
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, default=str)


def _message(record: logging.LogRecord) -> str:
    """``record``'s message; its template and arguments if they do not make one (logging
    would otherwise print its own lines about it)."""
    try:
        return record.getMessage()
    except Exception:
        return f"{record.msg!s} {record.args!r}"


def _log_json_lines(stream: TextIO) -> None:
    """Send every log record of the process to ``stream`` as JSON lines: the server's
    from INFO, the others' (uvicorn's, asyncio's, the warnings) from WARNING, and an
    exception no thread caught."""
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonLines())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.WARNING)
    for name in ("guts.server", "uvicorn", "uvicorn.error", "uvicorn.asgi"):
        logging.getLogger(name).handlers.clear()
        logging.getLogger(name).propagate = True
    log.setLevel(logging.INFO)
    logging.captureWarnings(True)
    threading.excepthook = _log_thread_error


def _log_thread_error(failed: threading.ExceptHookArgs) -> None:
    """Log an exception that ended a thread (Python would print its trace in lines)."""
    if failed.exc_type is SystemExit or failed.exc_value is None:
        return
    error = (failed.exc_type, failed.exc_value, failed.exc_traceback)
    log.error("a thread failed", exc_info=error, extra={"event": "error"})


class _Connection(Client):
    """A websocket client. A message is written at once when nothing waits before it (the
    usual case: the socket takes it without waiting); otherwise, or when the socket
    makes the write wait, it waits in the outbox for the writer task, in order."""

    def __init__(self, websocket: WebSocket, send: Send) -> None:
        super().__init__()
        self.websocket = websocket
        self._send = send  # the ASGI ``send`` the frames go to
        self.overflowed = False
        self.closing = 1000  # the close code once the outbox is written out
        self.messages = 0  # received
        self.gone = False  # a write failed: the client is gone (the reader sees it)
        self.writing = False  # the writer task is in the middle of a write
        self.allowance = BURST
        self.checked = time.monotonic()
        self.flooding = 0  # messages over the rate in a row

    def send(self, message: dict[str, Any]) -> None:
        if self.overflowed or self.gone:
            return
        outbox = self.outbox
        if self.writing or not outbox.empty():  # others wait: after them, in order
            if outbox.qsize() >= MAX_QUEUED:
                self.overflowed = True
                outbox.put_nowait(None)  # the writer stops and the connection closes
                return
            outbox.put_nowait(message)
            return
        write = self.write(message)
        try:
            written, waiting = _write_until_it_waits(write)
        except Exception:
            self.gone = True
            return
        if written:
            return
        self.writing = True  # the socket's buffer is full: the writer finishes this write
        outbox.put_nowait({_UNFINISHED: _Unfinished(write, waiting)})

    def write(self, message: dict[str, Any]) -> Coroutine[Any, Any, None]:
        """Write ``message`` as a text frame (a coroutine: await it, or drive it: an ASGI
        server's ``send``, and Starlette's around it, are coroutine functions)."""
        frame = {"type": "websocket.send", "text": _frame_text(message)}
        return cast(Coroutine[Any, Any, None], self._send(frame))

    def fail(self) -> None:
        """Tell the client the server failed, after what waits, and close with 1011."""
        self.send(INTERNAL.to_dict())
        self.closing = 1011

    def within_rate(self) -> bool:
        """Take one message from the connection's allowance (False: over the limit)."""
        now = time.monotonic()
        self.allowance = min(BURST, self.allowance + (now - self.checked) * RATE)
        self.checked = now
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True


def _error(code: str, message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"type": "error", "code": code, "message": message}, status_code=status)


def _tables(request: Request | WebSocket) -> Tables:
    tables: Tables = request.app.state.tables
    return tables


async def create_table(request: Request) -> Response:
    """``POST /api/tables`` (each client address may open ``tables_per_minute``)."""
    limits: Limits = request.app.state.limits
    if not await request.app.state.addresses.may_open_table(client_address(request, limits)):
        return _error("rate-limited", f"an address may open {limits.tables_per_minute} "
                                      "tables a minute: wait a little", 429)  # fmt: skip
    try:
        body = await read_body(request, MAX_MESSAGE_BYTES)
    except BodyTooLarge:
        return _error("too-large", f"a request has at most {MAX_MESSAGE_BYTES} bytes", 413)
    try:
        wanted = CreateTable.model_validate_json(body)
    except ValidationError as error:
        problem = error.errors(include_url=False, include_input=False)[0]
        where = ".".join(str(part) for part in problem["loc"]) or "the body"
        return _error("invalid", f"{where}: {problem['msg']}"[:200])
    try:
        game = table_game(wanted.preset)
        game.rules(wanted.options)
        if wanted.bots:
            check_bots(game, wanted.bot, wanted.options)
        if wanted.start:  # the engine's own checks of the players, before anything is made
            bots = [(f"Bot {n}", wanted.buy_in) for n in range(wanted.bots)]
            game.new_session(bots, options=wanted.options)
    except GutsError as error:
        return _error("invalid", str(error)[:300])
    tables = _tables(request)
    clocks = {"clock": wanted.clock, "time_bank": wanted.time_bank,
              "away_after": wanted.away_after,
              "spectator_chat": int(wanted.spectator_chat)}  # fmt: skip
    actor, secret = await tables.create(
        wanted.preset,
        dict(wanted.options),
        wanted.buy_in,
        auto_approve=wanted.auto_approve,
        clocks=clocks,
    )
    try:
        for _ in range(wanted.bots):
            await actor.call(AddBot(type="add_bot", secret=secret, bot=wanted.bot))
        if wanted.start:
            await actor.call(Start(type="start", secret=secret))
    except ProtocolError as error:
        return _error(error.code, error.message)
    base = str(request.app.state.public_url or request.base_url).rstrip("/")
    ws_base = base.replace("https://", "wss://").replace("http://", "ws://")
    created = {
        "table_id": actor.id,
        "join_url": f"{base}/t/{actor.id}",
        "host_url": f"{base}/t/{actor.id}#host={secret}",
        "ws_url": f"{ws_base}/ws/{actor.id}",
        "host_secret": secret,
    }
    log.info("table created", extra={"event": "table", "table": actor.id})
    return JSONResponse(created, status_code=201)


async def table_summary(request: Request) -> Response:
    """``GET /api/tables/{table_id}``: what anyone with the link may know."""
    actor = await _tables(request).get(request.path_params["table_id"])
    if actor is None:
        return _error("no-such-table", "no table has that id", 404)
    return JSONResponse(await actor.query(actor.summary))


async def table_ledger(request: Request) -> Response:
    """``GET /api/tables/{table_id}/ledger`` (the host's: ``Authorization: Bearer
    SECRET``): each player's buy-in, cash-out, stack and net, and the settlement; as CSV
    with ``?format=csv``."""
    actor = await _tables(request).get(request.path_params["table_id"])
    if actor is None:
        return _error("no-such-table", "no table has that id", 404)
    if not actor.is_host(bearer_token(request)):
        return _error("not-host", "the ledger is the host's: send the host secret", 403)
    return await ledger_response(request, actor)


async def table_history(request: Request) -> Response:
    """``GET /api/tables/{table_id}/history``: the night's hand histories as JSON lines,
    redacted for the requester (``Authorization: Bearer TOKEN``, a seat's device token:
    that seat's view; the host secret: a spectator's; nothing: refused); ``?format=phh``
    for draw poker. Written in a thread from the table's record as committed when it was
    asked (replayed there: the table in play keeps only its session in play), so a long
    night's record never stalls the tables."""
    actor = await _tables(request).get(request.path_params["table_id"])
    if actor is None:
        return _error("no-such-table", "no table has that id", 404)
    token = bearer_token(request)
    if not token:
        return _error("not-seated", "a history is its players' and the host's: send a "
                                    "seat's token or the host secret", 403)  # fmt: skip

    seat_id, host = await actor.query(lambda: (actor.seat_of(token), actor.is_host(token)))
    if seat_id is None and not host:
        return _error("not-seated", "that token is no seat's of this table", 403)
    phh = request.query_params.get("format") == "phh"
    write = phh_documents if phh else history_lines
    try:
        lines = await from_record(actor,
                                  lambda night: list(write(night.state, seat_id, night.upto)))
    except GutsError as error:
        return _error("invalid", str(error)[:300])
    name = f"guts-{actor.id}-history.{'phh' if phh else 'jsonl'}"
    return Response("".join(line + "\n" for line in lines),
                    media_type="text/plain; charset=utf-8" if phh else "application/x-ndjson",
                    headers={"content-disposition": f'attachment; filename="{name}"'})  # fmt: skip


async def health(request: Request) -> Response:
    """``GET /healthz``: the server is up; how many tables it holds, whether every open
    table loaded at startup, and how many would not replay (left closed; the log names
    them): never a table's id, which is its link. One node of several also says its id."""
    tables = _tables(request)
    broken: list[str] = request.app.state.broken
    answer: dict[str, Any] = {"ok": True, "protocol": PROTOCOL_VERSION,
                              "tables": len(tables.actors),
                              "loaded": not broken, "broken": len(broken)}  # fmt: skip
    if tables.node is not None:  # one node of several: which (the tables are its own)
        answer["node"] = tables.node.id
    return JSONResponse(answer)


class _TableSocket:
    """``/ws/{table_id}`` as an ASGI app, so that the frames go to the server's ``send``
    at once rather than through a :class:`~starlette.websockets.WebSocket`'s methods (a
    server writes five frames an action: each layer less counts)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await table_socket(WebSocket(scope, receive, send), send)


async def table_socket(websocket: WebSocket, send: Send) -> None:
    """``/ws/{table_id}``: read the client's messages, hand them to the table's actor, and
    write what the actor sends back (to ``send``, the connection's ASGI one). An
    unexpected error is logged (one line, with the table and the client); the client
    gets an ``internal`` error, and the socket is closed with code 1011."""
    where = {"table": websocket.path_params["table_id"], "client": _peer(websocket)}
    limits: Limits = websocket.app.state.limits
    addresses: AddressBook = websocket.app.state.addresses
    address = client_address(websocket, limits)
    if not await addresses.connect(address):
        busy = ProtocolError("rate-limited", f"an address may hold {limits.connections} "
                                             "connections: close some")  # fmt: skip
        log.info("connection refused", extra={"event": "refused", "code": busy.code, **where})
        await _refuse(websocket, busy, 4429)
        return
    try:
        try:
            actor = await _admit(websocket, where)
        except Exception:
            log.exception("connection failed", extra={"event": "error", **where})
            await _refuse(websocket, NOT_OPENED, 1011)
            return
        if actor is not None:
            await _relay(websocket, actor, _Connection(websocket, send), where)
    finally:
        await addresses.disconnect(address)


async def _admit(websocket: WebSocket, where: dict[str, str]) -> TableActor | None:
    """Accept the connection, and find its table: None if it is refused (told why)."""
    await websocket.accept()
    version = websocket.query_params.get("v")
    refusal = None
    actor = None
    if not _same_origin(websocket):
        refusal = ProtocolError("bad-origin", "a page of another site may not open this table")
    elif (actor := await _tables(websocket).get(where["table"])) is None:
        refusal = ProtocolError("no-such-table", "no table has that id")
    elif version not in (None, str(PROTOCOL_VERSION)):
        refusal = ProtocolError("invalid", f"this server speaks protocol {PROTOCOL_VERSION}, "
                                           f"not {version[:20]}")  # fmt: skip
    if refusal is None:
        return actor
    await _refuse(websocket, refusal, {"no-such-table": 4404, "bad-origin": 4403}.get(
        refusal.code, 4400))  # fmt: skip
    log.info("connection refused", extra={"event": "refused", "code": refusal.code, **where})
    return None


async def _refuse(websocket: WebSocket, error: ProtocolError, code: int) -> None:
    """Send ``error`` (accepting the connection first if need be) and close with ``code``."""
    with contextlib.suppress(Exception):  # the client may be gone already
        if websocket.application_state is WebSocketState.CONNECTING:
            await websocket.accept()
        await websocket.send_text(json.dumps(error.to_dict()))
        await websocket.close(code=code)


async def _relay(
    websocket: WebSocket, actor: TableActor, client: _Connection, where: dict[str, str]
) -> None:
    """Relay between the client and ``actor`` until the client goes."""
    actor.attach(client)
    writer = asyncio.create_task(_write(websocket, client))
    log.info("connected", extra={"event": "connect", **where})
    try:
        await _read(websocket, actor, client)
    except WebSocketDisconnect:
        pass
    except Exception:
        log.exception("connection failed", extra={"event": "error", **where})
        client.fail()
    finally:
        actor.detach(client)
        client.outbox.put_nowait(None)
        with contextlib.suppress(Exception):
            await writer
        log.info("disconnected", extra={"event": "disconnect", "messages": client.messages,
                                        **where})  # fmt: skip


async def _read(websocket: WebSocket, actor: TableActor, client: _Connection) -> None:
    """Hand the client's messages to ``actor`` (answering the bad ones) until it goes."""
    while True:
        received = await websocket.receive()
        if received["type"] == "websocket.disconnect":
            return
        client.messages += 1
        if not client.within_rate():
            client.flooding += 1
            if client.flooding == 1:  # the first of a run is answered, the rest are not
                client.send(SLOW_DOWN.to_dict())
            elif client.flooding >= websocket.app.state.limits.flood_closes:
                client.send(FLOODED.to_dict())
                client.closing = 1008
                return
            continue
        client.flooding = 0
        text = received.get("text")
        if text is None:
            client.send(TEXT_ONLY.to_dict())
            continue
        try:
            message = read_message(text)
        except ProtocolError as error:
            client.send(error.to_dict())
            continue
        actor.post(message, client)


async def _write(websocket: WebSocket, client: _Connection) -> None:
    """Write what waits in ``client``'s outbox, in order, until it says to stop (None)."""
    while True:
        message = await client.outbox.get()
        if message is None:
            break
        client.writing = True
        try:
            unfinished = message.get(_UNFINISHED)
            if unfinished is not None:
                await unfinished
            else:
                await client.write(message)
        except Exception:  # the client is gone; the reader sees the disconnect
            client.gone = True
            return
        finally:
            client.writing = False
    with contextlib.suppress(Exception):
        await websocket.close(code=1008 if client.overflowed else client.closing)


_UNFINISHED = "\0unfinished"
"""The outbox key of a write begun by :meth:`_Connection.send` that must wait."""


def _write_until_it_waits(write: Coroutine[Any, Any, None]) -> tuple[bool, Any]:
    """Run the write ``write`` (a coroutine, begun or not) on here, outside any task, until
    it is done or must wait: ``(True, None)`` when it is done, else ``(False, what it
    waits for)`` (a future, which whoever finishes the write waits for first); its errors
    pass on.

    Why by hand: a table's actor tells its clients without waiting (:meth:`Client.send`),
    and a websocket's write is nearly always done without waiting (the socket takes the
    frame at once). Writing each frame at once, rather than queueing it for the
    connection's writer task and waking that task for it, took the server's CPU per
    action from 0.61-0.65 to 0.52-0.54 ms (200 tables of 4 seats over real websockets,
    measured A/B when it came in, commit e794819). A write that must wait is finished by
    the writer task, in order (:class:`_Unfinished`)."""
    try:
        return False, write.send(None)
    except StopIteration:
        return True, None


class _Unfinished:
    """A write begun outside any task that then had to wait (for ``waiting``, a future):
    awaiting this in the writer task finishes it there."""

    def __init__(self, write: Coroutine[Any, Any, None], waiting: Any) -> None:
        self.write, self.waiting = write, waiting

    def __await__(self) -> Generator[Any, None, None]:
        waiting, write = self.waiting, self.write
        while True:
            try:
                yield waiting  # the writer task waits for it, as the write would
            except BaseException as error:  # the writer was cancelled: pass it on
                try:
                    waiting = write.throw(error)
                except StopIteration:
                    return
                continue
            written, waiting = _write_until_it_waits(write)
            if written:
                return


SLOW_DOWN = ProtocolError("rate-limited", "too many messages: slow down (the rest of this "
                                          "run is dropped unanswered)")  # fmt: skip
FLOODED = ProtocolError("rate-limited", "too many messages: the connection is closed")
TEXT_ONLY = ProtocolError("invalid", "the protocol is JSON in text frames, not binary ones")
INTERNAL = ProtocolError("internal", "the server failed: nothing was changed; try again")
"""What a client is told of an unexpected error (the log has the rest)."""
NOT_OPENED = ProtocolError("internal", "the server could not open the table now: try again")
"""What a client is told when its connection failed before it was relayed."""


def _frame_text(message: dict[str, Any]) -> str:
    """``message`` as the text of a websocket frame: compact JSON, made by orjson (over
    ten times faster than the json module on these frames, which the server writes for
    every seat after every action); keys that are not strings are written as strings,
    as the json module writes them."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


def _same_origin(websocket: WebSocket) -> bool:
    """True unless a browser says the page opening the socket is of another site: its
    ``Origin`` must name this server (as the client reached it, or its public URL).
    Clients that are not browsers send no ``Origin``."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    host = websocket.headers.get("host", "")
    public = websocket.app.state.public_url
    allowed = {f"http://{host}", f"https://{host}"}
    if public:
        allowed.add(str(public).rstrip("/"))
    return origin.rstrip("/") in allowed


def _peer(connection: Request | WebSocket) -> str:
    peer = connection.client
    return f"{peer.host}:{peer.port}" if peer else "?"


SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; script-src 'self'; style-src 'self'; "
     b"style-src-attr 'unsafe-inline'; "
     b"img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
     b"form-action 'self'; frame-ancestors 'none'"),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]  # fmt: skip
"""Sent with every HTTP answer: scripts and styles only the server's own files (a style
attribute allowed: the page places the seats with one), no page may frame these (the host
page keeps the host secret), no sniffing of types, no referrer. No inline script runs,
so markup slipped into a page runs nothing, and nothing evaluates text (no eval: the
browser tests play one night under this policy, ``tests/browser/test_csp.py``)."""


class _Logged:
    """ASGI middleware: one log line per HTTP request (method, path, status, time); an
    exception becomes a plain 500 with no detail for the client, and a logged error.
    A request or websocket whose ``Host`` is not one the server answers
    (``--allowed-hosts``) is refused (400, or the websocket closed before it opens),
    and every answer carries :data:`SECURITY_HEADERS`."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        limits: Limits = scope["app"].state.limits
        host = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
        if not limits.host_allowed(host):
            log.info("wrong host", extra={"event": "refused", "code": "bad-host",
                                          "path": scope["path"]})  # fmt: skip
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 4400})
            else:
                await _error("bad-host", "this server does not answer that host name")(
                    scope, receive, _secured(send)
                )
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        began = time.perf_counter()
        status = {"code": 500, "started": False}
        send = _secured(send)

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                status["code"], status["started"] = message["status"], True
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception:
            log.exception("request failed", extra={"event": "error", "path": scope["path"]})
            if not status["started"]:
                await _error("internal", "the server failed; nothing was changed", 500)(
                    scope, receive, send
                )
        finally:
            ms = round((time.perf_counter() - began) * 1000, 1)
            log.info("request", extra={"event": "request", "method": scope["method"],
                                       "path": scope["path"], "status": status["code"],
                                       "ms": ms})  # fmt: skip


def _secured(send: Send) -> Send:
    """``send`` with :data:`SECURITY_HEADERS` added to the answer's head."""

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
        await send(message)

    return sending


def create_app(
    database: str | None = None,
    *,
    settings: Settings | None = None,
    public_url: str | None = None,
    announce: Callable[[Storage], None] | None = None,
    limits: Limits | None = None,
    redis: str | None = None,
    lease_s: float = 5.0,
) -> Starlette:
    """The server's ASGI app on ``database`` (see
    :func:`guts.server.storage.database_url`): migrated and with its open tables rebuilt
    at startup; ``public_url`` is the base of the links it hands out (the request's own
    base when None); ``announce`` is called once the server is ready; ``limits`` what
    one client address may hold and do, and the hosts served (:class:`Limits`); with
    ``redis`` (a Redis URL), the server is one node of several sharing the database and
    that Redis, holding its tables by leases of ``lease_s`` seconds (:mod:`guts.server.nodes`)."""
    limits = limits or Limits()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        storage = await Storage.open(database)
        tables = Tables(storage, settings)
        if redis is not None:
            await _join_nodes(tables, redis, lease_s, app.state.addresses)
        if limits.table_idle_s:  # never rebuilt again: expired before the start
            await tables.expire(limits.table_idle_s)
        broken = await tables.open_all()
        app.state.tables = tables
        app.state.broken = broken
        log.info("ready", extra={"event": "ready", "tables": len(tables.actors)})
        if announce is not None:
            announce(storage)
        sweeping = asyncio.create_task(_sweep(tables, limits.table_idle_s))
        try:
            yield
        finally:
            sweeping.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sweeping
            await tables.close()
            await storage.close()

    app = Starlette(
        routes=[
            Route("/api/tables", create_table, methods=["POST"]),
            Route("/api/tables/{table_id}", table_summary, methods=["GET"]),
            Route("/api/tables/{table_id}/ledger", table_ledger, methods=["GET"]),
            Route("/api/tables/{table_id}/history", table_history, methods=["GET"]),
            *after_routes(),  # a seat's replays of finished deals and its review
            *club_routes(),  # a host's club: members, their claims and stats (guts.club)
            *page_routes(),  # the lobby, the table page and their files (guts.web)
            Route("/healthz", health, methods=["GET"]),
            WebSocketRoute("/ws/{table_id}", _TableSocket()),
        ],
        lifespan=lifespan,
    )
    app.state.public_url = public_url
    app.state.limits = limits
    app.state.addresses = AddressBook(limits)
    app.add_middleware(_Logged)
    return app


async def _join_nodes(
    tables: Tables, redis: str, lease_s: float, addresses: AddressBook
) -> None:
    """Run ``tables`` as one node of several (their ``close`` leaves the others), its
    address limits counted with the other nodes'."""
    from guts.server.nodes import Node
    from guts.server.shared_limits import SharedCounts

    node = Node(tables, redis, lease_s)
    tables.node = node
    await node.start()
    addresses.shared = SharedCounts(node.relay.redis, node.id)


async def _sweep(tables: Tables, idle_s: float) -> None:
    """Expire the idle tables with no person seated (:meth:`Tables.expire`) every quarter
    of ``idle_s`` (an hour at most), until cancelled; never when ``idle_s`` is 0."""
    if not idle_s:
        return
    while True:
        await asyncio.sleep(min(idle_s / 4, 3600.0))
        try:
            await tables.expire(idle_s)
        except Exception:
            log.exception("the expiry of idle tables failed", extra={"event": "error"})


def _shared_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` that other processes may bind too (the kernel
    spreads the connections among them)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    shared = socket.socket(family, socket.SOCK_STREAM)
    shared.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    shared.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    shared.bind((host, port))
    return shared


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    database: str | None = None,
    *,
    settings: Settings | None = None,
    public_url: str | None = None,
    table: dict[str, Any] | None = None,
    last_table: tuple[str, str] | None = None,
    opened: Callable[[str, str], None] | None = None,
    limits: Limits | None = None,
    header_timeout: float = HEADER_TIMEOUT,
    redis: str | None = None,
    lease_s: float = 5.0,
    reuse_port: bool = False,
) -> None:
    """Run the server until interrupted: migrate, rebuild the open tables, print the
    URL to open, log one JSON line per request, connection and error on stderr (every
    line on stderr is one: uvicorn's and the rest too). With
    ``table`` (a ``POST /api/tables`` body), open that table once listening and print
    its host link: the table ``last_table`` (its id and host secret) instead, if the
    server has it and its night is not over; ``opened`` is told the id and host secret
    of a table it opens. ``limits``: see :class:`Limits`; ``header_timeout``: the
    seconds a client has to send a request's headers; ``redis``, ``lease_s``: see
    :func:`create_app`; ``reuse_port``: share the port with other processes
    (``SO_REUSEPORT``: ``guts serve --workers``)."""
    import uvicorn

    from guts.server.slow_clients import header_deadline

    _log_json_lines(sys.stderr)
    url = public_url or f"http://{host}:{port}"
    shown: list[str] = []

    def announce(storage: Storage) -> None:
        shown.append(storage.url.render_as_string(hide_password=True))

    class Announcing(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            gc.freeze()  # what the start made (modules, rebuilt tables) is never scanned
            if self.started:  # listening: now the URL may be opened
                print(f"guts server ready at {url}/ (database {shown[0]})", flush=True)
                if table is not None:
                    await self._open_table(table)

        async def _open_table(self, wanted: dict[str, Any]) -> None:
            """Open the table ``wanted`` through the server's own API; say where to play."""
            import httpx

            bound = self.servers[0].sockets[0].getsockname()[1] if self.servers else port
            local = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
            address = f"[{local}]" if ":" in local else local
            base = f"http://{address}:{bound}"
            named = [name for name in (limits or Limits()).allowed_hosts if "*" not in name]
            headers = {"host": f"{named[0]}:{bound}"} if named else {}  # a host it serves
            async with httpx.AsyncClient(timeout=30, headers=headers) as client:
                if last_table is not None:
                    found = await client.get(f"{base}/api/tables/{last_table[0]}")
                    if found.status_code == 200 and found.json()["status"] != "over":
                        self._reopened(wanted, public_url or base, *last_table)
                        return
                answer = await client.post(f"{base}/api/tables", json=wanted)
            if answer.status_code != 201:
                log.error("the table was refused: %s", answer.json().get("message"),
                          extra={"event": "error"})  # fmt: skip
                self.should_exit = True
                return
            links = answer.json()
            if opened is not None:
                opened(links["table_id"], links["host_secret"])
            print(f"A table of {wanted['preset']} is open with {wanted['bots']} bots.\n"
                  f"Open this link to play (you host it: take a seat, then press Start):\n"
                  f"  {links['host_url']}\n"
                  f"Friends join with: {links['join_url']}", flush=True)  # fmt: skip

        def _reopened(self, wanted: dict[str, Any], base: str, table_id: str, secret: str) -> None:
            link = f"{base.rstrip('/')}/t/{table_id}"
            print(f"The table of {wanted['preset']} from the last run is open again, as it "
                  "was left (--new-table opens another).\n"
                  f"Open this link to play (you host it):\n  {link}#host={secret}\n"
                  f"Friends join with: {link}", flush=True)  # fmt: skip

    app = create_app(database, settings=settings, public_url=public_url, announce=announce,
                     limits=limits, redis=redis, lease_s=lease_s)  # fmt: skip
    gc.set_threshold(*GC_THRESHOLDS)
    # no per-message compression: the frames are small, and deflating each costs more
    # of the server's time than it saves on a game night's links
    config = uvicorn.Config(app, host=host, port=port, log_config=None, access_log=False,
                            ws_max_size=2 * MAX_MESSAGE_BYTES, ws_per_message_deflate=False,
                            lifespan="on", http=header_deadline(header_timeout),
                            proxy_headers=False)  # fmt: skip
    # proxy_headers off: the client's address is taken from X-Forwarded-For only by
    # guts.server.limits.client_address, and only from the proxies --forwarded-allow-ips
    # names (uvicorn's own default would believe 127.0.0.1's header)
    server = Announcing(config)
    try:
        server.run(sockets=[_shared_socket(host, port)] if reuse_port else None)
    except Exception:
        log.exception("the server failed", extra={"event": "error"})
        raise SystemExit(1) from None
    if not server.started:  # it never listened: the log says why
        raise SystemExit(3)
