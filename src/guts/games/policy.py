"""The one interface every bot offers, :class:`Policy`, and the bots every family shares.

A policy chooses one of a :class:`~guts.games.base.Decision`'s actions from the seat's
view alone (and a random source); it is never handed the session. A family's own bots
(in its package's ``bots`` module) are policies, or bots that read everything from the
view (:class:`ViewBot`, such as :class:`RandomBot`) wrapped in :class:`ViewOnly`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from random import Random
from typing import Any, Protocol

from guts.games.base import Decision

__all__ = ["Policy", "RandomBot", "RandomPolicy", "ViewBot", "ViewOnly"]


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


class ViewBot(Protocol):
    """A family's bot that reads everything from the seat's view."""

    def choose(self, view: Mapping[str, Any]) -> str:
        """One of the seat's legal actions (``view["pending"][0]["actions"]`` lists some)."""
        ...


class RandomBot:
    """A :class:`ViewBot` that takes any of :meth:`actions`, uniformly.

    >>> RandomBot(Random(1)).choose({"pending": [{"actions": ["in", "out"]}]}) in ("in", "out")
    True
    """

    def __init__(self, rng: Random | None = None) -> None:
        self.rng = rng if rng is not None else Random()

    def actions(self, view: Mapping[str, Any]) -> Sequence[str]:
        """What it picks among: the actions the view lists for the seat (a family whose
        list leaves out legal actions, or names some it may not take, says which)."""
        actions: Sequence[str] = view["pending"][0]["actions"]
        return actions

    def choose(self, view: Mapping[str, Any]) -> str:
        """A uniformly random one of :meth:`actions`."""
        return str(self.rng.choice(list(self.actions(view))))


class ViewOnly:
    """A :class:`Policy` around a :class:`ViewBot`."""

    def __init__(self, bot: ViewBot) -> None:
        self.bot = bot

    def choose(self, view: Mapping[str, Any], decision: Decision, rng: Random) -> str:
        """The wrapped bot's action."""
        return str(self.bot.choose(view))
