"""Seats, the dealer button, the pot, the reserve, and the ledger of chip transfers.

Every game family keeps its chips on a :class:`Table`. Chips are held by *parties*: a seat
(its ``int`` index) or a :class:`Place`: the :data:`POT`, the :data:`RESERVE`, or any named
hold such as ``Place("side-pot")`` or ``Place("aside")``. Chips come onto the table and leave
it only through the :data:`BANK`, by buy-ins and cash-outs. Every movement is a frozen
:class:`Transfer` appended to the ledger, so at every moment

    stacks + chips in every place == total bought in (buy-ins minus cash-outs)

and :meth:`Table.from_ledger` rebuilds a table exactly by replaying its transfers.

>>> table = Table(["Ann", "Bob", "Cy"], buy_in=100)
>>> table.pay_each(table.turn_order(), POT, 5, Reason.ANTE)
{1: 5, 2: 5, 0: 5}
>>> table.collect(POT, 2), table.stack(2), table.pot
(15, 110, 0)
>>> table.check_invariant()
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import FrozenInstanceError, dataclass
from enum import StrEnum
from functools import cache, lru_cache
from typing import ClassVar, TypeAlias

from guts.errors import GutsError, OptionError

__all__ = [
    "BANK",
    "EXACT_SETTLEMENT_UP_TO",
    "POT",
    "RESERVE",
    "ChipError",
    "LedgerError",
    "OddChipRule",
    "Party",
    "Place",
    "Reason",
    "Seat",
    "SeatError",
    "Settlement",
    "Table",
    "TableError",
    "Transfer",
    "capped",
    "settling_payments",
]


class TableError(GutsError):
    """A chip movement or table setup that the table refuses; the state is left untouched."""


class SeatError(TableError):
    """A seat index that is not at this table, or a bad seat name."""


class ChipError(TableError):
    """A bad amount: negative, not an integer, or more than a place (or stack) holds."""


class LedgerError(TableError):
    """A serialized ledger or snapshot that is malformed or does not replay."""


class Reason(StrEnum):
    """Why chips moved; the value is the word written in hand histories."""

    BUY_IN = "buy-in"  # bank -> seat
    CASH_OUT = "cash-out"  # seat -> bank
    ANTE = "ante"
    BLIND = "blind"
    BET = "bet"
    CALL = "call"
    RAISE = "raise"
    MATCH = "match"  # a loser matches the pot
    DOUBLE = "double"  # a single loser doubles the pot
    PAY_WINNER = "pay-winner"  # a loser pays a winner directly (Three Five Seven)
    BOURRE = "bourre"  # a player who took no trick matches the pot
    PENALTY = "penalty"  # a renege or other misplay
    PASS = "pass"  # a player who passes puts chips in (a pass's price, not a fine)
    CARDS_LEFT = "cards-left"  # a loser pays for each card still held when another goes out
    WIN = "win"
    SPLIT = "split"
    REFUND = "refund"
    TO_RESERVE = "to-reserve"
    FROM_RESERVE = "from-reserve"
    SET_ASIDE = "set-aside"  # into a named hold (side pot, kept-apart chips)
    RELEASE = "release"  # out of a named hold


class OddChipRule(StrEnum):
    """Who gets the chips left over when a split does not divide evenly.

    The default, :attr:`NEAREST_LEFT`, empties what is split, as the rules require when
    "the pot will also be emptied if there is a tie between all the players who stay in".
    """

    NEAREST_LEFT = "nearest-left"
    """One odd chip each to the winners nearest the dealer's left, going clockwise."""
    FIRST_LISTED = "first-listed"
    """One odd chip each to the winners in the order the game lists them (say, best first)."""
    LEAVE_IN_POT = "leave-in-pot"
    """The odd chips stay in the place being split (the pot, for the next deal)."""

    @classmethod
    def parse(cls, text: str) -> OddChipRule:
        """The rule named ``text``; an unknown name raises OptionError naming the choices."""
        if type(text) is cls:
            return text  # a rule is its own name
        try:
            return cls(text.strip().lower())
        except ValueError:
            allowed = ", ".join(rule.value for rule in cls)
            raise OptionError(f"odd-chips: unknown value {text!r}; allowed: {allowed}") from None


class Place:
    """Somewhere chips lie that is not a seat: the pot, the reserve, the bank, or a hold.

    A place is an interned value: ``Place("pot") is POT``, so places compare and hash by
    identity, as fast as seats. Immutable.
    """

    __slots__ = ("name",)
    name: str
    _interned: ClassVar[dict[str, Place]] = {}

    def __new__(cls, name: str) -> Place:
        place = cls._interned.get(name) if type(name) is str else None
        if place is None:
            if not isinstance(name, str) or not name or name != name.strip():
                raise TableError(f"a place needs a non-blank name without outer spaces: {name!r}")
            place = super().__new__(cls)
            object.__setattr__(place, "name", name)
            place = cls._interned.setdefault(name, place)
        return place

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[type[Place], tuple[str]]:
        return (Place, (self.name,))

    def __repr__(self) -> str:
        return f"Place(name={self.name!r})"

    def __str__(self) -> str:
        return self.name


POT = Place("pot")
"""The pot the current deal is played for."""
RESERVE = Place("reserve")
"""Chips set aside above the pot limit, brought back when a pot is won."""
BANK = Place("bank")
"""Outside the table: the source of buy-ins and the destination of cash-outs."""

Party: TypeAlias = int | Place
"""Who holds chips: a seat index or a place."""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_amount(amount: object, what: str = "amount") -> int:
    if type(amount) is int and amount >= 0:
        return amount
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise ChipError(f"{what} must be a whole number of chips, not {amount!r}")
    if amount < 0:
        raise ChipError(f"{what} cannot be negative: {amount}")
    return amount


def _check_reason(reason: object, note: object = "") -> None:
    if not isinstance(reason, Reason):
        raise TableError(f"reason must be a Reason, not {reason!r}")
    if not isinstance(note, str):
        raise TableError(f"note must be a string, not {note!r}")


def capped(amount: int, cap: int | None) -> int:
    """What a payment of ``amount`` comes to under a maximum loss ``cap`` (None: no cap).

    For "a maximum amount that can be won from or lost to the pot in a single deal":

    >>> capped(80, 50), capped(30, 50), capped(80, None)
    (50, 30, 80)
    """
    _check_amount(amount)
    return amount if cap is None else min(amount, _check_amount(cap, "cap"))


@dataclass(frozen=True, slots=True)
class Transfer:
    """One movement of chips, as written in the ledger.

    ``amount`` is what moved and is positive, except for a payment that fell wholly short:
    at table stakes a seat pays at most its stack, and ``shortfall`` records what it owed
    but could not pay (so a seat with no chips left that owes 80 writes amount 0,
    shortfall 80).
    """

    source: Party
    destination: Party
    amount: int
    reason: Reason
    note: str = ""
    shortfall: int = 0

    def __post_init__(self) -> None:
        for party in (self.source, self.destination):
            if not isinstance(party, Place) and not (_is_int(party) and party >= 0):
                raise TableError(f"a party is a seat index or a Place, not {party!r}")
        if self.source == self.destination:
            raise TableError(f"chips cannot move from {self.source} to itself")
        _check_amount(self.amount)
        _check_amount(self.shortfall, "shortfall")
        if self.amount + self.shortfall == 0:
            raise ChipError("a transfer moves at least one chip or records a shortfall")
        if self.shortfall and isinstance(self.source, Place):
            raise ChipError("only a seat can fall short of a payment")
        _check_reason(self.reason, self.note)

    def to_dict(self) -> dict[str, object]:
        """A JSON-able dict: seats as ints, places by name; note and shortfall when set."""
        data: dict[str, object] = {
            "source": _party_to_json(self.source),
            "destination": _party_to_json(self.destination),
            "amount": self.amount,
            "reason": self.reason.value,
        }
        if self.note:
            data["note"] = self.note
        if self.shortfall:
            data["shortfall"] = self.shortfall
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Transfer:
        """The transfer :meth:`to_dict` wrote; anything malformed raises LedgerError."""
        try:
            reason = Reason(str(data["reason"]))
            return cls(
                _party_from_json(data["source"]),
                _party_from_json(data["destination"]),
                data["amount"],  # type: ignore[arg-type]  # checked in __post_init__
                reason,
                data.get("note", ""),  # type: ignore[arg-type]
                data.get("shortfall", 0),  # type: ignore[arg-type]
            )
        except (KeyError, ValueError, TypeError, AttributeError) as error:
            raise LedgerError(f"bad transfer {data!r}: {error}") from None


def _party_to_json(party: Party) -> int | str:
    return party.name if isinstance(party, Place) else party


def _party_from_json(value: object) -> Party:
    if isinstance(value, str):
        return Place(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise LedgerError(f"a party is a seat index or a place name, not {value!r}")


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat as it stands now: its index, its player's name, and the chips in front of it."""

    index: int
    name: str
    stack: int


@dataclass(frozen=True, slots=True)
class Settlement:
    """The end of a session: each player's net result and who pays whom to square it.

    ``net`` maps each name to chips won (positive) or lost (negative): stack plus cash-outs
    minus buy-ins. ``payments`` are ``(payer, payee, amount)`` triples between players that
    square every net, the home-game way where buy-ins were chips handed out, not paid for.
    """

    net: Mapping[str, int]
    payments: tuple[tuple[str, str, int], ...]


class Table:
    """Seats with stacks, the dealer button, the pot, the reserve, holds, and the ledger.

    ``players`` lists the seats clockwise; each entry is a name (bought in for ``buy_in``)
    or a ``(name, chips)`` pair. ``button`` is the dealer's seat; "left" is the next seat
    index, wrapping round.

    Paying more than a stack follows ``credit``:

    - table stakes (``credit=False``, the default): a seat never pays more than its stack,
      which never goes negative. A payment larger than the stack pays the whole stack;
      the transfer records the unpaid rest as its ``shortfall`` and :meth:`pay` returns
      what was actually paid, so the game can apply its own rule to the short seat;
    - credit (``credit=True``, the usual home-game way): the seat pays in full and its
      stack may go negative; the debt is squared at the end by :meth:`settlement`.

    Every method that moves chips validates everything first and records one transfer per
    movement; on an error it raises a :class:`TableError` and changes nothing. Paying or
    taking zero chips does nothing and records nothing.
    """

    def __init__(
        self,
        players: Sequence[str | tuple[str, int]],
        *,
        buy_in: int = 0,
        credit: bool = False,
        odd_chips: OddChipRule | str = OddChipRule.NEAREST_LEFT,
        button: int = 0,
    ) -> None:
        entries = [_seat_entry(player, buy_in) for player in players]
        names = tuple(name for name, _ in entries)
        _check_names(names)
        self._names = names
        self._credit = bool(credit)
        self._odd_chips = OddChipRule.parse(odd_chips)
        self._places: dict[Place, int] = {}
        self._button = self._seat(button)
        self._stacks = [0] * len(names)
        self._bought = [0] * len(names)  # per seat: buy-ins minus cash-outs
        self._ledger: list[Transfer] = []
        for seat, (_, amount) in enumerate(entries):
            if amount:
                self._apply(_transfer(BANK, seat, amount, Reason.BUY_IN, "", 0))

    # -- seats and the button -------------------------------------------------------------

    @property
    def seats(self) -> tuple[Seat, ...]:
        """Every seat, clockwise from seat 0."""
        return tuple(Seat(i, name, self._stacks[i]) for i, name in enumerate(self._names))

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names, by seat index."""
        return self._names

    @property
    def stacks(self) -> list[int]:
        """Every seat's stack, by seat index (a new list: the stacks of :attr:`seats`
        without a record per seat)."""
        return self._stacks[:]

    @property
    def credit(self) -> bool:
        """True when stacks may go negative (see the class docstring)."""
        return self._credit

    @property
    def odd_chips(self) -> OddChipRule:
        """The table's rule for the odd chips of a split."""
        return self._odd_chips

    def stack(self, seat: int) -> int:
        """The chips in front of ``seat`` (negative only in a credit game)."""
        stacks = self._stacks
        if type(seat) is int and 0 <= seat < len(stacks):
            return stacks[seat]
        return stacks[self._seat(seat)]

    @property
    def button(self) -> int:
        """The dealer's seat."""
        return self._button

    def move_button(self) -> int:
        """Pass the deal to the left (the next seat index, wrapping); return the new dealer."""
        self._button = (self._button + 1) % len(self._names)  # left_of, the button a seat
        return self._button

    def left_of(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` places to the left (clockwise) of ``seat``."""
        return (self._seat(seat) + steps) % len(self._names)

    def turn_order(self) -> tuple[int, ...]:
        """Every seat from the dealer's left clockwise, ending with the dealer."""
        return _turn_orders(len(self._names))[self._button]

    # -- places -----------------------------------------------------------------------------

    def chips_in(self, place: Place) -> int:
        """The chips in ``place`` (zero for a hold never used)."""
        return self._places.get(self._place(place), 0)

    @property
    def pot(self) -> int:
        """The chips in the pot."""
        return self._places.get(POT, 0)

    @property
    def reserve(self) -> int:
        """The chips in the reserve."""
        return self._places.get(RESERVE, 0)

    @property
    def places(self) -> dict[Place, int]:
        """Every place that holds chips now, with its chips."""
        return {place: n for place, n in self._places.items() if n}

    # -- moving chips -------------------------------------------------------------------------

    def pay(self, seat: int, to: Party, amount: int, reason: Reason, note: str = "") -> int:
        """``seat`` pays ``amount`` to a place or another seat; return what it paid.

        At table stakes the payment is cut to the stack and the shortfall is recorded;
        ``amount - pay(...)`` is what the seat could not pay.
        """
        seat = self._seat(seat)
        to = self._party(to)  # a place on the table or a seat: chips leave only by cash_out
        if _check_amount(amount) == 0:
            return 0
        _check_movement(reason, note)
        stack = self._stacks[seat]
        paid = amount if self._credit or amount <= stack else stack
        self._move(seat, to, paid, reason, note, amount - paid)
        return paid

    def pay_each(
        self, seats: Iterable[int], to: Party, amount: int, reason: Reason, note: str = ""
    ) -> dict[int, int]:
        """Each of ``seats`` (distinct) pays ``amount`` to ``to``, as by :meth:`pay`.

        Returns what each paid; for antes, ``pay_each(table.turn_order(), POT, ante, ANTE)``.
        Everything is checked before the first seat pays.
        """
        order = [self._seat(seat) for seat in seats]
        if len(set(order)) != len(order) or to in order:
            raise SeatError(f"each seat pays once and not itself: {order} paying {to}")
        to = self._party(to)
        if _check_amount(amount) == 0:
            return dict.fromkeys(order, 0)
        _check_movement(reason, note)
        stacks, credit = self._stacks, self._credit
        paid_each = {}
        for seat in order:
            stack = stacks[seat]
            paid = amount if credit or amount <= stack else stack
            self._move(seat, to, paid, reason, note, amount - paid)
            paid_each[seat] = paid
        return paid_each

    def collect(
        self,
        place: Place,
        seat: int,
        amount: int | None = None,
        reason: Reason = Reason.WIN,
        note: str = "",
    ) -> int:
        """``seat`` takes ``amount`` (everything, if None) from ``place``; return the amount."""
        held = self.chips_in(place)
        seat = self._seat(seat)
        amount = held if amount is None else _check_amount(amount)
        if amount:
            _check_movement(reason, note)
            _check_held(place, held, amount)
            self._move(place, seat, amount, reason, note)
        return amount

    def move(
        self, source: Place, destination: Place, amount: int | None, reason: Reason, note: str = ""
    ) -> int:
        """Move ``amount`` (everything, if None) between two places; return the amount."""
        held = self.chips_in(source)
        self._place(destination)
        amount = held if amount is None else _check_amount(amount)
        if amount:
            _check_movement(reason, note)
            _check_held(source, held, amount)
            self._move(source, destination, amount, reason, note)
        return amount

    def split(
        self,
        place: Place,
        winners: Sequence[int],
        reason: Reason = Reason.SPLIT,
        *,
        amount: int | None = None,
        rule: OddChipRule | None = None,
        note: str = "",
    ) -> dict[int, int]:
        """Share ``amount`` (everything, if None) of ``place`` equally among ``winners``.

        The odd chips follow ``rule`` (the table's :attr:`odd_chips` if None). Returns each
        winner's share; a share of zero records nothing.

        >>> table = Table([("Ann", 0), ("Bob", 0), ("Cy", 0), ("Di", 10)], button=1)
        >>> _ = table.pay(3, POT, 10, Reason.ANTE)
        >>> table.split(POT, [0, 3, 1])   # Cy is dealer's left, then Di, Ann, Bob
        {3: 4, 0: 3, 1: 3}
        """
        rule = self._odd_chips if rule is None else OddChipRule.parse(rule)
        self._place(place)
        order = [self._seat(seat) for seat in winners]
        if not order or len(set(order)) != len(order):
            raise SeatError(f"a split needs distinct winners, not {list(winners)}")
        total = self.chips_in(place) if amount is None else _check_amount(amount)
        self._check_funds(place, total)
        _check_movement(reason, note)
        share, odd = divmod(total, len(order))
        if rule is OddChipRule.NEAREST_LEFT:
            order.sort(key=lambda seat: (seat - self._button - 1) % len(self._names))
        extra = 0 if rule is OddChipRule.LEAVE_IN_POT else odd
        shares = {seat: share + (1 if k < extra else 0) for k, seat in enumerate(order)}
        for seat, chips in shares.items():  # they add up to no more than the place holds
            if chips:
                self._move(place, seat, chips, reason, note)
        return shares

    def apply_pot_limit(self, limit: int, *, pot: Place = POT, reserve: Place = RESERVE) -> int:
        """Set the pot's chips above ``limit`` aside in ``reserve``; return how many moved.

        Call it after the losers pay: "if after the losers have paid, the amount in the pot
        exceeds the agreed limit, the excess chips are set aside in a reserve". With
        ``reserve=Place("aside")`` it is also Wikipedia's "cap the pot" rule.
        """
        excess = self.chips_in(pot) - _check_limit(limit)
        return self.move(pot, reserve, excess, Reason.TO_RESERVE) if excess > 0 else 0

    def refill_pot_from_reserve(
        self, limit: int, *, pot: Place = POT, reserve: Place = RESERVE
    ) -> int:
        """Top the pot up to ``limit`` from ``reserve``, as far as it goes; return how many.

        Call it when a pot has been won: "chips are brought out of the reserve to form a new
        pot".
        """
        wanted = _check_limit(limit) - self.chips_in(pot)
        amount = min(wanted, self.chips_in(reserve))
        return self.move(reserve, pot, amount, Reason.FROM_RESERVE) if amount > 0 else 0

    def buy_in(self, seat: int, amount: int, note: str = "") -> None:
        """``seat`` buys ``amount`` chips from the bank (a rebuy, in the middle of a session)."""
        self._seat(seat)
        if _check_amount(amount):
            self._record(Transfer(BANK, seat, amount, Reason.BUY_IN, note))

    def cash_out(self, seat: int, amount: int | None = None, note: str = "") -> int:
        """``seat`` returns ``amount`` chips (its whole stack, if None) to the bank.

        A seat in debt (negative stack, credit games) cashes out nothing; its debt stays in
        :meth:`net` and :meth:`settlement`.
        """
        stack = self._stacks[self._seat(seat)]
        amount = max(stack, 0) if amount is None else _check_amount(amount)
        if amount:
            self._record(Transfer(seat, BANK, amount, Reason.CASH_OUT, note))
        return amount

    # -- totals, settlement, checks -------------------------------------------------------------

    @property
    def total_bought_in(self) -> int:
        """All buy-ins minus all cash-outs: the chips that must be on the table."""
        return sum(self._bought)

    def net(self, seat: int) -> int:
        """What ``seat`` has won (positive) or lost so far: stack plus cash-outs minus buy-ins."""
        return self._stacks[self._seat(seat)] - self._bought[seat]

    def settlement(self) -> Settlement:
        """Each player's net result, and the fewest payments that square them
        (:func:`settling_payments`). Every place must be empty first: award what is left in
        the pot."""
        if self.places:
            left = ", ".join(f"{n} in the {place}" for place, n in self.places.items())
            raise TableError(f"chips are still on the table ({left}); award them first")
        net = {name: self.net(seat) for seat, name in enumerate(self._names)}
        return Settlement(net, settling_payments(net))

    def check_invariant(self) -> None:
        """Check that the ledger replays to this state and conserves chips; raise if not."""
        stacks, bought = [0] * len(self._names), [0] * len(self._names)
        places: dict[Place, int] = {}
        for t in self._ledger:
            for party, delta in ((t.source, -t.amount), (t.destination, t.amount)):
                if party == BANK:
                    continue
                if isinstance(party, Place):
                    places[party] = places.get(party, 0) + delta
                else:
                    stacks[party] += delta
            if t.source == BANK:
                bought[int(t.destination)] += t.amount  # type: ignore[arg-type]
            if t.destination == BANK:
                bought[int(t.source)] -= t.amount  # type: ignore[arg-type]
        problems = []
        if stacks != self._stacks or bought != self._bought:
            problems.append(f"stacks {self._stacks} but the ledger says {stacks}")
        if {p: n for p, n in places.items() if n} != self.places:
            problems.append(f"places {self.places} but the ledger says {places}")
        if sum(self._stacks) + sum(self._places.values()) != self.total_bought_in:
            problems.append("stacks and places do not add up to the chips bought in")
        if any(n < 0 for n in self._places.values()):
            problems.append(f"a place is negative: {self._places}")
        if not self._credit and any(n < 0 for n in self._stacks):
            problems.append(f"a stack is negative at table stakes: {self._stacks}")
        if problems:
            raise TableError("; ".join(problems))

    # -- records and replay -------------------------------------------------------------------

    @property
    def ledger(self) -> tuple[Transfer, ...]:
        """Every transfer so far, oldest first."""
        return tuple(self._ledger)

    @property
    def ledger_size(self) -> int:
        """How many transfers the ledger holds (``len(ledger)``, without copying it)."""
        return len(self._ledger)

    def ledger_since(self, start: int) -> tuple[Transfer, ...]:
        """The transfers from number ``start`` on (``ledger[start:]``, without copying
        the rest)."""
        return tuple(self._ledger[start:])

    def describe(self, transfer: Transfer) -> str:
        """A transfer in words: ``"Bob -> pot: 80 (match), 20 short"``."""

        def who(party: Party) -> str:
            return party.name if isinstance(party, Place) else self._names[party]

        short = f", {transfer.shortfall} short" if transfer.shortfall else ""
        return (f"{who(transfer.source)} -> {who(transfer.destination)}: "
                f"{transfer.amount} ({transfer.reason}){short}")  # fmt: skip

    def snapshot(self) -> dict[str, object]:
        """A JSON-able record: the setup and the ledger, plus the resulting stacks and places
        (which :meth:`from_snapshot` checks against the replay)."""
        return {
            "seats": list(self._names),
            "button": self._button,
            "credit": self._credit,
            "odd_chips": self._odd_chips.value,
            "ledger": [t.to_dict() for t in self._ledger],
            "stacks": list(self._stacks),
            "places": {place.name: n for place, n in self.places.items()},
        }

    @classmethod
    def from_snapshot(cls, data: Mapping[str, object]) -> Table:
        """The table a :meth:`snapshot` describes, rebuilt by replaying its ledger."""
        try:
            names, ledger = data["seats"], data["ledger"]
            if not isinstance(names, list) or not isinstance(ledger, list):
                raise TypeError("seats and ledger must be lists")
            transfers = [Transfer.from_dict(entry) for entry in ledger]
            credit, odd_chips = data.get("credit", False), data.get("odd_chips", "nearest-left")
            if not isinstance(credit, bool) or not isinstance(odd_chips, str):
                raise TypeError("credit must be true or false and odd_chips a rule name")
            table = cls.from_ledger(
                names,
                transfers,
                credit=credit,
                odd_chips=OddChipRule.parse(odd_chips),
                button=data.get("button", 0),  # type: ignore[arg-type]  # checked by Table
            )
        except LedgerError:
            raise
        except (KeyError, TypeError, ValueError) as error:  # TableError and OptionError too
            raise LedgerError(f"bad table snapshot: {error}") from None
        stacks, places = data.get("stacks"), data.get("places")
        if stacks is not None and stacks != table._stacks:
            raise LedgerError(f"snapshot stacks {stacks} but the ledger gives {table._stacks}")
        if places is not None and places != {p.name: n for p, n in table.places.items()}:
            raise LedgerError(f"snapshot places {places} but the ledger gives {table.places}")
        return table

    @classmethod
    def from_ledger(
        cls,
        names: Sequence[str],
        ledger: Iterable[Transfer],
        *,
        credit: bool = False,
        odd_chips: OddChipRule | str = OddChipRule.NEAREST_LEFT,
        button: int = 0,
    ) -> Table:
        """A table with these seats, rebuilt by replaying ``ledger`` (buy-ins included).

        Each transfer is checked as if it happened live; one that could not have happened
        raises LedgerError naming its position.
        """
        table = cls(list(names), credit=credit, odd_chips=odd_chips, button=button)
        for i, transfer in enumerate(ledger):
            try:
                table._record(transfer)
            except LedgerError:
                raise
            except TableError as error:
                raise LedgerError(f"transfer {i} does not replay: {error}") from None
        return table

    def __repr__(self) -> str:
        stacks = ", ".join(f"{s.name} {s.stack}" for s in self.seats)
        places = "".join(f", {p} {n}" for p, n in self.places.items())
        return f"<Table {stacks}{places}; button {self._names[self._button]}>"

    # -- internals ------------------------------------------------------------------------------

    def _seat(self, seat: object) -> int:
        if type(seat) is int and 0 <= seat < len(self._names):
            return seat
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self._names):
            raise SeatError(f"no seat {seat!r}: seats are 0 to {len(self._names) - 1}")
        return seat

    def _place(self, place: object) -> Place:
        if type(place) is Place and place is not BANK:
            return place
        if not isinstance(place, Place) or place == BANK:
            raise TableError(f"expected a place on the table (pot, reserve, a hold), not {place!r}")
        return place

    def _party(self, party: object) -> Party:
        return self._place(party) if isinstance(party, Place) else self._seat(party)

    def _move(
        self,
        source: Party,
        destination: Party,
        amount: int,
        reason: Reason,
        note: str = "",
        shortfall: int = 0,
    ) -> None:
        """Record one movement on the table (not to or from the bank) that the caller has
        checked: parties of this table, funds, amounts, reason and note (see
        :func:`_check_movement`)."""
        self._apply(_transfer(source, destination, amount, reason, note, shortfall))

    def _check_funds(self, source: Party, amount: int) -> None:
        if isinstance(source, Place):
            _check_held(source, self._places.get(self._place(source), 0), amount)

    def _record(self, t: Transfer) -> None:
        """Validate ``t`` against the state, then apply and append it (the only mutator)."""
        for party in (t.source, t.destination):
            if party != BANK:
                self._party(party)
        banking = (t.source == BANK, t.destination == BANK)
        if banking == (True, False) and not isinstance(t.destination, Place):
            ok = t.reason is Reason.BUY_IN
        elif banking == (False, True) and not isinstance(t.source, Place):
            ok = t.reason is Reason.CASH_OUT
        else:
            ok = banking == (False, False) and t.reason not in (Reason.BUY_IN, Reason.CASH_OUT)
        if not ok:
            raise TableError("chips enter only by buy-in (bank to seat) and leave only by "
                             f"cash-out (seat to bank): not {t}")  # fmt: skip
        if isinstance(t.source, Place):
            if t.source != BANK:
                self._check_funds(t.source, t.amount)
        else:
            self._check_seat_pays(t)
        self._apply(t)

    def _check_seat_pays(self, t: Transfer) -> None:
        assert isinstance(t.source, int)
        stack, name = self._stacks[t.source], self._names[t.source]
        if (t.reason is Reason.CASH_OUT or not self._credit) and t.amount > max(stack, 0):
            raise ChipError(f"{name} has {stack} chips and cannot pay {t.amount}")
        if t.shortfall and (self._credit or t.amount != stack):
            raise ChipError(f"{name} may fall short only at table stakes, paying all {stack}")

    def _apply(self, t: Transfer) -> None:
        source, destination, amount = t.source, t.destination, t.amount
        places = self._places
        if isinstance(source, Place):
            if source is not BANK:
                places[source] = places.get(source, 0) - amount
        else:
            self._stacks[source] -= amount
        if isinstance(destination, Place):
            if destination is not BANK:
                places[destination] = places.get(destination, 0) + amount
        else:
            self._stacks[destination] += amount
        if source is BANK:
            self._bought[destination] += amount  # type: ignore[index]
        elif destination is BANK:
            self._bought[source] -= amount  # type: ignore[index]
        self._ledger.append(t)


_transfer = lru_cache(maxsize=1 << 12)(Transfer)
"""``Transfer(...)``, one object per distinct transfer among the recent ones: antes, bets and
calls of the same size repeat all the time, and a transfer is an immutable value, so the
ledger may hold one several times (and its checks run once)."""


def _check_held(place: Place, held: int, amount: int) -> None:
    if amount > held:
        raise ChipError(f"the {place} holds {held} chips; cannot take {amount}")


def _check_movement(reason: object, note: object) -> None:
    """Raise unless ``reason`` and ``note`` suit chips moving on the table: a Reason other
    than buy-in and cash-out (those are the bank's), and a string."""
    if type(reason) is not Reason or type(note) is not str:
        _check_reason(reason, note)  # it raises, saying which (or passes a subclass)
    if reason is Reason.BUY_IN or reason is Reason.CASH_OUT:
        raise TableError("chips enter only by buy-in (bank to seat) and leave only by "
                         f"cash-out (seat to bank), not by {reason} on the table")  # fmt: skip


@cache
def _turn_orders(count: int) -> tuple[tuple[int, ...], ...]:
    """For each dealer of ``count`` seats, every seat from the dealer's left clockwise."""
    return tuple(
        tuple((button + k) % count for k in range(1, count + 1)) for button in range(count)
    )


def _seat_entry(player: object, buy_in: int) -> tuple[str, int]:
    if isinstance(player, str):
        return player, _check_amount(buy_in, "buy-in")
    if isinstance(player, tuple) and len(player) == 2:
        name, chips = player
        return name, _check_amount(chips, f"buy-in of {name!r}")
    raise SeatError(f"a player is a name or a (name, chips) pair, not {player!r}")


def _check_names(names: Sequence[object]) -> None:
    if not names:
        raise SeatError("a table needs at least one seat")
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise SeatError(f"a player's name must be a non-blank string, not {name!r}")
    if len(set(names)) != len(names):
        raise SeatError(f"players' names must differ: {list(names)}")


def _check_limit(limit: int) -> int:
    if _check_amount(limit, "pot limit") == 0:
        raise ChipError("a pot limit must be at least one chip")
    return limit


EXACT_SETTLEMENT_UP_TO = 16
"""The most players with a non-zero net whose settlement :func:`settling_payments` finds
exactly: about 0.1 s at 16 (measured on a 2-core server), each one more doubling it."""


def settling_payments(net: Mapping[str, int]) -> tuple[tuple[str, str, int], ...]:
    """The fewest payments ``(payer, payee, amount)`` that square the nets (which must add
    up to zero; TableError if not), in the order of ``net`` by payer, then payee.

    The fewest payments is the number of players with a non-zero net less the most
    groups they split into whose nets add up to zero: each group squares itself in one
    payment fewer than its players (the biggest loser pays the biggest winner as much as
    one of them is owed, until all are square). A winner and a loser of the same amount
    always make such a group. Above :data:`EXACT_SETTLEMENT_UP_TO` players, once those
    pairs are out, the rest is one group: at most one payment fewer than the players,
    not always the fewest.

    >>> settling_payments({"Ann": -5, "Bob": 3, "Cy": 2})
    (('Ann', 'Bob', 3), ('Ann', 'Cy', 2))
    >>> settling_payments({"A": -7, "B": -5, "C": 4, "D": 3, "E": 5})
    (('A', 'C', 4), ('A', 'D', 3), ('B', 'E', 5))
    """
    if sum(net.values()):
        raise TableError(f"the nets add up to {sum(net.values()):+d}, not 0: nothing to settle")
    names = [name for name, n in net.items() if n]
    pairs, rest = _matched_pairs(names, net)
    groups = _zero_sum_groups(rest, net) if len(rest) <= EXACT_SETTLEMENT_UP_TO else [rest]
    payments = [p for group in pairs + groups for p in _squaring(group, net)]
    order = {name: n for n, name in enumerate(names)}
    return tuple(sorted(payments, key=lambda p: (order[p[0]], order[p[1]])))


def _matched_pairs(
    names: Sequence[str], net: Mapping[str, int]
) -> tuple[list[list[str]], list[str]]:
    """Each loser paired with the first unpaired winner of the same amount, in order, and
    the players left unpaired. Some fewest settlement pays each such pair on its own."""
    winners: dict[int, list[str]] = {}
    for name in names:
        if net[name] > 0:
            winners.setdefault(net[name], []).append(name)
    pairs = []
    for name in names:
        if net[name] < 0 and winners.get(-net[name]):
            pairs.append([name, winners[-net[name]].pop(0)])
    paired = {name for pair in pairs for name in pair}
    return pairs, [name for name in names if name not in paired]


def _zero_sum_groups(names: Sequence[str], net: Mapping[str, int]) -> list[list[str]]:
    """The players split into the most groups whose nets add up to zero (theirs do).

    ``most[mask]`` is the most such groups that the players of ``mask`` make one after
    another in some order: one more than the best of ``mask`` less one player when
    ``mask`` itself adds up to zero (O(2^n n) for n players).
    """
    amounts = [net[name] for name in names]
    everyone = (1 << len(names)) - 1
    total, most = [0] * (everyone + 1), [0] * (everyone + 1)
    for mask in range(1, everyone + 1):
        low = mask & -mask
        total[mask] = total[mask ^ low] + amounts[low.bit_length() - 1]
        best = most[mask ^ low]  # leaving out another player instead gains one at most
        rest = mask ^ low
        while rest:
            bit = rest & -rest
            if most[mask ^ bit] > best:
                best += 1
                break
            rest ^= bit
        most[mask] = best + (total[mask] == 0)
    groups: list[list[str]] = []
    mask = everyone
    while mask:  # the best order's players from its end, a group at a time
        if total[mask] == 0:
            groups.append([])
        before = most[mask] - (total[mask] == 0)
        last = next(i for i in range(len(names)) if mask >> i & 1 and most[mask ^ 1 << i] == before)
        groups[-1].append(names[last])
        mask ^= 1 << last
    return groups


def _squaring(group: Sequence[str], net: Mapping[str, int]) -> list[tuple[str, str, int]]:
    """Payments that square ``group`` (whose nets add up to zero): the biggest loser pays
    the biggest winner (the first of equals in ``group``) as much as one of them is owed,
    until all are square; one payment fewer than the group when no part of it adds up to
    zero on its own."""
    owe = {name: -net[name] for name in group if net[name] < 0}
    get = {name: net[name] for name in group if net[name] > 0}
    payments: list[tuple[str, str, int]] = []
    while owe and get:
        payer, payee = max(owe, key=owe.__getitem__), max(get, key=get.__getitem__)
        amount = min(owe[payer], get[payee])
        payments.append((payer, payee, amount))
        for book, name in ((owe, payer), (get, payee)):
            book[name] -= amount
            if not book[name]:
                del book[name]
    return payments
