"""The replayer (issue 29): a finished deal, step by step from one's own seat, forward and
back (buttons and arrow keys), with the log beside it; one's own cards and nothing of
another seat's hidden cards, in the page and in what the server sent; the host shares a
deal's link in the chat, and it opens the replayer at that deal for another player, from
their own seat."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
from browser_helpers import (
    WAIT,
    Person,
    Server,
    buttons,
    cards_in,
    on_screen,
    seen_cards,
    wait_until,
)

PHONE = (360, 740)


def _deals_ended(person: Person) -> int:
    return sum(event.get("kind", "").endswith("deal-ended")
               for frame in person.frames for event in frame.get("events") or [])  # fmt: skip


def _play(people: list[tuple[Person, tuple[str, ...]]], deals: int) -> None:
    """Click each person's first action of their order until ``deals`` deals ended."""
    deadline = time.monotonic() + WAIT
    while _deals_ended(people[0][0]) < deals:
        assert time.monotonic() < deadline, "the deals were not played in time"
        for person, order in people:
            found = buttons(person.page)
            action = next((a for a in order if a in found), None)
            if action is not None:
                found[action].click()
                person.page.wait_for_function("!window.gutsState.sent")
        people[0][0].page.wait_for_timeout(30)


def _allowed(person: Person) -> set[str]:
    """Every card the engine let the person's seat see live (its own and those shown)."""
    allowed: set[str] = set()
    for frame in person.frames:
        game = frame.get("game") or {}
        seat = game.get("seat") if game else (frame.get("you") or {}).get("seat")
        allowed |= seen_cards([frame], seat) | cards_in(game.get("hand") or [])
    return allowed


def _own_cards(person: Person) -> set[str]:
    """The cards dealt to the person's own seat, as its frames told it."""
    own: set[str] = set()
    for frame in person.frames:
        game = frame.get("game") or {}
        own |= set(game.get("hand") or [])
    return own


def _watch_replays(person: Person) -> list[Any]:
    """The server's answers to the person's page for the replayer's routes (read later)."""
    answers: list[Any] = []
    person.page.on("response", lambda r: answers.append(r) if "/deals/" in r.url else None)
    return answers


def _step_text(person: Person) -> str:
    return person.page.inner_text("#replay-step")


def _replayer_cards(person: Person) -> tuple[list[str], list[str]]:
    """The face-up cards in the replayer: one's own hand, and the other seats'."""
    page = person.page
    hand = page.eval_on_selector_all(
        "#replay-hand [data-card]", "cs => cs.map(c => c.dataset.card)"
    )
    seats = page.eval_on_selector_all(
        "#replay-seats .seat:not(.you) [data-card]", "cs => cs.map(c => c.dataset.card)"
    )
    return hand, seats


def _walk(person: Person) -> int:
    """Step to the end with the buttons, back to the start with the arrow keys, checking
    the step counter moves each time and the log grows; the number of steps."""
    page = person.page
    page.wait_for_selector("#replay-step")
    first = _step_text(person)
    total = int(first.split(" of ")[1])
    assert first == f"Step 1 of {total}" and total >= 2, first
    assert page.is_disabled("#replay-back")
    logged = [page.locator("#replay-log li").count()]
    for number in range(2, total + 1):
        page.click("#replay-forward")
        assert _step_text(person) == f"Step {number} of {total}"
        logged.append(page.locator("#replay-log li").count())
    assert page.is_disabled("#replay-forward")
    wait_until(lambda: page.locator("#replay-log li").count() > 0, "the replay's log")
    assert logged == sorted(logged), f"the log only grows stepping forward: {logged}"
    for number in range(total - 1, 0, -1):
        page.keyboard.press("ArrowLeft")
        assert _step_text(person) == f"Step {number} of {total}"
    page.keyboard.press("ArrowRight")
    assert _step_text(person) == f"Step 2 of {total}"
    return total


def _check_privacy(person: Person, answers: list[Any], others: list[Person]) -> None:
    """The person's replies and replayer show only what its seat saw live, and never
    another person's cards that were not shown (``others``' own cards)."""
    allowed = _allowed(person)
    hidden = set().union(*(_own_cards(other) for other in others)) - allowed
    assert hidden, "another seat's cards were never shown (so the check means something)"
    assert answers, "the replayer asked the server for the deal"
    for answer in answers:
        sent = cards_in(answer.json())
        assert sent <= allowed, f"{person.name} was sent {sorted(sent - allowed)}"
        assert not sent & hidden
    hand, seats = _replayer_cards(person)
    assert hand and set(hand) <= _own_cards(person), hand
    assert not set(seats) & hidden, seats


def test_a_guts_deal_replays_from_ones_own_seat_and_its_link_opens_it_for_others(
    chromium: Any, server: Server, shots: Path
) -> None:
    created = server.open_table("two-card-guts", buy_in=50, auto_approve=True, clock=0)
    ann = Person(chromium, "Ann", shots)
    bob = Person(chromium, "Bob", shots, viewport=PHONE)
    ann.open(created["host_url"])
    ann.join()
    bob.open(created["join_url"])
    bob.join()
    ann.page.click("#start-at-table")
    ann.page.wait_for_function("window.gutsState.game !== null")
    _play([(ann, ("in",)), (bob, ("out",))], 2)  # Bob's cards are never shown

    loaded = "name => performance.getEntriesByType('resource').some(e => e.name.endsWith(name))"
    assert not ann.page.evaluate(loaded, "/replayer.js"), "the replayer loads only when opened"
    assert not ann.page.evaluate(loaded, "/review.js")
    replies = _watch_replays(ann)
    ann.page.click("#tab-deals")
    ann.page.wait_for_selector("#deals .replay-deal")
    assert ann.page.evaluate(loaded, "/replayer.js")
    ann.page.click('#deals li[data-deal="1.1"] .replay-deal')
    total = _walk(ann)
    for _ in range(total):
        ann.page.keyboard.press("ArrowRight")  # to the end (no step past it)
    assert _step_text(ann) == f"Step {total} of {total}"
    ann.shot("replay-guts")
    _check_privacy(ann, replies, [bob])
    assert "You are dealt" in ann.page.inner_text("#replay-log")

    ann.page.keyboard.press("o")  # an action key does not act at the table behind
    assert ann.page.locator("#replayer").count() == 1
    base = f"{server.url}/api/tables/{created['table_id']}/deals"
    assert httpx.get(base, timeout=WAIT).status_code == 403  # no token
    wrong = {"authorization": "Bearer not-a-token"}
    assert httpx.get(f"{base}/1/1", headers=wrong, timeout=WAIT).status_code == 403
    token = ann.page.evaluate(f"localStorage.getItem('guts:token:{created['table_id']}')")
    mine = {"authorization": f"Bearer {token}"}
    assert httpx.get(f"{base}/1/99", headers=mine, timeout=WAIT).status_code == 404
    ann.page.click("#replay-share")
    ann.page.wait_for_selector("#replay-shared:has-text('Shared')")
    ann.page.keyboard.press("Escape")
    assert ann.page.locator("#replayer").count() == 0

    shared = _watch_replays(bob)
    bob.page.click("#tab-chat")
    link = bob.page.locator("#chat-lines a.replay-link")
    link.wait_for()
    assert link.get_attribute("href", timeout=WAIT * 1000).endswith("#replay=1.1")
    link.click()
    bob.page.wait_for_selector("#replay-step")
    assert bob.page.inner_text("#replayer h2").startswith("Deal 1 of the night")
    assert _step_text(bob) == f"Step 1 of {total}"
    bob.page.keyboard.press("ArrowRight")
    assert _step_text(bob) == f"Step 2 of {total}"
    bob.shot("replay-shared-phone")
    _check_privacy(bob, shared, [ann])  # Bob's own cards; none of Ann's (never shown)
    hand, _ = _replayer_cards(bob)
    assert set(hand) <= _own_cards(bob)
    hidden = on_screen(bob, "#replay-back, #replay-forward, #replay-step, #replay-hand .card")
    assert not hidden, f"on a phone the steps and one's cards are in view: {hidden}"
    width = bob.page.evaluate("document.getElementById('replayer').scrollWidth")
    assert width <= PHONE[0], f"the replayer is {width} px wide on a {PHONE[0]} px phone"
    for person in (ann, bob):
        assert not person.errors, person.errors
        person.close()


def test_a_draw_deal_steps_forward_and_back_with_ones_own_cards(
    chromium: Any, server: Server, shots: Path
) -> None:
    created = server.open_table("five-card-draw", buy_in=100, auto_approve=True, clock=0)
    ann = Person(chromium, "Ann", shots, viewport=PHONE)
    bob = Person(chromium, "Bob", shots)
    ann.open(created["host_url"])
    ann.join()
    bob.open(created["join_url"])
    bob.join()
    ann.page.click("#start-at-table")
    ann.page.wait_for_function("window.gutsState.game !== null")
    _play(
        [(ann, ("bet", "call", "check", "stand pat")), (bob, ("fold", "check", "stand pat"))], 1
    )  # Bob folds: unshown

    replies = _watch_replays(ann)
    ann.page.click("#tab-deals")
    ann.page.wait_for_selector("#deals .replay-deal")
    ann.page.click('#deals li[data-deal="1.1"] .replay-deal')
    _walk(ann)
    ann.shot("replay-draw-phone")
    _check_privacy(ann, replies, [bob])
    for person in (ann, bob):
        assert not person.errors, person.errors
        person.close()
