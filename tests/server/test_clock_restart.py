"""Action clocks across a restart (docs/protocol.md): the table rebuilt from its record
gives the seat to act a fresh decision clock, and every time bank is as last committed
(time a crash interrupted is not charged; time used by a committed action is)."""

from __future__ import annotations

from server_helpers import Clock, settle
from test_controls import on_tables, rebuilt, table_with

from guts.server.protocol import Act, Start
from guts.server.storage import Storage
from guts.server.tables import Tables

CLOCKS = {"clock": 20, "time_bank": 15}


def test_after_a_restart_the_seat_to_act_has_a_fresh_clock_and_its_committed_bank(
    sqlite_url: str,
) -> None:
    async def body(tables: Tables, storage: Storage, clock: Clock) -> None:
        actor, secret, (jo,) = await table_with(tables, "jacks-or-better", 3, ["Jo"],
                                                clocks=CLOCKS)  # fmt: skip
        await actor.call(Start(type="start", secret=secret))
        await settle(actor)
        number = actor.state.number(jo.seat_id)
        assert number is not None
        assert actor.clock_list() == [{"seat": number, "seconds": 20.0, "bank": 15.0}]
        clock.advance(25)  # Jo thinks into the bank: 5 s of it, not committed
        assert actor.clock_list() == [{"seat": number, "seconds": 0.0, "bank": 10.0}]
        # the server dies here; a new one rebuilds the table from its record
        restarted = await rebuilt(tables, storage, actor)
        restarted.start()
        assert restarted.clock_list() == [{"seat": number, "seconds": 20.0, "bank": 15.0}]
        await restarted.close()
        # Jo acts after those 25 s: the 5 s of bank are committed with the action
        decision = actor.session.decision(number) if actor.session else None
        assert decision is not None
        seq = actor.state.client_seqs.get(jo.seat_id or 0, (0, 0))[0] + 1
        await actor.call(Act(type="act", seat=number, action=decision.actions[0],
                             client_seq=seq), jo)  # fmt: skip
        again = await rebuilt(tables, storage, actor)
        seat = again.state.seats[jo.seat_id]  # type: ignore[index]
        assert seat.bank_ms == 10_000 == actor.state.seats[jo.seat_id].bank_ms  # type: ignore[index]

    on_tables(sqlite_url, body, deal_delay=3600)
