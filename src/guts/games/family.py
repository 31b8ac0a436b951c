"""A game family as one typed object: its presets, its rules and its session.

Each family package (``guts.games.guts``, ``staged``, ``draw``, ``bourre``) exposes a
:class:`Family` as ``FAMILY``; :mod:`guts.catalog` lists them. A reader (and the type
checker) follows a session from a preset's name to its deal through this one interface:
``family.rules(preset, options)`` gives the rules, ``family.new_session(preset, players)``
a session of the family's class, and ``family.replay(record)`` rebuilds one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any, Generic, Protocol, TypeVar

from guts.games.options import RuleOptions
from guts.games.session import RecordedSession

__all__ = ["Family", "SessionClass"]

RulesT = TypeVar("RulesT", bound=RuleOptions)
SessionT = TypeVar("SessionT", bound=RecordedSession[Any, Any])
SessionT_co = TypeVar("SessionT_co", bound=RecordedSession[Any, Any], covariant=True)


class SessionClass(Protocol[SessionT_co]):
    """What every family's session class offers: one constructor and ``replay``."""

    def __call__(
        self,
        rules: Any,
        players: Sequence[str | tuple[str, int]],
        *,
        buy_in: int = 0,
        rng: Random | None = None,
        button: int = 0,
    ) -> SessionT_co:
        """A new session of ``rules`` for ``players``."""
        ...

    def replay(self, record: Mapping[str, Any]) -> SessionT_co:
        """The session a record describes, every event checked."""
        ...


@dataclass(frozen=True)
class Family(Generic[RulesT, SessionT]):
    """One family of games: ``presets`` (name -> (rules, one-line description)) of the
    rules class ``rules_class``, played by sessions of ``session_class``."""

    name: str
    rules_class: type[RulesT]
    presets: Mapping[str, tuple[RulesT, str]]
    session_class: SessionClass[SessionT]

    def rules(self, preset: str, options: Mapping[str, str] | None = None) -> RulesT:
        """The rules of ``preset`` with ``options`` (name -> string) applied; OptionError
        names an unknown preset or a bad option."""
        return self.rules_class.from_preset(self.presets, preset, options)

    def new_session(
        self,
        preset: str,
        players: Sequence[str | tuple[str, int]],
        *,
        options: Mapping[str, str] | None = None,
        buy_in: int = 0,
        rng: Random | None = None,
        button: int = 0,
    ) -> SessionT:
        """A session of ``preset`` (with ``options``) for ``players``: names bought in for
        ``buy_in`` or ``(name, chips)`` pairs; ``button`` is the first dealer."""
        rules = self.rules(preset, options)
        return self.session_class(rules, list(players), buy_in=buy_in, rng=rng, button=button)

    def replay(self, record: Mapping[str, Any]) -> SessionT:
        """Rebuild a recorded session (checks that every event replays)."""
        return self.session_class.replay(record)
