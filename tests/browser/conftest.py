"""Fixtures of the browser tests: Debian's Chromium (``/usr/bin/chromium``, or
``GUTS_CHROMIUM``) driven by Playwright, a real ``guts serve`` per test module, and a
folder of screenshots printed at the end of the run. Without Chromium the tests fail,
saying why (``.ci/run`` installs it): they are never skipped silently."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # the shared helpers (importlib mode)

from browser_helpers import CHROMIUM, Server

SHOTS = Path(os.environ.get("GUTS_SCREENSHOTS") or tempfile.mkdtemp(prefix="guts-screens-"))
MEASURED: list[str] = []


@pytest.fixture(scope="module")
def chromium() -> Iterator[object]:
    """Chromium driven by Playwright, for one test module at a time: the sync API runs an
    event loop in this thread while it is open, and the suite's later tests call
    ``asyncio.run``, which refuses to start inside a running loop."""
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).exists(), (
        f"the browser tests need Chromium at {CHROMIUM} (apt-get install chromium, or set "
        "GUTS_CHROMIUM)"
    )
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        yield launched
        launched.close()


@pytest.fixture
def shots(request: pytest.FixtureRequest) -> Path:
    """The screenshot folder of this test."""
    folder = SHOTS / request.node.name.replace("/", "_")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A real ``guts serve`` shared by the tests that leave it running (each opens its
    own tables); killed at the end, whatever happened."""
    running = Server(tmp_path_factory.mktemp("server"))
    running.start()
    try:
        yield running
    finally:
        running.kill()


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[Server]:
    """A real ``guts serve`` of this test alone (for a test that kills it)."""
    running = Server(tmp_path)
    running.start()
    try:
        yield running
    finally:
        running.kill()


@pytest.fixture
def measured() -> list[str]:
    """Lines of measurements, printed at the end of the run."""
    return MEASURED


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if SHOTS.exists() and any(SHOTS.iterdir()):
        terminalreporter.write_line(f"browser screenshots: {SHOTS}")
    for line in MEASURED:
        terminalreporter.write_line(line)
