"""A bot's chips are the host's: where the host holds a seat the server knows (the seat
the host role was handed to), the ledger settles the bots' nets as that seat's, so the
host is never told to pay themselves, and each row (and the CSV) says who settles it."""

from __future__ import annotations

import csv
import io
import json
import threading
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

with warnings.catch_warnings():  # Starlette would rather have httpx2, not on PyPI here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient, WebSocketTestSession

from guts.server.actor import Settings
from guts.server.app import create_app
from guts.server.commands import ApproveCommand, BotCommand, HostCommand, JoinCommand
from guts.server.ledger import BOTS, ledger_rows, settlement
from guts.server.state import TableState
from guts.server.storage import TableRow


def send(ws: WebSocketTestSession, message: dict[str, Any]) -> None:
    ws.send_text(json.dumps(message))


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    app = create_app(sqlite_url, settings=Settings(bot_delay=0, deal_delay=0))
    with TestClient(app) as test_client:
        yield test_client


def test_the_bots_are_settled_by_the_seat_the_host_role_was_handed_to() -> None:
    state = TableState(TableRow("t", "two-card-guts", {}, {"buy_in": 10}, False, "h"))
    state.apply(BotCommand(seat_id=0, nickname="Ann", bot="random", buy_in=10))
    state.apply(JoinCommand(seat_id=1, nickname="Hana", buy_in=10, token_hash="hana"))
    state.apply(ApproveCommand(seat_id=1, buy_in=10))
    state.apply(JoinCommand(seat_id=2, nickname="Kim", buy_in=10, token_hash="kim"))  # asks
    assert [row["settled_by"] for row in ledger_rows(state, {}, None)] == [BOTS, "Hana"]
    state.apply(HostCommand(seat_id=1))
    assert [row["settled_by"] for row in ledger_rows(state, {}, None)] == ["Hana", "Hana"]
    asked = ledger_rows(state, {}, None, host_seat=2)  # a seat with no chips settles nothing
    assert [row["settled_by"] for row in asked] == [BOTS, "Hana"]


def play_out(ws: WebSocketTestSession) -> None:
    """The connection's seat answers each of its decisions with its first action until
    the night is over."""
    acts = 0
    for _ in range(20_000):
        frame = ws.receive_json()
        if frame.get("status") == "over":
            return
        decision = frame.get("decision") if frame["type"] in ("event", "snapshot") else None
        if decision:
            acts += 1
            send(ws, {"type": "act", "seat": decision["seat"], "action": decision["actions"][0],
                      "client_seq": acts})  # fmt: skip
    raise AssertionError("the night did not end")


def seated(ws: WebSocketTestSession, nickname: str) -> tuple[str, int]:
    send(ws, {"type": "join", "nickname": nickname})
    while (frame := ws.receive_json())["type"] != "welcome":
        pass
    return frame["token"], frame["seat_id"]


def test_a_host_who_sits_with_bots_settles_their_net_and_the_bots_as_one(
    client: TestClient,
) -> None:
    made = client.post("/api/tables", json={
        "preset": "two-card-guts", "bots": 2, "bot": "random", "auto_approve": True,
        "start": False, "buy_in": 50, "options": {"max-deals": "8"}}).json()  # fmt: skip
    table_id, secret = made["table_id"], made["host_secret"]
    with client.websocket_connect(f"/ws/{table_id}") as hana_ws, \
            client.websocket_connect(f"/ws/{table_id}") as cy_ws:  # fmt: skip
        hana_token, hana = seated(hana_ws, "Hana")
        seated(cy_ws, "Cy")
        send(hana_ws, {"type": "hand_host", "secret": secret, "seat_id": hana})
        send(hana_ws, {"type": "start", "secret": hana_token})
        cy = threading.Thread(target=play_out, args=(cy_ws,), daemon=True)
        cy.start()
        play_out(hana_ws)
        cy.join(timeout=60)
    auth = {"authorization": f"Bearer {hana_token}"}
    ledger = client.get(f"/api/tables/{table_id}/ledger", headers=auth).json()
    rows = {row["player_nickname"]: row for row in ledger["players"]}
    assert {name: row["settled_by"] for name, row in rows.items()} == {
        "Ann": "Hana", "Bob": "Hana", "Hana": "Hana", "Cy": "Cy"}  # fmt: skip
    cy_net = rows["Cy"]["net"]
    assert cy_net != 0, "a night in which Cy neither won nor lost says nothing"
    hana_and_bots = sum(row["net"] for name, row in rows.items() if name != "Cy")
    assert hana_and_bots == -cy_net  # the bots' chips are Hana's
    payer, payee = ("Cy", "Hana") if cy_net < 0 else ("Hana", "Cy")
    assert ledger["settlement"] == [{"from": payer, "to": payee, "amount": abs(cy_net)}]
    text = client.get(f"/api/tables/{table_id}/ledger?format=csv", headers=auth).text
    read = {row["player_nickname"]: row["settled_by"] for row in csv.DictReader(io.StringIO(text))}
    assert read == {"Ann": "Hana", "Bob": "Hana", "Hana": "Hana", "Cy": "Cy"}


def test_a_host_with_no_seat_settles_the_bots_as_the_host() -> None:
    rows = [{"player_nickname": "Ann", "bot": True, "net": -30, "settled_by": BOTS},
            {"player_nickname": "Hana", "net": 10, "settled_by": "Hana"},
            {"player_nickname": "Cy", "net": 20, "settled_by": "Cy"}]  # fmt: skip
    assert sorted(settlement(rows)) == [(BOTS, "Cy", 20), (BOTS, "Hana", 10)]  # Hana is paid
    for row in rows:
        if row.get("bot"):
            row["settled_by"] = "Hana"  # the host sits as Hana: one party
    assert settlement(rows) == [("Hana", "Cy", 20)]
