"""Every playable game by name: the presets of each family, and the one list of families.

Each family is one typed :class:`~guts.games.family.Family` (its presets, rules, session,
bots, words, encodings, outcomes, what the server and the page need of it), built in its
own package and registered here by one line of :data:`REGISTERED`; a :class:`Game` is one
preset of one family. Everything outside a family's package finds the family here
(:func:`family_of`), never by its name.

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
from random import Random
from typing import Any

from guts.errors import OptionError
from guts.games.bourre.presets import FAMILY as BOURRE
from guts.games.draw.presets import FAMILY as DRAW
from guts.games.family import Family
from guts.games.fantan.presets import FAMILY as FANTAN
from guts.games.guts.presets import FAMILY as GUTS
from guts.games.options import RuleOptions
from guts.games.session import RecordedSession
from guts.games.staged.presets import FAMILY as STAGED

__all__ = [
    "FAMILIES",
    "REGISTERED",
    "Game",
    "family_of",
    "find_game",
    "games",
    "register",
    "replay_record",
]

AnyFamily = Family[Any, Any]

REGISTERED: tuple[AnyFamily, ...] = (
    GUTS,
    STAGED,
    DRAW,
    BOURRE,
    FANTAN,
)
"""Every family, one line each, in the order the lobby and the catalog list them."""

FAMILIES: dict[str, AnyFamily] = {family.name: family for family in REGISTERED}
"""Family name -> the family."""


def register(family: AnyFamily) -> None:
    """Add ``family`` to :data:`FAMILIES` (for a family built outside ``guts``, as a test
    does); a name already taken is an OptionError."""
    if family.name in FAMILIES:
        raise OptionError(f"a family called {family.name!r} is registered already")
    FAMILIES[family.name] = family
    games.cache_clear()


def family_of(name: str) -> AnyFamily:
    """The family called ``name``; OptionError names the families."""
    try:
        return FAMILIES[name]
    except KeyError:
        allowed = ", ".join(FAMILIES)
        raise OptionError(f"unknown game family {name!r}: expected one of {allowed}") from None


@dataclass(frozen=True)
class Game:
    """One preset of one family."""

    name: str
    family: str
    description: str

    @property
    def games_family(self) -> AnyFamily:
        """The family this preset belongs to."""
        return FAMILIES[self.family]

    def rules(self, options: Mapping[str, str] | None = None) -> RuleOptions:
        """This game's rules with ``options`` applied (OptionError names bad ones)."""
        rules: RuleOptions = self.games_family.rules(self.name, dict(options or {}))
        return rules

    def new_session(
        self,
        players: Sequence[str | tuple[str, int]],
        *,
        options: Mapping[str, str] | None = None,
        buy_in: int = 0,
        rng: Random | None = None,
    ) -> RecordedSession[Any, Any]:
        """A new session of this game for ``players``."""
        session: RecordedSession[Any, Any] = self.games_family.new_session(
            self.name, list(players), options=dict(options or {}), buy_in=buy_in, rng=rng
        )
        return session


@cache
def games() -> dict[str, Game]:
    """Every preset of every family, by name."""
    return {
        name: Game(name, family.name, description)
        for family in FAMILIES.values()
        for name, (_, description) in family.presets.items()
    }


def find_game(name: str) -> Game:
    """The game called ``name``; an unknown name is an OptionError listing the games."""
    try:
        return games()[name]
    except KeyError:
        allowed = ", ".join(games())
        raise OptionError(f"unknown game {name!r}: expected one of {allowed}") from None


def replay_record(record: Mapping[str, Any]) -> RecordedSession[Any, Any]:
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
    session: RecordedSession[Any, Any] = FAMILIES[family].replay(record)
    return session
