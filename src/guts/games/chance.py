"""What a game needs of a family to be dealt by an outside chance player (the OpenSpiel
games of :mod:`guts.envs.openspiel`): how many cards chance deals before a deal, the pack
they come from, whether seats decide at once, and bounds (decisions, antes and payment
rounds a deal). A family that offers such games gives a :class:`ChanceModel` as its
``Family.chance``; each overrides what differs from these defaults.
"""

from __future__ import annotations

from typing import Any

from guts.cards import Card, Deck, DeckKind

__all__ = ["ChanceModel"]


class ChanceModel:
    """A family's dealing by chance (the defaults suit a deal dealt from the top of a
    stacked standard pack)."""

    names = ""
    """The options that set the way of declaring (for a message)."""

    def kind(self, rules: Any) -> DeckKind:
        """The pack the cards come from."""
        return DeckKind.STANDARD

    def needed(self, rules: Any, players: int) -> int:
        """The most cards a deal for ``players`` dealt in can show."""
        raise NotImplementedError

    def start(self, session: Any, rules: Any, dealt: list[Card]) -> None:
        """Start the next deal of ``session`` with ``dealt`` on top of the deck."""
        session.start_deal(Deck.stacked(dealt, self.kind(rules)))

    def simultaneous(self, rules: Any) -> bool:
        """True if some decision is made by several seats at once."""
        return False

    def check(self, preset: str, rules: Any, players: int) -> None:
        """OptionError for what these games do not model."""

    def decisions(self, rules: Any) -> int:
        """The most decisions one seat makes in a deal."""
        raise NotImplementedError

    def antes(self, rules: Any, players: int) -> int:
        """A bound on what one seat antes in a deal."""
        raise NotImplementedError

    def rounds(self, rules: Any) -> int:
        """A bound on the payments one seat makes in a deal, each at most the pot to
        each other seat."""
        return 1
