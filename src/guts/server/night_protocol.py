"""What a night of dealer's choice adds to the protocol, as JSON Schemas.

A ``dealers-choice`` table plays a night (:class:`guts.night.Night`): its frames are the
protocol's own (``snapshot``, ``event``), and what the night adds travels inside them:
the ``game`` view between games (:class:`NightTable`), the ``night`` object every view
carries (:class:`NightState`), the chooser's decision (:class:`GameChoice`) and the
night's events. The event models are made from the engine's event classes
(:mod:`guts.night.events`), so their schemas follow the engine; the tests hold real
frames of real nights to every model here.

>>> sorted(NIGHT_EVENTS)[:2]
['night-ended', 'night-game-chosen']
"""

from __future__ import annotations

import dataclasses
from typing import Any, Literal, get_type_hints

from pydantic import BaseModel, ConfigDict, create_model

from guts.games.base import Event
from guts.night.events import (
    GameChosen,
    GameEnded,
    GameStarted,
    MarkerTaken,
    NightEnded,
    PotRefunded,
)

__all__ = [
    "NIGHT_EVENTS",
    "GameChoice",
    "NightState",
    "NightTable",
    "PlayedGame",
    "night_section",
]


class _Part(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class PlayedGame(_Part):
    """A finished game of the night: its ``number`` (1 first), the ``game`` played, the
    seat that chose it (null: the rotation's), its ``deals``, why it ended and each
    seat's ``change`` of chips over it."""

    number: int
    game: str
    chooser: int | None
    deals: int
    reason: str
    change: list[int]


class NightState(_Part):
    """``night`` in every view of a night's table, the same for everyone: ``number``,
    the games begun so far; ``games``, those the host allows, with their house options
    under ``house``; who chooses (``chooser_rule``; ``chooser``, the seat to choose now,
    null while a game is played); the ``cap`` in deals per game; the games ``played``;
    the game being ``playing`` (null between games); each seat's ``buy_ins``,
    ``markers`` (on credit: the debts taken between games) and ``net`` over the night;
    and ``over``, why the night ended (empty while it goes on)."""

    number: int
    games: list[str]
    house: dict[str, dict[str, str]]
    chooser_rule: Literal["dealer", "next", "rotation"]
    chooser: int | None
    cap: int | None
    played: list[PlayedGame]
    playing: str | None
    buy_ins: list[int]
    markers: list[int]
    net: list[int]
    over: str


class GameChoice(_Part):
    """The chooser's decision between games (``decision`` in its ``event`` frames,
    ``game.pending`` in its ``snapshot``): one of ``options.words``, the games the host
    allows (``actions``, the same list), answered by ``act`` with the game's name, then
    any of its options as ``key=value`` words when the night allows the chooser options
    (``bourre ante=2``)."""

    seat: int
    kind: Literal["choose"]
    actions: list[str]
    prompt: str
    simultaneous: Literal[False]
    options: dict[Literal["words"], list[str]]


class NightTable(_Part):
    """``game`` between games (while a game is played, ``game`` is that game's own view
    with ``night`` added): the ``players`` and their ``stacks`` in seat order, the
    ``button``, nothing in the ``pot``, who is ``to_act`` (the chooser) and the seat's own
    ``pending`` decision (the choice, for the chooser; a spectator's ``seat`` is null)."""

    game: Literal["night"]
    seat: int | None
    players: list[str]
    stacks: list[int]
    button: int
    pot: Literal[0]
    to_act: list[int]
    pending: list[GameChoice]
    night: NightState


def _event_model(event: type[Event]) -> type[BaseModel]:
    """The schema of one of the night's events, from the engine's class: ``kind`` and
    every field, each always sent, under the class's own docstring (the night's events
    are public, so ``audience`` is always null)."""
    hints = get_type_hints(event)
    fields: dict[str, Any] = {"kind": (Literal[event.kind], ...)}
    for field in dataclasses.fields(event):
        fields[field.name] = (None if field.name == "audience" else hints[field.name], ...)
    model: type[BaseModel] = create_model(
        event.__name__, __base__=_Part, __doc__=event.__doc__, **fields
    )
    return model


NIGHT_EVENTS: dict[str, type[BaseModel]] = {
    event.kind: _event_model(event)
    for event in (GameChosen, GameStarted, PotRefunded, GameEnded, MarkerTaken, NightEnded)
}
"""The schema of each of the night's own events, by ``kind``."""


_PROSE = """\
A table of the preset `dealers-choice` plays a night of many games: the options are
the night's (`games`, `chooser`, `deal-after-game`, `default`, `cap`, `capped-pot`, `credit`,
`most-games`, `chooser-options`: `guts rules dealers-choice` says what each means), stacks
carry from game to game, and the ledger, the settlement and the history downloads span the
night. The frames are the ones above; what the night adds travels inside them.

Between games the chooser's decision is the `decision` of its `event` frames (and in
`game.pending` of a `snapshot`): a `GameChoice` among the games the host allows. The
chooser answers with `act`, the action the game's name and, where the night allows it,
the game's options as `key=value` words (`bourre ante=2`); a game not allowed, or an
option the night does not allow, gets an `illegal` error and changes nothing. The
table's clock times the choice like any decision: a chooser out of time (or away) gets
the night's `default`, else the game before. With `chooser=rotation` nobody chooses.

While a game is played, `game` is that game's own view with `night` (a `NightState`)
added; between games it is a `NightTable`. The night's own events (every `kind`
starting with `night-`) come in `events` among the games' events and are public: one
`night-game-chosen` and one `night-game-started` before each game's events (its record
header: the game's rules and the stacks it starts with), one `night-game-ended` after
them, and `night-ended` last.
"""


def night_section() -> tuple[list[str], list[tuple[str, type[BaseModel]]]]:
    """``docs/protocol.md``'s section on nights: its lines of prose, then each model and
    each of the night's events with its title (the document adds their JSON Schemas)."""
    prose = ["## Dealer's choice nights", "", *_PROSE.splitlines(), ""]
    parts: list[tuple[str, type[BaseModel]]] = [
        (f"`{model.__name__}`", model) for model in (NightTable, NightState, GameChoice)
    ]
    parts += [(f"`{kind}` event", model) for kind, model in NIGHT_EVENTS.items()]
    return prose, parts
