"""A quicker Guts deal for the common rules, playing exactly as the general one.

Where nothing comes between the deal and a single declaration in turn (no card passed,
no No Peek, no face-up, community or ghost card dealt first), a deal is: antes, the
face-down cards, each seat in turn saying in or out (the dealer in automatically when
all the others are out), then what the declaration comes to. :class:`QuickDeal` plays
that part directly, the seat to choose a counter instead of a round of choices and the
events shared values; where the rules also pay the plain way (:func:`plain`), a
:class:`PlainQuickDeal` settles in one pass after the last declaration; anything else
it leaves to the general :class:`GutsDeal` it is. ``tests/test_guts_quick_deal.py``
holds the two equal, step by step, on every preset.

>>> import random
>>> from guts.games.guts.rules import GutsRules
>>> from guts.games.guts.session import GutsSession
>>> session = GutsSession(GutsRules(), ["Ann", "Bob"], buy_in=10, rng=random.Random(2))
>>> session.start_deal()
>>> type(session.deal).__name__, [d.actions for d in session.pending()]
('PlainQuickDeal', [('in', 'out')])
"""

from __future__ import annotations

from itertools import compress, repeat
from operator import ne

from guts.cards import card_codes
from guts.games.base import Decision, Event
from guts.games.guts import settle
from guts.games.guts.deal import GutsDeal, Phase
from guts.games.guts.events import (
    Acted,
    Declared,
    Outcome,
    acted,
    cards_dealt,
    cards_shown,
    deal_ended,
    deal_started,
    declared,
    shuffled,
)
from guts.games.guts.rules import Declare, Ghost, GutsRules, Payment, Qualifier
from guts.games.guts.showdown import contest
from guts.games.session import emitter_of_all
from guts.table import POT, Reason

__all__ = ["PlainQuickDeal", "QuickDeal", "covers", "plain"]


def covers(rules: GutsRules) -> bool:
    """True if a deal of ``rules`` starts with one declaration in turn, right after the
    face-down cards (what :class:`QuickDeal` plays itself)."""
    return (
        rules.declare is Declare.IN_TURN
        and not rules.pass_left
        and not rules.no_peek
        and not rules.low_in_wild
        and not rules.batey
        and rules.ghost is not Ghost.ALWAYS
        and rules.ghost is not Ghost.LONE
    )  # (once a session)


_OUTS = repeat("out")


def plain(rules: GutsRules) -> bool:
    """True if a deal of ``rules`` (that :func:`covers` accepts) ends right after the
    declaration, paying the plain way: a lone player in takes the pot unshown, a
    showdown's best hand takes it and every other hand matches it (up to max-loss)."""
    return (
        not rules.hi_lo
        and not rules.has_second_deal
        and not rules.dealer_option
        and rules.ghost is Ghost.NEVER
        and rules.lone_qualifier is Qualifier.NONE
        and rules.payment is Payment.MATCH
        and not rules.winner_takes_all
        and not rules.nobody_wins_contested
    )


def _asks(
    seats: tuple[int, ...], words: tuple[str, ...], prompt: str
) -> tuple[tuple[Decision, ...], ...]:
    """The pending decisions of a declaration in turn: after ``k`` seats have declared,
    the ``k``-th seat's choice of ``words`` (none once all have), kept per seats, words
    and prompt (decisions are immutable)."""
    key = (seats, words, prompt)
    asks = _ASKS.get(key)
    if asks is None:
        turns = tuple((Decision.choose(seat, words, prompt),) for seat in seats)
        if len(_ASKS) >= 1 << 12:
            _ASKS.clear()
        asks = _ASKS[key] = (*turns, ())
    return asks


_ASKS: dict[tuple[tuple[int, ...], tuple[str, ...], str], tuple[tuple[Decision, ...], ...]] = {}


_IN_OUT = ("in", "out")
"""The words of a declaration that is not Hi-Lo (``GutsDeal._actions``)."""

_SAID: dict[tuple[int, str], tuple[Acted, Declared]] = {}
"""The events of a seat's declaration in turn, by seat and choice (the session hands the
deal its actions as plain strings, so every key is a plain int and string)."""


class QuickDeal(GutsDeal):
    """A :class:`GutsDeal` of rules that :func:`covers` accepts."""

    def start(self) -> None:
        """Antes, shuffle record, the face-down cards, then the first seat to declare."""
        self.over = False
        emit, rules, table, seats = self.emit, self.rules, self.table, self.seats
        emit(deal_started(self.number, self.dealer, seats))
        if not table.pot or rules.ante_every_deal:
            skip = self.skip_ante if rules.ante_every_deal and rules.matcher_skips_ante else ()
            payers = tuple([seat for seat in seats if seat not in skip]) if skip else seats
            table.pay_each(payers, POT, rules.ante, Reason.ANTE)
        codes = self.deck.codes
        size, down, count = rules.down_cards, self.down, len(seats)
        emit_all = self._emit_all = emitter_of_all(emit)
        if len(codes) < size * count:
            emit(shuffled(codes))
            self._deal_hands()  # it runs out on the card that is not there
        else:
            dealt = self.deck.take(size * count)  # (deal_around, sliced here)
            self.peeked.update(seats)
            made: list[Event] = [shuffled(codes)]
            for hand, seat in enumerate(seats):
                down[seat] = dealt[hand::count]  # its codes: every count-th of the first dealt
                made.append(cards_dealt(seat, codes[hand : size * count : count], (seat,)))
            emit_all(made)
        self.phase = Phase.DECLARE
        self._turn = 0  # the number of seats that have declared
        self._outs = 0
        if rules.hi_lo:
            self._asks = _asks(seats, self._actions(), "declare " + self._prompt())
        else:
            self._asks = _asks(seats, _IN_OUT, "declare in or out")  # (as the general deal)
        self._auto_last = rules.auto_in and len(seats) > 1

    def pending(self) -> tuple[Decision, ...]:
        """The decision of the seat to declare now (or of the general round after it);
        :meth:`GutsSession.pending <guts.games.guts.session.GutsSession.pending>` reads it
        so too."""
        if self.round is not None:
            return self.round.pending()
        return self._asks[self._turn] if self.phase is Phase.DECLARE else ()

    def act(self, seat: int, action: str) -> None:
        """Apply a legal action (the session checked it against :meth:`pending`)."""
        if self.round is not None:
            super().act(seat, action)
            return
        choices, seats = self.declared, self.seats  # (the choices so far: what is declared)
        said = _SAID.get((seat, action))
        if said is None:
            said = _SAID[seat, action] = (acted(seat, action), declared(seat, action))
        choices[seat] = action
        if action == "out":
            self.dropped.add(seat)
            self._outs += 1
        self._emit_all(said)
        turn = self._turn = self._turn + 1
        if self._auto_last and turn == len(seats) - 1 and self._outs == turn:
            last = seats[-1]  # every other seat is out: the last to declare is in
            choices[last] = "in"
            self.emit(declared(last, "in", automatic=True))
            turn = self._turn = turn + 1
        if turn == len(seats):
            self._after_declare(choices)

    def _showdown(self) -> None:
        """Two or more in: show the hands and pay by the rules' general settlement."""
        rules = self.rules
        if rules.hi_lo or rules.has_second_deal:
            super()._showdown()
            return
        strengths = self._show_hands()
        result = contest(strengths, None, rules.ghost_ties)
        settle.contest_result(self, result, strengths, self.ins)

    def _show_hands(self) -> dict[int, int]:
        """Show the face-down hands of the seats in (no wild ranks of the deal, no ghost, no
        community cards); their strengths, by seat in turn order."""
        down, shown = self.down, self.shown
        ranking = self.rules.ranking_for(self.rules.cards, self.extra_wild)  # every hand's size
        evaluate = ranking.evaluate
        strengths: dict[int, int] = {}
        made = []
        for seat in self.ins:
            cards = shown[seat] = tuple(down[seat])
            evaluation = evaluate(cards)
            made.append(cards_shown(seat, card_codes(cards), evaluation.description))
            strengths[seat] = evaluation.strength
        self._emit_all(made)
        return strengths


class PlainQuickDeal(QuickDeal):
    """A :class:`QuickDeal` of rules that also pay the plain way (:func:`plain`): it
    settles in one pass after the last declaration (the session picks it once)."""

    def _after_declare(self, choices: dict[int, str]) -> None:
        """Everyone has declared: settle at once, the plain way."""
        seats = self.seats  # those in: ``[s for s in seats if choices[s] != "out"]``
        ins = self.ins = list(compress(seats, map(ne, map(choices.__getitem__, seats), _OUTS)))
        self.ways = dict.fromkeys(ins, "in")
        if not ins:
            settle.everyone_out(self)
            self._finish()
        elif len(ins) == 1:
            table, seat = self.table, ins[0]
            pot = table.pot
            table.collect(POT, seat)  # alone in: the pot, unshown
            self._finish_with(settle.lone_outcome(self, seat, pot))
        else:
            self._finish_with(self._shown_outcome())

    def _shown_outcome(self) -> Outcome:
        """Two or more in: show the hands; the best take the pot, the others match it;
        the outcome (not yet emitted)."""
        rules = self.rules
        strengths = self._show_hands()
        result = contest(strengths, None, rules.ghost_ties)
        table, losers = self.table, result.losers  # the winners share, each loser matches
        pot = table.pot
        stake = pot if rules.max_loss is None else min(pot, rules.max_loss)
        if len(result.winners) == 1:
            table.collect(POT, result.winners[0])
        else:
            table.split(POT, list(result.winners))
        if losers:
            table.pay_each(losers, POT, stake, Reason.MATCH)
        self.matched.update(losers)
        if rules.dropouts_ante:
            settle.dropouts_ante(self)
        return settle.contest_outcome(self, result, True, pot, losers, stake)

    def _finish_with(self, outcome: Outcome) -> None:
        """Emit ``outcome`` and end the deal (:meth:`_finish`): where the rules have no pot
        limit or cap, nothing moves between the two, and both events go at once."""
        rules = self.rules
        if rules.pot_limit is not None or rules.pot_cap is not None:
            self.emit(outcome)
            self._finish()
            return
        self.phase = Phase.DONE
        self.over = self.round is None
        table = self.table
        ended = deal_ended(self.number, table.pot, table.reserve, table.chips_in(settle.ASIDE))
        self._emit_all((outcome, ended))
