"""The night's own events, between the games' events in one record.

Every one is public (a choice is made in the open); each kind starts with ``night-``, so
a record's events split into the night's and each game's (the events from one
``night-game-started`` to the next night event are that game's own record).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from guts.games.base import Event, register_event

__all__ = [
    "GameChosen",
    "GameEnded",
    "GameStarted",
    "How",
    "MarkerTaken",
    "NightEnded",
    "PotRefunded",
]

How = Literal["chosen", "timeout", "rotation"]


@register_event
@dataclass(frozen=True, kw_only=True)
class GameChosen(Event):
    """Game ``number`` is ``game`` with the chooser's ``options``: named by ``seat``
    (``how`` chosen), given to a chooser who did not choose in time (timeout), or the
    next in the rotation (no seat); ``action`` is the choice as the chooser wrote it."""

    kind: ClassVar[str] = "night-game-chosen"
    number: int
    seat: int | None
    game: str
    options: tuple[tuple[str, str], ...] = ()
    how: How = "chosen"
    action: str = ""


@register_event
@dataclass(frozen=True, kw_only=True)
class GameStarted(Event):
    """Game ``number`` begins: its family's record header (the rules as options, each
    seat's name and stack, the first dealer), so its events replay on their own."""

    kind: ClassVar[str] = "night-game-started"
    number: int
    game: str
    family: str
    rules: tuple[tuple[str, str], ...]
    players: tuple[tuple[str, int], ...]
    button: int


@register_event
@dataclass(frozen=True, kw_only=True)
class PotRefunded(Event):
    """Game ``number`` reached the cap under capped-pot=refund: the night gives the
    chips in the game's middle back, ``change[seat]`` to each seat (what it put in since
    the middle was last empty); the game's own record stops where the cap found it."""

    kind: ClassVar[str] = "night-pot-refunded"
    number: int
    change: tuple[int, ...]


@register_event
@dataclass(frozen=True, kw_only=True)
class GameEnded(Event):
    """Game ``number`` is over after ``deals`` deals, and why; ``stacks`` are the seats'
    chips as it leaves them (nothing is left in the middle)."""

    kind: ClassVar[str] = "night-game-ended"
    number: int
    game: str
    reason: str
    deals: int
    stacks: tuple[int, ...]


@register_event
@dataclass(frozen=True, kw_only=True)
class MarkerTaken(Event):
    """On credit, ``seat`` left a game ``amount`` below zero: it takes a marker for the
    debt (a buy-in it owes) and starts the next game from zero."""

    kind: ClassVar[str] = "night-marker"
    seat: int
    amount: int


@register_event
@dataclass(frozen=True, kw_only=True)
class NightEnded(Event):
    """The night is over, and why; ``stopped`` when the players (or the host) stopped it."""

    kind: ClassVar[str] = "night-ended"
    reason: str
    stopped: bool = False
