"""The one interface every bot offers, :class:`Policy`, and the bots every family shares.

A policy chooses one of a :class:`~guts.games.base.Decision`'s actions from the seat's
view alone (and a random source); it is never handed the session. A family's own bots
(in its package's ``bots`` module) are policies, or are wrapped in :class:`ViewOnly`.
"""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any, Protocol

from guts.games.base import Decision

__all__ = ["Policy", "RandomPolicy", "ViewOnly"]


class Policy(Protocol):
    """A bot: one of ``decision.actions``, chosen from the seat's view alone."""

    def choose(self, view: Mapping[str, Any], decision: Decision, rng: Random) -> str:
        """The action to take."""
        ...


class RandomPolicy:
    """Any legal action, uniformly at random.

    >>> RandomPolicy().choose({}, Decision.choose(0, ("in", "out")), Random(1)) in ("in", "out")
    True
    """

    def choose(self, view: Mapping[str, Any], decision: Decision, rng: Random) -> str:
        """A uniformly random legal action."""
        return rng.choice(decision.actions)


class ViewOnly:
    """A :class:`Policy` around a family bot that reads everything from the view
    (``choose(view)``)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    def choose(self, view: Mapping[str, Any], decision: Decision, rng: Random) -> str:
        """The wrapped bot's action."""
        return str(self.bot.choose(view))
