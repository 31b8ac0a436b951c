"""A night in words: the choices, each game's start and end, markers, the night's end.

:class:`NightNarrator` tells the night's own events and hands each game's events to a
:class:`~guts.narrate.Narrator` of its own, made afresh as each game starts (so what one
game's story knows, Toh's hands or a declaration round, never colours the next). A
game's own end and the buy-ins that seat its players are the night's to tell.

>>> from guts.night.events import GameChosen, GameEnded
>>> narrator = NightNarrator(["You", "Bob"])
>>> narrator.tell(GameChosen(number=2, seat=1, game="bourre", options=(("ante", "2"),)))
'Bob chooses game 2: bourre (ante=2)'
>>> print(narrator.tell(GameEnded(number=2, game="bourre", reason="the pot was won",
...                               deals=3, stacks=(12, 28))))
Game 2 (bourre) is over after 3 deals: the pot was won.
Stacks: You 12, Bob 28
"""

from __future__ import annotations

from collections.abc import Sequence

from guts.catalog import find_game
from guts.games.base import Event
from guts.games.session import MovedEvent
from guts.grammar import agree, who
from guts.narrate import Narrator
from guts.night.events import (
    GameChosen,
    GameEnded,
    GameStarted,
    MarkerTaken,
    NightEnded,
    PotRefunded,
)
from guts.table import Reason

__all__ = ["NightNarrator"]


class NightNarrator:
    """Tells a night's events in order (the same ``tell`` as a game's narrator)."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = list(names)
        self.game = Narrator(self.names)

    def tell(self, event: Event) -> str | None:
        """The line for ``event`` (None: nothing to tell)."""
        if isinstance(event, GameChosen):
            return self._chosen(event)
        if isinstance(event, GameStarted):
            self.game = Narrator(self.names, event.family)
            dealer = [self.names[event.button]]
            deals = f"{who(dealer, start=False)} {agree(dealer, 'deals')} first"
            about = find_game(event.game).description
            return f"══ Game {event.number}: {event.game}, {deals} ══\n{about}"
        if isinstance(event, GameEnded):
            stacks = ", ".join(f"{n} {s}" for n, s in zip(self.names, event.stacks, strict=True))
            deals = f"{event.deals} deal{'s' if event.deals != 1 else ''}"
            return (f"Game {event.number} ({event.game}) is over after {deals}: "
                    f"{event.reason}.\nStacks: {stacks}")  # fmt: skip
        if isinstance(event, PotRefunded):
            back = ", ".join(f"{n} {c}" for n, c in zip(self.names, event.change, strict=True) if c)
            return f"The middle goes back to whoever put it in: {back or 'nothing'}"
        if isinstance(event, MarkerTaken):
            name = self.names[event.seat]
            return f"{who([name])} {agree([name], 'takes')} a marker for {event.amount} chips"
        if isinstance(event, NightEnded):
            return f"The night is over: {event.reason}."
        if event.kind.endswith("session-ended") or (
            isinstance(event, MovedEvent) and event.reason == Reason.BUY_IN
        ):
            return None  # told by the night: the game's end, the stacks it seats
        return self.game.tell(event)

    def _chosen(self, event: GameChosen) -> str:
        options = " ".join(f"{key}={value}" for key, value in event.options)
        game = f"game {event.number}: {event.game}" + (f" ({options})" if options else "")
        if event.seat is None:
            return f"Next in the rotation, {game}"
        name = self.names[event.seat]
        if event.how == "timeout":
            return f"{who([name])} did not choose in time: {game}"
        return f"{who([name])} {agree([name], 'chooses')} {game}"
