"""What each deal came to, read from its events: the outcomes a simulation counts.

A deal is settled once (most games) or once per stage (Three Five Seven, Napalm, Nuts,
Toh), and each settlement is one of:

- ``nobody-in``: nobody stayed in (Guts, the staged games), played (Bourré) or opened
  (draw poker); the pot stays, with whatever the rules add to it;
- ``uncontested``: one player was in (the others out or folded) and took the pot or the
  leg without a comparison, or paid for lacking a qualifying hand;
- ``showdown``: hands were compared, two or more of them or one against the ghost or the
  deck, or tricks were played out.

>>> from guts.games.guts.events import CardsShown, Declared, Outcome
>>> deal = [Declared(seat=0, choice="in"), Declared(seat=1, choice="out"),
...         Outcome(text="Ann is alone in and takes the pot (4)", winners=(0,))]
>>> settlements("guts", deal)
['uncontested']
>>> settlements("guts", [Declared(seat=0, choice="in"), Declared(seat=1, choice="in"),
...     CardsShown(seat=0, cards=("As", "Ad"), description=""),
...     CardsShown(seat=1, cards=("Ks", "Kd"), description=""),
...     Outcome(text="...", winners=(0,), payers=(1,))])
['showdown']
"""

from __future__ import annotations

from collections.abc import Iterable

from guts.games.base import Event
from guts.games.bourre.events import HandResult
from guts.games.draw.events import DealEnded as DrawDealEnded
from guts.games.draw.events import Showed
from guts.games.guts.events import CardsShown, Declared, Outcome
from guts.games.session import MovedEvent
from guts.games.staged.events import PointScored

__all__ = ["NOBODY_IN", "OUTCOMES", "SHOWDOWN", "UNCONTESTED", "settlements"]

NOBODY_IN = "nobody-in"
UNCONTESTED = "uncontested"
SHOWDOWN = "showdown"
OUTCOMES = (NOBODY_IN, UNCONTESTED, SHOWDOWN)
"""Every outcome, in the order reports list them."""


def settlements(family: str, events: Iterable[Event]) -> list[str]:
    """The outcome of each settlement among a deal's ``events`` (a game of ``family``)."""
    if family == "draw":
        return _draw(events)
    if family == "bourre":
        return _bourre(events)
    return _declared(events)


def _declared(events: Iterable[Event]) -> list[str]:
    """Guts and the staged games: who declared in since the last settlement, and whose
    hands were shown (the ghost's and the deck's too: their seats are negative)."""
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
            if not isinstance(last, PointScored):  # a leg's pot follows its point
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


def _draw(events: Iterable[Event]) -> list[str]:
    """Draw poker: thrown in (nobody opened), won with fewer than two live hands shown
    (uncontested), or a showdown."""
    found: list[str] = []
    shown: set[int] = set()
    for event in events:
        if isinstance(event, Showed) and event.live:
            shown.add(event.seat)
        elif isinstance(event, DrawDealEnded):
            if event.result == "thrown-in":
                found.append(NOBODY_IN)
            else:
                found.append(SHOWDOWN if len(shown) >= 2 else UNCONTESTED)
            shown = set()
    return found


def _bourre(events: Iterable[Event]) -> list[str]:
    """Bourré: nobody played, one player played alone, or the tricks were played out."""
    found: list[str] = []
    for event in events:
        if isinstance(event, HandResult):
            if len(event.tricks) >= 2:
                found.append(SHOWDOWN)
            else:
                found.append(NOBODY_IN if event.winner is None else UNCONTESTED)
    return found
