"""Discounted CFR over the declarations of one Guts deal, with the pot's continuation value
as a fixed point.

An information set is (position from the dealer's left, the public declarations before
it, the hand class). Every player declares once, so a deal's leaves are the sets of
players who stay in, and each player's strategy is one probability of staying in per
hand class and history (``in turn``: the in/out of every earlier position, a bit each;
``simultaneous``: nothing). Counterfactual values are exact sums over the leaves:

- two players: over every pair of hand classes, with exact card removal
  (:attr:`HandClasses.meeting`);
- three or more: hands are independent draws (card removal between players ignored;
  ``docs/solve.md`` gives the error this makes), so at each leaf the hands of the players
  in enter through the distribution of the best strength and how many share it, a
  polynomial in one variable per strength level, and the work per leaf is linear in the
  strength levels.

The solver is discounted CFR (alpha 1.5, beta 0, gamma 2; Brown and Sandholm 2019) with
alternating updates (each position in turn answers the others' latest strategies). The
continuation value ``v`` (per position, pot units) is set to the average strategy's own
values every few iterations; at the end, the exploitability is NashConv from an exact
best response of each position against the average strategy, in the one-deal game with
the final ``v``, and ``residual`` says how far ``v`` is from its fixed point.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from numpy.typing import NDArray

from guts.solve.hands import HandClasses
from guts.solve.model import OUTCOMES, Model
from guts.solve.session import session_gains

__all__ = ["Deal", "Result", "qualifying_levels", "solve_deal"]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
Progress = Callable[[int, int], None]

_ALPHA, _BETA, _GAMMA = 1.5, 0.0, 2.0


@dataclass
class Result:
    """A solved deal: ``strategy[p][history, h]`` the chance that position ``p`` (0: the
    dealer's left, the last: the dealer) stays in with hand class ``h`` after
    ``history`` (bit ``q`` set when position ``q`` declared in); ``values[p]`` each
    position's expected gain in pot units; ``nash_conv`` summed over positions, in the
    one-deal game whose next pots are worth ``continuation`` (the values of the last
    fixed-point step; ``residual`` is the largest gap between the two)."""

    strategy: list[FloatArray]
    values: FloatArray
    continuation: FloatArray
    nash_conv: float
    residual: float
    iterations: int
    seconds: float
    session_nash_conv: float = float("nan")
    growth: float = float("nan")
    """The expected next pot (pot units) under ``strategy``, where it was kept with the
    result (a sampled solve's, whose deals would otherwise be drawn again); NaN if not."""
    evs: list[FloatArray] | None = None
    """``evs[p][history, action, h]``: the EV of out (0) and in (1) at each information
    set (pot units, next pots included), where it was kept with the result (a sampled
    solve's, as ``growth``); None if not (:attr:`guts.solve.solution.Solution.evs`)."""
    cpu_seconds: float = float("nan")
    """The CPU seconds the solve took (a sampled solve's drawing of its deals included),
    kept with the result in the disk cache and the shipped files, so that a result read
    back still says what it cost; NaN where it was not kept (a result cached before)."""

    @property
    def exploitability(self) -> float:
        """NashConv per player (pot units)."""
        return self.nash_conv / len(self.values)

    @property
    def session_exploitability(self) -> float:
        """What a stationary best response over the whole session gains, per player (pot
        units; :mod:`guts.solve.session`); NaN where it is not defined."""
        return self.session_nash_conv / len(self.values)


class Deal:
    """One deal's declarations, for evaluating strategies: counterfactual values of
    every information set given every position's strategy and the continuation ``v``."""

    def __init__(self, model: Model, classes: HandClasses, exact: bool | None = None) -> None:
        self.model = model
        self.classes = classes
        self.players = model.players
        self.exact = model.players == 2 if exact is None else exact
        if self.exact and model.players != 2:
            raise ValueError("exact card removal is computed for two players only")
        self.level = classes.level
        self.levels = classes.levels
        self.prior = classes.prior
        self.onehot = np.zeros((len(self.level), self.levels))
        self.onehot[np.arange(len(self.level)), self.level] = 1.0
        self.level_prior = self.prior @ self.onehot
        self._tables()
        if self.exact:
            self._pair_tables()

    # -- the shape of the strategy ------------------------------------------------------

    def histories(self, position: int) -> int:
        """How many public histories ``position`` may face."""
        return 1 << position if self.model.in_turn else 1

    def history(self, position: int, ins: int) -> int:
        """The history ``position`` faced on the way to the leaf ``ins`` (a bit set)."""
        return ins & ((1 << position) - 1) if self.model.in_turn else 0

    def forced(self, position: int, history: int) -> bool:
        """True where the player is in automatically (the dealer when all others are out)."""
        m = self.model
        return m.in_turn and m.auto_in and position == m.players - 1 and history == 0

    def uniform(self) -> list[FloatArray]:
        """Every strategy at one half, forced information sets in."""
        strategy = [np.full((self.histories(p), len(self.level)), 0.5) for p in range(self.players)]
        return self.force(strategy)

    def force(self, strategy: list[FloatArray]) -> list[FloatArray]:
        """``strategy`` with its forced information sets set to in."""
        if self.model.in_turn and self.model.auto_in:
            strategy[-1][0] = 1.0
        return strategy

    def continuation(self, values: FloatArray) -> FloatArray:
        """Per position: the value per pot unit of the position it moves to (the button
        moves left: the dealer's left deals next, and position ``p`` becomes ``p - 1``)."""
        return np.roll(values, 1)

    # -- payoff tables -------------------------------------------------------------------

    def _tables(self) -> None:
        """Per number in and number sharing the best hand: each role's gain and the next
        pot, averaged over the ghost's hand, per strength level of the best hand."""
        n, levels = self.players, self.levels
        self.top_gain: list[FloatArray] = []
        self.top_next: list[FloatArray] = []
        self.lose_gain: list[FloatArray] = []
        self.lose_next: list[FloatArray] = []
        self.out_gain: list[FloatArray] = []
        self.out_next: list[FloatArray] = []
        for ins in range(n + 1):
            shape = (levels, max(ins, 1))
            tables = [np.zeros(shape) for _ in range(6)]
            chance = self._outcome_chances(ins)
            for top in range(1, max(ins, 1) + 1):
                for index, outcome in enumerate(OUTCOMES):
                    pay = self.model.payoff(ins, top if ins else 0, outcome)
                    weight = chance[index]
                    for table, amount in zip(
                        tables,
                        (pay.top, pay.next, pay.loser, pay.next, pay.out, pay.next),
                        strict=True,
                    ):
                        table[:, top - 1] += weight * amount
            top_gain, top_next, lose_gain, lose_next, out_gain, out_next = tables
            self.top_gain.append(top_gain)
            self.top_next.append(top_next)
            self.lose_gain.append(lose_gain)
            self.lose_next.append(lose_next)
            self.out_gain.append(out_gain)
            self.out_next.append(out_next)
        self.packed = np.zeros((6, n + 1, levels, n))
        named = (
            self.top_gain, self.top_next, self.lose_gain,
            self.lose_next, self.out_gain, self.out_next,
        )  # fmt: skip
        for k, kind in enumerate(named):
            for count, rows in enumerate(kind):
                self.packed[k, count, :, : rows.shape[1]] = rows

    def _outcome_chances(self, ins: int) -> FloatArray:
        """(players, ghost, push) chances per strength level of the best hand in."""
        m = self.model
        levels = self.levels
        chances = np.zeros((3, levels))
        if ins == 1 and m.qualifier:
            qualifies = self._qualifies()
            chances[0], chances[1] = qualifies, 1.0 - qualifies
            return chances
        if not m.ghost_plays(ins):
            chances[0] = 1.0
            return chances
        below = np.cumsum(self.level_prior) - self.level_prior
        tie = self.level_prior
        above = 1.0 - below - tie
        chances[0], chances[1] = below, above
        ties = m.ghost_ties.value
        chances[{"players-win": 0, "ghost-wins": 1, "push": 2}[ties]] += tie
        return chances

    def _qualifies(self) -> FloatArray:
        return qualifying_levels(self.classes)

    def _pair_tables(self) -> None:
        cond = self.classes.conditional()
        mine, theirs = self.level[:, None], self.level[None, :]
        self.cond = cond
        self.cond_below = cond * (theirs < mine)
        self.cond_tie = cond * (theirs == mine)
        self.cond_above = cond * (theirs > mine)

    # -- counterfactual values ----------------------------------------------------------

    def counterfactual(
        self, strategy: list[FloatArray], values: FloatArray, position: int | None = None
    ) -> list[FloatArray]:
        """``cv[p][history, action, h]``: position ``p``'s expected gain for out (0) and
        in (1) with class ``h``, weighted by the chance of the others' declarations
        (with ``position``, only that position's are sure to be filled in). With No Peek
        a player declares before looking, so every class of a history is one information
        set: its values are the chance-weighted means over the classes."""
        carry = self.continuation(values)
        cv = self._values(strategy, carry, position)
        if self.model.no_peek:  # one information set for every hand: pool them
            cv = [np.repeat((c @ self.prior)[..., None], len(self.level), axis=-1) for c in cv]
        return cv

    def _values(
        self, strategy: list[FloatArray], carry: FloatArray, position: int | None
    ) -> list[FloatArray]:
        n = self.players
        kernel = _compiled() if self._compiled_fits() else None
        if kernel is not None:
            padded = np.zeros((n, max(map(len, strategy)), len(self.level)))
            for p, s in enumerate(strategy):
                padded[p, : len(s)] = s
            leaves, rows, before = self._leaf_rows
            single = np.array([float(self.model.single_loser), *self._single_terms()])
            found = kernel(
                padded, leaves, rows, before, self.level, self.prior, self.levels, carry,
                self.packed, single, self._everyone_out,
            )  # fmt: skip
            return [found[p, : self.histories(p)] for p in range(n)]
        cv = [np.zeros((self.histories(p), 2, len(self.level))) for p in range(n)]
        for ins in self.leaves():
            chances = [self._chance(strategy, j, ins) for j in range(n)]
            members = [j for j in range(n) if ins >> j & 1]
            if self.exact:
                self._pair_leaf(cv, ins, chances, members, carry, position)
            else:
                self._leaf(cv, ins, chances, members, carry)
        return cv

    def leaves(self) -> list[int]:
        """Every leaf of the deal, as the set of players in (a bit each): all of them
        but nobody in when the dealer is in automatically then."""
        auto = self.model.in_turn and self.model.auto_in
        return [ins for ins in range(1 << self.players) if ins or not auto]

    @cached_property
    def _leaf_rows(self) -> tuple[IntArray, IntArray, IntArray]:
        """For the compiled kernel: the leaves, each player's row on the way to each, and
        the row where it went out earlier on that way (-1: none)."""
        leaves = self.leaves()
        n = self.players
        rows = [[self.history(j, ins) for j in range(n)] for ins in leaves]
        before = [[self._went_out(j, ins) for j in range(n)] for ins in leaves]
        as_ints = (np.array(x, dtype=np.int64) for x in (leaves, rows, before))
        leaf_array, row_array, before_array = as_ints
        return leaf_array, row_array, before_array

    def _went_out(self, position: int, ins: int) -> int:
        """The row where ``position`` went out earlier on the way to leaf ``ins`` (-1:
        it declares once)."""
        return -1

    def _compiled_fits(self) -> bool:
        """Whether the compiled kernel computes these values (independent hands)."""
        return not self.exact

    @cached_property
    def _everyone_out(self) -> FloatArray:
        """``[:, k]``: a payer's gain, the others' and the next pot when nobody is in
        and ``k`` best hands pay (no columns when nobody pays then)."""
        m = self.model
        if not m.best_pays:
            return np.zeros((3, 0))
        pays = [m.everyone_out(k) for k in range(self.players + 1)]
        return np.array([[x.top for x in pays], [x.out for x in pays], [x.next for x in pays]])

    def _chance(self, strategy: list[FloatArray], position: int, ins: int) -> FloatArray:
        p_in: FloatArray = strategy[position][self.history(position, ins)]
        return p_in if ins >> position & 1 else 1.0 - p_in

    def _leaf(
        self,
        cv: list[FloatArray],
        ins: int,
        chances: list[FloatArray],
        members: list[int],
        carry: FloatArray,
    ) -> None:
        dists = (np.stack(chances) * self.prior) @ self.onehot  # (players, levels)
        mass = dists.sum(axis=1)
        count = len(members)
        for p in range(self.players):
            outs = np.prod([mass[j] for j in range(self.players) if j != p and j not in members])
            history = self.history(p, ins)
            single = self.model.single_loser and count >= 2
            if p in members:
                others = [dists[j] for j in members if j != p]
                value = (
                    self._single_in(others, carry[p])
                    if single
                    else self._in_value(others, count, carry[p])
                )
                cv[p][history, 1] += (value * outs)[self.level]
            elif not members and self.model.best_pays:  # the best hands pay (Henry, wimp)
                others = [dists[j] for j in range(self.players) if j != p]
                cv[p][history, 0] += self._all_out_value(others, carry[p])[self.level]
            else:
                members_dists = list(dists[members])
                out = (
                    self._single_out(members_dists, carry[p])
                    if single
                    else self._out_value(dists[members], count, carry[p])
                )
                cv[p][history, 0] += out * outs

    def _all_out_value(self, others: list[FloatArray], carry: float) -> FloatArray:
        """Nobody in, and the best hands pay (Henry, wimp): my gain per strength level
        of my hand, the others' hands weighted by their chance of going out: alone
        best I pay, tied for best with ``w`` others all of us pay, below the best the
        ``w`` best hands pay, and the next pot counts the payers."""
        poly = _best_counts(others, self.levels)  # [b, w]: all at most b, w of them at b
        top, out, following = self._everyone_out
        pay, free = top + carry * following, out + carry * following
        alone = poly[:, 0] * pay[1]  # every other hand below mine
        tied = poly[:, 1:] @ pay[2:]  # w others at my level: w + 1 pay
        beaten = poly[:, 1:] @ free[1 : len(others) + 1]  # the best others at b: w pay
        above = np.cumsum(beaten[::-1])[::-1] - beaten
        return np.asarray(alone + tied + above)

    def _single_terms(self) -> tuple[float, float, float, float, float]:
        """Single loser: (A0, A1, fee, skip, stake) with the next pot ``A0 + A1 *
        payers`` when the session goes on, each player's ante ``fee`` (waived for a payer
        if skip) and what each payer pays (worst-doubles: two pots)."""
        m = self.model
        fee = m.ante_share if m.ante_every_deal else 0.0
        skip = 1.0 if m.matcher_skips_ante else 0.0
        return fee * m.players, m.stake - fee * skip, fee, skip, m.stake

    def _single_in(self, others: list[FloatArray], carry: float) -> FloatArray:
        """Single loser, my hand in with ``others`` in: my expected gain per level (the
        best hands share the pot, only the worst pay, the payers make the next pot)."""
        a0, a1, fee, skip, stake = self._single_terms()
        poly = _best_counts(others, self.levels)
        share = (poly / np.arange(1, poly.shape[1] + 1)).sum(axis=1)
        tails = [np.cumsum(d[::-1])[::-1] for d in others]
        every_tail = np.prod(tails, axis=0)
        all_here = np.prod(others, axis=0)
        total = float(np.prod([d.sum() for d in others]))
        pays = every_tail - all_here
        goes_on = total - all_here
        others_pay = np.zeros(self.levels)
        for j, d in enumerate(others):
            rest_tail = np.prod([t for k, t in enumerate(tails) if k != j], axis=0)
            rest_here = np.prod([e for k, e in enumerate(others) if k != j], axis=0)
            below = np.cumsum(d * rest_tail) - d * rest_tail
            others_pay += below + d * (rest_tail - rest_here)
        next_pot = a0 * goes_on + a1 * (pays + others_pay)
        value = share - stake * pays + carry * next_pot - fee * goes_on + fee * skip * pays
        return np.asarray(value)

    def _single_out(self, members: list[FloatArray], carry: float) -> float:
        """Single loser, me out while ``members`` (two or more) are in."""
        a0, a1, fee, _, _ = self._single_terms()
        tails = [np.cumsum(d[::-1])[::-1] for d in members]
        total = float(np.prod([d.sum() for d in members]))
        goes_on = total - float(np.prod(members, axis=0).sum())
        payers = 0.0
        for j, d in enumerate(members):
            rest_tail = np.prod([t for k, t in enumerate(tails) if k != j], axis=0)
            rest_here = np.prod([e for k, e in enumerate(members) if k != j], axis=0)
            payers += float((d * (rest_tail - rest_here)).sum())
        return carry * (a0 * goes_on + a1 * payers) - fee * goes_on

    def _in_value(self, others: list[FloatArray], count: int, carry: float) -> FloatArray:
        """Per strength level of my hand: my expected gain when in with ``others`` (their
        strength distributions, weighted by their chance of being in)."""
        poly = _best_counts(others, self.levels)
        top = (poly * (self.top_gain[count] + carry * self.top_next[count])).sum(axis=1)
        if count == 1:
            return np.asarray(top)
        lose = self.lose_gain[count][:, :-1] + carry * self.lose_next[count][:, :-1]
        beaten = (poly[:, 1:] * lose).sum(axis=1)
        above = np.cumsum(beaten[::-1])[::-1] - beaten
        return np.asarray(top + above)

    def _out_value(self, members: FloatArray, count: int, carry: float) -> float:
        """My expected gain when out while ``members`` are in."""
        if count == 0:
            return float(self.out_gain[0][0, 0] + carry * self.out_next[0][0, 0])
        poly = _best_counts(list(members), self.levels)
        gain = self.out_gain[count] + carry * self.out_next[count]
        return float((poly[:, 1:] * gain).sum())

    def _pair_leaf(
        self,
        cv: list[FloatArray],
        ins: int,
        chances: list[FloatArray],
        members: list[int],
        carry: FloatArray,
        position: int | None = None,
    ) -> None:
        level = self.level
        for p in (0, 1) if position is None else (position,):
            other = chances[1 - p]
            history = self.history(p, ins)
            c = carry[p]
            if p in members and len(members) == 2:
                top = (self.cond_below @ other) * (
                    self.top_gain[2][:, 0] + c * self.top_next[2][:, 0]
                )[level]
                top += (self.cond_tie @ other) * (
                    self.top_gain[2][:, 1] + c * self.top_next[2][:, 1]
                )[level]
                lose = (self.lose_gain[2][:, 0] + c * self.lose_next[2][:, 0])[level]
                cv[p][history, 1] += top + self.cond_above @ (other * lose)
            elif p in members:
                alone = (self.top_gain[1][:, 0] + c * self.top_next[1][:, 0])[level]
                cv[p][history, 1] += (self.cond @ other) * alone
            elif members:
                gain = (self.out_gain[1][:, 0] + c * self.out_next[1][:, 0])[level]
                cv[p][history, 0] += self.cond @ (other * gain)
            elif self.model.best_pays:  # nobody in, the best hands pay (Henry, wimp)
                one, both = self.model.everyone_out(1), self.model.everyone_out(2)
                cv[p][history, 0] += (
                    (self.cond_below @ other) * (one.top + c * one.next)
                    + (self.cond_tie @ other) * (both.top + c * both.next)
                    + (self.cond_above @ other) * (one.out + c * one.next)
                )
            else:
                gain0 = float(self.out_gain[0][0, 0] + c * self.out_next[0][0, 0])
                cv[p][history, 0] += (self.cond @ other) * gain0

    def history_chance(self, cls: int, weights: list[FloatArray]) -> float:
        """The chance of the earlier positions' declarations (``weights``: each one's
        chance per class), given my class ``cls``."""
        return float(self.history_chances(weights)[cls])

    def history_chances(self, weights: list[FloatArray]) -> FloatArray:
        """:meth:`history_chance` for every class of mine at once (heads-up with card
        removal; with hands independent, the same for every class)."""
        chance = np.ones(len(self.level))
        for weight in weights:
            chance = chance * (self.cond @ weight if self.exact else weight @ self.prior)
        return chance

    # -- values and best responses ------------------------------------------------------

    def growth(self, strategy: list[FloatArray]) -> float:
        """The expected next pot, in units of this one, when everyone plays ``strategy``."""
        zero, one = np.zeros(self.players), np.ones(self.players)
        base = self.values(strategy, self.counterfactual(strategy, zero))[0]
        return float((self.values(strategy, self.counterfactual(strategy, one))[0] - base)[0])

    def fixed_point(self, strategy: list[FloatArray]) -> FloatArray:
        """The continuation values ``v`` with ``v = values(strategy, v)``: each position's
        value is what it wins this deal, ``a``, plus the expected next pot ``m`` times the
        value of the position it moves to, so ``v = (I - m S)^-1 a`` (``S`` the move of the
        button), solved directly rather than iterated (iterating diverges when ``m`` > 1)."""
        n = self.players
        zero = np.zeros(n)
        now = self.values(strategy, self.counterfactual(strategy, zero))[0]
        growth = self.growth(strategy)
        shift = np.roll(np.eye(n), -1, axis=1)  # (S v)[p] = v[p - 1], where p moves to
        return np.asarray(np.linalg.solve(np.eye(n) - growth * shift, now), dtype=np.float64)

    def values(
        self, strategy: list[FloatArray], cv: list[FloatArray]
    ) -> tuple[FloatArray, FloatArray]:
        """(each position's expected gain under ``strategy``, its best response's)."""
        n = self.players
        mine, best = np.zeros(n), np.zeros(n)
        for p in range(n):
            s, out, inn, best_out = self._choices(strategy, cv, p)
            played = s * inn + (1.0 - s) * out
            top = np.maximum(inn, best_out)
            if self.forced(p, 0):
                played[0] = top[0] = inn[0]
            mine[p] = float((played @ self.prior).sum())
            best[p] = float((top @ self.prior).sum())
        return mine, best

    def _choices(
        self, strategy: list[FloatArray], cv: list[FloatArray], position: int
    ) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
        """The information sets a best response of ``position`` chooses at: the strategy
        there, the values of out and in, and of out for a best response (each position
        declares once: all of its sets, out the same)."""
        out = cv[position][:, 0]
        return strategy[position], out, cv[position][:, 1], out


def qualifying_levels(classes: HandClasses) -> FloatArray:
    """Per strength level: 1 if its hands are a pair or better (the lone qualifier)."""
    from guts.rankings.base import Category

    ranking = classes.ranking
    order = () if ranking is None else ranking.categories()
    if ranking is None or Category.PAIR not in order:
        return np.zeros(classes.levels)
    first_class = np.unique(classes.level, return_index=True)[1]
    first_hand = np.unique(classes.of_hand, return_index=True)[1]
    category = ranking.category_batch(classes.hands[first_hand[first_class]])
    return np.asarray(category <= order.index(Category.PAIR), dtype=np.float64)


def _compiled() -> Callable[..., FloatArray] | None:
    """The compiled counterfactual kernel, or None without numba (or with
    ``GUTS_KERNELS=numpy``)."""
    import os

    if os.environ.get("GUTS_KERNELS", "").lower() == "numpy":
        return None
    try:
        from guts.solve.compiled import counterfactual
    except ImportError:
        return None
    return counterfactual


def _best_counts(dists: list[FloatArray], levels: int) -> FloatArray:
    """``poly[b, w]``: the chance that every hand of ``dists`` is at most level ``b`` and
    exactly ``w`` of them are at ``b`` (each distribution weighted by its chance of being
    in, so unnormalized)."""
    poly = np.ones((levels, 1))
    for dist in dists:
        below = np.cumsum(dist) - dist
        grown = np.zeros((levels, poly.shape[1] + 1))
        grown[:, :-1] += poly * below[:, None]
        grown[:, 1:] += poly * dist[:, None]
        poly = grown
    return poly


def _matching(regret_in: FloatArray, regret_out: FloatArray) -> FloatArray:
    plus_in, plus_out = np.maximum(regret_in, 0.0), np.maximum(regret_out, 0.0)
    total = plus_in + plus_out
    return np.where(total > 0, plus_in / np.where(total > 0, total, 1.0), 0.5)


def solve_deal(
    deal: Deal,
    iterations: int,
    *,
    tolerance: float = 0.0,
    refresh: int = 10,
    progress: Progress | None = None,
    values: FloatArray | None = None,
    report: Callable[[int, float, float, float], None] | None = None,
    session: bool = True,
) -> Result:
    """Run up to ``iterations`` of discounted CFR on ``deal``, stopping early once the
    exploitability, the fixed-point residual and, where it is defined, the whole-session
    exploitability (:func:`guts.solve.session.session_gains`; not with ``session``
    False, as for a pot of a pot cap's chain, whose next pots are other deals) are all at
    most ``tolerance``. The continuation values start at ``values`` (an equal share each when
    None) and are the average strategy's fixed point every ``refresh`` iterations; ``report(t,
    exploitability, residual, seconds)`` hears of each such step."""
    start = time.perf_counter()
    n = deal.players
    v = np.full(n, 1.0 / n) if values is None else np.asarray(values, dtype=np.float64)
    strategy = deal.uniform()
    regret_in = [np.zeros_like(s) for s in strategy]
    regret_out = [np.zeros_like(s) for s in strategy]
    total = [np.zeros_like(s) for s in strategy]
    weight = 0.0
    average = deal.uniform()
    done = 0
    for t in range(1, iterations + 1):
        done = t
        scale = ((t - 1) / t) ** _GAMMA
        weight = weight * scale + 1.0
        for p in range(n):  # alternating updates: each position answers the latest others
            mine_cv = deal.counterfactual(strategy, v, p)[p]
            total[p] = total[p] * scale + strategy[p]
            played = strategy[p] * mine_cv[:, 1] + (1.0 - strategy[p]) * mine_cv[:, 0]
            _discount(regret_in[p], t - 1)
            _discount(regret_out[p], t - 1)
            regret_in[p] += mine_cv[:, 1] - played
            regret_out[p] += mine_cv[:, 0] - played
            strategy[p] = _matching(regret_in[p], regret_out[p])
            deal.force(strategy)
        if progress is not None:
            progress(t, iterations)
        if t % refresh == 0 or t == iterations:
            average = deal.force([s / weight for s in total])
            mine, best = deal.values(average, deal.counterfactual(average, v))
            gap, residual = (best - mine).sum() / n, np.abs(mine - v).max()
            if report is not None:
                report(t, float(gap), float(residual), time.perf_counter() - start)
            if max(gap, residual) <= tolerance:
                gains = session_gains(deal, average) if session else None
                if gains is None or gains.sum() / n <= tolerance:
                    break
            v = deal.fixed_point(average)
    cv = deal.counterfactual(average, v)
    mine, best = deal.values(average, cv)
    whole = session_gains(deal, average) if session else None
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


def _discount(regret: FloatArray, t: int) -> None:
    positive = t**_ALPHA / (t**_ALPHA + 1.0)
    negative = t**_BETA / (t**_BETA + 1.0)
    np.multiply(regret, np.where(regret > 0, positive, negative), out=regret)
