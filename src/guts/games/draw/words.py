"""Draw poker events in words, for narration (the terminal table, watch mode, replays).

>>> from guts.games.draw.events import Drew
>>> tell(Drew(seat=1, count=3), ["Ann", "Bob"])
'Bob draws 3 cards'
>>> tell(Drew(seat=0, count=0), ["Ann", "Bob"])
'Ann stands pat'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from guts.cards import format_cards, parse_cards
from guts.games.base import Event
from guts.games.draw.events import (
    Acted,
    BettingStarted,
    DealEnded,
    DealStarted,
    Dealt,
    Declared,
    Drew,
    Offered,
    OpenersShown,
    Reshuffled,
    SessionEnded,
    Showed,
    SplitOpeners,
    WidowTurned,
)

__all__ = ["tell"]


def _cards(codes: Sequence[str]) -> str:
    return format_cards(parse_cards(list(codes))) if codes else "nothing"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def _drew(e: Drew, who: str) -> str:
    if not e.count:
        return f"{who} stands pat"
    shown = f", showing {_cards(e.shown)}" if e.shown else ""
    return f"{who} draws {_plural(e.count, 'card')}{shown}"


def _openers(e: OpenersShown, who: str) -> str:
    apart = f" and the split {_cards(e.kept_apart)}" if e.kept_apart else ""
    verdict = "proves openers" if e.proved else "cannot prove openers: a dead hand"
    return f"{who} {verdict} with {_cards(e.cards)}{apart}"


_Teller = Callable[[Any, str], str | None]

_TELLERS: dict[type[Event], _Teller] = {
    DealStarted: lambda e, who: (
        f"Deal {e.deal}"
        + ("" if e.openers == "any" else f", {e.openers} or better to open")
        + ("" if e.antes else ", no antes")
    ),
    Dealt: lambda e, who: f"{who} gets {_cards(e.cards)}",
    WidowTurned: lambda e, who: f"The widow: {_cards([e.card])}; the rest of its rank are wild",
    BettingStarted: lambda e, who: (
        ("Lowball betting" if e.game == "low" else "Betting") + f" round {e.round + 1}"
    ),
    Acted: lambda e, who: (
        None if e.action.startswith(("discard", "stand")) else f"{who}: {e.action}"
    ),
    Drew: _drew,
    Reshuffled: lambda e, who: f"The stock ran out: {_plural(e.count, 'discard')} reshuffled",
    Offered: lambda e, who: f"{who} is offered {_cards([e.up])} face up, or a card face down",
    SplitOpeners: lambda e, who: f"{who} splits openers, keeping {_plural(e.count, 'card')} apart",
    OpenersShown: _openers,
    Declared: lambda e, who: f"{who} declares {e.category.replace('-', ' ')}",
    Showed: lambda e, who: (
        f"{who} shows {_cards(e.cards)}: {e.description}" + ("" if e.live else " (cannot win)")
    ),
    DealEnded: lambda e, who: e.reason[:1].upper() + e.reason[1:],
    SessionEnded: lambda e, who: f"The session is over: {e.reason}",
}


def tell(event: Event, names: Sequence[str]) -> str | None:
    """One line about a draw poker ``event`` (None if it has nothing to tell, or is not one
    of this family's story events: deck orders, chip moves)."""
    teller = _TELLERS.get(type(event))
    if teller is None:
        return None
    seat = getattr(event, "seat", None)
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""
    return teller(event, who)
