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

__all__ = ["session_gains"]

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
    deviator = own.copy()
    for _ in range(steps):
        carry = np.roll(deviator, 1)  # position p moves to p - 1
        cv = [a + c * s for a, s, c in zip(zero, slope, carry, strict=True)]
        best = np.asarray(deal.values(strategy, cv)[1], dtype=np.float64)
        if not np.all(np.isfinite(best)) or np.abs(best).max() > 1e6:
            return None
        if np.abs(best - deviator).max() <= tolerance:
            return np.asarray(best - own, dtype=np.float64)
        deviator = best
    return None
