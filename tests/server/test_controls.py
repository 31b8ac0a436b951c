"""The host's and the players' controls, and the action clocks, through the table actor:
pause, away and sitting out, leaving and kicking (cashed out at the next deal boundary
with an empty pot), rebuys and top-ups, options for the next table, the host role handed
on, seats taken after the start; a clock that runs out takes the safe action and sets a
seat away after its timeouts. Every table is rebuilt from its record to the same state.
Time is a clock the tests move by hand."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from server_helpers import Clock, Recorder, settle, views, whole_night

from guts.server.actor import Settings, TableActor
from guts.server.ledger import ledger_rows
from guts.server.protocol import (
    Act,
    AddBot,
    Approve,
    ApproveChips,
    BuyChips,
    Chat,
    ComeBack,
    HandHost,
    Join,
    Kick,
    Leave,
    Pause,
    ProtocolError,
    RefuseChips,
    Resume,
    SetAway,
    SetOptions,
    SitOut,
    Start,
)
from guts.server.state import safe_action
from guts.server.storage import Storage
from guts.server.tables import Tables

Body = Callable[[Tables, Storage, Clock], Awaitable[None]]


def on_tables(sqlite_url: str, body: Body, deal_delay: float = 0) -> None:
    """Run ``body`` with the tables of a server on a fresh database, bots at once, and a
    hand-moved clock."""

    async def run() -> None:
        storage = await Storage.open(sqlite_url)
        clock = Clock()
        tables = Tables(storage, Settings(bot_delay=0, deal_delay=deal_delay, clock=clock))
        try:
            await body(tables, storage, clock)
        finally:
            await tables.close()
            await storage.close()

    asyncio.run(run())


async def table_with(
    tables: Tables,
    preset: str,
    bots: int,
    people: list[str],
    *,
    buy_in: int = 50,
    auto_approve: bool = True,
    clocks: dict[str, int] | None = None,
    options: dict[str, str] | None = None,
) -> tuple[TableActor, str, list[Recorder]]:
    """A table of ``bots`` bots then the ``people`` (each a connected Recorder)."""
    actor, secret = await tables.create(
        preset, dict(options or {}), buy_in, auto_approve=auto_approve, clocks=clocks
    )
    for _ in range(bots):
        await actor.call(AddBot(type="add_bot", secret=secret, bot="random"))
    clients = []
    for name in people:
        client = Recorder()
        actor.attach(client)
        await actor.call(Join(type="join", nickname=name), client)
        clients.append(client)
    return actor, secret, clients


async def rebuilt(tables: Tables, storage: Storage, actor: TableActor) -> TableActor:
    """The same table as a new server rebuilds it from the database (not started, so
    it does not play on beside the table itself)."""
    await settle(actor)
    stored = await storage.load(actor.id)
    assert stored is not None
    copy = TableActor(stored.table, storage, tables.settings)
    copy.load(stored)
    copy.check()
    return copy


def same_table(one: TableActor, other: TableActor) -> None:
    assert one.seq == other.seq
    assert views(one) == views(other)
    assert [s.public() for s in one.state.seats.values()] == [
        s.public() for s in other.state.seats.values()
    ]
    assert ledger_rows(one.state, {}, None) == ledger_rows(other.state, {}, None)


def refused(code: str) -> Any:
    return pytest.raises(ProtocolError, match=f"^{code}:")


async def play_person(actor: TableActor, client: Recorder, answer: str, times: int) -> None:
    """Answer the client's decisions with ``answer`` if legal (else its first action)."""
    session = actor.session
    assert session is not None
    for _ in range(times):
        await settle(actor)
        number = actor.state.number(client.seat_id)
        decision = session.decision(number) if number is not None else None
        if decision is None or session is not actor.session:
            return
        legal = session.legal_actions(decision.seat)
        seq = actor.state.client_seqs.get(client.seat_id or 0, (0, 0))[0] + 1
        action = answer if answer in legal else legal[0]
        await actor.call(Act(type="act", seat=decision.seat, action=action, client_seq=seq), client)


async def until_fresh(actor: TableActor, player: Recorder, answer: str) -> None:
    """Play ``player`` with ``answer`` and deal on until a fresh table is dealt (a pot
    that nobody won, as when nobody opens, carries to the next deal at the same table)."""
    first = actor.session
    for _ in range(100):
        await play_person(actor, player, answer, 30)
        await settle(actor)
        assert actor.session is not None and actor.session.deal_over
        actor.tick()  # the next deal, an hour later
        await settle(actor)
        if actor.session is not first:
            return
    raise AssertionError("no fresh table was dealt")


async def fresh_table(actor: TableActor) -> Any:
    """The bots play on until a pot is won and a fresh table is dealt: its session."""
    first = actor.session
    for _ in range(200):
        if actor.session is not first:
            return actor.session
        actor.tick()
        await settle(actor)
    raise AssertionError("no fresh table was dealt")


def test_the_safe_action_risks_nothing_where_it_can() -> None:
    assert safe_action(("in", "out"), lambda: "in") == "out"
    assert safe_action(("fold", "call", "raise 4"), lambda: "call") == "fold"
    assert safe_action(("discard 7h", "stand pat"), lambda: "discard 7h") == "stand pat"
    assert safe_action(("2c", "As"), lambda: "As") == "As"  # Bourre: nothing is safe


def test_a_paused_table_stands_still_and_resumes(sqlite_url: str) -> None:
    async def body(tables: Tables, storage: Storage, clock: Clock) -> None:
        actor, secret, (jo,) = await table_with(tables, "two-card-guts", 3, ["Jo"])
        await actor.call(Start(type="start", secret=secret))
        await settle(actor)
        session = actor.session
        assert session is not None
        number = actor.state.number(jo.seat_id)
        assert number is not None and session.decision(number) is not None
        await actor.call(Pause(type="pause", secret=secret))
        assert actor.snapshot(jo)["table"]["paused"] and not actor.clocks
        with refused("not-now"):
            await actor.call(Act(type="act", seat=number, action="in", client_seq=1), jo)
        with refused("not-now"):
            await actor.call(Pause(type="pause", secret=secret))
        clock.advance(10_000)
        actor.tick()
        await settle(actor)
        assert session.decision(number) is not None  # no clock ran while paused
        await actor.call(Pause(type="pause", secret=secret, paused=False))
        assert [c["seat"] for c in actor.clock_list()] == [number]
        await actor.call(Act(type="act", seat=number, action="in", client_seq=1), jo)
        same_table(actor, await rebuilt(tables, storage, actor))

    on_tables(sqlite_url, body)


def test_a_clock_that_runs_out_takes_the_safe_action_then_sets_the_seat_away(
    sqlite_url: str,
) -> None:
    async def body(tables: Tables, storage: Storage, clock: Clock) -> None:
        clocks = {"clock": 20, "time_bank": 15, "away_after": 2}
        actor, secret, (jo,) = await table_with(
            tables, "jacks-or-better", 3, ["Jo"], clocks=clocks
        )
        await actor.call(Start(type="start", secret=secret))
        await settle(actor)
        session = actor.session
        assert session is not None
        number = actor.state.number(jo.seat_id)
        assert number is not None
        decision = session.decision(number)
        assert decision is not None
        (shown,) = actor.clock_list()
        assert shown == {"seat": number, "seconds": 20.0, "bank": 15.0}
        clock.advance(25)  # into the bank
        assert actor.clock_list()[0] == {"seat": number, "seconds": 0.0, "bank": 10.0}
        actor.tick()
        await settle(actor)
        assert session.decision(number) is decision  # the bank still runs
        seq = actor.seq
        clock.advance(10)
        actor.tick()
        await settle(actor)
        timeout = next(e for e in actor.state.log if e.seq == seq + 1)
        assert timeout.kind == "act"
        acted = (await storage.load(actor.id)).actions[seq]  # type: ignore[union-attr]
        assert acted.payload["timeout"] and acted.payload["action"] in ("check", "fold")
        seat = actor.state.seats[jo.seat_id]  # type: ignore[index]
        assert seat.timeouts == 1 and seat.bank_ms == 0 and not seat.away
        for _ in range(50):  # the next decision: no bank left, so 20 seconds
            if actor.state.seats[jo.seat_id].away:  # type: ignore[index]
                break
            clock.advance(21)
            actor.tick()
            await settle(actor)
        assert seat.away and seat.timeouts == 2
        assert any(s["away"] for s in jo.of("seats")[-1]["seats"])
        await settle(actor)
        assert not actor.clocks  # an away seat is played safe at once
        same_table(actor, await rebuilt(tables, storage, actor))
        await actor.call(ComeBack(type="come_back"), jo)
        assert seat.timeouts == 0 and not seat.away

    on_tables(sqlite_url, body, deal_delay=3600)


def test_a_player_who_leaves_mid_deal_plays_safe_and_is_cashed_out(sqlite_url: str) -> None:
    async def body(tables: Tables, storage: Storage, clock: Clock) -> None:
        actor, secret, (jo, al) = await table_with(tables, "jacks-or-better", 3, ["Jo", "Al"])
        await actor.call(Start(type="start", secret=secret))
        await settle(actor)
        first = actor.session
        assert first is not None and first.table.names[3:] == ("Jo", "Al")
        await actor.call(Leave(type="leave"), jo)
        await until_fresh(actor, al, "check")  # Al plays; Jo is folded or checked
        jo_seat = actor.state.seats[jo.seat_id]  # type: ignore[index]
        assert jo_seat.status == "left" and jo_seat.number is None
        last = (await whole_night(storage, actor.id)).sessions[-2]  # Jo's last table
        assert jo_seat.cashed == last.table.stack(3)
        session = actor.session
        assert session is not None and "Jo" not in session.table.names
        rows = ledger_rows(actor.state, {}, None)
        assert sum(row["net"] for row in rows) == -sum(session.table.places.values())
        (jo_row,) = [row for row in rows if row["player_nickname"] == "Jo"]
        assert jo_row["buy_out"] == jo_seat.cashed and jo_row["stack"] == 0
        with refused("not-now"):
            await actor.call(Leave(type="leave"), jo)
        same_table(actor, await rebuilt(tables, storage, actor))

    on_tables(sqlite_url, body, deal_delay=3600)


def test_seats_taken_after_the_start_and_bots_removed_change_at_an_empty_pot(
    sqlite_url: str,
) -> None:
    async def body(tables: Tables, storage: Storage, clock: Clock) -> None:
        actor, secret, _ = await table_with(tables, "two-card-guts", 3, [])
        await actor.call(Start(type="start", secret=secret))
        late = Recorder()
        actor.attach(late)
        await actor.call(Join(type="join", nickname="Lee"), late)  # auto-approved
        await actor.call(AddBot(type="add_bot", secret=secret, bot="random", nickname="Sam"))
        await actor.call(Kick(type="kick", secret=secret, seat_id=0))  # remove the first bot
        first = actor.session
        assert first is not None and first.table.names == ("Ann", "Bob", "Cat")
        lee = actor.state.seats[late.seat_id]  # type: ignore[index]
        assert lee.number is None and late.of("snapshot")[-1]["you"]["seat"] is None
        for _ in range(200):  # the bots play on until a pot is won and a table is fresh
            if actor.session is not first:
                break
            actor.tick()
            await settle(actor)
        session = actor.session
        assert session is not None and set(session.table.names) >= {"Bob", "Cat", "Sam"}
        assert "Ann" not in session.table.names
        assert actor.state.seats[0].status == "left"
        assert lee.number is not None and session.table.names[lee.number] == "Lee"
        assert not any(first.table.places.values())  # the pot was empty when they changed
        rows = ledger_rows(actor.state, {}, None)
        assert sum(row["net"] for row in rows) == -sum(session.table.places.values())
        same_table(actor, await rebuilt(tables, storage, actor))

    on_tables(sqlite_url, body, deal_delay=3600)


def test_a_bot_sits_in_the_seat_the_host_picks_and_a_taken_seat_is_refused(
    sqlite_url: str,
) -> None:
    async def body(tables: Tables, storage: Storage, clock: Clock) -> None:
        actor, secret = await tables.create("two-card-guts", {}, 50, auto_approve=True)

        def bot(name: str, seat_id: int | None = None) -> AddBot:
            return AddBot(type="add_bot", secret=secret, bot="threshold", nickname=name,
                          seat_id=seat_id)  # fmt: skip

        await actor.call(bot("Dee", 3))
        await actor.call(bot("Ann"))  # the first free seat
        cy = Recorder()
        actor.attach(cy)
        await actor.call(Join(type="join", nickname="Cy"), cy)  # a person: the next free one
        assert cy.of("welcome")[0]["seat_id"] == 1
        await actor.call(bot("Bea"))
        before = (actor.seq, actor.seat_list())
        with refused("taken") as taken:
            await actor.call(bot("Eve", 1))
        assert "Cy has that seat" in str(taken.value)
        assert (actor.seq, actor.seat_list()) == before  # nothing changed
        seats = actor.seat_list()
        assert [(s["seat_id"], s["nickname"]) for s in seats] == [
            (0, "Ann"), (1, "Cy"), (2, "Bea"), (3, "Dee")]  # fmt: skip
        assert cy.of("seats")[-1]["seats"] == seats
        await actor.call(Start(type="start", secret=secret))
        session = actor.session
        assert session is not None and session.table.names == ("Ann", "Cy", "Bea", "Dee")
        same_table(actor, await rebuilt(tables, storage, actor))

    on_tables(sqlite_url, body, deal_delay=3600)


def test_a_bot_seated_after_the_start_is_dealt_in_at_its_seat_at_an_empty_pot(
    sqlite_url: str,
) -> None:
    async def body(tables: Tables, storage: Storage, clock: Clock) -> None:
        actor, secret = await tables.create("two-card-guts", {}, 50, auto_approve=True)
        for name, seat_id in (("Ann", 0), ("Cat", 2)):
            await actor.call(AddBot(type="add_bot", secret=secret, bot="random",
                                    nickname=name, seat_id=seat_id))  # fmt: skip
        await actor.call(Start(type="start", secret=secret))
        await actor.call(AddBot(type="add_bot", secret=secret, bot="random", nickname="Bob",
                                seat_id=1))  # fmt: skip
        assert actor.session is not None and actor.session.table.names == ("Ann", "Cat")
        session = await fresh_table(actor)
        assert session.table.names == ("Ann", "Bob", "Cat")
        await actor.call(Kick(type="kick", secret=secret, seat_id=1))
        with refused("taken"):  # Bob plays until the pot is empty
            await actor.call(AddBot(type="add_bot", secret=secret, seat_id=1))
        assert (await fresh_table(actor)).table.names == ("Ann", "Cat")
        with refused("taken") as taken:  # his seat stays his in the record (his ledger)
            await actor.call(AddBot(type="add_bot", secret=secret, seat_id=1))
        assert "was Bob's" in str(taken.value)
        same_table(actor, await rebuilt(tables, storage, actor))

    on_tables(sqlite_url, body, deal_delay=3600)


def test_rebuys_need_the_host_and_are_added_at_the_next_table(sqlite_url: str) -> None:
    async def body(tables: Tables, storage: Storage, clock: Clock) -> None:
        actor, secret, (jo,) = await table_with(
            tables, "jacks-or-better", 3, ["Jo"], auto_approve=False
        )
        await actor.call(Approve(type="approve", secret=secret, seat_id=3))
        await actor.call(Start(type="start", secret=secret))
        seat = actor.state.seats[3]
        with refused("invalid"):
            await actor.call(BuyChips(type="buy_chips", amount=51), jo)
        with refused("invalid"):  # nothing asked, no amount given
            await actor.call(ApproveChips(type="approve_chips", secret=secret, seat_id=3))
        await actor.call(BuyChips(type="buy_chips", amount=30), jo)
        assert seat.asked == 30 and jo.of("seats")[-1]["seats"][3]["asked"] == 30
        with refused("not-now"):
            await actor.call(BuyChips(type="buy_chips", amount=10), jo)
        await actor.call(RefuseChips(type="refuse_chips", secret=secret, seat_id=3))
        assert seat.asked == 0 and seat.bought == 50
        with refused("no-such-seat"):
            await actor.call(RefuseChips(type="refuse_chips", secret=secret, seat_id=3))
        await actor.call(BuyChips(type="buy_chips", amount=20), jo)
        await actor.call(ApproveChips(type="approve_chips", secret=secret, seat_id=3))
        assert (seat.asked, seat.due, seat.bought) == (0, 20, 70)
        await until_fresh(actor, jo, "fold")  # a fresh table, with Jo's chips added
        before = (await whole_night(storage, actor.id)).sessions[-2].table.stack(3)
        session = actor.session
        assert session is not None
        assert session.players[seat.number or 0] == ("Jo", before + 20)
        (row,) = [r for r in ledger_rows(actor.state, {}, None) if r["player_nickname"] == "Jo"]
        assert row["buy_in"] == 70 and row["net"] == row["stack"] - 70  # (an ante paid)
        same_table(actor, await rebuilt(tables, storage, actor))

    on_tables(sqlite_url, body, deal_delay=3600)


def test_sitting_out_deals_a_seat_out_with_its_chips_held(sqlite_url: str) -> None:
    async def body(tables: Tables, storage: Storage, clock: Clock) -> None:
        actor, secret, (jo, al) = await table_with(tables, "jacks-or-better", 3, ["Jo", "Al"])
        await actor.call(Start(type="start", secret=secret))
        await actor.call(SitOut(type="sit_out"), jo)
        with refused("not-now"):
            await actor.call(SitOut(type="sit_out"), jo)
        await until_fresh(actor, al, "fold")
        held = (await whole_night(storage, actor.id)).sessions[-2].table.stack(3)
        session = actor.session
        assert session is not None and "Jo" not in session.table.names
        seat = actor.state.seats[3]
        assert seat.number is None and seat.held == held and seat.status == "approved"
        (row,) = [r for r in ledger_rows(actor.state, {}, None) if r["player_nickname"] == "Jo"]
        assert row["stack"] == held and row["net"] == held - 50
        await actor.call(ComeBack(type="come_back"), jo)
        await until_fresh(actor, al, "fold")
        again = actor.session
        assert again is not None and seat.number is not None
        assert again.players[seat.number] == ("Jo", held)
        same_table(actor, await rebuilt(tables, storage, actor))

    on_tables(sqlite_url, body, deal_delay=3600)


def test_the_host_changes_options_for_the_next_table_and_hands_the_role_on(
    sqlite_url: str,
) -> None:
    async def body(tables: Tables, storage: Storage, clock: Clock) -> None:
        actor, secret, (jo,) = await table_with(tables, "jacks-or-better", 3, ["Jo"])
        await actor.call(Start(type="start", secret=secret))
        with refused("invalid"):
            await actor.call(SetOptions(type="set_options", secret=secret,
                                        options={"ante": "lots"}))  # fmt: skip
        await actor.call(SetOptions(type="set_options", secret=secret, options={"ante": "2"},
                                    buy_in=80))  # fmt: skip
        first = actor.session
        assert first is not None and first.rules.ante != 2
        assert jo.of("snapshot")[-1]["table"]["options"] == {"ante": "2"}
        await until_fresh(actor, jo, "fold")
        assert actor.session is not first and actor.session.rules.ante == 2  # type: ignore[union-attr]
        with refused("invalid"):  # a bot cannot host
            await actor.call(HandHost(type="hand_host", secret=secret, seat_id=0))
        with refused("no-such-seat"):
            await actor.call(Kick(type="kick", secret=secret, seat_id=9))
        with refused("invalid"):
            await actor.call(SetAway(type="set_away", secret=secret, seat_id=0))
        await actor.call(HandHost(type="hand_host", secret=secret, seat_id=3))
        assert jo.of("snapshot")[-1]["you"]["host"] is True
        with refused("not-host"):  # the old secret no longer works
            await actor.call(Pause(type="pause", secret=secret))
        token = jo.of("welcome")[0]["token"]
        await actor.call(Pause(type="pause", secret=token))
        assert actor.state.paused
        copy = await rebuilt(tables, storage, actor)
        same_table(actor, copy)
        assert copy.is_host(token) and not copy.is_host(secret)

    on_tables(sqlite_url, body, deal_delay=3600)


def test_chat_is_kept_with_the_table(sqlite_url: str) -> None:
    async def body(tables: Tables, storage: Storage, clock: Clock) -> None:
        actor, _, (jo, al) = await table_with(tables, "two-card-guts", 1, ["Jo", "Al"])
        await actor.call(Chat(type="chat", text="=cmd|' /C calc'!A0"), jo)
        await actor.call(Chat(type="chat", text="hello"), al)
        assert [line["text"] for line in al.of("chat")] == ["=cmd|' /C calc'!A0", "hello"]
        copy = await rebuilt(tables, storage, actor)
        newcomer = Recorder()
        copy.clients.add(newcomer)
        copy.start()
        await copy.call(Resume(type="resume"), newcomer)
        await copy.close()
        (snapshot,) = newcomer.of("snapshot")
        assert [(c["nickname"], c["text"]) for c in snapshot["chat"]] == [
            ("Jo", "=cmd|' /C calc'!A0"),
            ("Al", "hello"),
        ]

    on_tables(sqlite_url, body)


def test_the_controls_over_the_websocket(sqlite_url: str) -> None:
    """Each new message through the routes: a misuse answered with an error that names it,
    a use seen by everyone at the table."""
    import json
    import warnings

    from guts.server.app import create_app
    from guts.server.protocol import SERVER

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    def frames(ws: Any, kind: str) -> dict[str, Any]:
        for _ in range(200):
            frame: dict[str, Any] = ws.receive_json()
            SERVER.validate_python(frame)
            if frame["type"] == kind:
                return frame
        raise AssertionError(f"no {kind} frame")

    settings = Settings(bot_delay=0, deal_delay=3600)
    with TestClient(create_app(sqlite_url, settings=settings)) as client:
        created = client.post("/api/tables", json={"preset": "two-card-guts", "bots": 2,
                                                   "bot": "random", "clock": 0}).json()  # fmt: skip
        secret = created["host_secret"]
        with client.websocket_connect(f"/ws/{created['table_id']}") as ws:
            ws.send_text(json.dumps({"type": "join", "nickname": "Jo"}))
            assert frames(ws, "welcome")["status"] == "requested"
            ws.send_text(json.dumps({"type": "sit_out"}))
            assert "not approved" in frames(ws, "error")["message"]
            ws.send_text(json.dumps({"type": "kick", "secret": secret, "seat_id": 9}))
            assert frames(ws, "error")["code"] == "no-such-seat"
            ws.send_text(json.dumps({"type": "set_options", "secret": "guess", "options": {}}))
            assert frames(ws, "error")["code"] == "not-host"
            ws.send_text(json.dumps({"type": "buy_chips", "amount": 0}))
            assert frames(ws, "error")["code"] == "invalid"
            ws.send_text(json.dumps({"type": "approve", "secret": secret, "seat_id": 2}))
            ws.send_text(json.dumps({"type": "start", "secret": secret}))
            ws.send_text(json.dumps({"type": "pause", "secret": secret}))
            snapshot = frames(ws, "snapshot")
            while not snapshot["table"]["paused"]:
                snapshot = frames(ws, "snapshot")
            assert snapshot["you"]["seat"] is not None and snapshot["clocks"] == []
            ws.send_text(json.dumps({"type": "chat", "text": "brb"}))
            assert frames(ws, "chat")["text"] == "brb"
            ws.send_text(json.dumps({"type": "sit_out"}))
            seats = frames(ws, "seats")
            assert [s["away"] for s in seats["seats"]] == [False, False, True]



def test_an_away_seat_in_bourre_plays_the_bots_card_where_nothing_is_safe(
    sqlite_url: str,
) -> None:
    async def body(tables: Tables, storage: Storage, clock: Clock) -> None:
        actor, secret, (jo,) = await table_with(tables, "bourre", 3, ["Jo"])
        await actor.call(Start(type="start", secret=secret))
        for _ in range(200):  # Jo plays until a card must be played (no card is safe)
            await settle(actor)
            session, number = actor.session, actor.state.number(3)
            assert session is not None and number is not None
            decision = session.decision(number)
            if decision is None:
                actor.tick()  # the next deal
                continue
            legal = session.legal_actions(number)
            if decision.kind == "play" and len(legal) > 1:
                break
            seq = actor.state.client_seqs.get(3, (0, 0))[0] + 1
            action = "play" if "play" in legal else legal[-1]
            await actor.call(Act(type="act", seat=number, action=action, client_seq=seq), jo)
        else:
            raise AssertionError("Jo never had to play a card")
        before = actor.seq
        await actor.call(SetAway(type="set_away", secret=secret, seat_id=3))
        await settle(actor)  # nobody waits for Jo: the table plays the seat
        stored = await storage.load(actor.id)
        assert stored is not None
        played = next(a.payload for a in stored.actions[before + 1 :]
                      if a.kind == "act" and a.payload["seat_id"] == 3)  # fmt: skip
        assert played["client_seq"] is None and played["action"] in legal
        same_table(actor, await rebuilt(tables, storage, actor))

    on_tables(sqlite_url, body, deal_delay=3600)
