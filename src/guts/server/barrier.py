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

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from guts.games.base import Event, Session

__all__ = ["disclose", "disclose_each", "disclose_record"]


def disclose_each(
    session: Session,
    seats: Iterable[int | None],
    events: Sequence[Event],
    head: Mapping[str, Any] | None = None,
) -> dict[int | None, dict[str, Any]]:
    """:func:`disclose` of ``events`` for each of ``seats`` at once: each event turned
    into JSON once for all of them, and what every seat is shown alike (who is to act,
    the stacks, the pot, and the events themselves when every one is public) read once
    (the lists and the dicts inside the updates are shared between them: read-only).
    Each update is a dict of its own that begins with ``head``'s items (the frame's)."""
    made: list[dict[str, Any] | None] = [None] * len(events)
    public = _Public(session)
    if all(event.audience is None for event in events):
        public.events = _visible(events, None, made)
    count = len(session.table.names)
    shown = {seat: seat if seat is not None and 0 <= seat < count else None for seat in seats}
    games = session.views(dict.fromkeys(shown.values()))  # without their events: the
    # client has them (the snapshot's and the updates')
    return {
        seat: _update(viewer, events, made, public, games[viewer], head)
        for seat, viewer in shown.items()
    }


def disclose(
    session: Session, seat: int | None, events: Sequence[Event] | None = None
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
    if events is None:
        return {"game": _view(session, seat)}
    if seat is not None and not 0 <= seat < len(session.table.names):
        seat = None
    game = _view(session, seat, events=False)
    return _update(seat, events, [None] * len(events), _Public(session), game)


class _Public:
    """What an update shows every seat alike: the decisions pending (whose seats are to
    act), the stacks and the pot."""

    def __init__(self, session: Session) -> None:
        table = session.table
        self.pending = session.pending()
        self.to_act = [decision.seat for decision in self.pending]
        self.stacks = [table.stack(number) for number in range(len(table.names))]
        self.pot = table.pot
        self.events: list[dict[str, Any]] | None = None
        """The events' JSON when every seat sees them all (None: each seat's own)."""


def _view(session: Session, seat: int | None, events: bool = True) -> dict[str, Any]:
    """``seat``'s view (a spectator's, for None or a seat not dealt in)."""
    if seat is not None and 0 <= seat < len(session.table.names):
        return session.view(seat, events=events)
    return session.public_view(events=events)


def _update(
    seat: int | None,
    events: Sequence[Event],
    made: list[dict[str, Any] | None],
    public: _Public,
    game: dict[str, Any],
    head: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """``seat``'s update (after ``head``'s items): the events it may see, who is to act,
    its own decision, the stacks, the pot and its view ``game`` (without the view's
    events)."""
    own = [decision for decision in public.pending if decision.seat == seat]
    shown = public.events
    return {
        **(head or {}),
        "events": _visible(events, seat, made) if shown is None else shown,
        "to_act": public.to_act,
        "decision": own[0].to_dict() if own else None,
        "stacks": public.stacks,
        "pot": public.pot,
        "game": game,
    }


def _visible(
    events: Sequence[Event], seat: int | None, made: list[dict[str, Any] | None]
) -> list[dict[str, Any]]:
    """The JSON of the events ``seat`` may see (from ``made`` where made already)."""
    shown = []
    for number, event in enumerate(events):
        if event.visible_to(seat):
            data = made[number]
            if data is None:
                data = made[number] = event.to_dict()
            shown.append(data)
    return shown


def disclose_record(session: Session, seat: int | None, upto: int | None = None) -> dict[str, Any]:
    """The record of ``session`` (:meth:`~guts.games.base.Session.record`) as ``seat``
    (None: a spectator) may have it: the rules, players and first dealer, and only the
    events whose audience includes the seat (the shuffles and everyone else's hidden
    cards left out), marked ``redacted`` with the ``viewer``; with ``upto``, of its
    first ``upto`` events only."""
    if seat is not None and not 0 <= seat < len(session.table.names):
        seat = None
    record = session.record()
    events = session.events if upto is None else session.events[:upto]
    record["events"] = [event.to_dict() for event in events if event.visible_to(seat)]
    record["redacted"] = True
    record["viewer"] = seat
    return record
