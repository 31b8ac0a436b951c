"""``guts census``: every hand of N cards counted by category, or a sample."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

from guts.commands.common import (
    JokerOpt,
    JokersOpt,
    OptionOpt,
    RankingArg,
    WildOpt,
    build_ranking,
    console,
)
from guts.errors import OptionError
from guts.rankings import DEFAULT_CARDS


def census_command(
    ranking: RankingArg,
    cards: Annotated[int | None, typer.Option("--cards", help="Cards per hand.")] = None,
    wild: WildOpt = "",
    joker: JokerOpt = None,
    jokers: JokersOpt = None,
    option: OptionOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    sample: Annotated[
        int | None, typer.Option("--sample", help="Estimate from N random hands.")
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed for --sample.")] = None,
    plot: Annotated[
        Path | None,
        typer.Option("--plot", help="Draw the category frequencies to FILE (.png or .svg)."),
    ] = None,
) -> None:
    """Count every hand of N cards by category (or estimate with --sample)."""
    from guts.census import census, sample_census

    if plot is not None:
        from guts.sim.plots import check_format

        check_format(plot)
    rank = build_ranking(ranking, wild, joker, jokers, option)
    if seed is not None and sample is None:
        raise OptionError("--seed only applies to a sampled census: add --sample N")
    size = cards if cards is not None else DEFAULT_CARDS[ranking]
    show = sys.stderr.isatty() and not as_json
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=not show,
        transient=True,
    ) as bar:
        task = bar.add_task(f"{ranking} {size}-card hands", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        if sample is not None:
            result = sample_census(rank, size, sample, seed, progress)
        else:
            result = census(rank, size, progress)
    title = f"{ranking}, {size} cards, {rank.deck.describe()}"
    if rank.options():
        title += " (" + ", ".join(f"{k}={v}" for k, v in rank.options().items()) + ")"
    if plot is not None:
        from guts.sim.plots import census_figure, save

        rows = [(category.label, count) for category, count in result.categories.items()]
        save(census_figure(rows, title, result.sampled), plot)
    if as_json:
        print(json.dumps(result.to_json()))
        return
    table = Table(title=title + (" — sampled" if result.sampled else ""))
    table.add_column("category")
    table.add_column("hands", justify="right")
    table.add_column("share", justify="right")
    table.add_column("1 in", justify="right")
    if result.sampled:
        table.add_column("95% interval", justify="right")
    for category, count in result.categories.items():
        share = count / result.total
        row = [
            category.label,
            f"{count:,}",
            f"{100 * share:.4f}%",
            f"{1 / share:,.1f}" if count else "-",
        ]
        if result.sampled:
            low, high = result.intervals[category]
            row.append(f"{100 * low:.4f}-{100 * high:.4f}%")
        table.add_row(*row)
    table.add_section()
    table.add_row("total", f"{result.total:,}", "100%", "")
    console.print(table)
    console.print(f"{result.classes:,} distinct hand strengths")
    if result.no_pair_by_top_card is not None:
        tops = ", ".join(f"{k}: {v:,}" for k, v in result.no_pair_by_top_card.items())
        console.print(f"no-pair hands by top card: {tops}")
    if plot is not None:
        console.print(f"wrote {plot}")


def register(app: typer.Typer) -> None:
    """Add ``guts census`` to ``app``."""
    app.command("census")(census_command)
