"""A Bourré session: deals one after another on one table, until the players stop.

>>> import random
>>> session = new_session("bourre", ["Ann", "Bob", "Cy"], buy_in=100, rng=random.Random(3))
>>> session.start_deal()
>>> session.pending()[0].seat, session.pending()[0].actions   # Bob, left of the dealer Ann
(1, ('play', 'fold'))
>>> for seat in (1, 2, 0):
...     session.act(seat, "fold")
>>> session.deal_over, session.table.pot   # nobody played: the antes stay in the pot
(True, 3)
>>> session.stop()
>>> session.over_reason, session.table.pot   # the pot stays on the table (end-pot=stays)
('the players stopped the game', 3)
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from random import Random
from typing import Any

from guts.cards import Deck, DeckKind, check_distinct
from guts.errors import HandError, IllegalAction, OptionError
from guts.games.base import Decision, Event, EventError, Session, events_from_json, events_to_json
from guts.games.bourre.deal import BourreDeal
from guts.games.bourre.events import Acted, Moved, SessionEnded, Shuffled, StockSeed
from guts.games.bourre.rules import BourreRules, EndPot, preset
from guts.table import POT, Place, Reason, Table, Transfer

__all__ = ["BourreSession", "new_session"]


class BourreSession(Session):
    """A game of Bourré played by ``rules``.

    ``players`` are names (bought in for ``buy_in``) or ``(name, chips)`` pairs, clockwise;
    ``button`` is the first dealer; ``rng`` shuffles every deck and seeds the draw's
    reshuffles (an unpredictable source when None), unless :meth:`start_deal` is given a
    stacked deck and a seed.
    """

    game = "bourre"

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
        self.rules = rules
        self._rng = rng
        self._table = Table(
            players, buy_in=buy_in, credit=rules.credit, odd_chips=rules.odd_chips, button=button
        )
        self._players = [(seat.name, seat.stack) for seat in self._table.seats]
        self._first_button = button
        self._events: list[Event] = []
        self._synced = 0
        self._deal: BourreDeal | None = None
        self._deals = 0
        self._over = ""
        self._exempt: frozenset[int] = frozenset()
        self._deal_began = 0
        self._sync()

    # -- the contract -------------------------------------------------------------------------

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
    def deal(self) -> BourreDeal | None:
        """The current (or last) deal."""
        return self._deal

    @property
    def deals_played(self) -> int:
        """How many deals have started."""
        return self._deals

    @property
    def exempt(self) -> frozenset[int]:
        """The seats that bourréd last deal: they matched the pot and skip the next ante."""
        return self._exempt

    def start_deal(self, deck: Deck | None = None, seed: int | None = None) -> None:
        """Start the next deal, with ``deck`` (stacked, for tests and replays) or a shuffle;
        ``seed`` seeds the reshuffles of the draw (drawn from the rng when None)."""
        if self.is_over:
            raise IllegalAction(f"the session is over ({self._over}): no more deals")
        if not self.deal_over:
            raise IllegalAction(f"deal {self._deals} is still in progress")
        while not self._eligible(self._table.button):
            self._table.move_button()
        if deck is None:
            deck = Deck.shuffled(DeckKind.STANDARD, self._rng)
        elif len(deck) != 52 or deck.kind is not DeckKind.STANDARD:
            raise HandError(f"a Bourré deal needs the whole 52-card pack, not {len(deck)} cards")
        DeckKind.STANDARD.check(deck.cards)
        check_distinct(deck.cards)
        if seed is None:
            seed = self._rng.getrandbits(64) if self._rng is not None else secrets.randbits(64)
        seats = tuple(s for s in self._table.turn_order() if self._eligible(s))
        self._deals += 1
        self._sync()
        self._deal_began = len(self._events)
        self._deal = BourreDeal(
            self.rules, self._table, self._emit, deck, seed, self._deals, seats, self._exempt
        )
        self._deal.start()
        self._after_step()

    @property
    def can_stop(self) -> bool:
        """True if :meth:`stop` would end the session now (between deals)."""
        return not self.is_over and self.deal_over

    def stop(self, reason: str = "the players stopped the game") -> None:
        """End the session between deals, by the players' choice (see ``end-pot``)."""
        if self.is_over:
            raise IllegalAction(f"the session is already over ({self._over})")
        if not self.deal_over:
            raise IllegalAction(f"finish deal {self._deals} before stopping the game")
        self._end(reason)

    def pending(self) -> tuple[Decision, ...]:
        """The decisions to be made now."""
        return () if self._deal is None or self.is_over else self._deal.pending()

    def can_act(self, seat: int, action: str) -> bool:
        """True if :meth:`act` would accept ``action`` (any discard set up to the cap, in
        any order; cards in any accepted spelling)."""
        return self._canonical(seat, action) is not None

    def act(self, seat: int, action: str) -> None:
        """Apply ``seat``'s decision, or raise IllegalAction and change nothing."""
        canonical = self._canonical(seat, action)
        if canonical is None:
            why = self._deal.explain(seat, action) if self._deal is not None else ""
            if why:
                raise IllegalAction(f"{self._table.names[seat]} (seat {seat}) {why}")
            raise IllegalAction(self._illegal_message(seat, action))
        self._apply(seat, canonical)

    def _canonical(self, seat: int, action: str) -> str | None:
        if self._deal is None or self.is_over or not isinstance(seat, int):
            return None
        return self._deal.canonical(seat, action)

    def _apply(self, seat: int, action: str) -> None:
        assert self._deal is not None
        secret = action.startswith("discard")
        self._emit(Acted(seat=seat, action=action, audience=(seat,) if secret else None))
        self._deal.act(seat, action)
        self._after_step()

    # -- between deals ------------------------------------------------------------------------

    def _eligible(self, seat: int) -> bool:
        return self._table.credit or self._table.stack(seat) > 0

    def _after_step(self) -> None:
        self._sync()
        if self._deal is None or not self._deal.over:
            return
        self._exempt = frozenset(self._deal.bourred)
        if self.rules.max_deals is not None and self._deals >= self.rules.max_deals:
            self._end(f"the deal limit ({self.rules.max_deals}) was reached")
        elif sum(1 for s in range(len(self._table.names)) if self._eligible(s)) < 2:
            self._end("fewer than two players have chips")
        self._table.move_button()
        self._sync()

    def _end(self, reason: str) -> None:
        table = self._table
        if self.rules.end_pot is EndPot.SPLIT and table.pot:
            seats = list(range(len(table.names)))
            table.split(POT, seats, Reason.SPLIT, note="the game stopped")
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

    # -- views --------------------------------------------------------------------------------

    def view(self, seat: int) -> dict[str, Any]:
        """Everything ``seat`` may see: its own cards, what is face up, and the events of
        the current (or last) deal it may see (all of them: :meth:`visible_events`)."""
        if not isinstance(seat, int) or not 0 <= seat < len(self._table.names):
            raise IllegalAction(f"no seat {seat}: seats are 0 to {len(self._table.names) - 1}")
        return self._view(seat)

    def public_view(self) -> dict[str, Any]:
        """Everything a spectator may see."""
        return self._view(None)

    def _view(self, seat: int | None) -> dict[str, Any]:
        table, deal = self._table, self._deal
        data: dict[str, Any] = {
            "game": self.game,
            "seat": seat,
            "players": list(table.names),
            "stacks": [s.stack for s in table.seats],
            "button": table.button,
            "pot": table.pot,
            "deal": self._deals,
            "over": self._over,
            "rules": self.rules.options(),
            "exempt": sorted(self._exempt),
            "to_act": [d.seat for d in self.pending()],
            "pending": [d.to_dict() for d in self.pending() if d.seat == seat],
        }
        if deal is not None:
            data.update(deal.public())
            data.update(deal.private(seat) if seat is not None else {"hand": None, "legal": []})
        this_deal = self._events[self._deal_began :]
        data["events"] = [e.to_dict() for e in this_deal if e.visible_to(seat)]
        return data

    # -- records and replay -------------------------------------------------------------------

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
    def replay(cls, record: Mapping[str, Any]) -> BourreSession:
        """Rebuild a session from :meth:`record` (deck orders, seeds and actions replayed),
        and check that the replay makes exactly the recorded events."""
        try:
            rules = BourreRules.from_options(None, record["rules"])
            players = [(str(name), int(stack)) for name, stack in record["players"]]
            events = events_from_json(record["events"])
            session = cls(rules, players, button=int(record["button"]))
        except (KeyError, TypeError, ValueError) as error:
            raise EventError(f"bad Bourré record: {error}") from None
        deck: tuple[str, ...] = ()
        for event in events:
            if isinstance(event, Shuffled):
                deck = event.deck
            elif isinstance(event, StockSeed):
                session.start_deal(Deck.stacked(deck), event.seed)
            elif isinstance(event, Acted):
                session.act(event.seat, event.action)
            elif isinstance(event, SessionEnded) and not session.is_over:
                session.stop(event.reason)
        if session.events != tuple(events):
            raise EventError("the record does not replay to the same events")
        return session


def new_session(
    name: str,
    players: Sequence[str | tuple[str, int]],
    *,
    options: Mapping[str, str] | None = None,
    buy_in: int = 0,
    rng: Random | None = None,
    button: int = 0,
) -> BourreSession:
    """A session of preset ``name`` (with ``options``, name -> string) for ``players``."""
    return BourreSession(preset(name, options), players, buy_in=buy_in, rng=rng, button=button)


def _moved(transfer: Transfer) -> Moved:
    def party(value: int | Place) -> int | str:
        return value.name if isinstance(value, Place) else value

    return Moved(
        source=party(transfer.source),
        destination=party(transfer.destination),
        amount=transfer.amount,
        reason=transfer.reason.value,
        note=transfer.note,
        shortfall=transfer.shortfall,
    )
