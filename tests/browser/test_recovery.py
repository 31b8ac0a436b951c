"""Reload and crash in a real Chromium: a reload mid-deal brings back the same seat and
state (the device token in localStorage), and when the server is killed mid-deal and
started again on the same database, the pages say the connection is lost, reconnect by
themselves and play on with the chips intact."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser_helpers import Person, Server, buttons, wait_until
from play import no_hidden_card_in_frames, play, start


def table_as_shown(person: Person) -> dict[str, Any]:
    """What the page shows of the deal: its seat, own cards, stacks and pot, and its
    actions."""
    page = person.page
    return {
        "seat": person.seat(),
        "hand": page.eval_on_selector_all("#hand [data-card]", "c => c.map(x => x.dataset.card)"),
        "stacks": page.eval_on_selector_all(".seat .seat-stack", "s => s.map(x => x.textContent)"),
        "pot": page.inner_text(".pot"),
        "actions": sorted(buttons(page)),
    }


def someone_to_act(people: list[Person]) -> Person:
    return wait_until(lambda: next((p for p in people if buttons(p.page)), None), "a decision")


def test_reload_and_a_server_crash_mid_deal(chromium: Any, own_server: Server, shots: Path) -> None:
    server = own_server
    created = server.open_table("two-card-guts", buy_in=50, auto_approve=True)
    ann = Person(chromium, "Ann", shots)
    bob = Person(chromium, "Bob", shots)
    people = [ann, bob]
    ann.open(created["host_url"])
    ann.join()
    bob.open(created["join_url"])
    bob.join()
    start(ann)

    acting = someone_to_act(people)
    before = table_as_shown(acting)
    acting.shot("before-reload")
    acting.page.reload()
    acting.page.wait_for_selector("#connection[data-state=online]")
    wait_until(lambda: table_as_shown(acting) == before, "the same seat and state after a reload")
    acting.shot("after-reload")

    shown = {person.name: table_as_shown(person) for person in people}
    server.kill()
    for person in people:
        person.page.wait_for_selector("#connection[data-state=offline]")
        assert "Connection lost" in person.page.inner_text("#connection")
    ann.shot("server-down")
    server.start()
    for person in people:
        person.page.wait_for_selector("#connection[data-state=online]", timeout=60_000)
        wait_until(lambda p=person: table_as_shown(p) == shown[p.name], "the state after the crash")
    ann.shot("reconnected")

    deals = ann.deals()

    def choose(person: Person, found: dict[str, Any]) -> bool:
        found["in" if "in" in found else next(iter(found))].click()
        return True

    play(people, choose, lambda: ann.deals() >= deals + 1 or ann.status() == "over")
    summary = server.summary(created["table_id"])
    assert sum(summary["stacks"]) + summary["pot"] == 100, "the chips are intact"
    for person in people:
        no_hidden_card_in_frames(person)
        assert not person.errors, person.errors
    bob.shot("played-on")
