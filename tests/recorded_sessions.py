"""Seeded sessions recorded step by step, for tests that hold the engine to what it did:
each step says what happened (``do``: the setup, a deal's start, a seat's action, a
refusal, the end) and what it showed, in full where it is small (the events an action
made, a refusal's message) and as a short hash where it is bulky (the decisions offered,
the views, the record, the narration). A session that differs from its record is named
with its first differing step and both values of each thing that differs there.

The views are hashed step by step (:class:`ViewDigests`): each view without its events,
and of its events those shown since the step before, so that a session's hashing takes
time in proportion to its length, not to its square.

Records are gzipped JSON files in ``tests/fixtures/<folder>/<preset>.json.gz``, one session a
line (gzip keeps the repository small: the text is 18 MB, compressed 2 MB).
"""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path
from typing import Any

from guts.errors import GutsError
from guts.games.session import RecordedSession

FIXTURES = Path(__file__).parent / "fixtures"

Step = dict[str, Any]
"""One step of a session: ``do`` (what happened), and what it showed."""


def hashed(value: Any) -> str:
    """A short hash of ``value``'s JSON, for what is too bulky to keep in full."""
    text = json.dumps(value, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def every_view(session: RecordedSession[Any, Any]) -> list[dict[str, Any]]:
    """Every seat's view, then the public view."""
    seats = range(len(session.table.names))
    return [session.view(seat) for seat in seats] + [session.public_view()]


class ViewDigests:
    """The views of one session at each of its steps, each step's as a short hash.

    A view's events are those of the session (or of the deal under way) that its seat may
    see, so they grow with every step: hashing them all at every step costs the square of
    a session's length. Here a step hashes each view without its events, and its events
    as those new since the step before where they begin with the events that view showed
    then (as they do within a deal), else in full (a new deal's, or any other change). The
    step before's view and a step's hash determine that step's view, so any difference in
    any view at any step changes that step's hash (but for a collision of the hash).
    """

    def __init__(self) -> None:
        self.shown: list[list[Any]] = []
        """The events of each view at the step before (none before the first)."""

    def __call__(self, views: list[dict[str, Any]]) -> str:
        """The hash of this step's ``views`` (in the same order at every step)."""
        if not self.shown:
            self.shown = [[] for _ in views]
        parts: list[Any] = []
        for index, view in enumerate(views):
            rest = dict(view)
            events = rest.pop("events")
            before, self.shown[index] = self.shown[index], events
            if events[: len(before)] == before:
                parts.append([rest, "and then", events[len(before) :]])
            else:
                parts.append([rest, "in full", events])
        return hashed(parts)


def refusal(error: GutsError) -> str:
    """A refusal as a step shows it: the error's class and message."""
    return f"{type(error).__name__}: {error}"


def as_json(sessions: dict[str, list[Step]]) -> dict[str, list[Step]]:
    """``sessions`` as they read back from JSON (tuples as lists, keys as strings)."""
    return json.loads(json.dumps(sessions, default=str))  # type: ignore[no-any-return]


def path_of(folder: str, preset: str) -> Path:
    """Where the record of ``preset`` is kept."""
    return FIXTURES / folder / f"{preset}.json.gz"


def recorded_presets(folder: str) -> list[str]:
    """The presets ``folder`` holds a record of, sorted."""
    paths = (FIXTURES / folder).glob("*.json.gz")
    return sorted(path.name.removesuffix(".json.gz") for path in paths)


def recorded(folder: str, preset: str) -> dict[str, list[Step]]:
    """The recorded sessions of ``preset``, by seed."""
    return json.loads(gzip.decompress(path_of(folder, preset).read_bytes()))  # type: ignore[no-any-return]


def record(folder: str, preset: str, sessions: dict[str, list[Step]]) -> None:
    """Write ``sessions`` of ``preset`` as its record (a session a line)."""
    path = path_of(folder, preset)
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [f"{json.dumps(seed)}: {json.dumps(steps, sort_keys=True)}"
             for seed, steps in as_json(sessions).items()]  # fmt: skip
    text = "{\n" + ",\n".join(lines) + "\n}\n"
    path.write_bytes(gzip.compress(text.encode(), mtime=0))


def first_difference(preset: str, seed: str, expected: list[Step], got: list[Step]) -> str:
    """Where session ``seed`` of ``preset`` first differs from its record, in words."""
    for index, (want, have) in enumerate(zip(expected, got, strict=False)):
        if want == have:
            continue
        where = f"{preset}, session {seed}, step {index} ({want.get('do')!r})"
        keys = sorted(key for key in set(want) | set(have) if want.get(key) != have.get(key))
        parts = [f"{key}: expected {want.get(key)!r}, got {have.get(key)!r}" for key in keys]
        return f"{where}: " + "; ".join(parts)
    return (f"{preset}, session {seed}: {len(expected)} steps recorded, {len(got)} played; "
            f"the first left over: {(expected + got)[min(len(expected), len(got))]!r}")  # fmt: skip


def differences(preset: str, expected: dict[str, list[Step]],
                got: dict[str, list[Step]]) -> list[str]:  # fmt: skip
    """Every session of ``preset`` that differs from its record, at its first difference."""
    found = [first_difference(preset, seed, expected[seed], got.get(seed, []))
             for seed in expected if expected[seed] != got.get(seed)]  # fmt: skip
    found += [f"{preset}, session {seed}: played, not recorded" for seed in got
              if seed not in expected]  # fmt: skip
    return found
