"""Draw poker events in words, for narration (the terminal table, watch mode, replays).

>>> from guts.games.draw.events import Drew
>>> tell(Drew(seat=1, count=3), ["Ann", "Bob"])
'Bob draws 3 cards'
>>> tell(Drew(seat=0, count=0), ["You", "Bob"])
'You stand pat'
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
from guts.games.words import by_kind, moved, stopped
from guts.grammar import agree, is_you, who

__all__ = ["tell"]


def _cards(codes: Sequence[str]) -> str:
    return format_cards(parse_cards(list(codes))) if codes else "nothing"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def _says(name: str, verb: str) -> str:
    """``name`` starting a line and ``verb`` agreeing with it: "Ann draws", "You draw"."""
    return f"{who([name])} {agree([name], verb)}"


def _deal(e: DealStarted, names: Sequence[str]) -> str:
    dealer = names[e.dealer] if 0 <= e.dealer < len(names) else ""
    words = ["your deal" if is_you(dealer) else f"dealer {dealer}"]
    if e.openers != "any":
        words.append(f"{e.openers} or better to open")
    if not e.antes:
        words.append("no antes")
    return f"— Deal {e.deal}, " + ", ".join(words) + " —"


def _acted(e: Acted, name: str) -> str:
    """A betting action ("Ann checks", "You raise to 6"); "" for a call, told by its chips,
    and for a draw or a declaration, told by their own events."""
    word, _, amount = e.action.partition(" ")
    if word in ("discard", "stand", "declare", "call"):
        return ""
    if word in ("check", "fold"):
        return _says(name, word + "s")
    if word == "bet":
        return f"{_says(name, 'bets')} {amount}"
    if word == "raise":
        return f"{_says(name, 'raises')} to {amount.removeprefix('to ')}"
    return f"{who([name])}: {e.action}"


def _drew(e: Drew, name: str) -> str:
    if not e.count:
        return f"{_says(name, 'stands')} pat"
    shown = f", showing {_cards(e.shown)}" if e.shown else ""
    return f"{_says(name, 'draws')} {_plural(e.count, 'card')}{shown}"


def _openers(e: OpenersShown, name: str) -> str:
    apart = f" and the split {_cards(e.kept_apart)}" if e.kept_apart else ""
    if e.proved:
        return f"{_says(name, 'proves')} openers with {_cards(e.cards)}{apart}"
    return f"{who([name])} cannot prove openers with {_cards(e.cards)}{apart}: a dead hand"


_Teller = Callable[[Any, str], str | None]

_TELLERS: dict[type[Event], _Teller] = {
    Dealt: lambda e, name: f"{_says(name, 'gets')} {_cards(e.cards)}",
    WidowTurned: lambda e, name: f"The widow: {_cards([e.card])}; the rest of its rank are wild",
    BettingStarted: lambda e, name: (
        ("Lowball betting" if e.game == "low" else "Betting") + f" round {e.round + 1}"
    ),
    Acted: _acted,
    Drew: _drew,
    Reshuffled: lambda e, name: f"The stock ran out: {_plural(e.count, 'discard')} reshuffled",
    Offered: lambda e, name: (
        f"{_says(name, 'is')} offered {_cards([e.up])} face up, or a card face down"
    ),
    SplitOpeners: lambda e, name: (
        f"{_says(name, 'splits')} openers, keeping {_plural(e.count, 'card')} apart"
    ),
    OpenersShown: _openers,
    Declared: lambda e, name: f"{_says(name, 'declares')} {e.category.replace('-', ' ')}",
    Showed: lambda e, name: (
        f"{_says(name, 'shows')} {_cards(e.cards)}: {e.description}"
        + ("" if e.live else " (cannot win)")
    ),
    DealEnded: lambda e, name: e.reason[:1].upper() + e.reason[1:],
    SessionEnded: lambda e, name: f"The session is over: {e.reason}",
}

_shared = by_kind({"draw-moved": moved, "draw-stopped": stopped}, {"draw-shuffled"})
"""Chip moves and a stop as every family tells them; the deck's order untold."""


def tell(event: Event, names: Sequence[str]) -> str | None:
    """One line about a draw poker ``event``: "" if another event tells it (or nothing
    does: the deck's order), None if it is not a draw poker event; a seat named "You" is
    told in the second person."""
    if isinstance(event, DealStarted):
        return _deal(event, names)
    teller = _TELLERS.get(type(event))
    if teller is None:
        return _shared(event, names)
    seat = getattr(event, "seat", None)
    name = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""
    return teller(event, name)
