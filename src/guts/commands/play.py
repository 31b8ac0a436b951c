"""``guts play``: a game in the terminal against bots, or a night of dealer's choice."""

from __future__ import annotations

from typing import Annotated

import typer

from guts.commands.common import OptionOpt, console, parse_key_values
from guts.errors import OptionError


def play_command(
    game: Annotated[str, typer.Argument(help="A game from `guts games`.")],
    players: Annotated[int, typer.Option("--players", "-n", help="Players at the table.")] = 4,
    seat: Annotated[str, typer.Option("--seat", help="Your name at the table.")] = "You",
    bots: Annotated[
        str, typer.Option("--bots", help="random, threshold, sensible or equilibrium (Guts).")
    ] = "sensible",
    seed: Annotated[int | None, typer.Option("--seed", help="Seed for a repeatable game.")] = None,
    option: OptionOpt = None,
    stack: Annotated[int, typer.Option("--stack", help="Chips each player buys in for.")] = 100,
    watch: Annotated[bool, typer.Option("--watch", help="Every seat is a bot; narrate.")] = False,
    deals: Annotated[
        int | None, typer.Option("--deals", help="Stop after at most N deals (games end too).")
    ] = None,
    history: Annotated[
        str | None, typer.Option("--history", help="Write a JSON-lines hand history.")
    ] = None,
    games: Annotated[
        str | None,
        typer.Option("--games", help="dealers-choice: the games allowed, comma-separated."),
    ] = None,
) -> None:
    """Play GAME in the terminal against bots (or --watch them play); GAME dealers-choice
    is a night of the --games, each named in turn by its dealer."""
    from guts.catalog import find_game
    from guts.night import DEALERS_CHOICE
    from guts.play import PlayConfig, play

    if game == DEALERS_CHOICE:
        _play_night(games, players, seat, bots, seed, option, stack, watch, deals, history)
        return
    if games is not None:
        raise OptionError(f"--games is for {DEALERS_CHOICE}, not {game}")
    found = find_game(game)
    _check_table(players, stack, deals)
    config = PlayConfig(
        players=players, seat_name=seat, bots=bots, seed=seed,
        options=parse_key_values(option or []), stack=stack, watch=watch, deals=deals,
        history=history,
    )  # fmt: skip
    from guts.bots import check_bot_kind, policy_for

    check_bot_kind(bots, found.family)  # an unknown bot kind fails before the game starts
    if history is not None:
        check_writable(history)  # and so does a history that could not be written
    play(found, config, lambda kind, g, session: policy_for(kind, g.family, session), console)


def _check_table(players: int, stack: int, deals: int | None) -> None:
    """Raise OptionError unless the table's size, buy-in and deal limit make sense."""
    if not 2 <= players <= 26:
        raise OptionError(f"--players must be between 2 and 26, not {players}")
    if stack < 1:
        raise OptionError(f"--stack must be at least 1, not {stack}")
    if deals is not None and deals < 1:
        raise OptionError(f"--deals must be at least 1, not {deals}")


def _play_night(
    games: str | None, players: int, seat: str, bots: str, seed: int | None,
    option: list[str] | None, stack: int, watch: bool, deals: int | None, history: str | None,
) -> None:  # fmt: skip
    """``guts play dealers-choice``: --option sets the night's rules (cap, chooser,
    default, credit, ...); each game's house options go in --games (``bourre ante=2``).
    Unless most-games is set, the night lasts as many games as there are players (in a
    rotation, each game once)."""
    from guts.night import DEFAULT_GAMES, Chooser, NightRules
    from guts.night.bots import check_night_bots
    from guts.play import PlayConfig, play_night

    _check_table(players, stack, deals)
    options = parse_key_values(option or [])
    if games is not None:
        options["games"] = games
    options.setdefault("games", DEFAULT_GAMES)
    rules = NightRules.from_options(None, options)
    if "most-games" not in options:  # a night in the terminal: a game per player
        orbit = len(rules.names) if rules.chooser is Chooser.ROTATION else players
        rules = NightRules.from_options(rules, {"most-games": str(orbit)})
    check_night_bots(bots, rules.names)
    config = PlayConfig(players=players, seat_name=seat, bots=bots, seed=seed, stack=stack,
                        watch=watch, deals=deals, history=history)  # fmt: skip
    if history is not None:
        check_writable(history)
    play_night(rules, config, console)  # a game the table cannot play fails before any deal


def check_writable(path: str) -> None:
    """Raise OptionError unless a file can be written at ``path`` (tried now, so that a bad
    path fails before the game is played rather than after it)."""
    from pathlib import Path

    target = Path(path)
    existed = target.exists()
    try:
        with target.open("a", encoding="utf-8"):
            pass
    except OSError as error:
        raise OptionError(f"--history: cannot write {path}: {error.strerror or error}") from None
    if not existed:
        target.unlink(missing_ok=True)


def register(app: typer.Typer) -> None:
    """Add ``guts play`` to ``app``."""
    app.command("play")(play_command)
