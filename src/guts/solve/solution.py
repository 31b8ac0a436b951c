"""A solved in/out Guts preset: :func:`solve_in_or_out`, the strategy by position and
history in words, the JSON of ``guts solve --json``. (:mod:`guts.solve.solving` picks
the solver a preset's rules need.)

>>> from guts.games.guts import preset
>>> solution = solve_in_or_out(preset("two-card-guts"), 2, cache=False)
>>> solution.position_names
("dealer's left", 'dealer')
>>> solution.weakest_in(1, "in")[0]   # what the dealer calls with
'ten-two high'
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

import numpy as np
from numpy.typing import NDArray

from guts.games.guts.rules import GutsRules
from guts.solve.cfr import Deal, Result, solve_deal
from guts.solve.hands import HandClasses
from guts.solve.kept import cached
from guts.solve.model import Model, model_of
from guts.solve.removal import deck_exact_fits

__all__ = [
    "MIXING",
    "Solution",
    "deal_of",
    "information_set_evs",
    "kept_with",
    "position_names",
    "sampled_part",
    "solve_in_or_out",
]

FloatArray = NDArray[np.float64]

MIXING = 0.02
"""A probability of staying in between this and ``1 - MIXING`` is shown as mixing."""


@dataclass(frozen=True, eq=False)
class Solution:
    """The equilibrium of ``game`` (a preset, with ``options``) for ``players``."""

    game: str
    options: Mapping[str, str]
    rules: GutsRules
    model: Model
    classes: HandClasses
    exact: bool
    result: Result
    deals: int = 0
    """Solved on this many sampled real deals (:class:`~guts.solve.sampled.SampledDeal`;
    0: exact sums)."""

    @property
    def players(self) -> int:
        """How many players the deal was solved for."""
        return self.model.players

    @property
    def position_names(self) -> tuple[str, ...]:
        """Positions from the dealer's left (who declares first in turn) to the dealer."""
        return position_names(self.players)

    def histories(self, position: int) -> list[str]:
        """What ``position`` may have seen declared before it, in words: each earlier
        position's ``in`` or ``out`` (``-`` for none; ``all at once`` if simultaneous);
        with the dealer's option, then the second chance's (``dealer alone in; again:``
        and the earlier positions' second declarations)."""
        if not self.model.in_turn:
            return ["all at once"]
        first = [_history_words(h, position) or "-" for h in range(1 << position)]
        if not self.model.dealer_option or position == self.players - 1:
            return first
        again = [_history_words(h, position) for h in range(1 << position)]
        return [*first, *(f"dealer alone in; again: {words or '-'}" for words in again)]

    def history_index(self, position: int, before: str) -> int:
        """The index of a history given in words (see :meth:`histories`)."""
        return self.histories(position).index(before)

    def forced(self, position: int, history: int) -> bool:
        """True where the player is in automatically (the dealer when all are out)."""
        m = self.model
        return m.in_turn and m.auto_in and position == m.players - 1 and history == 0

    def level_words(self) -> list[str]:
        """The hands of each strength level in words, weakest first."""
        first = np.unique(self.classes.level, return_index=True)[1]
        return [self.classes.words[int(c)] for c in first]

    def in_by_level(self, position: int, history: int) -> FloatArray:
        """The chance of staying in per strength level (classes weighted by their hands)."""
        stay = self.result.strategy[position][history]
        count = self.classes.count.astype(np.float64)
        levels = self.classes.level
        hands = np.bincount(levels, weights=count)
        return np.asarray(np.bincount(levels, weights=stay * count) / hands, dtype=np.float64)

    def weakest_in(self, position: int, before: str) -> tuple[str, list[tuple[str, float]]]:
        """The weakest hand that stays in at least half the time ("never" if none), and
        the hands that mix (stay in with some chance between MIXING and 1 - MIXING)."""
        history = self.history_index(position, before)
        if self.forced(position, history):
            return "in automatically", []
        stay = self.in_by_level(position, history)
        if self.model.no_peek:
            return _unseen(float(stay[0])), []
        words = self.level_words()
        staying = np.flatnonzero(stay >= 0.5)
        weakest = "never" if not len(staying) else words[int(staying[0])]
        if len(staying) and staying[0] == 0:
            weakest = "any hand"
        mixing = np.flatnonzero((stay > MIXING) & (stay < 1 - MIXING))
        mixed = [(words[i], float(stay[i])) for i in mixing]
        return weakest, mixed

    @cached_property
    def deal(self) -> Deal:
        """The deal this solution solves (for values of other strategies)."""
        if self.deals:
            from guts.solve.sampled import SampledDeal

            return SampledDeal(self.model, self.classes, self.deals)
        return deal_of(self.model, self.classes, self.exact)

    @cached_property
    def expected_next_pot(self) -> float:
        """The next pot, in units of this one, when everyone plays the solution: kept with
        a sampled solve (its deals are drawn again only where it is not)."""
        kept = self.result.growth
        if self.deals and np.isfinite(kept):
            return kept
        return self.deal.growth(self.result.strategy)

    @cached_property
    def counterfactual(self) -> list[FloatArray]:
        """``cv[p][history, action, h]`` of the solved strategy (see :class:`Deal`)."""
        return self.deal.counterfactual(self.result.strategy, self.result.continuation)

    @cached_property
    def evs(self) -> list[FloatArray]:
        """``evs[p][history, action, h]``: the EV of out (0) and in (1) for class ``h`` at
        each information set, given it is reached (pot units, next pots included): the
        counterfactual values over the chance of the others' declarations that make the
        history. Kept with a sampled solve (its deals are drawn again only where they
        are not); else from the deal."""
        kept = self.result.evs
        if kept is not None:
            return kept
        return information_set_evs(self.deal, self.result.strategy, self.counterfactual)

    def strategy_json(self) -> list[dict[str, Any]]:
        """Each information set's chance of staying in per hand, in words."""
        words = self.level_words()
        strategy = []
        for p, name in enumerate(self.position_names):
            for h, before in enumerate(self.histories(p)):
                stay = self.in_by_level(p, h)
                strategy.append(
                    {
                        "position": p,
                        "position_name": name,
                        "before": before,
                        "automatic": self.forced(p, h),
                        "in": {w: round(float(x), 6) for w, x in zip(words, stay, strict=True)},
                    }
                )
        return strategy

    def _removal_words(self) -> str:
        if self.exact:
            return "exact"
        return f"sampled ({self.deals} deals)" if self.deals else "independent hands"

    def to_json(self) -> dict[str, Any]:
        """``guts solve --json``: the game, the players, exploitability (NashConv per
        player, pot units), EV per position from the dealer's left, and the strategy."""
        result = self.result
        strategy = self.strategy_json()
        return {
            "preset": self.game,
            "options": dict(self.options),
            "players": self.players,
            "declare": "in-turn" if self.model.in_turn else "simultaneous",
            "positions": list(self.position_names),
            "exploitability": result.exploitability,
            "nash_conv": result.nash_conv,
            "session_exploitability": _finite(result.session_exploitability),
            "fixed_point_residual": result.residual,
            "expected_next_pot": self.expected_next_pot,
            "ev": [float(v) for v in result.values],
            "iterations": result.iterations,
            "seconds": round(result.seconds, 3),
            "card_removal": self._removal_words(),
            "hand_classes": len(self.classes.count),
            "grouping": self.classes.grouping,
            "strategy": strategy,
        }


def _finite(x: float) -> float | None:
    """``x``, or None (JSON null) where it is not a number."""
    return x if np.isfinite(x) else None


def position_names(players: int) -> tuple[str, ...]:
    """The positions of a deal for ``players``, from the dealer's left (who declares
    first in turn) to the dealer."""
    names = ["dealer's left", *(f"{_ordinal(p + 1)} from the dealer's left" for p in
                                range(1, players - 1))]  # fmt: skip
    return (*names[: players - 1], "dealer")


def _unseen(p_in: float) -> str:
    """No Peek: what the one strategy of an information set says, in words."""
    if p_in >= 1 - MIXING:
        return "any hand, unseen"
    if p_in <= MIXING:
        return "never"
    return f"unseen, in {p_in:.0%} of the time"


def _ordinal(n: int) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n if n < 20 else n % 10, "th")
    return f"{n}{suffix}"


def _history_words(history: int, position: int) -> str:
    return ", ".join("in" if history >> q & 1 else "out" for q in range(position))


def solve_in_or_out(
    rules: GutsRules,
    players: int,
    *,
    game: str = "",
    options: Mapping[str, str] | None = None,
    iterations: int = 2000,
    tolerance: float = 5e-4,
    progress: Callable[[int, int], None] | None = None,
    cache: bool = True,
    deals: int = 0,
    report: Callable[[int, float, float, float], None] | None = None,
) -> Solution:
    """Solve in/out ``rules`` (no Hi-Lo, no pot cap) for ``players``, read from or kept
    in the disk cache (``game`` and ``options`` only name them). With ``deals``, where
    card removal is not summed exactly (four or more players, three-card hands), solve
    the game of that many sampled real deals (:class:`~guts.solve.sampled.SampledDeal`).
    ``report`` hears of each fixed-point step of a solve (:func:`~guts.solve.cfr.solve_deal`)."""
    model = model_of(rules, players)
    classes = HandClasses.of(rules.hand_ranking)
    exact = players == 2 or deck_exact_fits(model, classes)
    deals = 0 if exact else deals

    def run() -> Result:  # the deal built only to solve: a cached result needs none yet
        started = time.process_time()
        if not deals:
            result = solve_deal(deal_of(model, classes, exact), iterations,
                                tolerance=tolerance, progress=progress, report=report)  # fmt: skip
        else:
            from guts.solve.sampled import SampledDeal

            deal = SampledDeal(model, classes, deals)
            result = kept_with(solve_deal(deal, iterations, tolerance=tolerance,
                                          progress=progress, report=report), deal)  # fmt: skip
        return replace(result, cpu_seconds=time.process_time() - started)

    result = cached(rules, players, iterations, tolerance, cache, run, part=sampled_part(deals))
    named = dict(options) if options is not None else rules.to_options()
    return Solution(game or "guts", named, rules, model, classes, exact, result, deals)


def kept_with(result: Result, deal: Deal) -> Result:
    """``result`` with what its play reads from ``deal`` kept (the expected next pot and
    the information sets' EVs), so that a sampled solve read back draws no deals."""
    cv = deal.counterfactual(result.strategy, result.continuation)
    evs = information_set_evs(deal, result.strategy, cv)
    return replace(result, growth=deal.growth(result.strategy), evs=evs)


def information_set_evs(
    deal: Deal, strategy: list[FloatArray], cv: list[FloatArray]
) -> list[FloatArray]:
    """``evs[p][history, action, h]`` (see :attr:`Solution.evs`) of ``strategy`` from its
    counterfactual values ``cv`` on ``deal`` (where a history is never reached, the
    counterfactual values themselves)."""
    evs = []
    for p, values in enumerate(cv):
        reach = np.stack([_reach(deal, strategy, p, h) for h in range(len(values))])
        scale = np.where(reach > 0, 1.0 / np.where(reach > 0, reach, 1.0), 1.0)
        evs.append(np.asarray(values * scale[:, None, :], dtype=np.float64))
    return evs


def _reach(deal: Deal, strategy: list[FloatArray], position: int, history: int) -> FloatArray:
    """Per class of ``position``: the chance of the others' declarations that make
    ``history`` (what the counterfactual values are weighted by): the earlier positions'
    in the first round; in the second chance, every other position's first round out,
    the dealer's in and the earlier positions' second declarations."""
    model = deal.model
    if not model.in_turn:
        return np.ones(len(deal.level))
    if history >> position:  # the second chance
        second = history - (1 << position)
        dealer = deal.players - 1
        weights = [1.0 - strategy[q][0] for q in range(dealer) if q != position]
        weights.append(strategy[dealer][0])
        for q in range(position):
            p_in = strategy[q][(1 << q) + (second & ((1 << q) - 1))]
            weights[q] = weights[q] * (p_in if second >> q & 1 else 1.0 - p_in)
    else:
        weights = []
        for q in range(position):
            p_in = strategy[q][history & ((1 << q) - 1)]
            weights.append(p_in if history >> q & 1 else 1.0 - p_in)
    if model.no_peek:  # declared unseen: the others' chances are the priors
        chance = np.full(len(deal.level), float(np.prod([w @ deal.prior for w in weights])))
    else:
        chance = deal.history_chances(weights)
    return np.where(np.isfinite(chance), chance, 0.0)


def sampled_part(deals: int) -> str:
    """What tells a solve on ``deals`` sampled deals apart in its cache key (nothing for
    exact sums or independent hands)."""
    return f"sampled {deals}" if deals else ""


def deal_of(model: Model, classes: HandClasses, exact: bool) -> Deal:
    """The deal of ``model``: the plain one, or with the dealer's option its tree."""
    if model.dealer_option:
        from guts.solve.option import DealerOptionDeal

        return DealerOptionDeal(model, classes, exact=exact)
    if exact and model.players == 3:
        from guts.solve.removal import DeckDeal

        return DeckDeal(model, classes)
    return Deal(model, classes, exact=exact)
