"""A night of two-card Guts in a real Chromium: a host opens the table from the lobby, two
players join by the link from their own browser contexts, the host approves them and adds
a bot, and they play several deals by clicking. No page is ever sent, nor shows, another
seat's hidden card; after the night every page's ledger equals the server's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from browser_helpers import Person, Server, wait_until
from play import (
    add_bot,
    approve_all,
    ledger_shows,
    no_hidden_card_in_frames,
    open_by_lobby,
    others_face_down,
    play,
    server_rows,
    start,
)

DEALS = 3


def test_a_night_of_two_card_guts(chromium: Any, server: Server, shots: Path) -> None:
    host = Person(chromium, "Host", shots)
    ann = Person(chromium, "Ann", shots)
    bob = Person(chromium, "Bob", shots)
    people = [ann, bob]
    join, host_link = open_by_lobby(host, server.url, "two-card-guts", buy_in=60)
    host.open(host_link)
    for person in people:
        person.open(join)
        person.join()
        assert "Waiting for the host to approve" in person.page.inner_text("#join")
    ann.shot("waiting")
    approve_all(host, 2)
    add_bot(host, "random")
    host.shot("host-panel")
    for person in people:
        person.page.wait_for_selector("#join :text('Waiting for the host to start')")
    start(host)
    table_id = join.rsplit("/", 1)[1]

    def deal() -> int:
        return ann.deals()

    def choose(person: Person, found: dict[str, Any]) -> bool:
        word = "in" if person is ann or deal() % 2 else "out"
        if word not in found:
            word = next(iter(found), "")
        if not word:
            return False
        if deal() <= 1:
            person.shot(f"deal{deal()}-{word}")
        found[word].click()
        return True

    def night_over_or_enough() -> bool:
        return deal() > DEALS or ann.status() == "over"

    def check(person: Person) -> None:
        others_face_down(person)
        assert person.page.locator("#hand [data-card]").count() == 2  # own cards face up

    clicks = play(people, choose, night_over_or_enough, check)
    assert clicks >= DEALS  # every deal asked each person at least once in all
    host.shot("playing")
    secret = host_link.split("#host=")[1]
    host.page.on("dialog", lambda dialog: dialog.accept())
    if host.status() != "over":
        host.page.click("#tab-host")
        host.page.click("#end")
    play(people, choose, lambda: ann.status() == "over")
    for person in (host, *people):
        wait_until(lambda p=person: p.status() == "over", "the end of the night")
        no_hidden_card_in_frames(person)
        assert not person.errors, person.errors
    expected = server_rows(server.ledger(table_id, secret))
    assert sum(row["net"] for row in expected) == 0
    assert {row["player_nickname"] for row in expected} >= {"Ann", "Bob"}
    for person in (host, *people):
        ledger_shows(person, expected)
        person.shot("ledger")
    with bob.page.expect_download() as download:
        bob.page.click("#csv")
    csv = Path(download.value.path()).read_text(encoding="utf-8")
    assert csv == server.ledger_csv(table_id, secret)
    assert csv.splitlines()[0].startswith("player_nickname,")
    with bob.page.expect_download() as download:
        bob.page.click("#history")
    records = Path(download.value.path()).read_text(encoding="utf-8").splitlines()
    parsed = [json.loads(line) for line in records]
    assert parsed[0]["preset"] == "two-card-guts" and any("kind" in line for line in parsed)


def test_the_lobby_refuses_options_with_the_engines_message(
    chromium: Any, server: Server, shots: Path
) -> None:
    host = Person(chromium, "Host", shots)
    page = host.page
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready=yes]")
    page.select_option("#game", "bourre")
    page.wait_for_function("document.getElementById('summary').dataset.game === 'bourre'")
    page.click("#options-title")
    page.fill("#option-ante", "lots")
    page.dispatch_event("#option-ante", "change")
    page.wait_for_selector("#problem:has-text('ante: expected a whole number')")
    page.click("#open")
    page.wait_for_selector("#problem:has-text('ante: expected a whole number')")
    assert page.is_hidden("#created")
    page.fill("#option-ante", "2")
    page.dispatch_event("#option-ante", "change")
    page.click("#rules-box summary")
    page.wait_for_selector("#rules:has-text('2')")
    host.shot("lobby-rules")
    page.click("#open")
    page.wait_for_selector("#created:not([hidden])")
    table_id = page.input_value("#join-link").rsplit("/", 1)[1]
    assert server.summary(table_id)["options"] == {"ante": "2"}


def test_a_simultaneous_declaration_is_revealed_together(
    chromium: Any, server: Server, shots: Path
) -> None:
    created = server.open_table("simultaneous-guts", buy_in=50, auto_approve=True)
    ann = Person(chromium, "Ann", shots)
    bob = Person(chromium, "Bob", shots)
    ann.open(created["host_url"])
    ann.join()
    bob.open(created["join_url"])
    bob.join()
    start(ann)
    for person in (ann, bob):
        person.page.wait_for_selector("#actions button[data-action=in]")
    ann.page.click("#actions button[data-action=in]")
    # Bob sees that Ann has chosen, not what
    bob.page.wait_for_selector(".seat:has-text('Ann') .seat-status:has-text('chose')")
    assert "in" not in bob.page.inner_text(".seat:has-text('Ann') .seat-status").split()
    told = [e for f in bob.frames if f.get("type") == "event" for e in f["events"]]
    assert not [e for e in told if e["kind"] == "declared"], "a choice told before all chose"
    bob.shot("ann-chose")
    bob.page.click("#actions button[data-action=out]")
    for person, lines in ((ann, ("You: in", "Bob: out")), (bob, ("Ann: in", "You: out"))):
        for line in lines:  # the log keeps what the table showed for a moment
            person.page.wait_for_selector(f"#log li:text-is('{line}')", state="attached")
    # both choices reach each page in one frame
    for person in (ann, bob):
        frames = [f for f in person.frames if f.get("type") == "event"]
        together = [f for f in frames if sum(e["kind"] == "declared" for e in f["events"]) == 2]
        assert together, f"{person.name} did not hear both choices at once"
        no_hidden_card_in_frames(person)
    ann.shot("revealed")
