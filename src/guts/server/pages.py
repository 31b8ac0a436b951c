"""The browser page's routes: the lobby, the table page, its static files and the lobby API.

``/`` is the lobby and ``/t/{table_id}`` a table (both static pages of
:mod:`guts.web`, which render from the protocol's snapshots and events); ``/static/``
serves their files. The lobby reads the catalog from ``GET /api/games`` (each preset's
summary) and ``GET /api/games/{name}`` (its full rules text and the schema of its options,
both taken from the engine's rules dataclasses); the catalog ends with ``dealers-choice``,
a night of many games, whose options are the night's (:class:`guts.night.NightRules`) and
whose rules text lists the games it allows with their summaries. ``POST /api/narrate``
tells events the page already holds in the terminal's words, and
``GET /api/tables/{id}/standings`` (with a seat's device token) gives a player the ledger
the host sees.
"""

from __future__ import annotations

import asyncio
import hmac
import json
from dataclasses import fields
from enum import StrEnum
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from guts.catalog import FAMILIES, Game, find_game, games
from guts.errors import GutsError
from guts.games.base import Event
from guts.games.options import RuleOptions, dash, format_value, split_optional
from guts.narrate import Narrator, agree, as_you
from guts.night import DEALERS_CHOICE, NightRules
from guts.night.narrate import NightNarrator
from guts.server.ledger import departures, ledger_body, ledger_rows, to_csv
from guts.server.limits import MAX_BODY_BYTES, BodyTooLarge, bearer_token, read_body
from guts.server.past import from_record
from guts.server.protocol import MAX_SEATS
from guts.server.tables import Tables

if TYPE_CHECKING:
    from guts.server.actor import TableActor

__all__ = ["option_schema", "page_routes", "static_folder"]

MAX_NARRATED = 2000
"""The most events one ``POST /api/narrate`` tells."""


def static_folder() -> Path:
    """The folder of the page's static files (package data of :mod:`guts.web`)."""
    return Path(str(files("guts.web") / "static"))


def option_schema(rules: RuleOptions) -> list[dict[str, Any]]:
    """Each option of ``rules`` as a form needs it: its name, type (``bool``, ``int``,
    ``choice`` or ``text``), whether it may be none, the allowed values of a choice, its
    value in these rules (the preset's default) and what it means.

    >>> from guts.catalog import find_game
    >>> ante = option_schema(find_game("two-card-guts").rules())[0]
    >>> ante["name"], ante["type"], ante["default"]
    ('ante', 'int', '1')
    """
    hints = type(rules).option_hints()
    schema = []
    for item in fields(rules):
        inner, optional = split_optional(hints[item.name])
        kind, allowed = "text", None
        if inner is bool:
            kind = "bool"
        elif inner is int:
            kind = "int"
        elif isinstance(inner, type) and issubclass(inner, StrEnum):
            kind, allowed = "choice", [member.value for member in inner]
        schema.append({
            "name": dash(item.name),
            "type": kind,
            "optional": optional,
            "allowed": allowed,
            "default": format_value(getattr(rules, item.name)),
            "doc": type(rules).option_docs.get(item.name, ""),
        })  # fmt: skip
    return schema


NIGHT = {
    "name": DEALERS_CHOICE,
    "family": "night",
    "summary": "a night of many games: the chooser names each one from the host's list",
}
"""The catalog's entry for a night of dealer's choice (not a preset of one family)."""


NIGHT_TITLE = "Dealer's choice"
"""The night's name in the lobby, as its game and as its family (each family's and each
preset's names are the family's own: ``Family.title`` and ``Family.titles``)."""

COMMON = ("two-card-guts", "three-card-guts", "three-five-seven", "five-card-draw",
          "jacks-or-better", "bourre", DEALERS_CHOICE)  # fmt: skip
"""The games most home games play, shown first."""

MOST_PROBED = 12
"""Player counts are probed from 2 to this; a game that seats this many says "or more"."""


def _title(game: Game | None) -> tuple[str, str | None]:
    """A preset's name in the lobby and the preset it varies (None: the night's)."""
    return (NIGHT_TITLE, None) if game is None else game.games_family.title_of(game.name)


def _family_title(game: Game | None) -> str:
    return NIGHT_TITLE if game is None else game.games_family.title or game.family


def _players(game: Game) -> tuple[int, int | None] | None:
    """The fewest and most players ``game`` deals to (the engine's own check, counts
    between them taken to seat too), the most None when it seats :data:`MOST_PROBED` or
    more; None if it seats none of those."""

    def seats(count: int) -> bool:
        try:
            game.new_session([(f"p{seat}", 100) for seat in range(count)])
        except GutsError:
            return False
        return True

    fewest = next((count for count in range(2, MOST_PROBED + 1) if seats(count)), None)
    if fewest is None:
        return None
    most = next(count for count in range(MOST_PROBED, fewest - 1, -1) if seats(count))
    return fewest, None if most == MOST_PROBED else most


def _summary(game: Game) -> dict[str, str]:
    return {"name": game.name, "family": game.family, "summary": game.description}


@cache
def _catalog() -> bytes:
    """Every preset with its summary, its name in the lobby (``title``), the game it is a
    variation of (``variation_of``), whether it is a common game, its family's title and
    the players it deals to (``players``: fewest and most, the most null for "or more")."""
    listed = []
    for game in [*games().values(), None]:
        entry: dict[str, Any] = dict(NIGHT) if game is None else _summary(game)
        title, base = _title(game)
        counts = None if game is None else _players(game)
        listed.append({**entry, "title": title, "variation_of": base,
                       "common": entry["name"] in COMMON,
                       "family_title": _family_title(game),
                       "players": None if counts is None else list(counts)})  # fmt: skip
    return json.dumps({"games": listed}).encode()


def _night_detail(options: dict[str, str]) -> dict[str, Any]:
    """The night's entry with its rules text (the games allowed, each with its summary,
    then the night's options) and its options' schema."""
    rules = NightRules.from_options(None, options)
    allowed = [f"  {entry.text():<28} {entry.preset.description}" for entry in rules.entries]
    text = "\n".join([f"{DEALERS_CHOICE}: {NIGHT['summary']}", "", "Games allowed:", *allowed,
                      "", "Options:", rules.describe()])  # fmt: skip
    return {**NIGHT, "rules": text, "options": option_schema(rules)}


def _families_module() -> bytes:
    """Each family's :class:`~guts.games.family.PageView` by name, as a JavaScript module
    the page's ``model.js`` imports (so the page names no family)."""
    views = {name: family.page.to_dict() for name, family in FAMILIES.items()}
    return f"export const FAMILIES = {json.dumps(views)};\n".encode()


async def families_module(request: Request) -> Response:
    """``GET /api/families.js``: how the page draws each family's seats."""
    return Response(_families_module(), media_type="text/javascript", headers=_NO_STORE)


async def game_list(request: Request) -> Response:
    """``GET /api/games``: every preset's name, family and one-line summary."""
    return Response(_catalog(), media_type="application/json")


async def game_detail(request: Request) -> Response:
    """``GET /api/games/{name}``: a preset's summary, its full rules text (as ``guts
    rules`` prints it, with the query's options applied) and its options' schema."""
    name = request.path_params["name"]
    try:
        if name == DEALERS_CHOICE:
            return JSONResponse(_night_detail(dict(request.query_params)))
        game = find_game(name)
        rules = game.rules(dict(request.query_params))
    except GutsError as error:
        return _error("invalid", str(error), 404 if "unknown game" in str(error) else 400)
    return JSONResponse({**_summary(game), "rules": rules.describe(),
                         "options": option_schema(rules)})  # fmt: skip


async def narrate_events(request: Request) -> Response:
    """``POST /api/narrate`` with ``{"names": [...], "events": [...]}`` (events as the
    page received them): ``{"lines": [...]}``, one line or null per event, in the words
    of the terminal table (a night's, when the events are a night's: its choices and each
    game's start and end); a seat named "You" is told in the second person, and so is
    its own name (``you``, optional) where a family's text names it. A session's opening
    chips (a table is seated anew at each session) are a stack, not a buy-in: "Ann starts
    with 100 chips" (buy-ins and rebuys are the ledger's)."""
    try:
        text = await read_body(request, MAX_BODY_BYTES)
    except BodyTooLarge:
        return _error("too-large", f"a request has at most {MAX_BODY_BYTES} bytes", 413)
    answer = await asyncio.to_thread(_narrated, text)  # never on the event loop
    if isinstance(answer, str):
        return _error("invalid", answer)
    return JSONResponse({"lines": answer})


def _narrated(text: bytes) -> list[str | None] | str:
    """The lines of ``POST /api/narrate``'s body ``text``; a string saying why not."""
    try:
        body = orjson.loads(text)  # a nesting deeper than 1024 is a JSON error too
        names = [str(name) for name in body["names"]][:MAX_SEATS]
        you = str(body.get("you") or "")
        events = [Event.from_dict(data) for data in body["events"][:MAX_NARRATED]]
    except (ValueError, KeyError, TypeError, GutsError, RecursionError) as error:
        return f"cannot narrate that: {error}"[:200]
    night = any(event.kind.startswith("night-") for event in events)
    narrator: Narrator | NightNarrator = NightNarrator(names) if night else Narrator(names)
    lines: list[str | None] = []
    for event in events:
        try:
            line = _opening_stack(event, names) or narrator.tell(event)
        except Exception:  # a line that cannot be told is left out, never a failed page
            line = None
        lines.append(as_you(line, you) if line and you else line)
    return lines


def _opening_stack(event: Event, names: list[str]) -> str | None:
    """The line of a seat's chips at the start of a session ("Ann starts with 100 chips"),
    None for any other event."""
    data = event.to_dict()
    seat = data.get("destination")
    if not (str(data["kind"]).endswith("moved") and data.get("source") == "bank"
            and data.get("reason") == "buy-in" and isinstance(seat, int)
            and 0 <= seat < len(names)):  # fmt: skip
        return None
    return f"{names[seat]} {agree([names[seat]], 'starts')} with {data['amount']} chips"


async def standings(request: Request) -> Response:
    """``GET /api/tables/{table_id}/standings`` with ``Authorization: Bearer TOKEN`` (a
    seat's device token): the ledger the host sees (each player's buy-in, cash-out, stack
    and net, and the settlement), for the players at the table; as CSV with
    ``?format=csv``."""
    from guts.server.actor import digest

    tables: Tables = request.app.state.tables
    actor = await tables.get(request.path_params["table_id"])
    if actor is None:
        return _error("no-such-table", "no table has that id", 404)
    token = bearer_token(request)
    wanted = digest(token)
    seated = any(seat.token_hash is not None and hmac.compare_digest(seat.token_hash, wanted)
                 for seat in actor.state.seats.values())  # fmt: skip
    if not token or not (seated or actor.is_host(token)):
        return _error("not-seated", "the standings are the players': send a seat's token", 403)
    return await ledger_response(request, actor)


async def ledger_response(request: Request, actor: TableActor) -> Response:
    """The table's ledger and settlement as JSON, or as CSV with ``?format=csv``, or the
    night's full log as PokerNow's log CSV with ``?format=log`` (for the host's
    ``/ledger`` and the players' ``/standings``)."""
    if request.query_params.get("format") == "log":
        return await _full_log(actor)
    joined, changed = await actor.storage.times(actor.id)
    leaving = await actor.query(lambda: departures(actor.state))
    moments = await actor.storage.committed_at(actor.id, leaving.values())
    left = {seat_id: moments[seq] for seat_id, seq in leaving.items() if seq in moments}
    rows = await actor.query(
        lambda: ledger_rows(actor.state, joined, changed, left, host_seat=actor.state.host_holds())
    )
    if request.query_params.get("format") == "csv":
        return Response(to_csv(rows), media_type="text/csv; charset=utf-8",
                        headers={"content-disposition":
                                 f'attachment; filename="guts-{actor.id}-ledger.csv"'})  # fmt: skip
    return JSONResponse({"table_id": actor.id, "status": actor.status, **ledger_body(rows)})


async def _full_log(actor: TableActor) -> Response:
    from guts.server.full_log import log_csv, log_lines

    lines = await from_record(actor, lambda night: log_lines(night.state))
    at = await actor.storage.committed_at(actor.id, {seq for _, seq in lines})
    return Response(log_csv(lines, at), media_type="text/csv; charset=utf-8",
                    headers={"content-disposition":
                             f'attachment; filename="guts-{actor.id}-log.csv"'})  # fmt: skip


async def lobby_page(request: Request) -> Response:
    """``GET /``: the lobby."""
    return FileResponse(static_folder() / "index.html", headers=_NO_STORE)


async def table_page(request: Request) -> Response:
    """``GET /t/{table_id}``: the table page (a page saying so for an unknown table)."""
    tables: Tables = request.app.state.tables
    if await tables.get(request.path_params["table_id"]) is None:
        return FileResponse(static_folder() / "missing.html", status_code=404)
    return FileResponse(static_folder() / "table.html", headers=_NO_STORE)


_NO_STORE = {"cache-control": "no-cache"}


def _error(code: str, message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"type": "error", "code": code, "message": message}, status_code=status)


def page_routes() -> list[BaseRoute]:
    """The page's routes, for :func:`guts.server.app.create_app`."""
    return [
        Route("/", lobby_page, methods=["GET"]),
        Route("/t/{table_id}", table_page, methods=["GET"]),
        Route("/api/games", game_list, methods=["GET"]),
        Route("/api/families.js", families_module, methods=["GET"]),
        Route("/api/games/{name}", game_detail, methods=["GET"]),
        Route("/api/narrate", narrate_events, methods=["POST"]),
        Route("/api/tables/{table_id}/standings", standings, methods=["GET"]),
        Mount("/static", app=StaticFiles(directory=static_folder()), name="static"),
    ]
