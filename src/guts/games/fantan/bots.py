"""Bots for Fan Tan: policies that see only a seat's view (:meth:`FanTanSession.view`).

:class:`RandomBot` plays any legal action, uniformly. :class:`SensibleBot` plays what
frees its own cards and holds back what would free only other players': of the cards
that fit, it plays the one with the most of its own cards beyond it in the row and the
fewest of the others', keeping sevens and the cards that block others' rows until they
open a row of its own or nothing else fits. It never passes while a card fits.

>>> import random
>>> from guts.games.fantan.presets import new_session
>>> session = new_session("fan-tan", ["Ann", "Bob", "Cy"], rng=random.Random(2),
...                       options={"max-deals": "3"})
>>> play_session(session, [SensibleBot(), RandomBot(random.Random(1)), SensibleBot()])
>>> session.over_reason, sum(s.stack for s in session.table.seats) + session.table.pot
('the deal limit (3) was reached', 0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from guts.cards import Card, Rank, parse_card
from guts.games.family import BotKind, random_bot
from guts.games.fantan.deal import PASS
from guts.games.fantan.layout import row_order
from guts.games.fantan.rules import Aces
from guts.games.fantan.session import FanTanSession
from guts.games.policy import RandomBot, ViewBot, ViewOnly

__all__ = ["BOTS", "RandomBot", "SensibleBot", "play_session"]


class SensibleBot:
    """Frees its own rows, blocks the others'; see the module docstring.

    ``seven_cost``: how much it dislikes opening a row (a seven frees two directions).
    """

    def __init__(self, seven_cost: float = 1.5) -> None:
        self.seven_cost = seven_cost

    def choose(self, view: Mapping[str, Any]) -> str:
        """The action this policy takes."""
        legal = [parse_card(code) for code in view["legal"]]
        if not legal:
            return PASS
        hand = {parse_card(code) for code in view["hand"]}
        played = {parse_card(code) for row in view["rows"].values() for code in row}
        order = row_order(Aces(view["aces"]))
        return max(legal, key=lambda card: self._score(card, hand, played, order)).ascii

    def _score(
        self, card: Card, hand: set[Card], played: set[Card], order: Sequence[Rank]
    ) -> tuple[float, int]:
        """Own cards the play brings nearer, less the others' it frees; ties: the card
        nearest a row's end (it blocks the least)."""
        assert card.rank is not None and card.suit is not None
        index, seven = order.index(card.rank), order.index(Rank.SEVEN)
        sides = (range(index - 1, -1, -1), range(index + 1, len(order)))
        if index < seven:
            sides = (sides[0], range(0))
        elif index > seven:
            sides = (range(0), sides[1])
        mine = theirs = 0
        for side in sides:
            for position in side:
                beyond = Card.of(order[position], card.suit)
                if beyond in hand:
                    mine += 1
                elif beyond not in played:
                    theirs += 1
        score = 2.0 * mine - 0.5 * theirs
        if index == seven:
            score -= self.seven_cost
        return score, abs(index - seven)


def play_session(
    session: FanTanSession,
    bots: Sequence[ViewBot] | Mapping[int, ViewBot],
    deals: int | None = None,
) -> None:
    """Play ``session`` to its end with a bot in each seat; with ``deals``, stop after that
    many deals (the players' choice)."""
    session.play_out(lambda decision: bots[decision.seat].choose(session.view(decision.seat)),
                     deals)  # fmt: skip


BOTS: dict[str, BotKind] = {
    "random": random_bot,
    "sensible": BotKind(
        "keeps its sevens and the cards that block others' rows, plays what frees its own",
        lambda rules, seats: ViewOnly(SensibleBot()),
    ),
}
"""Fan Tan's bot kinds (:attr:`guts.games.family.Family.bots`)."""
