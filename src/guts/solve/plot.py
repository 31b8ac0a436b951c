"""``guts solve --plot``: the chance of staying in against hand strength, per position.

Needs matplotlib (``pip install 'guts[plot]'``), imported only here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from guts.solve.hilo_solution import HiLoSolution
    from guts.solve.solving import AnySolution

__all__ = ["plot_thresholds"]

_MOST_LINES = 8
_MOST_PANELS = 12
"""Hi-Lo: the most information sets drawn (those the equilibrium reaches, in order)."""


def plot_thresholds(solution: AnySolution, path: str) -> None:
    """Draw one panel per position: P(in) per hand (weakest left), a line per history
    (the first few), into ``path``; Hi-Lo: a panel per information set the equilibrium
    reaches (the first few), the chance of each declaration per hand."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from guts.solve.hilo_solution import HiLoSolution

    if isinstance(solution, HiLoSolution):
        _plot_hi_lo(solution, path)
        return

    n = solution.players
    words = solution.level_words()
    figure, axes = plt.subplots(n, 1, figsize=(9, 2.2 * n), sharex=True, squeeze=False)
    x = np.arange(len(words))
    for p, name in enumerate(solution.position_names):
        axis = axes[p][0]
        for h, before in enumerate(solution.histories(p)[:_MOST_LINES]):
            if not solution.forced(p, h):
                axis.plot(x, solution.in_by_level(p, h), label=f"before: {before}")
        axis.set_title(name, fontsize=9)
        axis.set_ylabel("P(in)")
        axis.set_ylim(-0.05, 1.05)
        axis.legend(fontsize=6, loc="upper left")
    ticks = np.linspace(0, len(words) - 1, min(len(words), 8)).astype(int)
    axes[-1][0].set_xticks(ticks, [words[t] for t in ticks], rotation=30, ha="right", fontsize=7)
    figure.suptitle(f"{solution.game}, {n} players")
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


def _plot_hi_lo(solution: HiLoSolution, path: str) -> None:
    import matplotlib.pyplot as plt

    sets = [(p, h, f"{name}, before: {before}") for p, name in enumerate(solution.position_names)
            for h, before in enumerate(solution.histories(p))
            if solution.reached(p, h) >= 1e-3][:_MOST_PANELS]  # fmt: skip
    words = solution.level_words()
    figure, axes = plt.subplots(len(sets), 1, figsize=(9, 1.8 * len(sets)), sharex=True,
                                squeeze=False)  # fmt: skip
    x = np.arange(len(words))
    for (p, h, title), row in zip(sets, axes, strict=True):
        chances = solution.by_level(p, h)
        row[0].stackplot(x, chances.T, labels=solution.ways)
        row[0].set_title(title, fontsize=9)
        row[0].set_ylim(0, 1)
        row[0].legend(fontsize=6, loc="upper left")
    ticks = np.linspace(0, len(words) - 1, min(len(words), 8)).astype(int)
    axes[-1][0].set_xticks(ticks, [words[t] for t in ticks], rotation=30, ha="right", fontsize=7)
    figure.suptitle(f"{solution.game}, {solution.players} players: the declarations")
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
