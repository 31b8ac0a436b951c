"""One deal of draw poker as a state machine: antes, deal, betting, draws, showdown.

A :class:`DrawDeal` runs on the session's table; the session decides who is dealt in,
whether antes are due and what the opening requirement is, and handles what carries to
the next deal. Phases: betting (a :class:`~guts.betting.BettingRound`), drawing (one seat
at a time from dealer's left), the Bosnian choice, declaring, over.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from enum import StrEnum

from guts.betting import BettingRound, Blinds, post_antes
from guts.cards import Card, Deck, Rank, card_codes
from guts.errors import IllegalAction
from guts.games.base import Event
from guts.games.decision import Decision, Discard, betting_action
from guts.games.draw.actions import discard_text
from guts.games.draw.events import (
    DealEnded,
    Dealt,
    Drew,
    Offered,
    Reshuffled,
    Shuffled,
    SplitOpeners,
    WidowTurned,
    acted,
    betting_started,
    deal_started,
    dealt,
    discarded,
    drew,
)
from guts.games.draw.hands import opens
from guts.games.draw.rules import BetsFrom, DrawFrom, DrawRules, Openers
from guts.games.draw.showdown import Showdown
from guts.rankings.base import Ranking
from guts.table import POT, Table

__all__ = ["DrawDeal", "Phase"]

Shuffle = Callable[[Sequence[Card]], list[Card]]
"""Shuffles cards into a stock order (the session's rng, or a replay's recorded orders)."""


class Phase(StrEnum):
    """Where a deal stands."""

    BETTING = "betting"
    DRAWING = "drawing"
    EXCHANGE = "exchange"
    DECLARING = "declaring"
    OVER = "over"


class DrawDeal:
    """One deal among ``seats`` (in order from dealer's left) on ``table``.

    ``emit`` records events; ``shuffle`` orders reshuffled discards; ``deck`` is this
    deal's stock; ``openers`` the requirement to open; ``antes`` whether they are due.
    """

    # A deal has more attributes than Python 3.11 keeps in an instance's shared keys
    # (30): without slots every read of one went through a dict of its own.
    __slots__ = (
        "__weakref__",
        "_offered",
        "_shuffle",
        "antes",
        "at_draw",
        "betting",
        "dead",
        "discards",
        "draw_order",
        "draw_start",
        "drawn",
        "draws_done",
        "emit",
        "folded",
        "game",
        "hands",
        "kept_apart",
        "last_aggressor",
        "last_bet",
        "low_opener",
        "number",
        "offer",
        "opener",
        "openers",
        "original",
        "over",
        "phase",
        "reason",
        "result",
        "rounds",
        "rules",
        "seats",
        "showdown",
        "stock",
        "stood_pat",
        "stop_drawing",
        "table",
        "totals",
        "widow",
        "won",
    )

    def __init__(
        self,
        rules: DrawRules,
        table: Table,
        emit: Callable[[Event], None],
        shuffle: Shuffle,
        deck: Deck,
        *,
        number: int,
        seats: Sequence[int],
        openers: Openers,
        antes: bool = True,
    ) -> None:
        self.rules, self.table, self.emit, self._shuffle = rules, table, emit, shuffle
        self.number, self.seats, self.openers, self.antes = number, tuple(seats), openers, antes
        self.stock = deck
        self.hands: dict[int, list[Card]] = {seat: [] for seat in self.seats}
        self.original: dict[int, tuple[Card, ...]] = {}
        self.discards: dict[int, list[Card]] = {seat: [] for seat in self.seats}
        self.kept_apart: list[Card] = []
        self.widow: Card | None = None
        self.phase = Phase.BETTING
        self.over = False
        """True once the deal has ended (its phase is over)."""
        self.game = "high"
        self.dead = table.pot
        self.totals: dict[int, int] = {}
        self.folded: frozenset[int] = frozenset()
        self.betting: BettingRound | None = None
        self.rounds = 0
        self.draws_done = 0
        self.opener: int | None = None
        self.low_opener: int | None = None
        self.last_aggressor: int | None = None
        self.draw_order: list[int] = []
        self.drawn: dict[int, int] = {}
        self.stood_pat: set[int] = set()
        self.draw_start: int | None = None
        self.stop_drawing = False
        self.offer: tuple[Card, Card] | None = None
        self._offered: Decision | None = None  # the drawer's decision, until it draws
        self.at_draw: tuple[int, ...] = ()
        self.showdown: Showdown | None = None
        self.result = ""
        self.reason = ""
        self.won: dict[int, int] = {}
        self.last_bet = 0

    # -- starting -------------------------------------------------------------------------

    def start(self) -> None:
        """Antes, the deal (and the widow), then the first betting round."""
        table = self.table
        self.emit(deal_started(self.number, table.button, self.seats, self.openers._value_,
                               self.antes))  # fmt: skip
        if self.antes and self.rules.ante:
            self.totals = post_antes(table, self.seats, self.rules.ante)
        self.emit(Shuffled(deck=self.stock.codes, audience=()))
        size, seats = self.rules.hand_size, self.seats
        if not self.rules.wild_widow and len(self.stock) >= size * len(seats):
            for seat, cards in zip(seats, self.stock.deal_around(size, len(seats)), strict=True):
                self.hands[seat].extend(cards)  # one at a time, round by round
        else:
            for round_number in range(1, size + 1):
                for seat in seats:
                    self.hands[seat].append(self.stock.deal_one())
                if self.rules.wild_widow and round_number == self.rules.widow_after:
                    self.widow = self.stock.deal_one()
        for seat in self.seats:
            self.emit(dealt(seat, card_codes(self.hands[seat])))
        if self.widow is not None:
            self.emit(WidowTurned(card=self.widow.ascii))
        self._begin_betting(self.seats[0], blinds=self.blinds())

    def blinds(self) -> Blinds | None:
        """The first round's blinds, without the straddles there are too few players for."""
        blinds = self.rules.blinds()
        if blinds is None:
            return None
        spare = len(self.seats) - (len(blinds.amounts) - blinds.straddles)
        return Blinds(blinds.big, small=blinds.small, straddles=min(blinds.straddles, spare))

    @property
    def in_hand(self) -> tuple[int, ...]:
        """Seats still in the hand, from dealer's left."""
        return tuple(seat for seat in self.seats if seat not in self.folded)

    def ranking(self) -> Ranking:
        """The ranking the hands play by now (lowball after Jacks Back turns low)."""
        if self.game == "low":
            return self.rules.low_ranking()
        widow = self.widow.rank if self.widow is not None else None
        return self.rules.high_ranking(widow)

    def requirement(self) -> Rank | None:
        """The least pair that opens now (None: any hand)."""
        return self.openers.rank if self.game == "high" else None

    # -- betting ------------------------------------------------------------------------------

    def order_from(self, first: int) -> tuple[int, ...]:
        """The dealt-in seats clockwise from ``first`` (folded ones included)."""
        start = self.seats.index(first) if first in self.seats else 0
        return self.seats[start:] + self.seats[:start]

    def _begin_betting(
        self, first: int, *, blinds: Blinds | None = None, check_raise: bool | None = None
    ) -> None:
        self.phase = Phase.BETTING
        openers = None
        rank = self.requirement()
        if self.rounds == 0 and rank is not None and self.rules.enforce_openers:
            ranking = self.ranking()
            openers = {s for s in self.seats if opens(ranking, self.hands[s], rank)}
        double = self.rules.double_last_bet and self.rounds and self.last_bet
        order = self.order_from(first)
        self.betting = BettingRound(
            self.table,
            order,
            self.rules.structure(check_raise=check_raise),
            round_index=min(self.rounds, 1) if self.game == "high" or self.draws_done else 0,
            min_bet=2 * self.last_bet if double else None,
            blinds=blinds,
            folded=self.folded,
            prior=self.totals,
            openers=openers,
        )
        to_act = self.betting.to_act
        self.emit(betting_started(self.rounds, self.game, order[0] if to_act is None else to_act))
        self._after_betting_step()

    def _after_betting_step(self) -> None:
        betting = self.betting
        assert betting is not None
        if not betting.is_over:
            return
        self.totals, self.folded = betting.totals, betting.folded
        self.last_aggressor, self.last_bet = betting.last_aggressor, betting.current_bet
        first_round = self.game == "high" and self.rounds == 0
        low_first = self.game == "low" and self.draws_done == 0
        if first_round:
            self.opener = betting.opener
        elif low_first:
            self.low_opener = betting.opener
        self.rounds += 1
        if betting.winner is not None:
            self._finish_showdown(uncontested=betting.winner)
        elif first_round and betting.opener is None and self.rules.jacks_back:
            self.game = "low"
            blind = Blinds(self.rules.bet) if self.rules.lowball_blind else None
            self._begin_betting(self.seats[0], blinds=blind,
                                check_raise=self.rules.lowball_check_raise)  # fmt: skip
        elif (first_round or low_first) and betting.opener is None and self._could_open():
            self._end("thrown-in", {}, "everyone checked: the cards are thrown in")
        elif self._more_draws():
            self._begin_draw()
        else:
            self._finish_showdown()

    def _could_open(self) -> bool:
        """True if two players in the hand had chips to bet: only then is a round with no
        bet thrown in (a hand all in on its ante is played out to the showdown)."""
        table = self.table
        return sum(1 for seat in self.in_hand if table.stack(seat) > 0) >= 2

    def _more_draws(self) -> bool:
        if self.rules.all_for_one:
            return not self.stop_drawing and len(self.stock) >= len(self.in_hand)
        return self.draws_done < self.rules.draws

    # -- drawing ----------------------------------------------------------------------------

    def _begin_draw(self) -> None:
        self.phase = Phase.DRAWING
        if self.draws_done == 0:
            self.at_draw = self.in_hand
            self.original = {seat: tuple(self.hands[seat]) for seat in self.in_hand}
        if self.rules.all_for_one:
            index = 0 if self.draw_start is None else (self.draw_start + 1) % len(self.seats)
            self.draw_start = index
            first = self.seats[index]
        elif self.rules.draw_from is DrawFrom.AFTER_BIG_BLIND:
            first = self._after_big_blind()
        else:
            first = self.seats[0]
        self.draw_order = [s for s in self.order_from(first) if s not in self.folded]
        self.drawn, self.stood_pat = {}, set()
        self._offered = None

    def _after_big_blind(self) -> int:
        blinds = self.blinds()
        posters = len(blinds.amounts) - blinds.straddles if blinds is not None else 1
        return self.seats[posters % len(self.seats)]

    @property
    def drawer(self) -> int | None:
        """The seat to draw now."""
        return self.draw_order[0] if self.phase in (Phase.DRAWING, Phase.EXCHANGE) else None

    def _pool(self, seat: int) -> list[Card]:
        """The discards that may be reshuffled for ``seat``."""
        if not self.rules.reshuffle:
            return []
        return [card for other, pile in self.discards.items()
                if other != seat or self.rules.reshuffle_own for card in pile]  # fmt: skip

    def _pooled(self, seat: int) -> int:
        """How many discards may be reshuffled for ``seat`` (``len(self._pool(seat))``)."""
        if not self.rules.reshuffle:
            return 0
        own = self.rules.reshuffle_own
        return sum(len(pile) for other, pile in self.discards.items() if other != seat or own)

    def _supply(self, seat: int, discarding: int) -> int:
        own = discarding if self.rules.reshuffle and self.rules.reshuffle_own else 0
        return len(self.stock) + self._pooled(seat) + own

    def draw_options(self, seat: int) -> Discard:
        """What ``seat`` may throw now: the sizes any cards may be thrown in, and the
        special sets (All for One's whole hand, four cards keeping an ace)."""
        hand = self.hands[seat]
        codes = card_codes(hand)
        rules = self.rules
        if rules.all_for_one:
            after = len(self.draw_order) - 1
            counts = tuple(n for n in (0, 1) if n <= len(self.stock))
            whole = len(self.stock) - len(hand) >= after and len(hand) <= len(self.stock)
            return Discard(codes, counts, (codes,) if whole else ())
        limit = rules.draw_limit(self.draws_done)
        if len(self.stock) > limit:  # the stock alone covers any draw (Bosnian's 4 + 1 too)
            counts = tuple(range(limit + 1))
        else:
            supply = len(self.stock) + self._pooled(seat)  # _supply(seat, n), less the own n
            own, bosnian = rules.reshuffle and rules.reshuffle_own, rules.bosnian
            counts = tuple(
                n
                for n in range(limit + 1)
                if supply + (n if own else 0) >= (n + 1 if bosnian and n == 4 else n)  # _need
            )
        extra: tuple[tuple[str, ...], ...] = ()
        if rules.four_with_ace and self.draws_done == 0 and self._supply(seat, 4) >= 4:
            extra = tuple(
                tuple(c for c in codes if c != ace.ascii) for ace in hand if ace.rank == Rank.ACE
            )
        return Discard(codes, counts, extra)

    def _draw_decision(self, seat: int) -> Decision:
        """``seat``'s draw: kept from when it was offered until the seat draws (nothing
        else changes while a seat is to draw)."""
        offered = self._offered
        if offered is None or offered.seat != seat:
            offered = self._offered = Decision(seat, self.draw_options(seat))
        return offered

    def _discard(self, seat: int, text: str) -> None:
        hand = self.hands[seat]
        options = self._draw_decision(seat).options
        assert isinstance(options, Discard)
        self._offered = None
        cards = _pick(hand, options.cards(text))
        self.emit(discarded(seat, discard_text(cards)))
        before = tuple(hand)
        for card in cards:
            hand.remove(card)
        ace_shown = len(cards) == 4 and self.rules.four_with_ace
        if ace_shown:
            self.emit(Drew(seat=seat, count=len(cards), shown=tuple(c.ascii for c in hand)))
        else:
            self.emit(drew(seat, len(cards)))
        self._keep_discards(seat, before, cards)
        self.drawn[seat] = len(cards)
        if not cards:
            self.stood_pat.add(seat)
        if self.rules.bosnian and len(cards) == 4:
            self._give(seat, self._take(3, seat))
            up, down = self._take(2, seat)
            self.offer = (up, down)
            self.phase = Phase.EXCHANGE
            self.emit(Offered(seat=seat, up=up.ascii))
            return
        self._give(seat, self._take(len(cards), seat))
        self._next_drawer()

    def _keep_discards(self, seat: int, before: Sequence[Card], cards: Sequence[Card]) -> None:
        """Discards go on the seat's pile, or are kept apart when the opener splits openers
        (the hand opened before this discard and the kept cards no longer do)."""
        rank = self.requirement()
        splits = (
            seat == self.opener
            and rank is not None
            and bool(cards)
            and opens(self.ranking(), before, rank)
            and not opens(self.ranking(), self.hands[seat], rank)
        )
        if splits:
            self.kept_apart.extend(cards)
            self.emit(SplitOpeners(seat=seat, count=len(cards)))
        else:
            self.discards[seat].extend(cards)

    def _exchange(self, seat: int, text: str) -> None:
        choice = text.strip().lower()
        if choice not in ("take up", "take down"):
            raise IllegalAction(f"{text!r}: choose 'take up' or 'take down'")
        assert self.offer is not None
        up, down = self.offer
        taken, thrown = (up, down) if choice == "take up" else (down, up)
        self.emit(acted(seat, choice))
        self.hands[seat].append(taken)
        if taken is down:
            self.emit(Dealt(seat=seat, cards=(down.ascii,), audience=(seat,)))
        self.discards[seat].append(thrown)
        self.offer = None
        self.phase = Phase.DRAWING
        self._next_drawer()

    def _give(self, seat: int, cards: Sequence[Card]) -> None:
        self.hands[seat].extend(cards)
        if cards:
            self.emit(dealt(seat, card_codes(cards)))

    def _take(self, count: int, seat: int) -> list[Card]:
        if len(self.stock) >= count:  # no reshuffle needed: the top cards, in one slice
            return list(self.stock.deal(count))
        cards: list[Card] = []
        while len(cards) < count:
            if not len(self.stock):
                self._reshuffle(seat)
            cards.append(self.stock.deal_one())
        return cards

    def _reshuffle(self, seat: int) -> None:
        pool = self._pool(seat)
        if not pool:
            raise IllegalAction("the stock is empty and there are no discards to reshuffle")
        for other in self.discards:
            if other != seat or self.rules.reshuffle_own:
                self.discards[other] = []
        order = self._shuffle(pool)
        self.stock = Deck(order, self.stock.kind)
        self.emit(Reshuffled(count=len(order)))
        self.emit(Shuffled(deck=card_codes(order), audience=()))

    def _next_drawer(self) -> None:
        self.draw_order.pop(0)
        if self.draw_order:
            return
        everyone_pat = len(self.stood_pat) == len(self.drawn)
        self.draws_done += 1
        if self.rules.all_for_one and everyone_pat and self.rules.pat_round_ends:
            self.stop_drawing = True
        if self.game == "low" or self.rules.later_bets_from is BetsFrom.DEALER_LEFT:
            first = self.seats[0]
        else:
            first = self.opener if self.opener is not None else self.seats[0]
        self._begin_betting(first)

    # -- the showdown -------------------------------------------------------------------------

    def _finish_showdown(self, uncontested: int | None = None) -> None:
        self.showdown = Showdown(self, uncontested)
        if self.showdown.waiting is None:
            self._settle()
        else:
            self.phase = Phase.DECLARING

    def _declare(self, seat: int, text: str) -> None:
        assert self.showdown is not None
        self.showdown.declare(seat, text)
        self.emit(acted(seat, text.strip().lower()))
        if self.showdown.waiting is None:
            self._settle()

    def _settle(self) -> None:
        assert self.showdown is not None
        won = self.showdown.settle()
        if self.table.chips_in(POT) == 0:
            self._end("won", won, self.showdown.reason)
        else:
            self._end("pot-stays", won, self.showdown.reason)

    def _end(self, result: str, won: dict[int, int], reason: str) -> None:
        self.phase, self.result, self.reason, self.won = Phase.OVER, result, reason, won
        self.over = True
        if not self.at_draw:
            self.at_draw = self.in_hand
        self.emit(DealEnded(result=result, won=tuple(sorted(won.items())), reason=reason))

    # -- deciding -------------------------------------------------------------------------------

    def pending(self) -> tuple[Decision, ...]:
        """The one decision to be made now (none once over)."""
        if self.phase is Phase.BETTING:
            assert self.betting is not None
            legal = self.betting.pending()
            if legal is None:
                return ()
            return (Decision.wager(legal, self.table.stack(legal.seat)),)
        if self.phase is Phase.DRAWING:
            return (self._draw_decision(self.draw_order[0]),)
        if self.phase is Phase.EXCHANGE:
            assert self.offer is not None
            prompt = f"take the face-up {self.offer[0]} or the face-down card"
            return (Decision.choose(self.draw_order[0], ("take up", "take down"), prompt),)
        if self.phase is Phase.DECLARING:
            assert self.showdown is not None
            return self.showdown.pending()
        return ()

    def act(self, seat: int, text: str) -> None:
        """Apply a legal action in its canonical spelling (see
        :meth:`guts.games.decision.Decision.canonical`)."""
        if self.phase is Phase.BETTING:
            assert self.betting is not None
            self.emit(acted(seat, text))
            self.betting.act(seat, betting_action(text))
            self._after_betting_step()
        elif self.phase is Phase.DRAWING:
            self._discard(seat, text)
        elif self.phase is Phase.EXCHANGE:
            self._exchange(seat, text)
        elif self.phase is Phase.DECLARING:
            self._declare(seat, text)
        else:
            raise IllegalAction("the deal is over")


def _pick(hand: Sequence[Card], codes: Sequence[str]) -> tuple[Card, ...]:
    """The cards of ``hand`` that ``codes`` name, in hand order (two jokers share a code)."""
    if len(set(codes)) == len(codes) and "Jk" not in codes:  # each card once: no counting
        chosen = set(codes)
        return tuple(card for card in hand if card.ascii in chosen)
    wanted = Counter(codes)
    picked = []
    for card in hand:
        if wanted[card.ascii]:
            wanted[card.ascii] -= 1
            picked.append(card)
    return tuple(picked)
