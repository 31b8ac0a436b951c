"""The page on a phone (375x667) and a laptop (1280x800): the action bar and one's own
cards are on screen without scrolling; the first load of the table page is measured
(bytes over the wire, time until it can act) and printed, not asserted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser_helpers import PHONE, Person, Server, buttons, on_screen, wait_until
from play import start


def first_load(person: Person) -> tuple[int, float]:
    """Bytes transferred for the page and its files, and milliseconds until it can act."""
    timing: dict[str, float] = person.page.evaluate(
        """() => {
            const entries = [...performance.getEntriesByType("navigation"),
                             ...performance.getEntriesByType("resource")];
            const ready = performance.getEntriesByName("guts-interactive")[0];
            return {bytes: entries.reduce((sum, e) => sum + (e.transferSize || 0), 0),
                    interactive: ready ? ready.startTime : -1};
        }"""
    )
    return int(timing["bytes"]), float(timing["interactive"])


def test_phone_and_laptop(chromium: Any, server: Server, shots: Path, measured: list[str]) -> None:
    created = server.open_table("five-card-draw", buy_in=100, auto_approve=True)
    ann = Person(chromium, "Ann", shots, viewport=PHONE)
    bob = Person(chromium, "Bob", shots)
    ann.open(created["host_url"])
    ann.join()
    bob.open(created["join_url"])
    size, interactive = first_load(bob)
    measured.append(
        f"table page first load: {size / 1024:.1f} KiB transferred, "
        f"can act after {interactive:.0f} ms (Chromium performance timing)"
    )
    bob.join()
    start(ann)
    ann.page.evaluate("window.scrollTo(0, 0)")

    def phone_checked(step: str) -> None:
        ann.shot(step)
        assert ann.page.evaluate("window.scrollY") == 0
        assert ann.page.locator("#hand .card").count() == 5
        assert not on_screen(ann, "#hand .card"), "own cards off screen"
        assert not on_screen(ann, "#actions button"), "actions off screen"

    kinds: set[str] = set()
    for _ in range(40):
        wait_until(lambda: buttons(ann.page) or buttons(bob.page), "a decision")
        if buttons(ann.page):
            kind = ann.value("state.decision.kind")
            if kind not in kinds:
                phone_checked(f"phone-{kind}")
                kinds.add(kind)
            found = buttons(ann.page)
            if "stand pat" in found:
                found["stand pat"].click()
            else:  # a bet, so that the deal goes on to the draw
                word = next(w for w in ("bet", "call", "check", "fold") if w in found)
                found[word].click()
            ann.page.wait_for_function("!window.gutsState.sent")
        found = buttons(bob.page)
        if found:
            if not bob.shot_count:
                bob.shot("laptop")
                assert not on_screen(bob, "#hand .card, #actions button")
            word = next(w for w in ("call", "check", "stand pat", "fold") if w in found)
            found[word].click()
            bob.page.wait_for_function("!window.gutsState.sent")
        if {"bet", "draw"} <= kinds:
            break
    assert {"bet", "draw"} <= kinds, f"the phone was asked only {kinds}"
    for person in (ann, bob):
        assert not person.errors, person.errors
