"""``guts solve``: the equilibrium of a Guts preset, by position and what was declared."""

from __future__ import annotations

import json
import math
import sys
from typing import TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
from rich.table import Table

from guts.commands.common import OptionOpt, console, parse_key_values
from guts.errors import OptionError

if TYPE_CHECKING:
    from guts.solve import AnySolution, Solution
    from guts.solve.chain import ChainSolution
    from guts.solve.hilo_solution import HiLoSolution
    from guts.solve.sampled import SampledNashConv


def solve_command(
    game: Annotated[str, typer.Argument(help="A Guts preset from `guts games`.")],
    players: Annotated[
        int | None,
        typer.Option("--players", "-n", help="Players (2 to 8; default 4, Hi-Lo 2)."),
    ] = None,
    option: OptionOpt = None,
    iterations: Annotated[int, typer.Option("--iterations", help="Most CFR iterations.")] = 2000,
    tolerance: Annotated[
        float | None,
        typer.Option(
            "--tolerance",
            help="Stop at this exploitability (pot units per player; default 1e-6 heads-up "
            "two-card, 1e-4 for more players, 5e-4 for Hi-Lo, three-card heads-up and a pot cap).",
        ),
    ] = None,
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="Solve again; do not read or write the cache.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    deals: Annotated[
        int | None,
        typer.Option(
            "--deals",
            help="Four or more players, three-card: solve on this many sampled real deals "
            "(card removal kept); 0: hands independent (default with two cards: 3,200,000 "
            "for 4 players in turn, 1,600,000 for 5 to 7, 200,000 for 5 or 6 at once).",
        ),
    ] = None,
    real_game: Annotated[
        int,
        typer.Option(
            "--real-game",
            help="Where hands are independent in the model (4+ players, three-card): "
            "estimate the exploitability in the real game from this many real deals.",
        ),
    ] = 0,
    plot: Annotated[
        str | None, typer.Option("--plot", help="Draw the thresholds into FILE (matplotlib).")
    ] = None,
) -> None:
    """Solve GAME's declarations: who stays in with what, by position and what was
    declared before; EV per position and exploitability in units of the pot."""
    from guts.solve import solve
    from guts.solve.solving import converged, default_players, default_tolerance, rules_of

    options = parse_key_values(option or [])
    if players is None:
        players = default_players(game, options)
    if tolerance is None:
        tolerance = default_tolerance(rules_of(game, options), players)
    if iterations < 1:
        raise OptionError(f"--iterations must be at least 1, not {iterations}")
    show = sys.stderr.isatty() and not as_json
    with Progress(
        "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
        TimeElapsedColumn(), console=Console(stderr=True), disable=not show, transient=True,
    ) as bar:  # fmt: skip
        task = bar.add_task(f"{game}, {players} players: iterations", total=iterations)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done)

        solution = solve(
            game, players, options, iterations=iterations,
            tolerance=tolerance, progress=progress, cache=not no_cache, deals=deals,
        )  # fmt: skip
    met = converged(solution, tolerance)
    sampled = _real_game(solution, real_game) if real_game > 0 else None
    if plot:
        from guts.solve.plot import plot_thresholds

        plot_thresholds(solution, plot)
    if as_json:
        found = {**solution.to_json(), "tolerance": tolerance, "converged": met}
        if sampled is not None:
            lower, upper = sampled.per_player
            error = sampled.lower_error / solution.players
            found["real_game"] = {"lower": lower, "upper": upper, "lower_error": error,
                                  "deals": sampled.deals}  # fmt: skip
        print(json.dumps(found))
        return
    from guts.solve.hilo_solution import HiLoSolution

    if isinstance(solution, HiLoSolution):
        render_hi_lo(solution, console)
    else:
        render(solution, console)
    if sampled is not None:
        lower, upper = sampled.per_player
        console.print(
            f"in the real game (every hand from one pack, {sampled.deals} deals): "
            f"exploitability between {lower:.1e} and {upper:.1e} of the pot per player "
            f"(the lower estimate's standard error {sampled.lower_error / solution.players:.1e})",
            highlight=False,
        )
    if not met:
        console.print(
            f"[bold red]not converged[/]: {solution.result.iterations} iterations did not "
            f"reach the tolerance {tolerance:.0e} (exploitability "
            f"{solution.result.exploitability:.1e}, fixed-point residual "
            f"{solution.result.residual:.1e}); the table above is not the equilibrium. "
            "Raise --iterations.",
            highlight=False,
        )


def _real_game(solution: AnySolution, deals: int) -> SampledNashConv | None:
    """The sampled real-game bracket of an in/out solution whose hands are independent
    (None where the solve is exact already); OptionError where it cannot be sampled."""
    from guts.solve.chain import ChainSolution
    from guts.solve.hilo_solution import HiLoSolution
    from guts.solve.sampled import sampled_nash_conv

    if isinstance(solution, (HiLoSolution, ChainSolution)):
        raise OptionError("--real-game samples the plain in/out games (not Hi-Lo, not a cap)")
    if solution.exact:
        return None  # its exploitability is the real game's
    result = solution.result
    try:
        return sampled_nash_conv(solution.deal, result.strategy, result.continuation,
                                 deals=deals)  # fmt: skip
    except ValueError as error:
        raise OptionError(f"--real-game: {error}") from None


def mixing_words(mixed: list[tuple[str, float]]) -> str:
    """The hands that mix, in a few words."""
    if len(mixed) <= 2:
        return ", ".join(f"{words} {chance:.0%}" for words, chance in mixed)
    (low, p_low), (high, p_high) = mixed[0], mixed[-1]
    return f"{len(mixed)} hands, {low} {p_low:.0%} to {high} {p_high:.0%}"


def render(solution: Solution, out: Console) -> None:
    """The strategy table, the EV per position and the exploitability."""
    table = Table(
        title=f"{solution.game}, {solution.players} players: the weakest hand that stays in",
        title_justify="left",
    )
    for heading in ("position", "declared before", "weakest hand in", "mixes"):
        table.add_column(heading)
    for p, name in enumerate(solution.position_names):
        for before in solution.histories(p):
            weakest, mixed = solution.weakest_in(p, before)
            table.add_row(name, before, weakest, mixing_words(mixed))
        table.add_section()
    out.print(table)
    from guts.solve.chain import ChainSolution

    if isinstance(solution, ChainSolution):
        render_pots(solution, out)
    render_footer(solution, out)


def short_position(name: str) -> str:
    """A position's name short enough for a column of chips ("3rd left", "dealer")."""
    return name.replace("dealer's left", "1st left").replace(" from the 1st left", " left")


def render_pots(solution: ChainSolution, out: Console) -> None:
    """With a pot cap or limit: each pot of the chain (chips), each position's EV there
    (chips) and the exploitability (pot units); the table above is the first pot's."""
    out.print(
        f"EV in chips by pot (the table above is the first pot's, {solution.pot} chips; "
        f"from the cap, {solution.cap} chips, one deal)",
        highlight=False,
    )
    # no rules between columns: eight positions fit 80 columns
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("pot")
    for name in solution.position_names:
        short = short_position(name)
        table.add_column(short, justify="right", min_width=max(map(len, short.split())))
    table.add_column("exploit-\nability", justify="right", no_wrap=True)
    for state in solution.states:
        label = f"{state.pot}+" if state.capped else str(state.pot)
        evs = [f"{v * state.pot:.2f}" for v in state.result.values]
        table.add_row(label, *evs, f"{state.result.exploitability:.1e}")
    out.print(table)


def render_footer(solution: AnySolution, out: Console) -> None:
    """The EV of each position (pot units), then the exploitability and how it was found."""
    result = solution.result
    ev = Table(title="EV per position (pot units)", title_justify="left")
    ev.add_column("position")
    ev.add_column("EV", justify="right")
    for name, value in zip(solution.position_names, result.values, strict=True):
        ev.add_row(name, f"{value:.4f}")
    out.print(ev)
    deals = getattr(solution, "deals", 0)
    removal = (
        "exact card removal" if solution.exact
        else f"card removal by {deals} sampled deals" if deals
        else "hands independent"
    )  # fmt: skip
    whole = result.session_exploitability
    session = (
        f", {whole:.2e} over the whole session (a stationary best response)"
        if math.isfinite(whole)
        else ""
    )
    out.print(
        f"exploitability {result.exploitability:.2e} of the pot per player in one deal"
        f"{session} (NashConv {result.nash_conv:.2e}); {result.iterations} iterations, "
        f"{result.seconds:.1f} s; "
        f"{len(solution.classes.count)} hand classes, {removal}; the next pot is "
        f"{_next_pot(solution):.3f} of this one on average"
    )


def _next_pot(solution: AnySolution) -> float:
    """The expected next pot in units of this one (an in/out solution keeps a sampled
    solve's, so its deals are not drawn again)."""
    from guts.solve.solution import Solution

    if isinstance(solution, Solution):
        return solution.expected_next_pot
    return solution.deal.growth(solution.result.strategy)


def render_hi_lo(solution: HiLoSolution, out: Console) -> None:
    """Hi-Lo: what each stretch of hands declares, by position and what was declared
    before; the EV per position and the exploitability."""
    table = Table(
        title=f"{solution.game}, {solution.players} players: what each hand declares",
        title_justify="left",
    )
    for heading in ("position", "declared before", "declares (weakest hands first)", "mixes"):
        table.add_column(heading)
    for p, name in enumerate(solution.position_names):
        unreached = []
        for h, before in enumerate(solution.histories(p)):
            if solution.reached(p, h) < 1e-3:
                unreached.append(before)
                continue
            stretches = "; ".join(f"{way}: {span}" for way, span in solution.ranges(p, h))
            mixing = solution.mixing(p, h)
            shown = f"{mixing} hand{'' if mixing == 1 else 's'}" if mixing else ""
            table.add_row(name, before, stretches, shown)
        if unreached:  # one row for them all: in turn, most histories of many players
            before = unreached[0] if len(unreached) == 1 else f"{len(unreached)} histories"
            table.add_row(name, before, "never reached: the equilibrium never declares this", "")
        table.add_section()
    out.print(table)
    render_footer(solution, out)


def register(app: typer.Typer) -> None:
    """Add ``guts solve`` to ``app``."""
    app.command("solve")(solve_command)
