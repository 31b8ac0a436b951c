"""Solutions shipped with the package (``guts/solve/solved/*.npz``): the sampled
real-game solves that the presets' default rules take minutes of CPU to find (two-card
Guts for four to seven players), solved once by ``python -m guts.solve.ship`` and read
instead of solving where a request matches one exactly.

Each file is named by its disk-cache key (:func:`guts.solve.cache.key`: the model's
version, the rules' options, the players, the iteration budget, the tolerance and the
sampled deals) and holds what the cache holds, plus its provenance as JSON: what was
solved and how (preset, options, players, deals and their seed, iterations), and what it
measured (the real game's exploitability bracket on other deals, the whole session's).
A file whose provenance no longer gives its own name (the model's version changed, or
the file was renamed) is stale: never read.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from guts.games.guts.rules import GutsRules
from guts.solve import cache
from guts.solve.cfr import Result

__all__ = ["FOLDER", "files", "key_of", "load", "provenance", "stale", "write"]

FOLDER = Path(__file__).with_name("solved")
"""Where the shipped solutions are (package data)."""


def files() -> list[Path]:
    """Every shipped solution, current or stale."""
    return sorted(FOLDER.glob("*.npz"))


def provenance(path: Path) -> dict[str, Any]:
    """What a shipped file records about its solve and its measures (``{}`` if none)."""
    try:
        with np.load(path) as data:
            found = json.loads(str(data["provenance"]))
    except (OSError, KeyError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def key_of(facts: dict[str, Any]) -> str:
    """The cache key of the solve that ``facts`` (a provenance) describes, under the
    current model version."""
    rules = GutsRules.from_options(GutsRules(), facts["options"])
    return cache.key(rules, facts["players"], facts["iterations_budget"], facts["tolerance"],
                     facts["part"])  # fmt: skip


def stale(path: Path) -> bool:
    """Whether a shipped file must not be read: no provenance, another model version, or
    a provenance whose key is not the file's name."""
    facts = provenance(path)
    try:
        current = facts["model_version"] == cache.MODEL_VERSION and key_of(facts) == path.stem
    except (KeyError, TypeError, ValueError):
        return True
    return not current


def load(key: str, players: int) -> Result | None:
    """The shipped solution of the solve keyed ``key`` (:func:`guts.solve.cache.key`), or
    None where none is shipped or it is stale."""
    path = FOLDER / f"{key}.npz"
    if not path.is_file() or stale(path):
        return None
    return cache.load(key, players, FOLDER)


def write(key: str, result: Result, facts: dict[str, Any], folder: Path = FOLDER) -> Path:
    """Ship ``result`` under ``key`` with its provenance ``facts`` (the model's version and
    the key are added)."""
    recorded = {**facts, "model_version": cache.MODEL_VERSION, "key": key}
    arrays = cache.arrays_of(result)
    arrays["provenance"] = np.asarray(json.dumps(recorded, sort_keys=True))
    path = folder / f"{key}.npz"
    cache.write(path, arrays)
    return path
