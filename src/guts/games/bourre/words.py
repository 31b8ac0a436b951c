"""Bourré's own events in words (:mod:`guts.games.words`): trumps, intents, cards played,
tricks won, reneges, the draw and a reshuffled stock; the shared ones as every declaring
family tells them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from guts.games.declaration.words import SILENT, TELLERS
from guts.games.words import (
    by_kind,
    card_text,
    plural,
    says,
    who_of,
)

__all__ = ["tell"]


def _played(data: dict[str, Any], names: Sequence[str]) -> str:
    return f"{says(data['seat'], names, 'plays')} {card_text([data['card']])}"


def _trick_won(data: dict[str, Any], names: Sequence[str]) -> str:
    return (f"{says(data['seat'], names, 'wins')} trick {data['trick']} "
            f"with {card_text([data['card']])}")  # fmt: skip


def _trump(data: dict[str, Any], names: Sequence[str]) -> str:
    card = card_text([data["card"]])
    return f"Trumps: {data['suit']} ({card} turned up)" if data.get("suit") else f"Trumps: {card}"


def _intent(data: dict[str, Any], names: Sequence[str]) -> str:
    forced = " (must play)" if data.get("forced") else ""
    return f"{who_of(data['seat'], names)}: {data['choice']}{forced}"


def _reneged(data: dict[str, Any], names: Sequence[str]) -> str:
    back = ": the card is taken back" if data.get("retracted") else ""
    reneges = says(data["seat"], names, "reneges")
    return f"{reneges} with {card_text([data['card']])} (the rule: {data['reason']}){back}"


def _pile_shuffled(data: dict[str, Any], names: Sequence[str]) -> str:
    pile = {"folded": "the folded hands", "discards": "the discards"}.get(
        str(data["pile"]), f"the {data['pile']} pile"
    )
    return f"The stock ran out: {pile} ({plural(data['cards'], 'card')}) are shuffled"


def _drew(data: dict[str, Any], names: Sequence[str]) -> str:
    count = data["count"]
    if not count:
        return f"{says(data['seat'], names, 'stands')} pat"
    return f"{says(data['seat'], names, 'draws')} {plural(count, 'card')}"


def _cards_drawn(data: dict[str, Any], names: Sequence[str]) -> str:
    return f"{says(data['seat'], names, 'receives')} {card_text(data['cards'])}"


tell = by_kind({
    **TELLERS,
    "card-played": _played,
    "trick-won": _trick_won,
    "trump-turned": _trump,
    "intent": _intent,
    "reneged": _reneged,
    "pile-shuffled": _pile_shuffled,
    "drew": _drew,
    "cards-drawn": _cards_drawn,
}, SILENT | {"stock-seed", "hand-result"})  # fmt: skip
"""This family's events in words."""
