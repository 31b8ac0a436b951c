"""Five Card Draw and its variations, on the :mod:`guts.betting` engine.

>>> import random
>>> session = new_session("jacks-or-better", ["Ann", "Bob", "Cy", "Di"], buy_in=50,
...                       rng=random.Random(7))
>>> session.start_deal()
>>> session.pending()[0].seat
1
"""

from __future__ import annotations

from guts.games.draw.bots import RandomBot, SensibleBot, play_session
from guts.games.draw.deal import DrawDeal, Phase
from guts.games.draw.phh import PhhError, deal_to_phh, deal_to_phh_fields
from guts.games.draw.presets import FAMILY, PRESETS, new_session, preset
from guts.games.draw.rules import BetsFrom, DrawFrom, DrawRules, Openers
from guts.games.draw.session import PROGRESSION, DrawSession
from guts.games.draw.words import tell

__all__ = [
    "FAMILY",
    "PRESETS",
    "PROGRESSION",
    "BetsFrom",
    "DrawDeal",
    "DrawFrom",
    "DrawRules",
    "DrawSession",
    "Openers",
    "Phase",
    "PhhError",
    "RandomBot",
    "SensibleBot",
    "deal_to_phh",
    "deal_to_phh_fields",
    "new_session",
    "play_session",
    "preset",
    "tell",
]
