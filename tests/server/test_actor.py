"""The table actor: commands through the inbox, persist then tell, refusals that change
nothing, retries applied once, and tables rebuilt from their stored commands exactly."""

from __future__ import annotations

import asyncio
import json
from itertools import pairwise
from typing import Any

import pytest
from server_helpers import NullStorage, Recorder, bot_table, settle, sit, views, whole_night

from guts.catalog import replay_record
from guts.errors import GutsError
from guts.server.actor import Settings, TableActor
from guts.server.protocol import (
    Act,
    AddBot,
    Approve,
    End,
    Join,
    ProtocolError,
    Refuse,
    Resume,
    Start,
)
from guts.server.storage import Storage
from guts.server.tables import Tables

FAST = Settings(bot_delay=0, deal_delay=0)
ONE_OF_EACH = [
    "two-card-guts",
    "simultaneous-guts",
    "three-five-seven",
    "toh",
    "jacks-or-better",
    "wild-widow",
    "bourre",
]


def test_every_family_replays_from_its_stored_commands(sqlite_url: str) -> None:
    async def run() -> None:
        storage = await Storage.open(sqlite_url)
        tables = Tables(storage, FAST)
        played = {}
        for preset in ONE_OF_EACH:
            actor, _ = await bot_table(tables, preset, options={"max-deals": "3"})
            await settle(actor)
            assert actor.status == "over"
            played[actor.id] = (actor.seq, views(actor), actor.session)
        await tables.close()
        again = Tables(storage, FAST)  # a new server on the same database
        for table_id, (seq, seen, session) in played.items():
            actor = await again.get(table_id)
            assert actor is not None and actor.seq == seq
            assert views(actor) == seen
            assert actor.session is not None
            actor.session.table.check_invariant()
            fresh = replay_record(json.loads(json.dumps(session.record())))
            assert fresh.events == actor.session.events
        await again.close()
        await storage.close()

    asyncio.run(run())


class WatchedStorage(Storage):
    """A storage that notes what the clients had been told when each commit began, and
    fails the commits it is told to."""

    def __init__(self, inner: Storage, clients: list[Recorder]) -> None:
        super().__init__(inner.database)
        self.clients = clients
        self.told_at_commit: list[int] = []
        self.fail_next = False

    async def append(self, table_id: str, action: Any, **changes: Any) -> None:
        self.told_at_commit.append(sum(len(c.frames) for c in self.clients))
        if self.fail_next:
            self.fail_next = False
            raise OSError("the disk is full")
        await super().append(table_id, action, **changes)


def test_nothing_is_told_before_it_is_committed_and_a_failed_commit_changes_nothing(
    sqlite_url: str,
) -> None:
    async def run() -> None:
        storage = await Storage.open(sqlite_url)
        watcher, player = Recorder(), Recorder()
        watched = WatchedStorage(storage, [watcher, player])
        tables = Tables(watched, Settings(bot_delay=0, deal_delay=3600))
        actor, secret = await tables.create("two-card-guts", {}, 50, auto_approve=True)
        actor.attach(watcher)
        await actor.call(Resume(type="resume"), watcher)
        await actor.call(AddBot(type="add_bot", secret=secret, bot="random"))  # the dealer
        await actor.call(Join(type="join", nickname="Jo"), player)  # first to act
        await actor.call(Start(type="start", secret=secret))
        await settle(actor)
        # every commit began before the frames of its command were sent
        counts = [*watched.told_at_commit, sum(len(c.frames) for c in (watcher, player))]
        assert all(a < b for a, b in pairwise(counts))
        session = actor.session
        assert session is not None
        (seat,) = (d.seat for d in session.pending())
        before = (actor.seq, views(actor), len(watcher.frames), len(player.frames))
        watched.fail_next = True
        with pytest.raises(ProtocolError, match="internal"):
            await actor.call(Act(type="act", seat=seat, action="in", client_seq=1), player)
        assert actor.session is not session  # rebuilt from the database ...
        assert (actor.seq, views(actor)) == before[:2]  # ... to the state before
        assert watcher.frames[before[2]]["type"] == "snapshot"  # and told so, afresh
        await actor.call(Act(type="act", seat=seat, action="in", client_seq=1), player)
        assert actor.seq == before[0] + 1
        await tables.close()
        await storage.close()

    asyncio.run(run())


async def _lobby(storage: Storage) -> tuple[Tables, TableActor, str, Recorder, Recorder]:
    tables = Tables(storage, Settings(bot_delay=0, deal_delay=3600))
    actor, secret = await tables.create("two-card-guts", {}, 50, auto_approve=False)
    ann, bob = Recorder(), Recorder()
    for client in (ann, bob):
        actor.attach(client)
    await actor.call(AddBot(type="add_bot", secret=secret, bot="random", nickname="Cy"))
    await actor.call(Join(type="join", nickname="Ann", buy_in=40), ann)
    await actor.call(Join(type="join", nickname="Bob"), bob)
    return tables, actor, secret, ann, bob


def refused(code: str) -> Any:
    return pytest.raises(ProtocolError, match=f"^{code}:")


def test_refusals_change_nothing(sqlite_url: str) -> None:
    async def run() -> None:
        storage = await Storage.open(sqlite_url)
        tables, actor, secret, ann, bob = await _lobby(storage)
        statuses = [s["status"] for s in ann.of("seats")[-1]["seats"]]
        assert statuses == ["approved", "requested", "requested"]

        async def refuse(message: Any, client: Recorder | None, code: str) -> None:
            seq, stored = actor.seq, await storage.load(actor.id)
            with refused(code):
                await actor.call(message, client)
            assert actor.seq == seq and await storage.load(actor.id) == stored

        act = Act(type="act", seat=0, action="in", client_seq=1)
        await refuse(Join(type="join", nickname="ann"), Recorder(), "taken")
        await refuse(Join(type="join", nickname="Eve", buy_in=51), Recorder(), "invalid")
        await refuse(Join(type="join", nickname="Eve"), ann, "not-now")  # has a seat
        await refuse(Start(type="start", secret="guess"), None, "not-host")
        await refuse(Start(type="start", secret=secret), None, "not-now")  # one player
        await refuse(Approve(type="approve", secret=secret, seat_id=7), None, "no-such-seat")
        await refuse(act.model_copy(update={"seat": 1}), ann, "not-now")
        await refuse(act, Recorder(), "not-seated")
        await refuse(Resume(type="resume", token="forged"), Recorder(), "no-such-seat")
        await actor.call(Approve(type="approve", secret=secret, seat_id=1))
        await actor.call(Refuse(type="refuse", secret=secret, seat_id=2))
        await refuse(Approve(type="approve", secret=secret, seat_id=2), None, "no-such-seat")
        await refuse(Join(type="join", nickname="Cy"), Recorder(), "taken")
        await actor.call(Start(type="start", secret=secret))
        await settle(actor)
        await refuse(Start(type="start", secret=secret), None, "not-now")  # started
        session = actor.session
        assert session is not None and session.table.names == ("Cy", "Ann")
        assert session.players[1] == ("Ann", 40)  # her buy-in
        assert [d.seat for d in session.pending()] == [1]  # Ann, left of the bot dealer
        await refuse(Act(type="act", seat=0, action="in", client_seq=1), ann, "wrong-seat")
        await refuse(Act(type="act", seat=1, action="fold", client_seq=1), ann, "illegal")
        await refuse(Act(type="act", seat=1, action="in", client_seq=1), bob, "not-seated")
        await actor.call(Act(type="act", seat=1, action="in", client_seq=1), ann)
        await settle(actor)
        await tables.close()
        await storage.close()

    asyncio.run(run())


def test_a_retried_action_is_applied_once(sqlite_url: str) -> None:
    async def run() -> None:
        storage = await Storage.open(sqlite_url)
        tables = Tables(storage, Settings(bot_delay=3600, deal_delay=3600))
        actor, secret = await tables.create("two-card-guts", {}, 50, auto_approve=True)
        ann, bob = Recorder(), Recorder()
        await actor.call(Join(type="join", nickname="Ann"), ann)
        await actor.call(Join(type="join", nickname="Bob"), bob)
        await actor.call(Start(type="start", secret=secret))
        assert actor.session is not None
        bob_acts = Act(type="act", seat=1, action="in", client_seq=5)
        await actor.call(bob_acts, bob)
        seq = actor.seq
        await actor.call(bob_acts, bob)  # the same message again: acknowledged, not applied
        await actor.call(bob_acts.model_copy(update={"client_seq": 4}), bob)
        assert actor.seq == seq
        assert not bob.of("event")  # not attached: no event frame acked it, so an ack did
        assert [(a["client_seq"], a["seq"], a["duplicate"]) for a in bob.of("ack")] == [
            (5, seq, False),
            (5, seq, True),
            (4, None, True),
        ]
        await tables.close()
        again = Tables(storage, Settings(bot_delay=3600, deal_delay=3600))
        rebuilt = await again.get(actor.id)  # the client numbers are part of the record
        assert rebuilt is not None
        token = next(f["token"] for f in bob.frames if f["type"] == "welcome")
        bob_again = Recorder()
        await rebuilt.call(Resume(type="resume", token=token), bob_again)
        with refused("illegal"):  # Ann (seat 0) is to act, so a new number is refused ...
            await rebuilt.call(bob_acts.model_copy(update={"client_seq": 6}), bob_again)
        await rebuilt.call(bob_acts, bob_again)  # ... but the old one is still known
        assert bob_again.of("ack")[-1] == {
            "type": "ack",
            "client_seq": 5,
            "seq": seq,
            "duplicate": True,
        }
        await again.close()
        await storage.close()

    asyncio.run(run())


def test_resume_sends_what_was_missed_or_a_snapshot(sqlite_url: str) -> None:
    async def run() -> None:
        storage = await Storage.open(sqlite_url)
        tables = Tables(storage, FAST)
        actor, secret = await bot_table(
            tables, "jacks-or-better", options={"max-deals": "2"}, start=False
        )
        late = Recorder()
        await actor.call(Resume(type="resume", last_seq=0), late)  # no game yet: a snapshot
        assert late.frames[-1]["type"] == "snapshot" and late.frames[-1]["game"] is None
        await actor.call(Start(type="start", secret=secret))
        await settle(actor)
        session = actor.session
        assert session is not None
        first_deal = next(e.seq for e in actor.state.log if e.kind == "deal")
        catching_up = Recorder()
        await actor.call(Resume(type="resume", last_seq=first_deal - 1), catching_up)
        (frame,) = catching_up.frames
        start = next(e.start for e in actor.state.log if e.seq == first_deal)
        assert frame["type"] == "event" and frame["seq"] == actor.seq
        assert frame["events"] == [
            e.to_dict() for e in session.events[start:] if e.audience is None
        ]
        for last_seq in (None, 0, actor.seq + 1):  # before the start, or unknown: a snapshot
            fresh = Recorder()
            await actor.call(Resume(type="resume", last_seq=last_seq), fresh)
            assert [f["type"] for f in fresh.frames] == ["snapshot"]
            assert fresh.frames[0]["game"] == json.loads(json.dumps(session.public_view()))
        await tables.close()
        await storage.close()

    asyncio.run(run())


def test_the_host_ends_the_night_when_the_deal_is_over(sqlite_url: str) -> None:
    async def run() -> None:
        storage = await Storage.open(sqlite_url)
        tables = Tables(storage, Settings(bot_delay=0, deal_delay=3600))
        actor, secret = await bot_table(
            tables, "two-card-guts", options={"continue-after-empty": "yes"}
        )
        await settle(actor)  # the first deal is played, the next one waits
        assert actor.session is not None and not actor.session.is_over
        await actor.call(End(type="end", secret=secret))
        await settle(actor)
        assert actor.status == "over" and actor.session is not None
        assert actor.session.is_over and [e.kind for e in actor.state.log[-2:]] == ["end", "stop"]
        with refused("not-now"):
            await actor.call(End(type="end", secret=secret))
        stored = await storage.table(actor.id)
        assert stored is not None and stored.status == "over"
        assert actor.id not in await storage.table_ids()
        await tables.close()
        await storage.close()

    asyncio.run(run())


@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ("five-card-draw", {}),  # each session on a fresh table with the stacks left
        ("two-card-guts", {"credit": "yes"}),  # on the same table, debts and all
    ],
)
def test_the_night_goes_on_with_a_new_session_when_one_ends(
    sqlite_url: str, preset: str, options: dict[str, str]
) -> None:
    async def run() -> None:
        storage = await Storage.open(sqlite_url)
        tables = Tables(storage, FAST)
        actor, secret = await bot_table(tables, preset, options=options, kind="sensible")
        for _ in range(200):  # draw sessions end when a pot is won: play a few
            if actor.state.session_number >= 2:
                break
            await actor.query(lambda: None)
        await actor.call(End(type="end", secret=secret))
        await settle(actor)
        assert len(actor.state.sessions) == 1  # the table in play keeps only its last
        sessions = (await whole_night(storage, actor.id)).sessions
        assert len(sessions) >= 3 and actor.status == "over"
        assert sessions[-1].events == actor.state.sessions[-1].events
        for earlier, later in pairwise(sessions):
            assert earlier.is_over and later.table.names == earlier.table.names
            if later.table is not earlier.table:  # a fresh table begins with what was left
                assert not any(earlier.table.places.values())
                ended = [(seat.name, seat.stack) for seat in earlier.table.seats]
                assert list(later.players) == ended
        for session in sessions:
            session.table.check_invariant()
            table = session.table  # no chip is made or lost over the night
            assert sum(seat.stack for seat in table.seats) + sum(table.places.values()) == 200
        await tables.close()
        again = Tables(storage, FAST)
        rebuilt = await again.get(actor.id)
        assert rebuilt is not None and rebuilt.state.session_number == len(sessions) - 1
        assert rebuilt.state.sessions[-1].events == sessions[-1].events
        again_night = (await whole_night(storage, actor.id)).sessions
        for mine, theirs in zip(again_night, sessions, strict=True):
            assert mine.events == theirs.events
            assert replay_record(json.loads(json.dumps(theirs.record()))).events == mine.events
        await again.close()
        await storage.close()

    asyncio.run(run())


def test_a_replayed_table_refuses_a_record_that_does_not_replay(sqlite_url: str) -> None:
    async def run() -> None:
        storage = await Storage.open(sqlite_url)
        tables = Tables(storage, FAST)
        actor, _ = await bot_table(tables, "two-card-guts", options={"max-deals": "2"})
        await settle(actor)
        stored = await storage.load(actor.id)
        assert stored is not None
        copy = TableActor(stored.table, NullStorage(), FAST)  # type: ignore[arg-type]
        copy.load(stored)
        assert views(copy) == views(actor)
        start = next(a for a in stored.actions if a.kind == "start")
        broken = dict(start.payload, draws=[{"shuffle": [1, 0]}])  # not a deck's shuffle
        actions = tuple(
            a if a is not start else type(a)(a.seq, a.kind, broken) for a in stored.actions
        )
        with pytest.raises(GutsError, match="does not replay"):
            copy.load(type(stored)(stored.table, stored.seats, actions))
        missing = tuple(a for a in stored.actions if a.seq != 2)
        with pytest.raises(GutsError, match="command 2 is missing"):
            copy.load(type(stored)(stored.table, stored.seats, missing))
        await tables.close()
        await storage.close()

    asyncio.run(run())


def test_spectators_and_seats_get_what_the_engine_lets_them_see(sqlite_url: str) -> None:
    async def run() -> None:
        storage = await Storage.open(sqlite_url)
        tables = Tables(storage, Settings(bot_delay=0, deal_delay=3600))
        actor, secret = await bot_table(tables, "two-card-guts", bots=3, start=False)
        spectator, seat_one = Recorder(), Recorder()
        sit(actor, spectator, None)
        sit(actor, seat_one, 1)
        await actor.call(Start(type="start", secret=secret))
        await settle(actor)
        session = actor.session
        assert session is not None
        public = [e.to_dict() for e in session.events if e.audience is None]
        mine = [e.to_dict() for e in session.events if e.visible_to(1)]
        assert [e for f in spectator.of("event") for e in f["events"]] == public
        assert [e for f in seat_one.of("event") for e in f["events"]] == mine
        assert all(f["decision"] is None for f in spectator.of("event"))
        await actor.call(Resume(type="resume"), spectator)
        assert spectator.frames[-1]["game"] == json.loads(json.dumps(session.public_view()))
        await tables.close()
        await storage.close()

    asyncio.run(run())
