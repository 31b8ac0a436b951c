"""The information barrier: the one place game state is turned into what a client may see.

Nothing of a table's engine session reaches a client except through :func:`disclose`,
and :func:`disclose` draws only on what the engine itself says a seat may see: the
seat's :meth:`~guts.games.base.Session.view` (a spectator's
:meth:`~guts.games.base.Session.public_view`), the events whose audience includes it
(:meth:`~guts.games.base.Event.visible_to`), the seat's own decision, and the public
numbers every view shows (who is to act, the stacks, the pot). Events are passed on
whole, as the engine wrote them; an event the seat may not see is left out entirely, so
a client learns nothing of it, not even that it happened.

>>> import random
>>> from guts.catalog import find_game
>>> session = find_game("two-card-guts").new_session(["Ann", "Bob"], buy_in=10,
...                                                  rng=random.Random(2))
>>> session.start_deal()
>>> update = disclose(session, None, session.events)
>>> [e["kind"] for e in update["events"]]        # no shuffle, no one's cards
['deal-started', 'moved', 'moved']
>>> [e["kind"] for e in disclose(session, 1, session.events)["events"]][3:]  # Bob's cards
['cards-dealt']
>>> disclose(session, 1, session.events)["decision"]["actions"]
['in', 'out']
>>> disclose(session, 1)["game"] == session.view(1)
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from guts.games.base import Event, Session

__all__ = ["disclose", "disclose_each", "disclose_record"]


def disclose_each(
    session: Session, seats: Iterable[int | None], events: Sequence[Event]
) -> dict[int | None, dict[str, Any]]:
    """:func:`disclose` of ``events`` for each of ``seats`` at once, each event turned
    into JSON once for all of them (the dicts are shared between the updates: read-only)."""
    made: list[dict[str, Any] | None] = [None] * len(events)
    return {seat: disclose(session, seat, events, made) for seat in seats}


def disclose(
    session: Session,
    seat: int | None,
    events: Sequence[Event] | None = None,
    _made: list[dict[str, Any] | None] | None = None,
) -> dict[str, Any]:
    """What ``seat`` (None: a spectator, or anyone not dealt into ``session``) may
    receive of ``session``.

    Without ``events``: the whole picture for a snapshot, ``{"game": view}``. With
    ``events`` (those one command caused, hidden ones included): the update,
    ``{"events": [...], "to_act": [...], "decision": ..., "stacks": [...], "pot": n,
    "game": view}``, holding only the events ``seat`` may see, ``seat``'s own decision
    (or None) and its view after them without the view's ``events`` (which the client
    has: the snapshot's and the updates' events), so that a page renders from it.
    """
    if seat is not None and not 0 <= seat < len(session.table.names):
        seat = None
    view = session.public_view() if seat is None else session.view(seat)
    if events is None:
        return {"game": view}
    pending = session.pending()
    own = [decision.to_dict() for decision in pending if decision.seat == seat]
    table = session.table
    return {
        "events": _visible(events, seat, _made),
        "to_act": [decision.seat for decision in pending],
        "decision": own[0] if own else None,
        "stacks": [table.stack(number) for number in range(len(table.names))],
        "pot": table.pot,
        "game": {key: value for key, value in view.items() if key != "events"},
    }


def _visible(
    events: Sequence[Event], seat: int | None, made: list[dict[str, Any] | None] | None
) -> list[dict[str, Any]]:
    """The JSON of the events ``seat`` may see (from ``made`` where made already)."""
    if made is None:
        return [event.to_dict() for event in events if event.visible_to(seat)]
    shown = []
    for number, event in enumerate(events):
        if event.visible_to(seat):
            data = made[number]
            if data is None:
                data = made[number] = event.to_dict()
            shown.append(data)
    return shown


def disclose_record(session: Session, seat: int | None) -> dict[str, Any]:
    """The record of ``session`` (:meth:`~guts.games.base.Session.record`) as ``seat``
    (None: a spectator) may have it: the rules, players and first dealer, and only the
    events whose audience includes the seat (the shuffles and everyone else's hidden
    cards left out), marked ``redacted`` with the ``viewer``."""
    if seat is not None and not 0 <= seat < len(session.table.names):
        seat = None
    record = session.record()
    record["events"] = [event.to_dict() for event in session.events if event.visible_to(seat)]
    record["redacted"] = True
    record["viewer"] = seat
    return record
