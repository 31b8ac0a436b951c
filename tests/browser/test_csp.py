"""The page under the server's own Content-Security-Policy (the other browser tests bypass
it, for Playwright's predicate waits): a host opens a table from the lobby, takes a seat,
adds a bot, starts and plays by clicking, with no request refused by the policy, no
script error and no evaluated text. Waits are on locators only (no wait_for_function,
which the policy refuses)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser_helpers import STEP_MS, Person, Server


def test_a_night_plays_under_the_content_security_policy(
    chromium: Any, server: Server, shots: Path
) -> None:
    host = Person(chromium, "Ann", shots, strict_csp=True)
    refused: list[str] = []
    host.page.on(
        "console",
        lambda message: refused.append(message.text)
        if "Content Security Policy" in message.text
        else None,
    )
    page = host.page
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready=yes]")
    page.click("#open")
    page.wait_for_selector("#created:not([hidden])")
    link = page.get_attribute("#host-link", "href")
    assert link is not None and "#host=" in link
    host.open(link)
    host.join()
    page.click("#tab-host")
    page.select_option("#bot-kind", "random")
    page.click("#add-bot")
    page.get_by_text("2 seated.").wait_for()
    page.click("#start")
    clicks = 0
    for _ in range(6):
        choice = page.locator("#actions button[data-action]:not([disabled])").first
        try:
            choice.wait_for(timeout=STEP_MS)
        except Exception:  # the deal ended without a decision of Ann's: play on
            continue
        choice.click()
        clicks += 1
        page.locator("#log li").first.wait_for(state="attached")
    host.shot("played-under-csp")
    assert clicks > 0, "Ann had decisions to make"
    assert page.locator("#log li").count() > 0, "the log tells the deal"
    assert not refused, refused
    assert not host.errors, host.errors
