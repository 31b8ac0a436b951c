"""Thin adapters for research libraries, each imported only by the feature that uses it.

- :mod:`guts.envs.pettingzoo`: PettingZoo environments for every preset, AEC
  (``guts.envs.pettingzoo.env(preset, players, options)``) and parallel
  (``parallel_env``: the seats declaring at once act in one step; the ``envs`` extra);
- :mod:`guts.envs.gymnasium`: a Gymnasium environment for one seat, the others played by
  bots (the ``envs`` extra);
- :mod:`guts.envs.openspiel`: Guts, Three Five Seven (and the other staged games but
  Toh) and Bourré as registered OpenSpiel Python games (the ``openspiel`` extra).

They share :mod:`guts.envs.encoding` (a seat's view as a fixed-size vector, its decision
as a fixed discrete action space) and :mod:`guts.envs.episode` (a session from reset to
an end where the pot is empty).
"""
