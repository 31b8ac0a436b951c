"""Draw poker bots: each sees only its seat's :meth:`~DrawSession.view` and picks an action.

- :class:`RandomBot` picks uniformly among the listed legal actions;
- :class:`SensibleBot` opens and bets by hand strength (respecting the openers), keeps
  pairs and better, draws to four-flushes and open-ended straights, and declares what it
  holds. With more than five cards it keeps only the cards of its best five that make
  its pairs or its made hand (a draw is kept whole); a call bigger than the pot needs a
  strong hand, one that is also more than half its stack a very strong one. In lowball it
  calls before the draw with a one-card draw to an eight or better.

>>> import random
>>> from guts.games.draw import new_session
>>> session = new_session("five-card-draw", ["Bot", "Rnd"], buy_in=50, rng=random.Random(2))
>>> session.start_deal()
>>> seat = session.pending()[0].seat
>>> SensibleBot(session.rules).choose(session.view(seat)) in session.pending()[0].actions
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from random import Random
from typing import Any

from guts.cards import Card, Rank, parse_card, parse_cards
from guts.games.draw.actions import discard_text
from guts.games.draw.hands import opens
from guts.games.draw.rules import DrawRules, Openers
from guts.games.family import BotKind
from guts.games.policy import RandomBot, ViewBot, ViewOnly
from guts.rankings.base import Category, Ranking

__all__ = ["BOTS", "RandomBot", "SensibleBot", "play_session"]


_MADE = (Category.STRAIGHT, Category.FLUSH, Category.FULL_HOUSE, Category.FOUR_OF_A_KIND,
         Category.STRAIGHT_FLUSH, Category.FIVE_OF_A_KIND)  # fmt: skip


class SensibleBot:
    """Plays by hand strength; see the module docstring."""

    def __init__(self, rules: DrawRules) -> None:
        self.rules = rules

    # -- reading the view -------------------------------------------------------------------

    def _ranking(self, view: Mapping[str, Any]) -> Ranking:
        if view.get("hi_lo") == "low":
            return self.rules.low_ranking()
        widow = view.get("widow")
        rank = parse_card(widow).rank if widow else None
        return self.rules.high_ranking(rank)

    def choose(self, view: Mapping[str, Any]) -> str:
        """The action for the decision in ``view``."""
        actions: list[str] = view["pending"][0]["actions"]
        hand = parse_cards(view["hand"])
        phase = view["phase"]
        if phase == "drawing":
            return self._draw(view, hand, actions)
        if phase == "exchange":
            return "take up" if self._pairs_up(hand, view["offer"]) else "take down"
        if phase == "declaring":
            category = self._ranking(view).evaluate(hand).category
            return f"declare {category.value}"
        return self._bet(view, hand, actions)

    # -- betting ------------------------------------------------------------------------------

    def _score(self, view: Mapping[str, Any], hand: Sequence[Card]) -> int:
        """0 weak, 1 middling, 2 strong, 3 very strong."""
        ranking = self._ranking(view)
        if view.get("hi_lo") == "low":
            top = _low_top(ranking, hand)
            score = 3 if top <= 7 else 2 if top <= 8 else 1 if top <= 10 else 0
            drawing = _first_round(view) and len(self._keep(view, hand)) >= len(hand) - 1
            return max(score, 1) if drawing else score
        evaluation = ranking.evaluate(hand)
        order = ranking.categories()
        if order.index(evaluation.category) <= order.index(Category.THREE_OF_A_KIND):
            return 3
        before_draw = _first_round(view)
        if self.rules.trips_to_win and not before_draw:
            return 0  # below three of a kind it cannot win
        if evaluation.category is Category.TWO_PAIR:
            return 2
        if evaluation.category is Category.PAIR:
            return 2 if before_draw and opens(ranking, hand, Rank.JACK) else 1
        return 1 if before_draw and _drawing_hand(hand) else 0

    def _bet(self, view: Mapping[str, Any], hand: Sequence[Card], actions: list[str]) -> str:
        score = self._score(view, hand)
        opening = view.get("current_bet", 0) == 0
        if opening and _first_round(view) and view.get("hi_lo") == "high":
            rank = Openers(view.get("openers", "any")).rank
            if rank is not None and not opens(self._ranking(view), hand, rank):
                score = min(score, 0)
        raises = [a for a in actions if a.startswith(("bet", "raise"))]
        if raises and (score >= 3 or (score == 2 and opening)):
            return raises[0] if score == 2 else raises[len(raises) // 2]
        if "check" in actions:
            return "check"
        if score >= 1 + _cost(view) and "call" in actions:
            return "call"
        return "fold"

    # -- drawing -----------------------------------------------------------------------------

    def _wild(self, view: Mapping[str, Any], card: Card) -> bool:
        widow = view.get("widow")
        wilds = self.rules.wilds()
        if widow:
            rank = parse_card(widow).rank
            if rank is not None:
                wilds = wilds.with_rank(rank)
        return card.is_joker or wilds.is_wild(card)

    def _keep(self, view: Mapping[str, Any], hand: Sequence[Card]) -> list[Card]:
        wild = [c for c in hand if self._wild(view, c)]
        natural = [c for c in hand if c not in wild]
        if view.get("hi_lo") == "low":
            seen: set[int] = set()
            kept = []
            for card in sorted(natural, key=_low_value):
                value = _low_value(card)
                if value not in seen and value <= 8:
                    seen.add(value)
                    kept.append(card)
            return wild + kept
        best = self._ranking(view).evaluate(hand)
        if best.category in _MADE:
            return list(best.cards)
        playing = Counter(c.rank for c in natural if c in best.cards)
        grouped = [c for c in natural if playing[c.rank] >= 2 and c in best.cards]
        if grouped:
            return wild + grouped
        draw = _flush_draw(natural, len(wild)) or _straight_draw(natural)
        if draw:
            return wild + draw
        high = sorted(natural, key=lambda c: -int(c.rank or 0))
        return wild + high[: max(2 - len(wild), 1)]

    def _draw(self, view: Mapping[str, Any], hand: Sequence[Card], actions: list[str]) -> str:
        kept = self._keep(view, hand)
        order = sorted(hand, key=lambda c: (c in kept, _value(c)))
        discards = [c for c in order if c not in kept]
        while discards:
            text = discard_text([c for c in hand if c in discards])
            if text in actions:
                return text
            discards.pop()
        return "stand pat" if "stand pat" in actions else actions[0]

    def _pairs_up(self, hand: Sequence[Card], up: str | None) -> bool:
        if up is None:
            return False
        rank = parse_card(up).rank
        return any(card.rank == rank for card in hand) or (rank is not None and rank >= 13)


def _cost(view: Mapping[str, Any]) -> int:
    """How dear a call is: 0 up to the pot, 1 above it, 2 above half the caller's stack
    (past the first of those only a strong hand calls, past the second a very strong one)."""
    seat = view["pending"][0]["seat"]
    bets: Mapping[str, int] = view.get("bets", {})
    owed = view.get("current_bet", 0) - bets.get(str(seat), 0)
    stack = view["stacks"][seat]
    pot = view.get("pot", 0) + sum(bets.values())
    dear = 2 * owed > pot
    return 2 if dear and 2 * owed > stack else 1 if dear else 0


def _first_round(view: Mapping[str, Any]) -> bool:
    return not any(e.get("kind") == "draw-drew" and e.get("seat") is not None
                   for e in _this_deal(view))  # fmt: skip


def _this_deal(view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    events: list[Mapping[str, Any]] = view.get("events", [])
    start = max((i for i, e in enumerate(events) if e.get("kind") == "draw-deal-started"),
                default=0)  # fmt: skip
    return events[start:]


def _value(card: Card) -> int:
    return int(card.rank) if card.rank is not None else 15


def _low_value(card: Card) -> int:
    if card.rank is None:
        return 0
    return 1 if card.rank == Rank.ACE else int(card.rank)


def _low_top(ranking: Ranking, hand: Sequence[Card]) -> int:
    evaluation = ranking.evaluate(hand)
    if evaluation.category is not Category.HIGH_CARD:
        return 99
    return max(_low_value(c) for c in hand if not c.is_joker)


def _drawing_hand(hand: Sequence[Card]) -> bool:
    natural = [c for c in hand if not c.is_joker]
    return bool(_flush_draw(natural, 0) or _straight_draw(natural))


def _flush_draw(natural: Sequence[Card], wilds: int) -> list[Card]:
    suits = Counter(c.suit for c in natural)
    if not suits:
        return []
    suit, count = suits.most_common(1)[0]
    return [c for c in natural if c.suit == suit] if count + wilds >= 4 else []


def _straight_draw(natural: Sequence[Card]) -> list[Card]:
    ranks = sorted({int(c.rank) for c in natural if c.rank is not None})
    for low in range(2, 11):
        window = list(range(low, low + 4))
        if all(r in ranks for r in window) and low + 3 < 14:
            return [next(c for c in natural if c.rank == r) for r in window]
    return []


def play_session(session: Any, policies: Mapping[int, ViewBot]) -> None:
    """Drive ``session`` to its end, each seat choosing by its policy."""
    while not session.is_over:
        if session.deal_over:
            session.start_deal()
            continue
        (decision,) = session.pending()
        action = policies[decision.seat].choose(session.view(decision.seat))
        session.act(decision.seat, action)


BOTS: dict[str, BotKind] = {
    "random": BotKind("any legal action, uniformly at random (every game)",
                      lambda rules, seats: ViewOnly(RandomBot(Random()))),
    "sensible": BotKind("opens, bets and draws by the strength of its hand",
                        lambda rules, seats: ViewOnly(SensibleBot(rules))),
}  # fmt: skip
"""The draw family's bot kinds (:attr:`guts.games.family.Family.bots`)."""
