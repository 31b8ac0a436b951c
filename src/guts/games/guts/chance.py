"""Guts dealt by an outside chance player (:mod:`guts.games.chance`)."""

from __future__ import annotations

from guts.cards import DeckKind
from guts.games.chance import ChanceModel
from guts.games.guts.rules import Declare, GutsRules

__all__ = ["GutsChance"]


class GutsChance(ChanceModel):
    """Guts: the ranking's pack; at once where the rules declare at once or pass left."""

    names = "declare/pass-left"

    def kind(self, rules: GutsRules) -> DeckKind:
        return rules.hand_ranking.deck

    def needed(self, rules: GutsRules, players: int) -> int:
        return rules.cards_needed(players)

    def simultaneous(self, rules: GutsRules) -> bool:
        return rules.declare is Declare.SIMULTANEOUS or rules.pass_left

    def decisions(self, rules: GutsRules) -> int:
        return 4  # pass, declare, a second chance, a second declaration

    def antes(self, rules: GutsRules, players: int) -> int:
        return 3 * rules.ante  # the ante, an extra ante, a chicken fee
