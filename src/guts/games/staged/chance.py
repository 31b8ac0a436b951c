"""The staged games dealt by an outside chance player (:mod:`guts.games.chance`)."""

from __future__ import annotations

from guts.errors import OptionError
from guts.games.chance import ChanceModel
from guts.games.staged.rules import Declare, StagedRules

__all__ = ["StagedChance"]


class StagedChance(ChanceModel):
    """Three Five Seven, Napalm and Nuts (not Toh, whose stock carries between hands)."""

    names = "declare"

    def needed(self, rules: StagedRules, players: int) -> int:
        return players * rules.cards_per_player

    def simultaneous(self, rules: StagedRules) -> bool:
        return rules.declare_mode in (Declare.SIMULTANEOUS, Declare.DEALER_CHOICE)

    def check(self, preset: str, rules: StagedRules, players: int) -> None:
        if rules.is_toh:
            raise OptionError(f"{preset}: Toh's stock and point cards carry from hand to "
                              "hand, which these games do not deal: not offered")  # fmt: skip

    def decisions(self, rules: StagedRules) -> int:
        return 2 * len(rules.stages()) + 1  # the dealer's mode, each stage and second chance

    def antes(self, rules: StagedRules, players: int) -> int:
        return rules.ante * (len(rules.stages()) + 1)

    def rounds(self, rules: StagedRules) -> int:
        return len(rules.stages())  # a showdown at each stage
