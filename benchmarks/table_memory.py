"""What a table keeps in memory as its night goes on: a heap profile of one table of bots.

One process runs one table of ``--bots`` bots on a fresh SQLite database (the server's
own :class:`~guts.server.tables.Tables`, no deal or bot delay), each seat and a spectator
with a listening client (so every frame and view is made, as with people connected; the
frames are dropped). Python's ``tracemalloc`` traces every allocation; between two
commands (inside the table's actor, after a full garbage collection) the script reads
the traced memory at ``--warm`` commands and at every ``--every`` commands after, up to
``--commands``. It prints the memory held per command since the warm-up, where the
growth is (the source lines that hold most of it, from ``tracemalloc``'s comparison of
the two snapshots), and how many sessions and log entries the table holds.

A night that ends before ``--commands`` (the bots' chips gone) is followed by another
table, so the count is of commands over the script's tables; only the table in play is
measured between snapshots, the finished tables being closed (as tables that expire).

    python benchmarks/table_memory.py [--preset two-card-guts] [--bots 4]
                                      [--commands 1500] [--warm 300] [--every 300]

Run it with ``PYTHONPATH`` set to the tree to measure (it uses only the server's public
classes, so the same script measures an older tree).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import tempfile
import tracemalloc
from functools import partial
from pathlib import Path
from typing import Any

from guts.server.actor import Client, Settings, TableActor
from guts.server.protocol import AddBot, Start
from guts.server.storage import Storage
from guts.server.tables import Tables


class Listener(Client):
    """A connected client that reads and forgets every frame it is sent."""

    def send(self, message: dict[str, Any]) -> None:
        pass


def held(actor: TableActor) -> dict[str, int]:
    """What the table's state holds: sessions, log entries, lineups (read between
    commands)."""
    state = actor.state
    return {
        "seq": state.seq,
        "sessions_held": len(state.sessions),
        "sessions_played": getattr(state, "sessions_before", 0) + len(state.sessions),
        "log_entries": len(state.log),
        "lineups": len(state.night.lineups),
    }


def measure(actor: TableActor) -> tuple[int, tracemalloc.Snapshot, dict[str, int]]:
    """The traced memory after a full collection, a snapshot, and what the table holds
    (run by the actor between two commands)."""
    gc.collect()
    return tracemalloc.get_traced_memory()[0], tracemalloc.take_snapshot(), held(actor)


async def open_table(tables: Tables, preset: str, bots: int, buy_in: int) -> TableActor:
    """A table of ``bots`` random bots with listening clients, started."""
    actor, secret = await tables.create(preset, {}, buy_in, auto_approve=True)
    for _ in range(bots):
        await actor.call(AddBot(type="add_bot", secret=secret, bot="random"))

    def listen() -> None:
        for seat_id in [*actor.state.seats, None]:
            client = Listener()
            client.seat_id, client.ready = seat_id, True
            actor.clients.add(client)

    await actor.query(listen)
    await actor.call(Start(type="start", secret=secret))
    return actor


async def run(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        storage = await Storage.open(f"sqlite+aiosqlite:///{Path(folder) / 'memory.sqlite3'}")
        tables = Tables(storage, Settings(bot_delay=0, deal_delay=0))
        tracemalloc.start(args.frames)
        actor = await open_table(tables, args.preset, args.bots, args.buy_in)
        done_before = 0  # commands of the tables already finished
        points: list[dict[str, Any]] = []
        first: tracemalloc.Snapshot | None = None
        last: tracemalloc.Snapshot | None = None
        target = args.warm
        while target <= args.commands:
            seq = actor.state.seq  # (read on the loop: the actor waits between commands)
            if actor.status == "over":
                done_before += seq
                actor = await replace(tables, actor, args)
                first = None  # a new table: measure again from its own warm-up
                target = done_before + args.warm
                points.append({"new_table_at": done_before})
                continue
            if done_before + seq < target:
                await asyncio.sleep(0.01)
                continue
            traced, snapshot, holds = await actor.query(partial(measure, actor))
            point = {"commands": done_before + holds["seq"], "traced_bytes": traced, **holds}
            points.append(point)
            if first is None:
                first, base = snapshot, point
            last, end = snapshot, point
            target += args.every
        await tables.close()
        await storage.close()
    tracemalloc.stop()
    assert first is not None and last is not None
    commands = end["commands"] - base["commands"]
    growth = end["traced_bytes"] - base["traced_bytes"]
    top = [
        {"where": str(stat.traceback[0]), "bytes": stat.size_diff, "blocks": stat.count_diff}
        for stat in last.compare_to(first, "lineno")[: args.top]
    ]
    return {
        "preset": args.preset,
        "bots": args.bots,
        "points": points,
        "measured_commands": commands,
        "growth_bytes": growth,
        "bytes_per_command": round(growth / commands, 1) if commands else None,
        "top_growth": top,
    }


async def replace(tables: Tables, actor: TableActor, args: argparse.Namespace) -> TableActor:
    """Close the finished ``actor`` (as an expired table is) and open another table."""
    tables.actors.pop(actor.id, None)
    await actor.close()
    return await open_table(tables, args.preset, args.bots, args.buy_in)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="two-card-guts")
    parser.add_argument("--bots", type=int, default=4)
    parser.add_argument("--buy-in", type=int, default=1000)
    parser.add_argument("--commands", type=int, default=1500)
    parser.add_argument("--warm", type=int, default=300)
    parser.add_argument("--every", type=int, default=300)
    parser.add_argument("--frames", type=int, default=1, help="traceback depth traced")
    parser.add_argument("--top", type=int, default=8)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = asyncio.run(run(args))
    if args.json:
        print(json.dumps(result, indent=1))
        return
    for point in result["points"]:
        print(point)
    print(f"{result['preset']}, {result['bots']} bots: {result['growth_bytes']} bytes over "
          f"{result['measured_commands']} commands: {result['bytes_per_command']} B a command")
    for line in result["top_growth"]:
        print(f"  {line['bytes']:>10} B {line['blocks']:>7} blocks  {line['where']}")


if __name__ == "__main__":
    main()
