"""The compiled build (``GUTS_COMPILE=1``, ``setup.py``) for the tests that run on it:
one wheel holding the engine's and the server's compiled modules, built once per version
of the source and kept, unpacked, in ``build/compiled/<hash>/site``.

The hash covers every file the wheel is made of (``src/guts``, ``setup.py``,
``pyproject.toml``), so a wheel is never stale. The build runs under a file lock: the
test run's workers, or two runs, build it once and the others wait for it (the compiled
tests share one xdist group, so within a run a single worker builds and tests while the
others go on). A machine without a C compiler skips these tests with that reason.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from pathlib import Path

import pytest
from filelock import FileLock

ROOT = Path(__file__).resolve().parent.parent
BUILDS = ROOT / "build" / "compiled"
COMPILED: list[str] = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["guts"][
    "compiled"
]
"""The compiled modules' paths (``pyproject.toml``'s ``[tool.guts] compiled``)."""


def module_name(path: str) -> str:
    """``src/guts/table.py`` -> ``guts.table``; a package's ``__init__`` is the package."""
    return path.removeprefix("src/").removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def compiler() -> str | None:
    """The C compiler this Python builds extensions with, if the machine has it."""
    command = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(command)


MARKS = [
    pytest.mark.compiled,  # minutes of building: run by .ci/run, not by the README's command
    pytest.mark.skipif(compiler() is None, reason="no C compiler to build with"),
    pytest.mark.xdist_group("compiled"),  # one worker builds and tests; the rest go on
]
"""The marks of every test on the compiled build."""


def fingerprint() -> str:
    """A hash of everything the wheel is made of."""
    digest = hashlib.sha256()
    files = [ROOT / "setup.py", ROOT / "pyproject.toml"]
    files += sorted(p for p in (ROOT / "src" / "guts").rglob("*")
                    if p.is_file() and "__pycache__" not in p.parts)  # fmt: skip
    for path in files:
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def compiled_site() -> Path:
    """A folder holding the compiled wheel's files, as site-packages would; built unless
    this version of the source was built before."""
    folder = BUILDS / fingerprint()
    BUILDS.mkdir(parents=True, exist_ok=True)
    with FileLock(BUILDS / "build.lock"):
        if not (folder / "done").exists():
            _build(folder)
    return folder / "site"


def _build(folder: Path) -> None:
    """Build the wheel into ``folder`` and unpack it; older versions' folders go."""
    for old in BUILDS.iterdir():
        if old.is_dir():
            shutil.rmtree(old, ignore_errors=True)
    folder.mkdir(parents=True)
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--wheel-dir", str(folder), str(ROOT)],
        env={**os.environ, "GUTS_COMPILE": "1"}, capture_output=True, text=True, timeout=1800,
    )  # fmt: skip
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    (wheel,) = folder.glob("guts-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(folder / "site")
    (folder / "done").touch()


def python(site: Path, *arguments: str, timeout: float) -> subprocess.CompletedProcess[str]:
    """This Python, run from the project's folder with the compiled wheel first on its
    path (``tests/`` after it, for the tests' helpers)."""
    path = os.pathsep.join([str(site), str(ROOT / "tests")])
    return subprocess.run(
        [sys.executable, *arguments], cwd=ROOT, capture_output=True, text=True,
        env={**os.environ, "PYTHONPATH": path}, timeout=timeout,
    )  # fmt: skip


def passes(site: Path, *arguments: str) -> None:
    """pytest with ``arguments`` passes on the compiled build."""
    ran = python(site, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", *arguments,
                 timeout=3000)  # fmt: skip
    assert ran.returncode == 0, ran.stdout[-6000:] + ran.stderr[-2000:]
    assert " passed" in ran.stdout.splitlines()[-1], ran.stdout[-500:]


def play_sessions(preset: str, sessions: int, seed: int = 0) -> list[str]:
    """Seeded sessions of ``preset`` for four players, every decision taken by a seeded
    random choice among the actions offered: each action's events, one JSON line a step
    (``seed:deal:action``, then the events), for comparing two builds line by line."""
    import json
    import random

    from guts.catalog import find_game

    lines: list[str] = []
    for number in range(seed, seed + sessions):
        rng = random.Random(number)
        session = find_game(preset).new_session(["A", "B", "C", "D"], buy_in=200, rng=rng)
        deals = 0
        while not session.is_over and deals < 10:
            if session.deal_over:
                session.start_deal()
                deals += 1
                continue
            decision = session.pending()[0]
            action = rng.choice(decision.actions)
            events = [event.to_dict() for event in session.act(decision.seat, action)]
            step = f"session {number}, deal {deals}, seat {decision.seat}: {action!r}"
            lines.append(f"{step} -> {json.dumps(events, sort_keys=True, default=str)}")
        lines.append(f"session {number} ends: {json.dumps(session.table.snapshot(), default=str)}")
    return lines


if __name__ == "__main__":
    print(compiled_site())  # build (unless built) and name the folder, for the benchmarks
