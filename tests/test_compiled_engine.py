"""The engine on the compiled build (``GUTS_COMPILE=1``, ``tests/compiled_build.py``)
plays as the Python one: the wheel holds every module ``pyproject.toml`` lists as
extension modules and loads them in place of their source; seeded sessions of a preset of
every family make the same events, step by step, on both builds; the recorded draw
sessions (``tests/test_draw_fast_paths.py``) play as recorded on it. With ``-m slow``:
every draw preset's recorded sessions, and the engine's rule tests, on the compiled build.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from compiled_build import (
    COMPILED,
    MARKS,
    RANKINGS,
    ROOT,
    compiled_site,
    module_name,
    passes,
    python,
)

pytestmark = MARKS

FAMILIES = ["two-card-guts", "three-five-seven", "five-card-draw", "bourre", "deuces-wild"]
"""A preset of each family (and a wild-card one), played on both builds."""
SESSIONS = 12


def test_the_wheel_holds_the_compiled_modules() -> None:
    site = compiled_site()
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    built = sorted(str(p.relative_to(site)).split(".")[0].replace("/", ".")
                   for p in (site / "guts").rglob("*") if p.name.endswith(suffixes))  # fmt: skip
    wanted = sorted(path.removeprefix("src/").removesuffix(".py").replace("/", ".")
                    for path in COMPILED)  # fmt: skip
    assert built == wanted
    names = [module_name(path) for path in COMPILED]
    shown = python(site, "-c", "import importlib\n"
                   f"for name in {names!r}: print(importlib.import_module(name).__file__)",
                   timeout=300)  # fmt: skip
    assert shown.returncode == 0, shown.stderr
    files = [Path(file) for file in shown.stdout.split()]
    assert len(files) == len(names)
    assert all(file.is_relative_to(site) and file.name.endswith(suffixes) for file in files)


def _played(site: Path | None, preset: str) -> list[str]:
    """:func:`compiled_build.play_sessions` of ``preset`` in a Python of its own: on the
    compiled wheel, or (``site`` None) on the source."""
    return _lines(site, f"play_sessions({preset!r}, {SESSIONS})")


def _lines(site: Path | None, call: str) -> list[str]:
    """The lines a :mod:`compiled_build` function returns (``call``, its call) in a Python
    of its own: on the compiled wheel, or (``site`` None) on the source."""
    script = ("import json, sys\nimport compiled_build\n"
              f"json.dump(compiled_build.{call}, sys.stdout)")  # fmt: skip
    if site is not None:
        ran = python(site, "-c", script, timeout=600)
    else:
        path = os.pathsep.join([str(ROOT / "src"), str(ROOT / "tests")])
        env = {**os.environ, "PYTHONPATH": path}
        ran = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                             text=True, env=env, timeout=600)  # fmt: skip
    assert ran.returncode == 0, ran.stderr[-3000:]
    return json.loads(ran.stdout)  # type: ignore[no-any-return]


@pytest.mark.parametrize("preset", FAMILIES)
def test_sessions_make_the_same_events_on_both_builds(preset: str) -> None:
    compiled, plain = _played(compiled_site(), preset), _played(None, preset)
    for index, (want, got) in enumerate(zip(plain, compiled, strict=False)):
        assert got == want, f"{preset}, step {index}: compiled and plain builds differ"
    assert len(compiled) == len(plain) > SESSIONS


def test_every_ranking_says_the_same_of_every_hand_on_both_builds() -> None:
    """The ranking classes, compiled, rank, evaluate, describe and refuse hands as the
    Python ones, one at a time and in batches, pickle alike, and each is an instance of
    :class:`~guts.rankings.Ranking` after being asked about the other rankings' classes."""
    compiled = _lines(compiled_site(), "ranking_verdicts()")
    plain = _lines(None, "ranking_verdicts()")
    for want, got in zip(plain, compiled, strict=False):
        shown = json.loads(want)
        where = f"ranking {RANKINGS[shown['ranking']]}, hand size {shown.get('size', '-')}"
        assert json.loads(got) == shown, f"{where}: compiled and plain builds differ"
    assert len(compiled) == len(plain) > len(RANKINGS)


def test_recorded_draw_sessions_play_as_recorded_compiled() -> None:
    passes(compiled_site(), "tests/test_draw_fast_paths.py",
           "-k", "five-card-draw or deuces-wild or draw-with-bug or recorded")  # fmt: skip


@pytest.mark.slow
def test_every_recorded_draw_session_plays_as_recorded_compiled() -> None:
    passes(compiled_site(), "tests/test_draw_fast_paths.py")


def test_a_session_is_no_other_familys_yet_still_a_recorded_session_compiled() -> None:
    """A staged session asked first whether it is a (compiled) Guts session is still a
    recorded session and a session after it (compiled classes derived from an ABC shared
    its isinstance caches, so the first answer, False, stuck to the others)."""
    script = ("from guts.catalog import find_game\n"
              "from guts.games.base import Session\n"
              "from guts.games.guts.session import GutsSession\n"
              "from guts.games.session import RecordedSession\n"
              "s = find_game('three-five-seven').new_session(['A', 'B', 'C'], buy_in=50)\n"
              "print(isinstance(s, GutsSession), isinstance(s, RecordedSession),"
              " isinstance(s, Session))")  # fmt: skip
    ran = python(compiled_site(), "-c", script, timeout=300)
    assert ran.returncode == 0, ran.stderr[-3000:]
    assert ran.stdout.split() == ["False", "True", "True"]


ILL_TYPED = [
    "tests/engine/test_table.py::test_bad_setup_is_refused",
    "tests/engine/test_table.py::test_place_names_must_be_words",
    "tests/engine/test_table.py::test_errors_leave_the_state_untouched",
    "tests/engine/test_betting.py::test_illegal_actions_raise_and_leave_the_state_untouched",
    "tests/engine/test_betting.py::test_bad_amounts_and_setups_are_refused",
    "tests/sessions/test_stacked_decks.py::test_every_family_refuses_bad_hands_by_name_with_nothing_changed",
    "tests/staged/test_staged_session.py::test_views_begin_with_the_game_its_variant_and_rules_then_the_table",
]
"""Tests that call the engine against its annotations (``type: ignore[arg-type]``): a
float or string where an int, a Place or a Reason is due. The compiled modules check the
annotated types on entry and raise TypeError (and take True as 1) before the engine's own
checks can name the mistake, so these hold on the Python build only."""

WEAKLY_REFERRED = [
    "tests/test_engine_fast_paths.py::test_a_finished_session_is_freed_without_the_cycle_collector",
]
"""Tests that hold a weak reference to a deal: a compiled class (the Guts deal) takes
none, so these hold on the Python build only."""


@pytest.mark.slow
def test_the_engine_rule_tests_pass_compiled() -> None:
    deselected = [argument for test in ILL_TYPED + WEAKLY_REFERRED
                  for argument in ("--deselect", test)]  # fmt: skip
    passes(compiled_site(), *deselected, *RULE_TESTS)


RULE_TESTS = ["tests/engine", "tests/rankings/test_rankings_high.py",
              "tests/rankings/test_rankings_small.py",
              "tests/rankings/test_rankings_low_stripped.py",
              "tests/sessions/test_stacked_decks.py", "tests/test_engine_fast_paths.py",
              "tests/guts", "tests/draw", "tests/staged"]  # fmt: skip
"""The engine's and the families' rule tests, run again on the compiled build."""


def test_the_rule_tests_named_are_there() -> None:
    """The slow run above names folders and tests that exist (they moved once, unseen)."""
    for path in RULE_TESTS:
        assert (ROOT / path).exists(), path
    for test in ILL_TYPED + WEAKLY_REFERRED:
        file, _, name = test.partition("::")
        assert f"def {name}(" in (ROOT / file).read_text(), test
