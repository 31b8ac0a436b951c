"""Fan Tan (Sevens, Parliament, Card Dominoes): the chip game of the draw-poker rule text.

All 52 cards are dealt out; sevens start the rows, each built by suit from its seven down
to the ace and up to the king; a player who cannot play pays the pot a chip and passes;
the first out of cards takes the pot after the others pay a chip per card held.

Rules as data (:class:`FanTanRules`, :data:`PRESETS`), the rows (:class:`Layout`), a deal
as a state machine (:class:`FanTanDeal`), a session across deals (:class:`FanTanSession`),
bots and narration (:func:`tell`).

>>> import random
>>> session = new_session("fan-tan", ["Ann", "Bob"], buy_in=50, rng=random.Random(7))
>>> session.start_deal()
>>> session.deal.dealt
{1: 26, 0: 26}
"""

from __future__ import annotations

from guts.games.fantan.bots import RandomBot, SensibleBot, play_session
from guts.games.fantan.deal import PASS, FanTanDeal, Phase, hand_sizes
from guts.games.fantan.layout import Layout, row_order
from guts.games.fantan.presets import FAMILY, new_session
from guts.games.fantan.rules import (
    PRESETS,
    Aces,
    ExtraChip,
    FalsePass,
    FanTanRules,
    Leader,
    preset,
)
from guts.games.fantan.session import FanTanSession
from guts.games.fantan.words import tell

__all__ = [
    "FAMILY",
    "PASS",
    "PRESETS",
    "Aces",
    "ExtraChip",
    "FalsePass",
    "FanTanDeal",
    "FanTanRules",
    "FanTanSession",
    "Layout",
    "Leader",
    "Phase",
    "RandomBot",
    "SensibleBot",
    "hand_sizes",
    "new_session",
    "play_session",
    "preset",
    "row_order",
    "tell",
]
