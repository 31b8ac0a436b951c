"""The staged games' own events in words (:mod:`guts.games.words`): stages, points, the
dealer's mode, the target and the last hand before a reshuffle; the shared ones as every
declaring family tells them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from guts.games.declaration.words import SILENT, TELLERS
from guts.games.words import (
    by_kind,
    card_text,
    says,
)

__all__ = ["tell"]


def _stage(data: dict[str, Any], names: Sequence[str]) -> str | None:
    if data.get("size") == 1:
        return None  # Toh: one card each, nothing staged about it
    return f"— Stage {data['stage']}: {data['label']} —"


def _point(data: dict[str, Any], names: Sequence[str]) -> str:
    card = f" with {card_text([data['card']])}" if data.get("card") else ""
    return (f"{says(data['seat'], names, 'scores')} a {data['word']}{card} "
            f"({data['points']} of {data['target']})")  # fmt: skip


def _mode(data: dict[str, Any], names: Sequence[str]) -> str:
    return f"{says(data['dealer'], names, 'chooses')} {data['mode']} declarations"


def _target(data: dict[str, Any], names: Sequence[str]) -> str:
    return f"Announced: the first to {data['target']} {data['word']}s takes the pot"


def _last_hand(data: dict[str, Any], names: Sequence[str]) -> str:
    return "Last hand before a reshuffle"


tell = by_kind({
    **TELLERS,
    "staged-stage": _stage,
    "staged-point": _point,
    "staged-mode": _mode,
    "staged-last-hand": _last_hand,
    "staged-target": _target,
}, SILENT | {"staged-stock"})  # fmt: skip
"""This family's events in words."""
