"""The disk cache of solved strategies (``guts solve``): one compressed numpy file per
preset, options, player count and solving budget, written atomically; a file that cannot
be read is no cache. :mod:`guts.solve.kept` reads it, and the solutions shipped with the
package, before solving.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from guts.games.guts.rules import GutsRules
from guts.solve.cfr import Result

__all__ = [
    "MODEL_VERSION",
    "arrays_of",
    "cache_dir",
    "key",
    "load",
    "store",
    "write",
]

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


def load(key: str, players: int, folder: Path | None = None) -> Result | None:
    """The result kept under ``key`` in ``folder`` (the cache by default), or None."""
    path = (cache_dir() if folder is None else folder) / f"{key}.npz"
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
                growth=float(data["growth"]) if "growth" in data.files else float("nan"),
                evs=_evs(data, players),
                cpu_seconds=(
                    float(data["cpu_seconds"]) if "cpu_seconds" in data.files else float("nan")
                ),
            )
    except (OSError, KeyError, ValueError):
        return None


def _evs(data: Any, players: int) -> list[np.ndarray] | None:
    """The information sets' EVs kept with a result (float64 again), or None."""
    if "evs0" not in data.files:
        return None
    return [np.asarray(data[f"evs{p}"], dtype=np.float64) for p in range(players)]


def arrays_of(result: Result) -> dict[str, np.ndarray]:
    """What :func:`load` reads back, by name (the information sets' EVs, where kept, in
    single precision: far below a hint's three decimals, and half the bytes)."""
    arrays = {f"strategy{p}": s for p, s in enumerate(result.strategy)}
    if result.evs is not None:
        arrays |= {f"evs{p}": e.astype(np.float32) for p, e in enumerate(result.evs)}
    arrays["values"] = result.values
    arrays["continuation"] = result.continuation
    for name in ("nash_conv", "residual", "iterations", "seconds", "session_nash_conv",
                 "growth", "cpu_seconds"):  # fmt: skip
        arrays[name] = np.asarray(getattr(result, name))
    return arrays


def write(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """Write ``arrays`` to ``path`` (compressed numpy) atomically: through a file beside it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.stem}.{os.getpid()}.tmp.npz")
    np.savez_compressed(partial, allow_pickle=False, **arrays)
    partial.replace(path)


def store(key: str, result: Result) -> None:
    with contextlib.suppress(OSError):  # a cache that cannot be written is no cache
        write(cache_dir() / f"{key}.npz", arrays_of(result))
