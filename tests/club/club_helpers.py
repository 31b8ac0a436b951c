"""Helpers of the club tests: a club made, and a night played by a member's device."""

from __future__ import annotations

import json
import secrets
import warnings
from typing import Any

with warnings.catch_warnings():  # Starlette would rather have httpx2, not on PyPI here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient, WebSocketTestSession


def device() -> str:
    return secrets.token_urlsafe(32)


def bearer(secret: str) -> dict[str, str]:
    return {"authorization": f"Bearer {secret}"}


def make_club(client: TestClient, name: str = "Friday game") -> dict[str, Any]:
    made = client.post("/api/clubs", json={"name": name})
    assert made.status_code == 201, made.text
    club: dict[str, Any] = made.json()
    return club


def send(ws: WebSocketTestSession, message: dict[str, Any]) -> None:
    ws.send_text(json.dumps(message))


def play_night(client: TestClient, club: dict[str, Any] | None, key: str, nickname: str,
               deals: int = 3) -> dict[str, Any]:  # fmt: skip
    """A table of two-card Guts (two bots and ``nickname``, who goes in whenever asked),
    counted for ``club`` if given, played to its end; what the test needs of it."""
    made = client.post("/api/tables", json={
        "preset": "two-card-guts", "bots": 2, "bot": "random", "auto_approve": True,
        "start": False, "buy_in": 50, "options": {"max-deals": str(deals)}})  # fmt: skip
    assert made.status_code == 201, made.text
    table_id, secret = made.json()["table_id"], made.json()["host_secret"]
    if club is not None:
        attached = client.post(f"/api/clubs/{club['club_id']}/tables",
                               json={"table_id": table_id, "host_secret": secret},
                               headers=bearer(club["club_secret"]))  # fmt: skip
        assert attached.status_code == 200, attached.text
    ins = 0
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        send(ws, {"type": "join", "nickname": nickname})
        token = _until(ws, lambda f: f["type"] == "welcome")["token"]
        linked = client.post(f"/api/tables/{table_id}/club", json={"device": key},
                             headers=bearer(token))  # fmt: skip
        send(ws, {"type": "start", "secret": secret})
        acts = dealt = 0
        for _ in range(5000):
            frame = ws.receive_json()
            for event in frame.get("events") or () if frame["type"] == "event" else ():
                dealt += event["kind"] == "deal-started" and 2 in event["seats"]
            decision = frame.get("decision")
            if frame.get("status") == "over":
                break
            if decision and frame["type"] in ("event", "snapshot") and decision.get("seat") == 2:
                acts += 1
                action = "in" if "in" in decision["actions"] else decision["actions"][0]
                ins += action == "in"
                send(ws, {"type": "act", "seat": 2, "action": action, "client_seq": acts})
        else:
            raise AssertionError("the night did not end")
    ledger = client.get(f"/api/tables/{table_id}/ledger", headers=bearer(secret)).json()
    net = next(row["net"] for row in ledger["players"] if row["player_nickname"] == nickname)
    return {
        "table_id": table_id,
        "token": token,
        "linked": linked,
        "net": net,
        "ins": ins,
        "deals": dealt,
    }


def _until(ws: WebSocketTestSession, test: Any) -> dict[str, Any]:
    for _ in range(200):
        frame: dict[str, Any] = ws.receive_json()
        if test(frame):
            return frame
    raise AssertionError("no such frame")
