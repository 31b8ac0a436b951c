"""Every preset of the catalog is playable from the page (slow: a few minutes): a person
at a table of bots clicks one of the legal actions at random for a few decisions; the
page never fails, never shows a card its seat may not see, and always offers an action
when the server says the seat must decide."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import Person, Server, buttons, wait_until
from play import no_hidden_card_in_frames, play, start

from guts.catalog import find_game, games


def fewest_players(preset: str) -> int:
    game = find_game(preset)
    for count in range(2, 11):
        try:
            game.new_session([f"P{n}" for n in range(count)], buy_in=100)
        except Exception:
            continue
        return count
    raise AssertionError(f"{preset} takes no number of players from 2 to 10")


@pytest.mark.slow
@pytest.mark.parametrize("preset", sorted(games()))
def test_every_preset_plays_from_the_page(
    chromium: Any, server: Server, shots: Path, preset: str
) -> None:
    bots = max(fewest_players(preset), 3) - 1  # with two, both may be forced in
    created = server.open_table(preset, buy_in=100, auto_approve=True, bots=bots, bot="random")
    ann = Person(chromium, "Zed", shots)
    ann.open(created["host_url"])
    ann.join()
    start(ann)
    rng = random.Random(preset)
    clicks = {"count": 0}

    def choose(person: Person, found: dict[str, Any]) -> bool:
        page = person.page
        pat = [word for word in ("stand pat", "stand") if word in found]
        if pat:
            found[pat[0]].click()
        elif found:
            found[rng.choice(sorted(found))].click()
        else:
            playable = page.locator("#hand button.card:not([disabled])")
            if not playable.count():
                return False
            playable.nth(rng.randrange(playable.count())).click()
        clicks["count"] += 1
        if clicks["count"] == 1:
            person.shot(preset)
        return True

    def enough() -> bool:
        decided = ann.value("Boolean(state.decision)")
        if decided and not ann.value("state.sent"):
            wait_until(
                lambda: (
                    buttons(ann.page)
                    or ann.page.locator("#hand button.card:not([disabled])").count()
                ),
                "an action for the decision",
            )
        return clicks["count"] >= 6 or ann.deals() >= 5 or ann.status() == "over"

    play([ann], choose, enough, seconds=90)
    no_hidden_card_in_frames(ann)
    assert not ann.errors, ann.errors
    ann.close()
