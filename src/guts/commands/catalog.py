"""``guts games`` and ``guts rules``: what can be played, and each game's full rules."""

from __future__ import annotations

from typing import Annotated

import typer

from guts.commands.common import OptionOpt, parse_key_values

NIGHT = "a night of many games: the dealer names each one (guts play dealers-choice)"
"""How ``guts games`` and ``guts rules`` describe a night of dealer's choice."""


def games_command() -> None:
    """List every game preset, one line each."""
    from guts.catalog import FAMILIES
    from guts.catalog import games as all_games

    for family in FAMILIES:
        entries = [g for g in all_games().values() if g.family == family]
        if entries:
            print(family)
        for game in entries:
            print(f"  {game.name:<26} {game.description}")
    from guts.night import DEALERS_CHOICE

    print("night")
    print(f"  {DEALERS_CHOICE:<26} {NIGHT}")


def rules_command(
    game: Annotated[str, typer.Argument(help="A game from `guts games`.")],
    option: OptionOpt = None,
) -> None:
    """Print the full rules of GAME as the engine plays them, every option and its value."""
    from guts.catalog import find_game
    from guts.night import DEALERS_CHOICE, NightRules

    if game == DEALERS_CHOICE:
        night = NightRules.from_options(None, parse_key_values(option or []))
        print(f"{DEALERS_CHOICE}: {NIGHT}\n")
        print(night.describe())
        return
    found = find_game(game)
    text = found.rules(parse_key_values(option or [])).describe()
    print(f"{found.name}: {found.description}\n")
    print(text)


def register(app: typer.Typer) -> None:
    """Add ``guts games`` and ``guts rules`` to ``app``."""
    app.command("games")(games_command)
    app.command("rules")(rules_command)
