"""Showdowns in a real Chromium (issue 29, item 7): in draw poker each shown hand is named
on its seat and the centre says who won what with which hand, kept as a "Last deal" line
through the next deal; a Guts showdown names the hands on the seats too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser_helpers import Person, Server, buttons, wait_until

PHONE = (390, 844)


def act_until(people: list[Person], order: tuple[str, ...], until: Any) -> None:
    """Each person takes the first action of ``order`` they may, until ``until()``."""
    for _ in range(300):
        if until():
            return
        for person in people:
            found = buttons(person.page)
            word = next((w for w in order if w in found), None)
            if word is not None:
                found[word].click()
                person.page.wait_for_function("!window.gutsState.sent")
        people[0].page.wait_for_timeout(30)
    assert until(), "the game did not get there"


def test_a_draw_showdown_names_the_hands_and_the_winner(
    chromium: Any, server: Server, shots: Path
) -> None:
    created = server.open_table("five-card-draw", buy_in=100, auto_approve=True, clock=0)
    ann = Person(chromium, "Ann", shots)
    bob = Person(chromium, "Bob", shots, viewport=PHONE)
    ann.open(created["host_url"])
    ann.join()
    bob.open(created["join_url"])
    bob.join()
    ann.page.click("#start-at-table")
    ann.page.wait_for_function("window.gutsState.game !== null")

    order = ("bet", "call", "stand pat")
    act_until([ann, bob], order, lambda: ann.value("state.lastOutcome || state.outcome"))
    wait_until(lambda: ann.value("state.lastOutcome"), "the next deal")
    last = ann.page.inner_text("#centre .last")
    assert last.startswith("Last deal: "), last
    assert " with " in last and (" wins " in last or "You win " in last), last
    words = bob.page.inner_text("#centre .last")
    assert words.startswith("Last deal: ") and " with " in words, words
    ann.shot("last-deal")
    bob.shot("last-deal")
    # the line stays while the next deal is played, until its own showdown
    found = buttons(ann.page) or buttons(bob.page)
    assert found or ann.value("state.game.to_act.length") > 0
    assert ann.page.inner_text("#centre .last") == last
    for person in (ann, bob):
        assert not person.errors, person.errors
        person.close()


def test_a_guts_showdown_names_the_hands_on_the_seats(
    chromium: Any, server: Server, shots: Path
) -> None:
    created = server.open_table("two-card-guts", buy_in=100, auto_approve=True, clock=0)
    ann = Person(chromium, "Ann", shots)
    bob = Person(chromium, "Bob", shots)
    ann.open(created["host_url"])
    ann.join()
    bob.open(created["join_url"])
    bob.join()
    ann.page.click("#start-at-table")
    ann.page.wait_for_function("window.gutsState.game !== null")
    ann.page.evaluate(
        """() => { window.handsSeen = [];
            new MutationObserver(() => {
                for (const hand of document.querySelectorAll('.seat .seat-hand')) {
                    const seat = hand.closest('.seat').dataset.seat;
                    window.handsSeen.push(seat + ':' + hand.textContent);
                }
            }).observe(document.getElementById('seats'), {childList: true, subtree: true}); }"""
    )
    act_until([ann, bob], ("in",), lambda: ann.value("state.lastOutcome || state.outcome"))
    wait_until(lambda: ann.value("state.lastOutcome"), "the next deal")
    seen = set(ann.page.evaluate("window.handsSeen"))
    assert {entry.split(":")[0] for entry in seen} == {"0", "1"}, seen
    last = ann.page.inner_text("#centre .last")
    assert "You:" in last and "Bob:" in last, last
    wait_until(lambda: "Ann" not in ann.page.inner_text("#centre .last"), "the line in Ann's words")
    ann.shot("last-deal")
    for person in (ann, bob):
        assert not person.errors, person.errors
        person.close()
