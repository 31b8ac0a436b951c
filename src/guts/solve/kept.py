"""Where a solve's result is found: the user's disk cache (:mod:`guts.solve.cache`), else
the solutions shipped with the package under the same key (:mod:`guts.solve.shipped`),
else it is solved and kept in the cache.
"""

from __future__ import annotations

from collections.abc import Callable

from guts.games.guts.rules import GutsRules
from guts.solve import shipped
from guts.solve.cache import cache_dir, key, load, store
from guts.solve.cfr import Result

__all__ = ["cached", "ready"]


def ready(
    rules: GutsRules, players: int, iterations: int, tolerance: float, part: str = ""
) -> bool:
    """Whether a solve with this key needs no solving: kept in the cache or shipped."""
    name = key(rules, players, iterations, tolerance, part)
    return (cache_dir() / f"{name}.npz").is_file() or shipped.load(name, players) is not None


def cached(
    rules: GutsRules, players: int, iterations: int, tolerance: float, use: bool,
    solve: Callable[[], Result], part: str = "",
) -> Result:  # fmt: skip
    """The result of ``solve()`` for these rules, players and budget (and ``part``): read
    from the cache or the shipped solutions (when ``use``), else solved and kept."""
    name = key(rules, players, iterations, tolerance, part)
    result = (load(name, players) or shipped.load(name, players)) if use else None
    if result is None:
        result = solve()
        if use:
            store(name, result)
    return result
