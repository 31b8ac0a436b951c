"""A table's records as its players download them: hand histories and PHH.

Every session of the night is written as ``guts-history/1`` JSON lines (a header with
the rules, the players and the first dealer, then one event a line), as the requester
may see it (:func:`guts.server.barrier.disclose_record`): a seat's own cards and
everything public, never the shuffles or anyone else's hidden cards. The header says
so (``"redacted": true``, ``"viewer"``: the seat in that session, null for a spectator),
and adds the session's number in the night (``"session"``). Draw poker sessions are
also written in PHH, one document per deal (:mod:`guts.games.draw.phh`), from the same
redacted record.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

from guts.catalog import FAMILIES
from guts.errors import GutsError
from guts.history import FORMAT
from guts.server.barrier import disclose_record
from guts.server.state import TableState

__all__ = ["history_lines", "phh_documents"]


def _number(state: TableState, index: int, seat_id: int | None) -> int | None:
    lineup = state.night.lineups[index]
    return lineup.index(seat_id) if seat_id in lineup else None


def history_lines(
    state: TableState, seat_id: int | None, upto: Sequence[int] | None = None
) -> Iterator[str]:
    """The night's sessions as JSON lines, as lobby seat ``seat_id`` (None: a
    spectator) may see them; with ``upto``, only those sessions and each one's first
    ``upto[n]`` events (what was committed when it was asked: the table may go on
    meanwhile, in another thread)."""
    for index, session in enumerate(_sessions(state, upto)):
        record = disclose_record(session, _number(state, index, seat_id),
                                 None if upto is None else upto[index])  # fmt: skip
        events = record.pop("events")
        yield json.dumps(
            {"format": FORMAT, "preset": state.game.name, "session": index + 1, **record}
        )
        for event in events:
            yield json.dumps(event)


def _sessions(state: TableState, upto: Sequence[int] | None) -> list[Any]:
    sessions = list(state.sessions)
    return sessions if upto is None else sessions[: len(upto)]


def phh_documents(
    state: TableState, seat_id: int | None, upto: Sequence[int] | None = None
) -> Iterator[str]:
    """Every draw poker deal of the night in PHH, as ``seat_id`` may see it (each
    document headed by a comment naming its session and deal; ``upto`` as for
    :func:`history_lines`: the deals of a session still being played are those its
    record holds then)."""
    found = FAMILIES.get(state.game.family)
    deal_to_phh = found.deal_to_phh if found is not None else None
    if deal_to_phh is None:
        raise GutsError("PHH is for draw poker tables (five-card-draw and its family)")
    for index, session in enumerate(_sessions(state, upto)):
        record = disclose_record(session, _number(state, index, seat_id),
                                 None if upto is None else upto[index])  # fmt: skip
        for deal in range(1, session.deals_played + 1):
            text = deal_to_phh(record, deal, game=state.game.name)
            yield f"# session {index + 1}, deal {deal}\n{text}"
