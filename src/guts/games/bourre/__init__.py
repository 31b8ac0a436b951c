"""Bourré: the trick-taking match-pot game of Acadiana.

Rules as data (:class:`BourreRules`, :data:`PRESETS`), a deal as a state machine
(:class:`BourreDeal`), a session across deals (:class:`BourreSession`), and bots.

>>> import random
>>> session = new_session("bourre", ["Ann", "Bob"], buy_in=50, rng=random.Random(7))
>>> session.start_deal()
>>> session.pending()[0].actions
('play', 'fold')
"""

from __future__ import annotations

from guts.games.bourre.bots import RandomBot, SensibleBot, play_session
from guts.games.bourre.deal import BourreDeal, Phase
from guts.games.bourre.presets import FAMILY, new_session
from guts.games.bourre.rules import PRESETS, BourreRules, EndPot, LonePlayer, preset
from guts.games.bourre.session import BourreSession
from guts.games.bourre.stock import DrawRules, TrumpCard
from guts.games.bourre.tricks import RenegeMode, TrickRules

__all__ = [
    "FAMILY",
    "PRESETS",
    "BourreDeal",
    "BourreRules",
    "BourreSession",
    "DrawRules",
    "EndPot",
    "LonePlayer",
    "Phase",
    "RandomBot",
    "RenegeMode",
    "SensibleBot",
    "TrickRules",
    "TrumpCard",
    "new_session",
    "play_session",
    "preset",
]
