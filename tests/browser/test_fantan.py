"""A deal of Fan Tan played by clicking in a real Chromium, two people at the table (one
of them the host, the other on a phone): the seat's playable cards are lit and the others
say why not, a pass is a button, the rows are laid out by suit, and the deal ends with the
first player out taking the pot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser_helpers import PHONE, Person, Server
from play import no_hidden_card_in_frames, play, start


def events_of(person: Person, kind: str) -> list[dict[str, Any]]:
    return [
        event
        for frame in person.frames
        if frame.get("type") == "event"
        for event in frame["events"]
        if event["kind"] == kind
    ]


def test_a_deal_of_fan_tan_played_by_clicking(chromium: Any, server: Server, shots: Path) -> None:
    created = server.open_table("fan-tan", buy_in=100, auto_approve=True)
    ann = Person(chromium, "Ann", shots)
    bob = Person(chromium, "Bob", shots, viewport=PHONE)
    ann.open(created["host_url"])
    ann.join()
    bob.open(created["join_url"])
    bob.join()
    start(ann)
    people = [ann, bob]
    lit: list[tuple[int, int]] = []
    refused: list[str] = []
    clicked: list[str] = []

    def choose(person: Person, found: dict[str, Any]) -> bool:
        page = person.page
        if "pass" in found:
            found["pass"].click()
            clicked.append("pass")
            return True
        playable = page.locator("#hand button.card:not([disabled])")
        if not playable.count():
            return False
        legal = person.value("state.game.legal") or []
        lit.append((playable.count(), len(legal)))
        for card in page.locator("#hand button.card[disabled]").all():
            refused.append(card.get_attribute("aria-label") or "")
        if len(clicked) == 8:
            person.shot("rows")
        code = playable.first.get_attribute("data-card") or ""
        playable.first.click()
        clicked.append(code)
        return True

    play(people, choose, lambda: bool(events_of(ann, "fantan-result")), seconds=240)
    # every card lit was one the engine lets the seat play, and only those
    assert lit and all(shown == legal for shown, legal in lit)
    assert all("(" in label for label in refused), "a card that may not be played says why"
    played = [e["card"] for e in events_of(ann, "fantan-played")]
    assert played[0][0] == "7", "the first card played is a seven"
    assert set(played) <= set(clicked)
    result = events_of(bob, "fantan-result")[0]
    winner = result["winner"]
    log = bob.page.inner_text("#log")
    assert "out first and" in log and "the pot (" in log
    stacks = ann.value("state.game.stacks")
    assert sum(stacks) == 200 and stacks[winner] > 100
    for person in people:
        no_hidden_card_in_frames(person)
        assert not person.errors, person.errors
        person.shot("end")
