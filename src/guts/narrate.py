"""Events in words, for the terminal table, watch mode and replays.

Each family tells its own events (its ``tell``, built from :mod:`guts.games.words`); any
other event is told from its fields, so a new family's events are always narrated somehow. A
:class:`Narrator` tells a whole session in order (Toh's hands, second declarations).

The player at the terminal sits under the name "You", and every sentence agrees with its
subject, wherever it is built (here, or in a family's outcome text): "Ann pays 4", "You
pay 4", "Ann and Bob pay 4 each". :func:`who`, :func:`agree` and :func:`each` are those
rules, shared by the families' sentence builders.

>>> from guts.games.declaration.events import CardsDealt, Declared
>>> narrate(Declared(seat=1, choice="in"), ["Ann", "Bob"])
'Bob: in'
>>> narrate(CardsDealt(seat=0, cards=("As", "Kd")), ["You", "Bob"])
'You are dealt A♠ K♦'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from guts.catalog import FAMILIES
from guts.games.base import Event
from guts.games.declaration.words import declared
from guts.games.words import capital, card_text, deal_ended, deal_started, who_of
from guts.grammar import agree, each, is_you, who

__all__ = ["Narrator", "agree", "as_you", "each", "is_you", "narrate", "second_person", "who"]


def _fallback(kind: str, data: dict[str, Any], names: Sequence[str]) -> str:
    parts = []
    for key, value in data.items():
        if key in ("kind", "audience", "seat"):
            continue
        if key == "cards" and isinstance(value, list):
            value = card_text(value)
        elif key == "card" and isinstance(value, str):
            value = card_text([value])
        parts.append(f"{key.replace('_', ' ')} {value}")
    who_ = f"{who_of(data['seat'], names)}: " if "seat" in data else ""
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


def _starts_sentence(line: str, at: int) -> bool:
    """Whether the word at ``at`` of ``line`` begins a sentence (the line's first, or
    the first after a full stop, a question or an exclamation mark)."""
    before = line[:at].rstrip()
    return not before or before[-1] in ".!?"


def as_you(line: str, name: str) -> str:
    """``line`` (built by a family with the players' own names, like an outcome) told to
    the player called ``name``: their name as "You" (or "you", "your"), its verbs agreeing.

    >>> as_you("Ann is alone in and takes the pot (2)", "Ann")
    'You are alone in and take the pot (2)'
    >>> as_you("Bob beats Ann's pair; Anna wins", "Ann")
    'Bob beats your pair; Anna wins'
    >>> as_you("Bob takes the pot (2); Ann pays 2 into the pot.", "Ann")
    'Bob takes the pot (2); you pay 2 into the pot.'
    >>> as_you("Cat has the best hand. Ann pays 5", "Ann")
    'Cat has the best hand. You pay 5'
    """
    if not name or is_you(name):
        return line
    pattern = re.compile(rf"(?<![\w']){re.escape(name)}('s)?(?![\w])")

    def you(found: re.Match[str]) -> str:
        word = "your" if found.group(1) else "you"
        return capital(word) if _starts_sentence(line, found.start()) else word

    told = re.sub(r"\b([Yy]ou) (\w+)",
                  lambda m: f"{m[1]} {agree(['You'], m[2]) if m[2] in _VERBS else m[2]}",
                  pattern.sub(you, line))  # fmt: skip
    if told.startswith("You "):
        told = re.sub(r"\band (\w+)",
                      lambda m: "and " + (agree(["You"], m[1]) if m[1] in _VERBS else m[1]),
                      told, count=1)  # fmt: skip
    return told


def narrate(event: Event, names: Sequence[str], family: str | None = None) -> str | None:
    """One line about ``event`` (None for events with nothing to tell, like a shuffle),
    told by the family whose event it is (``family``, when known, asked first: events
    several families share are told the way each tells them), any other from its
    fields; a seat named "You" is told in the second person."""
    first = FAMILIES.get(family) if family is not None else None
    for teller in ([first] if first is not None else []) + list(FAMILIES.values()):
        line = teller.tell(event, names)
        if line is not None:
            return line or None  # "": the family's own event, with nothing to tell
    data = event.to_dict()
    return _fallback(str(data["kind"]), data, names)


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

    def __init__(self, names: Sequence[str], family: str | None = None) -> None:
        self.names = list(names)
        self.family = family  # the session's family, whose words come first
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
            line = deal_started(data, self.names, self.deal_word)
        elif kind == "declared":
            line = declared(data, self.names, again=data.get("round", 1) != self.round)
        elif kind == "deal-ended":
            line = deal_ended(data, self.names, self.deal_word)
        elif kind.endswith("session-ended") and self._told(str(data["reason"])):
            line = "The session is over."
        else:
            line = narrate(event, self.names, self.family)
        if line is not None:
            self.last = line
        return line

    def _told(self, reason: str) -> bool:
        """True if the line just told says ``reason`` already."""
        last = (self.last or "").rstrip(".").casefold()
        return bool(last) and last == reason.rstrip(".").casefold()
