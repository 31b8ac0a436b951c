"""Plots of simulations and censuses (matplotlib, the ``plot`` extra, imported here only).

- :func:`bankroll_paths` replays the first sessions of a run deal by deal and
  :func:`bankroll_figure` draws each seat's chips won or lost over them, one session
  after another;
- :func:`pots_figure`: how often each pot size came up (log scales);
- :func:`ev_figure`: the mean net per deal of each seat with its 95% interval;
- :func:`compare_figure`: two runs side by side (house rule A against B): nets by seat,
  pots, outcomes and session lengths;
- :func:`census_figure`: a census's category frequencies.

Figures are plain :class:`matplotlib.figure.Figure` objects (no pyplot, no global
state); :func:`save` writes PNG or SVG by the file's suffix.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from guts.errors import OptionError
from guts.sim.outcomes import OUTCOMES
from guts.sim.runner import SimSpec, play_session

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "FORMATS",
    "bankroll_figure",
    "bankroll_paths",
    "census_figure",
    "compare_figure",
    "ev_figure",
    "pots_figure",
    "save",
    "write_run_plots",
]

FORMATS = ("png", "svg")
"""The file formats plots are written in."""


def _figure(width: float, height: float, panels: tuple[int, int] = (1, 1)) -> tuple[Figure, Any]:
    """A new figure and its axes (an OptionError saying what to install without matplotlib)."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise OptionError("--plot needs matplotlib: pip install 'guts[plot]'") from None
    figure = Figure(figsize=(width, height), layout="constrained")
    axes = figure.subplots(*panels, squeeze=False)
    return figure, axes


def check_format(path: Path) -> str:
    """The format of ``path`` by its suffix (an OptionError unless PNG or SVG)."""
    kind = path.suffix.lower().lstrip(".")
    if kind not in FORMATS:
        raise OptionError(f"plots are written as .png or .svg files, not {path.name!r}")
    return kind


def save(figure: Figure, path: Path) -> Path:
    """Write ``figure`` to ``path`` (PNG or SVG by the suffix); returns the path."""
    kind = check_format(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, format=kind, dpi=120)
    return path


# -- what a run looked like deal by deal ------------------------------------------------------


def bankroll_paths(
    spec: SimSpec, deals: int = 500, sessions: int | None = None
) -> tuple[list[list[int]], list[int]]:
    """Each seat's total net after every deal of the run's first sessions (session 0, 1,
    ... played as the run plays them, until ``deals`` deals or ``sessions`` sessions),
    and the deals at which each new session started."""
    steps: list[list[int]] = []
    starts: list[int] = []
    totals = [0] * spec.players
    index = 0
    while len(steps) < deals and (sessions is None or index < sessions):
        starts.append(len(steps))
        cut = deals - len(steps)
        for stacks in _session_stacks(spec, index, cut):
            steps.append([t + s - spec.buy_in for t, s in zip(totals, stacks, strict=True)])
        totals = steps[-1]
        index += 1
    return steps, starts


def _session_stacks(spec: SimSpec, index: int, cut: int) -> list[list[int]]:
    """The stacks after each deal of session ``index`` (stopped after ``cut`` deals)."""
    if spec.fast:
        from guts.sim.vector import Trace, check_fast, fast_game, run_fast

        game = fast_game(check_fast(spec), spec.players)
        trace = run_fast(game, spec.seat_bots, seed=spec.seed, first=index, count=1,
                         buy_in=spec.buy_in, max_deals=min(cut, spec.max_deals),
                         trace=True)  # fmt: skip
        assert isinstance(trace, Trace)
        played = int(trace.played.deals[0])
        stacks: list[list[int]] = trace.stacks[0, :played].tolist()
        return stacks
    found: list[list[int]] = []

    def note(session: Any) -> None:
        found.append([session.table.stack(seat) for seat in range(spec.players)])

    play_session(spec, index, cut, on_deal=note)
    return found


# -- figures --------------------------------------------------------------------------------


def _title(data: Mapping[str, Any]) -> str:
    options = ", ".join(f"{k}={v}" for k, v in data["options"].items())
    path = " (fast path)" if data.get("path") == "fast" else ""
    return f"{data['game']}{f' ({options})' if options else ''}, {data['players']} players{path}"


def _seat_labels(data: Mapping[str, Any]) -> list[str]:
    return [f"{row['name']}\n({row['bot']})" for row in data["seats"]]


def bankroll_figure(
    data: Mapping[str, Any], steps: Sequence[Sequence[int]], starts: Sequence[int]
) -> Figure:
    """Each seat's chips won or lost over the first deals of a run (report ``data``)."""
    figure, axes = _figure(9, 5)
    ax = axes[0][0]
    values = np.asarray(steps)
    x = np.arange(1, len(values) + 1)
    for seat, row in enumerate(data["seats"]):
        ax.step(x, values[:, seat], where="post", label=f"{row['name']} ({row['bot']})")
    lines = len(starts) <= 40
    if lines:
        for start in starts[1:]:
            ax.axvline(start + 0.5, color="0.85", linewidth=0.8, zorder=0)
    ax.axhline(0, color="0.4", linewidth=0.8)
    ax.set_title(f"Bankrolls over the first {len(values)} deals: {_title(data)}")
    sessions = f"{len(starts)} session{'s' * (len(starts) != 1)}"
    ax.set_xlabel(f"deal ({sessions}{'; grey lines: a new session starts' if lines else ''})")
    ax.set_ylabel("chips won or lost")
    ax.legend(loc="best", fontsize="small")
    return figure


def _pot_counts(data: Mapping[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    counts = data["pots"]["counts"]
    return np.array([c[0] for c in counts]), np.array([c[1] for c in counts])


def _draw_pots(ax: Any, runs: Sequence[tuple[str, Mapping[str, Any]]]) -> None:
    for label, data in runs:
        sizes, times = _pot_counts(data)
        keep = sizes > 0
        ax.plot(sizes[keep], times[keep] / times.sum(), marker="o", markersize=3,
                linewidth=1, label=label)  # fmt: skip
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("pot played for (chips, log scale)")
    ax.set_ylabel("share of deals (log scale)")


def pots_figure(data: Mapping[str, Any]) -> Figure:
    """How often each pot size came up in a run, on log scales."""
    figure, axes = _figure(8, 5)
    ax = axes[0][0]
    _draw_pots(ax, [(f"{data['pots']['n']:,} deals", data)])
    pots = data["pots"]
    ax.set_title(f"Pot sizes: {_title(data)}\nmean {pots['mean']:.2f}, median "
                 f"{pots['median']}, 99% at most {pots['p99']}, largest {pots['max']}")  # fmt: skip
    ax.legend(loc="best", fontsize="small")
    return figure


def _draw_ev(ax: Any, runs: Sequence[tuple[str, Mapping[str, Any]]]) -> None:
    first = runs[0][1]
    positions = np.arange(len(first["seats"]))
    width = 0.8 / len(runs)
    for k, (label, data) in enumerate(runs):
        means, lows, highs = [], [], []
        for row in data["seats"]:
            entry = row["net_per_deal"]
            mean = entry["mean"] or 0.0
            low, high = entry["ci95"] or (mean, mean)
            means.append(mean)
            lows.append(mean - low)
            highs.append(high - mean)
        ax.bar(positions + (k - (len(runs) - 1) / 2) * width, means, width, yerr=[lows, highs],
               capsize=4, label=label)  # fmt: skip
    ax.axhline(0, color="0.4", linewidth=0.8)
    ax.set_xticks(positions, _seat_labels(first))
    ax.set_ylabel("mean net per deal (chips), 95% interval")


def ev_figure(data: Mapping[str, Any]) -> Figure:
    """The mean net per deal of each seat with its 95% interval."""
    figure, axes = _figure(8, 5)
    ax = axes[0][0]
    _draw_ev(ax, [(f"{data['sessions']:,} sessions", data)])
    ax.set_title(f"Expected value by seat: {_title(data)}")
    ax.legend(loc="best", fontsize="small")
    return figure


def _draw_outcomes(ax: Any, runs: Sequence[tuple[str, Mapping[str, Any]]]) -> None:
    positions = np.arange(len(OUTCOMES))
    width = 0.8 / len(runs)
    for k, (label, data) in enumerate(runs):
        shares = [100 * (data["outcomes"].get(name) or {"share": 0})["share"] for name in OUTCOMES]
        ax.bar(positions + (k - (len(runs) - 1) / 2) * width, shares, width, label=label)
    ax.set_xticks(positions, list(OUTCOMES))
    ax.set_ylabel("share of deals (%)")


def _draw_lengths(ax: Any, runs: Sequence[tuple[str, Mapping[str, Any]]]) -> None:
    for label, data in runs:
        counts = data["session_deals"]
        total = data["sessions"]
        lengths = _length_counts(data)
        x = np.array(sorted(lengths), dtype=float)
        y = np.cumsum([lengths[int(k)] for k in x]) / max(total, 1)
        # from nothing just before the shortest to all just past the longest, so that a
        # run whose sessions all last as long still draws its step
        x = np.concatenate([[x[0] / 1.25], x, [x[-1] * 1.25]])
        y = np.concatenate([[0.0], y, [1.0]])
        ax.step(x, y, where="post", marker="o", markevery=slice(1, -1),
                label=f"{label} (mean {counts['mean']:.2f})")  # fmt: skip
    ax.set_xscale("log")
    ax.set_xlabel("deals per session (log scale)")
    ax.set_ylabel("share of sessions at most that long")


def _length_counts(data: Mapping[str, Any]) -> dict[int, int]:
    return {int(x): int(c) for x, c in data["session_deals"]["counts"]}


def compare_figure(a: Mapping[str, Any], b: Mapping[str, Any], change: str) -> Figure:
    """House rule A (run ``a``) against B (run ``b``, which adds ``change``), side by side:
    nets by seat, pot sizes, outcomes and session lengths."""
    figure, axes = _figure(13, 9, (2, 2))
    runs = [("A: " + (_options(a) or "as preset"), a), ("B: " + change, b)]
    _draw_ev(axes[0][0], runs)
    axes[0][0].set_title("Mean net per deal by seat (95% intervals)")
    _draw_pots(axes[0][1], runs)
    axes[0][1].set_title("Pot sizes")
    _draw_outcomes(axes[1][0], runs)
    axes[1][0].set_title("Outcomes of the deals")
    _draw_lengths(axes[1][1], runs)
    axes[1][1].set_title("Session lengths")
    for ax in (axes[0][0], axes[0][1], axes[1][0], axes[1][1]):
        # below each panel, where it hides no bar or line
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2, fontsize="small",
                  frameon=False)  # fmt: skip
    figure.suptitle(f"{a['game']}, {a['players']} players: A against B ({change})")
    return figure


def _options(data: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in data["options"].items())


def census_figure(rows: Sequence[tuple[str, int]], title: str, sampled: bool = False) -> Figure:
    """A census's category frequencies (``rows``: each category's name and count, best
    first), best on top, shares on a log scale."""
    figure, axes = _figure(9, 5.5)
    ax = axes[0][0]
    names = [name for name, _ in rows]
    counts = np.array([count for _, count in rows], dtype=float)
    total = counts.sum()
    shares = 100 * counts / total
    bars = ax.barh(np.arange(len(names)), np.where(shares > 0, shares, np.nan))
    for bar, share, count in zip(bars, shares, counts, strict=True):
        if count:
            ax.annotate(f"{share:.4g}%", (bar.get_width(), bar.get_y() + bar.get_height() / 2),
                        xytext=(3, 0), textcoords="offset points", va="center",
                        fontsize="small")  # fmt: skip
    ax.set_yticks(np.arange(len(names)), names)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("share of hands (%, log scale)")
    ax.margins(x=0.12)
    ax.set_title(f"{title}: {int(total):,} hands{' (sampled)' if sampled else ''}")
    return figure


def write_run_plots(
    directory: Path, spec: SimSpec, data: Mapping[str, Any], kind: str = "png", prefix: str = ""
) -> list[Path]:
    """Write a run's plots to ``directory`` (file names after ``prefix``): bankrolls,
    pots, EV by seat."""
    if kind not in FORMATS:
        raise OptionError(f"--plot-format must be png or svg, not {kind!r}")
    steps, starts = bankroll_paths(spec, sessions=int(data["sessions"]))
    return [
        save(bankroll_figure(data, steps, starts), directory / f"{prefix}bankroll.{kind}"),
        save(pots_figure(data), directory / f"{prefix}pots.{kind}"),
        save(ev_figure(data), directory / f"{prefix}ev.{kind}"),
    ]
