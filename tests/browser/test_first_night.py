"""A first night as a new host lives it, in a real Chromium against a real ``guts serve``
(issue 29): the host's own seat needs no approval, Start is at the table, the host is not
told to wait for the host, cannot kick their own seat (the server refuses it too), sees a
seat request that comes mid-game at the table; the Log and Chat panels show their newest
line, the chat input stays on screen and the Chat tab counts unread lines; after "Make
host" and a reload the old host's page has no Host tab and makes no 403 requests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from browser_helpers import Person, Server, wait_until
from play import add_bot, open_by_lobby

PHONE = (390, 844)


def shown_in(person: Person, selector: str, container: str) -> bool:
    """True if the last element matching ``selector`` is wholly inside ``container``'s
    visible box and the viewport."""
    shown: bool = person.page.evaluate(
        """([selector, container]) => {
            const all = document.querySelectorAll(selector);
            const box = all[all.length - 1].getBoundingClientRect();
            const outer = document.querySelector(container).getBoundingClientRect();
            return box.height > 0 && box.top >= outer.top - 1 && box.bottom <= outer.bottom + 1
                && box.top >= 0 && box.bottom <= innerHeight + 1;
        }""",
        [selector, container],
    )
    return shown


def kick_over_websocket(person: Person, secret: str, seat_id: int) -> dict[str, Any]:
    """What the server answers a kick of ``seat_id`` sent over a fresh websocket of the
    page's seat (resumed with its device token) and the host's secret."""
    answer: dict[str, Any] = person.page.evaluate(
        """([secret, seatId]) => new Promise((resolve) => {
            const table = location.pathname.split('/').pop();
            const token = localStorage.getItem(`guts:token:${table}`);
            const socket = new WebSocket(`ws://${location.host}/ws/${table}?v=2`);
            socket.onopen = () => socket.send(JSON.stringify({type: 'resume', token}));
            socket.onmessage = (message) => {
                const frame = JSON.parse(message.data);
                if (frame.type === 'snapshot') {
                    socket.send(JSON.stringify({type: 'kick', secret, seat_id: seatId}));
                } else if (frame.type === 'error' || frame.type === 'seats') {
                    socket.close();
                    resolve(frame);
                }
            };
        })""",
        [secret, seat_id],
    )
    return answer


def test_a_first_night_from_the_lobby(chromium: Any, server: Server, shots: Path) -> None:
    ann = Person(chromium, "Ann", shots)
    bob = Person(chromium, "Bob", shots, viewport=PHONE)
    cy = Person(chromium, "Cy", shots)
    forbidden: list[str] = []
    ann.page.on("response", lambda r: forbidden.append(r.url) if r.status in (401, 403) else None)
    ann.page.on("dialog", lambda dialog: dialog.accept())

    join, host_link = open_by_lobby(ann, server.url, "two-card-guts", buy_in=100)
    table_id = join.rsplit("/", 1)[1]
    secret = host_link.split("#host=", 1)[1]
    ann.open(host_link)
    ann.join()
    # the host's own seat is approved by the host's page: no request waits for them
    ann.page.wait_for_selector("#join .waiting:has-text('You are seated as Ann')")
    waiting = ann.page.inner_text("#join")
    assert "Waiting for the host" not in waiting, waiting
    assert "Start the game" in waiting
    assert server.summary(table_id)["seats"][0]["status"] == "approved"

    bob.open(join)
    bob.join()
    # the request shows at the table, not only in the Host tab
    notice = ann.page.locator("#host-notice .request-notice:has-text('Bob')")
    notice.wait_for()
    assert ann.page.is_visible("#start-at-table")
    ann.shot("request-at-table")
    notice.locator("button.approve").click()
    bob.page.wait_for_selector("#join .waiting:has-text('Waiting for the host to start')")
    bob.shot("seated")

    # the host cannot kick their own seat: no button, and the server refuses it
    ann.page.click("#tab-host")
    ann.page.wait_for_selector(".host-seats li:has-text('Bob') button.kick")
    assert ann.page.locator(".host-seats li:has-text('Ann') button.kick").count() == 0
    refused = kick_over_websocket(ann, secret, 0)
    assert refused["type"] == "error" and "own seat" in refused["message"], refused
    assert server.summary(table_id)["seats"][0]["status"] == "approved"

    add_bot(ann)
    add_bot(ann)
    ann.page.click("#tab-log")
    ann.page.click("#start-at-table")  # Start at the table
    ann.page.wait_for_function("window.gutsState.game !== null")
    wait_until(lambda: ann.page.is_hidden("#host-notice"), "the notice to go once started")

    # a seat request mid-game: a notice at the table of the host
    cy.open(join)
    cy.join()
    ann.page.locator("#host-notice .request-notice:has-text('Cy')").wait_for()
    ann.shot("request-mid-game")
    ann.page.click("#host-notice .request-notice button.approve")
    cy.page.wait_for_selector("#join .waiting:has-text('next deal boundary')")

    # chat: ten long lines, five from Cy and five from Bob (a speaker's burst: the server
    # limits each speaker's rate); Ann (on the Log tab) sees them counted on the Chat tab
    words = " ".join(["the river was kind to me tonight"] * 8)
    for person in (cy, bob):
        person.page.click("#tab-chat")
        for number in range(1, 6):
            person.page.fill("#chat-text", f"{person.name} line {number}: {words}")
            person.page.press("#chat-text", "Enter")
        person.page.wait_for_selector(f"#chat-lines li:has-text('{person.name} line 5')")
    assert ann.page.get_attribute("#tab-chat", "data-unread") is not None
    wait_until(lambda: ann.page.get_attribute("#tab-chat", "data-unread") == "10", "10 unread")
    assert ann.page.inner_text("#tab-chat .unread") == "10"
    ann.shot("unread")
    ann.page.click("#tab-chat")
    assert ann.page.get_attribute("#tab-chat", "data-unread") == "0"
    assert shown_in(ann, "#chat-lines li", "#chat-lines"), "the newest chat line is hidden"
    assert shown_in(ann, "#chat-text", "#panel-chat"), "the chat input is hidden"
    ann.shot("chat")
    wait_until(lambda: shown_in(bob, "#chat-lines li", "#chat-lines"), "Bob's newest line")
    assert shown_in(bob, "#chat-text", "#panel-chat"), "the chat input is below the fold"
    assert "Bob line 5" in bob.page.inner_text("#chat-lines li:last-child")
    bob.shot("chat-phone")

    # the log follows the deals: Ann and Bob sit out, the table plays them safe
    ann.page.click("#tab-host")
    ann.page.click(".host-seats li:has-text('Bob') button.away")
    ann.page.click(".host-seats li:has-text('Cy') button.away")
    ann.page.click("#tab-seat")
    ann.page.click("#sit-out")
    ann.page.click("#tab-log")
    wait_until(
        lambda: ann.page.evaluate(
            "() => { const p = document.getElementById('panel-log');"
            " return p.scrollHeight > p.clientHeight * 2; }"
        ),
        "a log longer than its panel",
    )
    wait_until(lambda: shown_in(ann, "#log li", "#panel-log"), "the newest log line in view")
    assert ann.page.evaluate(
        "() => document.querySelector('#log li:last-child').textContent"
        " === window.gutsState.lines[window.gutsState.lines.length - 1]"
    )
    ann.shot("log")
    ann.page.click("#tab-seat")
    ann.page.click("#come-back")

    # the host role handed to Bob: after a reload Ann's page has no Host tab and no 403
    ann.page.click("#tab-host")
    ann.page.click(".host-seats li:has-text('Bob') button.hand-host")
    bob.page.wait_for_selector("#tab-host:not([hidden])")
    wait_until(lambda: ann.page.is_hidden("#tab-host"), "Ann's Host tab to go")
    forbidden.clear()
    ann.page.reload()
    ann.page.wait_for_selector("#connection[data-state=online]")
    ann.page.wait_for_function("window.gutsState.table !== null")
    ann.page.click("#tab-ledger")
    ann.page.wait_for_selector("table.ledger tbody tr")
    assert ann.page.is_hidden("#tab-host")
    assert ann.page.is_hidden("#host-notice")
    ann.shot("after-handover")
    assert not forbidden, forbidden
    stored = ann.page.evaluate("() => JSON.stringify(Object.keys(localStorage))")
    assert json.loads(stored)
    for person in (ann, bob, cy):
        assert not person.errors, person.errors
        person.close()
