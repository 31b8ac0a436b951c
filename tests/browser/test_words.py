"""The page's words (issue 29, item 10), in a real Chromium against a real ``guts
serve``: one's own rebuy is not headed "Give chips"; a kicked player is told the host
removed them, and comes back from that browser with the same nickname; the log tells a
session's opening stacks as stacks, not as buy-ins, and the player's own name as "You"
in every line; the settlement says a bot's chips are the host's and names no bot; the
Bourré prompt shows cards, never raw codes."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from browser_helpers import CARD, Person, Server, buttons, wait_until
from play import add_bot
from playwright.sync_api import Error as PlaywrightError

PHONE = (390, 844)


def click_through(
    people: list[Person],
    until: Any,
    prompts: list[str] | None = None,
    order: tuple[str, ...] = ("check", "call", "stand pat", "stand", "out", "pass", "fold"),
) -> None:
    """The people take the first action of ``order`` they may (else the first) whenever
    they may, until ``until()``; ``prompts`` gathers the action bar's text and its kind."""
    for _ in range(400):
        if until():
            return
        acted = False
        for person in people:
            found = buttons(person.page)
            if prompts is not None and found:
                prompts.append(
                    person.value("state.decision.kind") + ": " + person.page.inner_text("#me")
                )
            word = next((w for w in order if w in found), next(iter(found), None))
            if word is None:
                card = person.page.query_selector("#hand button.card:not([disabled])")
                if card is None:
                    continue
                if prompts is not None:
                    prompts.append(
                        person.value("state.decision.kind") + ": " + person.page.inner_text("#me")
                    )
                card.click()
            else:
                try:
                    found[word].click(timeout=2000)
                except PlaywrightError:  # taken for the seat meanwhile (a seat leaving)
                    continue
            acted = True
            person.page.wait_for_function("!window.gutsState.decision || !window.gutsState.sent")
        if not acted:
            person.page.wait_for_timeout(50)
    assert until(), "the game did not get there"


def test_the_words_of_a_draw_night(chromium: Any, server: Server, shots: Path) -> None:
    created = server.open_table("five-card-draw", buy_in=100, auto_approve=True, clock=0)
    table_id = created["table_id"]
    ann = Person(chromium, "Ann", shots)
    bob = Person(chromium, "Bob", shots, viewport=PHONE)
    for person in (ann, bob):
        person.page.on("dialog", lambda dialog: dialog.accept())
    ann.open(created["host_url"])
    ann.join()
    bob.open(created["join_url"])
    bob.join()
    add_bot(ann, "sensible")
    ann.page.click("#start-at-table")
    ann.page.wait_for_function("window.gutsState.game !== null")

    bob.page.click("#tab-seat")
    heads = bob.page.eval_on_selector_all("#seat-panel h3", "hs => hs.map(h => h.textContent)")
    assert "Give chips" not in heads and any("rebuy" in head for head in heads), heads
    bob.shot("seat-panel")

    click_through([ann, bob], lambda: ann.deals() >= 2)
    ann.page.click("#tab-log")
    wait_until(lambda: ann.value("state.lines.some(l => l.includes('starts with'))"), "stacks")
    lines: list[str] = ann.value("state.lines")
    assert not [line for line in lines if "buys in for" in line], lines
    own = [line for line in lines if re.search(r"(?<![\w'])Ann(?![\w])", line)]
    assert not own, f"Ann's own name in her log: {own}"
    assert any(line.startswith("You ") for line in lines)
    ann.shot("log")

    # the host removes Bob: he is told so, and comes back with the same nickname
    ann.page.click("#tab-host")
    ann.page.click(".host-seats li:has-text('Bob') button.kick")
    bob.page.wait_for_selector("#join :text('The host removed you')", timeout=60_000)
    click_through([ann, bob], lambda: bob.value("state.you.status") == "left")
    bob.page.wait_for_selector("#join :text('The host removed you from the table')")
    bob.shot("removed")
    bob.page.click("#join-again")
    bob.page.wait_for_selector("#join-form")
    assert bob.page.input_value("#nickname") == "Bob"
    bob.page.click("#join-form button[type=submit]")
    wait_until(lambda: bob.value("state.you && state.you.status") == "approved", "Bob seated again")
    names = [seat["nickname"] for seat in server.summary(table_id)["seats"]]
    assert names.count("Bob") == 2, names

    # the settlement: people with people, the bots' chips with the host
    secret = created["host_url"].split("#host=")[1]
    click_through([ann, bob], lambda: server.ledger(table_id, secret)["settlement"])
    ledger = server.ledger(table_id, secret)
    bots = {row["player_nickname"] for row in ledger["players"] if row["bot"]}
    assert bots
    named = {name for p in ledger["settlement"] for name in (p["from"], p["to"])}
    assert not named & bots, ledger["settlement"]
    ann.page.click("#tab-ledger")
    ann.page.wait_for_selector(".bots-note:has-text(\"A bot's chips are the host's\")")
    ann.shot("ledger")
    for person in (ann, bob):
        assert not person.errors, person.errors
        person.close()


def test_the_bourre_prompt_shows_cards(chromium: Any, server: Server, shots: Path) -> None:
    created = server.open_table("bourre", buy_in=100, auto_approve=True, clock=0)
    ann = Person(chromium, "Ann", shots, viewport=PHONE)
    ann.open(created["host_url"])
    ann.join()
    add_bot(ann, "sensible")
    add_bot(ann, "sensible")
    ann.page.click("#start-at-table")
    ann.page.wait_for_function("window.gutsState.game !== null")
    prompts: list[str] = []
    played = lambda: sum(prompt.startswith("play:") for prompt in prompts) >= 2  # noqa: E731
    click_through([ann], played, prompts, order=("play", "stand"))
    ann.shot("prompt")
    kinds = {prompt.split(":")[0] for prompt in prompts}
    assert "play" in kinds, kinds
    raw = [prompt for prompt in prompts if CARD.search(prompt)]
    assert not raw, raw
    shown = re.compile(r"\((?:(?:10|[2-9JQKA])[♠♥♦♣] ?)+\)")  # the playable cards, as cards
    assert any(shown.search(p) for p in prompts if p.startswith("play:")), prompts
    assert not ann.errors, ann.errors
    ann.close()
