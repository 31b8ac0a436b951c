"""One betting round as a state machine.

The round's bets lie in a hold, :data:`BETS`, while it lasts; when no one is left to act,
an uncalled bet goes back to its bettor and the rest moves to the pot, so after the round
``table.chips_in(BETS) == 0``. Every chip movement is a ledger transfer.

>>> from guts.table import Table
>>> table = Table(["Ann", "Bob", "Cy"], buy_in=100)
>>> paid = post_antes(table, table.turn_order(), 1)
>>> betting = BettingRound(table, table.turn_order(), Structure.fixed(10), prior=paid)
>>> str(betting.pending())
'fold, check, bet 10'
>>> betting.act(1, Bet(10)); betting.act(2, Raise(20)); betting.act(0, Fold())
>>> betting.act(1, Call())
>>> betting.is_over, table.pot, betting.opener, betting.last_aggressor, betting.totals
(True, 43, 1, 2, {1: 21, 2: 21, 0: 1})
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from guts.betting.actions import Action, Bet, Call, Check, Fold, Legal, Raise
from guts.betting.structure import Blinds, Limit, Stakes, Structure
from guts.errors import IllegalAction, OptionError
from guts.table import POT, Place, Reason, SeatError, Table

__all__ = ["BETS", "BettingRound", "clockwise_from", "post_antes"]

BETS = Place("bets")
"""The hold for the chips bet in the round under way."""


def post_antes(
    table: Table, seats: Iterable[int], ante: int, *, pot: Place = POT
) -> dict[int, int]:
    """Each of ``seats`` puts ``ante`` into ``pot`` (a short stack puts in all it has).

    Returns what each paid, to pass on as a round's ``prior`` contributions.
    """
    return table.pay_each(seats, pot, ante, Reason.ANTE)


def clockwise_from(table: Table, first: int) -> tuple[int, ...]:
    """Every seat clockwise starting with ``first`` (for "begun by the player who opened")."""
    return tuple(table.left_of(first, k) for k in range(len(table.names)))


class BettingRound:
    """One round of betting among ``order`` (the seats in acting order).

    - ``structure`` and ``round_index`` (0 for the first round) give the sizes;
      ``min_bet`` overrides the round's bet or minimum bet;
    - ``blinds``: posted by the first seats of ``order`` still in the hand; betting then
      starts after the largest blind, who has the option (check or raise) when called round;
      the big blind counts as the opening bet and each straddle as a raise;
    - ``folded``: seats out of the hand from earlier rounds (skipped); a seat in the hand
      with no chips is all-in and skipped too;
    - ``prior``: what each seat put in the pot earlier in the deal (antes, earlier rounds),
      so that :attr:`totals` feeds :func:`~guts.betting.pots.side_pots`;
    - ``openers``: the seats allowed to make the first bet (None: everyone), for games
      such as Jacks or Better.

    Rules this round applies (where customs differ, the choice is stated here):

    - Table stakes: a seat bets at most its stack; a seat with no chips is all-in and is
      skipped (a negative stack at a credit table counts as none). A seat short of the
      call may call all-in for less; the side pots come from :attr:`totals`.
    - Folding is always allowed on one's turn, even when checking costs nothing.
    - Blinds are live bets: they count toward the call, and the largest blind, if called
      round, may still check or raise. For the raise cap the big blind is the opening bet
      and each straddle a raise; the big blind's seat is the :attr:`opener`.
    - A full bet or raise is one that lifts the bet, counted from the last full level, by
      at least the minimum raise: the round's bet (or the largest blind, except in fixed
      limit) to start with, then the largest single full raise so far (no limit, pot and
      spread limit). The smallest raise is to the current bet plus the minimum raise; in
      fixed limit the raise goes to the last full level plus one bet, so the next raiser
      "completes" a short all-in raise. Spread limit allows at most ``max_bet`` more than
      the current bet; pot limit at most the pot after calling.
    - Only full bets and raises count toward ``raise_cap`` ("a bet and four raises").
      Heads-up means two seats left in the hand (all-in seats count).
    - A short all-in does not reopen the betting: a seat that has acted may raise again
      only if the bet has risen since by at least the minimum raise (several short
      all-ins may add up to that); otherwise it may only call or fold.
    - No one may bet or raise when no other seat in the hand could answer it: every other
      seat is all-in or could not even cover the current bet (the uncalled part would only
      come back).
    - Without check-raise, a seat that checked may later call or fold but not raise.
    - When the round ends, the part of the largest bet no one matched goes back to its
      bettor (``uncalled`` event); the rest moves from the hold to the pot.
    """

    # slots: more attributes than Python 3.11 keeps in an instance's shared keys (30)
    __slots__ = (
        "__weakref__",
        "_actions",
        "_aggressor",
        "_bets",
        "_changes",
        "_checked",
        "_current",
        "_events",
        "_faced",
        "_folded",
        "_full_level",
        "_hold",
        "_in_hand",
        "_legal_changes",
        "_legal_kept",
        "_legal_seat",
        "_legal_size",
        "_live",
        "_made",
        "_min_raise",
        "_opener",
        "_openers",
        "_order",
        "_over",
        "_pot",
        "_prior",
        "_rotations",
        "_stakes",
        "_structure",
        "_table",
        "_turn",
    )

    def __init__(
        self,
        table: Table,
        order: Sequence[int],
        structure: Structure,
        *,
        round_index: int = 0,
        min_bet: int | None = None,
        blinds: Blinds | None = None,
        folded: Collection[int] = (),
        prior: Mapping[int, int] | None = None,
        openers: Collection[int] | None = None,
        pot: Place = POT,
        hold: Place = BETS,
    ) -> None:
        self._table, self._structure = table, structure
        self._order = _check_order(table, order)
        self._rotations = _rotations(self._order)
        self._stakes: Stakes = structure.stakes(round_index, min_bet=min_bet)
        if table.chips_in(hold):
            raise OptionError(f"the {hold} hold must be empty when a betting round starts")
        self._pot, self._hold = pot, hold
        self._folded = set(folded)
        self._prior = dict(prior or {})
        self._openers = None if openers is None else frozenset(openers)
        self._bets = dict.fromkeys(self._order, 0)
        self._faced: dict[int, int | None] = dict.fromkeys(self._order)
        self._checked: set[int] = set()
        self._current = self._full_level = self._made = 0
        self._min_raise = self._stakes.bet
        self._opener: int | None = None
        self._aggressor: int | None = None
        self._events: list[dict[str, Any] | tuple[Any, ...]] = []  # an action's: its values
        self._actions: list[tuple[int, Action]] = []
        self._over = False
        self._in_hand: tuple[int, ...] | None = None  # in_hand, until the next fold
        self._live = len(self.in_hand)  # len(in_hand), kept as seats fold
        self._changes = 0  # bumped by every change of the round's own state
        self._legal_kept: Legal | None = None  # what _legal worked out last, for whom, when
        self._legal_seat, self._legal_changes, self._legal_size = -1, -1, -1
        start = self._post_blinds(blinds) if blinds else 0
        self._turn = self._next_from(start)
        if self._turn is None:
            self._finish()

    # -- what the round looks like ---------------------------------------------------------

    @property
    def table(self) -> Table:
        """The table the chips move on."""
        return self._table

    @property
    def stakes(self) -> Stakes:
        """This round's bet (or minimum bet) and spread maximum."""
        return self._stakes

    @property
    def is_over(self) -> bool:
        """True when no one is left to act (the bets are then in the pot)."""
        return self._over

    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is (None once the round is over)."""
        return self._turn

    @property
    def current_bet(self) -> int:
        """The bet to match in this round; when over, the round's final bet."""
        return self._current

    @property
    def raises(self) -> int:
        """Full bets and raises so far that count toward the cap (the opening bet is 1)."""
        return self._made

    @property
    def opener(self) -> int | None:
        """Who opened: the first to bet, or the big blind; None if no one has."""
        return self._opener

    @property
    def last_aggressor(self) -> int | None:
        """The last seat to bet or raise (a blind counts); None if everyone checked."""
        return self._aggressor

    @property
    def bets(self) -> dict[int, int]:
        """What each seat has put in during this round (uncalled chips back, once over)."""
        return dict(self._bets)

    @property
    def totals(self) -> dict[int, int]:
        """What each seat has put in during the deal: ``prior`` plus this round."""
        totals = dict(self._prior)
        for seat, chips in self._bets.items():
            totals[seat] = totals.get(seat, 0) + chips
        return totals

    @property
    def folded(self) -> frozenset[int]:
        """Seats out of the hand, from earlier rounds and this one."""
        return frozenset(self._folded)

    @property
    def in_hand(self) -> tuple[int, ...]:
        """Seats of ``order`` still in the hand, in acting order."""
        live = self._in_hand
        if live is None:
            folded = self._folded
            live = self._in_hand = tuple(seat for seat in self._order if seat not in folded)
        return live

    @property
    def all_in(self) -> frozenset[int]:
        """Seats still in the hand with no chips left."""
        return frozenset(seat for seat in self.in_hand if self._stack(seat) == 0)

    @property
    def winner(self) -> int | None:
        """The one seat left when everyone else has folded, else None."""
        left = self.in_hand
        return left[0] if len(left) == 1 else None

    @property
    def pot_size(self) -> int:
        """The chips in the pot plus every bet of this round."""
        return self._table.chips_in(self._pot) + sum(self._bets.values())

    @property
    def events(self) -> tuple[dict[str, Any], ...]:
        """Everything that happened in the round, as JSON-able dicts."""
        return tuple(
            dict(event) if type(event) is dict else dict(zip(_ACTION_EVENT, event, strict=False))
            for event in self._events
        )

    @property
    def actions(self) -> tuple[tuple[int, Action], ...]:
        """The seats' actions in order (enough to replay the round)."""
        return tuple(self._actions)

    # -- deciding -------------------------------------------------------------------------

    def pending(self) -> Legal | None:
        """What the seat to act may do; None once the round is over."""
        turn = self._turn
        return None if turn is None else self._legal(turn)

    def can_act(self, seat: int, action: Action) -> bool:
        """True if ``seat`` may take ``action`` now."""
        return self._problem(seat, action) is None

    def act(self, seat: int, action: Action) -> None:
        """Apply ``seat``'s ``action``; an illegal one raises IllegalAction, changing nothing."""
        usual = (  # the seat to act taking an action its Legal allows: nothing else to check
            type(seat) is int
            and seat == self._turn
            and type(action) in _ACTION_TYPES
            and self._legal(seat).allows(action)
        )
        if not usual:
            problem = self._problem(seat, action)
            if problem is not None:
                raise IllegalAction(problem)
        self._changes += 1
        self._apply(seat, action)
        self._actions.append((seat, action))
        self._turn = self._next_from(self._order.index(seat) + 1)
        if self._turn is None:
            self._finish()
        self._changes += 1

    # -- rules ----------------------------------------------------------------------------

    def _who(self, seat: int) -> str:
        return f"seat {seat} ({self._table.names[seat]})"

    def _stack(self, seat: int) -> int:
        stack = self._table.stack(seat)
        return stack if stack > 0 else 0

    def _others_can_act(self, seat: int, stacks: list[int]) -> bool:
        """True if a seat other than ``seat`` is in the hand with chips behind (``stacks``:
        the table's)."""
        folded = self._folded
        for other in self._order:
            if other != seat and other not in folded and stacks[other] > 0:
                return True
        return False

    def _next_from(self, index: int) -> int | None:
        """The first seat from ``index`` in ``order`` on (wrapping) that needs to act: one
        in the hand with chips behind that owes a call, or has not yet acted on the current
        bet while another seat could still act; None if none does or fewer than two are
        in the hand."""
        if self._live < 2:  # fewer than two in the hand
            return None
        folded, stacks = self._folded, self._table.stacks
        bets, current, faced = self._bets, self._current, self._faced
        for seat in self._rotations[index]:  # order from index on, then from its start
            if seat in folded or stacks[seat] <= 0:
                continue
            if bets[seat] < current or (faced[seat] is None and self._others_can_act(seat, stacks)):
                return seat
        return None

    def _no_raise_why(self, seat: int) -> str | None:
        """Why ``seat`` may not bet or raise now, or None if it may."""
        current = self._current
        owe = current - self._bets[seat]
        if self._stack(seat) <= owe:
            return "it has no chips beyond the call"
        stacks, folded, bets = self._table.stacks, self._folded, self._bets
        for other in self._order:  # another seat in the hand that could put in more
            if other != seat and other not in folded:
                chips = stacks[other]
                if bets[other] + (chips if chips > 0 else 0) > current:
                    break
        else:
            return "no one else could call more than the bet"
        if current == 0 and self._openers is not None and seat not in self._openers:
            return f"{self._who(seat)} may not open"
        structure = self._structure
        cap = structure.raise_cap
        capped = cap is not None and self._made >= 1 + cap  # (heads-up too, unless not)
        if capped and (structure.cap_heads_up or self._live != 2):
            return f"the betting is capped at a bet and {cap} raises"
        if not structure.check_raise and seat in self._checked:
            return "check-raise is not allowed"
        faced = self._faced[seat]
        if faced is not None and current - faced < self._min_raise:
            return "the betting was not reopened by a full raise"
        return None

    def _range(self, seat: int) -> tuple[int, int]:
        """The least and most the seat's bet or raise may make its bet in this round."""
        stakes, kind = self._stakes, self._structure.kind
        owe = self._current - self._bets[seat]
        all_in = self._bets[seat] + self._stack(seat)
        if self._current == 0:
            low = stakes.bet
            if kind is Limit.FIXED:
                high = low
            elif kind is Limit.SPREAD:
                high = stakes.max_bet or low
            elif kind is Limit.POT:
                high = max(self.pot_size, low)
            else:
                high = {Limit.NO_LIMIT: all_in}[kind]  # a KeyError for any other kind
        elif kind is Limit.FIXED:
            low = high = self._full_level + stakes.bet
        elif kind is Limit.SPREAD:
            assert stakes.max_bet is not None
            low = self._current + min(self._min_raise, stakes.max_bet)
            high = self._current + stakes.max_bet
        else:
            low = self._current + self._min_raise
            high = all_in if kind is Limit.NO_LIMIT else self._current + self.pot_size + owe
            high = max(high, low)
        return min(low, all_in), min(high, all_in)

    def _legal(self, seat: int) -> Legal:
        """What ``seat`` may do now: kept until the round or the table changes (a Legal is
        immutable), since a turn asks for it several times."""
        kept = self._legal_kept
        size = self._table.ledger_size
        if (
            kept is not None
            and seat == self._legal_seat
            and self._changes == self._legal_changes
            and size == self._legal_size
        ):
            return kept
        legal = self._legal_kept = self._work_out_legal(seat)
        self._legal_seat, self._legal_changes, self._legal_size = seat, self._changes, size
        return legal

    def _work_out_legal(self, seat: int) -> Legal:
        current = self._current
        owe = current - self._bets[seat]
        call = max(min(owe, self._table.stack(seat)), 0)  # what a call puts in
        if self._no_raise_why(seat) is not None:
            key: tuple[Any, ...] = (seat, True, owe <= 0, call, None, None, None, None)
        else:
            low, high = self._range(seat)
            if current == 0:
                key = (seat, True, True, 0, low, high, None, None)
            else:
                key = (seat, True, owe <= 0, call, None, None, low, high)
        return _legal(*key)

    def _problem(self, seat: int, action: Action) -> str | None:
        """Why ``seat`` may not take ``action`` now, or None if it may."""
        if not isinstance(action, _ACTIONS):
            return f"{action!r} is not a betting action"
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in self._bets:
            return f"seat {seat!r} is not in this betting round (seats {list(self._order)})"
        if self._turn is None:
            return f"{self._who(seat)} cannot {action}: the betting round is over"
        if seat != self._turn:
            turn = self._turn
            return (f"{self._who(seat)} cannot {action}: it is {self._who(turn)}'s turn "
                    f"(who may {self._legal(turn)})")  # fmt: skip
        legal = self._legal(seat)
        if legal.allows(action):
            return None
        return f"{self._who(seat)} cannot {action}: {self._detail(legal, action)}; legal: {legal}"

    def _detail(self, legal: Legal, action: Action) -> str:
        owe = self._current - self._bets[legal.seat]
        if isinstance(action, Check):
            return f"there is a bet of {owe} to call"
        if isinstance(action, Call):
            return "there is nothing to call"
        if isinstance(action, Bet) and self._current:
            return f"there is already a bet of {self._current}; raise instead"
        if isinstance(action, Raise) and not self._current:
            return "there is no bet to raise; bet instead"
        why = self._no_raise_why(legal.seat)
        if why is not None:
            return why
        low, high = self._range(legal.seat)
        amount = action.amount if isinstance(action, Bet) else action.to  # type: ignore[union-attr]
        word = "bet" if isinstance(action, Bet) else "raise is to"
        if amount < low:
            return f"the smallest {word} {low}"
        return f"the largest {word} {high}"

    # -- changing the state ---------------------------------------------------------------

    def _post_blinds(self, blinds: Blinds) -> int:
        """Post the blinds; return the index in ``order`` where the betting starts."""
        amounts = blinds.amounts
        posters = list(self.in_hand[: len(amounts)])
        if len(posters) < len(amounts):
            raise OptionError(f"{len(amounts)} blinds need as many players; "
                              f"{len(posters)} are in the hand")  # fmt: skip
        names = (["small"] if blinds.small is not None else []) + ["big"]
        names += ["straddle"] * blinds.straddles
        for seat, amount, name in zip(posters, amounts, names, strict=True):
            paid = self._table.pay(seat, self._hold, amount, Reason.BLIND, f"{name} blind")
            self._bets[seat] = paid
            self._events.append({"event": "blind", "seat": seat, "blind": name,
                                 "amount": amount, "paid": paid})  # fmt: skip
        self._current = self._full_level = blinds.largest
        if self._structure.kind is not Limit.FIXED:
            self._min_raise = max(self._min_raise, blinds.largest)
        self._made = 1 + blinds.straddles
        self._opener = posters[len(amounts) - blinds.straddles - 1]
        self._aggressor = posters[-1]
        return self._order.index(posters[-1]) + 1

    def _apply(self, seat: int, action: Action) -> None:
        word = _EVENT_WORDS.get(type(action)) or str(action).split()[0]
        # the action's event, as the values of its dict (see events): event, seat, then
        # for chips put in chips and all_in, and for a raise to
        event: tuple[Any, ...]
        kind = _KIND_OF.get(type(action)) or next(k for k in _ACTIONS if isinstance(action, k))
        if kind is Fold:
            self._folded.add(seat)
            self._in_hand = None
            self._live -= 1
            event = (word, seat)
        elif kind is Check:
            self._checked.add(seat)
            event = (word, seat)
        elif kind is Call:
            chips = min(self._current - self._bets[seat], self._stack(seat))
            event = (word, seat, chips, self._put_in(seat, chips, Reason.CALL))
        else:
            to = action.amount if isinstance(action, Bet) else action.to  # type: ignore[union-attr]
            reason = Reason.BET if kind is Bet else Reason.RAISE
            chips = to - self._bets[seat]
            event = (word, seat, chips, self._put_in(seat, chips, reason))
            if kind is Raise:
                event += (to,)
            self._raise_to(seat, to)
        self._faced[seat] = self._current
        self._events.append(event)

    def _put_in(self, seat: int, chips: int, reason: Reason) -> bool:
        """``seat`` puts ``chips`` into the hold; return whether it is all in now."""
        self._table.pay(seat, self._hold, chips, reason)
        self._bets[seat] += chips
        return self._table.stack(seat) <= 0

    def _raise_to(self, seat: int, to: int) -> None:
        if to - self._full_level >= self._min_raise:  # a full bet or raise
            if self._structure.kind is not Limit.FIXED:
                self._min_raise = max(self._min_raise, to - self._current)
            self._full_level = to
            self._made += 1
        self._current = to
        if self._opener is None:
            self._opener = seat
        self._aggressor = seat

    def _finish(self) -> None:
        top = max(self._bets.values(), default=0)
        leaders = [seat for seat, chips in self._bets.items() if chips == top]
        if top and len(leaders) == 1:
            seat = leaders[0]
            second = max((c for s, c in self._bets.items() if s != seat), default=0)
            self._table.collect(self._hold, seat, top - second, Reason.REFUND, "uncalled bet")
            self._bets[seat] = second
            self._events.append({"event": "uncalled", "seat": seat, "chips": top - second})
        self._table.move(self._hold, self._pot, sum(self._bets.values()), Reason.RELEASE)
        self._over = True
        end = {"event": "end", "pot": self._table.chips_in(self._pot)}
        self._events.append(end | {"opener": self._opener, "last_aggressor": self._aggressor})


_ACTION_EVENT = ("event", "seat", "chips", "all_in", "to")
"""The keys of an action's event, in order (a fold or check has the first two, a call or
bet the first four)."""
_ACTIONS = (Fold, Check, Call, Bet, Raise)
_ACTION_TYPES = frozenset(_ACTIONS)
_KIND_OF: dict[type, type] = {kind: kind for kind in _ACTIONS}
"""Each kind of action by its exact type (a subclass is found by isinstance)."""
_EVENT_WORDS: dict[type, str] = {Fold: "fold", Check: "check", Call: "call", Bet: "bet",
                                  Raise: "raise"}  # fmt: skip
"""The first word of each action's text, the kind of its event."""

@lru_cache(maxsize=1 << 12)
def _legal(
    seat: int,
    can_fold: bool,
    can_check: bool,
    call_amount: int,
    min_bet: int | None,
    max_bet: int | None,
    min_raise_to: int | None,
    max_raise_to: int | None,
) -> Legal:
    """``Legal(...)`` of these fields, the same object for the same fields (it is
    immutable, so one object serves every equal one)."""
    return Legal(seat, can_fold, can_check, call_amount, min_bet, max_bet, min_raise_to,
                 max_raise_to)  # fmt: skip


def _check_order(table: Table, order: Sequence[int]) -> tuple[int, ...]:
    """``order`` as a tuple, once checked to be distinct seats of ``table``."""
    seats = tuple(order)
    if _JUST_INT.issuperset(map(type, seats)):  # (no bool may pass for a seat kept)
        return _checked_order(len(table.names), seats)
    return _order_of(len(table.names), seats)


def _order_of(count: int, seats: tuple[int, ...]) -> tuple[int, ...]:
    """``seats``, if they are distinct seats of a table of ``count``; else SeatError."""
    if not seats or len(set(seats)) != len(seats):
        raise SeatError(f"a betting round needs distinct seats in acting order, not {seats}")
    for seat in seats:
        a_seat = type(seat) is int or (isinstance(seat, int) and not isinstance(seat, bool))
        if not a_seat or not 0 <= seat < count:
            raise SeatError(f"no seat {seat!r}: seats are 0 to {count - 1}")
    return seats


_JUST_INT = frozenset({int})
_checked_order = lru_cache(maxsize=1 << 10)(_order_of)
"""The orders of plain ints :func:`_order_of` passed, by the table's number of seats (a
round is opened with the same few orders again and again)."""


@lru_cache(maxsize=1 << 10)
def _rotations(order: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """``order`` from each index on, round to the index before it (and from ``len(order)``
    on, which is from 0): the order in which a round looks for the next seat to act."""
    return (*(order[i:] + order[:i] for i in range(len(order))), order)
