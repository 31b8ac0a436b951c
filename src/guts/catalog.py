"""Every playable game by name: the presets of each family, loaded on first use.

A family package (``guts.games.guts``, ``guts.games.draw``, ...) exposes ``PRESETS``
(name -> (rules, one-line description)), ``preset(name, options)`` returning rules with
``describe()``, and ``new_session(name, players, options=..., buy_in=..., rng=...)``; its
session class has ``record()`` and the classmethod ``replay(record)``.

>>> game = find_game("two-card-guts")
>>> game.family
'guts'
>>> "two-card-guts" in games() and "bourre" in games()
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from random import Random
from types import ModuleType
from typing import Any, Protocol, cast

from guts.errors import OptionError
from guts.games.base import Session

__all__ = ["FAMILIES", "Game", "find_game", "games", "replay_record"]

FAMILIES: dict[str, tuple[str, str]] = {
    "guts": ("guts.games.guts", "GutsSession"),
    "staged": ("guts.games.staged", "StagedSession"),
    "draw": ("guts.games.draw", "DrawSession"),
    "bourre": ("guts.games.bourre", "BourreSession"),
}
"""Family -> (package, session class). A family not yet installed is skipped."""


class Rules(Protocol):
    """What the catalog needs of a family's rules object."""

    def describe(self) -> str:
        """The full rules text, every option with its value."""
        ...


@dataclass(frozen=True)
class Game:
    """One preset of one family."""

    name: str
    family: str
    description: str

    @property
    def module(self) -> ModuleType:
        """The family package."""
        return import_module(FAMILIES[self.family][0])

    def rules(self, options: Mapping[str, str] | None = None) -> Rules:
        """This game's rules with ``options`` applied (OptionError names bad ones)."""
        return cast(Rules, self.module.preset(self.name, dict(options or {})))

    def new_session(
        self,
        players: Sequence[str | tuple[str, int]],
        *,
        options: Mapping[str, str] | None = None,
        buy_in: int = 0,
        rng: Random | None = None,
    ) -> Session:
        """A new session of this game for ``players``."""
        session = self.module.new_session(
            self.name, list(players), options=dict(options or {}), buy_in=buy_in, rng=rng
        )
        return cast(Session, session)


@cache
def games() -> dict[str, Game]:
    """Every preset of every installed family, by name."""
    found: dict[str, Game] = {}
    for family, (package, _) in FAMILIES.items():
        try:
            module = import_module(package)
        except ImportError:
            continue
        presets = getattr(module, "PRESETS", None)
        if presets is None:
            continue
        for name, (_, description) in presets.items():
            found[name] = Game(name, family, description)
    return found


def find_game(name: str) -> Game:
    """The game called ``name``; an unknown name is an OptionError listing the games."""
    try:
        return games()[name]
    except KeyError:
        allowed = ", ".join(games())
        raise OptionError(f"unknown game {name!r}: expected one of {allowed}") from None


def replay_record(record: Mapping[str, Any]) -> Session:
    """Rebuild a recorded session with its family's ``replay`` (checks every event); a
    malformed record raises a GutsError that names what is wrong."""
    if not isinstance(record, Mapping):
        raise OptionError(f"a record must be a JSON object, not {type(record).__name__}")
    family = record.get("game")
    allowed = ", ".join(FAMILIES)
    if not isinstance(family, str):
        raise OptionError(f"the record names no game family: 'game' must be one of {allowed}")
    if family not in FAMILIES:
        raise OptionError(f"unknown game family {family!r} in the record: expected {allowed}")
    package, class_name = FAMILIES[family]
    cls = getattr(import_module(package), class_name)
    return cast(Session, cls.replay(record))
