"""The events every declaring family shares, in words (:mod:`guts.games.words`): chips
moved (pots won and losers' payments left to the outcome line that follows), hands dealt
and shown, declarations, the deal's start and end, the outcome and the session's end.

>>> from guts.games.declaration.events import Declared
>>> tell(Declared(seat=1, choice="in"), ["Ann", "Bob"])
'Bob: in'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from guts.games.words import (
    DataTeller,
    by_kind,
    deal_ended,
    deal_started,
    dealt,
    ended,
    moved,
    says,
    shown,
    stopped,
    text,
    who_of,
)

__all__ = ["SILENT", "TELLERS", "chips", "declared", "tell"]

_TOLD_BY_OUTCOME = {"match", "double", "pay-winner", "bourre", "penalty"}
"""Losers' payments, which the outcome line of the declaring families tells (with the pot
won, reasons win and split, unless its note says more: _WIN_NOTES)."""
_WIN_NOTES = {"", "high", "low", "the only player"}


def chips(data: dict[str, Any], names: Sequence[str]) -> str | None:
    """A chip transfer of the Guts, staged and Bourré families: pots won and losers'
    payments are left to the outcome line that follows."""
    reason, note = data["reason"], data.get("note") or ""
    if reason in _TOLD_BY_OUTCOME or (reason in ("win", "split") and note in _WIN_NOTES):
        return None
    return moved(data, names)


def declared(data: dict[str, Any], names: Sequence[str], again: bool = False) -> str:
    notes = [word for word, told in (("again", again), ("automatically", data.get("automatic")))
             if told]  # fmt: skip
    aside = f" ({', '.join(notes)})" if notes else ""
    return f"{who_of(data['seat'], names)}: {data['choice']}{aside}"


def _chose(data: dict[str, Any], names: Sequence[str]) -> str:
    return f"{says(data['seat'], names, 'has')} chosen"


TELLERS: dict[str, DataTeller] = {
    "moved": chips,
    "cards-dealt": dealt,
    "deal-started": deal_started,
    "cards-shown": shown,
    "declared": declared,
    "chose": _chose,
    "stopped": stopped,
    "deal-ended": deal_ended,
    "outcome": text,
    "session-ended": ended,
}
"""The shared events' tellers by kind (a family adds its own)."""

SILENT = frozenset({"shuffled", "acted"})
"""Shared kinds with nothing to tell: the hidden deck order, raw actions told by the
events they cause."""

tell = by_kind(TELLERS, SILENT)
"""The shared events in words."""
