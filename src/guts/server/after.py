"""After the deal: the replayer's and the coach's routes, each a seat's own.

``GET /api/tables/{id}/deals`` lists the night's finished deals; ``GET
/api/tables/{id}/deals/{session}/{deal}`` gives one of them step by step as the caller's
seat saw it: the seat's view (:meth:`~guts.games.base.Session.view`, a spectator's for
the host secret or a seat not dealt in) before each decision of the deal and at its end,
and the deal's events the seat may see (so the page narrates them with ``POST
/api/narrate``). Each step is the session's record replayed up to that decision, so
nothing but the engine's own view of the seat is sent: never another seat's hidden card.
``GET /api/tables/{id}/review`` runs the coach (:func:`guts.solve.review.review`) over the
caller's own history download and gives the caller's own decisions only.

Every route wants ``Authorization: Bearer TOKEN`` (a seat's device token, or the host
secret, checked through the actor: :meth:`~guts.server.actor.TableActor.query`), and reads
the night from the table's record, replayed in a thread (:mod:`guts.server.past`: the
table in play keeps only its session in play), never on the event loop.
"""

from __future__ import annotations

import importlib
import io
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from guts.catalog import replay_record
from guts.errors import GutsError
from guts.games.base import Session
from guts.night import Night
from guts.server.limits import bearer_token
from guts.server.past import Replayed, from_record
from guts.server.records import history_lines
from guts.server.state import TableState
from guts.server.tables import Tables

if TYPE_CHECKING:
    from guts.server.actor import TableActor
    from guts.solve.review import Judged, Review

__all__ = ["after_routes", "deal_steps", "finished_deals", "seat_review"]

T = TypeVar("T")

COSTLIEST = 5
"""How many of the costliest decisions the review names."""
MAX_STEPS = 400
"""The most steps one deal's replay gives (a deal has far fewer decisions)."""


def _error(code: str, message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"type": "error", "code": code, "message": message}, status_code=status)


class _Caller:
    """Who asks: the table's actor and the caller's lobby seat (None: the host, as a
    spectator)."""

    def __init__(self, actor: TableActor, seat_id: int | None) -> None:
        self.actor, self.seat_id = actor, seat_id

    async def night(self, work: Callable[[Replayed], T]) -> T:
        """``work`` done in a thread on the night the table's record holds now."""
        return await from_record(self.actor, work)


async def _caller(request: Request) -> _Caller | JSONResponse:
    """The caller of a route of this module, or the error answer."""
    tables: Tables = request.app.state.tables
    actor = await tables.get(request.path_params["table_id"])
    if actor is None:
        return _error("no-such-table", "no table has that id", 404)
    token = bearer_token(request)
    if not token:
        return _error("not-seated", "a deal's replay and review are its players': send a "
                                    "seat's token", 403)  # fmt: skip

    seat_id, host = await actor.query(lambda: (actor.seat_of(token), actor.is_host(token)))
    if seat_id is None and not host:
        return _error("not-seated", "that token is no seat's of this table", 403)
    return _Caller(actor, seat_id)


def _number(state: TableState, index: int, seat_id: int | None) -> int | None:
    """The game seat of lobby seat ``seat_id`` in session ``index`` (None: not dealt in)."""
    lineups = state.night.lineups
    lineup = lineups[index] if index < len(lineups) else []
    return lineup.index(seat_id) if seat_id in lineup else None


def _replayed(record: Mapping[str, Any]) -> Session:
    """A session rebuilt from ``record`` (a night's or a game's)."""
    if record.get("game") == "night":
        return Night.replay(record)
    return replay_record(record)


def _deal_spans(events: Sequence[Mapping[str, Any]], finished: bool) -> list[tuple[int, int]]:
    """Each finished deal of a session's events: the index of its ``deal-started`` event
    and the index where the next one's begins (or the end); ``finished``: the last deal
    is over."""
    starts = [n for n, event in enumerate(events) if str(event["kind"]).endswith("deal-started")]
    spans = []
    for number, start in enumerate(starts):
        end = starts[number + 1] if number + 1 < len(starts) else len(events)
        ended = any(str(e["kind"]).endswith("deal-ended") for e in events[start:end])
        if ended and (number + 1 < len(starts) or finished):
            spans.append((start, end))
    return spans


def _kinds(state: TableState, index: int, upto: Sequence[int]) -> list[dict[str, Any]]:
    """The kinds of session ``index``'s first ``upto[index]`` events (as dicts)."""
    events = state.sessions[index].events[: upto[index]]
    return [{"kind": event.kind} for event in events]


def _game_of(events: Sequence[Mapping[str, Any]], start: int, fallback: str) -> str:
    """The game being played at event ``start`` (a night's: the last game started)."""
    for event in reversed(events[:start]):
        if event["kind"] == "night-game-started":
            return str(event.get("game", fallback))
    return fallback


def finished_deals(state: TableState, upto: Sequence[int], over: bool) -> list[dict[str, Any]]:
    """The night's finished deals: each one's session (from 1), deal (from 1, in its
    session), its number in the night (``night``, from 1), game and the deal's own
    number as its game counts it."""
    listed: list[dict[str, Any]] = []
    for index, count in enumerate(upto):
        record = state.sessions[index].record()
        events = record["events"][:count]
        finished = over or index + 1 < len(upto)
        for number, (start, _) in enumerate(_deal_spans(events, finished), start=1):
            listed.append({"session": index + 1, "deal": number, "night": len(listed) + 1,
                           "game": _game_of(events, start, state.game.name),
                           "number": events[start].get("deal", number)})  # fmt: skip
    return listed


def deal_steps(state: TableState, seat_id: int | None, upto: Sequence[int], over: bool,
               session: int, deal: int) -> dict[str, Any]:  # fmt: skip
    """Deal ``deal`` of session ``session`` (both from 1) as lobby seat ``seat_id`` saw it:
    ``events`` (the deal's events the seat may see, in order) and ``steps``, each the
    seat's ``view`` (without events) and how many of ``events`` had happened (``seen``):
    one step when the deal was dealt, one before each later decision, one at its end.
    GutsError if there is no such finished deal."""
    if not 1 <= session <= len(upto):
        raise GutsError(f"no session {session}: the night has {len(upto)}")
    index = session - 1
    record = state.sessions[index].record()
    events = record["events"][: upto[index]]
    spans = _deal_spans(events, over or session < len(upto))
    if not 1 <= deal <= len(spans):
        raise GutsError(f"no finished deal {deal} in session {session}")
    start, end = spans[deal - 1]
    before = sum(len(_deal_spans(_kinds(state, n, upto), True)) for n in range(index))
    number = _number(state, index, seat_id)
    cuts = [n for n in range(start + 1, end) if str(events[n]["kind"]).endswith("acted")]
    cuts = cuts[: MAX_STEPS - 1]
    last = None
    views = []
    for cut in cuts:
        try:
            views.append((cut, _view(_replayed({**record, "events": events[:cut]}), number)))
        except GutsError:
            continue  # not a point the play stops at
    for cut in range(end, max(start, end - 8), -1):  # the deal's end: the last point the
        try:  # play stops at before the next deal (whose first event may be its shuffle)
            last = _replayed({**record, "events": events[:cut]})
        except GutsError:
            continue
        views.append((cut, _view(last, number)))
        break
    if last is None:
        raise GutsError(f"deal {deal} of session {session} does not replay")
    seat = number if number is not None and number < len(last.table.names) else None
    seen = [n for n in range(start, len(last.events)) if last.events[n].visible_to(seat)]
    shown = [last.events[n].to_dict() for n in seen]
    steps = [{"view": view, "seen": sum(1 for n in seen if n < cut)} for cut, view in views]
    return {"session": session, "deal": deal, "night": before + deal,
            "game": _game_of(events, start, state.game.name), "seat": seat,
            "players": list(last.table.names), "events": shown, "steps": steps}  # fmt: skip


def _view(session: Session, seat: int | None) -> dict[str, Any]:
    """``seat``'s view of ``session`` without its events (a spectator's for None)."""
    if seat is not None and 0 <= seat < len(session.table.names):
        return session.view(seat, events=False)
    return session.public_view(events=False)


def seat_review(state: TableState, seat_id: int | None, upto: Sequence[int]) -> dict[str, Any]:
    """The coach's review of lobby seat ``seat_id``'s own decisions (from its own history
    download, as ``guts review --json --seat NAME`` gives it for that file)."""
    from guts.history import read_histories
    from guts.solve.review import review

    text = "".join(line + "\n" for line in history_lines(state, seat_id, upto))
    if not text:
        return _reviewed(None, review([]))
    histories = read_histories(io.StringIO(text))
    mine = set()
    for history in histories:
        viewer = history.viewer
        if viewer is not None and 0 <= viewer < len(history.names):
            mine.add(history.names[viewer])
    found = review(histories)
    names = [name for name in found.names() if name in mine]
    name = names[0] if names else (sorted(mine)[0] if mine else None)
    return _reviewed(name, found.of(name) if name is not None else review([]))


def _reviewed(name: str | None, found: Review) -> dict[str, Any]:
    """``found`` (one player's decisions) as the review panel reads it: the decisions
    judged (as ``guts review --json`` gives each), the total, the costliest and the
    decisions not judged with their reasons."""
    total, chips = found.total()
    return {
        "available": True, "name": name,
        "decisions": [_judged(decision) for decision in found.judged],
        "total": {"cost": total, "cost_chips": chips},
        "costliest": [_judged(decision) for decision in found.costliest(COSTLIEST)
                      if decision.cost_chips > 0],
        "unjudged": [{"session": d.session, "deal": d.deal, "action": d.action,
                      "reason": d.reason} for d in found.unjudged],
        "unjudged_reasons": found.reasons(),
    }  # fmt: skip


def _judged(decision: Judged) -> dict[str, Any]:
    """A decision as ``guts review --json`` gives it, and the equilibrium's in words."""
    return {**decision.to_json(), "best": decision.best}


def solver_installed() -> bool:
    """True if the solve extra (numba) is installed on the server (and imports)."""
    try:
        importlib.import_module("numba")
    except ImportError:
        return False
    return True


async def deal_list(request: Request) -> Response:
    """``GET /api/tables/{table_id}/deals``: the night's finished deals."""
    caller = await _caller(request)
    if isinstance(caller, JSONResponse):
        return caller
    try:
        listed = await caller.night(
            lambda night: finished_deals(night.state, night.upto, night.over)
        )
    except GutsError as error:
        return _error("invalid", str(error)[:300])
    return JSONResponse({"table_id": caller.actor.id, "deals": listed})


async def deal_replay(request: Request) -> Response:
    """``GET /api/tables/{table_id}/deals/{session}/{deal}``: one finished deal, step by
    step, as the caller's seat saw it."""
    caller = await _caller(request)
    if isinstance(caller, JSONResponse):
        return caller
    try:
        session, deal = int(request.path_params["session"]), int(request.path_params["deal"])
    except ValueError:
        return _error("invalid", "a deal is named by two numbers: its session and deal")
    try:
        steps = await caller.night(lambda night: deal_steps(
            night.state, caller.seat_id, night.upto, night.over, session, deal))  # fmt: skip
    except GutsError as error:
        return _error("no-such-deal", str(error)[:300], 404)
    return JSONResponse(steps)


async def seat_review_route(request: Request) -> Response:
    """``GET /api/tables/{table_id}/review``: the coach's review of the caller's own
    decisions (``available`` false, and why, when the server lacks the solve extra)."""
    caller = await _caller(request)
    if isinstance(caller, JSONResponse):
        return caller
    if caller.seat_id is None:
        return _error("not-seated", "a review is of a seat's own decisions: send its token", 403)
    if not solver_installed():
        return JSONResponse(
            {
                "available": False,
                "message": "The review needs the solver, "
                "which this server lacks: pip install 'guts[solve]' (numba).",
            }
        )
    try:
        found = await caller.night(
            lambda night: seat_review(night.state, caller.seat_id, night.upto)
        )
    except GutsError as error:
        return _error("invalid", str(error)[:300])
    return JSONResponse(found)


def after_routes() -> list[Route]:
    """This module's routes, for :func:`guts.server.app.create_app`."""
    return [
        Route("/api/tables/{table_id}/deals", deal_list, methods=["GET"]),
        Route("/api/tables/{table_id}/deals/{session}/{deal}", deal_replay, methods=["GET"]),
        Route("/api/tables/{table_id}/review", seat_review_route, methods=["GET"]),
    ]
