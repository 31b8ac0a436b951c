"""A draw poker session: deals one after another on one table, until a pot is won.

What carries from deal to deal: the pot (a thrown-in deal, a dead opener, Trips to Win),
the dealer button (it passes left after every deal), the progressive opening requirement,
Trips to Win's restriction to the players who stayed, Diablo's new pot.

>>> import random
>>> session = DrawSession(DrawRules(), ["Ann", "Bob", "Cy"], buy_in=100, rng=random.Random(3))
>>> session.start_deal()
>>> session.pending()[0].seat, session.pending()[0].actions   # Bob, left of the dealer Ann
(1, ('fold', 'check', 'bet 1'))
>>> for seat in (1, 2, 0):
...     _ = session.act(seat, "check")
>>> session.deal.result, session.table.pot, session.table.button   # thrown in; Bob deals
('thrown-in', 3, 1)
"""

from __future__ import annotations

import secrets
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from contextlib import suppress
from random import Random
from typing import Any

from guts.cards import Card, Deck, deck_cards, shuffle
from guts.errors import HandError, IllegalAction, OptionError
from guts.games.base import Event, EventError
from guts.games.decision import Choose, Decision, check_action
from guts.games.draw.deal import DrawDeal, Phase
from guts.games.draw.events import Acted, DealStarted, Moved, SessionEnded, Shuffled, Stopped
from guts.games.draw.rules import DrawRules, Openers
from guts.games.session import SHORT_OF_PLAYERS, RecordedSession
from guts.rankings.base import Category
from guts.table import POT, Place, Reason, Table

__all__ = ["PROGRESSION", "SHORT_OF_PLAYERS", "DrawSession"]

PROGRESSION = (Openers.JACKS, Openers.QUEENS, Openers.KINGS, Openers.ACES, Openers.KINGS,
               Openers.QUEENS)  # fmt: skip
"""Progressive jackpots: after each deal nobody opens, the next requirement (cycling)."""


class _Shuffler:
    """The session's shuffle, handed to its deals: the recorded orders of a replay first,
    then ``rng`` (exactly as ``rng.shuffle``). It holds nothing of the session, so that a
    session and its deal do not hold each other (a finished session is freed at once)."""

    __slots__ = ("orders", "rng")

    def __init__(self, rng: Random, orders: deque[tuple[str, ...]]) -> None:
        self.rng = rng
        self.orders = orders

    def __call__(self, cards: Sequence[Card]) -> list[Card]:
        if self.orders:
            return _recorded_order(self.orders.popleft(), cards)
        shuffled = list(cards)
        shuffle(shuffled, self.rng)
        return shuffled


class DrawSession(RecordedSession[DrawRules, DrawDeal]):
    """A session of draw poker played by ``rules``.

    ``players`` are names (bought in for ``buy_in``) or ``(name, chips)`` pairs, clockwise;
    ``button`` is the first dealer; ``rng`` shuffles every stock (an unpredictable source
    when None), unless :meth:`start_deal` is given a stacked deck.
    """

    game = "draw"
    rules_class = DrawRules
    moved_event = Moved
    ended_event = SessionEnded

    def __init__(
        self,
        rules: DrawRules,
        players: Sequence[str | tuple[str, int]],
        *,
        buy_in: int = 0,
        rng: Random | None = None,
        button: int = 0,
    ) -> None:
        _check_players(rules, len(players))
        table = Table(players, buy_in=buy_in, credit=rules.credit, odd_chips=rules.odd_chips,
                      button=button)  # fmt: skip
        super().__init__(rules, table, record_buy_ins=True)
        self._rng: Random = rng if rng is not None else secrets.SystemRandom()
        self._progress = 0
        self._restrict: tuple[int, ...] = ()
        self._antes_due = True
        self._orders: deque[tuple[str, ...]] = deque()
        self._shuffler = _Shuffler(self._rng, self._orders)
        if len(self._seats_for_deal()) < 2:
            self._end(SHORT_OF_PLAYERS)  # table stakes with fewer than two stakes

    @property
    def openers(self) -> Openers:
        """The opening requirement of the next (or current) deal."""
        if self.rules.progressive:
            return PROGRESSION[self._progress % len(PROGRESSION)]
        return self.rules.openers

    def start_deal(self, deck: Deck | None = None) -> None:
        """Start the next deal, with ``deck`` (stacked, for tests and replays) or a shuffle."""
        self._check_can_deal()
        seats = self._seats_for_deal()
        if len(seats) < 2:
            self._end(SHORT_OF_PLAYERS)
            return
        needed = len(seats) * self.rules.hand_size + (1 if self.rules.wild_widow else 0)
        if deck is not None and len(deck) < needed:
            raise HandError(f"the deck has {len(deck)} cards; this deal needs {needed}")
        if deck is None and self._orders:  # a replay: the recorded stock, stacked or not
            deck = Deck.stacked(self._orders.popleft(), self.rules.deck)
        if deck is None:
            deck = Deck(self._shuffle(deck_cards(self.rules.deck)), self.rules.deck)
        if self._table.button != seats[-1]:  # (else the button is on its player already)
            self._button_to_a_player()
        self._deals += 1
        self._deal = DrawDeal(self.rules, self._table, self._emit, self._shuffler, deck,
                              number=self._deals, seats=seats, openers=self.openers,
                              antes=self._antes_due)  # fmt: skip
        self._deal.start()
        self._after_step()

    def stacked(
        self, hands: Mapping[int, str | Iterable[str | Card]], then: str | Iterable[str | Card] = ""
    ) -> Deck:
        """A stock for :meth:`start_deal` that gives each seat of ``hands`` (seat -> cards)
        exactly those cards in the next deal, dealt one at a time from the dealer's left to
        the seats dealt in (those with chips; after a Trips to Win pot nobody won, those who
        stayed); then ``then`` (Wild Widow: its first card is the widow, turned after the
        fourth round; then the draws, in the order they are dealt); then the rest of the
        pack (jokers too, when the rules add them) in new-deck order. A seat left out gets
        the lowest unused cards. A seat not dealt in, a hand of the wrong size, a card twice
        or not in the pack raise a GutsError.

        >>> session = DrawSession(DrawRules(), ["Ann", "Bob"], buy_in=10)
        >>> session.start_deal(session.stacked({0: "As Ad Ah Ac Ks", 1: "2c 3d 4h 5s 7c"}))
        >>> session.deal.hands[0], len(session.deal.stock)
        ([Card('As'), Card('Ad'), Card('Ah'), Card('Ac'), Card('Ks')], 42)
        """
        self._check_can_deal()
        rules = self.rules
        widow = rules.widow_after if rules.wild_widow else None
        return Deck.dealing(hands, self._seats_for_deal(), rules.hand_size, then, rules.deck,
                            widow_after=widow)  # fmt: skip

    def stop(self, reason: str = "the players stopped") -> None:
        """End the session between deals, sharing the pot out equally among the seats
        (odd chips by the table's rule), so the table can settle."""
        if self.is_over and not self._table.pot:
            return
        if not self.deal_over:
            raise IllegalAction(f"deal {self._deals} is in progress: finish it first")
        self._emit(Stopped(reason=reason))
        if self._table.pot:
            self._table.split(
                POT,
                list(self._table.turn_order()),
                Reason.REFUND,
                note="the session stops: the pot is shared out",
            )
        if not self.is_over:
            self._end(reason)
        self._sync()

    def _canonical(self, decision: Decision, action: object) -> str:
        """Declarations (cards do not speak) may name the hand in any accepted words
        (``declare full-house`` as written reads as itself, so ``reads_verbatim`` holds)."""
        text = check_action(action)
        if isinstance(decision.options, Choose):  # (decision.kind == "choose")
            words = " ".join(text.strip().lower().split())
            if words.startswith("declare "):
                with suppress(HandError):
                    return decision.canonical(f"declare {Category.parse(words[8:]).value}")
        return decision.canonical(text)

    # -- between deals ---------------------------------------------------------------------

    def _seats_for_deal(self) -> tuple[int, ...]:
        """The seats dealt in next: those with chips; after a Trips to Win pot nobody won,
        only those who stayed to its draw, until that pot is won."""
        order = self._dealing_order()
        if self._restrict:
            kept = tuple(s for s in order if s in self._restrict)
            if len(kept) >= 2:
                return kept
        return order

    def _after_step(self) -> None:
        record = self._record
        if self._table.ledger_size != record.synced:
            record.sync()
        deal = self._deal
        if deal is None or not deal.over:
            return
        table = self._table
        self._between_deals(deal)
        self._sync()
        if self.rules.max_deals is not None:
            if self._deals >= self.rules.max_deals:
                self._end(f"the deal limit ({self.rules.max_deals}) was reached")
        elif table.pot == 0:
            self._end(deal.reason or "the pot was won")
        if not self._over and len(self._seats_for_deal()) < 2:
            self._end(SHORT_OF_PLAYERS)
        self._pass_button()
        self._sync()

    def _between_deals(self, deal: DrawDeal) -> None:
        rules = self.rules
        opened = deal.opener is not None or deal.low_opener is not None
        if rules.progressive:
            self._progress = 0 if opened else self._progress + 1
        self._antes_due = True
        if rules.trips_to_win and deal.showdown is not None and deal.showdown.no_trips:
            self._restrict = deal.at_draw
        elif deal.result == "won":
            self._restrict = ()  # Trips to Win: those who were out stay out until it is won
        if rules.diablo and deal.opener is not None and deal.result == "won":
            self._diablo(deal)

    def _diablo(self, deal: DrawDeal) -> None:
        opener = deal.opener
        assert opener is not None
        if deal.won.get(opener, 0) > 0:
            return
        amount = sum(deal.won.values())
        if self.rules.diablo_cap is not None:
            amount = min(amount, self.rules.diablo_cap)
        self._table.pay(opener, Place("pot"), amount, Reason.MATCH, "Diablo: the opener's new pot")
        self._antes_due = False

    def _shuffle(self, cards: Sequence[Card]) -> list[Card]:
        return self._shuffler(cards)

    # -- views ---------------------------------------------------------------------------------

    def _view(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` may see: its own cards, the public state, visible events."""
        deal = self._deal
        data = self._table_view(seat, deal=self._deals, over=self._over,
                                openers=self.openers.value)  # fmt: skip
        if deal is not None:
            data.update(_deal_view(deal, seat))
        return data

    # -- replay ---------------------------------------------------------------------------------

    def _prepare_replay(self, events: list[Event]) -> None:
        self._orders.extend(e.deck for e in events if isinstance(e, Shuffled))

    def _replay_event(self, event: Event) -> None:
        if isinstance(event, DealStarted):
            self.start_deal()
        elif isinstance(event, Acted):
            self.act(event.seat, event.action)
        elif isinstance(event, Stopped):
            self.stop(event.reason)
        elif isinstance(event, SessionEnded) and not self.is_over:
            self.start_deal()


def _recorded_order(codes: Sequence[str], cards: Sequence[Card]) -> list[Card]:
    """``cards`` in the recorded order ``codes`` (two jokers share one code)."""
    left: dict[str, list[Card]] = {}
    for card in cards:
        left.setdefault(card.ascii, []).append(card)
    order = []
    for code in codes:
        if not left.get(code):
            raise EventError("a recorded stock order does not match the cards to shuffle")
        order.append(left[code].pop())
    if len(order) != len(cards):
        raise EventError("a recorded stock order does not match the cards to shuffle")
    return order


def _deal_view(deal: DrawDeal, seat: int | None) -> dict[str, Any]:
    betting = deal.betting
    drawing = deal.phase in (Phase.DRAWING, Phase.EXCHANGE)
    showdown = deal.showdown
    shown = {str(s): list(c) for s, c in showdown.shown.items()} if showdown else {}
    return {
        "phase": deal.phase.value,
        "hi_lo": deal.game,
        "dealt_in": list(deal.seats),
        "hand": [c.ascii for c in deal.hands[seat]] if seat in deal.hands else None,
        "hand_sizes": {str(s): len(cards) for s, cards in deal.hands.items()},
        "widow": deal.widow.ascii if deal.widow is not None else None,
        "folded": sorted(deal.folded | (betting.folded if betting else frozenset())),
        "opener": deal.opener,
        "bets": {str(s): c for s, c in betting.bets.items()} if betting else {},
        "current_bet": betting.current_bet if betting else 0,
        "drawn": {str(s): n for s, n in deal.drawn.items()} if drawing else {},
        "kept_apart": len(deal.kept_apart),
        "offer": deal.offer[0].ascii if deal.offer is not None else None,
        "shown": shown,
        "result": deal.result,
    }


def _check_players(rules: DrawRules, players: int) -> None:
    needed = players * rules.hand_size + (1 if rules.wild_widow else 0)
    size = len(deck_cards(rules.deck))
    if needed > size:
        raise OptionError(f"{players} players need {needed} cards; the pack has {size}")
    rules.check_players(players)
    if not rules.reshuffle and not rules.all_for_one and players > 6:
        raise OptionError("seven or eight players need the reshuffle rule (reshuffle=yes)")
