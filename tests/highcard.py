"""High Card: a throwaway family, built outside ``guts`` the way a new family package is.

Everyone antes; each player is dealt one card and declares in or out in turn from the
dealer's left; the highest card among those in takes the pot (nobody in: the pot stays).
It exists to prove the family seam (tests/test_family_seam.py): everything below is what
a family's package holds, and ``FAMILY`` is the one object registered.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any, ClassVar

from guts.cards import Deck, parse_card
from guts.errors import IllegalAction
from guts.games.base import Decision, Event
from guts.games.declaration.events import (
    Acted,
    CardsDealt,
    CardsShown,
    DealStarted,
    Declared,
    Moved,
    Outcome,
    SessionEnded,
    Shuffled,
    Stopped,
)
from guts.games.declaration.outcomes import declared_settlements
from guts.games.declaration.words import TELLERS
from guts.games.family import ActionLayout, BotKind, Family, PageView, random_bot
from guts.games.options import RuleOptions
from guts.games.policy import Policy
from guts.games.session import SHORT_OF_PLAYERS, RecordedSession, open_table
from guts.games.words import by_kind
from guts.table import POT, OddChipRule, Reason, Table

NAME = "high-card"


@dataclass(frozen=True)
class HighCardRules(RuleOptions):
    """The options of High Card."""

    family: ClassVar[str] = NAME
    option_docs: ClassVar[Mapping[str, str]] = {
        "ante": "chips each player antes",
        "credit": "players may go below zero",
        "odd_chips": "who gets the odd chips of a split",
    }
    ante: int = 1
    credit: bool = False
    odd_chips: OddChipRule = OddChipRule.NEAREST_LEFT

    def __post_init__(self) -> None:
        self.check_options()


PRESETS: dict[str, tuple[HighCardRules, str]] = {
    "high-card": (HighCardRules(), "one card each, declare in turn; the highest card in wins"),
}


class HighCardDeal:
    """One deal: in/out in turn, then the highest card in takes the pot."""

    def __init__(self, table: Table, emit: Callable[[Event], None], seats: Sequence[int],
                 deck: Deck) -> None:  # fmt: skip
        self.table, self.emit, self.seats = table, emit, tuple(seats)
        self.hands = {seat: deck.deal(1)[0] for seat in self.seats}
        self.choices: dict[int, str] = {}
        for seat in self.seats:
            emit(CardsDealt(seat=seat, cards=(self.hands[seat].ascii,), audience=(seat,)))

    @property
    def over(self) -> bool:
        return len(self.choices) == len(self.seats)

    def pending(self) -> tuple[Decision, ...]:
        if self.over:
            return ()
        return (Decision.choose(self.seats[len(self.choices)], ("in", "out")),)

    def act(self, seat: int, action: str, /) -> None:
        if self.over or seat != self.seats[len(self.choices)] or action not in ("in", "out"):
            raise IllegalAction(f"seat {seat} cannot {action!r} now")
        self.emit(Acted(seat=seat, action=action))
        self.choices[seat] = action
        self.emit(Declared(seat=seat, choice=action))
        if self.over:
            self._settle()

    def _settle(self) -> None:
        ins = [seat for seat in self.seats if self.choices[seat] == "in"]
        if not ins:
            self.emit(Outcome(text="Nobody is in: the pot stays"))
            return
        for seat in ins:
            self.emit(CardsShown(seat=seat, cards=(self.hands[seat].ascii,), description=""))
        winner = max(ins, key=lambda seat: self.hands[seat].code)
        won = self.table.collect(POT, winner)
        names = self.table.names
        self.emit(Outcome(text=f"{names[winner]} takes the pot ({won})", winners=(winner,)))


class HighCardSession(RecordedSession[HighCardRules, HighCardDeal]):
    """Deals of High Card until fewer than two players have chips or the players stop."""

    game: ClassVar[str] = NAME
    rules_class: ClassVar[type[RuleOptions]] = HighCardRules
    moved_event = Moved
    ended_event = SessionEnded

    def __init__(self, rules: HighCardRules, players: Sequence[str | tuple[str, int]], *,
                 buy_in: int = 0, rng: Random | None = None, button: int = 0) -> None:  # fmt: skip
        table = open_table(rules, players, buy_in=buy_in, button=button)
        super().__init__(rules, table, record_buy_ins=True)
        self._rng = rng or Random()

    def start_deal(self, deck: Deck | None = None) -> None:
        self._check_can_deal()
        seats = self._dealing_order()
        if len(seats) < 2:
            self._end(SHORT_OF_PLAYERS)
            return
        self._button_to_a_player(seats)
        deck = deck or Deck.shuffled(rng=self._rng)
        self._deals += 1
        emit = self._record.emit
        emit(DealStarted(deal=self._deals, dealer=seats[-1], seats=seats))
        emit(Shuffled(deck=tuple(card.ascii for card in deck.cards), audience=()))
        self._table.pay_each(seats, POT, self.rules.ante, Reason.ANTE)
        self._deal = HighCardDeal(self._table, emit, seats, deck)
        self._sync()

    def _after_step(self) -> None:
        self._sync()
        if self.deal_over:
            self._pass_button()

    def stop(self, reason: str = "the players stopped") -> None:
        if not self.deal_over:
            raise IllegalAction("a deal is in progress")
        self._emit(Stopped(reason=reason))
        if self._table.pot:
            self._table.split(POT, list(self._table.turn_order()), Reason.REFUND)
        self._end(reason)

    def _view(self, seat: int | None) -> dict[str, Any]:
        deal = self._deal
        hand = [deal.hands[seat].ascii] if deal and seat in deal.hands else []
        return self._table_view(seat, hand=hand, dealt_in=list(deal.seats) if deal else [],
                                declared=dict(deal.choices) if deal else {})  # fmt: skip

    def _replay_event(self, event: Event) -> None:
        if isinstance(event, Shuffled):
            self.start_deal(Deck.stacked(event.deck))
        elif isinstance(event, Acted):
            self.act(event.seat, event.action)
        elif isinstance(event, Stopped):
            self.stop(event.reason)
        elif isinstance(event, SessionEnded) and not self.is_over:
            self.start_deal()  # it ended for want of players with chips


class HighestIn:
    """A bot: in with a card above the median (a ten or better), else out."""

    def choose(self, view: Mapping[str, Any], decision: Decision, rng: Random) -> str:
        card = parse_card(view["hand"][0]) if view["hand"] else None
        return "in" if card is not None and card.code >= 32 else "out"


def _tell_in_words(data: dict[str, Any], names: Sequence[str]) -> str:
    return f"High Card {data['deal']}"


def _settlements(events: Iterable[Event]) -> list[str]:
    return declared_settlements(events)


def _bot(rules: Any, seats: int | None) -> Policy:
    return HighestIn()


FAMILY: Family[HighCardRules, HighCardSession] = Family(
    NAME,
    HighCardRules,
    PRESETS,
    HighCardSession,
    title="High Card",
    description="a one-card game of nerve",
    titles={"high-card": ("High Card", None)},
    bots={"random": random_bot, "highest": BotKind("in with a ten or better", _bot)},
    tell=by_kind({**TELLERS, "deal-started": _tell_in_words}, {"shuffled", "acted"}),
    takes_table=True,
    layout=lambda rules: ActionLayout(("in", "out"), 1),
    settlements=_settlements,
    page=PageView(face_down="hand", cards=1),
)
