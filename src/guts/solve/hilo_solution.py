"""A solved Hi-Lo preset: the declarations by position and what was declared
before, in words; the JSON of ``guts solve --json``; the advice behind the ``?`` hint.

>>> from guts.games.guts import preset
>>> solution = solve_hi_lo_rules(preset("hi-lo-guts", {"declare": "in-turn"}), 2, cache=False)
>>> solution.histories(1)          # the dealer hears the dealer's left's declaration
['high', 'low', 'both', 'out']
>>> [way for way, _ in solution.ranges(1, 0)]   # after a high: low, then both ways
['low', 'both']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
from numpy.typing import NDArray

from guts.errors import GutsError
from guts.games.guts.rules import GutsRules
from guts.solve.cfr import Result
from guts.solve.hands import HandClasses
from guts.solve.hilo import (
    HiLoDeal,
    HiLoGame,
    HiLoModel,
    hi_lo_model,
    hi_lo_out_of_reach,
    solve_hi_lo,
)
from guts.solve.hilo_many import HiLoManyDeal
from guts.solve.kept import cached
from guts.solve.solution import position_names

__all__ = ["HiLoAdvice", "HiLoSolution", "hi_lo_deal", "solve_hi_lo_rules"]

FloatArray = NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class HiLoSolution:
    """The equilibrium of Hi-Lo ``game`` (with ``options``) for ``model.players``."""

    game: str
    options: Mapping[str, str]
    rules: GutsRules
    model: HiLoModel
    classes: HandClasses
    result: Result

    @property
    def players(self) -> int:
        """How many players the deal was solved for."""
        return self.model.players

    @property
    def position_names(self) -> tuple[str, ...]:
        """Positions from the dealer's left (who declares first in turn) to the dealer."""
        return position_names(self.players)

    @property
    def ways(self) -> tuple[str, ...]:
        """The declarations, in the engine's words and order (``out`` last)."""
        return self.model.ways

    @property
    def exact(self) -> bool:
        """Card removal is exact (two players; three or more: hands independent)."""
        return self.players == 2

    def histories(self, position: int) -> list[str]:
        """What ``position`` heard declared before it in turn, every earlier position's
        way in order (``-`` for the first to declare; ``all at once`` if simultaneous).
        History ``h`` holds position ``q``'s way as its ``q``-th digit in base
        ``len(ways)``."""
        if not self.model.in_turn:
            return ["all at once"]
        if position == 0:
            return ["-"]
        return [", ".join(self.ways[a] for a in self._digits(h, position))
                for h in range(len(self.ways) ** position)]  # fmt: skip

    def _digits(self, history: int, position: int) -> list[int]:
        """The ways (indices) of the positions before ``position`` in ``history``."""
        base = len(self.ways)
        return [history // base**q % base for q in range(position)]

    @cached_property
    def deal(self) -> HiLoGame:
        """The deal this solution solves (for values of other strategies)."""
        return hi_lo_deal(self.model, self.classes)

    @cached_property
    def counterfactual(self) -> list[FloatArray]:
        """``cv[p][history, way, h]`` of the solved strategy (see
        :class:`~guts.solve.hilo.HiLoDeal`)."""
        return self.deal.counterfactual(self.result.strategy, self.result.continuation)

    def level_words(self) -> list[str]:
        """The hands of each strength level in words, weakest first."""
        first = np.unique(self.classes.level, return_index=True)[1]
        return [self.classes.words[int(c)] for c in first]

    def by_level(self, position: int, history: int) -> FloatArray:
        """``[level, way]``: the chance of each declaration per strength level (classes
        weighted by their hands)."""
        chances = self.result.strategy[position][history].T  # [class, way]
        count = self.classes.count.astype(np.float64)
        levels = self.classes.level
        hands = np.bincount(levels, weights=count)
        rows = [np.bincount(levels, weights=chances[:, w] * count) for w in range(len(self.ways))]
        return np.asarray(np.stack(rows, axis=1) / hands[:, None], dtype=np.float64)

    def ranges(self, position: int, history: int) -> list[tuple[str, str]]:
        """The declaration most hands of each stretch of strengths make, weakest first:
        ``(way, "three-two high to nine-seven high")`` (one hand alone: its name)."""
        choice = self.by_level(position, history).argmax(axis=1)
        words = self.level_words()
        stretches: list[tuple[str, str]] = []
        start = 0
        for level in range(1, len(choice) + 1):
            if level == len(choice) or choice[level] != choice[start]:
                low, high = words[start], words[level - 1]
                span = low if start == level - 1 else f"{low} to {high}"
                stretches.append((self.ways[int(choice[start])], span))
                start = level
        return stretches

    def reached(self, position: int, history: int, weights: FloatArray | None = None) -> float:
        """The chance of ``history`` under the equilibrium (in turn: that the earlier
        positions declare it; hands independent, each dealt with ``weights``, the prior
        when None); where it is 0 the strategy there is no advice."""
        if not self.model.in_turn or position == 0:
            return 1.0
        prior = self.deal.prior if weights is None else weights
        chance, row, base = 1.0, 0, len(self.ways)
        for q, way in enumerate(self._digits(history, position)):
            chance *= float(self.result.strategy[q][row][way] @ prior)
            row += way * base**q
        return chance

    def mixing(self, position: int, history: int, threshold: float = 0.02) -> int:
        """How many strength levels mix declarations (no way above ``1 - threshold``)."""
        return int((self.by_level(position, history).max(axis=1) < 1 - threshold).sum())

    def to_json(self) -> dict[str, Any]:
        """``guts solve --json``: as for the in/out presets, with each information set's
        chance of every declaration per hand class (``ways``) and of staying in (``in``:
        any way but out)."""
        result, words = self.result, self.level_words()
        strategy = []
        for p, name in enumerate(self.position_names):
            for h, before in enumerate(self.histories(p)):
                chances = self.by_level(p, h)
                ways = {way: {w: round(float(x), 6) for w, x in zip(words, chances[:, k],
                                                                 strict=True)}
                        for k, way in enumerate(self.ways)}  # fmt: skip
                stay = 1.0 - chances[:, self.ways.index("out")]
                strategy.append({
                    "position": p, "position_name": name, "before": before,
                    "automatic": False, "reached": round(self.reached(p, h), 6), "ways": ways,
                    "in": {w: round(float(x), 6) for w, x in zip(words, stay, strict=True)},
                })  # fmt: skip
        return {
            "preset": self.game,
            "options": dict(self.options),
            "players": self.players,
            "declare": "in-turn" if self.model.in_turn else "simultaneous",
            "positions": list(self.position_names),
            "ways": list(self.ways),
            "exploitability": result.exploitability,
            "nash_conv": result.nash_conv,
            "session_exploitability": (
                result.session_exploitability
                if np.isfinite(result.session_exploitability)
                else None
            ),
            "fixed_point_residual": result.residual,
            "expected_next_pot": self.deal.growth(result.strategy),
            "ev": [float(v) for v in result.values],
            "iterations": result.iterations,
            "seconds": round(result.seconds, 3),
            "card_removal": "exact" if self.exact else "independent hands",
            "hand_classes": len(self.classes.count),
            "grouping": self.classes.grouping,
            "strategy": strategy,
        }

    def information_set(self, view: Mapping[str, Any]) -> tuple[int, int, int]:
        """(position from the dealer's left, history, hand class) of ``view``'s seat."""
        seats = [int(s) for s in view.get("dealt_in") or ()]
        seat = int(view["seat"])
        if len(seats) != self.players or seat not in seats:
            raise GutsError(f"this Hi-Lo solution is for {self.players} players dealt in")
        hand = view.get("hand")
        if not hand:
            raise GutsError("the equilibrium needs the seat's cards")
        from guts.cards import parse_card

        position = seats.index(seat)
        history = 0
        if self.model.in_turn:
            declared = {int(s): str(c) for s, c in dict(view.get("declared") or {}).items()}
            for q in range(position):
                said = declared.get(seats[q])
                if said not in self.ways:
                    raise GutsError(f"the {self.position_names[position]} declares after "
                                    f"the {self.position_names[q]}")  # fmt: skip
                history += self.ways.index(said) * len(self.ways) ** q
        return position, history, self.classes.class_of([parse_card(c) for c in hand])

    def chances(self, view: Mapping[str, Any]) -> dict[str, float]:
        """The chance of each declaration for ``view``'s seat, hand and history."""
        position, history, cls = self.information_set(view)
        row = self.result.strategy[position][history][:, cls]
        return {way: float(row[k]) for k, way in enumerate(self.ways)}

    def advice(self, view: Mapping[str, Any]) -> HiLoAdvice:
        """The equilibrium's advice at the declaration in front of ``view``'s seat, with
        the EV of every declaration (pot units, next pots included)."""
        position, history, cls = self.information_set(view)
        cv = self.counterfactual[position][history][:, cls]
        # the values are weighted by the earlier positions' ways (heads-up: given my hand)
        given = self.classes.conditional()[cls] if self.exact else None
        reach = self.reached(position, history, given)
        scale = 1.0 / reach if reach > 0 else 1.0
        return HiLoAdvice(
            chances=self.chances(view),
            ev={way: float(cv[k] * scale) for k, way in enumerate(self.ways)},
            hand=self.classes.words[cls],
            position=self.position_names[position],
        )


@dataclass(frozen=True)
class HiLoAdvice:
    """What the equilibrium does at a Hi-Lo declaration: the chance and the EV (pot
    units, next pots included) of every declaration, the hand in words, the position."""

    chances: Mapping[str, float]
    ev: Mapping[str, float]
    hand: str
    position: str

    def lines(self, pot: int) -> list[str]:
        """The advice in words, EVs in pot units and in chips at this pot."""
        played = [(way, p) for way, p in self.chances.items() if p > 0.02]
        if len(played) == 1:
            verdict = f"go {played[0][0]}" if played[0][0] != "out" else "go out"
        else:
            verdict = ", ".join(f"{way} {p:.0%}" for way, p in played)
        evs = ", ".join(f"{way} {ev:+.3f} pot ({ev * pot:+.1f})" for way, ev in self.ev.items())
        return [
            f"Equilibrium: {verdict} ({self.hand}, {self.position}).",
            f"EV {evs}; chips in brackets, next pots included.",
        ]


def hi_lo_deal(model: HiLoModel, classes: HandClasses) -> HiLoGame:
    """The deal of ``model``: exact card removal heads-up (:class:`HiLoDeal`), hands
    independent for three or more (:mod:`guts.solve.hilo_many`)."""
    if model.players == 2:
        return HiLoDeal(model, classes)
    return HiLoManyDeal(model, classes)


def solve_hi_lo_rules(
    rules: GutsRules,
    players: int,
    *,
    game: str = "",
    options: Mapping[str, str] | None = None,
    iterations: int = 2000,
    tolerance: float = 5e-4,
    progress: Callable[[int, int], None] | None = None,
    cache: bool = True,
) -> HiLoSolution:
    """Solve Hi-Lo ``rules`` for ``players`` (GutsError where out of reach, naming why),
    read from or kept in the disk cache as the other presets' solutions are."""
    why = hi_lo_out_of_reach(rules, players)
    if why:
        raise GutsError(f"guts solve cannot solve these rules: {why}")
    model = hi_lo_model(rules, players)
    classes = HandClasses.of(rules.hand_ranking)
    result = cached(
        rules,
        players,
        iterations,
        tolerance,
        cache,
        lambda: solve_hi_lo(
            hi_lo_deal(model, classes), iterations, tolerance=tolerance, progress=progress
        ),
    )
    named = dict(options) if options is not None else rules.to_options()
    return HiLoSolution(game or "guts", named, rules, model, classes, result)
