"""A staged-game session: deals one after another until someone has enough points.

>>> import random
>>> from guts.games.staged.rules import StagedRules
>>> session = StagedSession(StagedRules(), ["Ann", "Bob", "Cy"], buy_in=50,
...                         rng=random.Random(3))
>>> session.start_deal()                       # everyone antes; three cards each
>>> [(d.seat, d.actions) for d in session.pending()]   # Bob, left of the dealer Ann
[(1, ('in', 'out'))]
>>> session.act(1, "in"); session.act(2, "out"); session.act(0, "out")
>>> session.points
{1: 1}
>>> StagedSession.replay(session.record()).events == session.events
True
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from random import Random
from typing import Any

from guts.cards import Card, Deck, DeckKind, deck_cards
from guts.errors import CardError, IllegalAction, OptionError
from guts.games.base import Decision, Event, EventError, Session, events_from_json, events_to_json
from guts.games.guts.session import _moved
from guts.games.staged.deal import StagedDeal
from guts.games.staged.events import (
    Acted,
    CardsShown,
    DealStarted,
    Outcome,
    SessionEnded,
    Shuffled,
    StockCount,
    Stopped,
)
from guts.games.staged.rules import Game, StagedRules
from guts.table import POT, Reason, Table

__all__ = ["StagedSession"]


class StagedSession(Session):
    """A session of Three Five Seven, Napalm, Nuts or Toh played by ``rules``.

    ``players`` are names (bought in for ``buy_in``) or ``(name, chips)`` pairs, clockwise,
    or an existing :class:`~guts.table.Table` (dealer's choice: its stacks, pot and button
    carry over); ``button`` is the first dealer (seat 0 if None); ``rng`` shuffles (an
    unpredictable source when None), unless :meth:`start_deal` is given a stacked deck.
    The target (legs, nuts, points to take the pot) is fixed when the session begins.
    """

    game = "staged"

    def __init__(
        self,
        rules: StagedRules,
        players: Sequence[str | tuple[str, int]] | Table,
        *,
        buy_in: int = 0,
        rng: Random | None = None,
        button: int | None = None,
    ) -> None:
        if isinstance(players, Table):
            table = players
            if table.credit != rules.credit or table.odd_chips != rules.odd_chips:
                raise OptionError(
                    f"credit/odd-chips: the table plays credit={'yes' if table.credit else 'no'}"
                    f", odd-chips={table.odd_chips.value}; set the rules the same"
                )
            if button is not None:
                raise OptionError("button: a shared table keeps its own dealer button")
        else:
            table = Table(
                players, buy_in=buy_in, credit=rules.credit, odd_chips=rules.odd_chips,
                button=button or 0,
            )  # fmt: skip
        count = len(table.names)
        self.target = rules.target(count)
        _check_players(rules, count, self.target)
        self.rules = rules
        self._rng = rng
        self._table = table
        self._players = [(seat.name, seat.stack) for seat in table.seats]
        self._first_button = table.button
        self._events: list[Event] = []
        self._synced = len(table.ledger)
        self._deal: StagedDeal | None = None
        self._deals = 0
        self._over = ""
        self._points: dict[int, int] = {}
        self._stock: Deck | None = None  # Toh: the stock kept from hand to hand
        self._discards: list[Card] = []
        self._point_cards: dict[int, list[Card]] = {}

    # -- the contract ---------------------------------------------------------------------

    @property
    def table(self) -> Table:
        """The chip table."""
        return self._table

    @property
    def events(self) -> tuple[Event, ...]:
        """The full record, hidden events included."""
        return tuple(self._events)

    @property
    def is_over(self) -> bool:
        """True once the session has ended."""
        return bool(self._over)

    @property
    def over_reason(self) -> str:
        """Why the session ended ('' while it goes on)."""
        return self._over

    @property
    def deal_over(self) -> bool:
        """True when no deal is in progress."""
        return self._deal is None or self._deal.over

    @property
    def deal(self) -> StagedDeal | None:
        """The current (or last) deal."""
        return self._deal

    @property
    def deals_played(self) -> int:
        """How many deals (Toh: hands) have started."""
        return self._deals

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
        if self.is_over:
            raise IllegalAction(f"the session is over ({self._over}): no more deals")
        if not self.deal_over:
            raise IllegalAction(f"deal {self._deals} is still in progress")
        seats = self._playing_seats()
        if len(seats) < 2:
            self._end("fewer than two players have chips")
            return
        stock = self._toh_stock(deck, len(seats)) if self.rules.is_toh else None
        if stock is None and not self.rules.is_toh:
            deck = deck if deck is not None else Deck.shuffled(DeckKind.STANDARD, self._rng)
            needed = len(seats) * self.rules.cards_per_player
            if len(deck) < needed:
                raise CardError(f"the deck has {len(deck)} cards; this deal needs {needed}")
        self._deals += 1
        self._emit(DealStarted(deal=self._deals, dealer=self._table.button, seats=seats))
        if self.rules.is_toh:
            if stock is not None:
                self._stock, self._discards = stock, []
                self._emit(Shuffled(deck=_codes(stock.cards), audience=()))
            if self._deals == 1:
                self._table.pay(self._table.button, POT, self.rules.ante, Reason.ANTE, "seed")
            deck = self._stock
        else:
            assert deck is not None
            self._emit(Shuffled(deck=_codes(deck.cards), audience=()))
        assert deck is not None
        self._deal = StagedDeal(
            self.rules, self._table, self._emit, deck, self._deals, seats, self._points, self.target
        )
        self._deal.start()
        self._after_step()

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
        seats = self._playing_seats() or self._table.turn_order()
        shared = self._table.pot
        if shared:
            self._table.split(POT, list(seats), Reason.REFUND)
        self._emit(
            Outcome(text=f"The session stops: {shared} chips are shared out.", winners=tuple(seats))
        )
        if not self.is_over:
            self._end(reason)
        self._sync()

    def pending(self) -> tuple[Decision, ...]:
        """The decisions to be made now."""
        return () if self._deal is None or self.is_over else self._deal.pending()

    def _apply(self, seat: int, action: str) -> None:
        assert self._deal is not None
        self._deal.act(seat, action)
        self._after_step()

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
            self._end(f"{name} took the pot with {total} {self.rules.word}s")
        elif self.rules.max_deals is not None and self._deals >= self.rules.max_deals:
            self._end(f"the deal limit ({self.rules.max_deals}) was reached")
        elif len(self._playing_seats()) < 2:
            self._end("fewer than two players have chips")
        self._table.move_button()

    def _playing_seats(self) -> tuple[int, ...]:
        order = self._table.turn_order()
        if self._table.credit:
            return order
        return tuple(s for s in order if self._table.stack(s) > 0)

    def _end(self, reason: str) -> None:
        self._over = reason
        self._emit(SessionEnded(reason=reason))

    def _emit(self, event: Event) -> None:
        self._sync()
        self._events.append(event)

    def _sync(self) -> None:
        ledger = self._table.ledger
        for transfer in ledger[self._synced :]:
            self._events.append(_moved(transfer))
        self._synced = len(ledger)

    # -- views ---------------------------------------------------------------------------------

    def view(self, seat: int) -> dict[str, Any]:
        """Everything ``seat`` may see: its own cards, what it was shown, public events."""
        if not 0 <= seat < len(self._table.names):
            raise IllegalAction(f"no seat {seat}: seats are 0 to {len(self._table.names) - 1}")
        return self._view(seat)

    def public_view(self) -> dict[str, Any]:
        """Everything a spectator may see."""
        return self._view(None)

    def _view(self, seat: int | None) -> dict[str, Any]:
        table, deal, rules = self._table, self._deal, self.rules
        data: dict[str, Any] = {
            "game": self.game,
            "variant": rules.game.value,
            "rules": rules.to_options(),
            "seat": seat,
            "players": list(table.names),
            "stacks": [s.stack for s in table.seats],
            "button": table.button,
            "pot": table.pot,
            "deal": self._deals,
            "over": self._over,
            "target": self.target,
            "word": rules.word,
            "points": [self._points.get(s, 0) for s in range(len(table.names))],
            "to_act": [d.seat for d in self.pending()],
            "pending": [d.to_dict() for d in self.pending() if d.seat == seat],
        }
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
        data["events"] = events_to_json(self.visible_events(seat))
        return data

    # -- records and replay ---------------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        """A JSON-able record that :meth:`replay` turns back into this exact session."""
        return {
            "game": self.game,
            "rules": self.rules.to_options(),
            "players": [[name, stack] for name, stack in self._players],
            "button": self._first_button,
            "events": events_to_json(self._events),
        }

    @classmethod
    def replay(cls, record: Mapping[str, Any]) -> StagedSession:
        """Rebuild a session from :meth:`record` (deck orders and actions replayed), and
        check that the replay makes exactly the recorded events."""
        try:
            rules = StagedRules.from_options(None, record["rules"])
            players = [(str(name), int(stack)) for name, stack in record["players"]]
            events = events_from_json(record["events"])
            session = cls(rules, players, button=int(record["button"]))
        except (KeyError, TypeError, ValueError) as error:
            raise EventError(f"bad staged-game record: {error}") from None
        for index, event in enumerate(events):
            if isinstance(event, DealStarted):
                after = events[index + 1] if index + 1 < len(events) else None
                deck = Deck.stacked(after.deck) if isinstance(after, Shuffled) else None
                session.start_deal(deck)
            elif isinstance(event, Acted):
                session.act(event.seat, event.action)
            elif isinstance(event, Stopped):
                session.stop(event.reason)
            elif isinstance(event, SessionEnded) and not session.is_over:
                session.start_deal()  # it ended for want of players with chips
        if session.events != tuple(events):
            raise EventError("the record does not replay to the same events")
        return session


def _shown(event: CardsShown) -> dict[str, Any]:
    return {"seat": event.seat, "cards": list(event.cards), "description": event.description}


def _codes(cards: Sequence[Card]) -> tuple[str, ...]:
    return tuple(card.ascii for card in cards)


def _check_players(rules: StagedRules, count: int, target: int) -> None:
    if count < 2:
        raise OptionError(f"a staged game needs at least 2 players, not {count}")
    if rules.is_toh:
        if count * target > 52:
            raise OptionError(
                f"Toh with {count} players to {target} points may need {count * target} "
                "cards: the pack has 52; fewer players or points"
            )
        return
    if count * rules.cards_per_player > 52:
        most = 52 // rules.cards_per_player
        raise OptionError(
            f"{rules.game.value} deals {rules.cards_per_player} cards each: at most {most} "
            f"players, not {count}"
        )
