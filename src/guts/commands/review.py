"""``guts review``: a night's declarations against the equilibrium (a coach)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from guts.commands.common import console
from guts.commands.solve import short_position
from guts.errors import GutsError, OptionError

if TYPE_CHECKING:
    from guts.solve.review import Review

_COSTLIEST = 5


def review_command(
    history: Annotated[
        Path, typer.Argument(help="A hand history (guts play --history, or a server download).")
    ],
    seat: Annotated[
        str | None, typer.Option("--seat", help="Only this player's decisions (a name).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    plot: Annotated[
        str | None,
        typer.Option("--plot", help="Draw each player's cost over the night into FILE."),
    ] = None,
) -> None:
    """Each declaration the solver covers: what the player did, what the equilibrium does
    there, and the expected cost of the difference (pot units and chips); the night's
    total, the costliest decisions, and what could not be judged."""
    from guts.history import HistoryError, read_histories
    from guts.solve.review import review

    try:
        with history.open(encoding="utf-8") as source:
            histories = read_histories(source)
    except OSError as error:
        raise HistoryError(f"cannot read {history}: {error.strerror}") from None
    found = review(histories)
    if seat is not None:
        if seat not in found.names() and seat not in {n for h in histories for n in h.names}:
            raise OptionError(f"--seat: no player {seat!r} in {history}")
        found = found.of(seat)
    if plot:
        plot_costs(found, plot)
    if as_json:
        print(json.dumps(_json(found)))
        return
    render(found)


def _json(found: Review) -> dict[str, object]:
    total, chips = found.total()
    return {
        "decisions": [d.to_json() for d in found.judged],
        "total": {"cost": total, "cost_chips": chips},
        "players": {
            name: dict(zip(("cost", "cost_chips"), found.of(name).total(), strict=True))
            for name in found.names()
        },
        "costliest": [d.to_json() for d in found.costliest(_COSTLIEST)],
        "unjudged": [
            {
                "session": u.session,
                "deal": u.deal,
                "seat": u.seat,
                "name": u.name,
                "action": u.action,
                "reason": u.reason,
            }
            for u in found.unjudged
        ],
        "unjudged_reasons": found.reasons(),
    }


def render(found: Review) -> None:
    """The decisions, each player's total, the costliest and the unjudged."""
    table = Table(
        title="Declarations against the equilibrium (deal: session.game.deal where several)",
        title_justify="left",
    )
    for heading in ("deal", "player", "seat", "hand", "before", "did", "eq."):
        table.add_column(heading)
    table.add_column("EV (pot)", justify="right")
    table.add_column("cost", justify="right")
    table.add_column("chips", justify="right")
    several = len({(d.session, d.game) for d in found.judged}) > 1
    for d in found.judged:
        deal = f"{d.session + 1}.{d.game}.{d.deal}" if several else str(d.deal)
        evs = " / ".join(f"{d.ev[way]:+.3f}" for way in d.ev)
        table.add_row(
            deal, d.name, short_position(d.position), d.hand, d.before, d.action, d.best, evs,
            _amount(d.cost, 3), _amount(d.cost_chips, 1),
        )  # fmt: skip
    console.print(table)
    totals = Table(title="The night's cost (expected, against the equilibrium)",
                   title_justify="left")  # fmt: skip
    for heading, justify in (("player", "left"), ("judged", "right"), ("pot units", "right"),
                             ("chips", "right"), ("not judged", "right")):  # fmt: skip
        totals.add_column(heading, justify=justify)  # type: ignore[arg-type]
    for name in found.names():
        mine = found.of(name)
        cost, chips = mine.total()
        totals.add_row(
            name,
            str(len(mine.judged)),
            _amount(cost, 3),
            _amount(chips, 1),
            str(len(mine.unjudged)),
        )
    console.print(totals)
    costly = [d for d in found.costliest(_COSTLIEST) if d.cost_chips > 0.05]
    if costly:
        console.print("Costliest decisions:", highlight=False)
        for d in costly:
            console.print(
                f"  deal {d.deal}, {d.name} ({d.position}, {d.hand}, before: {d.before}): "
                f"{d.action} where the equilibrium goes {d.best}: {d.cost_chips:.1f} chips "
                f"({d.cost:.3f} pot)",
                highlight=False,
            )
    reasons = found.reasons()
    if reasons:
        console.print(f"Not judged: {len(found.unjudged)} decisions", highlight=False)
        for reason, count in reasons.items():
            console.print(f"  {count} x {reason}", highlight=False)
    if not found.judged and not found.unjudged:
        console.print("No declarations in this history.")


def _amount(x: float, places: int) -> str:
    """``x`` to ``places`` decimals, no sign on a zero ("-0.000" is 0)."""
    text = f"{x:.{places}f}"
    return text.lstrip("-") if float(text) == 0 else text


def plot_costs(found: Review, path: str) -> None:
    """Each player's cumulative cost in chips over the night's decisions."""
    try:
        import matplotlib
    except ImportError:
        raise GutsError("--plot needs matplotlib (pip install 'guts[plot]')") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(9, 4))
    order = {id(d): i for i, d in enumerate(found.judged)}
    for name in found.names():
        mine = found.of(name).judged
        xs = [order[id(d)] + 1 for d in mine]
        running, ys = 0.0, []
        for d in mine:
            running += d.cost_chips
            ys.append(running)
        axis.step(xs, ys, where="post", label=name)
    axis.set_xlabel("decision of the night")
    axis.set_ylabel("expected cost, chips (cumulative)")
    axis.set_title("Declarations against the equilibrium")
    axis.axhline(0.0, color="grey", linewidth=0.5)
    axis.legend()
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


def register(app: typer.Typer) -> None:
    """Add ``guts review`` to ``app``."""
    app.command("review")(review_command)
