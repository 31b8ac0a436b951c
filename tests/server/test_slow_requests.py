"""Nothing slow runs on the event loop, and no request body is read past its limit.

The audit: ``POST /api/narrate`` (no auth, no body limit) answered a 41 MB body with
200 and 200k nested ``[`` with a 500; ``GET /api/tables/ID/history`` needed no token and
spent 0.22 s of event-loop CPU on a 1.5 MB record; four clients calling them in a loop
pushed every other table's action latency to seconds.
"""

from __future__ import annotations

import json
import threading
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from guts.server import app as app_module
from guts.server import pages
from guts.server.actor import Settings
from guts.server.app import create_app
from guts.server.limits import MAX_BODY_BYTES


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url, settings=Settings(0, 0))) as test_client:
        yield test_client


def narrate(client: TestClient, body: bytes | Iterator[bytes]) -> Any:
    return client.post("/api/narrate", content=body,
                       headers={"content-type": "application/json"})  # fmt: skip


def test_a_narrate_body_over_the_limit_is_refused_unread(client: TestClient) -> None:
    big = b'{"names": [], "events": [' + b"1," * MAX_BODY_BYTES + b"1]}"
    answer = narrate(client, big)
    assert answer.status_code == 413 and answer.json()["code"] == "too-large"

    def chunks() -> Iterator[bytes]:  # no content-length: counted as it comes
        yield b'{"names": [], "events": ['
        for _ in range(40):
            yield b"1," * 65536
        yield b"1]}"

    answer = narrate(client, chunks())
    assert answer.status_code == 413


@pytest.mark.parametrize(
    "body",
    [
        b"[" * 200_000,
        b"{" * 5000,
        b'{"names": ',
        b"\xff\xfe",
        b"[]",
        b'{"names": 1}',
        b'{"names": [], "events": [{"kind": 5}]}',
    ],
)
def test_deep_or_bad_json_is_a_400(client: TestClient, body: bytes) -> None:
    answer = narrate(client, body)
    assert answer.status_code == 400 and answer.json()["code"] == "invalid"


def test_narration_runs_off_the_event_loop(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[int] = []
    narrated = pages._narrated

    def spied(text: bytes) -> Any:
        threads.append(threading.get_ident())
        return narrated(text)

    monkeypatch.setattr(pages, "_narrated", spied)
    event = {"kind": "deal-started", "audience": None, "deal": 1, "dealer": 0, "seats": [1, 0]}
    answer = narrate(client, b"{\"names\": [\"Ann\", \"Bob\"], \"events\": [%s]}" % (
        json.dumps(event).encode()))  # fmt: skip
    assert answer.status_code == 200 and len(answer.json()["lines"]) == 1
    loop_thread = client.portal.call(threading.get_ident)  # type: ignore[union-attr]
    assert threads and threads[0] != loop_thread


def _played_table(client: TestClient) -> tuple[str, str]:
    created = client.post("/api/tables", json={"preset": "two-card-guts", "bots": 3,
                                               "bot": "random", "start": True}).json()  # fmt: skip
    for _ in range(200):
        if client.get(f"/api/tables/{created['table_id']}").json()["seq"] > 20:
            break
    return created["table_id"], created["host_secret"]


def test_a_history_needs_a_seat_token_or_the_host_secret(client: TestClient) -> None:
    table_id, secret = _played_table(client)
    url = f"/api/tables/{table_id}/history"
    assert client.get(url).status_code == 403
    assert client.get(url, headers={"authorization": "Bearer guess"}).status_code == 403
    assert client.get(url, headers={"authorization": "Basic " + secret}).status_code == 403
    answer = client.get(url, headers={"authorization": f"Bearer {secret}"})
    assert answer.status_code == 200 and answer.text.count("\n") > 3


def test_a_history_is_written_off_the_event_loop(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id, secret = _played_table(client)
    threads: list[int] = []
    lines = app_module.history_lines

    def spied(*args: Any) -> Any:
        threads.append(threading.get_ident())
        return lines(*args)

    monkeypatch.setattr(app_module, "history_lines", spied)
    answer = client.get(f"/api/tables/{table_id}/history",
                        headers={"authorization": f"Bearer {secret}"})  # fmt: skip
    assert answer.status_code == 200
    loop_thread = client.portal.call(threading.get_ident)  # type: ignore[union-attr]
    assert threads and threads[0] != loop_thread
