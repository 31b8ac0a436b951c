"""compare.png: every panel draws something, and no legend hides what it labels."""

from __future__ import annotations

import pytest

from guts.sim import SimSpec, report, simulate

pytest.importorskip("matplotlib")


def run(options: dict[str, str]) -> dict[str, object]:
    spec = SimSpec.make("two-card-guts", players=4, bots="threshold,random", seed=2,
                        max_deals=3, options=options | {"continue-after-empty": "yes"})  # fmt: skip
    return report(spec, simulate(spec, sessions=30), {"sessions": 30})


def test_compare_figure_with_sessions_all_as_long_and_legends_clear_of_the_bars() -> None:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from guts.sim.plots import compare_figure

    a, b = run({}), run({"ante": "2"})
    assert a["session_deals"]["counts"] == [[3, 30]]  # every session lasts as long
    figure = compare_figure(a, b, "ante=2")
    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    renderer = canvas.get_renderer()
    lengths = figure.axes[3]
    for line in lengths.get_lines():
        xs = line.get_xdata()
        assert min(xs) < 3 < max(xs)  # a step with a width, not a point
    for ax in figure.axes:
        legend = ax.get_legend()
        assert legend is not None
        box = legend.get_window_extent(renderer)
        drawn = [*ax.patches, *ax.get_lines(), ax.xaxis.label, *ax.get_xticklabels()]
        for artist in drawn:
            extent = artist.get_window_extent(renderer)
            if extent.width and extent.height:
                assert not box.overlaps(extent), (ax.get_title(), artist)
