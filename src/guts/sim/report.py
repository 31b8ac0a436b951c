"""A simulation's report: one JSON object, or tables for the terminal.

:func:`report` turns a :class:`~guts.sim.summary.Summary` into plain JSON values: the
run (game, options, players, bots, buy-in, seed, plan), then per seat and per bot kind
the mean net per deal and per session with 95% intervals and the risk of ruin, how long
sessions lasted, the pots and the outcomes. Every interval takes the session as its unit
(:mod:`guts.sim.stats`); at table stakes a seat's net lies between minus its buy-in and
everyone else's, and the interval uses those bounds. A figure without an interval has
``ci95`` null (and says so in the tables). It holds the exact sums too, so reports of
runs with different seeds can be merged. Nothing in it depends on how the run was
executed, so the same run gives the same bytes. :func:`render` prints it as tables.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rich.console import Console
from rich.table import Table

from guts.sim.outcomes import OUTCOMES
from guts.sim.runner import SimSpec
from guts.sim.stats import Histogram, Interval
from guts.sim.summary import SeatStats, Summary

__all__ = ["render", "report"]


def report(spec: SimSpec, summary: Summary, plan: dict[str, int]) -> dict[str, Any]:
    """The JSON report of ``summary``, a run of ``spec`` with ``plan`` (``{"sessions": S}``
    or ``{"deals": D}``)."""
    names = spec.names
    return {
        "game": spec.preset,
        "family": spec.game.family,
        "options": dict(spec.options),
        "players": spec.players,
        "bots": list(spec.seat_bots),
        "buy_in": spec.buy_in,
        "seed": spec.seed,
        "max_deals": spec.max_deals,
        "path": "fast" if spec.fast else "engine",
        "plan": plan,
        "sessions": summary.sessions,
        "deals": summary.deals,
        "stopped_at_max_deals": summary.capped,
        "stopped_at_pot_overflow": summary.overflowed,
        "seats": [
            {"seat": seat, "name": names[seat], "bot": spec.seat_bots[seat]} | _seat(stats, spec)
            for seat, stats in enumerate(summary.seats)
        ],
        "by_bot": {
            kind: {"seats": stats.seats, **_seat(stats, spec)}
            for kind, stats in summary.kinds.items()
        },
        "session_deals": summary.lengths.moments().to_json(1, spec.max_deals)
        | _spread(summary.lengths)
        | {"counts": summary.lengths.to_json()["counts"]},
        "pots": summary.pots.to_json(),
        "outcomes": summary.outcomes.to_json(),
        "left_on_table": {"mean": summary.left.to_json()["mean"]} | _spread(summary.left),
    }


def _spread(histogram: Histogram) -> dict[str, Any]:
    """The median, the 90th percentile and the largest of ``histogram``."""
    return {"median": histogram.quantile(0.5), "p90": histogram.quantile(0.9),
            "max": histogram.max}  # fmt: skip


def _seat(stats: SeatStats, spec: SimSpec) -> dict[str, Any]:
    """A seat's (or a bot kind's, per seat) nets and risk of ruin."""
    per = stats.seats
    net = stats.net
    per_deal = net.interval()
    per_session = net.x_moments()
    if spec.table_stakes:  # the seats' nets together: from all lost to all the others'
        session = per_session.interval(-per * spec.buy_in, (spec.players - per) * spec.buy_in)
    else:
        session = per_session.interval()
    # the share of seat-sessions that went bust (for a bot kind, each of its seats in each
    # session counts once; the session is the unit: how many of them went bust in it)
    bust = stats.busts.interval(0, per)
    if bust is not None:
        bust = Interval(bust.estimate / per, bust.low / per, bust.high / per)
    return {
        "net_per_deal": _scaled_interval(per_deal, net.ratio, per),
        "net_per_session": _scaled_interval(session, per_session.mean, per),
        "bust": {
            "count": stats.busts.total,
            "share": None if bust is None else bust.estimate,
            "ci95": None if bust is None else [bust.low, bust.high],
        },
        "exact": {"net": net.sums(), "busts": stats.busts.sums()},
    }


def _scaled_interval(
    interval: Interval | None, estimate: Fraction | None, per: int
) -> dict[str, Any]:
    """An estimate and its interval divided by ``per`` seats."""
    mean = None if estimate is None else float(estimate / per)
    if interval is None:
        return {"mean": mean, "ci95": None}
    return {"mean": mean, "ci95": [interval.low / per, interval.high / per]}


def _money(value: float | None, ci: list[float] | None = None, sign: str = "+") -> str:
    """``+1.234 ± 0.567``, ``-9.950 (-10.000 to -9.243)`` where the interval is not
    symmetric, ``-10.000 (no interval)`` where there is none."""
    if value is None:
        return "-"
    text = f"{value:{sign}.3f}"
    if ci is None:
        return text + " (no interval)"
    low, high = ci
    if abs((high - value) - (value - low)) <= 1e-9 * max(1.0, abs(value)):
        return text + f" ± {(high - low) / 2:.3f}"
    return text + f" ({low:{sign}.3f} to {high:{sign}.3f})"


def _share(entry: dict[str, Any]) -> str:
    if entry["share"] is None:
        return "-"
    low, high = entry["ci95"]
    return f"{100 * entry['share']:.1f}% ({100 * low:.1f}-{100 * high:.1f}%)"


def render(data: dict[str, Any], console: Console) -> None:
    """Print the report ``data`` (from :func:`report`) as tables."""
    options = ", ".join(f"{k}={v}" for k, v in data["options"].items())
    console.print(
        f"[bold]{data['game']}[/bold]{f' ({options})' if options else ''}: "
        f"{data['sessions']:,} sessions, {data['deals']:,} deals, {data['players']} players "
        f"buying in for {data['buy_in']}, seed {data['seed']}"
        + (" (fast path)" if data.get("path") == "fast" else "")
    )
    seats = Table(title="Per seat: mean net ± 95% interval, share of sessions gone bust")
    for column in ("seat", "bot", "per deal", "per session", "went bust"):
        seats.add_column(column, justify="left" if column in ("seat", "bot") else "right")
    for row in data["seats"]:
        seats.add_row(row["name"], row["bot"], *_cells(row))
    console.print(seats)
    kinds = Table(title="Per bot kind, per seat it plays")
    for column in ("bot", "seats", "per deal", "per session", "went bust"):
        kinds.add_column(column, justify="left" if column == "bot" else "right")
    for kind, row in data["by_bot"].items():
        kinds.add_row(kind, str(row["seats"]), *_cells(row))
    console.print(kinds)
    length, capped = data["session_deals"], data["stopped_at_max_deals"]
    console.print(
        f"deals per session: {_money(length['mean'], length['ci95'], '')}, "
        f"median {length['median']}, 90% at most {length['p90']}, longest {length['max']}"
        + (f"; {capped:,} stopped at {data['max_deals']} deals" if capped else "")
    )
    if data.get("stopped_at_pot_overflow"):
        console.print(
            f"{data['stopped_at_pot_overflow']:,} sessions stopped after a pot passed 2**60 "
            "chips (the most the fast path counts; the engine, without --fast, plays on)"
        )
    pots = data["pots"]
    if pots["n"]:
        console.print(
            f"pots: mean {pots['mean']:.2f}, median {pots['median']}, 90% at most "
            f"{pots['p90']}, 99% at most {pots['p99']}, largest {pots['max']}"
        )
    outcomes = data["outcomes"]
    if outcomes:
        order = [name for name in OUTCOMES if name in outcomes]
        order += [name for name in outcomes if name not in order]
        console.print(
            "outcomes: " + ", ".join(f"{name} {_share(outcomes[name])}" for name in order)
        )
    left = data["left_on_table"]
    if left["max"]:
        console.print(f"chips left in the pot when sessions ended: up to {left['max']}")


def _cells(row: dict[str, Any]) -> list[str]:
    deal, session = row["net_per_deal"], row["net_per_session"]
    return [
        _money(deal["mean"], deal["ci95"]),
        _money(session["mean"], session["ci95"]),
        _share(row["bust"]),
    ]
