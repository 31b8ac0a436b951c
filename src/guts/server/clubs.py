"""The club routes: a host's club, its members, their claims and their stats.

A club is made with ``POST /api/clubs``, which answers its id and the **club secret**
(kept by the host's lobby page, like a table's host secret). A table the host opens
counts for the club once the host attaches it (``POST /api/clubs/ID/tables`` with both
secrets). A player's browser keeps one **device key** of its own (random, never sent to
anyone but this server, stored as a hash per club); sitting at a club table, the page
tells the server which device holds the seat (``POST /api/tables/ID/club`` with the
seat's device token), and the seat is the device's member from then on
(:mod:`guts.club.members`).

Who may do what: the host (``Authorization: Bearer CLUB_SECRET``) reads every member's
stats, downloads the CSV, issues claim codes, merges, renames and removes members, takes
a table off the club and deletes the club; a member (``Authorization: Bearer
DEVICE_KEY``) reads its own stats only; a claim code is the credential of ``POST
/api/clubs/ID/claim``, its wrong guesses counted per device and address
(:mod:`guts.club.guesses`), so that one guesser cannot lock out the others. Every body
is read no further than :data:`CLUB_BODY_BYTES`. The stats replay the club's tables in a
thread, never on the event loop; a finished table's counts are kept in the database, so
it is replayed once.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
from datetime import UTC, datetime
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, ConfigDict, StringConstraints, ValidationError
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from guts.club.export import member_nights_csv, members_csv
from guts.club.guesses import Guesses
from guts.club.members import ClaimError, Roster, check_name, new_code, normal_code
from guts.club.stats import (
    MemberStats,
    NightRecord,
    NightSummary,
    SeatResult,
    SessionRecord,
    club_stats,
    summarize,
)
from guts.errors import GutsError
from guts.server.barrier import disclose_record
from guts.server.club_store import ClubRow, ClubStore, ClubTable
from guts.server.limits import BodyTooLarge, Limits, bearer_token, client_address, read_body
from guts.server.pages import static_folder
from guts.server.state import TableState
from guts.server.storage import EXPIRED, StoredTable
from guts.server.tables import Tables

__all__ = ["CLUB_BODY_BYTES", "club_routes", "night_record", "night_summary"]

log = logging.getLogger("guts.server")

CLUB_BODY_BYTES = 2048
"""The largest body a club route reads (answered 413 beyond it)."""

Key = Annotated[str, StringConstraints(min_length=22, max_length=200, pattern=r"^[A-Za-z0-9_-]+$")]
"""A device key: at least 128 bits, URL-safe base64 (the page makes one of 256 bits)."""
Name = Annotated[str, StringConstraints(min_length=1, max_length=40)]
Id = Annotated[str, StringConstraints(min_length=1, max_length=64)]
B = TypeVar("B", bound=BaseModel)


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class NewClub(_Body):
    name: Name


class AttachTable(_Body):
    table_id: Id
    host_secret: Annotated[str, StringConstraints(min_length=1, max_length=200)]


class SeatClaim(_Body):
    device: Key


class CodeClaim(_Body):
    code: Annotated[str, StringConstraints(min_length=1, max_length=40)]
    device: Key


class IssueCode(_Body):
    member_id: Id


class Merge(_Body):
    keep: Id
    gone: Id


class Rename(_Body):
    member_id: Id
    name: Name


class _Refused(Exception):
    def __init__(self, response: Response) -> None:
        self.response = response


def _error(code: str, message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"type": "error", "code": code, "message": message}, status_code=status)


def _hash(club_id: str, secret: str) -> str:
    """The stored hash of a device key or claim code: the club's id goes in, so one
    device's hash differs from club to club."""
    return hashlib.sha256(f"{club_id}:{secret}".encode()).hexdigest()


def _secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _store(request: Request) -> ClubStore:
    tables: Tables = request.app.state.tables
    return ClubStore(tables.storage)


async def _body(request: Request, model: type[B]) -> B:
    try:
        raw = await read_body(request, CLUB_BODY_BYTES)
    except BodyTooLarge:
        raise _Refused(_error("too-large", f"a request has at most {CLUB_BODY_BYTES} bytes",
                              413)) from None  # fmt: skip
    try:
        return model.model_validate_json(raw)
    except ValidationError as error:
        problem = error.errors(include_url=False, include_input=False)[0]
        where = ".".join(str(part) for part in problem["loc"]) or "the body"
        raise _Refused(_error("invalid", f"{where}: {problem['msg']}"[:200])) from None


async def _hosted(request: Request) -> ClubRow:
    """The club of the path, if the request carries its club secret (else 403)."""
    club = await _store(request).club(request.path_params["club_id"])
    secret = bearer_token(request)
    if club is None or not secret or not club.is_host(_secret_hash(secret)):
        raise _Refused(_error("not-host", "a club is its host's: send the club secret", 403))
    return club


def _guesses(request: Request) -> Guesses:
    """The server's count of wrong claim codes per device and address (in its memory)."""
    state = request.app.state
    guesses: Guesses | None = getattr(state, "club_guesses", None)
    if guesses is None:
        guesses = state.club_guesses = Guesses()
    return guesses


def _refused(error: ClaimError) -> Response:
    status = {"no-such-member": 404, "locked": 429, "wrong-code": 403}.get(error.code, 400)
    return _error(error.code, str(error), status)


async def _guarded(request: Request, handler: Any) -> Response:
    try:
        response: Response = await handler(request)
    except _Refused as refused:
        return refused.response
    except ClaimError as error:
        return _refused(error)
    return response


def _route(path: str, handler: Any, method: str) -> Route:
    async def endpoint(request: Request) -> Response:
        return await _guarded(request, handler)

    endpoint.__doc__ = handler.__doc__
    return Route(path, endpoint, methods=[method])


# -- the host's ----------------------------------------------------------------------------


async def create_club(request: Request) -> Response:
    """``POST /api/clubs`` ``{"name"}``: a new club and its secret (rate-limited as tables)."""
    limits: Limits = request.app.state.limits
    if not await request.app.state.addresses.may_open_table(client_address(request, limits)):
        return _error("rate-limited", "too many opened from this address: wait a minute", 429)
    wanted = await _body(request, NewClub)
    name = check_name(wanted.name)
    secret = secrets.token_urlsafe(24)
    club_id = await _store(request).create(name, _secret_hash(secret))
    base = str(request.app.state.public_url or request.base_url).rstrip("/")
    log.info("club created", extra={"event": "club"})
    return JSONResponse({"club_id": club_id, "name": name, "club_secret": secret,
                         "club_url": f"{base}/c/{club_id}"}, status_code=201)  # fmt: skip


async def attach_table(request: Request) -> Response:
    """``POST /api/clubs/ID/tables`` ``{"table_id", "host_secret"}`` (the club secret as
    Bearer): the table's nights count for the club."""
    club = await _hosted(request)
    wanted = await _body(request, AttachTable)
    tables: Tables = request.app.state.tables
    actor = await tables.get(wanted.table_id)
    if actor is None or not actor.is_host(wanted.host_secret):
        return _error("not-host", "only the table's host may count it for a club", 403)
    if not await ClubStore(tables.storage).attach(club.id, actor.id):
        return _error("taken", "that table counts for another club already", 409)
    return JSONResponse({"club_id": club.id, "table_id": actor.id})


async def club_view(request: Request) -> Response:
    """``GET /api/clubs/ID`` (club secret): the club, its tables and every member's stats."""
    club = await _hosted(request)
    roster, stats, listed = await _stats(request, club.id)
    return JSONResponse({
        "club": {"id": club.id, "name": club.name}, "host": True, "tables": len(listed),
        "table_list": [{"table_id": t.table_id, "preset": t.preset, "status": t.status,
                        "created_at": t.created_at.isoformat()} for t in listed],
        "members": [_member_json(roster, s) for s in _ordered(stats)],
    })  # fmt: skip


async def club_export(request: Request) -> Response:
    """``GET /api/clubs/ID/export?kind=members|nights`` (club secret): the stats as CSV."""
    club = await _hosted(request)
    _roster, stats, _tables = await _stats(request, club.id)
    kind = request.query_params.get("kind", "members")
    if kind not in ("members", "nights"):
        return _error("invalid", "kind is members or nights")
    write = members_csv if kind == "members" else member_nights_csv
    return _csv(write(_ordered(stats)), f"guts-club-{kind}.csv")


async def issue_code(request: Request) -> Response:
    """``POST /api/clubs/ID/codes`` ``{"member_id"}`` (club secret): a one-time code with
    which a new device claims that member."""
    club = await _hosted(request)
    wanted = await _body(request, IssueCode)
    code = new_code()
    now = datetime.now(UTC)
    code_hash = _hash(club.id, normal_code(code))
    issued = await _store(request).change(
        club.id, lambda roster: roster.issue(wanted.member_id, code_hash, now)
    )
    _guesses(request).reset(club.id)  # whoever was refused may try the new code
    return JSONResponse({"code": code, "member_id": issued.member_id,
                         "expires": issued.expires.isoformat()}, status_code=201)  # fmt: skip


async def merge_members(request: Request) -> Response:
    """``POST /api/clubs/ID/merge`` ``{"keep", "gone"}`` (club secret): one person."""
    club = await _hosted(request)
    wanted = await _body(request, Merge)
    kept = await _store(request).change(club.id, lambda r: r.merge(wanted.keep, wanted.gone))
    return JSONResponse({"member": {"id": kept.id, "name": kept.name}})


async def rename_member(request: Request) -> Response:
    """``POST /api/clubs/ID/rename`` ``{"member_id", "name"}`` (club secret)."""
    club = await _hosted(request)
    wanted = await _body(request, Rename)
    member = await _store(request).change(
        club.id, lambda r: r.rename(wanted.member_id, wanted.name)
    )
    return JSONResponse({"member": {"id": member.id, "name": member.name}})


def _path_id(request: Request, name: str) -> str:
    """A path's id, if it is one (1 to 64 characters), else 400."""
    value = str(request.path_params[name])
    if not 1 <= len(value) <= 64:
        raise _Refused(_error("invalid", f"{name}: an id has 1 to 64 characters"))
    return value


async def remove_table(request: Request) -> Response:
    """``DELETE /api/clubs/ID/tables/TABLE`` (club secret): the table counts for the club
    no more (its seats for no member); the table itself stays its host's."""
    club = await _hosted(request)
    table_id = _path_id(request, "table_id")
    if not await _store(request).detach(club.id, table_id):
        return _error("no-such-table", "that table does not count for this club", 404)
    log.info("club table removed", extra={"event": "club"})
    return JSONResponse({"club_id": club.id, "table_id": table_id, "removed": True})


async def remove_member(request: Request) -> Response:
    """``DELETE /api/clubs/ID/members/MEMBER`` (club secret): the member is no more, nor
    its devices' links, seats and open codes."""
    club = await _hosted(request)
    member_id = _path_id(request, "member_id")
    gone = await _store(request).change(club.id, lambda roster: roster.remove(member_id))
    return JSONResponse({"member": {"id": gone.id, "name": gone.name}, "removed": True})


async def delete_club(request: Request) -> Response:
    """``DELETE /api/clubs/ID`` (club secret): the club, its members, devices, codes and
    kept counts are deleted; its tables stay their hosts'."""
    club = await _hosted(request)
    await _store(request).delete(club.id)
    log.info("club deleted", extra={"event": "club"})
    return JSONResponse({"club_id": club.id, "deleted": True})


# -- the members' --------------------------------------------------------------------------


async def seat_member(request: Request) -> Response:
    """``POST /api/tables/ID/club`` ``{"device"}`` (the seat's device token as Bearer):
    the seat is the device's member of the table's club (404 ``no-club`` when the table
    counts for none). A seat the host has not given (a request) is refused 403, so that
    nobody becomes a member by asking: the page and ``guts join`` ask again once seated."""
    tables: Tables = request.app.state.tables
    table_id = request.path_params["table_id"]
    token = bearer_token(request)
    actor = await tables.get(table_id)
    if actor is None or not token:
        return _error("not-seated", "send the device token of a seat of this table", 403)

    def ask() -> tuple[int, str] | None:
        seat_id = actor.seat_of(token)
        if seat_id is None:
            return None
        seat = actor.state.seats[seat_id]
        given = seat.kind == "person" and seat.status in ("approved", "left")
        return (seat_id, seat.nickname) if given else None  # a request is no one's yet

    found = await actor.query(ask)
    if found is None:
        return _error("not-seated", "that token is no seat's of this table", 403)
    wanted = await _body(request, SeatClaim)
    store = ClubStore(tables.storage)
    club = await store.club_of_table(table_id)
    if club is None:
        return _error("no-club", "this table counts for no club", 404)
    seat_id, nickname = found
    device = _hash(club.id, wanted.device)
    member = await store.change(club.id, lambda roster: roster.seat(
        (table_id, seat_id), device, nickname, new_id=secrets.token_urlsafe(9),
        now=datetime.now(UTC)))  # fmt: skip
    return JSONResponse({"club_id": club.id, "club_name": club.name,
                         "member": {"id": member.id, "name": member.name}})  # fmt: skip


async def claim_member(request: Request) -> Response:
    """``POST /api/clubs/ID/claim`` ``{"code", "device"}``: the device is the member the
    host's code was issued for."""
    club_id = request.path_params["club_id"]
    wanted = await _body(request, CodeClaim)
    store = _store(request)
    club = await store.club(club_id)
    if club is None:
        return _error("wrong-code", "that code is wrong or expired: ask the host", 403)
    code_hash = _hash(club.id, normal_code(wanted.code))
    device = _hash(club.id, wanted.device)
    limits: Limits = request.app.state.limits
    address = client_address(request, limits)
    guesses = _guesses(request)
    if not guesses.may_try(club.id, device, address):
        return _error("locked", "too many wrong codes from this device: ask the host for a "
                                "new code", 429)  # fmt: skip
    now = datetime.now(UTC)
    try:
        member = await store.change(club.id, lambda r: r.redeem(code_hash, device, now))
    except ClaimError as error:
        if error.code != "wrong-code":
            raise
        left = guesses.wrong(club.id, device, address)
        return _error("wrong-code", f"{error} ({left} more {'try' if left == 1 else 'tries'} "
                                    "from this device)", 403)  # fmt: skip
    return JSONResponse({"club_id": club.id, "club_name": club.name,
                         "member": {"id": member.id, "name": member.name}})  # fmt: skip


async def my_stats(request: Request) -> Response:
    """``GET /api/clubs/ID/me`` (the device key as Bearer): the member's own stats; its
    nights as CSV with ``?format=csv``."""
    club_id = request.path_params["club_id"]
    key = bearer_token(request)
    store = _store(request)
    club = await store.club(club_id)
    roster = await store.roster(club_id) if club is not None and key else None
    member = roster.member_of_device(_hash(club_id, key)) if roster is not None else None
    if club is None or member is None:
        return _error("not-member", "this device is no member of that club: sit at one of "
                                    "its tables, or claim with the host's code", 403)  # fmt: skip
    _roster, stats, _tables = await _stats(request, club.id, roster)
    mine = stats[member.id]
    if request.query_params.get("format") == "csv":
        return _csv(member_nights_csv([mine]), "guts-club-my-nights.csv")
    return JSONResponse({"club": {"id": club.id, "name": club.name}, "host": False,
                         "members": [_member_json(None, mine)]})  # fmt: skip


# -- the stats -----------------------------------------------------------------------------


def night_record(stored: StoredTable) -> NightRecord:
    """A table's night as the club stats read it: replayed from its commands (the
    server's own replay), each seat's ledger net, and each session's public record (as
    the history download writes it for no seat)."""
    state = TableState.replay(stored, keep=True)
    seats = tuple(SeatResult(seat.seat_id, seat.nickname, state.net(seat), seat.kind == "person")
                  for seat in state.seats.values() if seat.bought)  # fmt: skip
    sessions = []
    for index, session in enumerate(state.sessions):
        record = disclose_record(session, None)
        lineup = tuple(state.night.lineups[index]) if index < len(state.night.lineups) else ()
        sessions.append(SessionRecord(str(record.get("game", "")), lineup,
                                      tuple(record["events"])))  # fmt: skip
    when = stored.table.created_at or datetime.now(UTC)
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return NightRecord(stored.table.id, stored.table.preset, when, seats, tuple(sessions))


def night_summary(stored: StoredTable) -> NightSummary:
    """The counts of a table's night by seat (:func:`guts.club.stats.summarize`)."""
    return summarize(night_record(stored))


async def _stats(
    request: Request, club_id: str, roster: Roster | None = None
) -> tuple[Roster, dict[str, MemberStats], list[ClubTable]]:
    """The club's roster, every member's stats, and its tables (oldest first). A finished
    table's summary is read from the database (kept the first time it was made); the
    others are replayed, in a thread."""
    tables: Tables = request.app.state.tables
    store = ClubStore(tables.storage)
    roster = roster or await store.roster(club_id)
    listed = await store.tables(club_id)
    kept = await store.summaries(club_id)
    nights = []
    for table in listed:
        if table.table_id in kept:
            nights.append(NightSummary.from_dict(kept[table.table_id]))
            continue
        stored = await tables.storage.load(table.table_id)
        if stored is None:
            continue
        try:
            night = await asyncio.to_thread(night_summary, stored)
        except GutsError:
            log.exception("a club table does not replay", extra={"table": table.table_id})
            continue
        if stored.table.status in ("over", EXPIRED):  # it never changes again
            await store.keep_summary(table.table_id, night.to_dict())
        nights.append(night)
    members = list(roster.members.values())
    stats = await asyncio.to_thread(club_stats, members, dict(roster.seats), nights)
    return roster, stats, listed


def _ordered(stats: dict[str, MemberStats]) -> list[MemberStats]:
    """Members with the most nights first, then by name."""
    return sorted(stats.values(), key=lambda s: (-len(s.nights), s.member.name.casefold()))


def _member_json(roster: Roster | None, stats: MemberStats) -> dict[str, Any]:
    data = stats.to_dict()
    if roster is not None:  # the host's view: how many devices claimed it
        data["devices"] = len(roster.devices_of(stats.member.id))
    return data


def _csv(text: str, name: str) -> Response:
    return Response(text, media_type="text/csv; charset=utf-8",
                    headers={"content-disposition": f'attachment; filename="{name}"'})  # fmt: skip


async def club_page(request: Request) -> Response:
    """``GET /c/ID``: the club page (what it shows is asked for with a credential)."""
    return FileResponse(static_folder() / "club.html", headers={"cache-control": "no-store"})


def club_routes() -> list[BaseRoute]:
    """The club routes, for :func:`guts.server.app.create_app`."""
    return [
        _route("/api/clubs", create_club, "POST"),
        _route("/api/clubs/{club_id}", club_view, "GET"),
        _route("/api/clubs/{club_id}", delete_club, "DELETE"),
        _route("/api/clubs/{club_id}/tables", attach_table, "POST"),
        _route("/api/clubs/{club_id}/tables/{table_id}", remove_table, "DELETE"),
        _route("/api/clubs/{club_id}/members/{member_id}", remove_member, "DELETE"),
        _route("/api/clubs/{club_id}/export", club_export, "GET"),
        _route("/api/clubs/{club_id}/codes", issue_code, "POST"),
        _route("/api/clubs/{club_id}/merge", merge_members, "POST"),
        _route("/api/clubs/{club_id}/rename", rename_member, "POST"),
        _route("/api/clubs/{club_id}/claim", claim_member, "POST"),
        _route("/api/clubs/{club_id}/me", my_stats, "GET"),
        _route("/api/tables/{table_id}/club", seat_member, "POST"),
        Route("/c/{club_id}", club_page, methods=["GET"]),
    ]
