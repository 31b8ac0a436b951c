"""Bots at a night: each game's own bots, and a chooser that names a game it may.

:class:`ChooserBot` names the allowed game the night has played least (a mixed night, as
players like it), breaking ties away from the game just played, then at random.
:class:`NightPolicy` is one seat's bot for the whole night: the chooser between games,
and during a game that family's bot of the kind asked for, made when the game begins.

>>> from random import Random
>>> from guts.night import Night, NightRules
>>> night = Night(NightRules(games="two-card-guts,bourre"), ["Ann", "Bob"], buy_in=20,
...               rng=Random(1))
>>> bots = {seat: NightPolicy("sensible", night) for seat in (0, 1)}
>>> while not night.is_over and night.number < 3:
...     if night.deal_over:
...         night.start_deal()
...     else:
...         decision = night.pending()[0]
...         seat = decision.seat
...         _ = night.act(seat, bots[seat].choose(night.view(seat), decision, Random(2)))
>>> sorted({result.game for result in night.results}) == ["bourre", "two-card-guts"]
True
"""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import TYPE_CHECKING, Any

from guts.bots import Policy, check_bot_kind, policy_for
from guts.catalog import find_game
from guts.games.base import Decision

if TYPE_CHECKING:
    from guts.night.night import Night

__all__ = ["ChooserBot", "NightPolicy", "check_night_bots"]


class ChooserBot:
    """Names the allowed game played least this night (from the view's ``night``),
    not the game just played where another is as fresh; ``random`` picks any."""

    def __init__(self, kind: str = "sensible") -> None:
        self.kind = kind

    def choose(self, view: Mapping[str, Any], decision: Decision, rng: Random) -> str:
        """A game of ``decision``'s choices."""
        games = list(decision.actions)
        if self.kind == "random":
            return rng.choice(games)
        played = [str(entry["game"]) for entry in view.get("night", {}).get("played", [])]
        last = played[-1] if played else None
        fewest = min(played.count(game) for game in games)
        fresh = [game for game in games if played.count(game) == fewest]
        if len(fresh) > 1 and last in fresh:
            fresh.remove(last)
        return rng.choice(fresh)


class NightPolicy:
    """One seat's bot of ``kind`` for the whole of ``night``."""

    def __init__(self, kind: str, night: Night) -> None:
        self.kind = kind
        self.night = night
        self.chooser = ChooserBot(kind)
        self._game = 0
        self._policy: Policy | None = None

    def choose(self, view: Mapping[str, Any], decision: Decision, rng: Random) -> str:
        """The chooser's game between games; the game's bot's action during one."""
        session = self.night.session
        if session is None:
            return self.chooser.choose(view, decision, rng)
        if self._policy is None or self._game != self.night.number:
            self._policy = policy_for(self.kind, session.game, session)
            self._game = self.night.number
        return self._policy.choose(view, decision, rng)


def check_night_bots(kind: str, games: tuple[str, ...]) -> None:
    """Raise OptionError unless every family of ``games`` has bots of ``kind``."""
    for game in games:
        check_bot_kind(kind, find_game(game).family)
