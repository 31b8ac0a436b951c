"""Seeds for simulated sessions, split with :class:`numpy.random.SeedSequence`.

Session ``i`` of a run with seed ``s`` draws its randomness from ``SeedSequence(s,
spawn_key=(i,))``, which is the ``i``-th child that ``SeedSequence(s).spawn`` makes: its
streams are statistically independent of every other session's, and depend on nothing
but ``s`` and ``i``, so a session plays out the same whichever worker runs it and however
many there are.

>>> a, b = session_seeds(7, 0), session_seeds(7, 1)
>>> a == session_seeds(7, 0), a != b, len(a)
(True, True, 2)
"""

from __future__ import annotations

from random import Random

import numpy as np

__all__ = ["new_seed", "session_rngs", "session_seeds"]


def new_seed() -> int:
    """Fresh entropy for a run without ``--seed`` (reported, so the run can be repeated)."""
    entropy = np.random.SeedSequence().entropy
    assert isinstance(entropy, int)
    return entropy


def session_seeds(seed: int, index: int) -> tuple[int, int]:
    """Session ``index``'s two 64-bit seeds: one for the deck, one for the bots' choices."""
    if seed < 0 or index < 0:
        raise ValueError(f"seeds and session numbers are not negative: {seed}, {index}")
    words = np.random.SeedSequence(seed, spawn_key=(index,)).generate_state(2, np.uint64)
    return int(words[0]), int(words[1])


def session_rngs(seed: int, index: int) -> tuple[Random, Random]:
    """Session ``index``'s random sources: the deck's and the bots'."""
    deck, bots = session_seeds(seed, index)
    return Random(deck), Random(bots)
