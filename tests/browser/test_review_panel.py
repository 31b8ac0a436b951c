"""The coach on the page (issue 28): after some deals, a seat's review panel shows its own
declarations against the equilibrium, with the costs ``guts review`` prints for the seat's
own history download; a server without the solve extra says the review needs it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser_helpers import WAIT, Person, Server, buttons


def _deals_ended(person: Person) -> int:
    return sum(event.get("kind", "").endswith("deal-ended")
               for frame in person.frames for event in frame.get("events") or [])  # fmt: skip


def _play(person: Person, deals: int) -> None:
    """Ann goes in with a pair or an ace, out otherwise, until ``deals`` deals ended."""
    deadline = time.monotonic() + WAIT
    while _deals_ended(person) < deals:
        assert time.monotonic() < deadline, "the deals were not played in time"
        found = buttons(person.page)
        if found:
            hand = person.value("state.game.hand") or []
            strong = len({card[0] for card in hand}) < len(hand) or any(c[0] == "A" for c in hand)
            found["in" if strong else "out"].click()
            person.page.wait_for_function("!window.gutsState.sent")
        person.page.wait_for_timeout(30)


def _seated(
    server: Server, shots: Path, chromium: Any, viewport: tuple[int, int] = (1280, 800)
) -> tuple[Person, dict[str, Any]]:
    created = server.open_table("two-card-guts", buy_in=100, auto_approve=True, clock=0)
    ann = Person(chromium, "Ann", shots, viewport)
    ann.open(created["host_url"])
    ann.join()
    for _ in range(2):
        ann.page.click("#tab-host")
        seats = ann.value("state.seats.length")
        ann.page.select_option("#bot-kind", "threshold")
        ann.page.click("#add-bot")
        ann.page.wait_for_function(f"window.gutsState.seats.length > {seats}")
    ann.page.click("#start-at-table")
    ann.page.wait_for_function("window.gutsState.game !== null")
    return ann, created


def _open_review(ann: Person) -> None:
    ann.page.click("#tab-deals")
    ann.page.click("#review-open")


def test_the_review_panel_shows_ones_own_decisions_at_the_cost_guts_review_prints(
    chromium: Any, server: Server, shots: Path, tmp_path: Path
) -> None:
    ann, created = _seated(server, shots, chromium)
    _play(ann, 6)
    _open_review(ann)
    ann.page.wait_for_selector(
        "#review .review-total, #review .review-error, #review .review-missing", timeout=240_000
    )  # a first solve
    assert ann.page.locator("#review .review-total").count(), ann.page.inner_text("#review")
    rows = ann.page.eval_on_selector_all(
        "#review tr.review-row",
        """rows => rows.map(row => {
            const part = (name) => row.querySelector('.' + name).textContent;
            return {cost: Number(row.dataset.cost), chips: Number(row.dataset.chips),
                    cells: ['deal', 'position', 'hand', 'before', 'did', 'best', 'cost',
                            'chips'].map(part)};
        })""",
    )
    ann.shot("review")

    token = ann.page.evaluate(f"localStorage.getItem('guts:token:{created['table_id']}')")
    history = httpx.get(f"{server.url}/api/tables/{created['table_id']}/history",
                        headers={"authorization": f"Bearer {token}"}, timeout=WAIT)  # fmt: skip
    history.raise_for_status()
    path = tmp_path / "ann.jsonl"
    path.write_text(history.text)
    printed = subprocess.run([sys.executable, "-m", "guts", "review", str(path), "--seat", "Ann",
                              "--json"], capture_output=True, text=True, check=True,
                             timeout=300, env={**os.environ})  # fmt: skip
    coach = json.loads(printed.stdout)
    assert coach["decisions"], "Ann made decisions the coach judges"
    assert all(d["name"] == "Ann" for d in coach["decisions"])
    assert len(rows) == len(coach["decisions"]), (rows, coach["decisions"])
    for row, decision in zip(rows, coach["decisions"], strict=True):
        assert row["cost"] == pytest.approx(decision["cost"], abs=1e-12)
        assert row["chips"] == pytest.approx(decision["cost_chips"], abs=1e-12)
        deal, position, hand, before, did = row["cells"][:5]
        assert (deal, position, hand, before, did) == (
            f"{decision['session'] + 1}.{decision['deal']}", decision["position"],
            decision["hand"], _before(decision["before"]), decision["action"])  # fmt: skip
        assert row["cells"][5] == _best(decision["equilibrium"])
        assert row["cells"][6] == _amount(decision["cost"], 3)
        assert row["cells"][7] == _amount(decision["cost_chips"], 1)
    total = ann.page.locator("#review .review-total")
    assert float(total.get_attribute("data-cost") or "nan") == pytest.approx(
        coach["total"]["cost"], abs=1e-9)  # fmt: skip
    assert f"{_amount(coach['total']['cost_chips'], 1)} chips" in total.inner_text()
    # the bots' declarations are theirs: no hand of theirs is in Ann's history, and the
    # panel names none of them
    everyone = subprocess.run([sys.executable, "-m", "guts", "review", str(path), "--json"],
                              capture_output=True, text=True, check=True, timeout=300)  # fmt: skip
    others = [d for d in json.loads(everyone.stdout)["unjudged"] if d["name"] != "Ann"]
    assert others, "the bots declared too"
    shown = ann.page.inner_text("#review")
    assert "Bot" not in shown
    unjudged = len(coach["unjudged"])
    if unjudged:
        assert f"Not judged: {unjudged} decision" in shown
    assert not ann.errors, ann.errors
    ann.close()


def _best(chances: dict[str, float]) -> str:
    """The equilibrium's declaration as guts review words it ("in", "in 40%, out 60%")."""
    played = [(way, p) for way, p in chances.items() if p > 0.02]
    return played[0][0] if len(played) == 1 else ", ".join(f"{w} {p:.0%}" for w, p in played)


def _before(before: str) -> str:
    """What guts review says was declared before, as the panel words it."""
    if before == "-":
        return "first to declare"
    return "all declare at once" if before == "all at once" else f"before: {before}"


def _amount(x: float, places: int) -> str:
    text = f"{x:.{places}f}"
    return text.lstrip("-") if float(text) == 0 else text


def test_a_server_without_the_solver_says_the_review_needs_it(
    chromium: Any, tmp_path: Path, shots: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "no-numba" / "numba"
    blocked.mkdir(parents=True)
    (blocked / "__init__.py").write_text("raise ImportError('numba is not installed here')\n")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        [str(blocked.parent), os.environ.get("PYTHONPATH", "")]))  # fmt: skip
    server = Server(tmp_path / "server")
    (tmp_path / "server").mkdir()
    server.start()
    try:
        ann, _ = _seated(server, shots, chromium, (360, 740))  # a phone
        _play(ann, 1)
        _open_review(ann)
        ann.page.wait_for_selector("#review .review-missing")
        assert "needs the solver" in ann.page.inner_text("#review .review-missing")
        assert ann.page.locator("#review tr.review-row").count() == 0
        ann.shot("review-without-solver")
        assert not ann.errors, ann.errors
        ann.close()
    finally:
        server.kill()
