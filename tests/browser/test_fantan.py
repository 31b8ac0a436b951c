"""A deal of Fan Tan played by clicking in a real Chromium, two people at the table (one
of them the host, the other on a phone): the rows are laid out by suit (Fan Tan's own page
module, its PageView's ``module``), the seat's playable cards are lit in its hand and at
the row ends they extend, either played by a click, the others say why not, a pass is a
button, and the deal ends with the first player out taking the pot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser_helpers import PHONE, Person, Server, wait_until
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
    for person in (ann, bob):  # the game's name as people say it, not its catalog name
        person.page.wait_for_selector("#title:has-text('Fan Tan · playing')")
        assert person.page.title() == "Fan Tan — guts"
    people = [ann, bob]
    lit: list[tuple[int, int, int]] = []
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
        in_rows = page.locator(".fantan-row button.card.fits")
        in_rows.first.wait_for()
        lit.append((playable.count(), in_rows.count(), len(legal)))
        labels = "cards => cards.map(card => card.getAttribute('aria-label') || '')"
        refused.extend(page.eval_on_selector_all("#hand button.card[disabled]", labels))
        if len(clicked) == 8:
            person.shot("rows")
        # every other card is played from the rows, where it is lit at the end it extends
        chosen = in_rows.first if len(clicked) % 2 else playable.first
        code = chosen.get_attribute("data-card") or ""
        chosen.click()
        clicked.append(code)
        return True

    play(people, choose, lambda: bool(events_of(ann, "fantan-result")), seconds=240)
    # every card lit, in the hand and in the rows, was one the engine lets the seat play
    assert lit and all(hand == rows == legal for hand, rows, legal in lit)
    assert all("(" in label for label in refused), "a card that may not be played says why"
    played = [e["card"] for e in events_of(ann, "fantan-played")]
    assert played[0][0] == "7", "the first card played is a seven"
    assert set(played) <= set(clicked)
    result = events_of(bob, "fantan-result")[0]
    winner = result["winner"]
    wait_until(lambda: "out first and" in bob.page.inner_text("#log"), "the outcome told")
    assert "the pot (" in bob.page.inner_text("#log")
    rows, drawn = ann.page.evaluate(  # read at one moment (a next deal may have begun:
        # the seat's own cards lit at the row ends, .fits, are not in the rows)
        """() => [window.gutsState.game.rows, [...document.querySelectorAll('.fantan-row')]
                  .map(r => [...r.querySelectorAll('[data-card]:not(.fits)')]
                  .map(c => c.dataset.card))]"""
    )
    assert drawn == [rows[suit] for suit in ("clubs", "diamonds", "hearts", "spades")]
    game = ann.value("state.game")  # the next deal's antes may be in the pot already
    assert sum(game["stacks"]) + game["pot"] == 200 and game["stacks"][winner] > 98
    for person in people:
        no_hidden_card_in_frames(person)
        assert not person.errors, person.errors
        person.shot("end")


def test_a_pass_beside_cards_that_fit_is_a_button_and_the_cards_stay_lit_in_the_hand(
    chromium: Any, server: Server, shots: Path
) -> None:
    created = server.open_table("fan-tan-false-pass", buy_in=100, auto_approve=True)
    ann = Person(chromium, "Ann", shots)
    bob = Person(chromium, "Bob", shots)
    ann.open(created["host_url"])
    ann.join()
    bob.open(created["join_url"])
    bob.join()
    start(ann)
    beside: list[tuple[int, int]] = []
    passed: list[int] = []

    def choose(person: Person, found: dict[str, Any]) -> bool:
        page = person.page
        playable = page.locator("#hand button.card:not([disabled])")
        legal = person.value("state.game.legal") or []
        if "pass" in found and legal:
            beside.append((playable.count(), len(legal)))
            if len(passed) < 2:  # a false pass now and then, then cards
                passed.append(1)
                found["pass"].click()
                return True
        if "pass" in found and not legal:
            found["pass"].click()
            return True
        if not playable.count():
            return False
        playable.first.click()
        return True

    play([ann, bob], choose, lambda: bool(events_of(ann, "fantan-result")), seconds=240)
    assert beside and all(lit == legal for lit, legal in beside)  # cards lit by the hand
    assert passed and events_of(ann, "fantan-passed")
    for person in (ann, bob):
        assert not person.errors, person.errors
