"""Bots for Bourré: policies that see only a seat's view (:meth:`BourreSession.view`).

A bot's ``choose`` takes the view and returns one of the seat's actions.
:class:`RandomBot` picks uniformly among the legal actions (never a renege);
:class:`SensibleBot` plays when its trumps and aces promise a trick, draws for trumps,
draws trumps out when it holds the top one, wins tricks as cheaply as it can and
throws its lowest card otherwise. Its plays are always legal, so the forced-play rules
(follow suit, trump, play to win, the cinch) are followed.

>>> import random
>>> from guts.games.bourre.presets import new_session
>>> session = new_session("bourre", ["Ann", "Bob", "Cy"], rng=random.Random(2),
...                       options={"max-deals": "3"})
>>> bots = [SensibleBot(), RandomBot(random.Random(1)), RandomBot(random.Random(2))]
>>> play_session(session, bots)
>>> session.over_reason, sum(s.stack for s in session.table.seats) + session.table.pot
('the deal limit (3) was reached', 0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from random import Random
from typing import Any

from guts.cards import Card, Rank, Suit, parse_card
from guts.games import policy
from guts.games.bourre.session import BourreSession
from guts.games.bourre.tricks import Play, trick_winner
from guts.games.family import BotKind
from guts.games.policy import ViewBot, ViewOnly

__all__ = ["BOTS", "RandomBot", "SensibleBot", "play_session"]


class RandomBot(policy.RandomBot):
    """Any legal action, uniformly: intents and discard sets, and legal cards only."""

    def actions(self, view: Mapping[str, Any]) -> Sequence[str]:
        """The seat's listed actions, or in the tricks its legal cards (never a renege)."""
        if view.get("phase") == "tricks" and view["legal"]:
            legal: Sequence[str] = view["legal"]
            return legal
        return super().actions(view)


class SensibleBot:
    """Plays with trumps and high cards; see the module docstring.

    ``threshold``: the expected tricks (a rough count of its trumps and aces) it needs to
    say it plays.
    """

    def __init__(self, threshold: float = 1.0) -> None:
        self.threshold = threshold

    def choose(self, view: Mapping[str, Any]) -> str:
        """The action this policy takes."""
        actions = list(view["pending"][0]["actions"])
        phase = view.get("phase")
        if phase == "intent":
            return self._intent(view, actions)
        if phase == "draw":
            return self._draw(view)
        return self._play(view)

    # -- intent and draw ----------------------------------------------------------------------

    def _intent(self, view: Mapping[str, Any], actions: list[str]) -> str:
        if actions == ["play"]:
            return "play"
        hand, trump = _hand(view), _trump(view)
        others = [s for s, c in view["intents"].items() if c == "play"]
        last = view["seat"] == view["dealer"]
        if last and not others:
            return "play"  # alone: the pot without a fight
        return "play" if _promise(hand, trump) >= self.threshold else "fold"

    def _draw(self, view: Mapping[str, Any]) -> str:
        hand, trump, cap = _hand(view), _trump(view), int(view["discard_cap"])
        weak = [c for c in hand if c.suit != trump and c.rank != Rank.ACE]
        weak.sort(key=lambda c: int(c.rank or 0))
        out = weak[:cap]
        return "discard " + " ".join(c.ascii for c in out) if out else "stand"

    # -- tricks -------------------------------------------------------------------------------

    def _play(self, view: Mapping[str, Any]) -> str:
        legal = [parse_card(code) for code in view["legal"]]
        trump = _trump(view)
        trick = [Play(int(seat), parse_card(code)) for seat, code in view["trick"]]
        if not trick:
            return self._lead(view, legal, trump).ascii
        me = int(view["seat"])
        winners = [c for c in legal if _wins(trick, Play(me, c), trump)]
        if winners:
            return min(winners, key=lambda c: _value(c, trump)).ascii
        return min(legal, key=lambda c: _value(c, trump)).ascii

    def _lead(self, view: Mapping[str, Any], legal: list[Card], trump: Suit) -> Card:
        gone = {parse_card(code) for trick in view["tricks"] for _, code in trick}
        gone |= set(legal)
        trumps = sorted((c for c in legal if c.suit == trump), key=lambda c: int(c.rank or 0))
        if trumps:
            unseen = [r for r in Rank if Card.of(r, trump) not in gone]
            top = trumps[-1]
            if not unseen or int(top.rank or 0) > max(unseen):
                return top
        aces = [c for c in legal if c.rank == Rank.ACE and c.suit != trump]
        if aces:
            return aces[0]
        return min(legal, key=lambda c: _value(c, trump))


def _hand(view: Mapping[str, Any]) -> list[Card]:
    return [parse_card(code) for code in view["hand"]]


def _trump(view: Mapping[str, Any]) -> Suit:
    return Suit[str(view["trump"]).upper()]


def _promise(hand: Sequence[Card], trump: Suit) -> float:
    """A rough count of the tricks a hand should take."""
    total = 0.0
    for card in hand:
        rank = int(card.rank or 0)
        if card.suit == trump:
            total += 0.4 + 0.6 * (rank - 2) / 12
        elif rank == Rank.ACE:
            total += 0.5
        elif rank == Rank.KING:
            total += 0.2
    return total


def _value(card: Card, trump: Suit) -> int:
    """Lower is cheaper to give up: off cards by rank, trumps above every off card."""
    return int(card.rank or 0) + (20 if card.suit == trump else 0)


def _wins(trick: Sequence[Play], play: Play, trump: Suit) -> bool:
    cards = [*trick, play]
    return trick_winner(cards, trump) == len(trick)


def play_session(
    session: BourreSession,
    bots: Sequence[ViewBot] | Mapping[int, ViewBot],
    deals: int | None = None,
) -> None:
    """Play ``session`` to its end with a bot in each seat; with ``deals``, stop after that
    many deals (the players' choice)."""
    session.play_out(lambda decision: bots[decision.seat].choose(session.view(decision.seat)),
                     deals)  # fmt: skip


BOTS: dict[str, BotKind] = {
    "random": BotKind("any legal action, uniformly at random (every game)",
                      lambda rules, seats: ViewOnly(RandomBot(Random()))),
    "sensible": BotKind("plays by its trumps and aces",
                        lambda rules, seats: ViewOnly(SensibleBot())),
}  # fmt: skip
"""Bourré's bot kinds (:attr:`guts.games.family.Family.bots`)."""
