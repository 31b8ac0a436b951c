"""Events in words, for the terminal table, watch mode and replays.

One function per kind of event that reads better in its own words; any other event is
told from its fields, so a new family's events are always narrated somehow. A
:class:`Narrator` tells a whole session in order (Toh's hands, second declarations).

The player at the terminal sits under the name "You", and every sentence agrees with its
subject, wherever it is built (here, or in a family's outcome text): "Ann pays 4", "You
pay 4", "Ann and Bob pay 4 each". :func:`who`, :func:`agree` and :func:`each` are those
rules, shared by the families' sentence builders.

>>> from guts.games.guts.events import Declared
>>> narrate(Declared(seat=1, choice="in"), ["Ann", "Bob"])
'Bob: in'
>>> from guts.games.guts.events import CardsDealt
>>> narrate(CardsDealt(seat=0, cards=("As", "Kd")), ["You", "Bob"])
'You are dealt A♠ K♦'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from importlib import import_module
from typing import Any

from guts.cards import Rank, format_cards, parse_cards
from guts.games.base import Event
from guts.grammar import agree, each, is_you, who

__all__ = ["Narrator", "agree", "as_you", "each", "is_you", "narrate", "second_person", "who"]

Teller = Callable[[dict[str, Any], Sequence[str]], str | None]
_SILENT = {"shuffled", "draw-shuffled", "stock-seed", "acted", "hand-result", "staged-stock"}
"""Kinds with nothing to tell: hidden deck orders, raw actions told by the events they
cause, results told by the outcome line that follows them."""

def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _name(seat: object, names: Sequence[str]) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return {-1: "the ghost", -2: "the deck"}.get(seat if isinstance(seat, int) else 0, str(seat))


def _who(seat: object, names: Sequence[str], *, start: bool = True) -> str:
    name = who([_name(seat, names)], start=start)
    return _capital(name) if start else name


def _says(seat: object, names: Sequence[str], verb: str) -> str:
    """The seat (capitalized: it starts the line) and ``verb`` agreeing with it."""
    return f"{_who(seat, names)} {agree([_name(seat, names)], verb)}"


def _your(seat: object, names: Sequence[str]) -> str:
    return "your" if is_you(_name(seat, names)) else "the"


# -- tellers ----------------------------------------------------------------------------------


def _cards(codes: Sequence[str]) -> str:
    try:
        return format_cards(parse_cards(list(codes)))
    except ValueError:
        return " ".join(codes)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


_TOLD_BY_OUTCOME = {"match", "double", "pay-winner", "bourre", "penalty"}
"""Losers' payments, which the outcome line of the Guts, staged and Bourré families tells
(with the pot won, reasons win and split, unless its note says more: _WIN_NOTES)."""
_WIN_NOTES = {"", "high", "low", "the only player"}

_PLACES = {"pot": "the pot", "reserve": "the reserve", "bank": "the bank", "bets": "the bets",
           "aside": "the chips set aside"}  # fmt: skip
_REASONS = {"bourre": "bourré", "pay-winner": "paying the winner"}


def _place(where: object, names: Sequence[str]) -> str:
    if isinstance(where, int):
        return _who(where, names, start=False)
    return _PLACES.get(str(where), f"the {where}")


def _moved(data: dict[str, Any], names: Sequence[str]) -> str | None:
    """A chip transfer as a sentence ("Ann antes 1", "You pay 3 to Ann", "Bob calls 2");
    any other as a ledger line ("The pot → the reserve: 3 (to-reserve)")."""
    source, destination, amount = data["source"], data["destination"], data["amount"]
    reason, note = str(data["reason"]), str(data.get("note") or "")
    noted = f" ({note})" if note else ""
    short = f" (short by {data['shortfall']})" if data.get("shortfall") else ""
    if source == "bank":
        return f"{_says(destination, names, 'buys')} in for {amount}{noted}"
    if isinstance(source, int):
        line = _paid(source, destination, amount, reason, note, names)
        if line is None and short:
            line = f"{_says(source, names, 'puts')} {amount} in"
        return None if line is None else line + short
    if isinstance(destination, int) and reason in ("win", "split"):
        return f"{_says(destination, names, 'collects')} {amount}{noted}"
    if isinstance(destination, int) and reason == "refund":
        return f"{_says(destination, names, 'gets')} {amount} back{noted}"
    if source == "bets" and destination == "pot":
        return f"The bets go into the pot ({amount})"
    why = _REASONS.get(reason, reason) + (f", {note}" if note else "")
    return f"{_capital(_place(source, names))} → {_place(destination, names)}: {amount} ({why})"


def _paid(
    seat: int, destination: object, amount: int, reason: str, note: str, names: Sequence[str]
) -> str | None:
    """What ``seat`` puts in (None for a bet or raise: the action itself tells it)."""
    noted = f" ({note})" if note else ""
    if destination == "pot" and reason == "ante" and note == "seed":
        return f"{_says(seat, names, 'seeds')} the pot with {amount}"
    if destination == "pot" and reason == "ante":
        return f"{_says(seat, names, 'antes')} {amount}{noted}"
    if destination == "pot" and reason in ("match", "double"):
        verb = "matches" if reason == "match" else "doubles"
        return f"{_says(seat, names, verb)} the pot ({amount}{', ' + note if note else ''})"
    if isinstance(destination, int):
        return f"{_says(seat, names, 'pays')} {amount} to {_who(destination, names, start=False)}"
    if destination == "bets" and reason == "call":
        return f"{_says(seat, names, 'calls')} {amount}"
    if destination == "bets" and reason == "blind":
        what = f"the {note}" if note.endswith("blind") else "a blind"
        return f"{_says(seat, names, 'posts')} {what} ({amount})"
    if destination == "bets" and reason in ("bet", "raise"):
        return None
    why = _REASONS.get(reason, reason) + (f", {note}" if note else "")
    return f"{_says(seat, names, 'pays')} {amount} into {_place(destination, names)} ({why})"


def _chips(data: dict[str, Any], names: Sequence[str]) -> str | None:
    """A chip transfer of the Guts, staged and Bourré families: pots won and losers'
    payments are left to the outcome line that follows."""
    reason, note = data["reason"], data.get("note") or ""
    if reason in _TOLD_BY_OUTCOME or (reason in ("win", "split") and note in _WIN_NOTES):
        return None
    return _moved(data, names)


def _dealt(data: dict[str, Any], names: Sequence[str]) -> str:
    up = " face up" if data.get("face_up") else ""
    return f"{_says(data['seat'], names, 'is')} dealt {_cards(data['cards'])}{up}"


def _deal_started(data: dict[str, Any], names: Sequence[str], word: str = "deal") -> str:
    dealer = data.get("dealer")
    deals = "your deal" if is_you(_name(dealer, names)) else f"dealer {_who(dealer, names)}"
    return f"— {_capital(word)} {data.get('deal', '')}, {deals} —"


def _shown(data: dict[str, Any], names: Sequence[str]) -> str:
    words = f": {data['description']}" if data.get("description") else ""
    return f"{_says(data['seat'], names, 'shows')} {_cards(data['cards'])}{words}"


def _declared(data: dict[str, Any], names: Sequence[str], again: bool = False) -> str:
    notes = [word for word, told in (("again", again), ("automatically", data.get("automatic")))
             if told]  # fmt: skip
    aside = f" ({', '.join(notes)})" if notes else ""
    return f"{_who(data['seat'], names)}: {data['choice']}{aside}"


def _chose(data: dict[str, Any], names: Sequence[str]) -> str:
    return f"{_says(data['seat'], names, 'has')} chosen"


def _looked(data: dict[str, Any], names: Sequence[str]) -> str:
    seat = data["seat"]
    return f"{_says(seat, names, 'looks')} at {_your(seat, names)} cards: {_cards(data['cards'])}"


def _ghost_dealt(data: dict[str, Any], names: Sequence[str]) -> str:
    return f"The ghost is dealt {_plural(data['count'], 'card')} face down"


def _community(data: dict[str, Any], names: Sequence[str]) -> str:
    cards = data["cards"]
    return f"Community card{'s' if len(cards) != 1 else ''}: {_cards(cards)}"


def _wild_ranks(data: dict[str, Any], names: Sequence[str]) -> str:
    ranks = [Rank(r).plural for r in data["ranks"]]
    wild = _capital(who(ranks)) + " are wild"
    forced = [_name(s, names) for s in data.get("forced_in", ())]
    if not forced:
        return wild
    return f"{wild}: {who(forced, start=False)} {agree(forced, 'holds')} one and must stay in"


def _played(data: dict[str, Any], names: Sequence[str]) -> str:
    return f"{_says(data['seat'], names, 'plays')} {_cards([data['card']])}"


def _trick_won(data: dict[str, Any], names: Sequence[str]) -> str:
    return (f"{_says(data['seat'], names, 'wins')} trick {data['trick']} "
            f"with {_cards([data['card']])}")  # fmt: skip


def _intent(data: dict[str, Any], names: Sequence[str]) -> str:
    forced = " (must play)" if data.get("forced") else ""
    return f"{_who(data['seat'], names)}: {data['choice']}{forced}"


def _reneged(data: dict[str, Any], names: Sequence[str]) -> str:
    back = ": the card is taken back" if data.get("retracted") else ""
    reneges = _says(data["seat"], names, "reneges")
    return f"{reneges} with {_cards([data['card']])} (the rule: {data['reason']}){back}"


def _pile_shuffled(data: dict[str, Any], names: Sequence[str]) -> str:
    pile = {"folded": "the folded hands", "discards": "the discards"}.get(
        str(data["pile"]), f"the {data['pile']} pile"
    )
    return f"The stock ran out: {pile} ({_plural(data['cards'], 'card')}) are shuffled"


def _drew(data: dict[str, Any], names: Sequence[str]) -> str:
    count = data["count"]
    if not count:
        return f"{_says(data['seat'], names, 'stands')} pat"
    return f"{_says(data['seat'], names, 'draws')} {_plural(count, 'card')}"


def _cards_drawn(data: dict[str, Any], names: Sequence[str]) -> str:
    return f"{_says(data['seat'], names, 'receives')} {_cards(data['cards'])}"


def _passed(data: dict[str, Any], names: Sequence[str]) -> str:
    taker = _who(data["to"], names, start=False)
    return f"{_says(data['seat'], names, 'passes')} {_cards([data['card']])} to {taker}"


def _stopped(data: dict[str, Any], names: Sequence[str]) -> str:
    return f"The players stop: {data['reason']}"


def _stage(data: dict[str, Any], names: Sequence[str]) -> str | None:
    if data.get("size") == 1:
        return None  # Toh: one card each, nothing staged about it
    return f"— Stage {data['stage']}: {data['label']} —"


def _point(data: dict[str, Any], names: Sequence[str]) -> str:
    card = f" with {_cards([data['card']])}" if data.get("card") else ""
    return (f"{_says(data['seat'], names, 'scores')} a {data['word']}{card} "
            f"({data['points']} of {data['target']})")  # fmt: skip


def _mode(data: dict[str, Any], names: Sequence[str]) -> str:
    return f"{_says(data['dealer'], names, 'chooses')} {data['mode']} declarations"


def _target(data: dict[str, Any], names: Sequence[str]) -> str:
    return f"Announced: the first to {data['target']} {data['word']}s takes the pot"


def _last_hand(data: dict[str, Any], names: Sequence[str]) -> str:
    return "Last hand before a reshuffle"


def _trump(data: dict[str, Any], names: Sequence[str]) -> str:
    card = _cards([data["card"]])
    return f"Trumps: {data['suit']} ({card} turned up)" if data.get("suit") else f"Trumps: {card}"


def _deal_ended(data: dict[str, Any], names: Sequence[str], word: str = "deal") -> str:
    extra = [f"{k} {data[k]}" for k in ("reserve", "aside") if data.get(k)]
    tail = (", " + ", ".join(extra)) if extra else ""
    return f"End of {word} {data.get('deal', '')}: pot {data.get('pot', 0)}{tail}"


def _text(data: dict[str, Any], names: Sequence[str]) -> str:
    return str(data["text"])


def _ended(data: dict[str, Any], names: Sequence[str]) -> str:
    return f"The session is over: {data['reason']}"


FAMILY_TELLERS = {"draw-": ("guts.games.draw.words", "tell")}
"""Event-kind prefix -> (module, function) of a family's own narrator, asked first."""

_TELLERS: dict[str, Teller] = {
    "moved": _chips,
    "draw-moved": _moved,
    "cards-dealt": _dealt,
    "draw-dealt": _dealt,
    "deal-started": _deal_started,
    "draw-deal-started": _deal_started,
    "cards-shown": _shown,
    "draw-showed": _shown,
    "declared": _declared,
    "chose": _chose,
    "looked": _looked,
    "ghost-dealt": _ghost_dealt,
    "community-dealt": _community,
    "wild-ranks": _wild_ranks,
    "card-played": _played,
    "trick-won": _trick_won,
    "trump-turned": _trump,
    "intent": _intent,
    "reneged": _reneged,
    "pile-shuffled": _pile_shuffled,
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
    who_ = f"{_who(data['seat'], names)}: " if "seat" in data else ""
    return f"{who_}{kind.replace('-', ' ')}" + (f" ({', '.join(parts)})" if parts else "")


_THIRD_PERSON = {
    "is": "are", "buys": "buy", "deals": "deal", "shows": "show", "plays": "play",
    "wins": "win", "draws": "draw", "receives": "receive", "passes": "pass",
    "scores": "score", "chooses": "choose", "takes": "take", "has": "have",
}  # fmt: skip


def second_person(line: str, name: str = "You") -> str:
    """Put an old-style line about the player called ``name`` ("You") in the second
    person; :func:`narrate` already writes agreeing lines, which this leaves alone.

    >>> second_person("You is dealt 2♠ 3♥"), second_person("You are dealt 2♠ 3♥")
    ('You are dealt 2♠ 3♥', 'You are dealt 2♠ 3♥')
    """
    head, _, rest = line.partition(" ")
    verb, _, tail = rest.partition(" ")
    if head != name or verb not in _THIRD_PERSON:
        return line
    return f"{head} {_THIRD_PERSON[verb]}" + (f" {tail}" if tail else "")


_VERBS = frozenset(_THIRD_PERSON) | {
    "antes", "beats", "bets", "calls", "checks", "collects", "doubles", "folds", "gets",
    "goes", "keeps", "loses", "matches", "pays", "puts", "qualifies", "raises", "splits",
    "stands", "ties", "wins",
}  # fmt: skip
"""Verbs a line built with a player's name may put after it (in the third person)."""


def as_you(line: str, name: str) -> str:
    """``line`` (built by a family with the players' own names, like an outcome) told to
    the player called ``name``: their name as "You" (or "you", "your"), its verbs agreeing.

    >>> as_you("Ann is alone in and takes the pot (2)", "Ann")
    'You are alone in and take the pot (2)'
    >>> as_you("Bob beats Ann's pair; Anna wins", "Ann")
    'Bob beats your pair; Anna wins'
    >>> as_you("Bob takes the pot (2); Ann pays 2 into the pot.", "Ann")
    'Bob takes the pot (2); you pay 2 into the pot.'
    """
    if not name or is_you(name):
        return line
    pattern = re.compile(rf"(?<![\w']){re.escape(name)}('s)?(?![\w])")

    def you(found: re.Match[str]) -> str:
        word = "your" if found.group(1) else "you"
        return _capital(word) if found.start() == 0 else word

    told = re.sub(r"\b([Yy]ou) (\w+)",
                  lambda m: f"{m[1]} {agree(['You'], m[2]) if m[2] in _VERBS else m[2]}",
                  pattern.sub(you, line))  # fmt: skip
    if told.startswith("You "):
        told = re.sub(r"\band (\w+)",
                      lambda m: "and " + (agree(["You"], m[1]) if m[1] in _VERBS else m[1]),
                      told, count=1)  # fmt: skip
    return told


def narrate(event: Event, names: Sequence[str]) -> str | None:
    """One line about ``event`` (None for events with nothing to tell, like a shuffle);
    a seat named "You" is told in the second person."""
    data = event.to_dict()
    kind = str(data["kind"])
    if kind in _SILENT:
        return None
    for prefix, (module, function) in FAMILY_TELLERS.items():
        if kind.startswith(prefix):
            line = getattr(import_module(module), function)(event, names)
            if line is not None:
                return str(line) or None  # "": the family's own event, told by another
    teller = _TELLERS.get(kind)
    if teller is None:
        return _fallback(kind, data, names)
    return teller(data, names)


class Narrator:
    """Tells one session's events in order, with what only the story so far shows: Toh,
    a game of one-card hands scored in points, calls its deals hands; a second
    declaration of the same deal or stage (Toh's second chance, a declaration with more
    cards) says "again"; the end of the session is not told twice in a row.

    >>> from guts.games.staged.events import DealStarted, TargetAnnounced
    >>> narrator = Narrator(["Ann", "You"])
    >>> narrator.tell(TargetAnnounced(target=5, word="point"))
    'Announced: the first to 5 points takes the pot'
    >>> narrator.tell(DealStarted(deal=1, dealer=1, seats=(0, 1)))
    '— Hand 1, your deal —'
    """

    def __init__(self, names: Sequence[str]) -> None:
        self.names = list(names)
        self.deal_word = "deal"
        self.round = 1  # the declaration round of this deal or stage: the stage's number
        self.last: str | None = None

    def tell(self, event: Event) -> str | None:
        """The line for ``event`` (None: nothing to tell)."""
        data = event.to_dict()
        kind = data["kind"]
        if (kind == "staged-target" and data.get("word") == "point") or (
            kind == "staged-stage" and data.get("size") == 1
        ):
            self.deal_word = "hand"
        if kind == "deal-started":
            self.round = 1
        elif kind == "staged-stage":
            self.round = int(data["stage"])
        line: str | None
        if kind == "deal-started":
            line = _deal_started(data, self.names, self.deal_word)
        elif kind == "declared":
            line = _declared(data, self.names, again=data.get("round", 1) != self.round)
        elif kind == "deal-ended":
            line = _deal_ended(data, self.names, self.deal_word)
        elif kind.endswith("session-ended") and self._told(str(data["reason"])):
            line = "The session is over."
        else:
            line = narrate(event, self.names)
        if line is not None:
            self.last = line
        return line

    def _told(self, reason: str) -> bool:
        """True if the line just told says ``reason`` already."""
        last = (self.last or "").rstrip(".").casefold()
        return bool(last) and last == reason.rstrip(".").casefold()
