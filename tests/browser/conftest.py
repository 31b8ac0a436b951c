"""Fixtures of the browser tests: Chromium (``GUTS_CHROMIUM``, else Debian's
``/usr/bin/chromium``, one on the PATH or Playwright's own download) driven by
Playwright, a real ``guts serve`` per test module, and a folder of screenshots printed
at the end of the run. Where no Chromium is found (a fresh machine) the browser tests are
skipped, and the run's summary says why and how to run them; ``.ci/run`` installs
Chromium, so CI runs them all."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # the shared helpers (importlib mode)

from browser_helpers import CHROMIUM, HOW_TO_RUN, LOOKED, Server

HERE = Path(__file__).parent
if not os.environ.get("GUTS_SCREENSHOTS"):  # (tests/conftest.py sets it for the whole run)
    os.environ["GUTS_SCREENSHOTS"] = tempfile.mkdtemp(prefix="guts-screens-")
SHOTS = Path(os.environ["GUTS_SCREENSHOTS"])
MEASURED = SHOTS / "measured.txt"
"""The lines of measurements of every worker, printed at the end of the run
(tests/conftest.py prints them, and the screenshots' folder, and why the tests were
skipped: the run's controller has not always read this file)."""
NO_CHROMIUM = f"no Chromium found ({LOOKED}): {HOW_TO_RUN}"
SKIPPED = "the browser tests need Chromium: "
"""How the reason of a browser test skipped for want of Chromium begins."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Without Chromium, skip the browser tests before any server starts (or, where
    ``GUTS_REQUIRE_CHROMIUM=1`` says they must run, as in CI, stop the run)."""
    if CHROMIUM is not None:
        return
    if os.environ.get("GUTS_REQUIRE_CHROMIUM") == "1" and any(
        HERE in item.path.parents for item in items
    ):
        raise pytest.UsageError(f"GUTS_REQUIRE_CHROMIUM=1 and {NO_CHROMIUM}")
    skip = pytest.mark.skip(reason=f"{SKIPPED}{NO_CHROMIUM}")
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(skip)


@pytest.fixture(scope="module")
def chromium() -> Iterator[object]:
    """Chromium driven by Playwright, for one test module at a time: the sync API runs an
    event loop in this thread while it is open, and the suite's later tests call
    ``asyncio.run``, which refuses to start inside a running loop."""
    from playwright.sync_api import sync_playwright

    assert CHROMIUM is not None, NO_CHROMIUM  # (the tests are skipped without it)
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


class Measured(list[str]):
    """Lines of measurement, printed at the end of the run: each is also written to a
    file in the run's screenshot folder, so the lines of every xdist worker are printed."""

    def append(self, line: str) -> None:
        super().append(line)
        with MEASURED.open("a") as out:
            out.write(line.rstrip("\n") + "\n")


@pytest.fixture
def measured() -> Measured:
    """Lines of measurements, printed at the end of the run."""
    return Measured()
