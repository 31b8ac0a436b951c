"""The ``guts`` command line: hands and censuses, the games, play, and replays.

Every error a user can cause prints one line on stderr and exits with status 2.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated

import typer

from guts.cards import Card, format_cards, parse_cards
from guts.commands import register_all
from guts.commands.common import (
    JokerOpt,
    JokersOpt,
    OptionOpt,
    RankingArg,
    WildOpt,
    build_ranking,
    console,
    parse_key_values,
)
from guts.errors import GutsError, OptionError

if TYPE_CHECKING:
    from guts.history import History

__all__ = ["app", "main", "parse_key_values"]

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Guts, match-the-pot games, draw poker and Bourré: rankings, censuses and play.",
)


@app.command("eval")
def eval_command(
    ranking: RankingArg,
    cards: Annotated[list[str], typer.Argument(help="The hand, e.g. As Kd 10h or AsKd10h.")],
    wild: WildOpt = "",
    joker: JokerOpt = None,
    jokers: JokersOpt = None,
    option: OptionOpt = None,
) -> None:
    """Print a hand's category, description and the cards that play."""
    rank = build_ranking(ranking, wild, joker, jokers, option)
    hand = parse_cards(" ".join(cards))
    result = rank.evaluate(hand)
    console.print(f"[bold]{result.description}[/bold]  ({result.category.value})")
    console.print(f"plays: {format_cards(result.cards)}")
    for wild_card, stood in result.stands_for:
        console.print(f"  {wild_card} stands for {stood}")
    console.print(f"strength: {result.strength}")


@app.command()
def compare(
    ranking: RankingArg,
    hands: Annotated[list[str], typer.Argument(help='Hands, each quoted: "As Kd" "Qh Qc".')],
    wild: WildOpt = "",
    joker: JokerOpt = None,
    jokers: JokersOpt = None,
    option: OptionOpt = None,
) -> None:
    """Order hands best first; tied hands share a place."""
    rank = build_ranking(ranking, wild, joker, jokers, option)
    parsed = [parse_cards(hand) for hand in hands]
    seen: dict[Card, int] = {}
    for number, hand in enumerate(parsed):
        for card in hand:
            if card in seen and not card.is_joker:
                raise OptionError(f"{card.ascii} is in hand {seen[card] + 1} and hand {number + 1}")
            seen[card] = number
    evaluated = sorted(
        ((rank.evaluate(hand), hand) for hand in parsed), key=lambda pair: -pair[0].strength
    )
    place = 0
    previous: int | None = None
    for index, (result, hand) in enumerate(evaluated):
        tie = result.strength == previous
        if not tie:
            place = index + 1
        previous = result.strength
        mark = "=" if tie or _ties_next(evaluated, index) else " "
        console.print(f"{place:>2}{mark} {format_cards(hand):<24} {result.description}")


def _ties_next(evaluated: Sequence[tuple[object, object]], index: int) -> bool:
    if index + 1 >= len(evaluated):
        return False
    here, after = evaluated[index][0], evaluated[index + 1][0]
    return getattr(here, "strength", None) == getattr(after, "strength", None)


_NIGHT = "a night of many games: the dealer names each one (guts play dealers-choice)"


@app.command()
def games() -> None:
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
    print(f"  {DEALERS_CHOICE:<26} {_NIGHT}")


@app.command()
def rules(
    game: Annotated[str, typer.Argument(help="A game from `guts games`.")],
    option: OptionOpt = None,
) -> None:
    """Print the full rules of GAME as the engine plays them, every option and its value."""
    from guts.catalog import find_game
    from guts.night import DEALERS_CHOICE, NightRules

    if game == DEALERS_CHOICE:
        night = NightRules.from_options(None, parse_key_values(option or []))
        print(f"{DEALERS_CHOICE}: {_NIGHT}\n")
        print(night.describe())
        return
    found = find_game(game)
    text = found.rules(parse_key_values(option or [])).describe()
    print(f"{found.name}: {found.description}\n")
    print(text)


@app.command("play")
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
        _check_writable(history)  # and so does a history that could not be written
    play(found, config, lambda kind, g, session: policy_for(kind, g.family, session), console)


def _check_table(players: int, stack: int, deals: int | None) -> None:
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
        _check_writable(history)
    play_night(rules, config, console)  # a game the table cannot play fails before any deal


def _check_writable(path: str) -> None:
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


def _read_history_file(path: str) -> History:
    """The one hand history in file ``path``; a missing, unreadable or malformed file is
    a HistoryError naming it."""
    histories = _read_histories_file(path)
    if len(histories) > 1:
        from guts.history import HistoryError

        raise HistoryError(f"{path}: the file holds {len(histories)} histories, not one")
    return histories[0]


def _read_histories_file(path: str) -> list[History]:
    """Every hand history in file ``path`` (a server's download holds one per session)."""
    from guts.history import HistoryError, read_histories

    try:
        with open(path, encoding="utf-8") as source:
            return read_histories(source)
    except OSError as error:
        raise HistoryError(f"cannot read {path}: {error.strerror or error}") from None
    except HistoryError as error:
        raise HistoryError(f"{path}: {error}") from None


@app.command("replay")
def replay_command(
    path: Annotated[str, typer.Argument(help="A hand history (--history, or a download).")],
    seat: Annotated[
        str | None, typer.Option("--seat", help="Replay from this player's side.")
    ] = None,
    step: Annotated[bool, typer.Option("--step", help="Wait for Enter after each deal.")] = False,
) -> None:
    """Step through a recorded session (replayed and checked event by event).

    A server's download (every session of a table, as one player saw it) is told as
    recorded: it has no deck orders, so it cannot be re-dealt and checked."""
    histories = _read_histories_file(path)
    for number, history in enumerate(histories, start=1):
        if len(histories) > 1:
            console.print(f"━━ Session {number} of {len(histories)} ━━", markup=False)
        _tell_history(history, seat, step=step)


def _tell_history(history: History, seat: str | None, *, step: bool) -> None:
    """Narrate one history from ``seat``'s side (None: a download as it was recorded,
    a whole record as a spectator saw it)."""
    from guts.history import replay, told_events
    from guts.narrate import Narrator
    from guts.night import Night
    from guts.night.narrate import NightNarrator

    over: str | None = None
    if history.redacted:
        names = history.names
        told = told_events(history)
        if history.viewer is not None and not 0 <= history.viewer < len(names):
            raise OptionError(f"the history's viewer {history.viewer} is not one of its seats")
        saw = "a spectator" if history.viewer is None else names[history.viewer]
        note = f"(as {saw} saw it: hidden cards left out, told as recorded)"
    else:
        session = replay(history)
        names, told = list(session.table.names), list(session.events)
        if not isinstance(session, Night) or not session.is_over:  # a night tells its end
            over = session.over_reason or "the record ends here"
        note = None
    viewer = None
    if seat is not None:
        if seat not in names:
            raise OptionError(f"no player {seat!r} in this history: {', '.join(names)}")
        viewer = names.index(seat)
    if note is not None:
        console.print(note, markup=False, highlight=False)
    narrator = NightNarrator(names) if history.record.get("game") == Night.game else Narrator(names)
    for event in told:
        shown = (seat is None and history.redacted) or event.visible_to(viewer)
        line = narrator.tell(event) if shown else None
        if line is None:
            continue
        console.print(line, markup=False, highlight=False)
        if step and event.kind.endswith("deal-ended") and sys.stdin.isatty():
            input("-- Enter for the next deal --")
    if over is not None:
        console.print(over, markup=False, highlight=False)


@app.command("export")
def export_command(
    path: Annotated[str, typer.Argument(help="A draw poker hand history (--history).")],
    deal: Annotated[int | None, typer.Option("--deal", help="Only this deal (1, 2, ...).")] = None,
    out: Annotated[
        str | None, typer.Option("--out", help="Write deal-N.phh files into this folder.")
    ] = None,
) -> None:
    """Export draw poker deals to PHH, the TOML-based Poker Hand History format."""
    from pathlib import Path

    from guts.catalog import FAMILIES
    from guts.games.draw.events import DealStarted
    from guts.games.draw.phh import PhhError
    from guts.history import replay, told_events

    history = _read_history_file(path)
    family = FAMILIES.get(str(history.record.get("game")))
    deal_to_phh = family.deal_to_phh if family is not None else None
    if family is None or deal_to_phh is None:
        raise PhhError("PHH export is for draw poker histories (five-card-draw and its family)")
    # a download has no decks to re-deal (its cards are what one seat saw); a record that
    # replays is whole
    events = told_events(history) if history.redacted else list(replay(history).events)
    started = sum(1 for event in events if isinstance(event, DealStarted))
    if deal is not None and not 1 <= deal <= started:
        raise PhhError(f"--deal must be between 1 and {started}, not {deal}")
    numbers = [deal] if deal is not None else list(range(1, started + 1))
    game = history.preset or family.name
    texts = {n: deal_to_phh(history.record, n, game=game) for n in numbers}
    if out is None:
        print("\n".join(f"# deal {n}\n{text}" for n, text in texts.items()))
        return
    folder = Path(out)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for n, text in texts.items():
            (folder / f"deal-{n}.phh").write_text(text, encoding="utf-8")
    except OSError as error:
        raise OptionError(f"--out: cannot write into {out}: {error.strerror or error}") from None
    console.print(f"{len(texts)} PHH file(s) written to {folder}")


register_all(app)


def main(argv: Sequence[str] | None = None) -> None:
    """Run the CLI; user errors print one line on stderr and exit with status 2."""
    try:
        result = app(
            args=list(argv) if argv is not None else None,
            prog_name="guts",
            standalone_mode=False,
        )
    except GutsError as error:
        print(f"guts: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    except typer.TyperException as error:  # usage errors: bad flags, missing arguments
        message = " ".join(error.format_message().split())
        if not message:  # plain `guts`: the help was shown
            raise SystemExit(0) from None
        print(f"guts: {message} (see guts --help)", file=sys.stderr)
        raise SystemExit(2) from None
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    if isinstance(result, int) and result:
        raise SystemExit(result)
