"""``guts solve --plot``: the chance of staying in against hand strength, per position.

Needs matplotlib (``pip install 'guts[plot]'``), imported only here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from guts.solve.solution import Solution

__all__ = ["plot_thresholds"]

_MOST_LINES = 8


def plot_thresholds(solution: Solution, path: str) -> None:
    """Draw one panel per position: P(in) per hand (weakest left), a line per history
    (the first few), into ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

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
