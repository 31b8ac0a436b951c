"""The end of a deal: the opener's proof, declarations, showing hands, awarding the pots.

Players show "in clockwise order, beginning with the last player who took aggressive
action (bet or raised)" in the last betting round, or the opener when everyone checked.
A hand is dead (cannot win) when its holder opened without openers, or declared more than
it holds; under Trips to Win a hand below three of a kind cannot win. Pots nobody can win
stay for the next deal.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Protocol

from guts.betting import award_pots, side_pots
from guts.cards import Card, card_codes
from guts.errors import IllegalAction
from guts.games.base import Decision, Event
from guts.games.draw.events import Declared, OpenersShown, Showed, showed
from guts.games.draw.hands import declared_strength, opens, proof_cards, wins_trips
from guts.games.draw.rules import DrawRules, Openers
from guts.grammar import agree, who
from guts.rankings.base import Category, Ranking
from guts.table import POT, Table

__all__ = ["Showdown", "ShowdownDeal"]


class ShowdownDeal(Protocol):
    """What a showdown needs of the deal it ends (a :class:`~guts.games.draw.deal.DrawDeal`
    is one): the facts of the betting and the hands, the table, and the event record."""

    rules: DrawRules
    table: Table
    emit: Callable[[Event], None]
    seats: tuple[int, ...]
    openers: Openers
    game: str
    hands: dict[int, list[Card]]
    original: dict[int, tuple[Card, ...]]
    kept_apart: list[Card]
    widow: Card | None
    dead: int
    totals: dict[int, int]
    folded: frozenset[int]
    opener: int | None
    low_opener: int | None
    last_aggressor: int | None

    @property
    def in_hand(self) -> tuple[int, ...]:
        """The seats still in the hand."""
        ...

    def ranking(self) -> Ranking:
        """The ranking the hands are compared by now."""
        ...

    def order_from(self, first: int) -> tuple[int, ...]:
        """The dealt-in seats clockwise from ``first``."""
        ...


class Showdown:
    """The showdown of ``deal`` (or its uncontested end, when ``uncontested`` is a seat)."""

    def __init__(self, deal: ShowdownDeal, uncontested: int | None = None) -> None:
        # the deal holds its showdown: a weak proxy back, so that the two do not form a
        # reference cycle (a finished deal is then freed at once, not by the collector)
        self.deal: ShowdownDeal = weakref.proxy(deal)
        self.uncontested = uncontested
        self.declared: dict[int, Category] = {}
        contenders = deal.in_hand
        start = deal.last_aggressor
        if start is None:
            start = deal.low_opener if deal.game == "low" else deal.opener
        order = deal.order_from(start if start is not None else deal.seats[0])
        self.order = [seat for seat in order if seat in contenders]
        self.reason = ""
        self.no_trips = False
        self.shown: dict[int, tuple[str, ...]] = {}
        self._declaring = deal.rules.declare and uncontested is None and len(self.order) > 1

    @property
    def waiting(self) -> int | None:
        """The seat that must declare now (None: no declaration is awaited)."""
        if not self._declaring:
            return None
        return next((seat for seat in self.order if seat not in self.declared), None)

    def pending(self) -> tuple[Decision, ...]:
        """The declaration awaited, if any."""
        seat = self.waiting
        if seat is None:
            return ()
        actions = tuple(f"declare {c.value}" for c in self.deal.ranking().categories())
        return (Decision.choose(seat, actions, "declare your hand (cards do not speak)"),)

    def declare(self, seat: int, text: str) -> None:
        """Record ``seat``'s declaration (``declare full-house``)."""
        words = text.strip().lower().split()
        if seat != self.waiting or len(words) != 2 or words[0] != "declare":
            raise IllegalAction(f"{text!r} is not a declaration now")
        category = Category.parse(words[1])
        self.declared[seat] = category
        self.deal.emit(Declared(seat=seat, category=category.value))

    # -- settling ---------------------------------------------------------------------------

    def _proved(self) -> bool | None:
        """Whether the opener proved the openers (None when there is nothing to prove)."""
        deal = self.deal
        rank, opener = deal.openers.rank, deal.opener
        if rank is None or opener is None or opener in deal.folded:
            return None
        hand = deal.original.get(opener, tuple(deal.hands[opener]))
        ranking = deal.rules.high_ranking(deal.widow.rank if deal.widow else None)
        proved = opens(ranking, hand, rank)
        cards = proof_cards(ranking.evaluate(hand)) if proved else hand
        deal.emit(OpenersShown(seat=opener, cards=card_codes(cards),
                                kept_apart=card_codes(deal.kept_apart), proved=proved))  # fmt: skip
        return proved

    def settle(self) -> dict[int, int]:
        """Prove, show and pay; return what each seat won (the rest stays in the pot)."""
        proved = self._proved()
        dead_opener = self.deal.opener if proved is False else None
        if self.uncontested is not None:
            return self._uncontested(self.uncontested, dead_opener)
        return self._contested(dead_opener)

    def _uncontested(self, seat: int, dead: int | None) -> dict[int, int]:
        deal, table = self.deal, self.deal.table
        name = [table.names[seat]]
        if seat == dead:
            self.reason = (f"{who(name, start=False)} could not show openers: the hand is dead "
                           "and the pot stays")  # fmt: skip
            return {}
        if deal.rules.trips_to_win:
            ranking = deal.ranking()
            hand = deal.hands[seat]
            evaluation = ranking.evaluate(hand)
            good = wins_trips(ranking, hand)
            deal.emit(Showed(seat=seat, cards=card_codes(proof_cards(evaluation) if good else hand),
                              description=evaluation.description, live=good))  # fmt: skip
            self.shown[seat] = card_codes(proof_cards(evaluation) if good else hand)
            if not good:
                self.no_trips = True
                self.reason = f"{_says(name, 'has')} no three of a kind: the pot stays"
                return {}
        amount = table.collect(POT, seat)
        self.reason = f"{_says(name, 'wins')} {amount} uncontested"
        return {seat: amount}

    def _strength(self, ranking: Ranking, seat: int, dead: int | None) -> int | None:
        hand = self.deal.hands[seat]
        if seat == dead:
            return None
        if self.deal.rules.declare:
            return declared_strength(ranking, hand, self.declared[seat])
        return ranking.strength(hand)

    def _contested(self, dead: int | None) -> dict[int, int]:
        deal, table = self.deal, self.deal.table
        ranking, hands, trips = deal.ranking(), deal.hands, deal.rules.trips_to_win
        strengths: dict[int, int] = {}
        for seat in self.order:
            hand = hands[seat]
            description = ranking.describe(hand)
            strength = self._strength(ranking, seat, dead)
            if trips and not wins_trips(ranking, hand):
                strength = None
                self.no_trips = True
            if strength is not None:
                strengths[seat] = strength
            cards = self.shown[seat] = card_codes(hand)
            deal.emit(showed(seat, cards, description, strength is not None))
        pots = side_pots(deal.totals, deal.folded, deal.dead)
        won = award_pots(table, pots, strengths)
        self.no_trips = self.no_trips and table.pot > 0
        if won:
            best = [s for s in won if won[s]]
            self.reason = f"{who([table.names[s] for s in best], start=False)} won at the showdown"
        else:
            self.reason = "no hand could win: the pot stays"
        if table.pot and won:
            self.reason += "; the rest of the pot stays"
        return won


def _says(names: list[str], verb: str) -> str:
    """``names`` and ``verb`` agreeing, mid-sentence: "Ann wins", "you win"."""
    return f"{who(names, start=False)} {agree(names, verb)}"
