"""The host's controls and a player's seat controls in a real Chromium: the clock of the
seat to act counts down, a key acts, the host pauses and resumes the table, sets a seat
away and back, and gives the chips a player asked for; a chat line reaches everyone."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from browser_helpers import Person, Server, buttons, wait_until
from play import approve_all, start


def test_host_and_seat_controls(chromium: Any, server: Server, shots: Path) -> None:
    created = server.open_table("two-card-guts", buy_in=50, clock=30)
    ann = Person(chromium, "Ann", shots)
    bob = Person(chromium, "Bob", shots)
    ann.open(created["host_url"])
    ann.join()
    bob.open(created["join_url"])
    bob.join()
    approve_all(ann, 2)
    start(ann)

    acting = wait_until(lambda: next((p for p in (ann, bob) if buttons(p.page)), None), "a turn")
    clock = acting.page.locator(".seat.you .seat-clock")
    assert re.fullmatch(r"to act · \d+ s", clock.inner_text()), clock.inner_text()
    acting.page.keyboard.press("i")  # the key of "in"
    wait_until(lambda: acting.value("!state.decision || state.sent"), "the key to act")

    ann.page.click("#tab-host")
    ann.page.click("#pause")
    for person in (ann, bob):
        person.page.wait_for_selector("#title:has-text('paused')")
    ann.shot("paused")
    ann.page.click("#pause")
    bob.page.wait_for_selector("#title:has-text('playing')")

    ann.page.click(".host-seats li:has-text('Bob') button.away")
    bob.page.wait_for_selector(".seat:has-text('Bob') .badge:has-text('away')")
    bob.page.click("#tab-seat")
    assert "sitting out" in bob.page.inner_text("#seat-panel")
    bob.shot("away")
    bob.page.click("#come-back")
    bob.page.wait_for_selector("#sit-out")

    bob.page.fill("#chips-amount", "20")
    bob.page.click("#buy-chips")
    ann.page.wait_for_selector(".chips-request:has-text('Bob asks for 20 chips')")
    ann.shot("chips-asked")
    ann.page.click(".chips-request button.approve-chips")
    ann.page.wait_for_selector(".chips-request", state="detached")

    bob.page.click("#tab-chat")
    bob.page.fill("#chat-text", "nice hand")
    bob.page.press("#chat-text", "Enter")
    ann.page.click("#tab-chat")
    ann.page.wait_for_selector("#chat-lines li:has-text('Bob: nice hand')")
    for person in (ann, bob):
        assert not person.errors, person.errors
