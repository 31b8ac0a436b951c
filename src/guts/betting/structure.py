"""Betting structures (fixed, spread, pot and no limit) and forced bets (blinds).

A :class:`Structure` describes the sizes for a whole deal: the first betting round uses the
small bet, later rounds the big bet, which is "typically double". :meth:`Structure.stakes`
gives one round's :class:`Stakes`.

>>> limit = Structure.fixed(10)
>>> limit.stakes(0), limit.stakes(1)
(Stakes(bet=10, max_bet=10), Stakes(bet=20, max_bet=20))
>>> Structure.spread(5, 25).stakes(1)
Stakes(bet=10, max_bet=50)
>>> Structure.no_limit(2).stakes(0, min_bet=8)  # Seven Card Draw: twice the final bet
Stakes(bet=8, max_bet=None)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from guts.errors import OptionError

__all__ = ["Blinds", "Limit", "Stakes", "Structure"]


class Limit(StrEnum):
    """How much a seat may bet or raise."""

    FIXED = "fixed"
    """Every bet and raise is exactly the round's bet size."""
    SPREAD = "spread"
    """A bet or raise is any amount from the round's minimum to its maximum."""
    POT = "pot"
    """A raise is at most the size of the pot after calling."""
    NO_LIMIT = "no-limit"
    """A bet or raise may be anything up to the whole stack."""


@dataclass(frozen=True, slots=True)
class Stakes:
    """One round's sizes: the (minimum) bet and, for spread limit, the largest bet or raise."""

    bet: int
    max_bet: int | None = None

    def __reduce__(self) -> tuple[type[Stakes], tuple[int, int | None]]:
        return (Stakes, (self.bet, self.max_bet))


def _positive(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise OptionError(f"{what} must be a whole number of chips, at least 1, not {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class Structure:
    """The betting structure of a deal.

    - ``kind``: fixed, spread, pot or no limit;
    - ``small_bet``: the first round's bet (fixed limit) or minimum bet (the others);
    - ``big_bet``: the same for every later round; default twice ``small_bet`` ("the
      minimum and maximum bets allowed in the second betting round are ... typically
      double"); pass ``big_bet=small_bet`` to keep them equal;
    - ``small_max``, ``big_max``: spread limit only, the largest bet or raise in the first
      and in later rounds (``big_max`` defaults to twice ``small_max``);
    - ``raise_cap``: how many raises may follow the opening bet in one round (``None``: no
      cap); the constructors default to 4 for fixed and spread limit ("a bet and four
      raises") and to no cap for pot and no limit;
    - ``cap_heads_up``: whether the cap still applies when only two players are left in the
      hand (``False``: raising is unlimited heads-up);
    - ``check_raise``: whether a seat that checked may raise later in the same round.
    """

    kind: Limit = Limit.FIXED
    small_bet: int = 1
    big_bet: int | None = None
    small_max: int | None = None
    big_max: int | None = None
    raise_cap: int | None = 4
    cap_heads_up: bool = True
    check_raise: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.kind, Limit):
            object.__setattr__(self, "kind", _parse_kind(str(self.kind)))
        _positive(self.small_bet, "the small bet")
        if self.big_bet is None:
            object.__setattr__(self, "big_bet", 2 * self.small_bet)
        _positive(self.big_bet, "the big bet")
        if self.kind is Limit.SPREAD:
            if self.small_max is None:
                raise OptionError("spread limit needs its largest bet (small_max / max-bet)")
            if self.big_max is None:
                object.__setattr__(self, "big_max", 2 * self.small_max)
            for low, high, which in ((self.small_bet, self.small_max, "first"),
                                     (self.big_bet, self.big_max, "later")):  # fmt: skip
                if _positive(high, f"the {which} rounds' largest bet") < low:  # type: ignore[operator]
                    raise OptionError(f"the {which} rounds' largest bet {high} is below "
                                      f"the minimum bet {low}")  # fmt: skip
        elif self.small_max is not None or self.big_max is not None:
            raise OptionError(f"a largest bet (max-bet) is only for spread limit, not {self.kind}")
        if self.raise_cap is not None and (
            isinstance(self.raise_cap, bool)
            or not isinstance(self.raise_cap, int)
            or self.raise_cap < 0
        ):
            raise OptionError(f"raise-cap must be a number of raises or none: {self.raise_cap!r}")

    def __reduce__(self) -> tuple[type[Structure], tuple[object, ...]]:
        # rebuilt by the constructor: rules travel to simulation workers by pickle
        fields = (self.kind, self.small_bet, self.big_bet, self.small_max, self.big_max,
                  self.raise_cap, self.cap_heads_up, self.check_raise)  # fmt: skip
        return (Structure, fields)

    # -- constructors -------------------------------------------------------------------------

    @classmethod
    def fixed(cls, small_bet: int, big_bet: int | None = None, **options: object) -> Structure:
        """Fixed limit: bets and raises of ``small_bet``, then ``big_bet`` (default double)."""
        return cls(Limit.FIXED, small_bet, big_bet, **options)  # type: ignore[arg-type]

    @classmethod
    def spread(cls, min_bet: int, max_bet: int, **options: object) -> Structure:
        """Spread limit from ``min_bet`` to ``max_bet``, both doubled after the first round
        unless ``big_bet``/``big_max`` say otherwise."""
        return cls(Limit.SPREAD, min_bet, small_max=max_bet, **options)  # type: ignore[arg-type]

    @classmethod
    def pot_limit(cls, min_bet: int, **options: object) -> Structure:
        """Pot limit with a minimum bet of ``min_bet`` (and the big bet later); no cap."""
        options.setdefault("raise_cap", None)
        return cls(Limit.POT, min_bet, **options)  # type: ignore[arg-type]

    @classmethod
    def no_limit(cls, min_bet: int, **options: object) -> Structure:
        """No limit with a minimum bet of ``min_bet`` (and the big bet later); no cap."""
        options.setdefault("raise_cap", None)
        return cls(Limit.NO_LIMIT, min_bet, **options)  # type: ignore[arg-type]

    @classmethod
    def from_options(cls, options: Mapping[str, str]) -> Structure:
        """A structure from CLI strings.

        Keys: ``limit`` (fixed|spread|pot|no-limit), ``bet``, ``big-bet``, ``max-bet``,
        ``big-max-bet``, ``raise-cap`` (a number or ``none``), ``cap-heads-up`` and
        ``check-raise`` (yes|no).

        >>> Structure.from_options({"limit": "pot", "bet": "2"}).raise_cap is None
        True
        """
        allowed = ("limit", "bet", "big-bet", "max-bet", "big-max-bet", "raise-cap",
                   "cap-heads-up", "check-raise")  # fmt: skip
        unknown = sorted(set(options) - set(allowed))
        if unknown:
            raise OptionError(f"unknown betting option {unknown[0]!r}; allowed: "
                              + ", ".join(allowed))  # fmt: skip
        kind = _parse_kind(options.get("limit", "fixed"))
        values: dict[str, object] = {"kind": kind, "small_bet": _number(options, "bet", "1")}
        for key, field in (("big-bet", "big_bet"), ("max-bet", "small_max"),
                           ("big-max-bet", "big_max")):  # fmt: skip
            if key in options:
                values[field] = _number(options, key, "")
        cap = options.get("raise-cap", "4" if kind in (Limit.FIXED, Limit.SPREAD) else "none")
        values["raise_cap"] = (
            None if cap.strip().lower() == "none" else _number({"raise-cap": cap}, "raise-cap", "")
        )
        for key, field in (("cap-heads-up", "cap_heads_up"), ("check-raise", "check_raise")):
            if key in options:
                values[field] = _yes_no(key, options[key])
        return cls(**values)  # type: ignore[arg-type]

    # -- sizes --------------------------------------------------------------------------------

    def stakes(self, round_index: int = 0, *, min_bet: int | None = None) -> Stakes:
        """The sizes for betting round ``round_index`` (0 is the first).

        ``min_bet`` overrides the round's bet (fixed limit) or minimum bet, as in Seven Card
        Draw, where the second round's minimum "is twice the amount of the final bet in the
        first betting round"; a spread maximum below it is raised to it.
        """
        first = round_index == 0
        bet = self.small_bet if first else self.big_bet
        assert bet is not None
        if min_bet is not None:
            bet = _positive(min_bet, "the minimum bet")
        kind = self.kind
        if kind is Limit.FIXED:
            return Stakes(bet, bet)
        if kind is Limit.SPREAD:
            high = self.small_max if first else self.big_max
            assert high is not None
            return Stakes(bet, max(high, bet))
        return Stakes(bet)


def _parse_kind(text: str) -> Limit:
    try:
        return Limit(text.strip().lower())
    except ValueError:
        allowed = ", ".join(kind.value for kind in Limit)
        raise OptionError(f"limit: unknown value {text!r}; allowed: {allowed}") from None


def _number(options: Mapping[str, str], key: str, default: str) -> int:
    text = options.get(key, default).strip()
    if not text.isdigit():
        raise OptionError(f"{key}: expected a whole number, not {text!r}")
    return int(text)


def _yes_no(key: str, text: str) -> bool:
    value = text.strip().lower()
    if value not in ("yes", "no"):
        raise OptionError(f"{key}: expected yes or no, not {text!r}")
    return value == "yes"


@dataclass(frozen=True, slots=True)
class Blinds:
    """Forced live bets before the first round: an optional small blind, the big blind,
    and ``straddles`` straddles, each twice the previous.

    The first seats to act post them in order (small, big, straddles); betting then starts
    with the seat after the largest blind, and the largest blind has the option.

    >>> Blinds(2, small=1, straddles=2).amounts
    (1, 2, 4, 8)
    """

    big: int
    small: int | None = None
    straddles: int = 0

    def __post_init__(self) -> None:
        _positive(self.big, "the big blind")
        if self.small is not None and _positive(self.small, "the small blind") > self.big:
            raise OptionError(f"the small blind {self.small} is more than the big {self.big}")
        if (
            isinstance(self.straddles, bool)
            or not isinstance(self.straddles, int)
            or (self.straddles < 0)
        ):
            raise OptionError(f"straddles must be a count, not {self.straddles!r}")

    def __reduce__(self) -> tuple[type[Blinds], tuple[int, int | None, int]]:
        # rebuilt by the constructor: rules travel to simulation workers by pickle
        return (Blinds, (self.big, self.small, self.straddles))

    @property
    def amounts(self) -> tuple[int, ...]:
        """What each poster puts in, in posting order."""
        small = () if self.small is None else (self.small,)
        return (*small, *(self.big << k for k in range(self.straddles + 1)))

    @property
    def largest(self) -> int:
        """The largest blind: the bet the others must call."""
        return self.big << self.straddles
