"""The terminal table: a person plays one seat against bots, or watches bots play.

:func:`play` drives any family's session: it starts deals, asks the bots and the person
for their decisions, and narrates every event the viewer may see (the person's seat, or
a spectator in watch mode). Ctrl-C or the end of input leaves cleanly with a summary.

When the person must decide, a panel says whose turn it is and what is decided, with a
status line (:mod:`guts.screen`), and what they type is read from the decision's
structured options (:mod:`guts.prompts`): short forms, cards or positions, ``help`` at
any prompt, and a one-line refusal saying what was wrong.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from random import Random
from typing import IO, TYPE_CHECKING, Protocol

from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from guts.bots import BOT_NAMES, Policy, check_bot_kind, policy_for
from guts.catalog import Game
from guts.errors import IllegalAction
from guts.games.base import Decision, Event, Session
from guts.games.words import plural
from guts.grammar import agree, who
from guts.narrate import Narrator
from guts.prompts import (
    checker,
    committed_chips,
    help_lines,
    read_answer,
    summary,
    wants_help,
)
from guts.screen import WIDTH, colour_cards, decision_panel, prompt_word, refusal, show

if TYPE_CHECKING:
    from guts.night import Night, NightRules

__all__ = [
    "BOT_NAMES",
    "PlayConfig",
    "check_bot_kind",
    "play",
    "play_night",
    "policy_for",
    "seat_names",
]


@dataclass
class PlayConfig:
    """How a terminal session is set up."""

    players: int = 4
    seat_name: str = "You"
    bots: str = "sensible"
    seed: int | None = None
    options: dict[str, str] = field(default_factory=dict)
    stack: int = 100
    watch: bool = False
    deals: int | None = None
    history: str | None = None


class Terminal:
    """Console output plus line input: the keyboard (with line editing) when standard
    input is a terminal, otherwise its lines, or any text stream (scripted tests); input
    that is not typed at a terminal is echoed after the prompt, so a transcript reads as
    a session."""

    def __init__(self, console: Console, source: IO[str] | None) -> None:
        self.console = console
        self.source = source
        self.interactive = source is None and _stdin_is_a_terminal()
        if self.interactive:
            with suppress(ImportError):
                import readline  # noqa: F401  (line editing and history for input())

    def ask(self, prompt: str) -> str:
        """One line of input; EOFError at the end."""
        if self.interactive:
            self.console.file.flush()
            return input(prompt)
        self.console.print(prompt, end="", markup=False, highlight=False)
        line = (self.source or sys.stdin).readline()
        if not line:
            raise EOFError
        self.console.print(line.rstrip("\n"), markup=False, highlight=False)
        return line


def _stdin_is_a_terminal() -> bool:
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


def _summary(console: Console, session: Session, start: Sequence[int]) -> None:
    table = session.table
    out = RichTable(title="Chips")
    out.add_column("player")
    out.add_column("stack", justify="right")
    out.add_column("net", justify="right")
    for seat in table.seats:
        net = seat.stack - start[seat.index]
        out.add_row(seat.name, str(seat.stack), f"{net:+d}")
    console.print(out)
    left = [f"pot {table.pot}"] + ([f"reserve {table.reserve}"] if table.reserve else [])
    console.print(", ".join(left) + (f"; {session.over_reason}" if session.over_reason else ""))
    if table.credit and any(seat.stack < 0 for seat in table.seats) and not table.places:
        for payer, payee, amount in table.settlement().payments:
            pays = f"{who([payer], start=False)} {agree([payer], 'pays')}"
            console.print(f"to settle up: {pays} {who([payee], start=False)} {amount}",
                          highlight=False)  # fmt: skip


def seat_names(config: PlayConfig) -> list[str]:
    """The names at the table: the person's (``seat_name``, by default "You", which the
    narration addresses in the second person) first, then bots'; in watch mode bots only,
    so no bot is ever called "You".

    >>> seat_names(PlayConfig(players=3)), seat_names(PlayConfig(players=3, watch=True))
    (['You', 'Ann', 'Bob'], ['Ann', 'Bob', 'Cat'])
    """
    person = [] if config.watch else [config.seat_name]
    bots = [name for name in BOT_NAMES if name != config.seat_name or config.watch]
    names = person + bots
    while len(names) < config.players:
        names.append(f"Bot {len(names) + 1}")
    return names[: config.players]


def play(
    game: Game,
    config: PlayConfig,
    make_policy: Callable[[str, Game, Session], Policy],
    console: Console | None = None,
    source: IO[str] | None = None,
) -> Session:
    """Play ``game`` in the terminal; returns the session when it ends or is left."""
    console = console or Console(highlight=False)
    names = seat_names(config)
    players = [(name, config.stack) for name in names]
    rng = Random(config.seed) if config.seed is not None else None
    session = game.new_session(players, options=config.options, rng=rng)
    human = None if config.watch else 0
    policies = {
        seat: make_policy(config.bots, game, session)
        for seat in range(len(players))
        if seat != human
    }
    console.print(f"[bold]{game.name}[/bold]: {game.description}")
    if config.options:
        shown = ", ".join(f"{key}={value}" for key, value in config.options.items())
        console.print(f"with {shown}", markup=False, highlight=False)
    start = [seat.stack for seat in session.table.seats]
    _drive(session, config, policies, Narrator(session.table.names, session.game),
           Terminal(console, source))
    _summary(console, session, start)
    _write_history(console, session, config, game.name)
    return session


def play_night(
    rules: NightRules, config: PlayConfig, console: Console | None = None,
    source: IO[str] | None = None,
) -> Night:  # fmt: skip
    """Play a night of dealer's choice by ``rules`` in the terminal: the games the host
    allows, each chosen in turn (bots choose too), stacks carried from game to game;
    returns the night when it ends or is left."""
    from guts.night import DEALERS_CHOICE, Night
    from guts.night.bots import NightPolicy
    from guts.night.narrate import NightNarrator

    console = console or Console(highlight=False)
    names = seat_names(config)
    rng = Random(config.seed) if config.seed is not None else None
    night = Night(rules, [(name, config.stack) for name in names], rng=rng)
    human = None if config.watch else 0
    policies: dict[int, Policy] = {
        seat: NightPolicy(config.bots, night) for seat in range(len(names)) if seat != human
    }
    console.print(f"[bold]{DEALERS_CHOICE}[/bold]: the dealer names each game of the night")
    console.print(f"games: {', '.join(rules.games.split(','))}", markup=False, highlight=False)
    options = rules.to_options()
    options.pop("games", None)
    if options:
        shown = ", ".join(f"{key}={value}" for key, value in options.items())
        console.print(f"with {shown}", markup=False, highlight=False)
    _drive(night, config, policies, NightNarrator(names), Terminal(console, source))
    _night_summary(console, night)
    _write_history(console, night, config, DEALERS_CHOICE)
    return night


class _Teller(Protocol):
    def tell(self, event: Event) -> str | None: ...


def _drive(
    session: Session, config: PlayConfig, policies: Mapping[int, Policy], narrator: _Teller,
    terminal: Terminal,
) -> None:  # fmt: skip
    """Start deals and answer decisions (the person at the terminal, bots for the rest)
    until the session ends, the deal limit is reached, or the person leaves."""
    console = terminal.console
    human = None if config.watch else 0
    bot_rng = Random(config.seed + 1 if config.seed is not None else None)
    seen = 0
    deals = 0
    try:
        while not session.is_over:
            seen = _narrate_new(console, session, narrator, human, seen)
            if session.deal_over:
                if config.deals is not None and deals >= config.deals:
                    were = "was" if config.deals == 1 else "were"
                    session.stop(f"{plural(config.deals, 'deal')} {were} played")
                    break
                session.start_deal()
                deals += 1
                continue
            for decision in session.pending():
                if decision.seat == human:
                    seen = _narrate_new(console, session, narrator, human, seen)
                    action = _ask(terminal, session, decision)
                else:
                    view = session.view(decision.seat)
                    action = policies[decision.seat].choose(view, decision, bot_rng)
                session.act(decision.seat, action)
    except (EOFError, KeyboardInterrupt):
        console.print("\n[italic]You leave the table.[/italic]")
    _narrate_new(console, session, narrator, human, seen)


def _write_history(console: Console, session: Session, config: PlayConfig, preset: str) -> None:
    if config.history:
        from guts.history import write_history

        with open(config.history, "w") as out:
            write_history(out, session, preset)
        console.print(f"hand history written to {config.history}")


def _night_summary(console: Console, night: Night) -> None:
    """Each game of the night in a line, then each player's chips across the whole night
    and the payments that settle it."""
    ledger = night.ledger
    for result in ledger.games:
        chooser = night.table.names[result.chooser] if result.chooser is not None else None
        by = f", chosen by {chooser}" if chooser else ""
        deals = f"{result.deals} deal{'s' if result.deals != 1 else ''}"
        console.print(f"game {result.number}: {result.game}{by}, {deals} "
                      f"({result.reason})", markup=False, highlight=False)  # fmt: skip
    out = RichTable(title="The night's chips")
    out.add_column("player")
    out.add_column("bought", justify="right")
    out.add_column("stack", justify="right")
    out.add_column("net", justify="right")
    for seat, name in enumerate(ledger.names):
        bought = ledger.buy_ins[seat] + ledger.markers[seat]
        out.add_row(name, str(bought), str(ledger.stacks[seat]), f"{ledger.net[seat]:+d}")
    console.print(out)
    if night.over_reason:
        console.print(night.over_reason, markup=False, highlight=False)
    if ledger.in_play:
        console.print(f"{ledger.in_play} chips are still in the middle of game {night.number}",
                      markup=False, highlight=False)  # fmt: skip
        return
    for payer, payee, amount in ledger.settlement().payments:
        pays = f"{who([payer], start=False)} {agree([payer], 'pays')}"
        console.print(f"to settle up: {pays} {who([payee], start=False)} {amount}",
                      highlight=False)  # fmt: skip


def _narrate_new(
    console: Console, session: Session, narrator: _Teller, seat: int | None, seen: int
) -> int:
    events = session.visible_events(seat)
    for event in events[seen:]:
        line = narrator.tell(event)
        if line:
            console.print(_told(line))
    return len(events)


def _told(line: str) -> Text:
    """A narrated line, its cards in colour, the deal and stage headings in bold."""
    text = colour_cards(line)
    if line.startswith("— "):
        text.stylize("bold")
    return text


def _ask(terminal: Terminal, session: Session, decision: Decision) -> str:
    """Show the person what is being decided and read answers until one is legal; help
    lists the accepted forms, a refusal is one line saying what was wrong."""
    console = terminal.console
    view = session.view(decision.seat)
    committed = committed_chips(view, decision.seat)
    rules = getattr(session, "rules", None)
    width = min(console.width, WIDTH)
    show(console, decision_panel(decision, view, rules=rules, width=width, committed=committed))
    check = checker(session, decision)
    while True:
        answer = terminal.ask(f"{prompt_word(decision)}> ")
        if wants_help(answer):
            for told in help_lines(decision, committed, view=view, rules=rules):
                show(console, [Text(told, style="cyan")], heading=False)
            continue
        try:
            return read_answer(decision, answer, check, committed=committed)
        except IllegalAction as refused:
            if not answer.strip():  # Enter alone: only where it can mean one thing
                said = Text(f"{summary(decision, committed)} (h for help)", style="dim")
                show(console, [said], heading=False)
                continue
            show(console, [refusal(str(refused), decision, width, committed)], heading=False)
