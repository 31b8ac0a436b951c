"""A whole game night of each family through the protocol, a person and bots at one
table: the person answers every decision it is sent, the night ends, no chip is made or
lost, every session's record replays, and the ledger's nets add up to zero."""

from __future__ import annotations

import csv
import io
import json
import random
import warnings
from typing import Any

import pytest

from guts.catalog import replay_record
from guts.server.actor import Settings
from guts.server.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

NIGHTS = [
    ("two-card-guts", "threshold"),
    ("three-five-seven", "sensible"),
    ("toh", "random"),
    ("jacks-or-better", "sensible"),
    ("bourre", "random"),
]


@pytest.mark.parametrize(("preset", "bot"), NIGHTS)
def test_a_night_of_people_and_bots(sqlite_url: str, preset: str, bot: str) -> None:
    rng = random.Random(preset)
    with TestClient(create_app(sqlite_url, settings=Settings(0, 0))) as client:
        created = client.post(
            "/api/tables",
            json={
                "preset": preset,
                "options": {"max-deals": "3"},
                "bots": 3,
                "bot": bot,
                "auto_approve": True,
                "buy_in": 40,
            },
        ).json()
        table_id, secret = created["table_id"], created["host_secret"]
        decisions = 0
        with client.websocket_connect(f"/ws/{table_id}") as jo:
            jo.send_text(json.dumps({"type": "join", "nickname": "Jo"}))
            jo.send_text(json.dumps({"type": "start", "secret": secret}))
            status, client_seq = "lobby", 0
            while status != "over":
                frame: dict[str, Any] = jo.receive_json()
                status = frame.get("status", status)
                decision = frame.get("decision")
                if frame["type"] == "event" and decision is not None:
                    client_seq += 1
                    jo.send_text(
                        json.dumps(
                            {
                                "type": "act",
                                "seat": decision["seat"],
                                "action": rng.choice(decision["actions"]),
                                "client_seq": client_seq,
                            }
                        )
                    )
                    decisions += 1
        actor = client.app.state.tables.actors[table_id]  # type: ignore[attr-defined]
        assert client.portal is not None
        sessions = client.portal.call(actor.query, lambda: list(actor.state.sessions))
        for session in sessions:
            session.table.check_invariant()
            assert replay_record(json.loads(json.dumps(session.record()))).events == session.events
        ledger = client.get(
            f"/api/tables/{table_id}/ledger", headers={"authorization": f"Bearer {secret}"}
        ).json()
        table = sessions[-1].table
        left = sum(table.places.values())  # only a Bourre pot its end-pot rule keeps
        assert sum(row["net"] for row in ledger["players"]) == -left
        assert sum(row["buy_out"] for row in ledger["players"]) + left == 160
        rows = list(
            csv.DictReader(
                io.StringIO(
                    client.get(
                        f"/api/tables/{table_id}/ledger?format=csv",
                        headers={"authorization": f"Bearer {secret}"},
                    ).text
                )
            )
        )
        assert [row["player_nickname"] for row in rows][-1] == "Jo"
        assert sum(int(row["net"]) for row in rows) == -left
    assert decisions > 0
