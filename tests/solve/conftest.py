"""Fixtures of the solver's tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def shared_solve_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One solve cache (``GUTS_CACHE_DIR``) for the tests that only read solutions: each
    preset and player count is then solved once per test process (a three-player solve
    with exact card removal takes seconds), not once per test. Tests of the cache itself
    keep their own."""
    return tmp_path_factory.mktemp("guts-cache")
