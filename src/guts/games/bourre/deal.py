"""One deal of Bourré as a state machine: ante, deal, intent, draw, five tricks, settle.

The dealer deals five cards each, one at a time, from their left, themselves last; the
trump card is turned (:class:`~guts.games.bourre.stock.TrumpCard`). From the dealer's left
each player says ``play`` or ``fold``; then each player who plays says ``stand`` or
``discard <cards>`` (``discard 7h 2c``) and is dealt as many; then the tricks, led first
by the first player left of the dealer who plays, then by each trick's winner; a card is
played by its code (``7h``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import Enum
from random import Random
from typing import Any

from guts.cards import Card, Deck, Suit, parse_card, parse_cards
from guts.games.base import Event
from guts.games.bourre.events import (
    CardPlayed,
    CardsDealt,
    CardsDrawn,
    DealEnded,
    DealStarted,
    Discarded,
    Drew,
    Folded,
    HandResult,
    Intent,
    Outcome,
    PileShuffled,
    Reneged,
    Shuffled,
    StockSeed,
    TrickWon,
    TrumpTurned,
)
from guts.games.bourre.rules import BourreRules, LonePlayer
from guts.games.bourre.stock import HAND, Pile, Stock, TrumpCard, turn_trump
from guts.games.bourre.tricks import (
    TRICKS,
    Play,
    PlayContext,
    RenegeMode,
    TrickRules,
    bourre_cost,
    explain_illegal,
    hand_result,
    judge_play,
    legal_plays,
    trick_winner,
)
from guts.games.decision import Choose, Decision, Discard, Options, PlayCard
from guts.grammar import agree, who
from guts.table import POT, Reason, Table

__all__ = ["BourreDeal", "Phase"]


class Phase(Enum):
    """Where a deal stands."""

    INTENT = "intent"
    DRAW = "draw"
    TRICKS = "tricks"
    DONE = "done"


class BourreDeal:
    """One deal on ``table``; ``emit`` appends events to the session's record.

    ``seats``: the players dealt in, from the dealer's left, the dealer (the table's
    button) last; ``exempt``: those who bourréd last deal and so do not ante; ``seed``
    seeds the shuffles of the folded hands and discards if the stock runs out.
    """

    def __init__(
        self,
        rules: BourreRules,
        table: Table,
        emit: Callable[[Event], None],
        deck: Deck,
        seed: int,
        number: int,
        seats: Sequence[int],
        exempt: frozenset[int] = frozenset(),
    ) -> None:
        self.rules = rules
        self.table = table
        self.emit = emit
        self.deck = deck
        self.seed = seed
        self.number = number
        self.seats = tuple(seats)
        self.dealer = self.seats[-1]
        self.exempt = exempt
        self.cap = rules.draw_rules.discard_cap(len(self.seats))
        self.hands: dict[int, list[Card]] = {s: [] for s in self.seats}
        self.intents: dict[int, str] = {}
        self.playing: tuple[int, ...] = ()
        self.discarded: dict[int, int] = {}
        self.stock = Stock(())
        self.trump_card: Card | None = None
        self.trump = Suit.SPADES
        self.phase = Phase.DONE
        self.queue: list[int] = []
        self.tricks: list[tuple[Play, ...]] = []
        self.trick: list[Play] = []
        self.won: dict[int, int] = {}
        self.reneged: set[int] = set()
        self.retracting = False
        self.bourred: tuple[int, ...] = ()
        self._rng = Random(seed)

    # -- the state machine --------------------------------------------------------------------

    def start(self) -> None:
        """Antes, the deal, the trump card, then the first decision."""
        self.emit(DealStarted(deal=self.number, dealer=self.dealer, seats=self.seats))
        self._antes()
        self.emit(Shuffled(deck=self.deck.codes, audience=()))
        self.emit(StockSeed(seed=self.seed, audience=()))
        for _ in range(HAND):
            for seat in self.seats:
                self.hands[seat].append(self.deck.deal_one())
        for seat in self.seats:
            self.emit(CardsDealt(seat=seat, cards=_codes(self.hands[seat]), audience=(seat,)))
        self.stock = Stock(self.deck.cards)
        card = turn_trump(self.rules.trump_card, self.hands[self.dealer], self.stock)
        assert card.suit is not None  # turn_trump refuses jokers
        self.trump_card, self.trump = card, card.suit
        holder = self.dealer if self.rules.trump_card is TrumpCard.DEALER else None
        self.emit(TrumpTurned(card=card.ascii, suit=self.trump.name.lower(), seat=holder))
        self.phase, self.queue = Phase.INTENT, list(self.seats)

    @property
    def over(self) -> bool:
        """True when the deal has been settled."""
        return self.phase is Phase.DONE

    @property
    def to_act(self) -> int | None:
        """The seat that must decide now (None when the deal is over)."""
        return None if self.phase is Phase.DONE else self.queue[0]

    def pending(self) -> tuple[Decision, ...]:
        """The decision to be made now (one seat at a time in Bourré)."""
        seat = self.to_act
        if seat is None:
            return ()
        return (Decision(seat, self.options(seat), self._prompt(seat)),)

    def options(self, seat: int) -> Options:
        """What ``seat`` (the seat to act) may do now."""
        hand = _codes(self.hands[seat])
        if self.phase is Phase.INTENT:
            return Choose(("play",) if self._must_play(seat) else ("play", "fold"))
        if self.phase is Phase.DRAW:
            return Discard(hand, tuple(range(self.cap + 1)), pat="stand")
        judging = self._judging(seat)
        why_not = tuple(
            (card.ascii, why)
            for card in self.hands[seat]
            if (why := explain_illegal(card, self.hands[seat], self.trick, self.trump, *judging))
        )
        strict = self.rules.renege_mode is RenegeMode.STRICT or self.retracting
        forbidden = {code for code, _ in why_not}
        allowed = tuple(c for c in hand if c not in forbidden) if strict else hand
        return PlayCard(hand, allowed, why_not)

    def actions(self, seat: int) -> tuple[str, ...]:
        """What ``seat`` may do now: every discard set is listed in the draw."""
        return () if seat != self.to_act else self.options(seat).actions()

    def act(self, seat: int, action: str) -> None:
        """Apply a legal action in its canonical spelling (see :meth:`options`)."""
        if self.phase is Phase.INTENT:
            self._intent(seat, action)
        elif self.phase is Phase.DRAW:
            self._draw(seat, action)
        else:
            self._play(seat, parse_card(action))

    # -- antes and intents --------------------------------------------------------------------

    def _antes(self) -> None:
        ante, table = self.rules.ante, self.table
        payers = tuple(s for s in self.seats if s not in self.exempt)
        if self.rules.dealer_antes:
            antes_for = who([table.names[s] for s in payers], start=False) or "nobody"
            note = "the dealer antes for " + antes_for
            table.pay(self.dealer, POT, ante * len(payers), Reason.ANTE, note)
        else:
            table.pay_each(payers, POT, ante, Reason.ANTE)

    def _must_play(self, seat: int) -> bool:
        others = sum(1 for s, choice in self.intents.items() if choice == "play" and s != seat)
        return (
            self.rules.lone_player is LonePlayer.DEALER_PLAYS
            and seat == self.dealer
            and others == 1
        )

    def _intent(self, seat: int, choice: str) -> None:
        forced = self._must_play(seat)
        self.intents[seat] = choice
        self.emit(Intent(seat=seat, choice=choice, forced=forced))
        if choice == "play" and self.rules.play_ante:
            self.table.pay(seat, POT, self.rules.play_ante, Reason.ANTE, "the second ante")
        if choice == "fold":
            self.stock.fold(self.hands[seat])
            self.emit(Folded(seat=seat, cards=_codes(self.hands[seat]), audience=()))
            self.hands[seat] = []
        self.queue.pop(0)
        if not self.queue:
            self._after_intents()

    def _after_intents(self) -> None:
        self.playing = tuple(s for s in self.seats if self.intents[s] == "play")
        if not self.playing:
            self.emit(HandResult(tricks=(), winner=None))
            self.emit(Outcome(text="Nobody plays: the pot stays for the next deal"))
            self._finish()
        elif len(self.playing) == 1:
            (seat,) = self.playing
            won = self.table.collect(POT, seat, note="the only player")
            self.emit(HandResult(tricks=(), winner=seat))
            name = [self._name(seat)]
            alone = f"{who(name)} {agree(name, 'plays')} alone"
            text = f"{alone} and {agree(name, 'takes')} the pot ({won})"
            self.emit(Outcome(text=text, winners=(seat,)))
            self._finish()
        else:
            self.won = {s: 0 for s in self.playing}
            self.phase, self.queue = Phase.DRAW, list(self.playing)

    # -- the draw -----------------------------------------------------------------------------

    def _draw(self, seat: int, action: str) -> None:
        hand = self.hands[seat]
        out = parse_cards(action.removeprefix("discard")) if action != "stand" else ()
        counts = {pile: self.stock.count(pile) for pile in Pile}
        shuffled = len(self.stock.shuffles)
        draws = self.stock.deal(len(out), self._rng)
        for pile in self.stock.shuffles[shuffled:]:
            self.emit(PileShuffled(pile=pile.value, cards=counts[pile]))
        self.hands[seat] = [c for c in hand if c not in out] + [d.card for d in draws]
        self.discarded[seat] = len(out)
        if out:
            self.stock.discard(out)
            self.emit(Discarded(seat=seat, cards=_codes(out), audience=()))
        piles = tuple(d.pile.value for d in draws)
        self.emit(Drew(seat=seat, count=len(out), piles=piles))
        if draws:
            cards = tuple(d.card.ascii for d in draws)
            self.emit(CardsDrawn(seat=seat, cards=cards, audience=(seat,)))
        self.queue.pop(0)
        if not self.queue:
            self.phase, self.queue = Phase.TRICKS, [self.playing[0]]

    # -- the tricks ---------------------------------------------------------------------------

    def legal_cards(self, seat: int) -> frozenset[Card]:
        """The cards ``seat`` may play to the current trick (empty when not its turn)."""
        if self.phase is not Phase.TRICKS or seat != self.to_act:
            return frozenset()
        return legal_plays(self.hands[seat], self.trick, self.trump, *self._judging(seat))

    def _judging(self, seat: int) -> tuple[TrickRules, PlayContext]:
        out = [play.card for trick in self.tricks for play in trick]
        if self.rules.trump_card is TrumpCard.STOCK and self.trump_card is not None:
            out.append(self.trump_card)
        others = [n for s, n in self.won.items() if s != seat]
        context = PlayContext(frozenset(out), self.won[seat], max(others, default=0))
        return self.rules.trick_rules, context

    def _play(self, seat: int, card: Card) -> None:
        rules, context = self._judging(seat)
        renege = judge_play(card, self.hands[seat], self.trick, self.trump, rules, context)
        if renege is not None:
            self.reneged.add(seat)
            retract = rules.renege_mode is RenegeMode.RETRACT
            rule = renege.reason.partition(":")[0]  # the rule broken, not the cards held
            self.emit(Reneged(seat=seat, card=card.ascii, reason=rule, retracted=retract))
            if retract:
                self.retracting = True
                return
        self.retracting = False
        self.hands[seat].remove(card)
        self.trick.append(Play(seat, card))
        self.emit(CardPlayed(seat=seat, card=card.ascii, trick=len(self.tricks) + 1))
        if len(self.trick) < len(self.playing):
            following = self.playing[(self.playing.index(seat) + 1) % len(self.playing)]
            self.queue = [following]
            return
        best = self.trick[trick_winner(self.trick, self.trump)]
        self.won[best.seat] += 1
        self.tricks.append(tuple(self.trick))
        self.trick = []
        self.emit(TrickWon(trick=len(self.tricks), seat=best.seat, card=best.card.ascii))
        if len(self.tricks) == TRICKS:
            self._settle()
        else:
            self.queue = [best.seat]

    # -- the result ---------------------------------------------------------------------------

    def _settle(self) -> None:
        table = self.table
        result = hand_result(self.won, self.reneged)
        cost = bourre_cost(table.pot, self.rules.pot_limit)
        self.emit(
            HandResult(
                tricks=result.tricks,
                winner=result.winner,
                bourre=result.bourre,
                reneged=result.reneged,
                cost=cost,
            )
        )
        words = []
        if result.winner is not None:
            won = table.collect(POT, result.winner, reason=Reason.WIN)
            name, tricks = [self._name(result.winner)], dict(result.tricks)[result.winner]
            taken = f"{agree(name, 'wins')} {_tricks(tricks)} and {agree(name, 'takes')} the pot"
            words.append(f"{who(name)} {taken} ({won})")
        else:
            most = max(n for _, n in result.tricks)
            tied = [self._name(s) for s, n in result.tricks if n == most]
            words.append(f"{who(tied)} tie with {_tricks(most)} each: the pot stays")
        for seat in result.bourre:
            cheat = seat in result.reneged
            reason = Reason.PENALTY if cheat else Reason.BOURRE
            note = "reneged" if cheat else "took no trick"
            table.pay(seat, POT, cost, reason, note)
            name = [self._name(seat)]
            matches = f"{agree(name, 'matches')} the pot ({cost})"
            words.append(f"{who(name, start=False)} {note} and {matches}")
        self.bourred = result.bourre
        payers = result.bourre
        winners = (result.winner,) if result.winner is not None else ()
        self.emit(Outcome(text="; ".join(words), winners=winners, payers=payers))
        self._finish()

    def _finish(self) -> None:
        self.phase, self.queue = Phase.DONE, []
        table = self.table
        self.emit(DealEnded(deal=self.number, pot=table.pot, reserve=table.reserve, aside=0))

    # -- views --------------------------------------------------------------------------------

    def public(self) -> dict[str, Any]:
        """What everyone sees of the deal."""
        return {
            "phase": self.phase.value,
            "dealer": self.dealer,
            "dealt_in": list(self.seats),
            "trump": self.trump.name.lower(),
            "trump_card": self.trump_card.ascii if self.trump_card is not None else None,
            "discard_cap": self.cap,
            "intents": {str(s): c for s, c in self.intents.items()},
            "playing": list(self.playing),
            "hand_sizes": {str(s): len(h) for s, h in self.hands.items()},
            "discarded": {str(s): n for s, n in self.discarded.items()},
            "stock": len(self.stock),
            "tricks": [[[p.seat, p.card.ascii] for p in trick] for trick in self.tricks],
            "trick": [[p.seat, p.card.ascii] for p in self.trick],
            "tricks_won": {str(s): n for s, n in self.won.items()},
            "reneged": sorted(self.reneged),
            "bourre": list(self.bourred),
        }

    def private(self, seat: int) -> dict[str, Any]:
        """What only ``seat`` sees: its hand, and the cards it may play now."""
        hand = self.hands.get(seat, [])
        legal = self.legal_cards(seat)
        return {
            "hand": [c.ascii for c in hand],
            "legal": [c.ascii for c in hand if c in legal],
        }

    def _prompt(self, seat: int) -> str:
        if self.phase is Phase.INTENT:
            return "play or fold" if len(self.actions(seat)) > 1 else "the dealer must play"
        if self.phase is Phase.DRAW:
            return f"discard 0 to {self.cap} cards (stand, or discard followed by the cards)"
        return f"play a card to trick {len(self.tricks) + 1} (trumps: {self.trump.name.lower()})"

    def _name(self, seat: int) -> str:
        return self.table.names[seat]


def _tricks(count: int) -> str:
    return f"{count} trick" + ("" if count == 1 else "s")


def _codes(cards: Sequence[Card]) -> tuple[str, ...]:
    return tuple(c.ascii for c in cards)
