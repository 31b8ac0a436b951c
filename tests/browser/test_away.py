"""Away and paused at the table, in a real Chromium (issue 29, item 9): a player set away
comes back with "I'm back" at the table (a phone, 360 px wide); while the host pauses the
table the pause is shown and In/Out are disabled; the host's change of stakes is
confirmed once the table has it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser_helpers import Person, Server, wait_until

PHONE = (360, 740)


def test_away_pause_and_stakes(chromium: Any, server: Server, shots: Path) -> None:
    created = server.open_table("two-card-guts", buy_in=50, auto_approve=True, clock=0)
    ann = Person(chromium, "Ann", shots)
    bob = Person(chromium, "Bob", shots, viewport=PHONE)
    ann.open(created["host_url"])
    ann.join()
    bob.open(created["join_url"])
    bob.join()
    ann.page.wait_for_function("window.gutsState.seats.length === 2")
    ann.page.click("#start-at-table")
    ann.page.wait_for_function("window.gutsState.game !== null")
    bob.page.wait_for_selector("#actions button[data-action=in]:not([disabled])")

    ann.page.click("#tab-host")
    ann.page.click("#pause")
    bob.page.wait_for_selector("#actions .paused-line")
    assert bob.page.is_disabled("#actions button[data-action=in]")
    assert bob.page.is_disabled("#actions button[data-action=out]")
    assert bob.page.is_visible("#actions .paused-line")
    bob.shot("paused")
    ann.page.click("#pause")
    bob.page.wait_for_selector("#actions button[data-action=in]:not([disabled])")
    assert bob.page.locator("#actions .paused-line").count() == 0

    ann.page.click(".host-seats li:has-text('Bob') button.away")
    back = bob.page.locator("#join #im-back")
    back.wait_for()
    box = back.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE[1]
    bob.shot("away")
    back.click()
    wait_until(lambda: not bob.value("state.seats.find(s => s.nickname === 'Bob').away"), "back")
    bob.page.wait_for_selector("#join #im-back", state="detached")

    ann.page.click("#options-form >> xpath=..")  # the options' disclosure
    ann.page.fill("#next-buy-in", "80")
    ann.page.click("#options-form button[type=submit]")
    saved = ann.page.locator("#options-saved")
    wait_until(lambda: "buy-in is 80" in saved.inner_text(), "the stakes confirmed")
    assert server.summary(created["table_id"])["buy_in"] == 80
    ann.shot("stakes-saved")
    for person in (ann, bob):
        assert not person.errors, person.errors
        person.close()
