"""A Guts session: deals one after another on one table, until the pot is won.

>>> import random
>>> from guts.games.guts.rules import GutsRules
>>> session = GutsSession(GutsRules(), ["Ann", "Bob", "Cy"], buy_in=100, rng=random.Random(1))
>>> session.start_deal()
>>> [(d.seat, d.actions) for d in session.pending()]   # Bob, left of the dealer Ann
[(1, ('in', 'out'))]
>>> _ = session.act(1, "out"); _ = session.act(2, "out")    # Ann, the dealer, is in automatically
>>> session.is_over, session.table.stack(0), session.over_reason
(True, 102, 'the pot was won')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from random import Random
from typing import Any

from guts.cards import Card, Deck
from guts.errors import HandError, IllegalAction, OptionError
from guts.games.base import Event
from guts.games.guts.deal import GutsDeal
from guts.games.guts.events import Acted, Moved, Outcome, SessionEnded, Shuffled, Stopped
from guts.games.guts.rules import GutsRules
from guts.games.guts.settle import ASIDE
from guts.games.session import SHORT_OF_PLAYERS, RecordedSession
from guts.table import POT, RESERVE, Reason, Table

__all__ = ["SHORT_OF_PLAYERS", "GutsSession"]


class GutsSession(RecordedSession[GutsRules, GutsDeal]):
    """A session of Guts played by ``rules``.

    ``players`` are names (bought in for ``buy_in``) or ``(name, chips)`` pairs, clockwise,
    or an existing :class:`~guts.table.Table` (dealer's choice: its stacks, pot and button
    carry over; the session's events then record only its own transfers); ``button`` is
    the first dealer (seat 0 if None); ``rng`` shuffles every deck (an unpredictable source
    when None), unless :meth:`start_deal` is given a stacked deck.
    """

    game = "guts"
    rules_class = GutsRules
    moved_event = Moved
    ended_event = SessionEnded

    def __init__(
        self,
        rules: GutsRules,
        players: Sequence[str | tuple[str, int]] | Table,
        *,
        buy_in: int = 0,
        rng: Random | None = None,
        button: int | None = None,
    ) -> None:
        if isinstance(players, Table):
            table = players  # dealer's choice: stacks and button carry over from other games
            if table.credit != rules.credit or table.odd_chips != rules.odd_chips:
                raise OptionError(
                    f"credit/odd-chips: the table plays credit={'yes' if table.credit else 'no'}"
                    f", odd-chips={table.odd_chips.value}; set the rules the same"
                )
            if button is not None:
                raise OptionError("button: a shared table keeps its own dealer button")
        else:
            table = Table(
                players,
                buy_in=buy_in,
                credit=rules.credit,
                odd_chips=rules.odd_chips,
                button=button or 0,
            )
        rules.check_players(len(table.names))
        super().__init__(rules, table, record_buy_ins=False)  # buy-ins are not events
        self._rng = rng
        self._pack = rules.hand_ranking.deck
        self._skip_ante: frozenset[int] = frozenset()
        if not table.credit and len(self._seats_with_chips()) < 2:  # (on credit all play)
            self._end(SHORT_OF_PLAYERS)  # table stakes with fewer than two stakes

    def start_deal(self, deck: Deck | None = None) -> None:
        """Start the next deal, with ``deck`` (stacked, for tests and replays) or a shuffle."""
        deal = self._deal
        if self._over or (deal is not None and not deal.over):
            self._check_can_deal()  # it raises, saying why not
        table = self._table
        credit = table.credit
        seats = table.turn_order() if credit else self._dealing_order()
        if len(seats) < 2:
            self._end(SHORT_OF_PLAYERS)
            return
        if deck is None:
            deck = Deck.shuffled(self._pack, self._rng)
        else:
            needed = self.rules.cards_needed(len(seats))
            if len(deck) < needed:
                raise HandError(f"the deck has {len(deck)} cards; this deal may need {needed}")
        if not credit:
            self._button_to_a_player(seats)
        self._deals += 1
        deal = self._deal = GutsDeal(
            self.rules,
            table,
            self._record.emit,
            deck,
            self._deals,
            seats,
            self._skip_ante,
            self._record.emit_all,
        )
        deal.start()
        self._after_step()

    def stacked(
        self, hands: Mapping[int, str | Iterable[str | Card]], then: str | Iterable[str | Card] = ""
    ) -> Deck:
        """A deck for :meth:`start_deal` that gives each seat of ``hands`` (seat -> its
        face-down cards) exactly those cards in the next deal, dealt one at a time from the
        dealer's left to the seats dealt in; then ``then`` (in dealing order: low in and
        wild's face-up cards, the ghost's hand, The Batey's card, after the declaration the
        face-up card and draws of each player in, the community cards); then the rest of the
        pack in new-deck order. A seat left out gets the lowest unused cards. A seat not
        dealt in, a hand of the wrong size, a card twice or not in the pack raise a GutsError.

        >>> session = GutsSession(GutsRules(), ["Ann", "Bob"], buy_in=10)
        >>> session.start_deal(session.stacked({0: "As Ad", 1: "Kc Kd"}))
        >>> session.deal.down
        {1: [Card('Kc'), Card('Kd')], 0: [Card('As'), Card('Ad')]}
        """
        self._check_can_deal()
        seats, rules = self._dealing_order(), self.rules
        return Deck.dealing(hands, seats, rules.down_cards, then, rules.hand_ranking.deck)

    def stop(self, reason: str = "the players stopped") -> None:
        """End the session between deals, sharing out what is left in the pot, the reserve
        and set aside equally (odd chips by the table's rule), so the table can settle."""
        left = any(self._table.chips_in(place) for place in (POT, RESERVE, ASIDE))
        if self.is_over and not left:
            return
        if not self.deal_over:
            raise IllegalAction(f"deal {self._deals} is in progress: finish it first")
        self._record.emit(Stopped(reason=reason))  # (see RecordedSession._emit)
        seats = self._seats_with_chips() or self._table.turn_order()
        shared = 0
        for place in (RESERVE, ASIDE):
            self._table.move(place, POT, None, Reason.RELEASE)
        if self._table.pot:
            shared = self._table.pot
            self._table.split(POT, list(seats), Reason.REFUND)
        self._record.emit(
            Outcome(text=f"The session stops: {shared} chips are shared out.", winners=tuple(seats))
        )
        if not self.is_over:
            self._end(reason)
        self._sync()

    # -- between deals ---------------------------------------------------------------------

    def _after_step(self) -> None:
        record = self._record  # mirror the new transfers as events
        if self._table.ledger_size != record.synced:
            record.sync()
        deal = self._deal
        if deal is None or not deal.over:
            return
        self._skip_ante = frozenset(deal.matched)
        table, rules = self._table, self.rules
        credit = table.credit
        empty = table.pot == 0 and table.reserve == 0 and table.chips_in(ASIDE) == 0
        if empty and not rules.continue_after_empty:
            self._end("the pot was won")
        elif rules.max_deals is not None and self._deals >= rules.max_deals:
            self._end(f"the deal limit ({rules.max_deals}) was reached")
        elif not credit and len(self._seats_with_chips()) < 2:  # (on credit all play)
            self._end(SHORT_OF_PLAYERS)
        table.move_button()  # _pass_button: on credit every seat plays
        if not credit:
            self._button_to_a_player()

    # -- views ---------------------------------------------------------------------------------

    def _view(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` may see: its own cards, what is face up, public events."""
        table, deal = self._table, self._deal
        data = self._table_view(seat, reserve=table.reserve, aside=table.chips_in(ASIDE),
                                deal=self._deals, over=self._over)  # fmt: skip
        if deal is not None:
            data["dealt_in"] = list(deal.seats)
            data["hand"] = self._hand(deal, seat)
            data["face_up"] = {str(s): [c.ascii for c in deal.up[s]] for s in deal.seats}
            data["community"] = [c.ascii for c in deal.community]
            data["shown"] = {str(s): [c.ascii for c in cards] for s, cards in deal.shown.items()}
            data["declared"] = {str(s): choice for s, choice in deal.declared.items()}
        return data

    @staticmethod
    def _hand(deal: GutsDeal, seat: int | None) -> list[str] | None:
        """``seat``'s own cards, once it has looked at them."""
        if seat is not None and seat in deal.down and seat in deal.peeked:
            return [c.ascii for c in deal.down[seat]]
        return None

    def views(self, seats: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
        """:meth:`~guts.games.base.Session.views`: the first view made whole, the others
        from it with only what differs by seat (the seat, its hand, its decision)."""
        deal = self._deal
        views: dict[int | None, dict[str, Any]] = {}
        first: dict[str, Any] | None = None
        for seat in seats:
            if seat is not None:
                self._check_seat(seat)
            if first is None:
                views[seat] = first = self._view(seat)
                continue
            view = dict(first)
            view["seat"] = seat
            view["pending"] = [d.to_dict() for d in self.pending() if d.seat == seat]
            if deal is not None:
                view["hand"] = self._hand(deal, seat)
            views[seat] = view
        return views

    # -- replay ---------------------------------------------------------------------------------

    def _replay_event(self, event: Event) -> None:
        if isinstance(event, Shuffled):
            self.start_deal(Deck.stacked(event.deck, self.rules.hand_ranking.deck))
        elif isinstance(event, Acted):
            self.act(event.seat, event.action)
        elif isinstance(event, Stopped):
            self.stop(event.reason)
        elif isinstance(event, SessionEnded) and not self.is_over:
            self.start_deal()  # it ended for want of players with chips
