"""Test-wide settings: hypothesis without per-example deadlines; tests/ importable.

The suite runs on small, shared machines where one example can take a few hundred
milliseconds for reasons that have nothing to do with the code under test; the tests
assert behaviour, never time.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent))  # shared helpers such as cli_helpers

settings.register_profile("guts", deadline=None)
settings.load_profile("guts")

# The user data directory of this run and of the processes it starts (guts serve's default
# database, guts join's device tokens): a folder of its own, never the person's.
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="guts-test-data-")
