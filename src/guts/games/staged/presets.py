"""Named staged games: each preset is just a :class:`StagedRules` instance.

>>> rules, text = PRESETS["crazy-three-five-seven"]
>>> [stage.wild for stage in rules.stages()]
[(3,), (3, 5), (3, 5, 7)]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from guts.games.base import Event
from guts.games.declaration.outcomes import declared_settlements
from guts.games.family import ActionLayout, Family, PageView
from guts.games.staged.bots import BOTS
from guts.games.staged.chance import StagedChance
from guts.games.staged.events import PointScored
from guts.games.staged.rules import Declare, Game, LowPairs, Payment, StagedRules
from guts.games.staged.session import StagedSession
from guts.games.staged.words import tell

__all__ = ["FAMILY", "PRESETS", "TITLES", "layout", "new_session", "preset", "settlements"]

_357 = StagedRules()
_NAPALM = StagedRules(game=Game.NAPALM)
_NUTS = StagedRules(game=Game.NUTS)
_TOH = StagedRules(game=Game.TOH)

PRESETS: dict[str, tuple[StagedRules, str]] = {
    "three-five-seven": (
        _357,
        "3, 5, 7 cards (threes, fives, sevens wild): a lone stayer takes a leg, three legs "
        "the pot; losers pay the winner the pot",
    ),
    "crazy-three-five-seven": (
        replace(_357, cumulative_wilds=True),
        "Three Five Seven where wilds accumulate: threes; threes and fives; threes, fives, sevens",
    ),
    "three-five-seven-match-pot": (
        replace(_357, payment=Payment.MATCH_POT),
        "Three Five Seven where losers match the pot instead of paying the winner",
    ),
    "three-five-seven-simultaneous": (
        replace(_357, declare=Declare.SIMULTANEOUS),
        "Three Five Seven with every declaration made at once",
    ),
    "three-five-seven-dealers-choice": (
        replace(_357, declare=Declare.DEALER_CHOICE),
        "Three Five Seven where each dealer picks in-turn or simultaneous declarations",
    ),
    "three-five-seven-two-legs": (
        replace(_357, points=2),
        "Three Five Seven where two legs take the pot",
    ),
    "napalm": (
        _NAPALM,
        "Whipsaw: 2 cards high, 5 cards low (ace-to-five), 7 cards high; three legs the pot",
    ),
    "nuts": (
        _NUTS,
        "2 cards low (pairs strong), 3rd high, 4th low, 5th high: a lone stayer gets a nut, "
        "three nuts the pot",
    ),
    "nuts-pairs-bad": (
        replace(_NUTS, low_pairs=LowPairs.BAD),
        "Nuts where pairs are bad in the low rounds (ace-to-five lowball)",
    ),
    "toh": (
        _TOH,
        "one card each, in turn; high card wins, suits break ties; losers match; the winner "
        "keeps the card as a point; first to the target takes the pot",
    ),
}
"""Preset name -> (rules, one-line description)."""


TITLES: dict[str, tuple[str, str | None]] = {
    "three-five-seven": ("Three Five Seven", None),
    "crazy-three-five-seven": ("Crazy wilds", "three-five-seven"),
    "three-five-seven-match-pot": ("Losers match the pot", "three-five-seven"),
    "three-five-seven-simultaneous": ("Declared at once", "three-five-seven"),
    "three-five-seven-dealers-choice": ("The dealer picks how to declare", "three-five-seven"),
    "three-five-seven-two-legs": ("Two legs win", "three-five-seven"),
    "napalm": ("Napalm (Whipsaw)", None),
    "nuts": ("Nuts", None),
    "nuts-pairs-bad": ("Pairs are bad", "nuts"),
    "toh": ("Toh", None),
}
"""Each preset's name in the lobby, and the preset it is a house-rule variation of."""


def layout(rules: StagedRules) -> ActionLayout:
    """The staged games' actions for the research environments: in/out, and the dealer's
    choice of declaring in turn or at once."""
    hand = max(int(stage.size) for stage in rules.stages())
    return ActionLayout(("in", "out", "in-turn", "simultaneous"), hand)


def settlements(events: Iterable[Event]) -> list[str]:
    """Each stage's settlement; a leg's pot, which follows its point, is not counted again."""
    return declared_settlements(events, PointScored)


FAMILY: Family[StagedRules, StagedSession] = Family(
    "staged",
    StagedRules,
    PRESETS,
    StagedSession,
    title="Three Five Seven and its cousins",
    description="a staged game (Three Five Seven, Napalm, Nuts, Toh): each stage adds cards "
    "and declares again, and legs carry between deals",
    titles=TITLES,
    bots=BOTS,
    tell=tell,
    takes_table=True,
    layout=layout,
    settlements=settlements,
    page=PageView(face_down="stage", cards=3),
    chance=StagedChance(),
)
"""This family (see :mod:`guts.games.family`), listed in :mod:`guts.catalog`."""

preset = FAMILY.rules
"""The rules of a preset with options (name -> string) applied (OptionError names an
unknown preset or a bad option)."""

new_session = FAMILY.new_session
"""A session of a preset (with options) for players."""
