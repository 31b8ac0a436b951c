"""The night so far, for the routes that read finished sessions.

A table in play keeps only its session in play in memory
(:class:`~guts.server.state.TableState`), so that its memory does not grow with the night.
The routes that read the whole night (the history download, the deal list and replay, the
review, the full log) read the table's record from the database and replay it with every
session kept, in a thread, never on the event loop. The record holds everything any client
was told (persist, then tell), and it is the same on every node.

A replay costs a few hundred milliseconds of CPU for a long night, so a seat that asks again
and again must not multiply it: the nights replayed lately are kept (:data:`KEPT` of them,
the least recently asked for dropped first), each under its table and the number of commands
it holds, and callers asking for a night being replayed wait for that one replay.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, TypeVar

from guts.errors import GutsError
from guts.server.state import TableState
from guts.server.storage import Storage, StoredTable

if TYPE_CHECKING:
    from guts.server.actor import TableActor

__all__ = ["KEPT", "Replayed", "from_record", "replayed"]

T = TypeVar("T")

KEPT = 4
"""How many replayed nights the server keeps for the next request (all tables together)."""


@dataclass(frozen=True)
class Replayed:
    """The night as its record builds it: ``state`` (every session kept), each session's
    event count (``upto``) and whether its last deal is over (``over``)."""

    state: TableState
    upto: list[int]
    over: bool


def replayed(stored: StoredTable) -> Replayed:
    """The night ``stored`` holds (CommandError if it does not replay)."""
    state = TableState.replay(stored, keep=True)
    last = state.session
    over = last is None or last.is_over or last.deal_over
    return Replayed(state, [len(session.events) for session in state.sessions], over)


_nights: OrderedDict[tuple[Storage, str, int], asyncio.Future[Replayed]] = OrderedDict()
"""The nights replayed or being replayed, by database, table id and command count, the
latest asked for last."""


async def _replay(storage: Storage, table_id: str, seq: int) -> Replayed:
    stored = await storage.load(table_id)
    if stored is None:
        raise GutsError(f"table {table_id} is gone from the database")
    # the commands committed when the caller asked, none made since
    asked = replace(stored, actions=stored.actions[:seq])
    return await asyncio.to_thread(replayed, asked)


async def night_of(storage: Storage, table_id: str, seq: int) -> Replayed:
    """Table ``table_id``'s night as its first ``seq`` commands build it: a kept one, the
    one being replayed, or a fresh replay (GutsError if the table is gone)."""
    key = (storage, table_id, seq)
    night = _nights.get(key)
    if night is None or night.get_loop() is not asyncio.get_running_loop():
        night = _nights[key] = asyncio.ensure_future(_replay(storage, table_id, seq))
        while len(_nights) > KEPT:
            _nights.popitem(last=False)
    else:
        _nights.move_to_end(key)
    try:
        return await asyncio.shield(night)  # a caller that hangs up leaves it to the others
    except BaseException:
        if night.done() and _nights.get(key) is night:
            del _nights[key]  # failed: the next caller tries again
        raise


async def from_record(actor: TableActor, work: Callable[[Replayed], T]) -> T:
    """``work`` done in a thread on the night the table's record holds now; GutsError if
    the table is gone from the database."""
    seq = await actor.query(lambda: actor.state.seq)
    night = await night_of(actor.storage, actor.id, seq)
    return await asyncio.to_thread(work, night)
