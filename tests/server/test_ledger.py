"""The ledger: PokerNow's columns, a row for every player who bought in (from the moment
they are approved), nets that add up, a settlement in the fewest payments (none while
chips are in the pot, and why), and cells that no spreadsheet reads as a formula."""

from __future__ import annotations

import asyncio
import csv
import io
import json
from datetime import UTC, datetime

from server_helpers import bot_table, settle
from starlette.testclient import TestClient

from guts.server.actor import Settings
from guts.server.app import create_app
from guts.server.commands import (
    ApproveCommand,
    BotCommand,
    EndCommand,
    JoinCommand,
    LeaveCommand,
    StartCommand,
)
from guts.server.ledger import COLUMNS, ledger_body, ledger_rows, settlement, to_csv, unsettled
from guts.server.protocol import End
from guts.server.state import TableState
from guts.server.storage import Storage, TableRow
from guts.server.tables import Tables

JOINED = datetime(2026, 12, 4, 20, 0, tzinfo=UTC)
LEFT = datetime(2026, 12, 4, 21, 30, tzinfo=UTC)
ENDED = datetime(2026, 12, 4, 23, 45, tzinfo=UTC)


def lobby(*, auto_approve: bool = False) -> TableState:
    """A two-card Guts table of 10-chip buy-ins with the bots Ann, Bob and Cy seated,
    not started."""
    state = TableState(TableRow("t", "two-card-guts", {}, {"buy_in": 10}, auto_approve, "h"))
    for n, name in enumerate(["Ann", "Bob", "Cy"]):
        state.apply(BotCommand(seat_id=n, nickname=name, bot="random", buy_in=10))
    return state


def by_name(rows: list[dict[str, object]]) -> dict[object, dict[str, object]]:
    return {row["player_nickname"]: row for row in rows}


def test_the_ledger_of_a_night_adds_up(sqlite_url: str) -> None:
    async def run() -> None:
        storage = await Storage.open(sqlite_url)
        tables = Tables(storage, Settings(0, 0))
        actor, _secret = await bot_table(tables, "two-card-guts", options={"max-deals": "4"})
        await settle(actor)
        joined, ended = await storage.times(actor.id)
        rows = ledger_rows(actor.state, joined, ended)
        assert [row["player_nickname"] for row in rows] == ["Ann", "Bob", "Cat", "Dan"]
        assert actor.status == "over"
        session = actor.session
        assert session is not None
        assert not any(session.table.places.values())  # what was left is shared out
        assert sum(row["net"] for row in rows) == 0
        assert all(row["stack"] == 0 and row["session_end_at"] for row in rows)  # cashed out
        assert all(
            row["buy_out"] == s.stack for row, s in zip(rows, session.table.seats, strict=True)
        )
        read = list(csv.DictReader(io.StringIO(to_csv(rows))))
        assert tuple(read[0]) == COLUMNS and len(read) == 4
        await tables.close()
        await storage.close()

    asyncio.run(run())


def test_a_night_in_progress_shows_stacks_not_cash_outs(sqlite_url: str) -> None:
    async def run() -> None:
        storage = await Storage.open(sqlite_url)
        tables = Tables(storage, Settings(0, 3600))
        actor, secret = await bot_table(tables, "jacks-or-better")
        await settle(actor)
        rows = ledger_rows(actor.state, *await storage.times(actor.id))
        assert all(row["buy_out"] == 0 and not row["session_end_at"] for row in rows)
        assert sum(row["stack"] for row in rows) + actor.session.table.pot == 200  # type: ignore[union-attr]
        await actor.call(End(type="end", secret=secret))
        await tables.close()
        await storage.close()

    asyncio.run(run())


def test_the_settlement_squares_every_net_in_at_most_n_minus_one_payments() -> None:
    nets = {"A": -30, "B": -5, "C": 20, "D": 10, "E": 5}
    rows = [{"player_nickname": name, "net": net} for name, net in nets.items()]
    payments = settlement(rows)
    assert len(payments) <= len(nets) - 1
    square = dict(nets)
    for payer, payee, amount in payments:
        assert amount > 0
        square[payer] += amount
        square[payee] -= amount
    assert set(square.values()) == {0}


def test_the_settlement_is_the_fewest_payments() -> None:
    # The biggest loser paying the biggest winner first takes 4 payments here.
    nets = {"A": -7, "B": -5, "C": 4, "D": 3, "E": 5}
    rows = [{"player_nickname": name, "net": net} for name, net in nets.items()]
    assert settlement(rows) == [("A", "C", 4), ("A", "D", 3), ("B", "E", 5)]


def test_approved_players_are_in_the_ledger_before_the_first_deal() -> None:
    state = lobby()
    state.apply(JoinCommand(seat_id=3, nickname="Jo", buy_in=20, token_hash="jo"))
    state.apply(JoinCommand(seat_id=4, nickname="Al", buy_in=30, token_hash="al"))
    state.apply(ApproveCommand(seat_id=4, buy_in=25))  # Jo is still waiting: no chips yet
    rows = ledger_rows(state, {n: JOINED for n in range(5)}, None)
    assert [row["player_nickname"] for row in rows] == ["Ann", "Bob", "Cy", "Al"]
    assert [(row["buy_in"], row["buy_out"], row["stack"], row["net"]) for row in rows] == [
        (10, 0, 10, 0), (10, 0, 10, 0), (10, 0, 10, 0), (25, 0, 25, 0)
    ]  # fmt: skip
    assert all(row["session_start_at"] == JOINED.isoformat() for row in rows)
    assert all(row["session_end_at"] == "" for row in rows)
    assert ledger_body(rows) == {"players": rows, "settlement": [], "unsettled": None}


def test_a_night_ended_before_the_first_deal_cashes_everyone_out() -> None:
    state = lobby()
    state.apply(EndCommand())
    rows = ledger_rows(state, {}, ENDED)
    assert [(row["buy_in"], row["buy_out"], row["stack"], row["net"]) for row in rows] == [
        (10, 10, 0, 0)
    ] * 3
    assert all(row["session_end_at"] == ENDED.isoformat() for row in rows)


def test_a_player_who_left_ends_when_cashed_out_not_when_the_night_ends() -> None:
    state = lobby()
    state.apply(LeaveCommand(seat_id=2, by="player"))  # Cy takes the chips away at once
    cy = by_name(ledger_rows(state, {}, None, {2: LEFT}))["Cy"]
    assert (cy["buy_out"], cy["stack"], cy["net"], cy["session_end_at"]) == (
        10, 0, 0, LEFT.isoformat()
    )  # fmt: skip
    state.apply(EndCommand())
    assert state.status == "over"
    rows = by_name(ledger_rows(state, {}, ENDED, {2: LEFT}))
    assert rows["Cy"]["session_end_at"] == LEFT.isoformat()
    assert rows["Ann"]["session_end_at"] == ENDED.isoformat()
    # Where the server does not know when Cy was cashed out, it says nothing: never the
    # night's end.
    assert by_name(ledger_rows(state, {}, ENDED))["Cy"]["session_end_at"] == ""


def test_there_is_no_settlement_while_chips_are_in_the_pot() -> None:
    state = lobby()
    state.apply(StartCommand())  # the antes are in the pot
    session = state.session
    assert session is not None and session.table.pot == 3
    rows = ledger_rows(state, {}, None)
    assert [row["net"] for row in rows] == [-1, -1, -1]
    assert settlement(rows) == []
    assert unsettled(rows) == "3 chips are still in the pot: settle once it is won"
    body = ledger_body(rows)
    assert body["settlement"] == [] and body["unsettled"] == unsettled(rows)


def test_a_settlement_ignores_no_loser_while_chips_are_in_the_pot() -> None:
    rows = [{"player_nickname": name, "net": net} for name, net in
            [("Ann", -3), ("Bob", -3), ("Cat", 3)]]  # fmt: skip
    assert settlement(rows) == []
    assert unsettled(rows) == "3 chips are still in the pot: settle once it is won"
    rows[1]["net"] = -1
    assert unsettled(rows) == "1 chip is still in the pot: settle once it is won"
    rows[1]["net"] = 0
    assert unsettled(rows) is None and settlement(rows) == [("Ann", "Cat", 3)]
    assert ledger_body(rows)["settlement"] == [{"from": "Ann", "to": "Cat", "amount": 3}]


def test_no_cell_is_read_as_a_formula() -> None:
    rows = [
        {"player_nickname": name, "player_id": n, "net": 0}
        for n, name in enumerate(['=HYPERLINK("x")', "+1", "-1", "@SUM(A1)", "Jo"])
    ]
    cells = [line.split(",")[0] for line in to_csv(rows).splitlines()[1:]]
    assert all(not cell.lstrip('"').startswith(("=", "+", "-", "@")) for cell in cells)
    assert cells[-1] == "Jo"


def test_a_player_who_left_ends_when_cashed_out(sqlite_url: str) -> None:
    """``session_end_at`` of a seat that left is when the command that cashed it out was
    committed: shown while the night goes on, and the same after the table is rebuilt."""
    settings = Settings(bot_delay=0, deal_delay=3600)
    with TestClient(create_app(sqlite_url, settings=settings)) as client:
        created = client.post("/api/tables", json={"preset": "two-card-guts", "bots": 2,
                                                   "auto_approve": True}).json()  # fmt: skip
        table_id, auth = created["table_id"], {"authorization": f"Bearer {created['host_secret']}"}
        with client.websocket_connect(f"/ws/{table_id}") as jo:
            jo.send_text(json.dumps({"type": "join", "nickname": "Jo"}))
            while jo.receive_json()["type"] != "welcome":
                pass
            jo.send_text(json.dumps({"type": "leave"}))
            for _ in range(50):
                rows = by_name(client.get(f"/api/tables/{table_id}/ledger", headers=auth)
                               .json()["players"])  # fmt: skip
                if rows["Jo"]["session_end_at"]:
                    break
        left = str(rows["Jo"]["session_end_at"])
        assert left and rows["Jo"]["buy_out"] == rows["Jo"]["buy_in"]
        assert left >= str(rows["Jo"]["session_start_at"])
        assert all(row["session_end_at"] == "" for name, row in rows.items() if name != "Jo")

        async def cash_out_committed() -> datetime:
            storage = await Storage.open(sqlite_url)
            actions = (await storage.load(table_id)).actions  # type: ignore[union-attr]
            (seq,) = [a.seq for a in actions if a.kind == "leave"]
            moments = await storage.committed_at(table_id, [seq, 10_000])
            await storage.close()
            return moments[seq]

        assert left == asyncio.run(cash_out_committed()).isoformat()
    with TestClient(create_app(sqlite_url, settings=settings)) as client:  # rebuilt by replay
        rows = by_name(client.get(f"/api/tables/{table_id}/ledger", headers=auth).json()["players"])
        assert rows["Jo"]["session_end_at"] == left
