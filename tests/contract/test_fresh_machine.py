"""The README's test command on a fresh machine: where no Chromium can be found the
browser tests are skipped, and the run says why and how to run them (it never fails for
want of a browser, and never skips without a word)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BROWSER = ROOT / "tests" / "browser"


def _without_chromium(tmp_path: Path) -> dict[str, str]:
    """This environment with GUTS_CHROMIUM naming a browser that is not there."""
    environment = {**os.environ, "GUTS_CHROMIUM": str(tmp_path / "no-chromium-here"),
                   "GUTS_SCREENSHOTS": str(tmp_path / "shots")}  # fmt: skip
    environment.pop("GUTS_REQUIRE_CHROMIUM", None)  # (set by .ci/run)
    return environment


def test_without_chromium_the_browser_tests_skip_saying_why_and_how(tmp_path: Path) -> None:
    missing = tmp_path / "no-chromium-here"
    environment = _without_chromium(tmp_path)
    ran = subprocess.run(  # one xdist worker: the reports still come through the controller
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "1",
         "tests/browser/test_pages.py"],
        cwd=ROOT, env=environment, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    out = ran.stdout
    assert ran.returncode == 0, out[-3000:] + ran.stderr[-2000:]
    last = out.strip().splitlines()[-1]
    assert re.search(r"\b\d+ skipped\b", last) and "passed" not in last, out[-2000:]
    assert "failed" not in last and "error" not in last, out[-2000:]
    said = [line for line in out.splitlines() if line.startswith("browser tests skipped:")]
    assert said, out[-2000:]
    assert f"GUTS_CHROMIUM={missing}" in said[0]
    assert "apt-get install chromium" in said[0] and "playwright install chromium" in said[0]
    assert not (tmp_path / "shots").exists() or not any(
        path.is_dir() for path in (tmp_path / "shots").iterdir()
    ), "a skipped browser test took screenshots"


def test_guts_chromium_names_the_browser(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    sys.path.insert(0, str(BROWSER))
    try:
        from browser_helpers import find_chromium
    finally:
        sys.path.remove(str(BROWSER))
    browser = tmp_path / "chromium"
    browser.write_text("")
    monkeypatch.setenv("GUTS_CHROMIUM", str(browser))
    assert find_chromium() == (str(browser), f"GUTS_CHROMIUM={browser}")
    monkeypatch.setenv("GUTS_CHROMIUM", str(tmp_path / "missing"))
    assert find_chromium() == (None, f"GUTS_CHROMIUM={tmp_path / 'missing'}")


def test_ci_requires_chromium(tmp_path: Path) -> None:
    environment = {**_without_chromium(tmp_path), "GUTS_REQUIRE_CHROMIUM": "1"}
    ran = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0",
         "tests/browser/test_pages.py"],
        cwd=ROOT, env=environment, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert ran.returncode != 0
    assert "GUTS_REQUIRE_CHROMIUM=1 and no Chromium found" in ran.stdout + ran.stderr
