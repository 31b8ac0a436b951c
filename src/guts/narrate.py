"""Events in words, for the terminal table, watch mode and replays.

One function per kind of event that reads better in its own words; any other event is
told from its fields, so a new family's events are always narrated somehow.

>>> from guts.games.guts.events import Declared
>>> narrate(Declared(seat=1, choice="in"), ["Ann", "Bob"])
'Bob: in'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import import_module
from typing import Any

from guts.cards import format_cards, parse_cards
from guts.games.base import Event

__all__ = ["narrate", "second_person"]

Teller = Callable[[dict[str, Any], Sequence[str]], str | None]
_SILENT = {"shuffled", "draw-shuffled", "stock-seed", "acted", "hand-result", "staged-stock"}
"""Kinds with nothing to tell: hidden deck orders, raw actions told by the events they
cause, results told by the outcome line that follows them."""


def _who(seat: object, names: Sequence[str]) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return {-1: "The ghost", -2: "The deck"}.get(seat if isinstance(seat, int) else 0, str(seat))


def _cards(codes: Sequence[str]) -> str:
    try:
        return format_cards(parse_cards(list(codes)))
    except ValueError:
        return " ".join(codes)


def _place(where: object, names: Sequence[str]) -> str:
    if isinstance(where, int):
        return _who(where, names)
    return {"pot": "the pot", "reserve": "the reserve", "bank": "the bank"}.get(
        str(where), str(where)
    )


def _moved(data: dict[str, Any], names: Sequence[str]) -> str:
    source, destination = data["source"], data["destination"]
    reason = data["reason"]
    note = f", {data['note']}" if data.get("note") else ""
    short = f" (short by {data['shortfall']})" if data.get("shortfall") else ""
    if source == "bank":
        return f"{_place(destination, names)} buys in for {data['amount']}{note}"
    return (
        f"{_place(source, names)} → {_place(destination, names)}: "
        f"{data['amount']} ({reason}{note}){short}"
    )


def _dealt(data: dict[str, Any], names: Sequence[str]) -> str:
    up = " face up" if data.get("face_up") else ""
    return f"{_who(data['seat'], names)} is dealt {_cards(data['cards'])}{up}"


def _deal_started(data: dict[str, Any], names: Sequence[str]) -> str:
    return f"— Deal {data.get('deal', '')}, dealer {_who(data.get('dealer'), names)} —"


def _shown(data: dict[str, Any], names: Sequence[str]) -> str:
    words = f": {data['description']}" if data.get("description") else ""
    return f"{_who(data['seat'], names)} shows {_cards(data['cards'])}{words}"


def _acted(data: dict[str, Any], names: Sequence[str]) -> str | None:
    return f"{_who(data['seat'], names)}: {data['action']}"


def _declared(data: dict[str, Any], names: Sequence[str]) -> str:
    automatic = " (automatically)" if data.get("automatic") else ""
    return f"{_who(data['seat'], names)}: {data['choice']}{automatic}"


def _played(data: dict[str, Any], names: Sequence[str]) -> str:
    return f"{_who(data['seat'], names)} plays {_cards([data['card']])}"


def _trick_won(data: dict[str, Any], names: Sequence[str]) -> str:
    return f"{_who(data['seat'], names)} wins trick {data['trick']} with {_cards([data['card']])}"


def _intent(data: dict[str, Any], names: Sequence[str]) -> str:
    forced = " (must play)" if data.get("forced") else ""
    return f"{_who(data['seat'], names)}: {data['choice']}{forced}"


def _drew(data: dict[str, Any], names: Sequence[str]) -> str:
    count = data["count"]
    return f"{_who(data['seat'], names)} draws {count} card{'s' if count != 1 else ''}"


def _cards_drawn(data: dict[str, Any], names: Sequence[str]) -> str:
    return f"{_who(data['seat'], names)} receives {_cards(data['cards'])}"


def _passed(data: dict[str, Any], names: Sequence[str]) -> str:
    giver, taker = _who(data["seat"], names), _who(data["to"], names)
    return f"{giver} passes {_cards([data['card']])} to {taker}"


def _stopped(data: dict[str, Any], names: Sequence[str]) -> str:
    return f"The players stop: {data['reason']}"


def _stage(data: dict[str, Any], names: Sequence[str]) -> str:
    return f"— Stage {data['stage']}: {data['label']} —"


def _point(data: dict[str, Any], names: Sequence[str]) -> str:
    card = f" with {_cards([data['card']])}" if data.get("card") else ""
    return (f"{_who(data['seat'], names)} scores a {data['word']}{card} "
            f"({data['points']} of {data['target']})")


def _mode(data: dict[str, Any], names: Sequence[str]) -> str:
    return f"{_who(data['dealer'], names)} chooses: declare {data['mode']}"


def _target(data: dict[str, Any], names: Sequence[str]) -> str:
    return f"Announced: the first to {data['target']} {data['word']}s takes the pot"


def _last_hand(data: dict[str, Any], names: Sequence[str]) -> str:
    return "Last hand before a reshuffle"


def _trump(data: dict[str, Any], names: Sequence[str]) -> str:
    return f"Trumps: {_cards([data['card']])}"


def _deal_ended(data: dict[str, Any], names: Sequence[str]) -> str:
    extra = [f"{k} {data[k]}" for k in ("reserve", "aside") if data.get(k)]
    tail = (", " + ", ".join(extra)) if extra else ""
    return f"End of deal {data.get('deal', '')}: pot {data.get('pot', 0)}{tail}"


def _text(data: dict[str, Any], names: Sequence[str]) -> str:
    return str(data["text"])


def _ended(data: dict[str, Any], names: Sequence[str]) -> str:
    return f"The session is over: {data['reason']}"


FAMILY_TELLERS = {"draw-": ("guts.games.draw.words", "tell")}
"""Event-kind prefix -> (module, function) of a family's own narrator, asked first."""

_TELLERS: dict[str, Teller] = {
    "moved": _moved,
    "draw-moved": _moved,
    "cards-dealt": _dealt,
    "draw-dealt": _dealt,
    "deal-started": _deal_started,
    "draw-deal-started": _deal_started,
    "cards-shown": _shown,
    "draw-showed": _shown,
    "acted": _acted,
    "draw-acted": _acted,
    "declared": _declared,
    "card-played": _played,
    "trick-won": _trick_won,
    "trump-turned": _trump,
    "intent": _intent,
    "passed": _passed,
    "stopped": _stopped,
    "draw-stopped": _stopped,
    "staged-stage": _stage,
    "staged-point": _point,
    "staged-mode": _mode,
    "staged-last-hand": _last_hand,
    "staged-target": _target,
    "drew": _drew,
    "cards-drawn": _cards_drawn,
    "deal-ended": _deal_ended,
    "draw-deal-ended": _deal_ended,
    "outcome": _text,
    "session-ended": _ended,
    "draw-session-ended": _ended,
}


def _fallback(kind: str, data: dict[str, Any], names: Sequence[str]) -> str:
    parts = []
    for key, value in data.items():
        if key in ("kind", "audience", "seat"):
            continue
        if key == "cards" and isinstance(value, list):
            value = _cards(value)
        elif key == "card" and isinstance(value, str):
            value = _cards([value])
        parts.append(f"{key.replace('_', ' ')} {value}")
    who = f"{_who(data['seat'], names)}: " if "seat" in data else ""
    return f"{who}{kind.replace('-', ' ')}" + (f" ({', '.join(parts)})" if parts else "")


_THIRD_PERSON = {
    "is": "are", "buys": "buy", "deals": "deal", "shows": "show", "plays": "play",
    "wins": "win", "draws": "draw", "receives": "receive", "passes": "pass",
    "scores": "score", "chooses": "choose", "takes": "take", "has": "have",
}  # fmt: skip


def second_person(line: str, name: str = "You") -> str:
    """Put a line about the player called ``name`` ("You") in the second person.

    >>> second_person("You is dealt 2♠ 3♥"), second_person("You wins trick 1")
    ('You are dealt 2♠ 3♥', 'You win trick 1')
    """
    head, _, rest = line.partition(" ")
    verb, _, tail = rest.partition(" ")
    if head != name or verb not in _THIRD_PERSON:
        return line
    return f"{head} {_THIRD_PERSON[verb]}" + (f" {tail}" if tail else "")


def narrate(event: Event, names: Sequence[str]) -> str | None:
    """One line about ``event`` (None for events with nothing to tell, like a shuffle)."""
    data = event.to_dict()
    kind = str(data["kind"])
    if kind in _SILENT:
        return None
    for prefix, (module, function) in FAMILY_TELLERS.items():
        if kind.startswith(prefix):
            line = getattr(import_module(module), function)(event, names)
            if line is not None:
                return str(line)
    teller = _TELLERS.get(kind)
    if teller is None:
        return _fallback(kind, data, names)
    return teller(data, names)
