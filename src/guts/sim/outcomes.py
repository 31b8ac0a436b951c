"""What each deal came to, read from its events: the outcomes a simulation counts
(:mod:`guts.games.outcomes`: nobody in, uncontested, a showdown), each family reading its
own events (``Family.settlements``).

>>> from guts.games.declaration.events import CardsShown, Declared, Outcome
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

from guts.catalog import family_of
from guts.games.base import Event
from guts.games.outcomes import NOBODY_IN, OUTCOMES, SHOWDOWN, UNCONTESTED

__all__ = ["NOBODY_IN", "OUTCOMES", "SHOWDOWN", "UNCONTESTED", "settlements"]


def settlements(family: str, events: Iterable[Event]) -> list[str]:
    """The outcome of each settlement among a deal's ``events`` (a game of ``family``)."""
    return family_of(family).settlements(events)
