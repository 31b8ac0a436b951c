"""A table's memory is bounded: a table in play keeps its session in play, not the night.

The finished sessions are read from the table's record when a route asks for them (the
history, the deal list and a deal's replay, the review, the full log): each answers from
the whole night replayed from the database, as it did when every session was kept. What
the table holds (sessions, lineups, log entries, anything reachable from its actor) does
not grow with the sessions it finished; a client that resumes from a command of an
earlier session is sent a snapshot, as before.
"""

from __future__ import annotations

import asyncio
import csv
import gc
import io
import json
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import Any

import pytest
from server_helpers import Recorder, whole_night
from starlette.testclient import TestClient

from guts.games.base import Session
from guts.server import past
from guts.server import state as state_module
from guts.server.actor import Settings, TableActor
from guts.server.after import finished_deals
from guts.server.app import create_app
from guts.server.full_log import log_lines
from guts.server.protocol import AddBot, Resume, Start
from guts.server.records import history_lines
from guts.server.state import TableState
from guts.server.storage import Storage, StoredTable
from guts.server.tables import Tables

FAST = Settings(bot_delay=0, deal_delay=0)
SEQ_HOLDERS = (dict, list, tuple, set, frozenset, deque)


def reachable_sessions(actor: TableActor) -> list[Session]:
    """Every engine session reachable from the table's actor, through the server's and
    the engine's own objects and plain containers (not the shared storage, the event loop
    or modules)."""
    found: dict[int, Session] = {}
    seen: set[int] = {id(actor.storage)}
    todo: list[Any] = [actor]
    while todo:
        item = todo.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, Session):
            found[id(item)] = item
        kind = type(item)
        if kind in SEQ_HOLDERS or kind.__module__.startswith("guts."):
            todo.extend(gc.get_referents(item))
    return list(found.values())


async def play_until(actor: TableActor, done: Callable[[TableState], bool]) -> None:
    """Let the bots play until ``done(state)`` (read between two commands)."""
    for _ in range(100_000):
        if await actor.query(lambda: done(actor.state)):
            return
        assert actor.status != "over", "the night ended first"
        await asyncio.sleep(0)
    raise AssertionError("the bots never got there")


def held(actor: TableActor) -> tuple[int, int, int, set[int]]:
    """Sessions and lineups the table's state keeps, its log's sessions, and the
    sessions reachable from the actor (their ids): read between two commands."""
    state = actor.state
    return (len(state.sessions), len(state.night.lineups), len({e.session for e in state.log}),
            {id(session) for session in reachable_sessions(actor)})  # fmt: skip


async def table_of_bots(storage: Storage, bots: int) -> tuple[Tables, TableActor, str]:
    """A two-card Guts table on credit with ``bots`` random bots seated (not started)."""
    tables = Tables(storage, FAST)
    actor, secret = await tables.create("two-card-guts", {"credit": "yes"}, 50,
                                        auto_approve=True)  # fmt: skip
    for _ in range(bots):
        await actor.call(AddBot(type="add_bot", secret=secret, bot="random"))  # type: ignore[arg-type]
    return tables, actor, secret


def test_what_a_table_holds_does_not_grow_with_the_sessions_it_finished(sqlite_url: str) -> None:
    async def run() -> None:
        storage = await Storage.open(sqlite_url)
        tables, actor, secret = await table_of_bots(storage, 4)
        watcher = Recorder()
        watcher.ready = True
        await actor.query(lambda: actor.clients.add(watcher))
        await actor.call(Start(type="start", secret=secret))
        counts = {}
        for finished in (2, 8):
            await play_until(actor, lambda state, n=finished: state.session_number >= n)
            sessions, lineups, logged, reachable = await actor.query(lambda: held(actor))
            current = await actor.query(lambda: id(actor.state.session))
            assert (sessions, lineups, logged) == (1, 1, 1)
            assert reachable == {current}  # nothing else holds a finished session
            counts[finished] = await actor.query(lambda: actor.state.session_number)
        assert counts[8] - counts[2] >= 6
        night = await whole_night(storage, actor.id)  # the record holds them all
        assert len(night.sessions) >= counts[8] + 1 >= 9
        # a client that saw a command of an earlier session is sent a snapshot
        old = Recorder()
        await actor.call(Resume(type="resume", last_seq=1), old)
        assert [frame["type"] for frame in old.frames] == ["snapshot"]
        await tables.close()
        await storage.close()

    asyncio.run(run())


def test_a_long_session_keeps_only_its_latest_commands(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(state_module, "LOG_KEPT", 3)

    async def run() -> None:
        storage = await Storage.open(sqlite_url)
        tables, actor, secret = await table_of_bots(storage, 3)
        await actor.call(Start(type="start", secret=secret))
        def kept(state: TableState) -> list[tuple[int, int]]:
            return [(entry.seq, entry.session) for entry in state.log]

        for _ in range(60):
            await play_until(actor, lambda state, at=actor.seq + 1: state.seq >= at)
            log = await actor.query(lambda: (kept(actor.state), actor.state.seq,
                                             actor.state.session_number))  # fmt: skip
            entries, seq, current = log
            assert 1 <= len(entries) <= 6  # at most twice LOG_KEPT
            assert [s for s, _ in entries] == list(range(seq - len(entries) + 1, seq + 1))
            assert {number for _, number in entries} == {current}
        night = await whole_night(storage, actor.id)  # the record holds every command
        by_session = [entry.session for entry in night.log]
        assert max(by_session.count(n) for n in set(by_session)) > 6  # a long session
        oldest = await actor.query(lambda: actor.state.log[0].seq)
        snapshot = Recorder()
        await actor.call(Resume(type="resume", last_seq=oldest - 2), snapshot)
        assert [frame["type"] for frame in snapshot.frames] == ["snapshot"]
        await tables.close()
        await storage.close()

    asyncio.run(run())


def test_the_after_game_routes_read_every_session_from_the_record_off_the_loop(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[int] = []
    replay = past.replayed

    def spied(stored: StoredTable) -> past.Replayed:
        threads.append(threading.get_ident())
        return replay(stored)

    monkeypatch.setattr(past, "replayed", spied)
    monkeypatch.setattr(past, "_nights", OrderedDict())  # nothing kept from other tests
    with TestClient(create_app(sqlite_url, settings=FAST)) as client:
        created = client.post("/api/tables", json={
            "preset": "two-card-guts", "bots": 4, "bot": "random", "start": True,
            "options": {"credit": "yes"},
        }).json()  # fmt: skip
        table_id, secret = created["table_id"], created["host_secret"]
        auth = {"authorization": f"Bearer {secret}"}
        tables = client.app.state.tables  # type: ignore[attr-defined]
        actor = tables.actors[table_id]
        assert client.portal is not None
        deadline = time.monotonic() + 120
        while client.portal.call(actor.query, lambda: actor.state.session_number) < 3:
            assert time.monotonic() < deadline, "the bots never played four sessions"
            time.sleep(0.05)
        with client.websocket_connect(f"/ws/{table_id}") as host:
            host.send_text(json.dumps({"type": "end", "secret": secret}))
            while client.get(f"/api/tables/{table_id}").json()["status"] != "over":
                assert time.monotonic() < deadline, "the night never ended"
                time.sleep(0.05)
        night = client.portal.call(whole_night, tables.storage, table_id)
        played = len(night.sessions)
        assert played >= 3 and len(actor.state.sessions) == 1
        assert actor.state.session_number == played - 1
        upto = [len(session.events) for session in night.sessions]

        history = client.get(f"/api/tables/{table_id}/history", headers=auth)
        lines = history.text.splitlines()
        heads = [json.loads(line) for line in lines if '"format"' in line]
        assert [head["session"] for head in heads] == list(range(1, played + 1))
        assert lines == list(history_lines(night, None, upto))

        deals = client.get(f"/api/tables/{table_id}/deals", headers=auth).json()["deals"]
        assert deals == finished_deals(night, upto, True)
        assert {deal["session"] for deal in deals} == set(range(1, played + 1))
        first = client.get(f"/api/tables/{table_id}/deals/1/1", headers=auth)
        assert first.status_code == 200 and first.json()["steps"]

        log = client.get(f"/api/tables/{table_id}/ledger?format=log", headers=auth)
        entries = [row[0] for row in csv.reader(io.StringIO(log.text))][1:]
        told = [text for text, _ in log_lines(night)]
        assert sorted(entries) == sorted(told) and len(told) > played
        loop_thread = client.portal.call(threading.get_ident)
        # the night is over: the four routes read one replay of it, made off the loop
        assert len(threads) == 1 and loop_thread not in threads

        async def together() -> list[past.Replayed]:  # a seat asking many times at once
            return list(await asyncio.gather(
                *(past.night_of(tables.storage, table_id, 5) for _ in range(6))))  # fmt: skip

        first_five = client.portal.call(together)
        assert len(threads) == 2 and all(night is first_five[0] for night in first_five)
        assert first_five[0].state.seq == 5  # the commands committed when it was asked
        for seq in range(6, 6 + past.KEPT):  # others asked for push it out of those kept
            client.portal.call(past.night_of, tables.storage, table_id, seq)
        client.portal.call(past.night_of, tables.storage, table_id, 5)
        assert len(threads) == 3 + past.KEPT
