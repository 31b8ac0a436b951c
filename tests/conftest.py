"""Test-wide settings: hypothesis without per-example deadlines; tests/ importable.

The suite runs on small, shared machines where one example can take a few hundred
milliseconds for reasons that have nothing to do with the code under test; the tests
assert behaviour, never time.
"""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent))  # shared helpers such as cli_helpers

settings.register_profile("guts", deadline=None)
settings.load_profile("guts")
