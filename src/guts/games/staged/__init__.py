"""Staged games: Three Five Seven, Napalm, Nuts and Toh.

The deal comes in stages, each with its own declaration; a lone player in scores a
point (a leg, a nut, a Toh point) and enough points take the pot. Rules are one frozen
dataclass, :class:`StagedRules`; a named game is an entry of :data:`PRESETS`. The
machinery is the Guts family's: its declaration rounds, events, ledger and views.

>>> import random
>>> session = new_session("toh", ["Ann", "Bob", "Cy", "Di"], rng=random.Random(5))
>>> session.target, session.rules.word
(5, 'point')
>>> session.start_deal()
>>> session.table.pot                       # the first dealer seeded it
1
"""

from __future__ import annotations

from guts.games.staged.bots import RandomBot, SensibleBot, make_bot, play_session
from guts.games.staged.deal import Phase, StagedDeal
from guts.games.staged.presets import FAMILY, PRESETS, new_session, preset
from guts.games.staged.rules import (
    Declare,
    Game,
    LowPairs,
    Payment,
    Stage,
    StagedRules,
    TohLone,
    TohNobody,
)
from guts.games.staged.session import StagedSession

__all__ = [
    "FAMILY",
    "PRESETS",
    "Declare",
    "Game",
    "LowPairs",
    "Payment",
    "Phase",
    "RandomBot",
    "SensibleBot",
    "Stage",
    "StagedDeal",
    "StagedRules",
    "StagedSession",
    "TohLone",
    "TohNobody",
    "make_bot",
    "new_session",
    "play_session",
    "preset",
]
