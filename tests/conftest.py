"""Test-wide settings: hypothesis without per-example deadlines; tests/ importable; a
user data directory of the run's own; the browser tests' screenshot folder, shared by
every xdist worker, and the run's summary of them (their folder, their measurements, and
why they were skipped where no Chromium was found).

The suite runs on small, shared machines where one example can take a few hundred
milliseconds for reasons that have nothing to do with the code under test; the tests
assert behaviour, never time.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent))  # shared helpers such as cli_helpers

settings.register_profile("guts", deadline=None)
settings.load_profile("guts")

# The user data directory of this run and of the processes it starts (guts serve's default
# database, guts join's device tokens): a folder of its own, never the person's.
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="guts-test-data-")

# The browser tests' screenshots and measurements: one folder for the run, made here (the
# run's controller reads this file before it starts its xdist workers, which inherit it).
if not os.environ.get("GUTS_SCREENSHOTS"):
    os.environ["GUTS_SCREENSHOTS"] = tempfile.mkdtemp(prefix="guts-screens-")
SHOTS = Path(os.environ["GUTS_SCREENSHOTS"])
MEASURED = SHOTS / "measured.txt"
if not os.environ.get("PYTEST_XDIST_WORKER"):  # the run's controller (or a run without xdist)
    MEASURED.unlink(missing_ok=True)  # a GUTS_SCREENSHOTS kept from an earlier run
NO_CHROMIUM = "the browser tests need Chromium: "
"""How the reason of a browser test skipped for want of Chromium begins (browser/conftest)."""


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if hasattr(terminalreporter.config, "workerinput"):
        return  # an xdist worker: the controller prints the run's summary
    for report in terminalreporter.stats.get("skipped", []):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else ""
        reason = str(reason).removeprefix("Skipped: ")
        if reason.startswith(NO_CHROMIUM):
            told = reason.removeprefix(NO_CHROMIUM)
            terminalreporter.write_line(f"browser tests skipped: {told}", yellow=True)
            break
    if SHOTS.exists() and any(path.is_dir() for path in SHOTS.iterdir()):
        terminalreporter.write_line(f"browser screenshots: {SHOTS}")
    if MEASURED.exists():
        for line in MEASURED.read_text().splitlines():
            terminalreporter.write_line(line)
