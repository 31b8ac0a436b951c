"""Hi/lo declarations and openers played by clicking in a real Chromium. Each page's
action bar holds exactly the legal actions of its seat's pending decision; a hi/lo choice
is known to nobody else (no frame, no element) until everyone has chosen, then all of them
come together; in Jacks or Better one opens by clicking and the opener's proof reaches
every page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser_helpers import PHONE, Person, Server, buttons, wait_until
from play import add_bot, no_hidden_card_in_frames, play, start

from guts.narrate import as_you

HI_LO = ["high", "low", "both", "out"]


def seated(
    chromium: Any, server: Server, shots: Path, preset: str, bot: str = "", **fields: Any
) -> list[Person]:
    """Ann (the host, on a laptop) and Bob (on a phone) seated at a new table, and a bot
    of the kind ``bot`` if any, started."""
    created = server.open_table(preset, buy_in=100, auto_approve=True, **fields)
    ann = Person(chromium, "Ann", shots)
    bob = Person(chromium, "Bob", shots, viewport=PHONE)
    ann.open(created["host_url"])
    ann.join()
    bob.open(created["join_url"])
    bob.join()
    if bot:
        add_bot(ann, bot)
    start(ann)
    return [ann, bob]


def button_names(action: str) -> str:
    """The button an action string is offered by (``bet 2`` by the bet button)."""
    return action if action in ("stand pat", "stand") else action.split()[0]


def exactly_the_legal_buttons(person: Person) -> None:
    """The enabled buttons of the action bar are the pending decision's actions, no more,
    no fewer (a draw's discard button is enabled once cards are tapped)."""
    decision = person.value("state.sent ? null : state.decision")
    shown = set(buttons(person.page))
    if decision is None:
        assert not shown, f"{person.name} has buttons {shown} and no decision"
        return
    legal = {button_names(action) for action in decision["actions"]}
    if decision["kind"] == "draw":
        legal.discard("discard")
    assert shown == legal, f"{person.name}: buttons {shown}, decision {decision['actions']}"


def events(person: Person, kind: str) -> list[dict[str, Any]]:
    return [
        event
        for frame in person.frames
        if frame.get("type") == "event"
        for event in frame["events"]
        if event["kind"] == kind
    ]


def first_deal_frames(person: Person) -> list[dict[str, Any]]:
    """The frames of the first deal, up to its end."""
    kept = []
    for frame in person.frames:
        kept.append(frame)
        if any(e["kind"] == "deal-ended" for e in frame.get("events") or []):
            break
    return kept


def no_choice_before_all_chose(person: Person, dealt: int) -> None:
    """No frame the page received tells a choice before all ``dealt`` seats' choices are
    told, and those all come in one frame."""
    for frame in first_deal_frames(person):
        declared = {e["seat"] for e in frame.get("events") or [] if e["kind"] == "declared"}
        game = frame.get("game") or {}
        told = {int(seat) for seat in game.get("declared") or {}}
        everyone = set(range(dealt))
        assert declared in (set(), everyone), f"{person.name}: {sorted(declared)} alone"
        assert told in (set(), everyone), f"{person.name} was told {sorted(told)} only"

        for event in frame.get("events") or []:
            if event["kind"] == "chose":
                assert set(event) <= {"kind", "audience", "seat"}, event


def test_hi_lo_declarations_are_revealed_together(
    chromium: Any, server: Server, shots: Path
) -> None:
    people = seated(chromium, server, shots, "hi-lo-guts", bot="random")
    ann, bob = people
    for person in people:
        person.page.wait_for_selector("#actions button[data-action=high]")
        exactly_the_legal_buttons(person)
        assert (
            person.page.eval_on_selector_all(
                "#actions button[data-action]", "all => all.map(b => b.dataset.action)"
            )
            == HI_LO
        )
        assert "everyone chooses at once" in person.page.inner_text("#actions")
    ann.shot("declare")
    bob.shot("declare")
    ann.page.click("#actions button[data-action=high]")
    # Ann's page knows her choice (and says it is not yet shown); nobody else's does
    ann.page.wait_for_selector(".seat.you .seat-status:text-is('you chose high')")
    assert "You chose high" in ann.page.inner_text("#actions")
    assert not buttons(ann.page), "a choice once made is not offered again"
    bob.page.wait_for_selector(".seat:has-text('Ann') .seat-status:text-is('chose')")
    assert not events(bob, "declared"), "Bob was told a choice before everyone chose"
    assert "high" not in bob.page.inner_text("#seats")
    exactly_the_legal_buttons(bob)
    ann.shot("chose-high")
    bob.shot("ann-chose")
    bob.page.click("#actions button[data-action=low]")
    for person, lines in ((ann, ("You: high", "Bob: low")), (bob, ("Ann: high", "You: low"))):
        for line in lines:
            person.page.wait_for_selector(f"#log li:text-is('{line}')", state="attached")
    outcome = as_you(events(bob, "outcome")[0]["text"], "Ann")  # in Ann's words at hers
    wait_until(lambda: outcome in ann.page.inner_text("#centre"), "the deal's outcome at Ann's")
    for person in people:
        no_choice_before_all_chose(person, dealt=3)
        no_hidden_card_in_frames(person)
        assert not person.errors, person.errors
        person.shot("revealed")


def test_openers_are_opened_by_clicking_and_proved(
    chromium: Any, server: Server, shots: Path
) -> None:
    people = seated(chromium, server, shots, "jacks-or-better", options={"min-players": "2"})
    ann, bob = people
    opened: list[str] = []

    def choose(person: Person, found: dict[str, Any]) -> bool:
        exactly_the_legal_buttons(person)
        view = person.value("state.game")
        if person is ann and "bet" in found and view["opener"] is None and not opened:
            label = found["bet"].inner_text()
            assert label.startswith("Open"), label
            assert "Openers: jacks or better" in person.page.inner_text("#actions")
            person.shot("open")
            found["bet"].click()
            opened.append(label)
            return True
        for word in ("stand pat", "call", "check"):
            if word in found:
                if word == "stand pat":
                    person.shot("draw")
                found[word].click()
                return True
        return False

    play(people, choose, lambda: bool(events(ann, "draw-openers-shown")))
    assert opened, "Ann opened"
    shown = events(bob, "draw-openers-shown")[0]
    assert shown["seat"] == ann.seat()
    # everyone hears the proof and reads it in the log, in the terminal's words
    for person in people:  # the opener's own page says it in the second person
        own = person is ann
        words = ("You prove openers" if own else "proves openers") if shown["proved"] else (
            "You cannot prove openers" if own else "cannot prove openers")  # fmt: skip
        person.page.wait_for_selector(f"#log li:has-text('{words}')", state="attached")
        person.shot("proved")
    for person in people:
        no_hidden_card_in_frames(person)
        assert not person.errors, person.errors
    wait_until(lambda: ann.value("state.game && state.game.over") or ann.deals() > 1, "the end")
