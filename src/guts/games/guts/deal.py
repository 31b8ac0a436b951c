"""One deal of Guts as a state machine: ante, deal, (pass), declare, (second deal), pay.

Cards are dealt one at a time, clockwise from the dealer's left, the dealer last, for as
many rounds as each player gets face-down cards; then the face-up card of one/two low in
and wild; then the ghost's whole hand; then The Batey's community card. After the
declaration, each player who is in gets the partial hand's face-up card and the second
deal's cards (round by round, in turn order); then the community cards.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from enum import Enum
from functools import partial

from guts.cards import Card, Deck, card_codes
from guts.games.base import Decision, Event
from guts.games.declaration.round import ChoiceRound, DeclareRound
from guts.games.guts import settle
from guts.games.guts.events import (
    DECK,
    GHOST,
    CardsDealt,
    CardsShown,
    CommunityDealt,
    Declared,
    GhostDealt,
    Looked,
    Passed,
    Shuffled,
    WildRanks,
    cards_dealt,
    deal_ended,
    deal_started,
    declared,
)
from guts.games.guts.rules import Declare, Ghost, GutsRules, Qualifier
from guts.games.guts.showdown import contest
from guts.rankings.base import Ranking
from guts.table import POT, Reason, Table

__all__ = ["GutsDeal", "Phase"]


_RIVALS = {GHOST: "the ghost", DECK: "the deck"}
"""The names of the seats that are not players."""


def _emit_each(emit: Callable[[Event], None], events: Iterable[Event]) -> None:
    """``emit`` each of ``events`` in turn (a deal's ``emit_all`` when it was given none)."""
    for event in events:
        emit(event)


class Phase(Enum):
    """Where a deal stands."""

    PASS = "pass"
    DECLARE = "declare"
    SECOND_CHANCE = "second-chance"
    DECLARE_AGAIN = "declare-again"
    DONE = "done"


class GutsDeal:
    """One deal on ``table``; ``emit`` appends events to the session's record, and
    ``emit_all`` several in turn at once (the record checks its ledger once for them)."""

    def __init__(
        self,
        rules: GutsRules,
        table: Table,
        emit: Callable[[Event], None],
        deck: Deck,
        number: int,
        seats: Sequence[int],
        skip_ante: frozenset[int] = frozenset(),
        emit_all: Callable[[Iterable[Event]], None] | None = None,
    ) -> None:
        self.rules = rules
        self.table = table
        self.emit = emit
        self._emit_all = emit_all or partial(_emit_each, emit)  # (no cycle through self)
        self.deck = deck
        self.number = number
        self.seats = tuple(seats)  # dealt in, from the dealer's left
        self.dealer = table.button
        self.skip_ante = skip_ante
        self.down: dict[int, list[Card]] = {}
        self.up: dict[int, list[Card]] = {}
        for seat in self.seats:  # (a loop, not two comprehensions: made at every deal)
            self.down[seat] = []
            self.up[seat] = []
        self.ghost_cards: list[Card] = []
        self.community: list[Card] = []
        self.peeked: set[int] = set()
        self.shown: dict[int, tuple[Card, ...]] = {}
        self.declared: dict[int, str] = {}  # the latest public declaration of each seat
        self.dropped: set[int] = set()
        self.extra_wild: tuple[int, ...] = ()
        self.forced_in: tuple[int, ...] = ()
        self.matched: set[int] = set()
        self.phase = Phase.DONE
        self.round: ChoiceRound | None = None
        self.ins: list[int] = []
        self.ways: dict[int, str] = {}
        self.over = True
        """True when the deal has been paid out (or not started): the phase is DONE and no
        round is under way (an attribute, set where those change, since it is read often)."""

    # -- the state machine ------------------------------------------------------------------

    def start(self) -> None:
        """Antes, shuffle record, the deal, then the first decisions."""
        self.over = False
        self.emit(deal_started(self.number, self.dealer, self.seats))
        self._antes()
        self._deal_hands(Shuffled(deck=self.deck.codes, audience=()))
        if self.rules.pass_left:
            options = {s: tuple(c.ascii for c in self.down[s]) for s in self.seats}
            self.round = ChoiceRound(
                self.seats, options, simultaneous=True, prompt="choose a card to pass to the left"
            )
            self.phase = Phase.PASS
        else:
            self._start_declare()

    def pending(self) -> tuple[Decision, ...]:
        """The decisions to be made now."""
        return () if self.round is None else self.round.pending()

    def act(self, seat: int, action: str) -> None:
        """Apply a legal action (the session checked it against :meth:`pending`)."""
        assert self.round is not None
        events = self.round.choose(seat, action)
        for event in events:
            if isinstance(event, Declared):  # the latest public declaration of each seat
                self.declared[event.seat] = event.choice
                if event.choice == "out":
                    self.dropped.add(event.seat)
        self._emit_all(events)  # (nothing moves chips between them)
        if self.round.done:
            finished, self.round = self.round, None
            self._round_done(finished)

    def _round_done(self, finished: ChoiceRound) -> None:
        if self.phase is Phase.PASS:
            self._pass_cards(finished.choices)
            self._start_declare()
        elif self.phase is Phase.DECLARE:
            self._after_declare(finished.choices)
        elif self.phase is Phase.SECOND_CHANCE:
            challengers = [s for s in finished.seats if finished.choices[s] == "in"]
            self.ins = [s for s in self.seats if s == self.dealer or s in challengers]
            self._resolve(second_deal=True)
        else:
            self.ins = [s for s in self.ins if finished.choices[s] != "out"]
            self.ways = {s: finished.choices[s] for s in self.ins}
            self._resolve(second_deal=False)

    # -- dealing ----------------------------------------------------------------------------

    def _antes(self) -> None:
        rules, table = self.rules, self.table
        if table.pot and not rules.ante_every_deal:
            return
        payers_ = self.seats
        if rules.ante_every_deal and rules.matcher_skips_ante:
            payers_ = tuple(s for s in payers_ if s not in self.skip_ante)
        table.pay_each(payers_, POT, rules.ante, Reason.ANTE)

    def _deal_hands(self, shuffled: Shuffled) -> None:
        """Record the shuffle (``shuffled``, the deck's order), deal the face-down cards
        (their codes read from that record) and record them, then deal what comes before
        the declaration."""
        rules, deck, codes = self.rules, self.deck, shuffled.deck
        seats, down, size = self.seats, self.down, rules.down_cards
        count = len(seats)
        if len(deck) >= size * count:  # one at a time, round by round
            for seat, cards in zip(seats, deck.deal_around(size, count), strict=True):
                down[seat] = cards
            hands = [codes[hand : size * count : count] for hand in range(count)]
            made: list[Event] = [shuffled]  # recorded with the hands
        else:
            self.emit(shuffled)
            for _ in range(size):  # it runs out on the card that is not there
                for seat in seats:
                    down[seat].append(deck.deal_one())
            hands = [card_codes(down[seat]) for seat in seats]
            made = []
        if rules.no_peek:
            made += [cards_dealt(seat, hand, ()) for seat, hand in zip(seats, hands, strict=True)]
        else:
            self.peeked.update(seats)
            made += [
                cards_dealt(seat, hand, (seat,)) for seat, hand in zip(seats, hands, strict=True)
            ]
        self._emit_all(made)
        if rules.low_in_wild:
            for seat in self.seats:
                card = self.deck.deal_one()
                self.up[seat].append(card)
                self.emit(CardsDealt(seat=seat, cards=(card.ascii,), face_up=True))
        if rules.ghost in (Ghost.ALWAYS, Ghost.LONE):
            self.ghost_cards = list(self.deck.deal(rules.own_final_size))
            self.emit(GhostDealt(count=len(self.ghost_cards)))
        if rules.batey:
            self._deal_community(1)
        if rules.low_in_wild:
            self._low_in_wild()

    def _low_in_wild(self) -> None:
        ranks = sorted({int(card.rank or 0) for s in self.seats for card in self.up[s]})
        self.extra_wild = tuple(ranks[: self.rules.low_in_wild])
        self.forced_in = tuple(
            s for s in self.seats if any(int(c.rank or 0) in self.extra_wild for c in self.up[s])
        )
        self.emit(WildRanks(ranks=self.extra_wild, forced_in=self.forced_in))
        for seat in self.forced_in:
            self.declared[seat] = "in"
            self.emit(declared(seat, "in", automatic=True))

    def _deal_community(self, count: int) -> None:
        cards = self.deck.deal(count)
        self.community.extend(cards)
        self.emit(CommunityDealt(cards=card_codes(cards)))

    def _pass_cards(self, choices: dict[int, str]) -> None:
        given = {s: next(c for c in self.down[s] if c.ascii == choices[s]) for s in self.seats}
        for seat in self.seats:
            self.down[seat].remove(given[seat])
        for seat in self.seats:
            to = self.seats[(self.seats.index(seat) + 1) % len(self.seats)]
            self.down[to].append(given[seat])
            self.emit(Passed(seat=seat, to=to, card=given[seat].ascii, audience=(seat, to)))

    def _second_deal(self) -> None:
        rules = self.rules
        if rules.partial_hands:
            for seat in self.ins:
                card = self.deck.deal_one()
                self.up[seat].append(card)
                self.emit(CardsDealt(seat=seat, cards=(card.ascii,), face_up=True))
        if rules.draw_to_in:
            drawn: dict[int, list[Card]] = {s: [] for s in self.ins}
            for _ in range(rules.draw_to_in):
                for seat in self.ins:
                    drawn[seat].append(self.deck.deal_one())
            for seat in self.ins:
                (self.up if rules.draw_face_up else self.down)[seat].extend(drawn[seat])
                up = rules.draw_face_up
                self.emit(
                    CardsDealt(
                        seat=seat,
                        cards=card_codes(drawn[seat]),
                        face_up=up,
                        audience=None if up else (seat,),
                    )
                )
        if rules.community:
            self._deal_community(rules.community)

    # -- declaring ---------------------------------------------------------------------------

    def _actions(self) -> tuple[str, ...]:
        if not self.rules.hi_lo:
            return ("in", "out")
        return ("high", "low", "both", "out") if self.rules.hi_lo_both else ("high", "low", "out")

    def _prompt(self) -> str:
        return "high, low, both or out" if self.rules.hi_lo else "in or out"

    def _start_declare(self) -> None:
        forced = self.forced_in
        seats = [s for s in self.seats if s not in forced] if forced else self.seats
        self.phase = Phase.DECLARE
        if not seats:
            self._after_declare({})
            return
        self.round = DeclareRound(
            seats,
            self._actions(),
            simultaneous=self.rules.declare is Declare.SIMULTANEOUS,
            auto_last=self.rules.auto_in and not self.forced_in,
            number=1,
            prompt="declare " + self._prompt(),
        )

    def _after_declare(self, choices: dict[int, str]) -> None:
        self.ins = [s for s in self.seats if s in self.forced_in or choices.get(s, "out") != "out"]
        self.ways = {s: choices.get(s, "in") for s in self.ins}
        rules = self.rules
        if rules.no_peek:
            self._look()
        if rules.dealer_option and self.ins == [self.dealer] and len(self.seats) > 1:
            others = [s for s in self.seats if s != self.dealer]
            self.phase = Phase.SECOND_CHANCE
            prompt = "challenge the dealer: in or out"
            self.round = DeclareRound(
                others, ("in", "out"), simultaneous=False, auto_last=False, number=2, prompt=prompt
            )
            return
        self._resolve(second_deal=True)

    def _look(self) -> None:
        """No Peek: the seats that have not looked at their cards look now."""
        for seat in self.seats:
            if seat not in self.peeked:
                self.peeked.add(seat)
                self.emit(Looked(seat=seat, cards=card_codes(self.down[seat]), audience=(seat,)))

    def _ghost_plays(self, count: int) -> bool:
        ghost = self.rules.ghost
        return (ghost is Ghost.ALWAYS and count >= 1) or (ghost is Ghost.LONE and count == 1)

    def _resolve(self, *, second_deal: bool) -> None:
        """Go on with ``self.ins``: settle now, or deal more and showdown (or declare again)."""
        rules = self.rules
        count = len(self.ins)
        if count == 0:
            settle.everyone_out(self)
        elif count == 1 and rules.ghost is Ghost.DECK:
            settle.lone_against_deck(self, self.ins[0])
        elif count == 1 and not self._ghost_plays(1):
            if rules.lone_qualifier is not Qualifier.NONE and second_deal and rules.has_second_deal:
                self._second_deal()  # the lone player qualifies with a full hand
            settle.lone_in(self, self.ins[0])
        elif second_deal and rules.has_second_deal:
            if rules.second_declare:
                self.table.pay_each(self.ins, POT, rules.ante, Reason.ANTE, "extra ante")
            self._second_deal()
            if rules.second_declare:
                self.phase = Phase.DECLARE_AGAIN
                self.round = DeclareRound(
                    self.ins,
                    self._actions(),
                    simultaneous=rules.declare is Declare.SIMULTANEOUS,
                    auto_last=rules.auto_in,
                    number=2,
                    prompt="declare again: " + self._prompt(),
                )
                return
            self._showdown()
        else:
            self._showdown()
        self._finish()

    # -- hands ---------------------------------------------------------------------------------

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds (face down and face up)."""
        return (*self.down[seat], *self.up[seat])

    def playing_cards(self, seat: int) -> tuple[Card, ...]:
        """The seat's cards plus the community cards."""
        return self.hand(seat) + tuple(self.community)

    def ranking(self, size: int) -> Ranking:
        """The ranking for hands of ``size`` cards in this deal (with its wild ranks)."""
        return self.rules.ranking_for(size, self.extra_wild)

    def show(self, seat: int, cards: Sequence[Card]) -> int:
        """Show a hand face up; return its strength."""
        evaluation = self.ranking(len(cards)).evaluate(cards)
        self.shown[seat] = tuple(cards)
        description = evaluation.description
        self.emit(CardsShown(seat=seat, cards=card_codes(cards), description=description))
        return evaluation.strength

    def name(self, seat: int) -> str:
        return _RIVALS.get(seat) or self.table.names[seat]

    # -- settling -------------------------------------------------------------------------------

    def _showdown(self) -> None:
        strengths = {s: self.show(s, self.playing_cards(s)) for s in self.ins}
        ghost = None
        if self._ghost_plays(len(self.ins)) or (self.rules.hi_lo and self.ghost_cards):
            ghost = self.show(GHOST, tuple(self.ghost_cards) + tuple(self.community))
        if self.rules.hi_lo:
            settle.hi_lo_result(self, strengths, ghost)
            return
        result = contest(strengths, ghost, self.rules.ghost_ties)
        settle.contest_result(self, result, strengths, self.ins)

    def _finish(self) -> None:
        rules = self.rules
        if rules.pot_limit is not None or rules.pot_cap is not None:
            settle.normalize_pot(self)
        self.phase = Phase.DONE
        self.over = self.round is None
        table = self.table
        self.emit(deal_ended(self.number, table.pot, table.reserve, table.chips_in(settle.ASIDE)))
