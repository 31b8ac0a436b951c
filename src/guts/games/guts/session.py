"""A Guts session: deals one after another on one table, until the pot is won.

>>> import random
>>> from guts.games.guts.rules import GutsRules
>>> session = GutsSession(GutsRules(), ["Ann", "Bob", "Cy"], buy_in=100, rng=random.Random(1))
>>> session.start_deal()
>>> [(d.seat, d.actions) for d in session.pending()]   # Bob, left of the dealer Ann
[(1, ('in', 'out'))]
>>> session.act(1, "out"); session.act(2, "out")      # Ann, the dealer, is in automatically
>>> session.is_over, session.table.stack(0), session.over_reason
(True, 102, 'the pot was won')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from random import Random
from typing import Any

from guts.cards import Deck
from guts.errors import IllegalAction, OptionError
from guts.games.base import Decision, Event, EventError, Session, events_from_json, events_to_json
from guts.games.guts.deal import GutsDeal
from guts.games.guts.events import Acted, Moved, Outcome, SessionEnded, Shuffled, Stopped
from guts.games.guts.rules import Ghost, GutsRules
from guts.games.guts.settle import ASIDE
from guts.table import POT, RESERVE, Place, Reason, Table, Transfer

__all__ = ["GutsSession"]


class GutsSession(Session):
    """A session of Guts played by ``rules``.

    ``players`` are names (bought in for ``buy_in``) or ``(name, chips)`` pairs, clockwise,
    or an existing :class:`~guts.table.Table` (dealer's choice: its stacks, pot and button
    carry over; the session's events then record only its own transfers); ``button`` is
    the first dealer (seat 0 if None); ``rng`` shuffles every deck (an unpredictable source
    when None), unless :meth:`start_deal` is given a stacked deck.
    """

    game = "guts"

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
        count = len(table.names)
        if not 2 <= count <= 26:
            raise OptionError(f"Guts needs 2 to 26 players, not {count}")
        needed = _cards_needed(rules, count)
        if needed > 52:
            raise OptionError(
                f"these rules need {needed} cards for {count} players: "
                "the pack has 52; fewer players or fewer cards"
            )
        self.rules = rules
        self._rng = rng
        self._table = table
        self._players = [(seat.name, seat.stack) for seat in table.seats]
        self._first_button = table.button
        self._events: list[Event] = []
        self._synced = len(table.ledger)  # the record starts here: buy-ins are not events
        self._deal: GutsDeal | None = None
        self._deals = 0
        self._over = ""
        self._skip_ante: frozenset[int] = frozenset()

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
    def deal(self) -> GutsDeal | None:
        """The current (or last) deal."""
        return self._deal

    @property
    def players(self) -> tuple[tuple[str, int], ...]:
        """Each seat's name and stack when the session began."""
        return tuple(self._players)

    @property
    def deals_played(self) -> int:
        """How many deals have started."""
        return self._deals

    def start_deal(self, deck: Deck | None = None) -> None:
        """Start the next deal, with ``deck`` (stacked, for tests and replays) or a shuffle."""
        if self.is_over:
            raise IllegalAction(f"the session is over ({self._over}): no more deals")
        if not self.deal_over:
            raise IllegalAction(f"deal {self._deals} is still in progress")
        seats = self._playing_seats()
        if len(seats) < 2:
            self._end("fewer than two players have chips")
            return
        if deck is None:
            deck = Deck.shuffled(self.rules.hand_ranking.deck, self._rng)
        self._deals += 1
        self._deal = GutsDeal(
            self.rules, self._table, self._emit, deck, self._deals, seats, self._skip_ante
        )
        self._deal.start()
        self._after_step()

    def stop(self, reason: str = "the players stopped") -> None:
        """End the session between deals, sharing out what is left in the pot, the reserve
        and set aside equally (odd chips by the table's rule), so the table can settle."""
        left = any(self._table.chips_in(place) for place in (POT, RESERVE, ASIDE))
        if self.is_over and not left:
            return
        if not self.deal_over:
            raise IllegalAction(f"deal {self._deals} is in progress: finish it first")
        self._emit(Stopped(reason=reason))
        seats = self._playing_seats() or self._table.turn_order()
        shared = 0
        for place in (RESERVE, ASIDE):
            self._table.move(place, POT, None, Reason.RELEASE)
        if self._table.pot:
            shared = self._table.pot
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
        if self._deal is None or not self._deal.over:
            return
        self._skip_ante = frozenset(self._deal.matched)
        table = self._table
        empty = table.pot == 0 and table.reserve == 0 and table.chips_in(ASIDE) == 0
        if empty and not self.rules.continue_after_empty:
            self._end("the pot was won")
        elif self.rules.max_deals is not None and self._deals >= self.rules.max_deals:
            self._end(f"the deal limit ({self.rules.max_deals}) was reached")
        elif len(self._playing_seats()) < 2:
            self._end("fewer than two players have chips")
        table.move_button()

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
        """Everything ``seat`` may see: its own cards, what is face up, public events."""
        if not 0 <= seat < len(self._table.names):
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
            "reserve": table.reserve,
            "aside": table.chips_in(ASIDE),
            "deal": self._deals,
            "over": self._over,
            "to_act": [d.seat for d in self.pending()],
            "pending": [d.to_dict() for d in self.pending() if d.seat == seat],
        }
        if deal is not None:
            data["dealt_in"] = list(deal.seats)
            data["hand"] = (
                [c.ascii for c in deal.down[seat]]
                if seat is not None and seat in deal.down and seat in deal.peeked
                else None
            )
            data["face_up"] = {str(s): [c.ascii for c in deal.up[s]] for s in deal.seats}
            data["community"] = [c.ascii for c in deal.community]
            data["shown"] = {str(s): [c.ascii for c in cards] for s, cards in deal.shown.items()}
            data["declared"] = {str(s): choice for s, choice in deal.declared.items()}
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
    def replay(cls, record: Mapping[str, Any]) -> GutsSession:
        """Rebuild a session from :meth:`record` (deck orders and actions replayed), and
        check that the replay makes exactly the recorded events."""
        try:
            rules = GutsRules.from_options(None, record["rules"])
            players = [(str(name), int(stack)) for name, stack in record["players"]]
            events = events_from_json(record["events"])
            session = cls(rules, players, button=int(record["button"]))
        except (KeyError, TypeError, ValueError) as error:
            raise EventError(f"bad Guts record: {error}") from None
        kind = rules.hand_ranking.deck
        for event in events:
            if isinstance(event, Shuffled):
                session.start_deal(Deck.stacked(event.deck, kind))
            elif isinstance(event, Acted):
                session.act(event.seat, event.action)
            elif isinstance(event, Stopped):
                session.stop(event.reason)
            elif isinstance(event, SessionEnded) and not session.is_over:
                session.start_deal()  # it ended for want of players with chips
        if session.events != tuple(events):
            raise EventError("the record does not replay to the same events")
        return session


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


def _cards_needed(rules: GutsRules, players: int) -> int:
    ghost = rules.own_final_size if rules.ghost in (Ghost.ALWAYS, Ghost.LONE) else 0
    deck_hand = rules.cards if rules.ghost is Ghost.DECK else 0
    community = rules.community + (1 if rules.batey else 0)
    return players * rules.own_final_size + ghost + deck_hand + community
