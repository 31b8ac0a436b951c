"""Which cards are wild, and how jokers play.

>>> Wilds.parse("2,Js,Jh").describe()
'deuces and J♥ J♠ wild'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from guts.cards import Card, Rank, parse_card
from guts.errors import OptionError

__all__ = ["JokerMode", "Wilds"]


class JokerMode(Enum):
    """How a joker plays: as the bug (an ace, or to complete a straight or flush) or wild."""

    BUG = "bug"
    WILD = "wild"

    @classmethod
    def parse(cls, text: str) -> JokerMode:
        """``bug`` or ``wild``."""
        try:
            return cls(text.strip().lower())
        except ValueError:
            raise OptionError(f"joker must be 'bug' or 'wild', not {text!r}") from None


_RANK_TOKENS = {
    "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10, "t": 10,
    "j": 11, "q": 12, "k": 13, "a": 14,
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Wilds:
    """The wild cards of a game: whole ranks, specific cards, and how jokers play.

    Jokers are always either bugs or wild; ``ranks`` and ``cards`` name the natural cards
    that are wild (deuces: ``ranks={Rank.TWO}``; one-eyed jacks: ``cards={J♠, J♥}``).
    """

    ranks: frozenset[Rank] = frozenset()
    cards: frozenset[Card] = frozenset()
    joker: JokerMode = JokerMode.BUG

    @classmethod
    def of(
        cls,
        ranks: Iterable[int] = (),
        cards: Iterable[Card] = (),
        joker: JokerMode | str = JokerMode.BUG,
    ) -> Wilds:
        """Build from plain ranks (2-14), cards, and a joker mode."""
        mode = joker if isinstance(joker, JokerMode) else JokerMode.parse(joker)
        return cls(frozenset(Rank(r) for r in ranks), frozenset(cards), mode)

    @classmethod
    def parse(cls, spec: str, joker: JokerMode | str = JokerMode.BUG) -> Wilds:
        """``"2"`` for deuces, ``"2,Js,Jh"`` adding the one-eyed jacks, ``""`` for none."""
        ranks: list[int] = []
        cards: list[Card] = []
        for token in spec.replace(" ", ",").split(","):
            if not token:
                continue
            rank = _RANK_TOKENS.get(token.lower())
            if rank is not None:
                ranks.append(rank)
                continue
            try:
                card = parse_card(token)
            except ValueError:
                raise OptionError(
                    f"{token!r} is not a wild rank or card: expected ranks like 2 or 5 "
                    "and cards like Js (for example --wild 2,Js,Jh)"
                ) from None
            if card.is_joker:
                raise OptionError("jokers are wild with --joker wild, not in --wild")
            cards.append(card)
        return cls.of(ranks, cards, joker)

    def is_wild(self, card: Card) -> bool:
        """True if ``card`` is a wild natural card or a wild (not bug) joker."""
        if card.is_joker:
            return self.joker is JokerMode.WILD
        return card.rank in self.ranks or card in self.cards

    def __bool__(self) -> bool:
        return bool(self.ranks or self.cards)

    def __reduce__(self) -> tuple[type[Wilds], tuple[object, ...]]:
        # rebuilt by the constructor: rules travel to simulation workers by pickle
        return (Wilds, (self.ranks, self.cards, self.joker))

    def with_rank(self, rank: Rank) -> Wilds:
        """These wilds plus every card of ``rank`` (Wild Widow's turned-up rank)."""
        return Wilds(self.ranks | {rank}, self.cards, self.joker)

    def spec(self) -> str:
        """The ``--wild`` spec that parses back to these wilds."""
        parts = [_rank_token(r) for r in sorted(self.ranks)]
        parts += [c.ascii for c in sorted(self.cards)]
        return ",".join(parts)

    def describe(self) -> str:
        """The wilds in words: ``"deuces wild"``, ``"no wild cards"``."""
        parts = ["deuces" if r == Rank.TWO else r.plural for r in sorted(self.ranks)]
        if self.cards:
            parts.append(" ".join(str(c) for c in sorted(self.cards)))
        return " and ".join(parts) + " wild" if parts else "no wild cards"


def _rank_token(rank: Rank) -> str:
    return "10" if rank == 10 else rank.symbol
