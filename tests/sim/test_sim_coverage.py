"""The 95% intervals of `guts simulate` cover the truth 93-97% of the time at table stakes.

Many short runs of one game on the fast path, each with its own seed, are set against the
truth: the same figures from all their sessions pooled (hundreds of times more sessions
than one run, so the truth's own error is a small fraction of one run's interval). The
game is the one where the deals of a session depend on each other most: table stakes,
going on after the pot empties, a random bot that nearly always goes bust against
threshold bots (so that many runs see only busts for it: a one-valued sample).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from typing import Any

import pytest

from guts.sim import SimSpec, Summary, report, simulate

pytestmark = pytest.mark.skipif(
    not __import__("guts.sim.vector", fromlist=["compiled"]).compiled(),
    reason="needs the compiled fast path (numba)",
)

RUNS = 400
SESSIONS = 200
GAME = {"players": 4, "bots": "threshold,random", "buy_in": 20, "max_deals": 30,
        "options": {"credit": "no", "continue-after-empty": "yes"}}  # fmt: skip


def figures(data: dict[str, Any]) -> Iterator[tuple[str, float, list[float] | None]]:
    """Every estimate of a report with its interval, by name."""
    for row in data["seats"]:
        for figure in ("net_per_deal", "net_per_session", "bust"):
            entry = row[figure]
            yield f"seat {row['seat']} {figure}", entry.get("mean", entry.get("share")), \
                entry["ci95"]
    for kind, row in data["by_bot"].items():
        for figure in ("net_per_deal", "net_per_session", "bust"):
            entry = row[figure]
            yield f"{kind} {figure}", entry.get("mean", entry.get("share")), entry["ci95"]
    yield "session deals", data["session_deals"]["mean"], data["session_deals"]["ci95"]
    for name, entry in data["outcomes"].items():
        yield f"{name} share", entry["share"], entry["ci95"]


def test_intervals_cover_the_truth_about_95_percent_of_the_time() -> None:
    specs = [SimSpec.make("two-card-guts", seed=seed, fast=True, **GAME) for seed in range(RUNS)]
    pooled: Summary | None = None
    reports = []
    for spec in specs:
        summary = simulate(spec, sessions=SESSIONS, batch=SESSIONS)
        reports.append(report(spec, summary, {"sessions": SESSIONS}))
        pooled = summary if pooled is None else pooled.merge(summary)
    assert pooled is not None
    truth = {name: value for name, value, _ in figures(report(specs[0], pooled, {}))}
    covered: dict[str, int] = defaultdict(int)
    seen: dict[str, int] = defaultdict(int)
    for data in reports:
        for name, _, ci in figures(data):
            seen[name] += 1
            if ci is not None:
                assert ci[0] < ci[1], name  # never of zero width
                covered[name] += ci[0] <= truth[name] <= ci[1]
    shares = {name: covered[name] / seen[name] for name in seen}
    print(sorted(shares.items()))
    overall = sum(covered.values()) / sum(seen.values())
    assert 0.93 <= overall <= 0.97, shares
