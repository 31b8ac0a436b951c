"""Bourré as a family (:mod:`guts.games.family`): its presets (:data:`PRESETS`, in
:mod:`~guts.games.bourre.rules`), sessions, bots, words and outcomes.

>>> FAMILY.title_of("bourre-dealer-antes")
('Dealer antes', 'bourre')
"""

from __future__ import annotations

from collections.abc import Iterable

from guts.games.base import Event
from guts.games.bourre.bots import BOTS
from guts.games.bourre.chance import BourreChance
from guts.games.bourre.events import HandResult
from guts.games.bourre.rules import PRESETS, BourreRules
from guts.games.bourre.session import BourreSession
from guts.games.bourre.stock import HAND
from guts.games.bourre.words import tell
from guts.games.family import ActionLayout, Family, PageView
from guts.games.outcomes import NOBODY_IN, SHOWDOWN, UNCONTESTED

__all__ = ["FAMILY", "TITLES", "layout", "new_session", "settlements"]

TITLES: dict[str, tuple[str, str | None]] = {
    name: ("Bourré", None) if name == "bourre"
    else (name.removeprefix("bourre-").replace("-", " ").capitalize(), "bourre")
    for name in PRESETS
}  # fmt: skip
"""Each preset's name in the lobby: Bourré, and each house rule a variation of it."""


def layout(rules: BourreRules) -> ActionLayout:
    """Bourré's actions for the research environments: play or fold, a card of the hand to
    play, and a subset of it to throw in the draw."""
    return ActionLayout(("play", "fold"), HAND, cards=HAND, discards=HAND)


def settlements(events: Iterable[Event]) -> list[str]:
    """Nobody played, one player played alone, or the tricks were played out."""
    found: list[str] = []
    for event in events:
        if isinstance(event, HandResult):
            if len(event.tricks) >= 2:
                found.append(SHOWDOWN)
            else:
                found.append(NOBODY_IN if event.winner is None else UNCONTESTED)
    return found


FAMILY: Family[BourreRules, BourreSession] = Family(
    "bourre",
    BourreRules,
    PRESETS,
    BourreSession,
    title="Bourré",
    description="a trick-taking game",
    titles=TITLES,
    bots=BOTS,
    tell=tell,
    shares_out=False,
    end_option=("end-pot", "split"),
    layout=layout,
    settlements=settlements,
    page=PageView(face_down="hand-sizes", cards=5),
    chance=BourreChance(),
)
"""This family (see :mod:`guts.games.family`), listed in :mod:`guts.catalog`."""

new_session = FAMILY.new_session
"""A session of a preset (with options, name -> string) for players."""
