"""Playing by clicking: the moves of the browser tests, and the checks every page passes."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from browser_helpers import WAIT, Person, buttons, cards_in, seen_cards

Chooser = Callable[[Person, dict[str, Any]], bool]
"""Clicks one of a person's actions (given the enabled buttons); False if it did not."""


def open_by_lobby(host: Person, url: str, game: str, *, buy_in: int = 100) -> tuple[str, str]:
    """The host opens a table of ``game`` from the lobby: (join link, host link)."""
    page = host.page
    page.goto(url + "/")
    page.wait_for_selector("body[data-ready=yes]")
    if page.input_value("#game") != game:
        page.select_option("#game", game)
        page.wait_for_function(f"document.getElementById('summary').dataset.game === {game!r}")
    page.fill("#buy-in", str(buy_in))
    host.shot("lobby")
    page.click("#open")
    page.wait_for_selector("#created:not([hidden])")
    host.shot("opened")
    join = page.input_value("#join-link")
    link = page.get_attribute("#host-link", "href")
    assert link is not None and link.startswith(join + "#host=")
    return join, link


def approve_all(host: Person, count: int) -> None:
    """The host approves seat requests from the host panel until ``count`` people are
    seated (the host's own seat, if the host joined, is approved by the host's page)."""
    page = host.page
    page.click("#tab-host")
    seated = (
        "window.gutsState.seats.filter(s => s.kind === 'person' && s.status === 'approved').length"
    )
    while not page.evaluate(f"() => {seated} >= {count}"):
        page.wait_for_function(
            f"document.querySelector('.request button.approve') || {seated} >= {count}"
        )
        if page.evaluate(f"() => {seated} >= {count}"):
            break
        before = len(page.query_selector_all(".request"))
        page.click(".request button.approve")
        page.wait_for_function(f"document.querySelectorAll('.request').length < {before}")


def add_bot(host: Person, kind: str = "random") -> None:
    page = host.page
    page.click("#tab-host")
    seats = host.value("state.seats.length")
    page.select_option("#bot-kind", kind)
    page.click("#add-bot")
    page.wait_for_function(f"window.gutsState.seats.length > {seats}")


def start(host: Person) -> None:
    host.page.click("#tab-host")
    host.page.click("#start")
    host.page.wait_for_function("window.gutsState.game !== null")


def play(
    people: Sequence[Person],
    choose: Chooser,
    done: Callable[[], bool],
    check: Callable[[Person], None] | None = None,
    seconds: float = WAIT,
) -> int:
    """Click through the game until ``done()``: whoever has buttons chooses one. Each
    page is checked (``check``) whenever it may act. Returns the number of clicks."""
    clicks = 0
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, f"the game did not get there in {seconds} s"
        acted = False
        for person in people:
            found = buttons(person.page)
            if not found and not person.page.query_selector("#hand button.card:not([disabled])"):
                continue
            if check is not None:
                check(person)
            if choose(person, found):
                clicks += 1
                acted = True
                person.page.wait_for_function(
                    "!window.gutsState.decision || !window.gutsState.sent", timeout=WAIT * 1000
                )
        if not acted:
            time.sleep(0.05)
    return clicks


def no_hidden_card_in_frames(person: Person) -> None:
    """Every card in every frame the page received was one the engine let its seat see
    by then: its own, or shown to everyone (checked in the order the frames came, with
    the seat each frame was for: a seat's number may change from one session to the
    next)."""
    seen: set[str] = set()
    for frame in person.frames:
        game = frame.get("game") or {}
        seat = game.get("seat") if game else (frame.get("you") or {}).get("seat")
        seen |= seen_cards([frame], seat)
        leaked = cards_in(frame) - seen
        assert not leaked, f"{person.name} (seat {seat}) was sent {sorted(leaked)}: {frame}"[:600]


def others_face_down(person: Person) -> None:
    """While declarations are made, no other seat shows a card face up on the page."""
    shown = person.page.eval_on_selector_all(
        ".seat:not(.you) [data-card]", "cards => cards.map(card => card.dataset.card)"
    )
    assert not shown, f"{person.name} sees {shown} of another seat before the showdown"


def ledger_on_page(person: Person) -> list[dict[str, Any]]:
    """The ledger tab's rows as the page shows them."""
    page = person.page
    page.click("#tab-ledger")
    page.wait_for_selector("table.ledger tbody tr")
    rows: list[dict[str, Any]] = page.eval_on_selector_all(
        "table.ledger tbody tr",
        """rows => rows.map(row => {
            const cells = [...row.querySelectorAll('td')].map(cell => Number(cell.textContent));
            return {player_nickname: row.dataset.player, buy_in: cells[0], buy_out: cells[1],
                    stack: cells[2], net: cells[3]};
        })""",
    )
    return rows


def ledger_shows(person: Person, expected: list[dict[str, Any]]) -> None:
    """Wait until the ledger tab shows ``expected`` (the page loads the ledger again
    shortly after each event, so rows read at once may be the load before); fail with
    the difference."""
    deadline = time.monotonic() + WAIT
    while (shown := ledger_on_page(person)) != expected and time.monotonic() < deadline:
        time.sleep(0.2)
    assert shown == expected


def server_rows(ledger: dict[str, Any]) -> list[dict[str, Any]]:
    keys = ("player_nickname", "buy_in", "buy_out", "stack", "net")
    return [{key: row[key] for key in keys} for row in ledger["players"]]
