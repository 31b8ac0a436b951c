"""The host's own seat: a seat the host asks for with the host secret (the host page) is
recorded as theirs, in the table's commands (so a rebuilt table knows it too), and the
ledger settles the bots' chips as that seat's even when the host never hands the host
role on: the host is never told to pay themselves."""

from __future__ import annotations

import threading
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

with warnings.catch_warnings():  # Starlette would rather have httpx2, not on PyPI here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient, WebSocketTestSession

from test_ledger_host_bots import play_out, send

from guts.server.actor import Settings
from guts.server.app import create_app
from guts.server.commands import (
    ApproveCommand,
    BotCommand,
    HostCommand,
    JoinCommand,
    RefuseCommand,
)
from guts.server.ledger import BOTS, ledger_rows
from guts.server.state import TableState
from guts.server.storage import TableRow


@pytest.fixture
def app_on(sqlite_url: str) -> Iterator[Any]:
    """A fresh server on the test's database each time it is called (a restart)."""
    opened: list[TestClient] = []

    def start() -> TestClient:
        for old in opened:
            old.__exit__(None, None, None)
        opened.clear()
        app = create_app(sqlite_url, settings=Settings(bot_delay=0, deal_delay=0))
        client = TestClient(app)
        client.__enter__()
        opened.append(client)
        return client

    yield start
    for client in opened:
        client.__exit__(None, None, None)


def ask(ws: WebSocketTestSession, nickname: str, secret: str | None = None) -> dict[str, Any]:
    """Join as ``nickname`` (with the host's ``secret``, as the host page does): the
    welcome, or the error that refused it."""
    message: dict[str, Any] = {"type": "join", "nickname": nickname}
    if secret is not None:
        message["secret"] = secret
    send(ws, message)
    while (frame := ws.receive_json())["type"] not in ("welcome", "error"):
        pass
    return dict(frame)


def settled_by(client: TestClient, table_id: str, secret: str) -> dict[str, Any]:
    auth = {"authorization": f"Bearer {secret}"}
    ledger: dict[str, Any] = client.get(f"/api/tables/{table_id}/ledger", headers=auth).json()
    return ledger


def test_a_host_who_sits_and_never_hands_the_role_on_pays_no_one_themselves(
    app_on: Any,
) -> None:
    client = app_on()
    made = client.post("/api/tables", json={
        "preset": "two-card-guts", "bots": 2, "bot": "random", "auto_approve": True,
        "buy_in": 50, "options": {"max-deals": "8"}}).json()  # fmt: skip
    table_id, secret = made["table_id"], made["host_secret"]
    with client.websocket_connect(f"/ws/{table_id}") as hana_ws, \
            client.websocket_connect(f"/ws/{table_id}") as cy_ws:  # fmt: skip
        assert ask(hana_ws, "Hana", secret)["type"] == "welcome"
        assert ask(cy_ws, "Cy")["type"] == "welcome"
        send(hana_ws, {"type": "start", "secret": secret})  # the role stays the secret's
        cy = threading.Thread(target=play_out, args=(cy_ws,), daemon=True)
        cy.start()
        play_out(hana_ws)
        cy.join(timeout=60)
    for round_ in ("played", "rebuilt from its record"):
        ledger = settled_by(client, table_id, secret)
        rows = {row["player_nickname"]: row for row in ledger["players"]}
        assert {name: row["settled_by"] for name, row in rows.items()} == {
            "Ann": "Hana", "Bob": "Hana", "Hana": "Hana", "Cy": "Cy"}, round_  # fmt: skip
        cy_net = rows["Cy"]["net"]
        assert cy_net != 0, "a night in which Cy neither won nor lost says nothing"
        payer, payee = ("Cy", "Hana") if cy_net < 0 else ("Hana", "Cy")
        assert ledger["settlement"] == [{"from": payer, "to": payee, "amount": abs(cy_net)}]
        assert all(BOTS not in (line["from"], line["to"]) for line in ledger["settlement"])
        client = app_on()  # a restart: the table is replayed from its stored commands


def test_a_join_with_a_wrong_host_secret_is_refused(app_on: Any) -> None:
    client = app_on()
    made = client.post("/api/tables", json={"preset": "two-card-guts", "bots": 1,
                                            "auto_approve": True}).json()  # fmt: skip
    table_id = made["table_id"]
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        refused = ask(ws, "Mal", "not-the-secret")
        assert refused["code"] == "not-host"
        assert ask(ws, "Mal")["type"] == "welcome"  # a plain request is still a request
    summary = client.get(f"/api/tables/{table_id}").json()
    assert [seat["nickname"] for seat in summary["seats"]] == ["Ann", "Mal"]
    ledger = settled_by(client, table_id, made["host_secret"])
    assert {row["player_nickname"]: row["settled_by"] for row in ledger["players"]} == {
        "Ann": BOTS, "Mal": "Mal"}  # fmt: skip


def bots_by(state: TableState) -> list[str]:
    return [row["settled_by"] for row in ledger_rows(state, {}, None,
                                                     host_seat=state.host_holds())]  # fmt: skip


def test_the_hosts_seat_is_theirs_while_it_holds_their_request() -> None:
    state = TableState(TableRow("t", "two-card-guts", {}, {"buy_in": 10}, False, "h"))
    state.apply(BotCommand(seat_id=0, nickname="Ann", bot="random", buy_in=10))
    state.apply(JoinCommand(seat_id=1, nickname="Hana", buy_in=10, token_hash="h1", host=True))
    assert state.host_holds() == 1
    assert bots_by(state) == [BOTS]  # a request holds no chips: it settles nothing yet
    state.apply(RefuseCommand(seat_id=1, by="host"))  # the seat id is free again
    assert state.host_holds() is None
    state.apply(JoinCommand(seat_id=1, nickname="Kim", buy_in=10, token_hash="k"))
    state.apply(ApproveCommand(seat_id=1, buy_in=10))
    assert state.host_holds() is None and bots_by(state) == [BOTS, "Kim"]  # not the host's
    state.apply(JoinCommand(seat_id=2, nickname="Hana", buy_in=10, token_hash="h2", host=True))
    state.apply(ApproveCommand(seat_id=2, buy_in=10))
    assert bots_by(state) == ["Hana", "Kim", "Hana"]
    state.apply(HostCommand(seat_id=1))  # the role handed on: its seat settles the bots
    assert state.host_holds() == 1 and bots_by(state) == ["Kim", "Kim", "Hana"]
