"""A terminal seat at a club's table counts for the client's member, as a browser's does.

The page tells the server which device holds its seat (``POST /api/tables/ID/club`` with
the seat's device token as Bearer and ``{"device": KEY}``); :func:`link_seat` sends the
same request for ``guts join``, with the device key kept beside its seat tokens
(:meth:`guts.client.tokens.SeatTokens.device_key`). The answer says which club the table
counts for and which member the seat is; a table of no club answers 404, and that is no
error.

>>> club_route("ws://127.0.0.1:8000/ws/abc?v=2")
'http://127.0.0.1:8000/api/tables/abc/club'
>>> club_page("wss://guts.example/ws/abc?v=2", "K1")
'https://guts.example/c/K1'
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlsplit

__all__ = ["ClubSeat", "Post", "club_page", "club_route", "http_post", "link_seat"]

Post = Callable[[str, dict[str, Any], str], tuple[int, dict[str, Any]]]
"""Send a JSON body with a Bearer credential: the answer's status and JSON body."""
TIMEOUT = 10.0
"""Seconds the request may take (the seat's play does not wait on it for longer)."""


@dataclass(frozen=True)
class ClubSeat:
    """What the server answered: the seat counts for ``member`` of the club, or (with
    ``club_id`` None) the table counts for no club."""

    club_id: str | None
    club_name: str = ""
    member: str = ""


def _http_base(table_socket: str) -> tuple[str, str]:
    """The server's HTTP origin and the table's id, from the table's websocket URL."""
    link = urlsplit(table_socket)
    scheme = "https" if link.scheme == "wss" else "http"
    table_id = link.path.rstrip("/").rpartition("/ws/")[2]
    return f"{scheme}://{link.netloc}", table_id


def club_route(table_socket: str) -> str:
    """The route that links a seat of the table to a device's club member."""
    base, table_id = _http_base(table_socket)
    return f"{base}/api/tables/{quote(table_id, safe='')}/club"


def club_page(table_socket: str, club_id: str) -> str:
    """The club's page on the table's server."""
    base, _table_id = _http_base(table_socket)
    return f"{base}/c/{quote(club_id, safe='')}"


def http_post(url: str, body: dict[str, Any], bearer: str) -> tuple[int, dict[str, Any]]:
    """POST ``body`` as JSON with ``bearer``: the status and the JSON answer (an error
    status is an answer too; OSError if the server cannot be reached)."""
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), method="POST",
        headers={"content-type": "application/json", "authorization": f"Bearer {bearer}"},
    )  # fmt: skip
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
            return answer.status, _json(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code, _json(refused.read())


def _json(raw: bytes) -> dict[str, Any]:
    try:
        data = json.loads(raw or b"{}")
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def link_seat(
    table_socket: str, token: str, device: str, post: Post = http_post
) -> ClubSeat | None:
    """Tell the server that ``device`` holds the seat of ``token``: the club and member
    it counts for, ``ClubSeat(None)`` at a table of no club, or None if it could not be
    said now (not seated yet, or the server unreachable): ask again later."""
    try:
        status, answer = post(club_route(table_socket), {"device": device}, token)
    except OSError:
        return None
    if status == 404 and answer.get("code") == "no-club":
        return ClubSeat(None)
    if status != 200:
        return None
    member = answer.get("member")
    name = member.get("name", "") if isinstance(member, dict) else ""
    return ClubSeat(str(answer.get("club_id", "")), str(answer.get("club_name", "")), str(name))
