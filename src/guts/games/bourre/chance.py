"""Bourré dealt by an outside chance player (:mod:`guts.games.chance`)."""

from __future__ import annotations

from typing import Any

from guts.cards import Card, Deck, DeckKind
from guts.errors import GutsError, OptionError
from guts.games.bourre.rules import BourreRules
from guts.games.bourre.session import BourreSession
from guts.games.bourre.stock import HAND, TrumpCard
from guts.games.chance import ChanceModel

__all__ = ["BourreChance"]


class BourreChance(ChanceModel):
    """Bourré: every hand and all the draw may take are dealt first, so the stock never
    runs out (which limits the players)."""

    def needed(self, rules: BourreRules, players: int) -> int:
        turned = 1 if rules.trump_card is TrumpCard.STOCK else 0
        return players * (HAND + rules.draw_rules.discard_cap(players)) + turned

    def start(self, session: Any, rules: Any, dealt: list[Card]) -> None:
        if not isinstance(session, BourreSession):
            raise GutsError(f"no stacked Bourré deal for a {type(session).__name__}")
        chosen = set(dealt)
        rest = [card for card in DeckKind.STANDARD.cards if card not in chosen]
        session.start_deal(Deck.stacked([*dealt, *rest]), 0)  # the stock never runs out

    def check(self, preset: str, rules: BourreRules, players: int) -> None:
        needed = self.needed(rules, players)
        if needed > len(DeckKind.STANDARD.cards):
            most = max(n for n in range(2, players) if self.needed(rules, n) <= 52)
            raise OptionError(
                f"players: {preset} for {players} players may use {needed} cards, more than "
                f"the pack (its draw would reshuffle, which these games do not deal): at "
                f"most {most} players"
            )

    def decisions(self, rules: BourreRules) -> int:
        return 2 + 2 * HAND  # play or fold, the draw, a card a trick (a retraction each)

    def antes(self, rules: BourreRules, players: int) -> int:
        return players * rules.ante + rules.play_ante  # the dealer antes for all
