"""One deal of a staged game as a state machine: (dealer's choice), then for each stage
deal, declare, settle: nobody in, one in (a point), or a comparison.

Three Five Seven and Napalm have three stages, Nuts four, Toh one (a Toh *hand*). A deal
ends early when a player reaches the target and takes the pot. The deal writes to the
session's ``points`` (legs, nuts, points carry from deal to deal).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import Enum

from guts.cards import Card, Deck, card_codes
from guts.games.base import Decision, Event
from guts.games.declaration.round import ChoiceRound, DeclareRound
from guts.games.staged.events import (
    CardsDealt,
    CardsShown,
    DealEnded,
    Declared,
    LastHand,
    ModeChosen,
    Outcome,
    PointScored,
    StageStarted,
)
from guts.games.staged.rules import Declare, Payment, Stage, StagedRules, TohLone, TohNobody
from guts.grammar import agree, is_you, who
from guts.table import POT, Reason, Table

__all__ = ["Phase", "StagedDeal"]

MODES = ("in-turn", "simultaneous")
"""The dealer's choices under declare=dealer-choice."""


class Phase(Enum):
    """Where a deal stands."""

    MODE = "mode"
    DECLARE = "declare"
    SECOND_CHANCE = "second-chance"
    DONE = "done"


class StagedDeal:
    """One deal on ``table``; ``emit`` appends events to the session's record."""

    def __init__(
        self,
        rules: StagedRules,
        table: Table,
        emit: Callable[[Event], None],
        deck: Deck,
        number: int,
        seats: Sequence[int],
        points: dict[int, int],
        target: int,
    ) -> None:
        self.rules = rules
        self.table = table
        self.emit = emit
        self.deck = deck
        self.number = number
        self.seats = tuple(seats)  # dealt in, from the dealer's left
        self.dealer = table.button
        self.points = points
        self.target = target
        self.stages = rules.stages()
        self.stage_index = -1
        self.hands: dict[int, list[Card]] = {s: [] for s in self.seats}
        self.simultaneous = rules.declare_mode is Declare.SIMULTANEOUS
        self.declared: dict[int, str] = {}  # this stage's public declarations
        self.shown: list[CardsShown] = []
        self.kept: dict[int, Card] = {}  # Toh: point cards won in this hand
        self.winner: int | None = None  # who took the pot
        self.phase = Phase.DONE
        self.round: ChoiceRound | None = None

    # -- the state machine ------------------------------------------------------------------

    def start(self) -> None:
        """Antes, then the dealer's choice or the first stage."""
        if not self.rules.is_toh:
            self.table.pay_each(self.seats, POT, self.rules.ante, Reason.ANTE)
        if self.rules.declare_mode is Declare.DEALER_CHOICE:
            self.phase = Phase.MODE
            self.round = ChoiceRound(
                [self.dealer],
                {self.dealer: MODES},
                simultaneous=False,
                prompt="dealer's choice: declare in-turn or simultaneous this deal",
            )
            return
        self._next_stage()

    def pending(self) -> tuple[Decision, ...]:
        """The decisions to be made now."""
        return () if self.round is None else self.round.pending()

    def act(self, seat: int, action: str) -> None:
        """Apply a legal action (the session checked it against :meth:`pending`)."""
        assert self.round is not None
        for event in self.round.choose(seat, action):
            if isinstance(event, Declared):
                self.declared[event.seat] = event.choice
            self.emit(event)
        if self.round.done:
            finished, self.round = self.round, None
            self._round_done(finished)

    @property
    def over(self) -> bool:
        """True when the deal has been settled."""
        return self.phase is Phase.DONE and self.round is None

    @property
    def stage(self) -> Stage | None:
        """The stage being played (None before the first)."""
        return self.stages[self.stage_index] if self.stage_index >= 0 else None

    def _round_done(self, finished: ChoiceRound) -> None:
        choices = finished.choices
        if self.phase is Phase.MODE:
            self.simultaneous = choices[self.dealer] == "simultaneous"
            self.emit(ModeChosen(dealer=self.dealer, mode=choices[self.dealer]))
            self._next_stage()
            return
        if self.phase is Phase.SECOND_CHANCE:
            ins = [s for s in self.seats if s == self.dealer or choices.get(s) == "in"]
        else:
            ins = [s for s in self.seats if choices[s] == "in"]
            if self.rules.is_toh and ins == [self.dealer] and len(self.seats) > 1:
                self._second_chance()
                return
        self._settle(ins)

    def _second_chance(self) -> None:
        others = [s for s in self.seats if s != self.dealer]
        self.phase = Phase.SECOND_CHANCE
        self.round = DeclareRound(
            others,
            ("in", "out"),
            simultaneous=False,
            auto_last=False,
            number=2,
            prompt="only the dealer is in: second chance, in or out",
        )

    # -- stages -------------------------------------------------------------------------------

    def _next_stage(self) -> None:
        self.stage_index += 1
        stage = self.stages[self.stage_index]
        self.emit(
            StageStarted(
                stage=stage.number,
                count=stage.deal,
                size=stage.size,
                low=stage.low,
                wild=stage.wild,
                private=stage.private,
                label=stage.label,
            )
        )
        dealt: dict[int, list[Card]] = {s: [] for s in self.seats}
        for _ in range(stage.deal):
            for seat in self.seats:
                dealt[seat].append(self.deck.deal_one())
        for seat in self.seats:
            self.hands[seat] += dealt[seat]
            self.emit(CardsDealt(seat=seat, cards=card_codes(dealt[seat]), audience=(seat,)))
        if self.rules.is_toh and self.rules.announce_last_hand and len(self.deck) < len(self.seats):
            self.emit(LastHand(deal=self.number, stock=len(self.deck)))
        self.declared = {}
        self.phase = Phase.DECLARE
        prompt = "in or out" if self.rules.is_toh else f"stage {stage.number}: in or out"
        self.round = DeclareRound(
            self.seats,
            ("in", "out"),
            simultaneous=self.simultaneous,
            auto_last=False,
            number=stage.number,
            prompt=prompt,
        )

    def _settle(self, ins: list[int]) -> None:
        if not ins:
            self._nobody_in()
        elif len(ins) == 1:
            self._lone(ins[0])
        else:
            self._compare(ins)
        if self.winner is None and self.stage_index + 1 < len(self.stages):
            self._next_stage()
        else:
            self._finish()

    def _nobody_in(self) -> None:
        rules = self.rules
        if rules.is_toh and rules.toh_nobody_in is TohNobody.ANTE:
            self.table.pay_each(self.seats, POT, rules.ante, Reason.ANTE, "nobody in")
            self.emit(Outcome(text="Nobody stays in: everyone antes again."))
            return
        self.emit(Outcome(text="Nobody stays in: nothing happens."))

    def _lone(self, seat: int) -> None:
        name = [self.table.names[seat]]
        alone = f"{who(name)} {agree(name, 'is')} alone in"
        if self.rules.is_toh and self.rules.toh_lone is TohLone.NOTHING:
            self.emit(Outcome(text=f"{alone}: nothing happens.", winners=(seat,)))
            return
        self.emit(Outcome(text=f"{alone}.", winners=(seat,)))  # the point's line follows
        self._score(seat)

    def _score(self, seat: int) -> None:
        card = ""
        if self.rules.is_toh:
            kept = self.hands[seat][0]
            self.kept[seat] = kept
            card = kept.ascii
        self.points[seat] = self.points.get(seat, 0) + 1
        total = self.points[seat]
        self.emit(
            PointScored(
                seat=seat, points=total, target=self.target, word=self.rules.word, card=card
            )
        )
        if total >= self.target:
            name = [self.table.names[seat]]
            pot = self.table.collect(POT, seat, reason=Reason.WIN)
            self.winner = seat
            self.emit(
                Outcome(
                    text=f"{who(name)} {agree(name, 'has')} {total} {self.rules.word}s and "
                    f"{agree(name, 'takes')} the pot of {pot}.",
                    winners=(seat,),
                )
            )

    def _compare(self, ins: list[int]) -> None:
        stage = self.stages[self.stage_index]
        audience = tuple(ins) if stage.private else None
        strengths: dict[int, int] = {}
        for seat in ins:
            cards = tuple(self.hands[seat])
            evaluation = stage.ranking.evaluate(cards)
            strengths[seat] = evaluation.strength
            shown = CardsShown(
                seat=seat,
                cards=card_codes(cards),
                description=evaluation.description,
                audience=audience,
            )
            self.shown.append(shown)
            self.emit(shown)
        best = max(strengths.values())
        winners = [s for s in ins if strengths[s] == best]
        losers = [s for s in ins if strengths[s] != best]
        amount = self.table.pot
        for loser in losers:
            if self.rules.payment_rule is Payment.PAY_WINNER:
                for winner in winners:
                    self.table.pay(loser, winner, amount, Reason.PAY_WINNER)
            else:
                self.table.pay(loser, POT, amount, Reason.MATCH)
        self.emit(
            Outcome(
                text=self._outcome_text(ins, winners, losers, amount, stage),
                winners=tuple(winners),
                payers=tuple(losers),
            )
        )
        if self.rules.is_toh:
            self._score(winners[0])

    def _outcome_text(
        self, ins: list[int], winners: list[int], losers: list[int], amount: int, stage: Stage
    ) -> str:
        names = self.table.names
        playing, best, paying = ([names[s] for s in group] for group in (ins, winners, losers))
        their = "your" if any(is_you(name) for name in playing) else "their"
        how = "compare privately" if stage.private else f"show {their} hands"
        top = f"{agree(best, 'has')} the best hand" if len(best) == 1 else "tie for the best hand"
        text = f"{who(playing)} {how}: {who(best, start=False)} {top}."
        if not paying:
            return text + " Nobody pays."
        several = "each " if len(paying) > 1 else ""
        if self.rules.payment_rule is Payment.PAY_WINNER:
            to = ("each of " if len(best) > 1 else "") + who(best, start=False)
            return text + f" {who(paying)} {several}{agree(paying, 'pays')} {amount} to {to}."
        return text + f" {who(paying)} {several}{agree(paying, 'matches')} the pot ({amount})."

    def _finish(self) -> None:
        self.phase = Phase.DONE
        self.emit(DealEnded(deal=self.number, pot=self.table.pot, reserve=self.table.reserve,
                            aside=0))  # fmt: skip

    # -- for the session ------------------------------------------------------------------------

    def discards(self) -> list[Card]:
        """Every card of this deal that is not kept as a point (Toh's discard pile)."""
        return [c for s in self.seats for c in self.hands[s] if self.kept.get(s) != c]
