"""Dealer's choice at the server: a night of many games at one table, through the
protocol, people and bots mixed.

The choice of each game is a pending decision like any other: sent in the chooser's
frames, answered with ``act``, refused (changing nothing) when the game is not allowed,
timed by the table's clock (a time-out gets the night's own choice: the host's default,
else the game before), made by the bots at the table. Stacks carry from game to game
exactly, the night replays from the stored commands, and the ledger spans every game.
"""

from __future__ import annotations

import asyncio
import csv
import io
import itertools
import json
import random
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from server_helpers import Clock, Recorder, settle, views, whole_night

from guts.catalog import find_game
from guts.errors import GutsError
from guts.night import Night
from guts.server.actor import Settings, TableActor
from guts.server.app import create_app
from guts.server.ledger import ledger_rows, to_csv
from guts.server.protocol import Act, AddBot, Join, ProtocolError, Start
from guts.server.records import history_lines
from guts.server.storage import Storage
from guts.server.tables import Tables

FAMILIES = "two-card-guts,three-five-seven,jacks-or-better,bourre"
NO_CLOCK = {"clock": 0}

Body = Callable[[Tables, Storage, Clock], Awaitable[None]]


def on_tables(sqlite_url: str, body: Body) -> None:
    """Run ``body`` with a server's tables on a fresh database and a hand-moved clock."""

    async def run() -> None:
        storage = await Storage.open(sqlite_url)
        clock = Clock()
        tables = Tables(storage, Settings(bot_delay=0, deal_delay=0, clock=clock))
        try:
            await body(tables, storage, clock)
        finally:
            await tables.close()
            await storage.close()

    asyncio.run(run())


async def night_table(
    tables: Tables,
    people: list[str],
    bots: int,
    options: dict[str, str],
    *,
    clocks: dict[str, int] | None = None,
    bot: str = "sensible",
    buy_in: int = 60,
) -> tuple[TableActor, str, list[Recorder]]:
    """A dealers-choice table: the ``people`` first (seat 0 deals and chooses first),
    then ``bots`` bots; started."""
    actor, secret = await tables.create(
        "dealers-choice", options, buy_in, auto_approve=True, clocks=clocks or NO_CLOCK
    )
    clients = []
    for name in people:
        client = Recorder()
        actor.attach(client)
        await actor.call(Join(type="join", nickname=name), client)
        clients.append(client)
    for _ in range(bots):
        await actor.call(AddBot(type="add_bot", secret=secret, bot=bot))  # type: ignore[arg-type]
    await actor.call(Start(type="start", secret=secret))
    return actor, secret, clients


async def rebuilt(actor: TableActor, storage: Storage, tables: Tables) -> TableActor:
    """The table rebuilt from its stored commands, as a restarted server rebuilds it."""
    stored = await storage.load(actor.id)
    assert stored is not None
    copy = TableActor(stored.table, storage, tables.settings)
    copy.load(stored)
    return copy


async def check_replays(actor: TableActor, storage: Storage, tables: Tables) -> None:
    """The stored commands rebuild the table: its checks hold, every view is the same."""
    copy = await rebuilt(actor, storage, tables)
    copy.check()
    assert views(copy) == views(actor)


def night_of(actor: TableActor) -> Night:
    session = actor.session
    assert isinstance(session, Night)
    return session


def decision_of(client: Recorder) -> dict[str, Any] | None:
    """The decision the client was last sent (its last frame with one)."""
    for frame in reversed(client.frames):
        if frame["type"] == "event":
            decision: dict[str, Any] | None = frame["decision"]
            return decision
        if frame["type"] == "snapshot" and frame["game"] is not None:
            pending = frame["game"].get("pending") or []
            return pending[0] if pending else None
    return None


async def act(actor: TableActor, client: Recorder, action: str) -> None:
    decision = decision_of(client)
    assert decision is not None
    seq = actor.state.client_seqs.get(client.seat_id or 0, (0, 0))[0] + 1
    await actor.call(Act(type="act", seat=decision["seat"], action=action, client_seq=seq), client)


def fresh_game(night_view: dict[str, Any], actions: list[str]) -> str:
    """A person's choice: the allowed game played least so far (the first of them)."""
    played = [entry["game"] for entry in night_view["played"]]
    return min(actions, key=played.count)


async def play_night(actor: TableActor, people: list[Recorder], rng: random.Random) -> int:
    """Answer every person's decision from what it was sent (a choice: a game the night
    has played least; else a random legal action) until the night is over; the number
    of choices the people made."""
    choices = 0
    for _ in range(20_000):
        await settle(actor)
        if actor.status == "over":
            return choices
        for client in people:
            decision = decision_of(client)
            if decision is None:
                continue
            last = next(f for f in reversed(client.frames) if f["type"] in ("event", "snapshot"))
            view = last["game"]
            if view["game"] == "night":  # the night's choice
                action = fresh_game(view["night"], decision["actions"])
                choices += 1
            else:
                action = rng.choice(decision["actions"])
            try:
                await act(actor, client, action)
            except ProtocolError as error:  # a decision that passed while another acted
                assert error.code in ("illegal", "wrong-seat", "not-now"), error
            break
    raise AssertionError("the night did not end")


def night_events(night: Night) -> list[dict[str, Any]]:
    return [e.to_dict() for e in night.events if e.kind.startswith("night-")]


def check_carried(night: Night, buy_ins: list[int]) -> None:
    """Each game starts with the stacks the game before left (the first: the buy-ins)."""
    stacks = buy_ins
    for event in night_events(night):
        if event["kind"] == "night-game-started":
            assert [chips for _, chips in event["players"]] == stacks
        elif event["kind"] == "night-game-ended":
            stacks = list(event["stacks"])
            assert sum(stacks) == sum(buy_ins)  # table stakes: no chip made or lost


def test_a_night_of_people_and_bots_over_every_family(sqlite_url: str) -> None:
    async def body(tables: Tables, storage: Storage, clock: Clock) -> None:
        options = {"games": FAMILIES, "cap": "3", "most-games": "6"}
        actor, _, people = await night_table(tables, ["Jo", "Ann"], 2, options)
        assert actor.summary()["family"] == "night"
        choices = await play_night(actor, people, random.Random(5))
        night = night_of(actor)
        assert night.is_over and len(night.results) == 6
        families = {find_game(result.game).family for result in night.results}
        assert len(families) >= 3
        chosen = [e for e in night_events(night) if e["kind"] == "night-game-chosen"]
        started = [e for e in night_events(night) if e["kind"] == "night-game-started"]
        assert len(chosen) == 6 and chosen[0]["seat"] == 0
        # the people chose the games they dealt first, the bots the others (who deals
        # which game depends on how long the games before it lasted: the shuffles decide)
        assert choices == sum(1 for e in chosen if e["seat"] in (0, 1))
        # chooser=dealer: who chooses a game deals its first deal
        assert [e["seat"] for e in chosen] == [e["button"] for e in started]
        check_carried(night, [60] * 4)
        # the chooser's frames carried the choice, with the allowed games
        asked = [f["decision"] for f in people[0].of("event")
                 if f["decision"] and f["game"]["game"] == "night"]  # fmt: skip
        assert asked and all(d["actions"] == FAMILIES.split(",") for d in asked)
        # the night replays, from its engine record and from the stored commands
        again = Night.replay(json.loads(json.dumps(night.record())))
        assert again.events == night.events
        await check_replays(actor, storage, tables)
        # the ledger spans the night: the nets add to zero, every chip cashed out
        rows = ledger_rows(actor.state, {}, None)
        assert sum(row["net"] for row in rows) == 0
        assert sum(row["buy_out"] for row in rows) == 240
        table = list(csv.DictReader(io.StringIO(to_csv(rows))))
        assert sum(int(row["net"]) for row in table) == 0
        by_name = {row["player_nickname"]: int(row["net"]) for row in table}
        assert [by_name[name] for name in night.ledger.names] == list(night.ledger.net)
        # the history download is the night's record, as each seat saw it
        lines = [json.loads(line) for line in history_lines(actor.state, 0)]
        assert lines[0]["preset"] == "dealers-choice" and lines[0]["game"] == "night"
        assert lines[0]["redacted"] and lines[0]["viewer"] == 0

    on_tables(sqlite_url, body)


def test_the_next_seat_chooses_after_the_last_chooser(sqlite_url: str) -> None:
    async def body(tables: Tables, storage: Storage, clock: Clock) -> None:
        options = {"games": "two-card-guts,five-card-draw", "chooser": "next", "cap": "2",
                   "most-games": "5"}  # fmt: skip
        actor, _, people = await night_table(tables, ["Jo"], 2, options, bot="random")
        await play_night(actor, people, random.Random(1))
        chosen = [e["seat"] for e in night_events(night_of(actor))
                  if e["kind"] == "night-game-chosen"]  # fmt: skip
        assert chosen == [0, 1, 2, 0, 1]

    on_tables(sqlite_url, body)


def test_a_game_not_allowed_is_refused_and_changes_nothing(sqlite_url: str) -> None:
    async def body(tables: Tables, storage: Storage, clock: Clock) -> None:
        options = {"games": "two-card-guts,bourre ante=2", "chooser-options": "yes"}
        actor, _, (jo,) = await night_table(tables, ["Jo"], 2, options)
        await settle(actor)
        decision = decision_of(jo)
        assert decision is not None and decision["actions"] == ["two-card-guts", "bourre"]
        seq, before = actor.seq, views(actor)
        for bad, why in [
            ("jacks-or-better", "choose one of"),  # a game, not an allowed one
            ("napalm", ""),  # no game at all
            ("bourre ante=3", "house option"),  # the host fixed it
            ("two-card-guts ante=0", ""),  # a bad option
        ]:
            with pytest.raises(ProtocolError, match=r"^illegal:") as refused:
                await act(actor, jo, bad)
            assert why in str(refused.value)
            assert actor.seq == seq and views(actor) == before
        await act(actor, jo, "Two-Card-Guts ante=2")  # the chooser's own option
        chosen = night_events(night_of(actor))[0]
        assert (chosen["game"], chosen["options"], chosen["how"]) == (
            "two-card-guts", [["ante", "2"]], "chosen",
        )  # fmt: skip
        assert actor.seq == seq + 1

    on_tables(sqlite_url, body)


def test_a_chooser_out_of_time_gets_the_default_then_the_game_before(sqlite_url: str) -> None:
    async def body(tables: Tables, storage: Storage, clock: Clock) -> None:
        clocks = {"clock": 20, "time_bank": 5, "away_after": 0}
        options = {"games": "two-card-guts,five-card-draw,three-five-seven", "cap": "1",
                   "most-games": "4"}  # fmt: skip
        actor, _, (jo,) = await night_table(tables, ["Jo"], 1, options, clocks=clocks)
        for _ in range(200):
            await settle(actor)
            if actor.status == "over":
                break
            night = night_of(actor)
            if night.chooser == 0:
                assert [c["seat"] for c in actor.clock_list()] == [0]  # the choice is timed
                clock.advance(26)
                actor.tick()
            elif decision_of(jo) is not None:
                decision = decision_of(jo)
                assert decision is not None
                await act(actor, jo, decision["actions"][-1])
        night = night_of(actor)
        chosen = [e for e in night_events(night) if e["kind"] == "night-game-chosen"]
        assert len(chosen) == 4
        assert [e["how"] for e in chosen] == ["timeout" if e["seat"] == 0 else "chosen"
                                              for e in chosen]  # fmt: skip
        assert {e["seat"] for e in chosen} == {0, 1}
        assert chosen[0]["game"] == "two-card-guts"  # no default: the first allowed game
        for before, timed_out in itertools.pairwise(chosen):
            if timed_out["how"] == "timeout":  # then the game before
                assert timed_out["game"] == before["game"]
        assert actor.state.seats[0].bank_ms == 0  # the first time-out spent the bank
        copy = await rebuilt(actor, storage, tables)
        assert night_events(night_of(copy)) == night_events(night)

    on_tables(sqlite_url, body)


def test_the_host_default_is_given_and_an_away_chooser_gets_it_at_once(sqlite_url: str) -> None:
    async def body(tables: Tables, storage: Storage, clock: Clock) -> None:
        clocks = {"clock": 20, "time_bank": 0, "away_after": 1}
        options = {"games": "two-card-guts,bourre", "default": "bourre", "cap": "1",
                   "most-games": "3"}  # fmt: skip
        actor, _, _ = await night_table(tables, ["Jo"], 2, options, clocks=clocks)
        await settle(actor)
        clock.advance(21)
        actor.tick()
        await settle(actor)
        first = (await whole_night(storage, actor.id)).sessions[0]
        assert isinstance(first, Night)
        chosen = night_events(first)[0]
        assert (chosen["game"], chosen["how"]) == ("bourre", "timeout")
        assert actor.state.seats[0].away  # one time-out in a row sets Jo away
        # away, Jo is dealt out of the next seating: the bots play on alone
        for _ in range(100):
            await settle(actor)
            if actor.status == "over":
                break
            clock.advance(21)
            actor.tick()
        assert actor.status == "over"
        rows = ledger_rows(actor.state, {}, None)
        assert sum(row["net"] for row in rows) == 0

    on_tables(sqlite_url, body)


def test_a_seat_that_joins_between_games_is_dealt_in_with_every_chip_kept(
    sqlite_url: str,
) -> None:
    async def body(tables: Tables, storage: Storage, clock: Clock) -> None:
        # the seat after the last chooser chooses, so Jo chooses games 1 and 5: between
        # games the night waits for Jo before game 5, whenever the bots' choices come
        # (with the dealer choosing, who chooses depends on how long each game lasts)
        options = {"games": FAMILIES, "chooser": "next", "cap": "2", "most-games": "8"}
        actor, _, (jo,) = await night_table(tables, ["Jo"], 3, options)
        await settle(actor)
        await act(actor, jo, "jacks-or-better")
        while night_of(actor).session is not None or actor.queued:
            await settle(actor)
            if decision_of(jo) is not None and night_of(actor).session is not None:
                decision = decision_of(jo)
                assert decision is not None
                await act(actor, jo, decision["actions"][0])
        first = night_of(actor)
        assert not first.is_over and first.session is None  # between games
        stacks = list(first.ledger.stacks)
        ann = Recorder()
        actor.attach(ann)
        await actor.call(Join(type="join", nickname="Liv", buy_in=30), ann)
        second = night_of(actor)
        assert second is not first and first.is_over  # a fresh night for the new seating
        assert [chips for _, chips in second.players] == [*stacks, 30]
        assert actor.state.session_number == 1 and len(actor.state.sessions) == 1
        await play_night(actor, [jo, ann], random.Random(3))
        sessions = (await whole_night(storage, actor.id)).sessions
        nights = [night for night in sessions if isinstance(night, Night)]
        assert sum(len(night.results) for night in nights) == 8  # most-games carried
        rows = ledger_rows(actor.state, {}, None)
        assert sum(row["net"] for row in rows) == 0
        assert sum(row["buy_in"] for row in rows) == 60 * 4 + 30
        await check_replays(actor, storage, tables)

    on_tables(sqlite_url, body)


def test_a_night_table_over_http_and_its_downloads(sqlite_url: str) -> None:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    with TestClient(create_app(sqlite_url, settings=Settings(0, 0))) as client:
        wrong = {"preset": "dealers-choice", "options": {"games": "two-card-guts,napalm!"}}
        bad = client.post("/api/tables", json=wrong)
        assert bad.status_code == 400 and bad.json()["code"] == "invalid"
        created = client.post(
            "/api/tables",
            json={
                "preset": "dealers-choice",
                "options": {"games": FAMILIES, "cap": "2", "most-games": "4"},
                "bots": 4,
                "bot": "random",
                "start": True,
            },
        ).json()
        table_id, secret = created["table_id"], created["host_secret"]
        summary: dict[str, Any] = {}
        for _ in range(2000):
            summary = client.get(f"/api/tables/{table_id}").json()
            if summary["status"] == "over":
                break
        assert summary["status"] == "over" and summary["family"] == "night"
        auth = {"authorization": f"Bearer {secret}"}
        ledger = client.get(f"/api/tables/{table_id}/ledger", headers=auth).json()
        assert sum(row["net"] for row in ledger["players"]) == 0
        history = client.get(f"/api/tables/{table_id}/history", headers=auth).text.splitlines()
        header = json.loads(history[0])
        assert header["game"] == "night" and header["viewer"] is None
        kinds = [json.loads(line)["kind"] for line in history[1:]]
        assert kinds.count("night-game-chosen") == 4 and kinds[-1] == "night-ended"
        phh = client.get(f"/api/tables/{table_id}/history?format=phh", headers=auth)
        assert phh.status_code == 400


def test_bots_of_a_kind_some_game_of_the_night_lacks_are_refused(sqlite_url: str) -> None:
    async def body(tables: Tables, storage: Storage, clock: Clock) -> None:
        actor, secret = await tables.create(
            "dealers-choice", {"games": "two-card-guts,bourre"}, 50, auto_approve=True
        )
        with pytest.raises((ProtocolError, GutsError)):
            await actor.call(AddBot(type="add_bot", secret=secret, bot="equilibrium"))
        assert not actor.state.seats

    on_tables(sqlite_url, body)


def test_a_rotation_goes_on_in_turn_across_a_change_of_seats(sqlite_url: str) -> None:
    async def body(tables: Tables, storage: Storage, clock: Clock) -> None:
        options = {"games": FAMILIES, "chooser": "rotation", "cap": "1", "most-games": "6"}
        actor, _, _ = await night_table(tables, [], 4, options)
        liv = Recorder()
        actor.attach(liv)
        await actor.call(Join(type="join", nickname="Liv", buy_in=30), liv)  # during game 1
        await play_night(actor, [liv], random.Random(4))
        sessions = (await whole_night(storage, actor.id)).sessions
        nights = [night for night in sessions if isinstance(night, Night)]
        assert len(nights) >= 2  # Liv's seat started a fresh night between games
        played = [result.game for night in nights for result in night.results]
        games = FAMILIES.split(",")
        assert played == [games[n % len(games)] for n in range(6)]  # the rotation went on
        await check_replays(actor, storage, tables)

    on_tables(sqlite_url, body)
