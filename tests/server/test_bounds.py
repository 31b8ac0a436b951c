"""Numbers a client sends are bounded by the schema (10^12 in text the engine reads), and
nothing is committed whose frames cannot be told to every seat.

The audit's table bricked for good: a dealer's-choice chooser named
``two-card-guts ante=1180591620717411303424``, the command was committed, and every
frame after it failed in the encoder (also after a restart: the record replays it).
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_helpers import Recorder, settle
from test_app import client as client
from test_app import open_table
from test_night_table import act, check_replays, decision_of, night_table, on_tables

from guts.server.actor import Settings
from guts.server.protocol import MAX_NUMBER, Act, End, Pause, ProtocolError, read_message
from guts.server.storage import Storage
from guts.server.tables import Tables

HUGE = "1180591620717411303424"  # 2^70


class Encoding(Recorder):
    """A recorder that encodes every frame as the websocket layer does (orjson)."""

    def __init__(self) -> None:
        super().__init__()
        self.failed: list[str] = []

    def send(self, message: dict[str, Any]) -> None:
        try:
            orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS)
        except TypeError as error:
            self.failed.append(str(error))
        super().send(message)


@pytest.mark.parametrize(
    "action",
    [
        f"two-card-guts ante={HUGE}",
        "two-card-guts ante=1_000_000_000_000_000",
        "raise 1000000000001",
        "two-card-guts ante=١٠٠٠٠٠٠٠٠٠٠٠٠٠٠",
    ],
)
def test_a_number_over_the_bound_in_an_action_is_refused_by_the_schema(action: str) -> None:
    text = orjson.dumps({"type": "act", "seat": 0, "action": action, "client_seq": 1})
    with pytest.raises(ProtocolError) as refused:
        read_message(text)
    assert refused.value.code == "invalid" and "at most 10^12" in refused.value.message


def test_numbers_at_the_bound_pass() -> None:
    action = f"two-card-guts ante={MAX_NUMBER}"
    message = read_message(orjson.dumps({"type": "act", "seat": 0, "action": action,
                                         "client_seq": 1}))  # fmt: skip
    assert isinstance(message, Act) and message.action == action


def test_host_options_over_the_bound_are_refused() -> None:
    for body in (
        {"type": "set_options", "secret": "s", "options": {"ante": HUGE}},
        {"type": "set_options", "secret": "s", "options": {"games": f"bourre ante={HUGE}"}},
    ):
        with pytest.raises(ProtocolError, match="at most 10"):
            read_message(orjson.dumps(body))


def test_a_table_with_a_huge_ante_is_refused_over_http(client: Any) -> None:
    for options in ({"ante": str(2**70)}, {"ante": HUGE}):
        answer = client.post("/api/tables", json={"preset": "two-card-guts", "options": options})
        assert answer.status_code == 400
        assert answer.json()["code"] == "invalid" and "at most 10^12" in answer.json()["message"]
    night = {"games": f"two-card-guts ante={HUGE}"}
    answer = client.post("/api/tables", json={"preset": "dealers-choice", "options": night})
    assert answer.status_code == 400
    assert open_table(client, options={"ante": "5"})["table_id"]  # a sane one opens


def test_an_untellable_choice_past_the_schema_pauses_the_table_saying_why(
    sqlite_url: str,
) -> None:
    """Defence in depth: were a number to pass the schema (here: a message built without
    its checks), the deal it leads to cannot be told; it is rolled back, never committed,
    and the table pauses itself saying why; the host ends the night, which settles, and
    the record replays."""

    async def body(tables: Tables, storage: Storage, clock: Any) -> None:
        options = {"games": "two-card-guts,bourre", "chooser-options": "yes"}
        actor, secret, (jo,) = await night_table(tables, ["Jo"], 2, options)
        watcher = Encoding()
        actor.attach(watcher)
        await actor.call(read_message('{"type": "resume"}'), watcher)
        await settle(actor)
        decision = decision_of(jo)
        assert decision is not None
        bad = Act.model_construct(type="act", seat=decision["seat"],
                                  action=f"two-card-guts ante={HUGE}", client_seq=1)  # fmt: skip
        await actor.call(bad, jo)
        await settle(actor)
        assert actor.state.paused
        last = watcher.of("snapshot")[-1]
        assert last["table"]["paused"] and "could not tell" in last["table"]["why_paused"]
        await actor.call(End(type="end", secret=secret))
        await actor.call(Pause(type="pause", secret=secret, paused=False))
        await settle(actor)
        assert actor.status == "over"
        assert watcher.of("snapshot")[-1]["table"]["why_paused"] is None
        actor.check()
        await check_replays(actor, storage, tables)

    on_tables(sqlite_url, body)


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    ante=st.one_of(st.integers(0, 2**80), st.sampled_from([2**63, 2**64, MAX_NUMBER])),
    game=st.sampled_from(["two-card-guts", "bourre", "three-five-seven"]),
    checked=st.booleans(),
)
def test_every_accepted_command_is_told_to_every_seat(ante: int, game: str, checked: bool) -> None:
    """Whatever a chooser names (through the schema or around it), a command the table
    accepts has frames that encode, for every seat and the spectators."""

    async def run(folder: str) -> None:
        storage = await Storage.open(f"sqlite+aiosqlite:///{Path(folder) / 'g.sqlite3'}")
        tables = Tables(storage, Settings(bot_delay=0, deal_delay=0))
        try:
            options = {"games": "two-card-guts,bourre,three-five-seven",
                       "chooser-options": "yes"}  # fmt: skip
            actor, _, (jo,) = await night_table(tables, ["Jo"], 2, options)
            watcher, seated = Encoding(), Encoding()  # a spectator, and Jo on a second device
            actor.attach(watcher)
            actor.attach(seated)
            await actor.call(read_message('{"type": "resume"}'), watcher)
            token = jo.of("welcome")[0]["token"]
            await actor.call(read_message(orjson.dumps({"type": "resume", "token": token})),
                             seated)  # fmt: skip
            await settle(actor)
            decision = decision_of(jo)
            assert decision is not None
            action = f"{game} ante={ante}"
            if checked:
                if ante > MAX_NUMBER:
                    with pytest.raises(ProtocolError, match="at most 10"):
                        read_message(orjson.dumps({"type": "act", "seat": 0, "action": action,
                                                   "client_seq": 1}))  # fmt: skip
                    return
                message = read_message(orjson.dumps(
                    {"type": "act", "seat": decision["seat"], "action": action,
                     "client_seq": 1}))  # fmt: skip
            else:
                message = Act.model_construct(type="act", seat=decision["seat"],
                                              action=action, client_seq=1)  # fmt: skip
            seq = actor.seq
            try:
                await actor.call(message, jo)
            except ProtocolError:
                assert actor.seq == seq  # refused: nothing committed
            await settle(actor)
            assert not watcher.failed and not seated.failed
            assert not actor.stalled  # playing on, or paused saying why
            assert not actor.state.paused or actor.why_paused
        finally:
            await tables.close()
            await storage.close()

    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run(folder))


def test_every_frame_of_a_bounded_night_encodes(sqlite_url: str) -> None:
    """The bound itself: an ante of 10^12 plays, and every frame encodes."""

    async def body(tables: Tables, storage: Storage, clock: Any) -> None:
        options = {"games": "two-card-guts", "chooser-options": "yes"}
        actor, _, (jo,) = await night_table(tables, ["Jo"], 2, options, buy_in=10**9)
        watcher = Encoding()
        actor.attach(watcher)
        await actor.call(read_message('{"type": "resume"}'), watcher)
        await settle(actor)
        await act(actor, jo, f"two-card-guts ante={MAX_NUMBER}")
        await settle(actor)
        assert watcher.frames

    on_tables(sqlite_url, body)
