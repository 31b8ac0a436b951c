"""Fan Tan as a family (:mod:`guts.games.family`): its presets (:data:`PRESETS`, in
:mod:`~guts.games.fantan.rules`), sessions, bots, words and outcomes.

>>> FAMILY.title_of("fan-tan-aces-high")
('Aces high', 'fan-tan')
"""

from __future__ import annotations

from collections.abc import Iterable

from guts.games.base import Event
from guts.games.family import ActionLayout, Family, PageView
from guts.games.fantan.bots import BOTS
from guts.games.fantan.deal import PASS, hand_sizes
from guts.games.fantan.events import FanTanResult
from guts.games.fantan.rules import FEWEST_PLAYERS, PRESETS, FanTanRules
from guts.games.fantan.session import FanTanSession
from guts.games.fantan.words import tell
from guts.games.outcomes import SHOWDOWN

__all__ = ["FAMILY", "TITLES", "layout", "new_session", "settlements"]

TITLES: dict[str, tuple[str, str | None]] = {
    name: ("Fan Tan", None) if name == "fan-tan"
    else (name.removeprefix("fan-tan-").replace("-", " ").capitalize(), "fan-tan")
    for name in PRESETS
}  # fmt: skip
"""Each preset's name in the lobby: Fan Tan, and each custom a variation of it."""

MOST_CARDS = hand_sizes(FEWEST_PLAYERS)[0]
"""The most cards a seat holds: half the pack, with two players."""


def layout(rules: FanTanRules) -> ActionLayout:
    """Fan Tan's actions for the research environments: pass, or a card of the hand; its
    rows are the cards laid out for everyone."""
    return ActionLayout((PASS,), MOST_CARDS, cards=MOST_CARDS, laid_out="rows")


def settlements(events: Iterable[Event]) -> list[str]:
    """Every deal is played out until a player is out of cards: a showdown of hands."""
    return [SHOWDOWN for event in events if isinstance(event, FanTanResult)]


FAMILY: Family[FanTanRules, FanTanSession] = Family(
    "fantan",
    FanTanRules,
    PRESETS,
    FanTanSession,
    title="Fan Tan",
    description="a card-shedding game of sevens and rows, played for chips",
    titles=TITLES,
    bots=BOTS,
    tell=tell,
    takes_table=True,
    layout=layout,
    settlements=settlements,
    page=PageView(face_down="hand-sizes", cards=13, module="fantan.js"),
)
"""This family (see :mod:`guts.games.family`), listed in :mod:`guts.catalog`."""

new_session = FAMILY.new_session
"""A session of a preset (with options, name -> string) for players."""
