"""Fan Tan's events in words (:mod:`guts.games.words`): cards played, passes, false passes
found; the shared events (deals, chips, hands shown, the outcome) as every family with a
declaration round tells them, the deal's result left to the outcome line.

>>> from guts.games.fantan.events import CardPlaced, Passed
>>> tell(CardPlaced(seat=1, card="7h", left=12), ["Ann", "Bob"])
'Bob plays 7♥ (12 cards left)'
>>> tell(Passed(seat=0, paid=1), ["You", "Bob"])
'You pass and pay 1 into the pot'
>>> from guts.games.fantan.events import Moved
>>> tell(Moved(source=1, destination="pot", amount=1, reason="ante",
...            note="dealt a card fewer"), ["Ann", "Bob"])
'Bob puts in 1 more (dealt a card fewer)'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from guts.games.declaration.words import SILENT, TELLERS, chips
from guts.games.words import by_kind, card_text, name_of, plural, says
from guts.grammar import agree, who

__all__ = ["tell"]


_TOLD_ELSEWHERE = frozenset({"pass", "cards-left"})
"""Chip reasons another line tells: a pass's chips (the pass itself) and the chips for
cards left (the outcome line)."""


def _moved(data: dict[str, Any], names: Sequence[str]) -> str | None:
    if data["reason"] in _TOLD_ELSEWHERE:
        return ""  # nothing to tell (None would hand the event to the shared words)
    note = str(data.get("note") or "")
    if data["reason"] == "ante" and note.startswith("dealt a card"):  # the extra chip
        return f"{says(data['source'], names, 'puts')} in {data['amount']} more ({note})"
    return chips(data, names)


def _played(data: dict[str, Any], names: Sequence[str]) -> str:
    left = data["left"]
    counted = f"{plural(left, 'card')} left" if left else "going out"
    return f"{says(data['seat'], names, 'plays')} {card_text([data['card']])} ({counted})"


def _passed(data: dict[str, Any], names: Sequence[str]) -> str:
    seat, paid = data["seat"], data["paid"]
    pays = f" and {agree([name_of(seat, names)], 'pays')} {paid} into the pot" if paid else ""
    return f"{says(seat, names, 'passes')}{pays}"


def _false_pass(data: dict[str, Any], names: Sequence[str]) -> str:
    paid_to = list(data.get("paid_to") or ())
    to = who([name_of(s, names) for s in paid_to], start=False) if paid_to else "the pot"
    each = " each" if len(paid_to) > 1 else ""
    passes = data.get("passes", 1)
    times = {1: "", 2: " twice"}.get(passes, f" {passes} times")
    held = f"passed{times} holding {card_text([data['card']])}, which fitted"
    return f"{says(data['seat'], names, 'is')} found out: {held}; {data['fine']}{each} to {to}"


tell = by_kind({
    **TELLERS,
    "moved": _moved,
    "fantan-played": _played,
    "fantan-passed": _passed,
    "fantan-false-pass": _false_pass,
}, SILENT | {"fantan-result"})  # fmt: skip
"""This family's events in words."""
