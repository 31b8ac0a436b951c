"""Helpers of the browser tests: a real ``guts serve`` and the pages of the people at it."""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, BrowserContext, Page
from serve_helpers import WAIT, ServeProcess

STEP_MS = 20_000
"""Milliseconds the page may take to show what a test waits for."""
DEBIAN_CHROMIUM = "/usr/bin/chromium"
HOW_TO_RUN = (
    "to run them, install Chromium (Debian: apt-get install chromium; elsewhere: "
    ".venv/bin/playwright install chromium) or set GUTS_CHROMIUM to a Chromium; "
    ".ci/run installs it"
)


def find_chromium() -> tuple[str | None, str]:
    """The Chromium the browser tests drive (None if none is found) and where it was
    looked for: ``GUTS_CHROMIUM`` alone if it is set, else Debian's, a ``chromium`` on
    the PATH, then the one ``playwright install chromium`` downloads."""
    given = os.environ.get("GUTS_CHROMIUM")
    if given:
        return (given if Path(given).is_file() else None), f"GUTS_CHROMIUM={given}"
    candidates = [DEBIAN_CHROMIUM, shutil.which("chromium"), shutil.which("chromium-browser")]
    found = next((c for c in candidates if c and Path(c).is_file()), None)
    if found is None:
        found = _playwright_chromium()
    looked = f"{DEBIAN_CHROMIUM}, chromium on the PATH, Playwright's own download"
    return found, looked


def _playwright_chromium() -> str | None:
    """The Chromium that ``playwright install chromium`` put in its cache, if it did."""
    from playwright.sync_api import Error, sync_playwright

    try:
        with sync_playwright() as playwright:
            path = playwright.chromium.executable_path
    except Error:
        return None
    return path if path and Path(path).is_file() else None


CHROMIUM, LOOKED = find_chromium()
CARD = re.compile(r"\b[2-9TJQKA][shdc]\b")
PHONE = (375, 667)
"""A phone's viewport (CSS pixels)."""


class Server(ServeProcess):
    """``guts serve`` in a subprocess on a free loopback port, restartable on the same port
    and database (SQLite in a file), with bots quick enough to watch."""

    def __init__(self, folder: Path) -> None:
        super().__init__(f"sqlite+aiosqlite:///{folder / 'guts.db'}", folder / "server.log",
                         bot_delay=0.05, deal_delay=0.3)  # fmt: skip

    def open_table(self, preset: str, **fields: Any) -> dict[str, Any]:
        response = httpx.post(
            f"{self.url}/api/tables", json={"preset": preset, **fields}, timeout=WAIT
        )
        assert response.status_code == 201, response.text
        created: dict[str, Any] = response.json()
        return created

    def ledger(self, table_id: str, secret: str) -> dict[str, Any]:
        response = httpx.get(
            f"{self.url}/api/tables/{table_id}/ledger",
            headers={"authorization": f"Bearer {secret}"},
            timeout=WAIT,
        )
        response.raise_for_status()
        ledger: dict[str, Any] = response.json()
        return ledger

    def ledger_csv(self, table_id: str, secret: str) -> str:
        response = httpx.get(
            f"{self.url}/api/tables/{table_id}/ledger?format=csv",
            headers={"authorization": f"Bearer {secret}"},
            timeout=WAIT,
        )
        response.raise_for_status()
        return response.text

    def summary(self, table_id: str) -> dict[str, Any]:
        response = httpx.get(f"{self.url}/api/tables/{table_id}", timeout=WAIT)
        response.raise_for_status()
        summary: dict[str, Any] = response.json()
        return summary


class Person:
    """One person at the table: a browser context of their own, its page, and every
    websocket frame the page received (parsed)."""

    def __init__(
        self,
        browser: Browser,
        name: str,
        shots: Path,
        viewport: tuple[int, int] = (1280, 800),
        *,
        strict_csp: bool = False,
    ) -> None:
        self.name = name
        self.shots = shots
        # Playwright's wait_for_function evaluates its predicate text in the page, which the
        # server's Content-Security-Policy (no eval) refuses: the tests bypass the policy,
        # but for a person with strict_csp (tests/browser/test_csp.py plays under it).
        self.context: BrowserContext = browser.new_context(
            viewport={"width": viewport[0], "height": viewport[1]}, bypass_csp=not strict_csp
        )
        self.page: Page = self.context.new_page()
        self.page.set_default_timeout(STEP_MS)
        self.frames: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self.page.on("websocket", self._watch)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.shot_count = 0

    def _watch(self, websocket: Any) -> None:
        def received(payload: str | bytes) -> None:
            self.frames.append(json.loads(payload))

        websocket.on("framereceived", received)

    def open(self, url: str) -> None:
        self.page.goto(url)
        self.page.wait_for_selector("#connection[data-state=online]")

    def join(self, buy_in: int | None = None) -> None:
        page = self.page
        page.fill("#nickname", self.name)
        if buy_in is not None:
            page.fill("#buy-in", str(buy_in))
        page.click("#join-form button[type=submit]")
        page.wait_for_selector("#join .waiting")

    def state(self) -> dict[str, Any]:
        """The page's state (what it built from the server's messages)."""
        state: dict[str, Any] = self.page.evaluate(
            "() => JSON.parse(JSON.stringify({...window.gutsState, chose: [], picked: []}))"
        )
        return state

    def value(self, expression: str) -> Any:
        """A value of the page's state: ``expression`` over ``state`` (window.gutsState)."""
        return self.page.evaluate(f"(state => {expression})(window.gutsState)")

    def status(self) -> str:
        """The table's status as the page knows it."""
        return str(self.value("state.table && state.table.status"))

    def deals(self) -> int:
        """How many deals the page has seen start."""
        return sum(
            event.get("kind", "").endswith("deal-started")
            for frame in self.frames
            if frame.get("type") == "event"
            for event in frame["events"]
        )

    def shot(self, step: str) -> Path:
        self.shot_count += 1
        path = self.shots / f"{self.name}-{self.shot_count:02d}-{step}.png"
        self.page.screenshot(path=str(path))
        return path

    def seat(self) -> int | None:
        seat: int | None = self.value("state.you && state.you.seat")
        return seat

    def close(self) -> None:
        self.context.close()


def wait_until(check: Callable[[], Any], what: str, seconds: float = WAIT) -> Any:
    """Poll ``check`` until it answers something true; fail naming ``what``."""
    deadline = time.monotonic() + seconds
    while True:
        answer = check()
        if answer:
            return answer
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def buttons(page: Page) -> dict[str, Any]:
    """The enabled buttons of the action bar by their action."""
    actions = page.eval_on_selector_all(
        "#actions button[data-action]:not([disabled])", "all => all.map(b => b.dataset.action)"
    )
    return {
        action: page.locator(f'#actions button[data-action="{action}"]:not([disabled])')
        for action in actions
    }


def cards_in(value: Any) -> set[str]:
    """Every card code in a JSON value."""
    return set(CARD.findall(json.dumps(value)))


def seen_cards(frames: list[dict[str, Any]], seat: int | None) -> set[str]:
    """The cards the engine let ``seat`` see in these frames: those of the events whose
    audience is everyone or includes the seat (a snapshot's view has its own events)."""
    seen: set[str] = set()
    for frame in frames:
        events = list(frame.get("events") or [])
        if frame.get("type") == "snapshot" and frame.get("game"):
            events += frame["game"].get("events", [])
        for event in events:
            audience = event.get("audience")
            if audience is None or (seat is not None and seat in audience):
                seen |= cards_in({k: v for k, v in event.items() if k != "audience"})
    return seen


def on_screen(person: Person, selector: str) -> list[str]:
    """The elements matching ``selector`` that are not wholly inside the viewport."""
    outside: list[str] = person.page.eval_on_selector_all(
        selector,
        """(elements) => elements.filter(element => {
            const box = element.getBoundingClientRect();
            return box.left < 0 || box.top < 0 || box.right > innerWidth
                || box.bottom > innerHeight || box.width === 0;
        }).map(element => element.outerHTML.slice(0, 80))""",
    )
    return outside
