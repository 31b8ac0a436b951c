"""Hi-Lo Guts: declarations high, low, both or out; heads-up solved exactly.

The engine's Hi-Lo (``guts.games.guts.settle.hi_lo_result``): nobody in, the pot stays
(with ``everyone-out=chicken-fee`` everyone antes again); one player in takes the pot,
whichever way; otherwise the high half goes to the best high hand among those who went
high or both, the low half to the best low hand (the ranking reversed) among those who
went low or both, a player who went both must win (or tie for) both ways or wins nothing
and matches; when nobody is left going one way the whole pot is played the other way;
every loser matches the whole pot once. Stakes are in pot units (the odd chip of a split
is ignored) and the next pot's value is a fixed point, as for the other presets
(``docs/solve.md``).

With two players the deal's leaves are the pairs of declarations; counterfactual values
are exact sums over the pairs of hand classes with exact card removal
(:meth:`HandClasses.conditional`), and the solver is discounted CFR over (position, the
earlier declaration in turn, hand class) with NashConv from an exact best response.
Three or more players have their own deal (:mod:`guts.solve.hilo_many`, hands
independent) behind the same solver;
:func:`guts.solve.hilo_solution.hi_lo_deal` picks it.

>>> from guts.games.guts import preset
>>> result = solve_hi_lo(HiLoDeal.of(preset("hi-lo-guts")), 200)
>>> result.exploitability < 5e-3
True
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from itertools import product
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from guts.errors import GutsError
from guts.games.guts.rules import EveryoneOut, GutsRules
from guts.solve.cfr import Result
from guts.solve.hands import HandClasses
from guts.solve.model import MOST_HI_LO_CLASSES, out_of_reach

__all__ = [
    "MOST_CLASSES",
    "HiLoDeal",
    "HiLoGame",
    "HiLoModel",
    "hi_lo_model",
    "hi_lo_out_of_reach",
    "settle",
    "solve_hi_lo",
]

FloatArray = NDArray[np.float64]

_ALPHA, _BETA, _GAMMA = 1.5, 0.0, 2.0
MOST_CLASSES = MOST_HI_LO_CLASSES


@dataclass(frozen=True)
class HiLoModel:
    """The one-deal Hi-Lo game in pot units: the declarations (the engine's words and
    order, ``out`` last), in turn or at once, the chicken fee and the dropouts' ante as a
    share of the pot (0 when the rule is off)."""

    players: int
    in_turn: bool
    ways: tuple[str, ...]
    chicken: float
    dropout_fee: float


def hi_lo_out_of_reach(rules: GutsRules, players: int | None = 2) -> str:
    """Why these Hi-Lo rules cannot be solved, for ``players`` if given ('' if they can):
    :func:`guts.solve.model.out_of_reach` says."""
    return out_of_reach(rules, players)


def hi_lo_model(rules: GutsRules, players: int = 2) -> HiLoModel:
    """The one-deal model of Hi-Lo ``rules`` (checked by :func:`hi_lo_out_of_reach`)."""
    ways = ("high", "low", "both", "out") if rules.hi_lo_both else ("high", "low", "out")
    fee = 1.0 / players
    return HiLoModel(
        players=players,
        in_turn=rules.declare.value == "in-turn",
        ways=ways,
        chicken=fee if rules.everyone_out is EveryoneOut.CHICKEN_FEE else 0.0,
        dropout_fee=fee if rules.dropouts_ante else 0.0,
    )


class HiLoGame(Protocol):
    """What the solver asks of a Hi-Lo deal (:class:`HiLoDeal` heads-up,
    :class:`guts.solve.hilo_many.HiLoManyDeal` for three or more)."""

    model: HiLoModel
    players: int
    ways: int
    prior: FloatArray
    exact: bool

    def histories(self, position: int) -> int: ...

    def uniform(self) -> list[FloatArray]: ...

    def counterfactual(
        self, strategy: list[FloatArray], values: FloatArray, only: int | None = None
    ) -> list[FloatArray]: ...

    def values(
        self, strategy: list[FloatArray], cv: list[FloatArray]
    ) -> tuple[FloatArray, FloatArray]: ...

    def growth(self, strategy: list[FloatArray]) -> float: ...

    def fixed_point(self, strategy: list[FloatArray]) -> FloatArray: ...


def settle(model: HiLoModel, actions: tuple[str, ...], levels: list[FloatArray]) -> FloatArray:
    """Each player's gain and the next pot, ``(players + 1, ...)``, when the players
    declare ``actions`` holding hands of strength ``levels`` (arrays that broadcast; low
    is the reverse of high)."""
    n = model.players
    shape = np.broadcast(*levels).shape
    out = np.zeros((n + 1, *shape))
    ins = [j for j in range(n) if actions[j] != "out"]
    if not ins:
        out[:n] = -model.chicken
        out[n] = 1.0 + n * model.chicken
        return out
    if len(ins) == 1:
        out[ins[0]] = 1.0
        return out
    lv = [np.broadcast_to(np.asarray(x, dtype=np.float64), shape) for x in levels]
    high = [j for j in ins if actions[j] == "high"]
    low = [j for j in ins if actions[j] == "low"]
    both = [j for j in ins if actions[j] == "both"]
    top_h = np.max([lv[j] for j in high], axis=0) if high else np.full(shape, -np.inf)
    top_l = np.min([lv[j] for j in low], axis=0) if low else np.full(shape, np.inf)
    won = np.zeros(shape, dtype=bool)
    if both:
        hi_b = np.max([lv[j] for j in both], axis=0)
        lo_b = np.min([lv[j] for j in both], axis=0)
        won = (hi_b == lo_b) & (hi_b >= top_h) & (lo_b <= top_l)
        at = hi_b
        h_at = sum((lv[j] == at).astype(float) for j in high) if high else np.zeros(shape)
        l_at = sum((lv[j] == at).astype(float) for j in low) if low else np.zeros(shape)
        nb = len(both)
        succeed = np.zeros((n + 1, *shape))
        for j in both:
            succeed[j] = 0.5 / (nb + h_at) + 0.5 / (nb + l_at)
        for j in high:
            succeed[j] = np.where(lv[j] == at, 0.5 / (nb + h_at), -1.0)
        for j in low:
            succeed[j] = np.where(lv[j] == at, 0.5 / (nb + l_at), -1.0)
        succeed[n] = (len(high) - h_at) + (len(low) - l_at)
    halves = int(bool(high)) + int(bool(low))
    share = 1.0 / halves if halves else 0.0
    fail = np.zeros((n + 1, *shape))
    for j in both:
        fail[j] = -1.0
    fail[n] = len(both) + (0.0 if halves else 1.0)
    for group, top in ((high, top_h), (low, top_l)):
        if group:
            ties = sum((lv[j] == top).astype(float) for j in group)
            for j in group:
                fail[j] = np.where(lv[j] == top, share / ties, -1.0)
            fail[n] += len(group) - ties
    out = np.where(won, succeed, fail) if both else fail
    for j in range(n):
        if j not in ins:
            out[j] -= model.dropout_fee
    out[n] += (n - len(ins)) * model.dropout_fee
    return np.asarray(out, dtype=np.float64)


class HiLoDeal:
    """One two-player Hi-Lo deal: exact counterfactual values by pairs of hand classes.

    ``strategy[p][history, way, h]``: position ``p``'s chance of each way (``model.ways``)
    with class ``h``; in turn the dealer (position 1) has one history per way of the
    dealer's left, simultaneously both positions have one.

    With two players a pair of declarations pays according to how the two hands compare
    (weaker, equal, stronger) and nothing else, so the deal keeps one matrix of the
    other's class per comparison (``P(other's class | mine)``, exact card removal) and
    a table of the payoffs of each pair of ways and comparison: three products of a
    matrix by the other's strategy per history give every counterfactual value."""

    exact = True

    def __init__(self, model: HiLoModel, classes: HandClasses) -> None:
        if model.players != 2:
            raise GutsError(
                "HiLoDeal is the two-player deal (three or more: hilo_many.HiLoManyDeal)"
            )
        if len(classes.count) > MOST_CLASSES:
            raise GutsError(f"hi-lo is solved for at most {MOST_CLASSES:,} hand classes")
        self.model, self.classes = model, classes
        self.players, self.ways = 2, len(model.ways)
        self.prior = classes.prior
        self.cond = classes.conditional()
        level = classes.level
        below = level[:, None] < level[None, :]
        equal = level[:, None] == level[None, :]
        # by comparison of position 0's hand with position 1's: weaker, equal, stronger
        self.weighed = [
            [self.cond * m for m in (below, equal, below.T)],  # rows: position 0's class
            [self.cond * m for m in (below.T, equal, below)],  # rows: position 1's class
        ]
        self.pays = np.zeros((3, self.ways, self.ways, 3))  # gain 0, gain 1, next pot
        for a, b in product(range(self.ways), repeat=2):
            for s, pair in enumerate(((0.0, 1.0), (0.0, 0.0), (1.0, 0.0))):
                got = settle(model, (model.ways[a], model.ways[b]), [np.array(x) for x in pair])
                self.pays[:, a, b, s] = got

    @classmethod
    def of(cls, rules: GutsRules, players: int = 2) -> HiLoDeal:
        """The deal of these Hi-Lo rules (GutsError where out of reach)."""
        why = hi_lo_out_of_reach(rules, players)
        if why:
            raise GutsError(f"guts solve cannot solve these rules: {why}")
        return cls(hi_lo_model(rules, players), HandClasses.of(rules.hand_ranking))

    def histories(self, position: int) -> int:
        """How many public histories ``position`` may face."""
        return self.ways if self.model.in_turn and position == 1 else 1

    def uniform(self) -> list[FloatArray]:
        """Every way equally likely."""
        size = len(self.prior)
        return [np.full((self.histories(p), self.ways, size), 1.0 / self.ways) for p in (0, 1)]

    def counterfactual(
        self, strategy: list[FloatArray], values: FloatArray, only: int | None = None
    ) -> list[FloatArray]:
        """``cv[p][history, way, h]``: position ``p``'s expected gain with class ``h``
        (the next pot worth ``values`` of the position it moves to) weighted by the
        chance of the other's class and declaration (and of ``history``); with ``only``,
        that position's alone (the other's left at zero)."""
        carry = np.roll(values, 1)
        gain = [self.pays[p] + carry[p] * self.pays[2] for p in (0, 1)]  # [a, b, comparison]
        cv = [np.zeros_like(s) for s in strategy]
        first, second = strategy
        for h in range(len(second) if only != 1 else 0):
            # against[c, b, s]: the chance that position 1 holds a class comparing s and says b
            against = np.stack([m @ second[h].T for m in self.weighed[0]], axis=-1)
            ways = [h] if self.model.in_turn else range(self.ways)
            for a in ways:
                cv[0][0, a] += np.einsum("cbs,bs->c", against, gain[0][a])
        if only == 0:
            return cv
        facing = np.stack([m @ first[0].T for m in self.weighed[1]], axis=-1)  # [c, a, s]
        if self.model.in_turn:
            for a in range(self.ways):
                cv[1][a] = np.einsum("cs,bs->bc", facing[:, a], gain[1][a])
        else:
            cv[1][0] = np.einsum("cas,abs->bc", facing, gain[1])
        return cv

    def values(
        self, strategy: list[FloatArray], cv: list[FloatArray]
    ) -> tuple[FloatArray, FloatArray]:
        """(each position's expected gain under ``strategy``, its best response's)."""
        mine, best = np.zeros(2), np.zeros(2)
        for p in (0, 1):
            mine[p] = float(((strategy[p] * cv[p]).sum(axis=1) @ self.prior).sum())
            best[p] = float((cv[p].max(axis=1) @ self.prior).sum())
        return mine, best

    def growth(self, strategy: list[FloatArray]) -> float:
        """The expected next pot, in units of this one, when both play ``strategy``."""
        zero, one = np.zeros(2), np.ones(2)
        now = self.values(strategy, self.counterfactual(strategy, zero))[0]
        return float(self.values(strategy, self.counterfactual(strategy, one))[0][0] - now[0])

    def fixed_point(self, strategy: list[FloatArray]) -> FloatArray:
        """The continuation values ``v = (I - E[next] S)^-1 a`` (see ``docs/solve.md``)."""
        now = self.values(strategy, self.counterfactual(strategy, np.zeros(2)))[0]
        shift = np.roll(np.eye(2), -1, axis=1)
        return np.asarray(
            np.linalg.solve(np.eye(2) - self.growth(strategy) * shift, now), dtype=np.float64
        )


def solve_hi_lo(
    deal: HiLoGame,
    iterations: int,
    *,
    tolerance: float = 0.0,
    refresh: int = 10,
    progress: Callable[[int, int], None] | None = None,
    report: Callable[[int, float, float, float], None] | None = None,
) -> Result:
    """Discounted CFR (alternating updates) on ``deal``, the continuation values the
    average strategy's fixed point every ``refresh`` iterations; stops once the
    exploitability and the fixed-point residual are at most ``tolerance``.
    ``progress(done, iterations)`` hears of every iteration, ``report(t,
    exploitability, residual, seconds)`` of every fixed-point step."""
    start = time.perf_counter()
    n = deal.players
    v = np.full(n, 1.0 / n)
    strategy = deal.uniform()
    regret = [np.zeros_like(s) for s in strategy]
    total = [np.zeros_like(s) for s in strategy]
    average = deal.uniform()
    weight, done = 0.0, 0
    for t in range(1, iterations + 1):
        done = t
        scale = ((t - 1) / t) ** _GAMMA
        weight = weight * scale + 1.0
        for p in range(n):
            cv = deal.counterfactual(strategy, v, only=p)[p]
            total[p] = total[p] * scale + strategy[p]
            played = (strategy[p] * cv).sum(axis=1, keepdims=True)
            positive = (t - 1) ** _ALPHA / ((t - 1) ** _ALPHA + 1.0)
            negative = (t - 1) ** _BETA / ((t - 1) ** _BETA + 1.0)
            regret[p] *= np.where(regret[p] > 0, positive, negative)
            regret[p] += cv - played
            plus = np.maximum(regret[p], 0.0)
            sums = plus.sum(axis=1, keepdims=True)
            strategy[p] = np.where(sums > 0, plus / np.where(sums > 0, sums, 1.0), 1 / deal.ways)
        if t % refresh == 0 or t == iterations:
            average = [s / weight for s in total]
            mine, best = deal.values(average, deal.counterfactual(average, v))
            gap, residual = float((best - mine).sum() / n), float(np.abs(mine - v).max())
            if report is not None:
                report(t, gap, residual, time.perf_counter() - start)
            if max(gap, residual) <= tolerance:
                break
            v = deal.fixed_point(average)
        if progress is not None:
            progress(t, iterations)
    mine, best = deal.values(average, deal.counterfactual(average, v))
    from guts.solve.session import session_gains

    whole = session_gains(deal, average)
    return Result(
        strategy=average,
        values=mine,
        continuation=v,
        nash_conv=float((best - mine).sum()),
        residual=float(np.abs(mine - v).max()),
        iterations=done,
        seconds=time.perf_counter() - start,
        session_nash_conv=float("nan") if whole is None else float(whole.sum()),
    )
