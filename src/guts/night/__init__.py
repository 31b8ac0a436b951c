"""Dealer's choice: a night of many games at one table, with one ledger.

:class:`Night` is a session above the families: between games the chooser names the next
game from the host's list (:class:`NightRules`), and the game runs until nothing is
owed; stacks carry from game to game and every event is in one record that replays.
:mod:`guts.night.bots` chooses for bots; :mod:`guts.night.narrate` tells a night.
"""

from __future__ import annotations

from guts.night.ledger import GameResult, NightLedger
from guts.night.middle import refund
from guts.night.night import FEWER_THAN_TWO, Night
from guts.night.rules import (
    DEALERS_CHOICE,
    DEFAULT_GAMES,
    CappedPot,
    Chooser,
    DealAfterGame,
    GameEntry,
    NightRules,
)

__all__ = [
    "DEALERS_CHOICE",
    "DEFAULT_GAMES",
    "FEWER_THAN_TWO",
    "CappedPot",
    "Chooser",
    "DealAfterGame",
    "GameEntry",
    "GameResult",
    "Night",
    "NightLedger",
    "NightRules",
    "refund",
]
