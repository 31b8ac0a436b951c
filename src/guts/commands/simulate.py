"""``guts simulate``: sessions of a game between bots, summarised per seat and bot."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

from guts.commands.common import OptionOpt, console, parse_key_values
from guts.errors import OptionError

if TYPE_CHECKING:
    from guts.sim import SimSpec, Summary

FAST_HELP = (
    "Play on the vectorized Guts path (millions of deals a second with numba): two- and "
    "three-card Guts on credit or at table stakes, in turn (with the dealer's option) or at "
    "once, with threshold, random or equilibrium bots, and Hi-Lo with threshold or random "
    "bots (two-card-guts, three-card-guts, simultaneous-guts, ghost-guts, single-loser-guts, "
    "no-peek-guts, winner-takes-all-guts, capped-guts, hi-lo-guts and their options); "
    "anything else is refused, naming why. Its random streams are its own."
)

PLAIN_NOTE = (
    "{why}: --fast runs its loop uncompiled on numpy (the same results, some 200 times "
    "slower); {remedy}"
)


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
    fast: Annotated[bool, typer.Option("--fast", help=FAST_HELP)] = False,
    plot: Annotated[
        Path | None,
        typer.Option("--plot", help="Write plots to DIR: bankrolls, pot sizes, EV by seat."),
    ] = None,
    plot_format: Annotated[
        str, typer.Option("--plot-format", help="Plot files as png or svg.")
    ] = "png",
    compare: Annotated[
        list[str] | None,
        typer.Option(
            "--compare-option",
            help="Also run with this option KEY=VALUE (repeatable) and set the two side "
            "by side: house rule A against B.",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Simulate sessions of GAME between bots: nets, busts, session lengths, pots, outcomes."""
    from guts.sim import SimSpec, report
    from guts.sim.seeding import new_seed

    if (sessions is None) == (deals is None):
        raise OptionError("give either --sessions N or --deals N (not both)")
    if workers < 1:
        raise OptionError(f"--workers must be at least 1, not {workers}")
    if plot_format not in ("png", "svg"):
        raise OptionError(f"--plot-format must be png or svg, not {plot_format!r}")
    options = parse_key_values(option or [])
    change = parse_key_values(compare or [])
    run_seed = new_seed() if seed is None else seed
    specs = [SimSpec.make(
        game, players=players, bots=bots, options=options, buy_in=buy_in, seed=run_seed,
        max_deals=max_deals, fast=fast,
    )]  # fmt: skip
    if change:
        specs.append(SimSpec.make(
            game, players=players, bots=bots, options=options | change, buy_in=buy_in,
            seed=run_seed, max_deals=max_deals, fast=fast,
        ))  # fmt: skip
    if plot is not None:
        _check_plotting()
    if fast:
        _note_plain_loop()
    plan = {"sessions": sessions} if sessions is not None else {"deals": deals or 0}
    summaries = [
        _run(spec, plan, workers, executor, scheduler, show=sys.stderr.isatty() and not as_json)
        for spec in specs
    ]
    data = [report(spec, summary, plan) for spec, summary in zip(specs, summaries, strict=True)]
    words = ", ".join(f"{k}={v}" for k, v in change.items())
    written = _plots(plot, plot_format, specs, data, words) if plot is not None else []
    if as_json:
        print(json.dumps(data[0] if not change else {"compare": change, "a": data[0],
                                                      "b": data[1]}))  # fmt: skip
        return
    _render(data, words)
    for path in written:
        console.print(f"wrote {path}")


def _run(
    spec: SimSpec, plan: dict[str, int], workers: int, executor: str, scheduler: str | None,
    *, show: bool,
) -> Summary:  # fmt: skip
    """Run ``spec`` by ``plan`` on the executor, with a progress bar when ``show``."""
    from guts.sim import open_executor, simulate

    unit, total = next(iter(plan.items()))
    with (
        open_executor(executor, workers, scheduler, fast=spec.fast) as pool,
        Progress(
            "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
            TimeRemainingColumn(), console=Console(stderr=True), disable=not show,
            transient=True,
        ) as bar,
    ):  # fmt: skip
        task = bar.add_task(f"{spec.preset}: {unit}", total=total)

        def progress(sessions_done: int, deals_done: int) -> None:
            bar.update(task, completed=sessions_done if unit == "sessions" else deals_done)

        def tell(line: str) -> None:
            bar.console.print(line, markup=False, highlight=False)

        return simulate(spec, executor=pool, workers=workers, progress=progress, tell=tell,
                        **{unit: total})  # fmt: skip


def _render(data: list[dict[str, Any]], change: str) -> None:
    from guts.sim import render

    if len(data) == 1:
        render(data[0], console)
        return
    console.rule("A: as given")
    render(data[0], console)
    console.rule(f"B: with {change}")
    render(data[1], console)


def _note_plain_loop() -> None:
    """Say on stderr when the fast path will run uncompiled."""
    from guts.sim.kernel import PLAIN, plain_reason

    why = plain_reason()
    if why is None:
        return
    remedy = (f"unset {PLAIN} to compile it" if why.startswith(PLAIN)
              else "pip install 'guts[fast]' to compile it")  # fmt: skip
    print(PLAIN_NOTE.format(why=why, remedy=remedy), file=sys.stderr)


def _check_plotting() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise OptionError("--plot needs matplotlib: pip install 'guts[plot]'") from None


def _plots(
    directory: Path, kind: str, specs: list[SimSpec], data: list[dict[str, Any]], change: str
) -> list[Path]:
    """Write the plots of each run (B's prefixed ``b-``) and, comparing, both side by side."""
    from guts.sim.plots import compare_figure, save, write_run_plots

    written = write_run_plots(directory, specs[0], data[0], kind)
    if len(specs) == 2:
        written += write_run_plots(directory, specs[1], data[1], kind, prefix="b-")
        figure = compare_figure(data[0], data[1], change)
        written.append(save(figure, directory / f"compare.{kind}"))
    return written


def register(app: typer.Typer) -> None:
    """Add ``guts simulate`` to ``app``."""
    app.command("simulate")(simulate_command)
