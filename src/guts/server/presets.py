"""What a table plays: a preset of the catalog, or a night of dealer's choice.

A table's ``preset`` names a game of the catalog (:func:`guts.catalog.find_game`) or
``dealers-choice``, a night of many games (:class:`guts.night.Night`), whose options are
the night's (:class:`guts.night.NightRules`: ``games``, ``chooser``, ``cap``...). Both
answer the same few questions the server asks: the rules an options mapping makes, a
new session for some players, and whether a kind of bot can sit at the table.

>>> night = table_game("dealers-choice")
>>> night.family, night.rules({"games": "two-card-guts,bourre"}).names
('night', ('two-card-guts', 'bourre'))
>>> table_game("bourre").family
'bourre'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from random import Random

from guts.bots import check_bot_kind
from guts.catalog import Game, find_game
from guts.night import DEALERS_CHOICE, Night, NightRules
from guts.night.bots import check_night_bots

__all__ = ["NIGHT_FAMILY", "NightPreset", "TableGame", "check_bots", "table_game"]

NIGHT_FAMILY = "night"
"""The ``family`` a dealers-choice table reports (its games have their own)."""


class NightPreset:
    """A night of dealer's choice, as a table's preset."""

    name = DEALERS_CHOICE
    family = NIGHT_FAMILY
    description = "a night of many games: the chooser names each one"

    def rules(self, options: Mapping[str, str] | None = None) -> NightRules:
        """The night's rules with ``options`` applied (OptionError names a bad one)."""
        return NightRules.from_options(None, dict(options or {}))

    def new_session(
        self,
        players: Sequence[str | tuple[str, int]],
        *,
        options: Mapping[str, str] | None = None,
        buy_in: int = 0,
        rng: Random | None = None,
        button: int = 0,
    ) -> Night:
        """A new night of ``players`` (``(name, chips)`` pairs) by ``options``."""
        return Night(self.rules(options), players, buy_in=buy_in, rng=rng, button=button)


TableGame = Game | NightPreset


def table_game(preset: str) -> TableGame:
    """What a table of ``preset`` plays (OptionError for an unknown preset)."""
    if preset == DEALERS_CHOICE:
        return NightPreset()
    return find_game(preset)


def check_bots(game: TableGame, kind: str, options: Mapping[str, str]) -> None:
    """OptionError unless bots of ``kind`` can play ``game`` with ``options`` (a night:
    every game it allows)."""
    if isinstance(game, NightPreset):
        check_night_bots(kind, game.rules(options).names)
    else:
        check_bot_kind(kind, game.family, game.rules(options))
