"""``guts simulate``: sessions of a game between bots, summarised per seat and bot."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

from guts.commands.common import OptionOpt, console, parse_key_values
from guts.errors import OptionError


def simulate_command(
    game: Annotated[str, typer.Argument(help="A game from `guts games`.")],
    players: Annotated[int, typer.Option("--players", "-n", help="Players at the table.")] = 4,
    bots: Annotated[
        str, typer.Option("--bots", help="Bot kinds, one per seat, cycled: sensible,random.")
    ] = "sensible",
    sessions: Annotated[
        int | None, typer.Option("--sessions", help="Play N whole sessions.")
    ] = None,
    deals: Annotated[
        int | None, typer.Option("--deals", help="Play sessions until N deals are played.")
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed for a repeatable run.")] = None,
    option: OptionOpt = None,
    buy_in: Annotated[int, typer.Option("--buy-in", help="Chips each player buys in for.")] = 100,
    max_deals: Annotated[
        int, typer.Option("--max-deals", help="Stop a session after N deals.")
    ] = 1000,
    workers: Annotated[int, typer.Option("--workers", "-w", help="Worker processes.")] = 1,
    executor: Annotated[
        str, typer.Option("--executor", help="Where batches run: process, dask or ray.")
    ] = "process",
    scheduler: Annotated[
        str | None, typer.Option("--scheduler", help="Address of a Dask or Ray cluster.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Simulate sessions of GAME between bots: nets, busts, session lengths, pots, outcomes."""
    from guts.sim import SimSpec, open_executor, render, report, simulate
    from guts.sim.seeding import new_seed

    if (sessions is None) == (deals is None):
        raise OptionError("give either --sessions N or --deals N (not both)")
    if workers < 1:
        raise OptionError(f"--workers must be at least 1, not {workers}")
    spec = SimSpec.make(
        game, players=players, bots=bots, options=parse_key_values(option or []),
        buy_in=buy_in, seed=new_seed() if seed is None else seed, max_deals=max_deals,
    )  # fmt: skip
    plan = {"sessions": sessions} if sessions is not None else {"deals": deals or 0}
    unit, total = next(iter(plan.items()))
    show = sys.stderr.isatty() and not as_json
    with (
        open_executor(executor, workers, scheduler) as pool,
        Progress(
            "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
            TimeRemainingColumn(), console=Console(stderr=True), disable=not show,
            transient=True,
        ) as bar,
    ):  # fmt: skip
        task = bar.add_task(f"{game}: {unit}", total=total)

        def progress(sessions_done: int, deals_done: int) -> None:
            bar.update(task, completed=sessions_done if unit == "sessions" else deals_done)

        summary = simulate(spec, sessions=sessions, deals=deals, executor=pool,
                           workers=workers, progress=progress)  # fmt: skip
    data = report(spec, summary, plan)
    if as_json:
        print(json.dumps(data))
        return
    render(data, console)


def register(app: typer.Typer) -> None:
    """Add ``guts simulate`` to ``app``."""
    app.command("simulate")(simulate_command)
