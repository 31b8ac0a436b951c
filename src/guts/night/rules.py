"""A night's house rules, as data: which games the host allows, who chooses, the cap.

:class:`NightRules` is a frozen dataclass of options set by name from strings, like each
family's rules (:class:`~guts.games.options.RuleOptions`). ``games`` is the host's list:
presets separated by commas, each with the house options the host fixes for it.

>>> rules = NightRules.from_options(None, {"games": "two-card-guts, bourre ante=2", "cap": "5"})
>>> [(entry.game, entry.options) for entry in rules.entries]
[('two-card-guts', ()), ('bourre', (('ante', '2'),))]
>>> rules.to_options()
{'games': 'two-card-guts,bourre ante=2', 'cap': '5'}
>>> NightRules(games="two-card-guts,napalm,two-card-guts")
Traceback (most recent call last):
...
guts.errors.OptionError: games: two-card-guts is listed twice
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from typing import Any, ClassVar

from guts.catalog import Game, find_game
from guts.errors import OptionError
from guts.games.options import RuleOptions, dash

__all__ = [
    "DEALERS_CHOICE",
    "DEFAULT_GAMES",
    "CappedPot",
    "Chooser",
    "DealAfterGame",
    "GameEntry",
    "NightRules",
    "parse_pairs",
]

DEALERS_CHOICE = "dealers-choice"
"""The name ``guts play`` knows a night by."""

DEFAULT_GAMES = "two-card-guts,three-five-seven,jacks-or-better,bourre"
"""The games a night allows when the host names none: one of each family."""

NIGHT_OWNED = ("credit",)
"""Game options the night sets for every game (one setting for the whole night)."""


class Chooser(StrEnum):
    """Who names the next game."""

    DEALER = "dealer"
    """The player who deals the game's first deal (the deal passes left, game to game)."""
    NEXT = "next"
    """The seat after the last chooser (the first game: the first dealer)."""
    ROTATION = "rotation"
    """Nobody: the host's games in turn, like a mixed game."""


class DealAfterGame(StrEnum):
    """Who deals the first deal of the next game."""

    PASSES = "passes"
    """The player to the left of the last game's first dealer: the deal passes left game
    to game, so with ``chooser=dealer`` the choice goes round the table (the rule text's
    Diablo: after the game the deal passes to the left of whoever called it)."""
    CONTINUES = "continues"
    """The next in turn after the game's last deal (the button goes on from where the
    game left it; with a cap of deals that is a multiple of the players it comes back to
    the same seat, who would choose every game)."""


class CappedPot(StrEnum):
    """What happens to the chips in the middle when a game reaches the cap."""

    SPLIT = "split"
    """They are shared equally by the players still in the game (with chips at table
    stakes), odd chips by the game's own odd-chips rule: what each game does when the
    players stop it. Legs and points are forfeited."""
    REFUND = "refund"
    """Each seat gets back what it put into the middle since the middle was last empty
    (antes, matches, bets), so the chips go back to whoever put them there."""


@dataclass(frozen=True)
class GameEntry:
    """One game the host allows: a preset and the house options fixed for it."""

    game: str
    options: tuple[tuple[str, str], ...] = ()

    @property
    def preset(self) -> Game:
        """The catalog's entry for the preset."""
        return find_game(self.game)

    def text(self) -> str:
        """The entry as written in ``games``: ``bourre ante=2``."""
        return " ".join([self.game, *(f"{key}={value}" for key, value in self.options)])


def parse_pairs(words: Sequence[str], where: str) -> tuple[tuple[str, str], ...]:
    """``name=value`` words as (dashed name, value) pairs; OptionError names a bad one."""
    pairs: list[tuple[str, str]] = []
    for word in words:
        key, equals, value = word.partition("=")
        key = dash(key.strip().lower())
        if not equals or not key or not value.strip():
            raise OptionError(f"{where}: {word!r} is not an option (write name=value)")
        if key in (seen for seen, _ in pairs):
            raise OptionError(f"{where}: {key} is set twice")
        if key in NIGHT_OWNED:
            raise OptionError(
                f"{where}: {key} is the night's own option (set it for the whole night)"
            )
        pairs.append((key, value.strip()))
    return tuple(pairs)


def _entries(text: str) -> tuple[GameEntry, ...]:
    entries: list[GameEntry] = []
    for part in text.split(","):
        words = part.split()
        if not words:
            raise OptionError(f"games: an empty entry in {text!r} (separate games by commas)")
        game = find_game(words[0].lower()).name
        if any(entry.game == game for entry in entries):
            raise OptionError(f"games: {game} is listed twice")
        entries.append(GameEntry(game, parse_pairs(words[1:], f"games: {game}")))
    return tuple(entries)


@dataclass(frozen=True)
class NightRules(RuleOptions):
    """The host's rules for a night of dealer's choice (see :attr:`option_docs`)."""

    family: ClassVar[str] = "night"
    option_docs: ClassVar[Mapping[str, str]] = {
        "games": "the games the host allows, separated by commas, each with its house "
        "options (bourre ante=2)",
        "chooser": "who names each game: dealer (who deals its first deal), next (the seat "
        "after the last chooser) or rotation (no choice: the games in turn)",
        "deal_after_game": "who deals the next game's first deal: passes (the player to "
        "the left of the last game's first dealer) or continues (the next in turn after the "
        "game's last deal)",
        "default": "the game a chooser who does not choose in time gets (none: the game "
        "before, or the first allowed for the first game)",
        "cap": "the most deals one game lasts (none: it runs until its own end)",
        "capped_pot": "the chips in the middle when a game reaches the cap: split (shared "
        "equally) or refund (back to whoever put them in since the middle was last empty)",
        "credit": "every game on credit: stacks may go negative, and a player below zero "
        "when a game ends takes a marker for the debt (no: table stakes)",
        "most_games": "the night ends after this many games (none: when the players stop)",
        "chooser_options": "the chooser may set options of the game they name (on top of "
        "the house options)",
    }

    games: str = DEFAULT_GAMES
    chooser: Chooser = Chooser.DEALER
    deal_after_game: DealAfterGame = DealAfterGame.PASSES
    default: str | None = None
    cap: int | None = None
    capped_pot: CappedPot = CappedPot.SPLIT
    credit: bool = False
    most_games: int | None = None
    chooser_options: bool = True

    @classmethod
    def parse_option(cls, key: str, text: str) -> tuple[str, Any]:
        """The field and value a night option means; a game's option (not the night's)
        is refused with where it goes: with its game in ``games``."""
        try:
            return super().parse_option(key, text)
        except OptionError as error:
            if not str(error).startswith("unknown"):
                raise
            raise OptionError(f"{error} (a game's own options go with it in games: "
                              f"'bourre {key}={text}')") from None  # fmt: skip

    def __post_init__(self) -> None:
        self.check_options()
        entries = _entries(self.games)
        object.__setattr__(self, "games", ",".join(entry.text() for entry in entries))
        if self.default is not None:
            default = self.default.strip().lower()
            if default not in (entry.game for entry in entries):
                allowed = ", ".join(entry.game for entry in entries)
                raise OptionError(f"default: {self.default!r} is not one of the games ({allowed})")
            object.__setattr__(self, "default", default)
        for entry in entries:
            self.game_options(entry.game)  # Bourré's end-pot
        for name in ("cap", "most_games"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise OptionError(f"{dash(name)}: expected at least 1, not {value}")

    @cached_property
    def entries(self) -> tuple[GameEntry, ...]:
        """The games allowed, in the host's order."""
        return _entries(self.games)

    @cached_property
    def names(self) -> tuple[str, ...]:
        """The allowed presets' names, in the host's order."""
        return tuple(entry.game for entry in self.entries)

    def entry(self, game: str) -> GameEntry:
        """The host's entry for ``game``; OptionError if the host does not allow it."""
        for entry in self.entries:
            if entry.game == game:
                return entry
        raise OptionError(f"{game} is not one of the games ({', '.join(self.names)})")

    def game_options(self, game: str, chosen: Sequence[tuple[str, str]] = ()) -> dict[str, str]:
        """The options ``game`` is played with: the house options, the chooser's, and the
        night's own (credit; the option that makes a family share out its last pot, as
        Bourré's end-pot=split, so that no pot is left on a table the night puts away).
        OptionError if the chooser sets a house option again or may set none."""
        house = dict(self.entry(game).options)
        if chosen and not self.chooser_options:
            raise OptionError("the house fixes every option: name the game alone")
        for key, value in chosen:
            if key in house:
                raise OptionError(f"{key} is a house option of {game} ({key}={house[key]})")
            house[key] = value
        family = find_game(game).games_family
        if family.end_option is not None:
            option, value = family.end_option
            if house.get(option, value).strip().lower() != value:
                raise OptionError(
                    f"{option}: a night plays {family.title} with {option}={value} (a pot "
                    "left on the table would be lost when the next game starts)"
                )
            house[option] = value
        house["credit"] = "yes" if self.credit else "no"
        return house

    def describe(self) -> str:
        """The night's rules in words, every option with its value."""
        return "\n".join(self.option_lines())

    @classmethod
    def from_record(cls, options: Mapping[str, Any]) -> NightRules:
        """The rules a record's ``rules`` object names (OptionError if it does not)."""
        return cls.from_options(None, {str(key): str(value) for key, value in options.items()})
