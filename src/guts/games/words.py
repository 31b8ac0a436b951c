"""The sentences every family's narration is built from: seats by name (a seat named
"You" in the second person, every verb agreeing), cards by their symbols, chip transfers
as sentences, and the events that several families share (a deal starting and ending, a
hand dealt or shown, the players stopping, the session's end).

A family tells its own events in its package's ``words`` module with these pieces
(:data:`~guts.games.family.Teller`); :mod:`guts.narrate` asks each family in turn.

>>> says(0, ["You", "Bob"], "is")
'You are'
>>> moved({"source": 1, "destination": "pot", "amount": 2, "reason": "ante"}, ["Ann", "Bob"])
'Bob antes 2'
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from guts.cards import format_cards, parse_cards
from guts.games.base import Event
from guts.grammar import agree, is_you, who

__all__ = [
    "DataTeller",
    "by_kind",
    "capital",
    "card_text",
    "deal_ended",
    "deal_started",
    "dealt",
    "ended",
    "moved",
    "name_of",
    "place",
    "plural",
    "says",
    "shown",
    "stopped",
    "text",
    "who_of",
    "your",
]

DataTeller = Callable[[dict[str, Any], Sequence[str]], "str | None"]
"""One line about an event given as its dict (None: nothing to tell)."""


def by_kind(
    tellers: Mapping[str, DataTeller], silent: Collection[str] = ()
) -> Callable[[Event, Sequence[str]], str | None]:
    """A family's teller from its tellers by event kind and its ``silent`` kinds (hidden
    deck orders, raw actions told by the events they cause): "" for a silent kind or an
    event its teller leaves untold, None for a kind it does not know."""

    def tell(event: Event, names: Sequence[str]) -> str | None:
        kind = event.kind
        if kind in silent:
            return ""
        teller = tellers.get(kind)
        if teller is None:
            return None
        return teller(event.to_dict(), names) or ""

    return tell


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def name_of(seat: object, names: Sequence[str]) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return {-1: "the ghost", -2: "the deck"}.get(seat if isinstance(seat, int) else 0, str(seat))


def who_of(seat: object, names: Sequence[str], *, start: bool = True) -> str:
    name = who([name_of(seat, names)], start=start)
    return capital(name) if start else name


def says(seat: object, names: Sequence[str], verb: str) -> str:
    """The seat (capitalized: it starts the line) and ``verb`` agreeing with it."""
    return f"{who_of(seat, names)} {agree([name_of(seat, names)], verb)}"


def your(seat: object, names: Sequence[str]) -> str:
    return "your" if is_you(name_of(seat, names)) else "the"


def card_text(codes: Sequence[str]) -> str:
    try:
        return format_cards(parse_cards(list(codes)))
    except ValueError:
        return " ".join(codes)


def plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


_PLACES = {"pot": "the pot", "reserve": "the reserve", "bank": "the bank", "bets": "the bets",
           "aside": "the chips set aside"}  # fmt: skip
_REASONS = {"bourre": "bourré", "pay-winner": "paying the winner"}


def place(where: object, names: Sequence[str]) -> str:
    if isinstance(where, int):
        return who_of(where, names, start=False)
    return _PLACES.get(str(where), f"the {where}")


def moved(data: dict[str, Any], names: Sequence[str]) -> str | None:
    """A chip transfer as a sentence ("Ann antes 1", "You pay 3 to Ann", "Bob calls 2");
    any other as a ledger line ("The pot → the reserve: 3 (to-reserve)")."""
    source, destination, amount = data["source"], data["destination"], data["amount"]
    reason, note = str(data["reason"]), str(data.get("note") or "")
    noted = f" ({note})" if note else ""
    short = f" (short by {data['shortfall']})" if data.get("shortfall") else ""
    if source == "bank":
        return f"{says(destination, names, 'buys')} in for {amount}{noted}"
    if isinstance(source, int):
        line = _paid(source, destination, amount, reason, note, names)
        if line is None and short:
            line = f"{says(source, names, 'puts')} {amount} in"
        return None if line is None else line + short
    if isinstance(destination, int) and reason in ("win", "split"):
        return f"{says(destination, names, 'collects')} {amount}{noted}"
    if isinstance(destination, int) and reason == "refund":
        return f"{says(destination, names, 'gets')} {amount} back{noted}"
    if source == "bets" and destination == "pot":
        return f"The bets go into the pot ({amount})"
    why = _REASONS.get(reason, reason) + (f", {note}" if note else "")
    return f"{capital(place(source, names))} → {place(destination, names)}: {amount} ({why})"


def _paid(
    seat: int, destination: object, amount: int, reason: str, note: str, names: Sequence[str]
) -> str | None:
    """What ``seat`` puts in (None for a bet or raise: the action itself tells it)."""
    noted = f" ({note})" if note else ""
    if destination == "pot" and reason == "ante" and note == "seed":
        return f"{says(seat, names, 'seeds')} the pot with {amount}"
    if destination == "pot" and reason == "ante":
        return f"{says(seat, names, 'antes')} {amount}{noted}"
    if destination == "pot" and reason in ("match", "double"):
        verb = "matches" if reason == "match" else "doubles"
        return f"{says(seat, names, verb)} the pot ({amount}{', ' + note if note else ''})"
    if isinstance(destination, int):
        return f"{says(seat, names, 'pays')} {amount} to {who_of(destination, names, start=False)}"
    if destination == "bets" and reason == "call":
        return f"{says(seat, names, 'calls')} {amount}"
    if destination == "bets" and reason == "blind":
        what = f"the {note}" if note.endswith("blind") else "a blind"
        return f"{says(seat, names, 'posts')} {what} ({amount})"
    if destination == "bets" and reason in ("bet", "raise"):
        return None
    why = _REASONS.get(reason, reason) + (f", {note}" if note else "")
    return f"{says(seat, names, 'pays')} {amount} into {place(destination, names)} ({why})"


def dealt(data: dict[str, Any], names: Sequence[str]) -> str:
    up = " face up" if data.get("face_up") else ""
    return f"{says(data['seat'], names, 'is')} dealt {card_text(data['cards'])}{up}"


def deal_started(data: dict[str, Any], names: Sequence[str], word: str = "deal") -> str:
    dealer = data.get("dealer")
    deals = "your deal" if is_you(name_of(dealer, names)) else f"dealer {who_of(dealer, names)}"
    return f"— {capital(word)} {data.get('deal', '')}, {deals} —"


def shown(data: dict[str, Any], names: Sequence[str]) -> str:
    words = f": {data['description']}" if data.get("description") else ""
    return f"{says(data['seat'], names, 'shows')} {card_text(data['cards'])}{words}"


def stopped(data: dict[str, Any], names: Sequence[str]) -> str:
    return f"The players stop: {data['reason']}"


def deal_ended(data: dict[str, Any], names: Sequence[str], word: str = "deal") -> str:
    extra = [f"{k} {data[k]}" for k in ("reserve", "aside") if data.get(k)]
    tail = (", " + ", ".join(extra)) if extra else ""
    return f"End of {word} {data.get('deal', '')}: pot {data.get('pot', 0)}{tail}"


def text(data: dict[str, Any], names: Sequence[str]) -> str:
    return str(data["text"])


def ended(data: dict[str, Any], names: Sequence[str]) -> str:
    return f"The session is over: {data['reason']}"
