"""Equilibrium strategies for the Guts family: ``guts solve``.

:func:`solve` builds the recursive one-deal model of a preset (:mod:`guts.solve.model`),
its hand classes (:mod:`guts.solve.hands`), and runs discounted CFR with the pot's
continuation value as a fixed point (:mod:`guts.solve.cfr`); the :class:`Solution` says
the strategy by position and history in words, the EV per position and the
exploitability (Hi-Lo: :mod:`guts.solve.hilo`, three or more players
:mod:`guts.solve.hilo_many`, a :class:`~guts.solve.hilo_solution.HiLoSolution`; a pot cap
or limit: the chain of pots of :mod:`guts.solve.chain`, a
:class:`~guts.solve.chain.ChainSolution`). ``docs/solve.md`` states the model and its
assumptions.
"""

from __future__ import annotations

from guts.solve.cache import cache_dir
from guts.solve.solution import Solution
from guts.solve.solving import AnySolution, solve, solve_rules

__all__ = ["AnySolution", "Solution", "cache_dir", "solve", "solve_rules"]
