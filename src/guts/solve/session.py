"""Whole-session exploitability: what a player gains by deviating, with a stationary
strategy of its own, in every deal of the session rather than in one.

The one-deal exploitability (:class:`~guts.solve.cfr.Result`'s ``nash_conv``) holds the
next pots' values fixed at the equilibrium's. A player who deviates for the whole session
changes those too. Its best stationary deviation is found by value iteration on the
recursive game: with ``V[p]`` the deviator's value per pot unit in position ``p`` at the
start of a deal, a deal in position ``p`` pays it its gain plus the next pot (in pots)
times ``V[p - 1]`` (the button moves), so

    V[p] = max over its declarations in position p of  E[gain + next * V[p - 1]],

the best response of the one-deal game whose continuation for position ``p`` is ``V[p -
1]``. The counterfactual values are linear in the continuation, so two evaluations of the
deal give every step. The iteration contracts by the expected next pot (below one where
sessions end); :func:`session_gains` gives ``V - v`` per position (``v`` the profile's own
values), or None where it does not settle (pots that grow on average, winner takes all).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

__all__ = ["cyclic_values", "session_gains", "stationary_best"]

FloatArray = NDArray[np.float64]


def session_gains(
    deal: Any, strategy: list[FloatArray], *, steps: int = 5000, tolerance: float = 1e-13
) -> FloatArray | None:
    """Per position (0: the dealer's left): what a stationary best response over the
    whole session wins beyond the profile's own value, in units of the pot; None where
    the value iteration does not settle in ``steps``. ``deal`` is any of the solver's
    deals (``counterfactual``, ``values``, ``fixed_point``)."""
    n = deal.players
    zero = deal.counterfactual(strategy, np.zeros(n))
    one = deal.counterfactual(strategy, np.ones(n))
    slope = [b - a for a, b in zip(zero, one, strict=True)]
    own = np.asarray(deal.fixed_point(strategy), dtype=np.float64)
    best = stationary_best(deal, strategy, zero, slope, own, steps=steps, tolerance=tolerance)
    return None if best is None else np.asarray(best - own, dtype=np.float64)


def stationary_best(
    deal: Any,
    strategy: list[FloatArray],
    zero: list[FloatArray],
    slope: list[FloatArray],
    start: FloatArray,
    *,
    steps: int = 5000,
    tolerance: float = 1e-13,
) -> FloatArray | None:
    """The values per position of a stationary best response to ``strategy`` over the
    whole session, by value iteration from ``start``, where the counterfactual values
    with every next pot worth ``c`` are ``zero + c * slope`` (per position, as
    :meth:`~guts.solve.cfr.Deal.counterfactual` gives them); None where it does not settle
    in ``steps``."""
    deviator = np.asarray(start, dtype=np.float64).copy()
    for _ in range(steps):
        carry = np.roll(deviator, 1)  # position p moves to p - 1
        cv = [a + c * s for a, s, c in zip(zero, slope, carry, strict=True)]
        best = np.asarray(deal.values(strategy, cv)[1], dtype=np.float64)
        if not np.all(np.isfinite(best)) or np.abs(best).max() > 1e6:
            return None
        if np.abs(best - deviator).max() <= tolerance:
            return best
        deviator = best
    return None


def cyclic_values(now: FloatArray, then: FloatArray) -> FloatArray:
    """The values ``x`` per position of a fixed play whose position ``p`` wins ``now[p]``
    this deal and ``then[p]`` times what the position it moves to is worth: ``x[p] =
    now[p] + then[p] * x[p - 1]``, solved as one linear system."""
    n = len(now)
    moves = np.roll(np.eye(n), -1, axis=1)  # (moves @ x)[p] = x[p - 1]
    system = np.eye(n) - np.asarray(then, dtype=np.float64)[:, None] * moves
    return np.asarray(np.linalg.solve(system, np.asarray(now, dtype=np.float64)))
