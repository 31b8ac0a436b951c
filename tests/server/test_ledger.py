"""The ledger: PokerNow's columns, nets that add up, a settlement with few payments,
and cells that no spreadsheet reads as a formula."""

from __future__ import annotations

import asyncio
import csv
import io

from server_helpers import bot_table, settle

from guts.server.actor import Settings
from guts.server.ledger import COLUMNS, ledger_rows, settlement, to_csv
from guts.server.protocol import End
from guts.server.storage import Storage
from guts.server.tables import Tables


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


def test_no_cell_is_read_as_a_formula() -> None:
    rows = [
        {"player_nickname": name, "player_id": n, "net": 0}
        for n, name in enumerate(['=HYPERLINK("x")', "+1", "-1", "@SUM(A1)", "Jo"])
    ]
    cells = [line.split(",")[0] for line in to_csv(rows).splitlines()[1:]]
    assert all(not cell.lstrip('"').startswith(("=", "+", "-", "@")) for cell in cells)
    assert cells[-1] == "Jo"
