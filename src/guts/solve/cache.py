"""The disk cache of solved strategies (``guts solve``): one compressed numpy file per
preset, options, player count and solving budget, written atomically; a file that cannot
be read is no cache.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path

import numpy as np

from guts.games.guts.rules import GutsRules
from guts.solve.cfr import Result

__all__ = ["MODEL_VERSION", "cache_dir", "cached", "key", "load", "store"]

MODEL_VERSION = 4
"""Bumped whenever the model or the solver changes what a cached solution holds."""


def cache_dir() -> Path:
    """Where solved strategies are kept: ``$GUTS_CACHE_DIR/solve`` or the user cache
    directory (platformdirs)."""
    base = os.environ.get("GUTS_CACHE_DIR")
    if not base:
        import platformdirs

        base = platformdirs.user_cache_dir("guts")
    return Path(base) / "solve"


def key(rules: GutsRules, players: int, iterations: int, tolerance: float, part: str = "") -> str:
    """The file name of a solve of ``rules`` for ``players`` with this budget (``part``:
    one state of a solve in several, such as a pot of the pot cap's chain)."""
    facts: list[object] = [MODEL_VERSION, rules.to_options(), players, iterations, tolerance]
    text = json.dumps([*facts, part] if part else facts, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def load(key: str, players: int) -> Result | None:
    path = cache_dir() / f"{key}.npz"
    try:
        with np.load(path) as data:
            return Result(
                strategy=[np.asarray(data[f"strategy{p}"]) for p in range(players)],
                values=np.asarray(data["values"]),
                continuation=np.asarray(data["continuation"]),
                nash_conv=float(data["nash_conv"]),
                residual=float(data["residual"]),
                iterations=int(data["iterations"]),
                seconds=float(data["seconds"]),
                session_nash_conv=float(data["session_nash_conv"]),
            )
    except (OSError, KeyError, ValueError):
        return None


def store(key: str, result: Result) -> None:
    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        arrays = {f"strategy{p}": s for p, s in enumerate(result.strategy)}
        partial = folder / f"{key}.{os.getpid()}.tmp.npz"
        arrays["values"] = result.values
        arrays["continuation"] = result.continuation
        for name in ("nash_conv", "residual", "iterations", "seconds", "session_nash_conv"):
            arrays[name] = np.asarray(getattr(result, name))
        np.savez_compressed(partial, allow_pickle=False, **arrays)
        partial.replace(folder / f"{key}.npz")
    except OSError:
        pass  # a cache that cannot be written is no cache


def cached(
    rules: GutsRules, players: int, iterations: int, tolerance: float, use: bool,
    solve: Callable[[], Result], part: str = "",
) -> Result:  # fmt: skip
    """The result of ``solve()`` for these rules, players and budget (and ``part``): read
    from the cache (when ``use``), else solved and kept."""
    name = key(rules, players, iterations, tolerance, part)
    result = load(name, players) if use else None
    if result is None:
        result = solve()
        if use:
            store(name, result)
    return result
