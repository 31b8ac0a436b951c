"""The night's full log as PokerNow's log CSV (``entry, at, order``, newest first) beside
the ledger's: ``GET /api/tables/ID/ledger?format=log`` and ``guts ledger --log-csv``.
Its lines are the public narration of the night (what a spectator is told, nobody's
hidden cards), each at the moment its command was committed."""

from __future__ import annotations

import csv
import io
import json
import time
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import httpx
import pytest
from cli_helpers import run
from starlette.testclient import TestClient

from guts.games.base import Event
from guts.narrate import Narrator
from guts.server.actor import Settings
from guts.server.app import create_app


@pytest.fixture
def client(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """The app in process; ``httpx.get`` of http://testserver/... answered by it."""
    with TestClient(create_app(sqlite_url, settings=Settings(0, 0))) as app:

        def get(url: str, **kwargs: Any) -> httpx.Response:
            kwargs.pop("timeout", None)
            return app.get(url.removeprefix("http://testserver"), **kwargs)

        monkeypatch.setattr(httpx, "get", get)
        yield app


def public_narration(client: TestClient, table_id: str, auth: dict[str, str]) -> list[str]:
    """What a spectator is told of the night, oldest first (from the host's download:
    the public one, nobody's hidden cards)."""
    lines: list[str] = []
    narrator = Narrator([])
    for text in client.get(f"/api/tables/{table_id}/history", headers=auth).text.splitlines():
        item = json.loads(text)
        if "format" in item:  # a session's head: its players
            narrator = Narrator([name for name, _ in item["players"]])  # [name, stack]
            continue
        told = narrator.tell(Event.from_dict(item))
        if told:
            lines.append(told)
    return lines


def test_the_full_log_is_the_public_narration_newest_first(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    created = client.post("/api/tables", json={
        "preset": "two-card-guts", "bots": 3, "bot": "random", "start": True,
        "options": {"max-deals": "3"},
    }).json()  # fmt: skip
    table_id, auth = created["table_id"], {"authorization": f"Bearer {created['host_secret']}"}
    deadline = time.monotonic() + 60
    while client.get(f"/api/tables/{table_id}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the night never ended"
        time.sleep(0.05)
    answer = client.get(f"/api/tables/{table_id}/ledger?format=log", headers=auth)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/csv")
    assert f'filename="guts-{table_id}-log.csv"' in answer.headers["content-disposition"]
    rows = list(csv.reader(io.StringIO(answer.text)))
    assert rows[0] == ["entry", "at", "order"]
    body = rows[1:]
    told = public_narration(client, table_id, auth)
    assert len(told) > 5 and any("Deal 1" in line for line in told)
    assert [entry for entry, _, _ in reversed(body)] == told
    orders = [int(order) for _, _, order in body]
    assert orders == sorted(orders, reverse=True) and len(set(orders)) == len(orders)
    moments = [datetime.fromisoformat(at.replace("Z", "+00:00")) for _, at, _ in body]
    assert all(at.endswith("Z") for _, at, _ in body)
    assert moments == sorted(moments, reverse=True)  # newest first, as PokerNow's
    host_url = f"http://testserver/t/{table_id}#host={created['host_secret']}"
    code, out, err = run(capsys, "ledger", host_url, "--log-csv")
    assert code == 0, err
    assert out == answer.text
    refused = client.get(f"/api/tables/{table_id}/ledger?format=log")
    assert refused.status_code == 403  # the host's, as the ledger is
