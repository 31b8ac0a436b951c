"""Named staged games: each preset is just a :class:`StagedRules` instance.

>>> rules, text = PRESETS["crazy-three-five-seven"]
>>> [stage.wild for stage in rules.stages()]
[(3,), (3, 5), (3, 5, 7)]
"""

from __future__ import annotations

from dataclasses import replace

from guts.games.family import Family
from guts.games.staged.rules import Declare, Game, LowPairs, Payment, StagedRules
from guts.games.staged.session import StagedSession

__all__ = ["FAMILY", "PRESETS", "new_session", "preset"]

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


FAMILY: Family[StagedRules, StagedSession] = Family("staged", StagedRules, PRESETS, StagedSession)
"""This family: its presets, rules and sessions (see :mod:`guts.catalog`)."""

preset = FAMILY.rules
"""The rules of a preset with options (name -> string) applied (OptionError names an
unknown preset or a bad option)."""

new_session = FAMILY.new_session
"""A session of a preset (with options) for players."""
