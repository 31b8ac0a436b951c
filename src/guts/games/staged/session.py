"""A staged-game session: deals one after another until someone has enough points.

>>> import random
>>> from guts.games.staged.rules import StagedRules
>>> session = StagedSession(StagedRules(), ["Ann", "Bob", "Cy"], buy_in=50,
...                         rng=random.Random(3))
>>> session.start_deal()                       # everyone antes; three cards each
>>> [(d.seat, d.actions) for d in session.pending()]   # Bob, left of the dealer Ann
[(1, ('in', 'out'))]
>>> for seat, choice in ((1, "in"), (2, "out"), (0, "out")):
...     _ = session.act(seat, choice)
>>> session.points
{1: 1}
>>> StagedSession.replay(session.record()).events == session.events
True
"""

from __future__ import annotations

import secrets
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from random import Random
from typing import Any

from guts.cards import Card, Deck, DeckKind, card_codes, deck_cards
from guts.errors import CardError, IllegalAction, OptionError
from guts.games.base import Event
from guts.games.session import SHORT_OF_PLAYERS, RecordedSession, open_table
from guts.games.staged.deal import StagedDeal
from guts.games.staged.events import (
    Acted,
    CardsShown,
    DealStarted,
    Moved,
    Outcome,
    SessionEnded,
    Shuffled,
    StockCount,
    Stopped,
    TargetAnnounced,
)
from guts.games.staged.rules import Game, StagedRules
from guts.grammar import who
from guts.table import POT, Reason, Table

__all__ = ["SHORT_OF_PLAYERS", "StagedSession"]


class StagedSession(RecordedSession[StagedRules, StagedDeal]):
    """A session of Three Five Seven, Napalm, Nuts or Toh played by ``rules``.

    ``players`` are names (bought in for ``buy_in``) or ``(name, chips)`` pairs, clockwise,
    or an existing :class:`~guts.table.Table` (dealer's choice: its stacks, pot and button
    carry over); ``button`` is the first dealer (seat 0 if None); ``rng`` shuffles (an
    unpredictable source when None), unless :meth:`start_deal` is given a stacked deck.
    The target (legs, nuts, points to take the pot) is fixed when the session begins.
    """

    game = "staged"
    rules_class = StagedRules
    moved_event = Moved
    ended_event = SessionEnded

    def __init__(
        self,
        rules: StagedRules,
        players: Sequence[str | tuple[str, int]] | Table,
        *,
        buy_in: int = 0,
        rng: Random | None = None,
        button: int | None = None,
    ) -> None:
        table = open_table(rules, players, buy_in=buy_in, button=button)
        count = len(table.names)
        self.target = rules.target(count)
        _check_players(rules, count, self.target)
        super().__init__(rules, table, record_buy_ins=False)  # buy-ins are not events
        self._rng = rng
        self._points: dict[int, int] = {}
        self._stock: Deck | None = None  # Toh: the stock kept from hand to hand
        self._discards: list[Card] = []
        self._point_cards: dict[int, list[Card]] = {}
        self._replay_decks: deque[Deck | None] = deque()  # a replay: each deal's deck
        if len(self._seats_with_chips()) < 2:
            self._end(SHORT_OF_PLAYERS)  # table stakes with fewer than two stakes

    # -- the state ------------------------------------------------------------------------

    @property
    def points(self) -> dict[int, int]:
        """Legs, nuts or points of each seat that has any."""
        return {s: n for s, n in sorted(self._points.items()) if n}

    @property
    def point_cards(self) -> dict[int, tuple[Card, ...]]:
        """Toh: the cards each seat keeps face up as points."""
        return {s: tuple(cards) for s, cards in sorted(self._point_cards.items())}

    @property
    def stock_size(self) -> int:
        """Toh: cards left in the stock (0 before the first hand)."""
        return len(self._stock) if self._stock is not None else 0

    @property
    def discard_count(self) -> int:
        """Toh: cards on the discard pile."""
        return len(self._discards)

    def unscored_cards(self) -> tuple[Card, ...]:
        """Toh: the pack less the point cards, in new-deck order: what a reshuffle uses."""
        scored = {c for cards in self._point_cards.values() for c in cards}
        return tuple(c for c in deck_cards(DeckKind.STANDARD) if c not in scored)

    def start_deal(self, deck: Deck | None = None) -> None:
        """Start the next deal (Toh: hand). ``deck``: a stacked deck for tests and replays;
        in Toh it replaces the stock and discards, so it must hold exactly
        :meth:`unscored_cards`; without it Toh reshuffles only when the stock runs short."""
        self._check_can_deal()
        seats = self._dealing_order()
        if len(seats) < 2:
            self._end(SHORT_OF_PLAYERS)
            return
        stock = self._toh_stock(deck, len(seats)) if self.rules.is_toh else None
        if stock is None and not self.rules.is_toh:
            deck = deck if deck is not None else Deck.shuffled(DeckKind.STANDARD, self._rng)
            needed = len(seats) * self.rules.cards_per_player
            if len(deck) < needed:
                raise CardError(f"the deck has {len(deck)} cards; this deal needs {needed}")
        self._button_to_a_player()
        if self._deals == 0:
            self._emit(TargetAnnounced(target=self.target, word=self.rules.word))
        self._deals += 1
        self._emit(DealStarted(deal=self._deals, dealer=self._table.button, seats=seats))
        if self.rules.is_toh:
            if stock is not None:
                self._stock, self._discards = stock, []
                self._emit(Shuffled(deck=card_codes(stock.cards), audience=()))
            if self._deals == 1:
                self._table.pay(self._table.button, POT, self.rules.ante, Reason.ANTE, "seed")
            deck = self._stock
        else:
            assert deck is not None
            self._emit(Shuffled(deck=card_codes(deck.cards), audience=()))
        assert deck is not None
        self._deal = StagedDeal(
            self.rules, self._table, self._emit, deck, self._deals, seats, self._points, self.target
        )
        self._deal.start()
        self._after_step()

    def stacked(
        self, hands: Mapping[int, str | Iterable[str | Card]], then: str | Iterable[str | Card] = ""
    ) -> Deck:
        """A deck for :meth:`start_deal` that gives each seat of ``hands`` (seat -> its whole
        hand, every stage's cards in turn) exactly those cards in the next deal: stage by
        stage, one card at a time from the dealer's left to the seats dealt in; then
        ``then``, then the rest of the pack in new-deck order. In Toh a hand is one card, the
        deck holds just :meth:`unscored_cards` and ``then`` orders the stock for the hands
        after. A seat left out gets the lowest unused cards. A seat not dealt in, a hand of
        the wrong size, a card twice or not in the pack (or kept as a point) raise a
        GutsError.

        >>> session = StagedSession(StagedRules(), ["Ann", "Bob"], buy_in=10)
        >>> deck = session.stacked({0: "As Ad Ah Kc Kd Qs Qh", 1: "2c 3d 4h 5s 7c 8d 9h"})
        >>> session.start_deal(deck)
        >>> session.deal.hands[0]
        [Card('As'), Card('Ad'), Card('Ah')]
        """
        self._check_can_deal()
        rules, seats = self.rules, self._dealing_order()
        if not rules.is_toh:
            return Deck.dealing(hands, seats, rules.cards_per_player, then)
        stock = "Toh stock (the pack less the cards kept as points)"
        return Deck.dealing(hands, seats, 1, then, pack=self.unscored_cards(), pack_name=stock)

    def _toh_stock(self, deck: Deck | None, players: int) -> Deck | None:
        """The new stock if this hand reshuffles (None: keep dealing the stock)."""
        if deck is None and self._stock is not None and len(self._stock) >= players:
            return None
        unscored = self.unscored_cards()
        if deck is None:
            cards = list(unscored)
            (self._rng if self._rng is not None else secrets.SystemRandom()).shuffle(cards)
            return Deck(cards)
        if len(deck) != len(unscored) or set(deck.cards) != set(unscored):
            raise CardError(
                f"a Toh deck must hold exactly the {len(unscored)} cards not kept as points"
            )
        return Deck(deck.cards)

    def stop(self, reason: str = "the players stopped") -> None:
        """End the session between deals, sharing the pot equally (odd chips by the
        table's rule); points are forfeited."""
        if self.is_over and not self._table.pot:
            return
        if not self.deal_over:
            raise IllegalAction(f"deal {self._deals} is in progress: finish it first")
        self._emit(Stopped(reason=reason))
        seats = self._seats_with_chips() or self._table.turn_order()
        shared = self._table.pot
        if shared:
            self._table.split(POT, list(seats), Reason.REFUND)
        self._emit(
            Outcome(text=f"The session stops: {shared} chips are shared out.", winners=tuple(seats))
        )
        if not self.is_over:
            self._end(reason)
        self._sync()

    # -- between deals ---------------------------------------------------------------------

    def _after_step(self) -> None:
        self._sync()
        deal = self._deal
        if deal is None or not deal.over:
            return
        if self.rules.is_toh:
            self._discards += deal.discards()
            for seat, card in deal.kept.items():
                self._point_cards.setdefault(seat, []).append(card)
            self._emit(StockCount(stock=self.stock_size, discards=len(self._discards)))
        if deal.winner is not None:
            name, total = self._table.names[deal.winner], self._points[deal.winner]
            self._end(f"{who([name], start=False)} took the pot with {total} {self.rules.word}s")
        elif self.rules.max_deals is not None and self._deals >= self.rules.max_deals:
            self._end(f"the deal limit ({self.rules.max_deals}) was reached")
        elif len(self._seats_with_chips()) < 2:
            self._end(SHORT_OF_PLAYERS)
        self._pass_button()

    # -- views ---------------------------------------------------------------------------------

    def _view(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` may see: its own cards, what it was shown, public events."""
        deal, rules = self._deal, self.rules
        points = [self._points.get(s, 0) for s in range(len(self._table.names))]
        state = self._table_view(seat, deal=self._deals, over=self._over, target=self.target,
                                 word=rules.word, points=points)  # fmt: skip
        data: dict[str, Any] = {"game": self.game, "variant": rules.game.value}
        data["rules"] = rules.to_options()
        data.update(state)  # the game first, then the variant and rules, then the table
        if rules.game is Game.TOH:
            data["point_cards"] = {
                str(s): [c.ascii for c in cards] for s, cards in self._point_cards.items()
            }
            data["stock"] = self.stock_size
            data["discards"] = len(self._discards)
        if deal is not None:
            stage = deal.stage
            data["dealt_in"] = list(deal.seats)
            data["dealer"] = deal.dealer
            data["phase"] = deal.phase.value
            data["simultaneous"] = deal.simultaneous
            data["stage"] = None if stage is None else {
                "number": stage.number, "cards": stage.deal, "size": stage.size,
                "low": stage.low, "wild": list(stage.wild), "private": stage.private,
                "label": stage.label,
            }  # fmt: skip
            own = seat is not None and seat in deal.hands and not deal.over
            data["hand"] = [c.ascii for c in deal.hands[seat]] if own else None  # type: ignore[index]
            data["declared"] = {str(s): choice for s, choice in deal.declared.items()}
            data["shown"] = [_shown(event) for event in deal.shown if event.visible_to(seat)]
        return data

    # -- replay ---------------------------------------------------------------------------------

    def _prepare_replay(self, events: list[Event]) -> None:
        """Note each deal's deck: the order its ``Shuffled`` event records, if one follows
        its ``DealStarted`` (a Toh hand that deals on from the stock has none)."""
        following = [*events[1:], None][: len(events)]  # no events: nothing follows
        for event, after in zip(events, following, strict=True):
            if isinstance(event, DealStarted):
                deck = Deck.stacked(after.deck) if isinstance(after, Shuffled) else None
                self._replay_decks.append(deck)

    def _replay_event(self, event: Event) -> None:
        if isinstance(event, DealStarted):
            self.start_deal(self._replay_decks.popleft())
        elif isinstance(event, Acted):
            self.act(event.seat, event.action)
        elif isinstance(event, Stopped):
            self.stop(event.reason)
        elif isinstance(event, SessionEnded) and not self.is_over:
            self.start_deal()  # it ended for want of players with chips


def _shown(event: CardsShown) -> dict[str, Any]:
    return {"seat": event.seat, "cards": list(event.cards), "description": event.description}



def _check_players(rules: StagedRules, count: int, target: int) -> None:
    """Raise OptionError unless the pack deals ``count`` players and the rules allow them."""
    if count < 2:
        raise OptionError(f"a staged game needs at least 2 players, not {count}")
    if rules.is_toh and count * target > 52:
        raise OptionError(
            f"Toh with {count} players to {target} points may need {count * target} "
            "cards: the pack has 52; fewer players or points"
        )
    if not rules.is_toh and count * rules.cards_per_player > 52:
        most = 52 // rules.cards_per_player
        raise OptionError(
            f"{rules.game.value} deals {rules.cards_per_player} cards each: at most {most} "
            f"players, not {count}"
        )
    rules.check_players(count)
