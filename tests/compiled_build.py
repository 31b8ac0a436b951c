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


RANKINGS: list[tuple[str, dict[str, str], str, str, int]] = [
    ("high", {}, "", "bug", 0),
    ("high", {"ace-low": "no"}, "2", "bug", 0),
    ("high", {}, "", "bug", 1),
    ("high", {}, "Js,Jh", "wild", 2),
    ("low", {}, "", "bug", 0),
    ("low", {"pairs": "strong"}, "", "bug", 1),
    ("low", {}, "2", "bug", 2),
    ("stripped", {}, "", "bug", 0),
    ("two-card", {}, "", "bug", 0),
    ("two-card", {"straights": "yes", "flushes": "yes", "ace-low": "yes", "crumpler": "yes"},
     "", "bug", 1),
    ("two-card", {"flushes": "yes"}, "5", "wild", 2),
    ("three-card", {}, "", "bug", 0),
    ("three-card", {"straights": "no", "flushes": "no"}, "3", "bug", 0),
    ("three-card", {"order": "straight-flush,trips,straight,flush,pair,high-card"}, "", "bug", 2),
    ("three-card", {"ace-low": "no"}, "2", "wild", 1),
    ("single", {}, "", "bug", 0),
]  # fmt: skip
"""Rankings whose verdicts both builds must share: each ranking's name, its options, the
wild cards, how jokers play and how many are in the pack."""


def ranking_verdicts(hands: int = 150, seed: int = 0) -> list[str]:
    """What each ranking of :data:`RANKINGS` says of seeded random hands of every size it
    ranks (each hand's evaluation in full, strength, category and words, the same hands'
    batch strengths and categories), of hands it refuses (the error's class and message),
    of itself (options, categories, a pickled copy, its class's place among the others),
    one JSON line a ranking and size, for comparing two builds line by line."""
    import json
    import pickle
    import random

    import numpy as np

    from guts.cards import Card
    from guts.errors import GutsError
    from guts.rankings import RANKINGS as CLASSES
    from guts.rankings import Ranking, Wilds, make_ranking, ranking_class

    def refusal(ranking: Ranking, cards: list[Card]) -> str:
        try:
            ranking.strength(cards)
        except GutsError as error:
            return f"{type(error).__name__}: {error}"
        return "accepted"

    lines: list[str] = []
    classes = [ranking_class(name) for name in CLASSES]
    for number, (name, options, wild, joker, jokers) in enumerate(RANKINGS):
        ranking = make_ranking(name, options, wilds=Wilds.parse(wild, joker), jokers=jokers)
        copy = pickle.loads(pickle.dumps(ranking))
        itself = {
            "repr": repr(ranking), "options": ranking.options(),
            "categories": [category.value for category in ranking.categories()],
            "deck": ranking.deck.value, "copy": [copy == ranking, hash(copy) == hash(ranking)],
            "classes": [isinstance(ranking, cls) for cls in classes]
            + [isinstance(ranking, Ranking), isinstance(copy, type(ranking))],
        }  # fmt: skip
        lines.append(json.dumps({"ranking": number, **itself}, sort_keys=True))
        pack = list(ranking.deck.cards)
        rng = random.Random(seed + number)
        for size in range(ranking.min_cards, ranking.max_cards + 1):
            drawn = [rng.sample(pack, size) for _ in range(hands)]
            said = []
            for cards in drawn:
                found = ranking.evaluate(cards)
                said.append([
                    found.strength, found.category.value, [card.ascii for card in found.cards],
                    found.description, [[a.ascii, b.ascii] for a, b in found.stands_for],
                    ranking.strength(cards), ranking.category(cards).value,
                    ranking.describe(cards),
                ])  # fmt: skip
            codes = np.array([[card.code for card in cards] for cards in drawn], np.uint8)
            batch = [ranking.strength_batch(codes).tolist(),
                     ranking.category_batch(codes).tolist()]  # fmt: skip
            refused = [refusal(ranking, [cards[0]] * size), refusal(ranking, cards[:1] * 8),
                       refusal(ranking, [*cards[1:], Card(53)]), refusal(ranking, [])]  # fmt: skip
            lines.append(json.dumps({"ranking": number, "size": size, "hands": said,
                                     "batch": batch, "refused": refused}))  # fmt: skip
    return lines


if __name__ == "__main__":
    print(compiled_site())  # build (unless built) and name the folder, for the benchmarks
