"""Pot cap and pot limit: the pot in chips as a finite chain of states.

With ``pot-cap`` (``capped-guts``: 50 antes) or ``pot-limit`` the stakes no longer scale
with the pot: a loser pays the pot, but the pot never grows past the cap (the excess is
set aside, or kept in the reserve, and brought back when a pot is won). A deal at pot
``p`` below the cap is still the deal at pot 1 scaled by ``p``, but what the next pot is
worth depends on its size in chips, so the strategy is one per pot size:

- **Below the cap** the next pot is ``k p`` for a whole ``k`` (0: the session is over;
  1: the pot stays or one loser matches; ``k`` losers match), so the pots a session can
  reach from its first (one ante each) form a finite chain, each at least the one before.
  A deal at pot ``p`` has its own strategy and values ``V(p)``; the next pot's value is
  ``V(k p) / p`` per position (in units of ``p``), ``V(p)`` itself for ``k = 1`` (a fixed
  point, as in the plain model), and the states above are solved first.
- **At the cap** every deal is played for the cap, and what goes past it waits aside (or
  in the reserve) for later pots. The model takes the chips waiting aside as shared
  equally in the long run (the button goes round): a position's value at the cap with
  ``a`` chips aside is ``alpha + a / players`` (``sum(alpha)`` the cap), so within a deal
  at the cap every position values a next pot of ``k`` caps at ``(k - 1) / players``
  caps (the pot refilled from aside), the same for all: one stationary deal and a fixed
  point for ``alpha``. This ignores the last, partial refill when fewer chips than the cap
  are aside (``docs/solve.md``: measured against engine sessions).

Each state's deal is the plain :class:`guts.solve.cfr.Deal` run once per whole next pot
``k``, its payoffs kept only where the next pot is ``k`` and the next pot's value that
state's (:class:`ChainDeal`): counterfactual values are linear in the payoff tables, so
the sum is exact. Rules whose next pot is not a whole number of pots (antes entering
during a session, the best hands paying when nobody is in, a single loser) are out of
reach with a cap.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, replace
from functools import cached_property
from typing import Any

import numpy as np
from numpy.typing import NDArray

from guts.errors import GutsError
from guts.games.guts.rules import GutsRules
from guts.solve.cfr import Deal, Result, solve_deal
from guts.solve.hands import HandClasses
from guts.solve.kept import cached
from guts.solve.model import OUTCOMES, Model, Payoff, model_of, out_of_reach, pot_cap_chips
from guts.solve.removal import deck_exact_fits
from guts.solve.solution import Solution, deal_of

__all__ = [
    "ChainDeal",
    "ChainSolution",
    "PotState",
    "next_multiples",
    "pot_chain",
    "solve_chain",
    "solve_chain_rules",
]

FloatArray = NDArray[np.float64]


@dataclass(frozen=True)
class _NextIs(Model):
    """The model with its payoffs kept only where the next pot is ``multiple`` pots (the
    gains counted once, with ``multiple`` 0), the next pot 1 there and 0 elsewhere."""

    multiple: int = 0

    def payoff(self, ins: int, top: int, outcome: str) -> Payoff:
        pay = super().payoff(ins, top, outcome)
        keep = 1.0 if self.multiple == 0 else 0.0
        here = 1.0 if round(pay.next) == self.multiple else 0.0
        return Payoff(pay.top * keep, pay.loser * keep, pay.out * keep, here)


def next_multiples(deal: Deal) -> list[int]:
    """Every next pot ``deal`` can leave, in pots (whole numbers: see the module): over
    every number in, sharing the best hand, and way the best hand fares that can happen."""
    model = deal.model
    found = {0}
    for ins in range(model.players + 1):
        chances = deal._outcome_chances(ins).max(axis=1)
        for top in range(1, max(ins, 1) + 1):
            for outcome, chance in zip(OUTCOMES, chances, strict=True):
                if chance > 0:
                    found.add(round(model.payoff(ins, top if ins else 0, outcome).next))
    return sorted(found)


def pot_chain(first: int, cap: int, multiples: list[int]) -> list[int]:
    """The pots below ``cap`` a session starting at ``first`` can reach (chips), largest
    first; the cap itself stands for every pot at or above it."""
    seen: set[int] = set()
    todo = [first]
    while todo:
        pot = todo.pop()
        if pot >= cap or pot in seen:
            continue
        seen.add(pot)
        todo += [k * pot for k in multiples if k >= 2]
    return sorted(seen, reverse=True)


class ChainDeal(Deal):
    """One deal of the chain: the next pot of ``k`` pots worth ``known[k]`` per position
    of the next deal (in this pot's units), plus this state's own values where
    ``loops[k]`` (the next pot is this state again)."""

    def __init__(
        self,
        model: Model,
        classes: HandClasses,
        exact: bool,
        known: dict[int, FloatArray],
        loops: dict[int, bool],
        total: float = 1.0,
    ) -> None:
        super().__init__(model, classes, exact=exact and model.players == 2)
        fields = asdict(model)
        self.parts = {
            k: deal_of(_NextIs(**fields, multiple=k), classes, exact) for k in sorted(known)
        }
        self.known, self.loops, self.total = known, loops, total

    def counterfactual(
        self, strategy: list[FloatArray], values: FloatArray, position: int | None = None
    ) -> list[FloatArray]:
        """The plain deal's values with the next pot's value by its size (``values``:
        this state's own, where the next pot loops back)."""
        parts = [
            deal.counterfactual(strategy, self._worth(k, values), position)
            for k, deal in self.parts.items()
        ]
        return [np.sum([part[p] for part in parts], axis=0) for p in range(self.players)]

    def _worth(self, k: int, values: FloatArray) -> FloatArray:
        worth = np.asarray(self.known[k], dtype=np.float64)
        return worth + values if self.loops[k] else worth

    def histories(self, position: int) -> int:
        return self.parts[0].histories(position)

    def history_chances(self, weights: list[FloatArray]) -> FloatArray:
        return self.parts[0].history_chances(weights)

    def history(self, position: int, ins: int) -> int:
        return self.parts[0].history(position, ins)

    def fixed_point(self, strategy: list[FloatArray]) -> FloatArray:
        """This state's values ``v = a + q S v`` (``a`` what the deal and the known next
        pots are worth, ``q`` the chance the next pot loops back); where ``q`` is 1 (at
        the cap) the values are fixed by what is in play, ``sum(v) = total``."""
        n = self.players
        zero = np.zeros(n)
        now = self.values(strategy, self.counterfactual(strategy, zero))[0]
        one = self.values(strategy, self.counterfactual(strategy, np.ones(n)))[0]
        loop = float(one[0] - now[0])
        shift = np.roll(np.eye(n), -1, axis=1)
        system = np.eye(n) - loop * shift
        if abs(1.0 - loop) < 1e-9:
            system = np.vstack([system, np.ones(n)])
            target = np.append(now, self.total)
            return np.asarray(np.linalg.lstsq(system, target, rcond=None)[0], dtype=np.float64)
        return np.asarray(np.linalg.solve(system, now), dtype=np.float64)

    def growth(self, strategy: list[FloatArray]) -> float:
        """The expected next pot, in units of this one: each whole next pot ``k`` times
        its chance."""
        return float(sum(k * deal.growth(strategy) for k, deal in self.parts.items()))

    def _choices(
        self, strategy: list[FloatArray], cv: list[FloatArray], position: int
    ) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
        return self.parts[0]._choices(strategy, cv, position)

    def uniform(self) -> list[FloatArray]:
        return self.parts[0].uniform()

    def force(self, strategy: list[FloatArray]) -> list[FloatArray]:
        return self.parts[0].force(strategy)

    def forced(self, position: int, history: int) -> bool:
        return self.parts[0].forced(position, history)


@dataclass(frozen=True)
class PotState:
    """One pot of the chain (chips; the cap stands for every pot at or above it), its
    solved deal and result (values in units of this pot)."""

    pot: int
    capped: bool
    deal: ChainDeal
    result: Result


def solve_chain(
    model: Model,
    classes: HandClasses,
    exact: bool,
    first: int,
    cap: int,
    iterations: int,
    *,
    tolerance: float = 0.0,
    progress: Callable[[int, int], None] | None = None,
    solve_state: Callable[[int, Callable[[], Result]], Result] | None = None,
) -> list[PotState]:
    """Every pot of the chain from ``first`` (chips) with the cap ``cap``, solved from the
    cap down (each state's next pots are solved before it); the cap's state first.
    ``solve_state(pot, solve)`` may stand between each state and its solve (a cache)."""

    def solved(pot: int, deal: ChainDeal) -> Result:
        def run() -> Result:
            return solve_deal(
                deal, iterations, tolerance=tolerance, progress=progress, session=False
            )

        return run() if solve_state is None else solve_state(pot, run)

    n = model.players
    multiples = next_multiples(Deal(model, classes, exact=exact and n == 2))
    share = np.full(n, 1.0 / n)
    at_cap = ChainDeal(model, classes, exact, {k: (k - 1) * share for k in multiples},
                       dict.fromkeys(multiples, True))  # fmt: skip
    states = [PotState(cap, True, at_cap, solved(cap, at_cap))]
    values = {cap: states[0].result.continuation * cap}  # chips, by position
    for pot in pot_chain(first, cap, multiples):
        known = {k: _worth_next(k * pot, cap, values, n) / pot if k != 1 else np.zeros(n)
                 for k in multiples}  # fmt: skip
        deal = ChainDeal(model, classes, exact, known, {k: k == 1 for k in multiples})
        result = solved(pot, deal)
        states.append(PotState(pot, False, deal, result))
        values[pot] = result.continuation * pot
    return states


def _worth_next(pot: int, cap: int, values: dict[int, FloatArray], players: int) -> FloatArray:
    """What a next pot of ``pot`` chips is worth to each position of the next deal (0 when
    the session is over; past the cap, the cap's values and an equal share aside)."""
    if pot == 0:
        return np.zeros(players)
    if pot >= cap:
        return values[cap] + (pot - cap) / players
    return values[pot]


@dataclass(frozen=True, eq=False)
class ChainSolution(Solution):
    """The equilibrium of rules with a pot cap or limit: a solved deal per pot of the
    chain. Everything :class:`Solution` says (the strategy, the EV in pot units, the
    exploitability) is about the deal at ``pot`` chips, the session's first unless
    :meth:`at_pot` chose another."""

    states: tuple[PotState, ...] = ()
    pot: int = 0
    cap: int = 0

    @property
    def state(self) -> PotState:
        """The solved deal at ``pot``."""
        return next(s for s in self.states if s.pot == self.pot)

    @cached_property
    def deal(self) -> Deal:
        """The deal at ``pot`` (its next pots' values by size)."""
        return self.state.deal

    def at_pot(self, chips: int) -> ChainSolution:
        """The solution at a pot of ``chips``: the cap's at or above it; a pot off the
        chain (a last, partial refill) takes the chain's next pot above it."""
        pots = [s.pot for s in self.states if not s.capped and s.pot >= chips]
        pot = min(pots) if pots and chips < self.cap else self.cap
        return replace(self, result=next(s for s in self.states if s.pot == pot).result, pot=pot)

    def to_json(self) -> dict[str, Any]:
        """As :meth:`Solution.to_json` for the first pot, with ``pot`` (chips),
        ``pot_cap`` (chips) and ``pots``: every pot of the chain (``at_cap`` for the one
        standing for the cap and above), its EV (pot units and chips), exploitability
        and strategy."""
        pots = []
        for state in self.states:
            there = self.at_pot(state.pot)
            result = state.result
            pots.append({
                "pot": state.pot, "at_cap": state.capped,
                "ev": [float(v) for v in result.values],
                "ev_chips": [float(v) * state.pot for v in result.values],
                "exploitability": result.exploitability,
                "fixed_point_residual": result.residual, "iterations": result.iterations,
                "strategy": there.strategy_json(),
            })  # fmt: skip
        return {**super().to_json(), "pot": self.pot, "pot_cap": self.cap, "pots": pots}


def solve_chain_rules(
    rules: GutsRules,
    players: int,
    *,
    game: str = "",
    options: Mapping[str, str] | None = None,
    iterations: int = 2000,
    tolerance: float = 5e-4,
    progress: Callable[[int, int], None] | None = None,
    cache: bool = True,
) -> ChainSolution:
    """Solve ``rules`` with a pot cap or limit for ``players`` (as
    :func:`guts.solve.solving.solve_rules`), each pot's deal cached on disk."""
    cap = pot_cap_chips(rules)
    if cap is None:
        raise ValueError("these rules have no pot cap or limit")
    why = out_of_reach(rules, players)
    if why:
        raise GutsError(f"guts solve cannot solve these rules: {why}")
    model = model_of(replace(rules, pot_cap=None, pot_limit=None), players)
    classes = HandClasses.of(rules.hand_ranking)
    exact = players == 2 or deck_exact_fits(model, classes)

    def solve_state(pot: int, run: Callable[[], Result]) -> Result:
        return cached(rules, players, iterations, tolerance, cache, run, part=f"pot {pot}")

    states = solve_chain(
        model, classes, exact, players * rules.ante, cap, iterations, tolerance=tolerance,
        progress=progress, solve_state=solve_state,
    )  # fmt: skip
    first = states[-1]  # the smallest pot: the session's first (the cap's if at or above)
    named = dict(options) if options is not None else rules.to_options()
    return ChainSolution(
        game or "guts", named, rules, model, classes, exact, first.result,
        states=tuple(states), pot=first.pot, cap=cap,
    )  # fmt: skip
