"""A night of dealer's choice in a real Chromium: the host opens it from the lobby (the
games ticked in the generated form, a bad combination refused with the server's message),
a player joins by the link, a bot sits down, and the people choose two different games
by clicking. Whoever must choose sees exactly the allowed games, each with its summary;
every page shows the game being played and its parts (Three Five Seven's wild cards,
Bourré's trump); stacks carry from game to game; the ledger on every page equals the
server's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser_helpers import PHONE, Person, Server, buttons, wait_until
from play import (
    add_bot,
    approve_all,
    ledger_shows,
    no_hidden_card_in_frames,
    play,
    server_rows,
    start,
)

GAMES = ["three-five-seven", "bourre", "two-card-guts"]
TITLES = {"three-five-seven": "Three Five Seven", "bourre": "Bourré",
          "two-card-guts": "Two-Card Guts"}  # fmt: skip
"""How the centre names each game (the catalog's title, not its name)."""
"""The games the host allows, in the order the people choose them."""
PARTS = {"three-five-seven": ".wild", "bourre": ".trump"}
"""What each game shows in the middle of the table once it is dealt."""


def open_night(host: Person, url: str) -> tuple[str, str]:
    """The host opens a night of GAMES from the lobby, first trying a default game that is
    not allowed (refused with the server's message): (join link, host link)."""
    page = host.page
    page.goto(url + "/")
    page.wait_for_selector("body[data-ready=yes]")
    page.select_option("#game", "dealers-choice")
    page.wait_for_function("document.getElementById('summary').dataset.game === 'dealers-choice'")
    page.wait_for_selector("#game-picker")
    for name in page.eval_on_selector_all(
        "#game-picker input:checked", "ticks => ticks.map(tick => tick.value)"
    ):
        page.uncheck(f"#pick-{name}")
    for name in GAMES:
        page.check(f"#pick-{name}")
    assert page.input_value("#option-games") == ",".join(GAMES)
    page.select_option("#option-chooser", "next")
    page.fill("#option-cap", "2")
    page.fill("#option-default", "napalm")
    page.dispatch_event("#option-default", "change")
    refusal = f"default: 'napalm' is not one of the games ({', '.join(GAMES)})"
    page.wait_for_selector(f'#problem:has-text("{refusal}")')
    page.click("#open")
    page.wait_for_selector(f'#problem:has-text("{refusal}")')
    assert page.is_hidden("#created")
    host.shot("lobby-refused")
    page.fill("#option-default", "bourre")
    page.dispatch_event("#option-default", "change")
    page.wait_for_function("document.getElementById('problem').textContent === ''")
    assert "Games allowed:" in (page.text_content("#rules") or "")
    page.fill("#buy-in", "80")
    page.click("#open")
    page.wait_for_selector("#created:not([hidden])")
    host.shot("lobby-opened")
    link = page.get_attribute("#host-link", "href")
    assert link is not None
    return page.input_value("#join-link"), link


def night_events(person: Person, kind: str) -> list[dict[str, Any]]:
    return [
        event
        for frame in person.frames
        if frame.get("type") == "event"
        for event in frame["events"]
        if event["kind"] == kind
    ]


def test_a_night_of_two_games_chosen_by_clicking(
    chromium: Any, server: Server, shots: Path
) -> None:
    ann = Person(chromium, "Ann", shots)
    bob = Person(chromium, "Bob", shots, viewport=PHONE)
    people = [ann, bob]
    join, host_link = open_night(ann, server.url)
    table_id = join.rsplit("/", 1)[1]
    ann.open(host_link)
    ann.join()
    bob.open(join)
    bob.join()
    approve_all(ann, 2)
    add_bot(ann, "sensible")
    start(ann)
    chosen: list[str] = []  # the games chosen by clicking, in order
    choosers: list[tuple[Person, int]] = []  # who chose them, and the game's number
    seen_parts: set[str] = set()

    def choose_game(person: Person, found: dict[str, Any]) -> bool:
        night = person.value("state.game.night")
        assert set(found) == set(night["games"]) == set(GAMES), found
        summaries = person.value("state.catalog")
        for game in GAMES:
            assert summaries[game] in found[game].inner_text()
        for other in people:
            if other is not person:
                assert not buttons(other.page), f"{other.name} may not choose"
        game = next((g for g in GAMES if g not in chosen), GAMES[0])
        person.shot(f"choose-{game}")
        found[game].click()
        chosen.append(game)
        choosers.append((person, night["number"] + 1))
        return True

    def choose(person: Person, found: dict[str, Any]) -> bool:
        if person.value("state.game && state.game.game") == "night":
            return choose_game(person, found)
        playing = person.value("state.game.night.playing")
        part = PARTS.get(playing)
        if part and person.page.locator(f"#centre {part}").count():
            if playing not in seen_parts:
                person.shot(f"playing-{playing}")
            seen_parts.add(playing)
        assert f"Game {person.value('state.game.night.number')}: {TITLES[playing]}" in (
            person.page.inner_text("#centre .night")
        )
        word = "in" if person is ann else "out"
        for candidate in (word, "stand pat", "stand", "play", "check", "call", "in"):
            if candidate in found:
                found[candidate].click()
                return True
        playable = person.page.locator("#hand button.card:not([disabled])")
        if playable.count():
            playable.first.click()
            return True
        if found:
            next(iter(found.values())).click()
            return True
        return False

    def two_games_played() -> bool:
        ended = {event["game"] for event in night_events(ann, "night-game-ended")}
        return len(set(chosen)) >= 2 and set(chosen[:2]) <= ended

    play(people, choose, two_games_played, seconds=240)
    assert chosen[:2] == GAMES[:2]
    assert seen_parts >= set(GAMES[:2]), seen_parts
    ann.page.on("dialog", lambda dialog: dialog.accept())
    ann.page.click("#tab-host")
    ann.page.click("#end")
    play(people, choose, lambda: ann.status() == "over", seconds=240)
    # stacks carry: each game starts with the stacks the one before ended with
    started = night_events(bob, "night-game-started")
    ended = night_events(bob, "night-game-ended")
    assert len(started) >= 2
    for before, after in zip(ended, started[1:], strict=False):
        assert [chips for _, chips in after["players"]] == before["stacks"]
    secret = host_link.split("#host=")[1]
    expected = server_rows(server.ledger(table_id, secret))
    assert sum(row["net"] for row in expected) == 0
    for person in people:  # each choice is in every log, in the terminal's words
        for (chooser, number), game in zip(choosers, chosen, strict=True):
            who = "You choose" if chooser is person else f"{chooser.name} chooses"
            line = f"{who} game {number}: {game}"
            person.page.wait_for_selector(f"#log li:text-is('{line}')", state="attached")
    for person in people:
        wait_until(lambda p=person: p.status() == "over", "the end of the night")
        ledger_shows(person, expected)
        games = person.page.eval_on_selector_all(
            ".night-games li", "items => items.map(item => item.dataset.game)"
        )
        assert games[:2] == GAMES[:2], games
        dealt = sum(1 for event in ended if event["deals"] > 0)  # a game chosen, not dealt
        line = f"The night is over after {dealt} game{'' if dealt == 1 else 's'}"
        assert person.page.inner_text(".night") == line
        person.shot("ledger")
        no_hidden_card_in_frames(person)
        assert not person.errors, person.errors
