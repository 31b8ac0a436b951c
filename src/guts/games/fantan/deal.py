"""One deal of Fan Tan as a state machine: antes, the deal, turns of play, the payments.

The dealer deals the whole pack one card at a time from their left, themselves last, so
the players nearest the dealer's left may hold one card more. From the leader
(:class:`~guts.games.fantan.rules.Leader`) each player in turn to the left plays one card
that fits the layout (:class:`~guts.games.fantan.layout.Layout`), by its code (``7h``),
or says ``pass`` and pays the pot. The first player out of cards wins: the others show
their hands and pay the pot per card held, and the winner takes the pot.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from guts.cards import Card, Deck, Rank, Suit, parse_card
from guts.games.base import Event
from guts.games.decision import Decision, Options, PlayCard
from guts.games.fantan.events import (
    CardPlaced,
    CardsDealt,
    CardsShown,
    DealEnded,
    DealStarted,
    FalsePassFound,
    FanTanResult,
    Outcome,
    Passed,
    Shuffled,
)
from guts.games.fantan.layout import SUITS, Layout
from guts.games.fantan.rules import ExtraChip, FalsePass, FanTanRules, Leader
from guts.grammar import agree, who
from guts.table import POT, Reason, Table

__all__ = ["PASS", "SEVEN_OF_DIAMONDS", "FanTanDeal", "Phase", "hand_sizes"]

PASS = "pass"
"""The action of a player who plays no card."""

SEVEN_OF_DIAMONDS = Card.of(Rank.SEVEN, Suit.DIAMONDS)


class Phase(Enum):
    """Where a deal stands."""

    PLAY = "play"
    DONE = "done"


@dataclass(frozen=True)
class OpenPass:
    """A pass by ``seat`` while ``cards`` of its hand fitted, not yet found."""

    seat: int
    cards: frozenset[Card]


def hand_sizes(players: int) -> tuple[int, ...]:
    """How many cards each of ``players`` seats gets, from the dealer's left (the whole
    pack dealt out one card at a time: the first ``52 % players`` get one more)."""
    base, extra = divmod(52, players)
    return tuple(base + (1 if index < extra else 0) for index in range(players))


class FanTanDeal:
    """One deal on ``table``; ``emit`` appends events to the session's record.

    ``seats``: the players dealt in, from the dealer's left, the dealer (the table's
    button) last.
    """

    def __init__(
        self,
        rules: FanTanRules,
        table: Table,
        emit: Callable[[Event], None],
        deck: Deck,
        number: int,
        seats: Sequence[int],
    ) -> None:
        self.rules = rules
        self.table = table
        self.emit = emit
        self.deck = deck
        self.number = number
        self.seats = tuple(seats)
        self.dealer = self.seats[-1]
        self.hands: dict[int, list[Card]] = {s: [] for s in self.seats}
        self.dealt: dict[int, int] = {}
        self.layout = Layout(rules.aces)
        self.phase = Phase.DONE
        self.turn = self.seats[0]
        self.leader = self.seats[0]
        self.played = 0
        self.passes: dict[int, int] = dict.fromkeys(self.seats, 0)
        self.passes_in_a_row = 0
        self.open_passes: list[OpenPass] = []
        self.winner: int | None = None
        self.shown: tuple[int, ...] = ()

    # -- the state machine --------------------------------------------------------------------

    def start(self) -> None:
        """Antes, the deal, the extra chips, then the leader's turn."""
        self.emit(DealStarted(deal=self.number, dealer=self.dealer, seats=self.seats))
        self.table.pay_each(self.seats, POT, self.rules.ante, Reason.ANTE)
        self.emit(Shuffled(deck=self.deck.codes, audience=()))
        count = len(self.seats)
        for index, card in enumerate(self.deck.deal(len(self.deck))):
            self.hands[self.seats[index % count]].append(card)
        for seat in self.seats:
            self.dealt[seat] = len(self.hands[seat])
            self.hands[seat] = self.layout.sorted(self.hands[seat])
            cards = tuple(c.ascii for c in self.hands[seat])
            self.emit(CardsDealt(seat=seat, cards=cards, audience=(seat,)))
        self._extra_chips()
        if self.rules.leader is Leader.SEVEN_OF_DIAMONDS:
            self.leader = next(s for s in self.seats if SEVEN_OF_DIAMONDS in self.hands[s])
        self.phase, self.turn = Phase.PLAY, self.leader

    def _extra_chips(self) -> None:
        sizes = set(self.dealt.values())
        rule = self.rules.extra_chip
        if len(sizes) < 2 or rule is ExtraChip.NONE:
            return
        size = min(sizes) if rule is ExtraChip.FEWER else max(sizes)
        payers = [s for s in self.seats if self.dealt[s] == size]
        note = "dealt a card " + ("fewer" if rule is ExtraChip.FEWER else "more")
        self.table.pay_each(payers, POT, 1, Reason.ANTE, note)

    @property
    def over(self) -> bool:
        """True when the deal has been settled."""
        return self.phase is Phase.DONE

    @property
    def to_act(self) -> int | None:
        """The seat that must play or pass now (None when the deal is over)."""
        return None if self.phase is Phase.DONE else self.turn

    def legal_cards(self, seat: int) -> tuple[Card, ...]:
        """The cards of ``seat``'s hand that it may play now (none when not its turn)."""
        if seat != self.to_act:
            return ()
        if self.played == 0 and self.rules.leader is Leader.SEVEN_OF_DIAMONDS:
            return (SEVEN_OF_DIAMONDS,)
        fits = self.layout.fits
        return tuple(card for card in self.hands[seat] if fits(card))

    def may_pass(self, seat: int) -> bool:
        """True if ``seat`` (to act) may pass now: no card fits, or false passes are taken
        unchecked and not every other player has passed since the last card."""
        if not self.legal_cards(seat):
            return True
        if self.played == 0 and self.rules.leader is Leader.SEVEN_OF_DIAMONDS:
            return False
        round_of_passes = self.passes_in_a_row >= len(self.seats) - 1
        return self.rules.false_pass is not FalsePass.REFUSED and not round_of_passes

    def pending(self) -> tuple[Decision, ...]:
        """The decision to be made now (one seat at a time)."""
        seat = self.to_act
        if seat is None:
            return ()
        return (Decision(seat, self.options(seat), self._prompt(seat)),)

    def options(self, seat: int) -> Options:
        """What ``seat`` (the seat to act) may do now: a card that fits, or pass."""
        legal = tuple(c.ascii for c in self.legal_cards(seat))
        hand = tuple(c.ascii for c in self.hands[seat])
        why = self._why_not()
        words = (PASS,) if not legal or self.may_pass(seat) else ()
        return PlayCard(
            hand, legal, tuple((code, why) for code in hand if code not in legal), words
        )

    def _why_not(self) -> str:
        if self.played == 0 and self.rules.leader is Leader.SEVEN_OF_DIAMONDS:
            return "the holder of the seven of diamonds leads it"
        if self.played == 0:
            return "the first card played must be a seven"
        return "it does not fit a row (a seven, or the next card beyond a row's end)"

    def act(self, seat: int, action: str) -> None:
        """Apply a legal action in its canonical spelling: a card's code, or ``pass``."""
        if action == PASS:
            self._pass(seat)
        else:
            self._play(seat, parse_card(action))

    # -- passes and plays ---------------------------------------------------------------------

    def _pass(self, seat: int) -> None:
        fitting = self.legal_cards(seat)
        if fitting:
            self.open_passes.append(OpenPass(seat, frozenset(fitting)))
        paid = self.table.pay(seat, POT, self.rules.pass_chips, Reason.PASS, "passed")
        self.passes[seat] += 1
        self.passes_in_a_row += 1
        self.emit(Passed(seat=seat, paid=paid))
        self._next_turn(seat)

    def _play(self, seat: int, card: Card) -> None:
        self.hands[seat].remove(card)
        self.layout.play(card)
        self.played += 1
        self.passes_in_a_row = 0
        self.emit(CardPlaced(seat=seat, card=card.ascii, left=len(self.hands[seat])))
        self._find_false_passes(seat, card)
        if not self.hands[seat]:
            self._settle(seat)
        else:
            self._next_turn(seat)

    def _next_turn(self, seat: int) -> None:
        self.turn = self.seats[(self.seats.index(seat) + 1) % len(self.seats)]

    def _find_false_passes(self, seat: int, card: Card) -> None:
        """The passes of ``seat`` that ``card`` (out now) shows it could have played."""
        found = [p for p in self.open_passes if p.seat == seat and card in p.cards]
        for open_pass in found:
            self.open_passes.remove(open_pass)
        if found:
            self._fine(seat, card, len(found))

    def _fine(self, seat: int, card: Card, passes: int) -> None:
        """``seat`` pays the fine of ``passes`` false passes that ``card`` shows."""
        fine, table = self.rules.false_pass_fine * passes, self.table
        note = f"passed holding {card.ascii}"
        holders: tuple[int, ...] = ()
        if self.rules.false_pass is FalsePass.HOLDERS:
            held_up = self.layout.held_up(card)
            holders = tuple(
                s for s in self.seats if s != seat and any(c in self.hands[s] for c in held_up)
            )
        for holder in holders:
            table.pay(seat, holder, fine, Reason.PENALTY, note)
        if not holders:
            table.pay(seat, POT, fine, Reason.PENALTY, note)
        found = FalsePassFound(
            seat=seat, card=card.ascii, fine=fine, paid_to=holders, passes=passes
        )
        self.emit(found)

    # -- the result ---------------------------------------------------------------------------

    def _settle(self, winner: int) -> None:
        table, order = self.table, self.seats.index(winner)
        losers = [self.seats[(order + k) % len(self.seats)] for k in range(1, len(self.seats))]
        for seat in losers:
            cards = tuple(c.ascii for c in self.hands[seat])
            counted = f"{len(cards)} card" + ("" if len(cards) == 1 else "s")
            self.emit(CardsShown(seat=seat, cards=cards, description=counted))
        self.shown = tuple(losers)
        while self.open_passes:
            first = self.open_passes[0]
            card = self.layout.sorted(first.cards & set(self.hands[first.seat]))[0]
            self._find_false_passes(first.seat, card)
        counts = tuple((seat, len(self.hands[seat])) for seat in losers)
        self.emit(FanTanResult(winner=winner, cards=counts))
        words = []
        for seat, count in counts:
            paid = table.pay(
                seat, POT, count * self.rules.card_chips, Reason.CARDS_LEFT, f"{count} cards left"
            )
            if paid:
                name = [self._name(seat)]
                words.append(f"{who(name, start=False)} {agree(name, 'pays')} {paid}")
        won = table.collect(POT, winner, reason=Reason.WIN)
        name = [self._name(winner)]
        takes = f"{agree(name, 'takes')} the pot ({won})"
        head = f"{who(name)} {agree(name, 'is')} out first and {takes}"
        self.winner = winner
        self.emit(
            Outcome(
                text="; ".join([head, *words]),
                winners=(winner,),
                payers=tuple(seat for seat, count in counts if count),
            )
        )
        self.phase = Phase.DONE
        self.emit(DealEnded(deal=self.number, pot=table.pot, reserve=table.reserve, aside=0))

    # -- views --------------------------------------------------------------------------------

    def public(self) -> dict[str, Any]:
        """What everyone sees of the deal: the rows, the hand sizes, the passes."""
        layout = self.layout
        return {
            "phase": self.phase.value,
            "dealer": self.dealer,
            "dealt_in": list(self.seats),
            "leader": self.leader,
            "aces": self.rules.aces.value,
            "rows": {suit.name.lower(): [c.ascii for c in layout.row(suit)] for suit in SUITS},
            "hand_sizes": {str(s): len(h) for s, h in self.hands.items()},
            "dealt": {str(s): n for s, n in self.dealt.items()},
            "passes": {str(s): n for s, n in self.passes.items()},
            "cards_played": self.played,
            "winner": self.winner,
            "shown": {str(s): [c.ascii for c in self.hands[s]] for s in self.shown},
        }

    def private(self, seat: int) -> dict[str, Any]:
        """What only ``seat`` sees: its hand and the cards it may play now."""
        return {
            "hand": [c.ascii for c in self.hands.get(seat, [])],
            "legal": [c.ascii for c in self.legal_cards(seat)],
        }

    def _prompt(self, seat: int) -> str:
        if not self.legal_cards(seat):
            return "no card fits: pass (and pay the pot)"
        if self.may_pass(seat):
            return "play a card that fits a row, or pass"
        return "play a card that fits a row"

    def _name(self, seat: int) -> str:
        return self.table.names[seat]
