"""The equilibrium bot (``--bots equilibrium``) and the advice behind the ``?`` hint.

:class:`EquilibriumPolicy` plays a solved strategy (:func:`guts.solve.solving.solve_for_play`, one
solution per number of players, kept on disk) from the seat's view alone: its position
from the dealer's left, the public declarations before it (in turn) and its hand's class
(with a pot cap or limit, the pot too) give the chance of staying in, and it draws its
choice with the random source it is handed. :func:`advice` says the same for a person,
with what each choice is worth.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from random import Random
from typing import Any

from guts.cards import parse_card
from guts.errors import GutsError, OptionError
from guts.games.base import Decision
from guts.games.guts.rules import GutsRules
from guts.solve.hilo_solution import HiLoAdvice, HiLoSolution
from guts.solve.model import out_of_reach
from guts.solve.solution import Solution
from guts.solve.solving import AnySolution, solve_for_play

__all__ = ["Advice", "EquilibriumPolicy", "HiLoAdvice", "advice"]


@dataclass(frozen=True)
class Advice:
    """What the equilibrium does at a declaration: the chance of in, the hand's class in
    words, the EV (pot units, next pots included) of in and of out, and the position."""

    p_in: float
    hand: str
    ev_in: float
    ev_out: float
    position: str
    automatic: bool = False

    def lines(self, pot: int) -> list[str]:
        """The advice in words, EVs in pot units and in chips at this pot."""
        if self.automatic:
            return [f"Equilibrium: you are in automatically ({self.position})."]
        if self.p_in >= 0.98:
            verdict = "stay in"
        elif self.p_in <= 0.02:
            verdict = "go out"
        else:
            verdict = f"in {self.p_in:.0%} of the time"
        return [
            f"Equilibrium: {verdict} ({self.hand}, {self.position}).",
            f"EV in {self.ev_in:+.3f} pot ({self.ev_in * pot:+.1f} chips), "
            f"out {self.ev_out:+.3f} pot ({self.ev_out * pot:+.1f}); next pots included.",
        ]


class EquilibriumPolicy:
    """Plays the equilibrium of the session's rules (see the module docstring); with
    ``players``, only if the solver reaches the rules for that many (Hi-Lo: two)."""

    def __init__(self, rules: GutsRules, players: int | None = None) -> None:
        why = out_of_reach(rules, players)
        if why:
            raise OptionError(f"equilibrium bots need rules guts solve can solve: {why}")
        self.rules = rules
        self._solutions: dict[int, AnySolution] = {}

    def solution(self, players: int) -> AnySolution:
        """The solved deal for ``players`` (solved, or read from the cache, once)."""
        if players not in self._solutions:
            self._solutions[players] = solve_for_play(self.rules, players)
        return self._solutions[players]

    def choose(self, view: Mapping[str, Any], decision: Decision, rng: Random) -> str:
        """In (or the Hi-Lo declaration) with the equilibrium's chance for this position,
        history and hand."""
        if self.rules.hi_lo and set(decision.actions) <= {"high", "low", "both", "out"}:
            found = self.solution(_players(view))
            assert isinstance(found, HiLoSolution)
            return _draw(found.chances(view), decision.actions, rng)
        if "in" not in decision.actions or "out" not in decision.actions:
            return rng.choice(decision.actions)
        solution = self.solution(_players(view))
        assert isinstance(solution, Solution)
        solution = _at_pot(solution, view)
        position, history, cls = _information_set(solution, view)
        p_in = float(solution.result.strategy[position][history][cls])
        return "in" if rng.random() < p_in else "out"


def _draw(chances: Mapping[str, float], actions: tuple[str, ...], rng: Random) -> str:
    """One of ``actions`` drawn with ``chances`` (the solver's words for them)."""
    pick, total = rng.random() * sum(chances.get(a, 0.0) for a in actions), 0.0
    for action in actions:
        total += chances.get(action, 0.0)
        if pick < total:
            return action
    return max(actions, key=lambda action: chances.get(action, 0.0))


def _at_pot(solution: Solution, view: Mapping[str, Any]) -> Solution:
    """With a pot cap or limit, the solution of the deal at the view's pot."""
    from guts.solve.chain import ChainSolution

    if isinstance(solution, ChainSolution):
        return solution.at_pot(int(view.get("pot") or 0))
    return solution


def _players(view: Mapping[str, Any]) -> int:
    return len(view.get("dealt_in") or ())


def _information_set(solution: Solution, view: Mapping[str, Any]) -> tuple[int, int, int]:
    """(position from the dealer's left, history, hand class) of the seat of ``view``."""
    seats = [int(s) for s in view.get("dealt_in") or ()]
    seat = int(view["seat"])
    if len(seats) != solution.players or seat not in seats:
        raise GutsError(f"this solution is for {solution.players} players dealt in")
    hand = view.get("hand")
    if not hand and not solution.model.no_peek:
        raise GutsError("the equilibrium needs the seat's cards")
    position = seats.index(seat)
    declared = {int(s): str(c) for s, c in dict(view.get("declared") or {}).items()}
    history = 0
    if solution.model.in_turn:
        history = sum(1 << q for q in range(position) if declared.get(seats[q]) == "in")
        if _second_chance(solution, position, seats, declared):
            history += 1 << position  # the second chance's rows follow the first round's
    if solution.model.no_peek:  # one strategy for every hand, unseen
        return position, history, 0
    cls = solution.classes.class_of([parse_card(code) for code in hand or ()])
    return position, history, cls


def _second_chance(
    solution: Solution, position: int, seats: list[int], declared: Mapping[int, str]
) -> bool:
    """True when ``position`` declares again, to challenge a dealer alone in (the dealer,
    who declares last, has declared: the view's declarations before it are then the
    second round's)."""
    dealer = solution.players - 1
    return solution.model.dealer_option and position < dealer and seats[dealer] in declared


def advice(solution: AnySolution, view: Mapping[str, Any]) -> Advice | HiLoAdvice:
    """The equilibrium's advice at the declaration in front of ``view``'s seat."""
    if isinstance(solution, HiLoSolution):
        return solution.advice(view)
    solution = _at_pot(solution, view)
    position, history, cls = _information_set(solution, view)
    name, words = solution.position_names[position], solution.classes.words[cls]
    if solution.model.no_peek:
        words = "cards unseen"
    if solution.forced(position, history):
        return Advice(1.0, words, 0.0, 0.0, name, automatic=True)
    p_in = float(solution.result.strategy[position][history][cls])
    ev_out, ev_in = solution.evs[position][history, :, cls]
    return Advice(p_in, words, float(ev_in), float(ev_out), name)
