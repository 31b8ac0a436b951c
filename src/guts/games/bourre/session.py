"""A Bourré session: deals one after another on one table, until the players stop.

>>> import random
>>> from guts.games.bourre.presets import new_session
>>> session = new_session("bourre", ["Ann", "Bob", "Cy"], buy_in=100, rng=random.Random(3))
>>> session.start_deal()
>>> session.pending()[0].seat, session.pending()[0].actions   # Bob, left of the dealer Ann
(1, ('play', 'fold'))
>>> for seat in (1, 2, 0):
...     _ = session.act(seat, "fold")
>>> session.deal_over, session.table.pot   # nobody played: the antes stay in the pot
(True, 3)
>>> session.stop()
>>> session.over_reason, session.table.pot   # the pot stays on the table (end-pot=stays)
('the players stopped the game', 3)
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping, Sequence
from random import Random
from typing import Any

from guts.cards import Card, Deck, DeckKind, check_distinct
from guts.errors import HandError, OptionError
from guts.games.base import Event
from guts.games.bourre.deal import BourreDeal
from guts.games.bourre.events import Acted, Moved, SessionEnded, Shuffled, StockSeed
from guts.games.bourre.rules import BourreRules, EndPot
from guts.games.bourre.stock import HAND
from guts.games.session import SHORT_OF_PLAYERS, RecordedSession
from guts.table import POT, Reason, Table

__all__ = ["SHORT_OF_PLAYERS", "BourreSession"]


class BourreSession(RecordedSession[BourreRules, BourreDeal]):
    """A game of Bourré played by ``rules``.

    ``players`` are names (bought in for ``buy_in``) or ``(name, chips)`` pairs, clockwise;
    ``button`` is the first dealer; ``rng`` shuffles every deck and seeds the draw's
    reshuffles (an unpredictable source when None), unless :meth:`start_deal` is given a
    stacked deck and a seed.
    """

    game = "bourre"
    rules_class = BourreRules
    moved_event = Moved
    ended_event = SessionEnded

    def __init__(
        self,
        rules: BourreRules,
        players: Sequence[str | tuple[str, int]],
        *,
        buy_in: int = 0,
        rng: Random | None = None,
        button: int = 0,
    ) -> None:
        if not 2 <= len(players) <= rules.most_players:
            more = "" if rules.eight_players else " (eight with eight-players=yes)"
            raise OptionError(
                f"Bourré is for 2 to {rules.most_players} players{more}, not {len(players)}"
            )
        table = Table(
            players, buy_in=buy_in, credit=rules.credit, odd_chips=rules.odd_chips, button=button
        )
        super().__init__(rules, table, record_buy_ins=True)
        self._rng = rng
        self._exempt: frozenset[int] = frozenset()
        self._deal_began = 0
        if len(self._seats_with_chips()) < 2:
            self._end(SHORT_OF_PLAYERS)  # table stakes with fewer than two stakes

    @property
    def exempt(self) -> frozenset[int]:
        """The seats that bourréd last deal: they matched the pot and skip the next ante."""
        return self._exempt

    def start_deal(self, deck: Deck | None = None, seed: int | None = None) -> None:
        """Start the next deal, with ``deck`` (stacked, for tests and replays) or a shuffle;
        ``seed`` seeds the reshuffles of the draw (drawn from the rng when None)."""
        self._check_can_deal()
        if deck is not None:
            if len(deck) != 52 or deck.kind is not DeckKind.STANDARD:
                raise HandError(
                    f"a Bourré deal needs the whole 52-card pack, not {len(deck)} cards"
                )
            DeckKind.STANDARD.check(deck.cards)
            check_distinct(deck.cards)
        if len(self._seats_with_chips()) < 2:
            self._end(SHORT_OF_PLAYERS)
            return
        self._button_to_a_player()
        if deck is None:
            deck = Deck.shuffled(DeckKind.STANDARD, self._rng)
        if seed is None:
            seed = self._rng.getrandbits(64) if self._rng is not None else secrets.randbits(64)
        seats = self._seats_with_chips()
        self._deals += 1
        self._sync()
        self._deal_began = len(self._events)
        self._deal = BourreDeal(
            self.rules, self._table, self._emit, deck, seed, self._deals, seats, self._exempt
        )
        self._deal.start()
        self._after_step()

    def stacked(
        self, hands: Mapping[int, str | Iterable[str | Card]], then: str | Iterable[str | Card] = ""
    ) -> Deck:
        """A deck for :meth:`start_deal` that gives each seat of ``hands`` (seat -> five
        cards) exactly those cards in the next deal, dealt one at a time from the dealer's
        left to the seats dealt in (the dealer's fifth card turns trumps); then the stock:
        ``then`` (the draws, in order), then the rest of the pack in new-deck order. A seat
        left out gets the lowest unused cards. A seat not dealt in, a hand of the wrong size,
        a card twice or not in the pack raise a GutsError.

        >>> from guts.games.bourre.presets import new_session
        >>> session = new_session("bourre", ["Ann", "Bob"], buy_in=10)
        >>> session.start_deal(session.stacked({0: "As Ks Qs Js 9h", 1: "2c 3d 4h 5s 7c"}), 1)
        >>> session.deal.hands[0], session.deal.trump_card
        ([Card('As'), Card('Ks'), Card('Qs'), Card('Js'), Card('9h')], Card('9h'))
        """
        self._check_can_deal()
        return Deck.dealing(hands, self._dealing_order(), HAND, then)

    def _apply(self, seat: int, action: str) -> None:
        secret = action.startswith("discard")
        self._emit(Acted(seat=seat, action=action, audience=(seat,) if secret else None))
        super()._apply(seat, action)

    # -- between deals ------------------------------------------------------------------------

    def _after_step(self) -> None:
        self._sync()
        if self._deal is None or not self._deal.over:
            return
        self._exempt = frozenset(self._deal.bourred)
        if self.rules.max_deals is not None and self._deals >= self.rules.max_deals:
            self._end(f"the deal limit ({self.rules.max_deals}) was reached")
        elif len(self._seats_with_chips()) < 2:
            self._end(SHORT_OF_PLAYERS)
        self._pass_button()
        self._sync()

    def _end(self, reason: str) -> None:
        table = self._table
        if self.rules.end_pot is EndPot.SPLIT and table.pot:
            seats = list(range(len(table.names)))
            table.split(POT, seats, Reason.SPLIT, note="the game stopped")
        super()._end(reason)

    # -- views --------------------------------------------------------------------------------

    def _view(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` may see: its own cards, what is face up, and the events of
        the current (or last) deal it may see (all of them: :meth:`visible_events`)."""
        deal = self._deal
        data = self._table_view(
            seat, deal=self._deals, over=self._over, rules=self.rules.options(),
            exempt=sorted(self._exempt),
        )  # fmt: skip
        if deal is not None:
            data.update(deal.public())
            data.update(deal.private(seat) if seat is not None else {"hand": None, "legal": []})
        return data

    @property
    def _view_since(self) -> int:
        """A view lists the events of the deal under way (or the last) only."""
        return self._deal_began

    # -- replay -------------------------------------------------------------------------------

    def _prepare_replay(self, events: list[Event]) -> None:
        self._replay_deck: tuple[str, ...] = ()

    def _replay_event(self, event: Event) -> None:
        if isinstance(event, Shuffled):
            self._replay_deck = event.deck
        elif isinstance(event, StockSeed):
            self.start_deal(Deck.stacked(self._replay_deck), event.seed)
        elif isinstance(event, Acted):
            self.act(event.seat, event.action)
        elif isinstance(event, SessionEnded) and not self.is_over:
            self.stop(event.reason)
