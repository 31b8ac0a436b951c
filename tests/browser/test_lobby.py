"""The lobby in a real Chromium (issue 29, items 6 and 11): the games by family with their
real names and one line each, the common ones first, house rules as the variations of
their game; a night of dealer's choice offers only the games that deal to the night's
number of players, says why the rest do not, keeps the list's text out of the way, and
with three players it starts."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from browser_helpers import Person, Server
from play import add_bot

COMMON = ["Two-Card Guts", "Three-Card Guts", "Three Five Seven", "Five Card Draw",
          "Jacks or Better", "Bourré", "Dealer's choice"]  # fmt: skip
SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)+$")


def test_games_by_family_with_their_names(chromium: Any, server: Server, shots: Path) -> None:
    for viewport in ((1280, 800), (360, 740)):
        ann = Person(chromium, "Ann", shots, viewport=viewport)
        page = ann.page
        page.goto(server.url + "/")
        page.wait_for_selector("body[data-ready=yes]")
        titles = page.eval_on_selector_all(
            ".game-list > .game-cards .game-title", "all => all.map(t => t.textContent)"
        )
        assert titles == COMMON, titles
        every = page.eval_on_selector_all(".game-title", "all => all.map(t => t.textContent)")
        assert not [title for title in every if SLUG.match(title)], every
        lines = page.eval_on_selector_all(".game-line", "all => all.map(t => t.textContent)")
        assert all(lines) and len(lines) == len(every)
        retract = page.locator(".game-card[data-game=bourre-retract]")
        assert "House rules of Bourré" in (retract.locator("xpath=..").text_content() or "")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport[0]
        ann.shot(f"lobby-{viewport[0]}")
        page.click("summary:has-text('House-rule variations of the common games')")
        retract.click()
        page.wait_for_function(
            "document.getElementById('summary').dataset.game === 'bourre-retract'"
        )
        assert page.input_value("#game") == "bourre-retract"
        assert retract.get_attribute("aria-pressed") == "true"
        assert page.inner_text("#chosen-title") == "Retract"
        ann.shot(f"variation-{viewport[0]}")
        ann.close()


def test_a_night_offers_what_fits_the_table(chromium: Any, server: Server, shots: Path) -> None:
    ann = Person(chromium, "Ann", shots)
    page = ann.page
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready=yes]")
    page.click(".game-card[data-game=dealers-choice]")
    page.wait_for_selector("#game-picker")
    assert page.is_hidden("#option-games"), "the list's text beside the boxes"
    assert page.is_checked("#pick-jacks-or-better")  # the night's default list has it
    page.fill("#night-players", "3")
    page.wait_for_selector("#pick-jacks-or-better:disabled")
    assert not page.is_checked("#pick-jacks-or-better")
    assert "jacks-or-better" not in page.input_value("#option-games")
    why = page.inner_text("#picker-why")
    assert "Jacks or Better (4 to 6 players)" in why and "Taken off the list" in why, why
    assert "(4 to 6 players)" in page.inner_text("label[for=pick-jacks-or-better]")
    assert page.is_enabled("#pick-three-five-seven") and page.is_enabled("#pick-bourre")
    page.locator("#game-picker").screenshot(path=str(shots / "night-picker.png"))
    # chooser=dealer, the deal continuing and a cap of as many deals as players: the same
    # player would choose (by default the deal passes left after a game: no warning)
    assert page.input_value("#option-chooser") == "dealer"
    assert page.input_value("#option-deal-after-game") == "passes"
    assert page.inner_text("#night-warning") == ""
    page.fill("#option-cap", "3")
    page.wait_for_selector("#night-warning:empty")
    page.select_option("#option-deal-after-game", "continues")
    page.wait_for_selector("#night-warning:has-text('they would choose every game')")
    page.fill("#night-players", "4")
    page.wait_for_selector("#night-warning:empty")
    page.fill("#night-players", "3")
    page.select_option("#option-chooser", "next")
    page.wait_for_selector("#night-warning:empty")
    page.click("#open")
    page.wait_for_selector("#created:not([hidden])")
    host_link = page.get_attribute("#host-link", "href")
    assert host_link is not None
    ann.open(host_link)
    ann.join()
    add_bot(ann, "sensible")
    add_bot(ann, "sensible")
    page.click("#start-at-table")
    page.wait_for_function("window.gutsState.game !== null")  # three players: it starts
    assert not ann.errors, ann.errors
    ann.close()
