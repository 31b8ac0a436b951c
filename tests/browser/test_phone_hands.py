"""Every family's largest hand on a 360 px phone, in a real Chromium (issue 29, item 8):
Three Five Seven's seven cards, Seven Card Draw's seven, Four-Two-Two Guts' six,
Bourré's five and Fan Tan's 26 (two players): every seat and every card of one's own
hand is on the screen, none runs off an edge, and none is too narrow to read or tap
(a bigger hand wraps into rows)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_helpers import Person, Server, buttons
from play import add_bot
from playwright.sync_api import Error as PlaywrightError

PHONE = (360, 740)
NARROWEST = 30
"""The narrowest one's own card may be on a phone, in CSS pixels (its corner readable)."""
ORDER = ("in", "stay", "play", "call", "check", "stand pat", "stand")
LARGEST = [("three-five-seven", 7, 4), ("seven-card-draw", 7, 3), ("four-two-two", 6, 4),
           ("bourre", 5, 4), ("fan-tan", 26, 1)]  # fmt: skip
"""Each family's preset with its largest hand: the hand's size and the bots beside Ann."""


def off_screen(person: Person) -> dict[str, Any]:
    """How many cards one's own hand shows, the page's width, and the seats, seat cards
    and own cards not wholly inside the phone's width, and the narrowest own card (all
    read at the same moment)."""
    outside: dict[str, Any] = person.page.evaluate(
        """() => ({held: document.querySelectorAll('#hand .card').length,
                   narrowest: Math.min(...[...document.querySelectorAll('#hand .card')]
                       .map(card => card.getBoundingClientRect().width)),
                   width: document.documentElement.scrollWidth,
                   outside: [...document.querySelectorAll('.seat, .seat .card, #hand .card')]
            .filter(element => {
                const box = element.getBoundingClientRect();
                return box.left < 0 || box.right > innerWidth || box.width === 0;
            }).map(element => {
                const seat = element.closest('.seat');
                return element.className + ' ' + (element.dataset.card || '') + ' '
                    + (seat ? seat.dataset.seat : 'own');
            })})"""
    )
    return outside


@pytest.mark.parametrize(("preset", "size", "bots"), LARGEST)
def test_the_largest_hand_fits_a_phone(
    chromium: Any, server: Server, shots: Path, preset: str, size: int, bots: int
) -> None:
    created = server.open_table(preset, buy_in=200, auto_approve=True, clock=0)
    ann = Person(chromium, "Ann", shots, viewport=PHONE)
    ann.open(created["host_url"])
    ann.join()
    for _ in range(bots):
        add_bot(ann, "sensible")
    ann.page.click("#start-at-table")
    ann.page.wait_for_function("window.gutsState.game !== null")
    ann.page.evaluate("window.scrollTo(0, 0)")
    for _ in range(400):
        seen = off_screen(ann)
        if seen["held"] >= size:
            break
        found = buttons(ann.page)
        word = next((w for w in ORDER if w in found), next(iter(found), None))
        try:
            if word is not None:
                found[word].click(timeout=2000)
            elif ann.page.query_selector("#hand button.card:not([disabled])"):
                ann.page.click("#hand button.card:not([disabled])", timeout=2000)
            else:
                ann.page.wait_for_timeout(50)
        except PlaywrightError:
            continue
    else:
        raise AssertionError(f"Ann never held {size} cards in {preset}")
    ann.shot(f"{preset}-{size}-cards")
    assert seen["width"] <= PHONE[0], seen
    assert not seen["outside"], seen
    assert seen["narrowest"] >= NARROWEST, seen
    assert not ann.errors, ann.errors
    ann.close()
