"""Betting actions (frozen records) and :class:`Legal`, what a seat may do now.

Amounts are totals for the round: ``Bet(20)`` puts 20 chips in when nothing has been bet;
``Raise(60)`` makes the seat's bet in this round 60 in all.

>>> action_from_dict(Raise(60).to_dict())
Raise(to=60)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeAlias

from guts.errors import IllegalAction

__all__ = [
    "Action",
    "Bet",
    "Call",
    "Check",
    "Fold",
    "Legal",
    "Raise",
    "action_from_dict",
]


def _chips(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise IllegalAction(f"{what} must be a whole number of chips, at least 1, not {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class Fold:
    """Give up the hand and every chip put in."""

    def to_dict(self) -> dict[str, object]:
        """A JSON-able dict."""
        return {"action": "fold"}

    def __str__(self) -> str:
        return "fold"


@dataclass(frozen=True, slots=True)
class Check:
    """Stay in without adding chips (nothing to call)."""

    def to_dict(self) -> dict[str, object]:
        """A JSON-able dict."""
        return {"action": "check"}

    def __str__(self) -> str:
        return "check"


@dataclass(frozen=True, slots=True)
class Call:
    """Match the current bet (all-in for less if the stack is short)."""

    def to_dict(self) -> dict[str, object]:
        """A JSON-able dict."""
        return {"action": "call"}

    def __str__(self) -> str:
        return "call"


@dataclass(frozen=True, slots=True)
class Bet:
    """Open the betting with ``amount`` chips (nothing has been bet in this round)."""

    amount: int

    def __post_init__(self) -> None:
        _chips(self.amount, "a bet")

    def to_dict(self) -> dict[str, object]:
        """A JSON-able dict."""
        return {"action": "bet", "amount": self.amount}

    def __str__(self) -> str:
        return f"bet {self.amount}"


@dataclass(frozen=True, slots=True)
class Raise:
    """Raise so that the seat's bet in this round is ``to`` chips in all."""

    to: int

    def __post_init__(self) -> None:
        _chips(self.to, "a raise")

    def to_dict(self) -> dict[str, object]:
        """A JSON-able dict."""
        return {"action": "raise", "to": self.to}

    def __str__(self) -> str:
        return f"raise to {self.to}"


Action: TypeAlias = Fold | Check | Call | Bet | Raise
"""Any betting action."""


def action_from_dict(data: Mapping[str, object]) -> Action:
    """The action :meth:`to_dict` wrote; anything else raises IllegalAction."""
    kind = data.get("action")
    if kind == "fold":
        return Fold()
    if kind == "check":
        return Check()
    if kind == "call":
        return Call()
    if kind == "bet":
        return Bet(data.get("amount"))  # type: ignore[arg-type]  # checked by Bet
    if kind == "raise":
        return Raise(data.get("to"))  # type: ignore[arg-type]
    raise IllegalAction(f"not a betting action: {dict(data)!r}")


@dataclass(frozen=True, slots=True)
class Legal:
    """What the seat to act may do now.

    ``call_amount`` is the chips a call adds (less than the bet when it puts the seat
    all-in; 0 when there is nothing to call). ``min_bet``/``max_bet`` bound a
    :class:`Bet` and ``min_raise_to``/``max_raise_to`` the total of a :class:`Raise`;
    they are ``None`` when that action is not allowed. A bet or raise smaller than the
    minimum is allowed only as the seat's whole stack, which is then the minimum too.
    """

    seat: int
    can_fold: bool
    can_check: bool
    call_amount: int
    min_bet: int | None = None
    max_bet: int | None = None
    min_raise_to: int | None = None
    max_raise_to: int | None = None

    @property
    def can_call(self) -> bool:
        """True when there is a bet to call."""
        return self.call_amount > 0

    @property
    def can_bet(self) -> bool:
        """True when the seat may open the betting."""
        return self.min_bet is not None

    @property
    def can_raise(self) -> bool:
        """True when the seat may raise."""
        return self.min_raise_to is not None

    def allows(self, action: Action) -> bool:
        """True if ``action`` is among these choices."""
        kind = type(action)  # the usual actions by their exact type, any other below
        if kind is Call:
            return self.call_amount > 0  # (can_call)
        if kind is Fold:
            return self.can_fold
        if kind is Check:
            return self.can_check
        if kind is Raise:
            return _within(action.to, self.min_raise_to, self.max_raise_to)  # type: ignore[union-attr]
        if isinstance(action, Fold):
            return self.can_fold
        if isinstance(action, Check):
            return self.can_check
        if isinstance(action, Call):
            return self.can_call
        if isinstance(action, Bet):
            return _within(action.amount, self.min_bet, self.max_bet)
        return _within(action.to, self.min_raise_to, self.max_raise_to)

    def __str__(self) -> str:
        """The choices in words: ``"fold, call 10, raise to 20..40"``."""
        words = ["fold"] if self.can_fold else []
        if self.can_check:
            words.append("check")
        if self.can_call:
            words.append(f"call {self.call_amount}")
        if self.min_bet is not None:
            words.append(f"bet {_span(self.min_bet, self.max_bet)}")
        if self.min_raise_to is not None:
            words.append(f"raise to {_span(self.min_raise_to, self.max_raise_to)}")
        return ", ".join(words)

    def to_dict(self) -> dict[str, object]:
        """A JSON-able dict of the choices."""
        return {
            "seat": self.seat,
            "can_fold": self.can_fold,
            "can_check": self.can_check,
            "call_amount": self.call_amount,
            "min_bet": self.min_bet,
            "max_bet": self.max_bet,
            "min_raise_to": self.min_raise_to,
            "max_raise_to": self.max_raise_to,
        }


def _within(amount: int, low: int | None, high: int | None) -> bool:
    return low is not None and high is not None and low <= amount <= high


def _span(low: int, high: int | None) -> str:
    return str(low) if high is None or high == low else f"{low}..{high}"
