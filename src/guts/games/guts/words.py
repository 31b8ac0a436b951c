"""Guts' own events in words (:mod:`guts.games.words`): a No Peek look, the ghost's hand,
community cards, wild ranks and passed cards; the shared ones as every declaring family
tells them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from guts.cards import Rank
from guts.games.declaration.words import SILENT, TELLERS
from guts.games.words import (
    by_kind,
    capital,
    card_text,
    name_of,
    plural,
    says,
    who_of,
    your,
)
from guts.grammar import agree, who

__all__ = ["tell"]


def _looked(data: dict[str, Any], names: Sequence[str]) -> str:
    seat = data["seat"]
    return f"{says(seat, names, 'looks')} at {your(seat, names)} cards: {card_text(data['cards'])}"


def _ghost_dealt(data: dict[str, Any], names: Sequence[str]) -> str:
    return f"The ghost is dealt {plural(data['count'], 'card')} face down"


def _community(data: dict[str, Any], names: Sequence[str]) -> str:
    cards = data["cards"]
    return f"Community card{'s' if len(cards) != 1 else ''}: {card_text(cards)}"


def _wild_ranks(data: dict[str, Any], names: Sequence[str]) -> str:
    ranks = [Rank(r).plural for r in data["ranks"]]
    wild = capital(who(ranks)) + " are wild"
    forced = [name_of(s, names) for s in data.get("forced_in", ())]
    if not forced:
        return wild
    return f"{wild}: {who(forced, start=False)} {agree(forced, 'holds')} one and must stay in"


def _passed(data: dict[str, Any], names: Sequence[str]) -> str:
    taker = who_of(data["to"], names, start=False)
    return f"{says(data['seat'], names, 'passes')} {card_text([data['card']])} to {taker}"


tell = by_kind({
    **TELLERS,
    "looked": _looked,
    "ghost-dealt": _ghost_dealt,
    "community-dealt": _community,
    "wild-ranks": _wild_ranks,
    "passed": _passed,
}, SILENT)  # fmt: skip
"""This family's events in words."""
