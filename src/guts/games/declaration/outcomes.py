"""What each settlement of a declaring deal came to (:mod:`guts.games.outcomes`): who
declared in since the last settlement, and whose hands were shown (the ghost's and the
deck's too: their seats are negative)."""

from __future__ import annotations

from collections.abc import Iterable

from guts.games.base import Event
from guts.games.declaration.events import CardsShown, Declared, Outcome
from guts.games.outcomes import NOBODY_IN, SHOWDOWN, UNCONTESTED
from guts.games.session import MovedEvent

__all__ = ["declared_settlements"]


def declared_settlements(
    events: Iterable[Event], counted: type[Event] | tuple[type[Event], ...] = ()
) -> list[str]:
    """The outcome of each settlement among ``events``; an :class:`Outcome` straight after
    an event of a ``counted`` type (chip moves aside) is that event's pot, already
    counted (a staged game's leg)."""
    found: list[str] = []
    choices: dict[int, str] = {}
    shown: set[int] = set()
    last: Event | None = None
    for event in events:
        if isinstance(event, Declared):
            choices[event.seat] = event.choice
        elif isinstance(event, CardsShown):
            shown.add(event.seat)
        elif isinstance(event, Outcome):
            if not isinstance(last, counted):
                found.append(_settled(choices, shown, event))
            choices, shown = {}, set()
        if not isinstance(event, MovedEvent):
            last = event
    return found


def _settled(choices: dict[int, str], shown: set[int], outcome: Outcome) -> str:
    if not choices:  # no declaration to read: go by the hands shown and the result
        if len(shown) >= 2:
            return SHOWDOWN
        return UNCONTESTED if outcome.winners or outcome.payers else NOBODY_IN
    ins = [seat for seat, choice in choices.items() if choice != "out"]
    if not ins:
        return NOBODY_IN
    if len(ins) == 1 and not any(seat < 0 for seat in shown):
        return UNCONTESTED
    return SHOWDOWN
