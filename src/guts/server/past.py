"""The night so far, for the routes that read finished sessions.

A table in play keeps only its session in play in memory
(:class:`~guts.server.state.TableState`), so that its memory does not grow with the night.
The routes that read the whole night (the history download, the deal list and replay, the
review, the full log) read the table's record from the database and replay it with every
session kept, in a thread, never on the event loop. The record holds everything any client
was told (persist, then tell), and it is the same on every node.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from guts.errors import GutsError
from guts.server.state import TableState
from guts.server.storage import Storage, StoredTable

__all__ = ["Replayed", "from_record", "replayed"]

T = TypeVar("T")


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


async def from_record(storage: Storage, table_id: str, work: Callable[[Replayed], T]) -> T:
    """``work`` done in a thread on the night table ``table_id``'s record holds now;
    GutsError if the table is gone from the database."""
    stored = await storage.load(table_id)
    if stored is None:
        raise GutsError(f"table {table_id} is gone from the database")
    return await asyncio.to_thread(lambda: work(replayed(stored)))
