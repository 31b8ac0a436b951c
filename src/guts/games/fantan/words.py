"""Fan Tan's events in words, for narration (the terminal table, watch mode, replays).

:func:`tell` answers for the ``fantan-`` events; the shared events (deals, chips, hands
shown, the outcome) are told by :mod:`guts.narrate` as for every family.

>>> from guts.games.fantan.events import CardPlaced, Passed
>>> tell(CardPlaced(seat=1, card="7h", left=12), ["Ann", "Bob"])
'Bob plays 7♥ (12 cards left)'
>>> tell(Passed(seat=0, paid=1), ["You", "Bob"])
'You pass and pay 1 into the pot'
"""

from __future__ import annotations

from collections.abc import Sequence

from guts.cards import format_cards, parse_cards
from guts.games.base import Event
from guts.games.fantan.events import CardPlaced, FalsePassFound, FanTanResult, Passed
from guts.grammar import agree, who

__all__ = ["tell"]


def _says(name: str, verb: str) -> str:
    return f"{who([name])} {agree([name], verb)}"


def _card(code: str) -> str:
    return format_cards(parse_cards([code]))


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def tell(event: Event, names: Sequence[str]) -> str | None:
    """One line about a Fan Tan event (None for another family's; "" for the result,
    which the outcome line tells)."""
    if isinstance(event, CardPlaced):
        left = "going out" if not event.left else f"{_plural(event.left, 'card')} left"
        return f"{_says(names[event.seat], 'plays')} {_card(event.card)} ({left})"
    if isinstance(event, Passed):
        paid = f" and {agree([names[event.seat]], 'pays')} {event.paid} into the pot"
        return f"{_says(names[event.seat], 'passes')}{paid if event.paid else ''}"
    if isinstance(event, FalsePassFound):
        to = who([names[s] for s in event.paid_to], start=False) if event.paid_to else "the pot"
        each = " each" if len(event.paid_to) > 1 else ""
        held = f"passed holding {_card(event.card)}, which fitted"
        return f"{_says(names[event.seat], 'is')} found out: {held}; {event.fine}{each} to {to}"
    if isinstance(event, FanTanResult):
        return ""
    return None
