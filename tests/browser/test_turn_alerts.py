"""Turn alerts in a real Chromium (issue 29): when it is a player's turn and the page is
not in front, the tab's title says so (until the page is in front again), the sound the
player chose plays, a desktop notification shows (permission asked for once, when
joining) and a phone vibrates. The browser's notification, vibration and audio are
stand-ins that record their calls; whether the page is in front is set by the test."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser_helpers import Person, Server, wait_until

STAND_INS = """
window.__hidden = false;
window.__calls = {asked: 0, notes: [], vibrations: 0, tones: 0};
Object.defineProperty(document, 'hidden', {get: () => window.__hidden});
document.hasFocus = () => !window.__hidden;
class StandInNotification {
    static permission = 'default';
    static requestPermission() {
        window.__calls.asked += 1;
        StandInNotification.permission = 'granted';
        return Promise.resolve('granted');
    }
    constructor(title, options) { window.__calls.notes.push([title, options.body]); }
}
window.Notification = StandInNotification;
navigator.vibrate = () => { window.__calls.vibrations += 1; return true; };
window.AudioContext = class {
    constructor() { this.currentTime = 0; this.destination = {}; }
    createOscillator() {
        return {frequency: {}, connect: (node) => node, start: () => { window.__calls.tones += 1; },
                stop: () => {}};
    }
    createGain() {
        return {gain: {setValueAtTime() {}, exponentialRampToValueAtTime() {}},
                connect: (node) => node};
    }
};
"""


def test_a_turn_away_from_the_page(chromium: Any, server: Server, shots: Path) -> None:
    created = server.open_table("two-card-guts", buy_in=50, auto_approve=True, clock=0)
    ann = Person(chromium, "Ann", shots)
    bob = Person(chromium, "Bob", shots, viewport=(390, 844))
    bob.page.add_init_script(STAND_INS)
    ann.open(created["host_url"])
    ann.join()
    bob.open(created["join_url"])
    bob.join()
    assert bob.page.evaluate("window.__calls.asked") == 1  # asked when joining
    bob.page.click("#tab-seat")
    bob.page.check("#turn-sound")
    bob.page.evaluate("window.__hidden = true")
    ann.page.click("#start-at-table")

    wait_until(lambda: bob.value("state.decision && !state.sent"), "Bob's turn")
    wait_until(lambda: bob.page.title().startswith("● Your turn"), "the title's mark")
    calls = bob.page.evaluate("window.__calls")
    assert calls["notes"] and calls["notes"][0][0] == "Your turn at guts", calls
    assert calls["vibrations"] == 1 and calls["tones"] == 1, calls
    assert set(bob.value("state.alerts")) == {"title", "sound", "notification", "vibration"}

    bob.page.evaluate(
        "window.__hidden = false; document.dispatchEvent(new Event('visibilitychange'))"
    )
    wait_until(lambda: not bob.page.title().startswith("●"), "the mark to go")
    bob.shot("in-front")
    bob.page.reload()
    bob.page.wait_for_selector("#connection[data-state=online]")
    assert bob.page.evaluate("window.__calls.asked") == 0  # asked once: not again
    for person in (ann, bob):
        assert not person.errors, person.errors
        person.close()
