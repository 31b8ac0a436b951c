"""The server on the compiled build (``GUTS_COMPILE=1``, ``tests/compiled_build.py``):
the server tests that run the server in their own process (the actors, the barrier, the
dealer, the state, the app) pass with the compiled modules in place of their source, and
with ``-m slow`` every server test does, those that start ``guts serve`` processes too
(which then run on the wheel as well). Both only repeat the plain server tests on the
other build, hence ``-m slow``; ``tests/test_compiled_engine.py`` checks that the
compiled modules are the ones loaded."""

from __future__ import annotations

from pathlib import Path

import pytest
from compiled_build import MARKS, ROOT, compiled_site, passes

pytestmark = MARKS


def _in_process(path: Path) -> bool:
    """True for a server test file that starts no process (no ``guts serve``)."""
    text = path.read_text(encoding="utf-8")
    return "subprocess" not in text and "Server(" not in text and "def server(" not in text


@pytest.mark.slow
def test_the_in_process_server_tests_pass_compiled() -> None:
    files = sorted(p for p in (ROOT / "tests" / "server").glob("test_*.py") if _in_process(p))
    assert len(files) >= 10 and (ROOT / "tests" / "server" / "test_actor.py") in files
    passes(compiled_site(), "-x", *(str(path.relative_to(ROOT)) for path in files))


@pytest.mark.slow
def test_every_server_test_passes_compiled() -> None:
    passes(compiled_site(), "-x", "tests/server")
