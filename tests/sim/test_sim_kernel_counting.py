"""The loop's steps stay compiled without numba's reference counting (``_nrt=False``).

Counted, every call of a step that hands an array on took and dropped a reference to it
(an atomic increment and decrement) and those were a third of the loop's time; nothing
else would show that the option was lost. The steps are found from the kernel's public
entry points: every compiled function their code calls, and every one those call.
"""

from __future__ import annotations

from typing import Any

import pytest

from guts.sim import kernel

numba = pytest.importorskip("numba")

pytestmark = pytest.mark.skipif(not kernel.COMPILED, reason="the loop runs uncompiled")


def _compiled(name: str) -> Any:
    """The kernel's compiled function ``name``, or None if it is not one."""
    found = getattr(kernel, name, None)
    return found if isinstance(found, numba.core.dispatcher.Dispatcher) else None


def _steps_of(entries: list[str]) -> dict[str, Any]:
    """Every compiled function of the kernel that the functions ``entries`` call,
    directly or through one another (the entries themselves left out)."""
    seen: dict[str, Any] = {}
    todo = list(entries)
    while todo:
        function = _compiled(todo.pop())
        for name in function.py_func.__code__.co_names:
            if name not in seen and name not in entries and _compiled(name) is not None:
                seen[name] = _compiled(name)
                todo.append(name)
    return seen


def test_the_loops_steps_count_no_references() -> None:
    entries = [name for name in kernel.__all__ if _compiled(name) is not None]
    assert "run_sessions" in entries
    steps = _steps_of(entries)
    # the loop is split into steps: dealing, paying, declaring and settling among them
    assert {"_deal", "_pay", "_challenge", "_contest"} <= steps.keys()
    counted = sorted(name for name, step in steps.items()
                     if step.targetoptions.get("_nrt", True))  # fmt: skip
    assert counted == [], f"compiled with reference counting: {', '.join(counted)}"


def test_the_entry_points_that_make_arrays_count_them() -> None:
    # run_sessions makes its caches: uncounted it could not free them
    for name in kernel.__all__:
        entry = _compiled(name)
        if entry is not None:
            assert entry.targetoptions.get("_nrt", True), name
