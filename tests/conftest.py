"""Test-wide settings: hypothesis without per-example deadlines.

The suite runs on small, shared machines where one example can take a few hundred
milliseconds for reasons that have nothing to do with the code under test; the tests
assert behaviour, never time.
"""

from __future__ import annotations

from hypothesis import settings

settings.register_profile("guts", deadline=None)
settings.load_profile("guts")
