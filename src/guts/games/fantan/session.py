"""A Fan Tan session: deals one after another on one table, until the players stop.

>>> import random
>>> from guts.games.fantan.presets import new_session
>>> session = new_session("fan-tan", ["Ann", "Bob", "Cy"], buy_in=50, rng=random.Random(3))
>>> session.start_deal()
>>> session.table.pot, session.deal.dealt   # three antes; 52 cards: Bob 18, Cy 17, Ann 17
(5, {1: 18, 2: 17, 0: 17})
>>> session.pending()[0].seat   # Bob, left of the dealer Ann, plays first
1
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from random import Random
from typing import Any

from guts.cards import Card, Deck, DeckKind, check_distinct, parse_cards
from guts.errors import HandError, OptionError
from guts.games.base import Event
from guts.games.fantan.deal import FanTanDeal, hand_sizes
from guts.games.fantan.events import Acted, Moved, SessionEnded, Shuffled
from guts.games.fantan.rules import FEWEST_PLAYERS, MOST_PLAYERS, FanTanRules
from guts.games.session import SHORT_OF_PLAYERS, RecordedSession, open_table
from guts.table import Table

__all__ = ["SHORT_OF_PLAYERS", "FanTanSession"]


class FanTanSession(RecordedSession[FanTanRules, FanTanDeal]):
    """A game of Fan Tan played by ``rules``.

    ``players`` are names (bought in for ``buy_in``), ``(name, chips)`` pairs, clockwise,
    or a :class:`~guts.table.Table` (dealer's choice: its stacks and button carry over);
    ``button`` is the first dealer (seat 0 if None); ``rng`` shuffles every deck (an
    unpredictable source when None), unless :meth:`start_deal` is given a stacked deck.
    """

    game = "fantan"
    rules_class = FanTanRules
    moved_event = Moved
    ended_event = SessionEnded

    def __init__(
        self,
        rules: FanTanRules,
        players: Sequence[str | tuple[str, int]] | Table,
        *,
        buy_in: int = 0,
        rng: Random | None = None,
        button: int | None = None,
    ) -> None:
        count = len(players.names) if isinstance(players, Table) else len(players)
        if not FEWEST_PLAYERS <= count <= MOST_PLAYERS:
            raise OptionError(
                f"Fan Tan is for {FEWEST_PLAYERS} to {MOST_PLAYERS} players, not {count}"
            )
        table = open_table(rules, players, buy_in=buy_in, button=button)
        super().__init__(rules, table, record_buy_ins=False)  # buy-ins are not events
        self._rng = rng
        self._deal_began = 0
        if len(self._seats_with_chips()) < 2:
            self._end(SHORT_OF_PLAYERS)  # table stakes with fewer than two stakes

    def start_deal(self, deck: Deck | None = None) -> None:
        """Start the next deal, with ``deck`` (stacked, for tests and replays) or a shuffle."""
        self._check_can_deal()
        if deck is not None:
            if len(deck) != 52 or deck.kind is not DeckKind.STANDARD:
                raise HandError(f"a Fan Tan deal needs the whole 52-card pack, not {len(deck)}")
            DeckKind.STANDARD.check(deck.cards)
            check_distinct(deck.cards)
        if len(self._seats_with_chips()) < 2:
            self._end(SHORT_OF_PLAYERS)
            return
        self._button_to_a_player()
        if deck is None:
            deck = Deck.shuffled(DeckKind.STANDARD, self._rng)
        seats = self._dealing_order()
        self._deals += 1
        self._sync()
        self._deal_began = len(self._events)
        self._deal = FanTanDeal(self.rules, self._table, self._emit, deck, self._deals, seats)
        self._deal.start()
        self._after_step()

    def stacked(self, hands: Mapping[int, str | Iterable[str | Card]]) -> Deck:
        """A deck for :meth:`start_deal` that gives each seat of ``hands`` exactly those cards
        in the next deal (dealt one at a time from the dealer's left, so the seats nearest
        it hold the extra cards: see :func:`~guts.games.fantan.deal.hand_sizes`); a seat
        left out gets the lowest cards no hand names. A hand of the wrong size, a seat not
        dealt in or a card twice raise a GutsError.

        >>> from guts.games.fantan.presets import new_session
        >>> session = new_session("fan-tan", ["Ann", "Bob"], buy_in=10)
        >>> deck = session.stacked({1: "7h 8h 9h Th Jh Qh Kh 6h 5h 4h 3h 2h Ah "
        ...                              "7c 8c 9c Tc Jc Qc Kc 6c 5c 4c 3c 2c Ac"})
        >>> session.start_deal(deck)
        >>> session.deal.legal_cards(1)
        (Card('7c'), Card('7h'))
        """
        self._check_can_deal()
        seats = self._dealing_order()
        sizes = dict(zip(seats, hand_sizes(len(seats)), strict=True))
        given: dict[int, list[Card]] = {}
        for seat, cards in hands.items():
            if seat not in sizes:
                dealt = ", ".join(str(s) for s in seats)
                raise HandError(f"seat {seat!r} is not dealt in: the seats dealt in are {dealt}")
            given[seat] = list(parse_cards(cards))
            if len(given[seat]) != sizes[seat]:
                raise HandError(f"seat {seat} is dealt {sizes[seat]} cards, "
                                f"not {len(given[seat])}")  # fmt: skip
        check_distinct([card for cards in given.values() for card in cards])
        used = {card for cards in given.values() for card in cards}
        spare = iter(card for card in DeckKind.STANDARD.cards if card not in used)
        for seat in seats:
            if seat not in given:
                given[seat] = [next(spare) for _ in range(sizes[seat])]
        order = [
            given[seat][index]
            for index in range(max(sizes.values()))
            for seat in seats
            if index < sizes[seat]
        ]
        return Deck.stacked(order)

    def _apply(self, seat: int, action: str) -> None:
        self._emit(Acted(seat=seat, action=action))
        super()._apply(seat, action)

    # -- between deals ------------------------------------------------------------------------

    def _after_step(self) -> None:
        self._sync()
        if self._deal is None or not self._deal.over:
            return
        if self.rules.max_deals is not None and self._deals >= self.rules.max_deals:
            self._end(f"the deal limit ({self.rules.max_deals}) was reached")
        elif len(self._seats_with_chips()) < 2:
            self._end(SHORT_OF_PLAYERS)
        self._pass_button()
        self._sync()

    # -- views --------------------------------------------------------------------------------

    def _view(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` may see: its own cards, the rows, the hand sizes, and the
        events of the current (or last) deal it may see."""
        deal = self._deal
        data = self._table_view(seat, deal=self._deals, over=self._over, rules=self.rules.options())
        if deal is not None:
            data.update(deal.public())
            data.update(deal.private(seat) if seat is not None else {"hand": None, "legal": []})
        return data

    @property
    def _view_since(self) -> int:
        """A view lists the events of the deal under way (or the last) only."""
        return self._deal_began

    # -- replay -------------------------------------------------------------------------------

    def _replay_event(self, event: Event) -> None:
        if isinstance(event, Shuffled):
            self.start_deal(Deck.stacked(event.deck))
        elif isinstance(event, Acted):
            self.act(event.seat, event.action)
        elif isinstance(event, SessionEnded) and not self.is_over:
            self.stop(event.reason)
