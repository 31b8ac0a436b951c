"""One game of each other family played by clicking in a real Chromium, two people at
each table (one of them the host): Three Five Seven through a private comparison, Five
Card Draw with a raise and a draw, Bourré through a trick."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser_helpers import PHONE, Person, Server, on_screen, wait_until
from play import no_hidden_card_in_frames, play, start


def seat_two(chromium: Any, server: Server, shots: Path, preset: str) -> list[Person]:
    """Ann (the host) and Bob at a table of ``preset`` that seats them at once."""
    created = server.open_table(preset, buy_in=100, auto_approve=True)
    ann = Person(chromium, "Ann", shots)
    bob = Person(chromium, "Bob", shots, viewport=PHONE)  # Bob plays on a phone
    ann.open(created["host_url"])
    ann.join()
    bob.open(created["join_url"])
    bob.join()
    start(ann)
    return [ann, bob]


def events_of(person: Person, kind: str) -> list[dict[str, Any]]:
    return [
        event
        for frame in person.frames
        if frame.get("type") == "event"
        for event in frame["events"]
        if event["kind"] == kind
    ]


def fits(person: Person) -> None:
    """The person's cards and actions are on screen (Bob's phone without scrolling)."""
    assert not on_screen(person, "#hand .card, #actions button"), f"{person.name}: off screen"


def finish(people: list[Person]) -> None:
    for person in people:
        no_hidden_card_in_frames(person)
        assert not person.errors, person.errors
        person.shot("end")


def test_three_five_seven_through_a_private_comparison(
    chromium: Any, server: Server, shots: Path
) -> None:
    people = seat_two(chromium, server, shots, "three-five-seven")
    ann, bob = people

    def compared() -> bool:
        return any(event["audience"] is not None for event in events_of(ann, "cards-shown"))

    def choose(person: Person, found: dict[str, Any]) -> bool:
        if "in" not in found:
            return False
        person.shot("stage-declare")
        found["in"].click()
        return True

    play(people, choose, compared, fits)
    # the comparison is private to the two who were in, and each sees the other's cards
    # (told at the seat once the next stage is dealt)
    private = next(e for e in events_of(ann, "cards-shown") if e["audience"] is not None)
    assert sorted(private["audience"]) == [0, 1]
    for person, other in ((ann, bob), (bob, ann)):
        seat = person.page.locator(f".seat:has-text('{other.name}')")
        shown = [e for e in events_of(person, "cards-shown") if e["seat"] == other.seat()]
        wait_until(
            lambda s=seat: (
                s.locator("[data-card]").count() == 3 or s.locator(".seat-earlier").count()
            ),
            "the cards compared",
        )
        assert shown[0]["description"] in seat.inner_text()
        person.page.wait_for_selector(".stage")
        assert "compared privately" in person.page.inner_text(".centre")
        person.shot("compared")
    # and the game goes on to the five-card stage
    wait_until(
        lambda: (
            "stage 2" in (ann.value("state.decision && state.decision.prompt") or "")
            or "stage 2" in (bob.value("state.decision && state.decision.prompt") or "")
        ),
        "the second stage",
    )
    assert ann.page.locator("#hand [data-card]").count() == 5 or ann.value("!state.decision")
    assert "Wild: fives" in ann.page.inner_text(".centre")
    finish(people)


def test_five_card_draw_with_a_raise_and_a_draw(chromium: Any, server: Server, shots: Path) -> None:
    people = seat_two(chromium, server, shots, "five-card-draw")
    ann, bob = people
    done = {"bet": False, "raise": False, "draw": False}

    def choose(person: Person, found: dict[str, Any]) -> bool:
        page = person.page
        if "stand pat" in found:  # the draw: tap two cards, then discard them
            person.shot("draw-before")
            cards = page.locator("#hand button.card")
            cards.nth(0).click()
            cards.nth(1).click()
            assert page.locator("#hand button.card[aria-pressed=true]").count() == 2
            page.wait_for_selector("#actions button[data-action=discard]:not([disabled])")
            assert "up to 3" in page.inner_text("#actions")
            person.shot("draw-chosen")
            page.click("#actions button[data-action=discard]")
            done["draw"] = True
            return True
        for word in ("raise", "bet"):
            if word in found and not done[word]:
                person.shot(f"before-{word}")
                found[word].click()
                done[word] = True
                return True
        for word in ("call", "check"):
            if word in found:
                found[word].click()
                return True
        return False

    def drawn_and_over() -> bool:
        return done["draw"] and bool(events_of(ann, "draw-deal-ended"))

    play(people, choose, drawn_and_over, fits)
    assert done["raise"] and done["bet"]
    raised = [e for e in events_of(ann, "draw-acted") if e["action"].startswith("raise")]
    assert raised, "the raise reached the table"
    drew = events_of(bob, "draw-drew")
    assert any(event["count"] == 2 for event in drew)
    log = ann.page.inner_text("#log")
    assert "raise" in log.lower() and "draw" in log.lower()
    finish(people)


def test_bourre_through_a_trick(chromium: Any, server: Server, shots: Path) -> None:
    people = seat_two(chromium, server, shots, "bourre")
    ann, bob = people
    refused: list[str] = []

    def choose(person: Person, found: dict[str, Any]) -> bool:
        page = person.page
        for word in ("play", "stand"):
            if word in found:
                found[word].click()
                return True
        playable = page.locator("#hand button.card:not([disabled])")
        if playable.count():
            for card in page.locator("#hand button.card[disabled]").all():
                refused.append(card.get_attribute("aria-label") or "")
            person.shot("trick")
            playable.first.click()
            return True
        return False

    play(people, choose, lambda: bool(events_of(ann, "trick-won")), fits)
    assert "Trump" in ann.page.inner_text(".centre")
    won = events_of(bob, "trick-won")[0]
    assert won["seat"] in (0, 1)
    assert all("(" in label for label in refused), "a card that may not be played says why"
    finish(people)
