"""The HTTP and websocket routes, in process (Starlette's test client): opening a table,
joining, approving, acting, spectating, and every kind of bad input answered with an
error that changes nothing."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

with warnings.catch_warnings():  # Starlette would rather have httpx2, not on PyPI here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient, WebSocketTestSession

from guts.server.actor import Settings, TableActor
from guts.server.app import create_app
from guts.server.protocol import PROTOCOL_VERSION, SERVER

PAUSED = Settings(bot_delay=0, deal_delay=3600)  # bots play at once, deals wait


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url, settings=PAUSED)) as test_client:
        yield test_client


def receive(ws: WebSocketTestSession) -> dict[str, Any]:
    """The next frame, which must be a valid server message."""
    frame: dict[str, Any] = ws.receive_json()
    SERVER.validate_python(frame)
    return frame


def until(ws: WebSocketTestSession, kind: str) -> dict[str, Any]:
    """Frames up to the first of ``kind``."""
    for _ in range(200):
        frame = receive(ws)
        if frame["type"] == kind:
            return frame
    raise AssertionError(f"no {kind} frame")


def acked(ws: WebSocketTestSession, client_seq: int) -> dict[str, Any]:
    """Frames up to the event frame that acknowledges the client's act ``client_seq``."""
    for _ in range(200):
        frame = receive(ws)
        if frame["type"] == "event" and frame.get("acked") == client_seq:
            return frame
        assert frame["type"] != "ack", frame  # an act told of by an event frame has no ack
    raise AssertionError(f"no event frame acknowledged act {client_seq}")


def send(ws: WebSocketTestSession, message: dict[str, Any]) -> None:
    ws.send_text(json.dumps(message))


def open_table(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json={"preset": "two-card-guts", **body})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def actor_of(client: TestClient, table_id: str) -> TableActor:
    actor: TableActor = client.app.state.tables.actors[table_id]  # type: ignore[attr-defined]
    return actor


def in_loop(client: TestClient, actor: TableActor, ask: Any) -> Any:
    """``ask()`` run by the table's actor, in the server's event loop."""
    assert client.portal is not None
    return client.portal.call(actor.query, ask)


def test_a_table_is_opened_joined_approved_and_played(client: TestClient) -> None:
    created = open_table(client, bots=1, bot="random", buy_in=30)
    table_id, secret = created["table_id"], created["host_secret"]
    assert len(table_id) >= 22  # 128 random bits, URL-safe
    assert created["join_url"].endswith(f"/t/{table_id}")
    assert created["host_url"] == f"{created['join_url']}#host={secret}"
    summary = client.get(f"/api/tables/{table_id}").json()
    assert summary["status"] == "lobby" and [s["nickname"] for s in summary["seats"]] == ["Ann"]
    assert secret not in json.dumps(summary)
    with (
        client.websocket_connect(f"/ws/{table_id}?v={PROTOCOL_VERSION}") as jo,
        client.websocket_connect(f"/ws/{table_id}") as host,
    ):
        send(host, {"type": "resume"})
        assert receive(host)["type"] == "snapshot"
        send(jo, {"type": "join", "nickname": "Jo", "buy_in": 25})
        welcome = until(jo, "welcome")
        assert welcome["status"] == "requested" and len(welcome["token"]) >= 40
        snapshot = until(jo, "snapshot")
        assert snapshot["you"]["status"] == "requested" and snapshot["game"] is None
        send(host, {"type": "start", "secret": secret})  # Jo is not approved: one player
        assert until(host, "error")["code"] == "not-now"
        send(host, {"type": "approve", "secret": "nope", "seat_id": 1})
        assert until(host, "error")["code"] == "not-host"
        send(host, {"type": "approve", "secret": secret, "seat_id": 1})
        seats = until(jo, "seats")
        while seats["seats"][1]["status"] == "requested":  # Jo's connection came first
            seats = until(jo, "seats")
        assert [s["status"] for s in seats["seats"]] == ["approved", "approved"]
        send(host, {"type": "start", "secret": secret})
        update = until(jo, "event")
        assert update["status"] == "playing" and update["stacks"][1] <= 25
        dealt = [e for e in update["events"] if e["kind"] == "cards-dealt"]
        assert [e["seat"] for e in dealt] == [1]  # Jo sees her own cards, not Ann's
        assert update["decision"]["seat"] == 1 and update["decision"]["actions"] == ["in", "out"]
        send(jo, {"type": "act", "seat": 1, "action": "in", "client_seq": 1})
        echo = acked(jo, 1)
        assert [e["kind"] for e in echo["events"]][:2] == ["acted", "declared"]
    summary = client.get(f"/api/tables/{table_id}").json()
    assert summary["seq"] >= echo["seq"] and summary["stacks"] is not None


def test_reconnecting_with_the_token_takes_the_seat_back(client: TestClient) -> None:
    created = open_table(client, bots=1, bot="random", auto_approve=True, start=False)
    table_id, secret = created["table_id"], created["host_secret"]
    with client.websocket_connect(f"/ws/{table_id}") as jo:
        send(jo, {"type": "join", "nickname": "Jo"})
        token = until(jo, "welcome")["token"]
        send(jo, {"type": "start", "secret": secret})
        until(jo, "event")
    with client.websocket_connect(f"/ws/{table_id}") as again:  # a reload, or a new device
        send(again, {"type": "resume", "token": token})
        snapshot = until(again, "snapshot")
        assert snapshot["you"]["nickname"] == "Jo" and snapshot["you"]["seat"] == 1
        assert snapshot["game"]["seat"] == 1 and snapshot["game"]["hand"]
        send(again, {"type": "act", "seat": 1, "action": "out", "client_seq": 1})
        assert acked(again, 1)["events"][0] == {"kind": "acted", "audience": None, "seat": 1,
                                                "action": "out"}  # fmt: skip


def settled(client: TestClient, actor: TableActor) -> None:
    """Wait until the table's bots have played and it waits for the next deal."""
    for _ in range(10_000):
        step = in_loop(client, actor, actor.next_step)
        if in_loop(client, actor, lambda: actor.queued) == 0 and (step is None or step >= 60):
            return
    raise AssertionError("the table is still busy")


def test_a_spectator_sees_exactly_the_public_view(client: TestClient) -> None:
    created = open_table(client, bots=3, bot="random", start=True)
    table_id = created["table_id"]
    actor = actor_of(client, table_id)
    settled(client, actor)
    with client.websocket_connect(f"/ws/{table_id}") as watcher:
        send(watcher, {"type": "resume"})
        snapshot = until(watcher, "snapshot")
        public = in_loop(client, actor, lambda: actor.session.public_view())
        assert snapshot["game"] == json.loads(json.dumps(public))
        assert snapshot["you"] is None and snapshot["game"]["seat"] is None
        assert "hand" not in json.dumps(snapshot) or snapshot["game"].get("hand") is None


BAD_FRAMES = [
    ("{not json", "bad-json"),
    ("[]", "bad-json"),
    ('{"type": "hello"}', "unknown-type"),
    ('{"type": "act", "seat": 0, "action": "in"}', "invalid"),
    ('{"type": "act", "seat": 0, "action": "in", "client_seq": 1, "secret": "x"}', "invalid"),
    ('{"type": "join", "nickname": "\\u0007bell"}', "invalid"),
    ('{"type": "act", "seat": 0, "action": "in", "client_seq": 1}', "not-seated"),
    ('{"type": "chat", "text": "hello"}', "not-seated"),
    ('{"type": "start", "secret": "guess"}', "not-host"),
    ('{"type": "resume", "token": "forged"}', "no-such-seat"),
]


def test_bad_messages_get_an_error_and_change_nothing(client: TestClient) -> None:
    created = open_table(client, bots=2, bot="random", start=True)
    table_id = created["table_id"]
    settled(client, actor_of(client, table_id))  # the bots have played the first deal
    before = client.get(f"/api/tables/{table_id}").json()
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        for text, code in BAD_FRAMES:
            ws.send_text(text)
            error = until(ws, "error")
            assert error["code"] == code, text
            assert "Traceback" not in error["message"] and "\n" not in error["message"]
        ws.send_bytes(b"\xff\x00")  # the protocol is text frames
        error = until(ws, "error")
        assert error["code"] == "invalid" and "text frames" in error["message"]
    assert client.get(f"/api/tables/{table_id}").json() == before


def test_a_seat_may_not_act_for_another_or_out_of_turn(client: TestClient) -> None:
    created = open_table(client, bots=1, bot="random", auto_approve=True)
    table_id, secret = created["table_id"], created["host_secret"]
    with (
        client.websocket_connect(f"/ws/{table_id}") as jo,
        client.websocket_connect(f"/ws/{table_id}") as cy,
    ):
        send(jo, {"type": "join", "nickname": "Jo"})
        until(jo, "snapshot")
        send(cy, {"type": "join", "nickname": "Cy"})
        until(cy, "snapshot")
        send(jo, {"type": "start", "secret": secret})
        first = until(jo, "event")
        seq = first["seq"]
        assert first["to_act"] == [1]  # Jo, left of the bot dealer; Cy is later
        send(cy, {"type": "act", "seat": 1, "action": "in", "client_seq": 1})
        assert until(cy, "error")["code"] == "wrong-seat"
        send(cy, {"type": "act", "seat": 2, "action": "in", "client_seq": 1})
        assert until(cy, "error")["code"] == "illegal"
        send(jo, {"type": "act", "seat": 1, "action": "raise 5", "client_seq": 1})
        assert until(jo, "error")["code"] == "illegal"
        assert client.get(f"/api/tables/{table_id}").json()["seq"] == seq
        send(jo, {"type": "chat", "text": "  good luck  "})
        line = until(cy, "chat")
        assert (line["nickname"], line["text"]) == ("Jo", "good luck")


def test_bad_requests_get_an_error(client: TestClient) -> None:
    def refused(body: Any, code: str, status: int = 400) -> None:
        response = client.post(
            "/api/tables", content=body if isinstance(body, bytes) else json.dumps(body).encode()
        )
        assert response.status_code == status, response.text
        assert response.json()["code"] == code

    refused(b"{", "invalid")
    refused({"preset": "two-card-guts", "colour": "red"}, "invalid")
    refused({"preset": "no-such-game"}, "invalid")
    refused({"preset": "two-card-guts", "options": {"ghost": "sometimes"}}, "invalid")
    refused({"preset": "two-card-guts", "buy_in": 0}, "invalid")
    refused({"preset": "five-card-draw", "bots": 2, "bot": "threshold"}, "invalid")
    refused({"preset": "jacks-or-better", "bots": 2, "start": True}, "invalid")  # 4 at least
    refused(b"x" * 10_000, "too-large", 413)
    assert client.get("/api/tables/nope").status_code == 404
    assert client.get("/t/nope").status_code == 404
    with client.websocket_connect("/ws/nope") as ws:
        assert receive(ws)["code"] == "no-such-table"


def test_another_protocol_version_is_refused(client: TestClient) -> None:
    table_id = open_table(client)["table_id"]
    with client.websocket_connect(f"/ws/{table_id}?v=9") as ws:
        error = receive(ws)
        assert error["code"] == "invalid" and f"protocol {PROTOCOL_VERSION}" in error["message"]


def test_a_page_of_another_site_may_not_open_a_table(client: TestClient) -> None:
    table_id = open_table(client)["table_id"]
    with client.websocket_connect(
        f"/ws/{table_id}", headers={"origin": "https://evil.example"}
    ) as ws:
        assert receive(ws)["code"] == "bad-origin"
    with client.websocket_connect(f"/ws/{table_id}", headers={"origin": "http://testserver"}) as ws:
        send(ws, {"type": "resume"})
        assert receive(ws)["type"] == "snapshot"


def test_a_flood_of_messages_is_rate_limited(client: TestClient) -> None:
    table_id = open_table(client)["table_id"]
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        for _ in range(100):
            ws.send_text('{"type": "hello"}')
        codes = [receive(ws)["code"]]
        while codes[-1] != "rate-limited":
            codes.append(receive(ws)["code"])
    # the burst (60) is answered, then the first message over the rate only: the rest of
    # the run is dropped unanswered (a connection flooding on is closed: test_attacks)
    assert codes.count("unknown-type") >= 60 and len(codes) < 100


def test_equilibrium_bots_take_seats_where_guts_solve_reaches(client: TestClient) -> None:
    created = open_table(client, bots=2, bot="equilibrium", auto_approve=True, start=True)
    actor = actor_of(client, created["table_id"])
    settled(client, actor)
    summary = client.get(f"/api/tables/{created['table_id']}").json()
    assert summary["status"] != "lobby"
    kinds = [seat.kind for seat in in_loop(client, actor, lambda: list(actor.state.seats.values()))]
    assert kinds.count("equilibrium") == 2
    refused = client.post("/api/tables", json={"preset": "hi-lo-guts", "bots": 2,
                                                "options": {"everyone-out": "henry"},
                                                "bot": "equilibrium"})  # fmt: skip
    assert refused.status_code == 400
    assert "guts solve" in refused.json()["message"]
    staged = client.post("/api/tables", json={"preset": "three-five-seven", "bots": 2,
                                               "bot": "equilibrium"})  # fmt: skip
    assert staged.status_code == 400


def test_everyone_sees_whether_a_person_is_connected(client: TestClient) -> None:
    created = open_table(client, bots=1, bot="random", auto_approve=True)
    table_id = created["table_id"]

    def connected(message: dict[str, Any]) -> list[bool]:
        return [seat["connected"] for seat in message["seats"]]

    with client.websocket_connect(f"/ws/{table_id}") as watcher:
        send(watcher, {"type": "resume"})
        assert connected(until(watcher, "snapshot")) == [True]  # the bot
        with client.websocket_connect(f"/ws/{table_id}") as jo:
            send(jo, {"type": "join", "nickname": "Jo"})
            token = until(jo, "welcome")["token"]
            while connected(until(watcher, "seats")) != [True, True]:
                pass
        assert connected(until(watcher, "seats")) == [True, False]  # Jo's link dropped
        with client.websocket_connect(f"/ws/{table_id}") as again:
            send(again, {"type": "resume", "token": token})
            assert connected(until(again, "snapshot")) == [True, True]
            assert connected(until(watcher, "seats")) == [True, True]


def test_the_host_seats_a_bot_where_asked_over_the_websocket(client: TestClient) -> None:
    created = open_table(client, bots=1, bot="random", auto_approve=True)
    table_id, secret = created["table_id"], created["host_secret"]
    with client.websocket_connect(f"/ws/{table_id}") as host:
        send(host, {"type": "resume"})
        until(host, "snapshot")
        before = client.get(f"/api/tables/{table_id}").json()
        for seat_id, code in ((32, "invalid"), (-1, "invalid"), (0, "taken")):
            send(host, {"type": "add_bot", "secret": secret, "bot": "sensible",
                        "seat_id": seat_id})  # fmt: skip
            send(host, {"type": "hello"})  # an error after it, whatever becomes of it
            error = until(host, "error")
            assert error["code"] == code and "seat" in error["message"], error
            assert until(host, "error")["code"] == "unknown-type"
        assert client.get(f"/api/tables/{table_id}").json() == before  # nothing changed
        send(host, {"type": "add_bot", "secret": secret, "bot": "threshold", "seat_id": 4})
        seats = until(host, "seats")["seats"]
    assert [(s["seat_id"], s["kind"]) for s in seats] == [(0, "random"), (4, "threshold")]
