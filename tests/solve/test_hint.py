"""The ``?`` hint: at a Guts declaration the help starts with the equilibrium's advice
and the EV of in and of out; elsewhere the help is as before."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from guts.games.guts import new_session
from guts.prompts import checker, help_lines, hint_lines


@pytest.fixture(autouse=True)
def _cache(shared_solve_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GUTS_CACHE_DIR", str(shared_solve_cache))


def _evs(line: str) -> tuple[float, float]:
    found = re.fullmatch(r"EV in ([-+][\d.]+) pot \(.*\), out ([-+][\d.]+) pot .*", line)
    assert found is not None, line
    return float(found[1]), float(found[2])


def _dealt(game: str, hands: dict[int, str], options: dict[str, str] | None = None) -> object:
    session = new_session(game, ["Ann", "Bob", "Cy"], buy_in=50, options=options)
    session.start_deal(session.stacked(hands))
    return session


def test_a_strong_hand_is_told_to_stay_in_with_both_evs() -> None:
    session = _dealt("two-card-guts", {1: "As Ad", 2: "3c 2d", 0: "7h 2s"})
    (decision,) = session.pending()  # type: ignore[attr-defined]
    lines = help_lines(decision, view=session.view(1), rules=session.rules)  # type: ignore[attr-defined]
    assert lines[0] == "Equilibrium: stay in (pair of aces, dealer's left)."
    ev_in, ev_out = _evs(lines[1])
    assert ev_in > 0.5 > ev_out  # aces win about the pot; out, only a share of next pots
    assert lines[2] == "Legal now: in or out."


def test_the_prompt_gets_the_hint_from_the_session_that_asks() -> None:
    session = _dealt("simultaneous-guts", {1: "3c 2d", 2: "Ks Kd", 0: "7h 2s"})
    decision = next(d for d in session.pending() if d.seat == 1)  # type: ignore[attr-defined]
    checker(session, decision)  # type: ignore[arg-type]
    lines = help_lines(decision)
    assert lines[0].startswith("Equilibrium: go out (three-two high, ")
    ev_in, ev_out = _evs(lines[1])
    assert ev_in < ev_out
    session.act(1, "out")  # type: ignore[attr-defined]
    assert help_lines(decision)[0] == "Legal now: in or out."  # no longer in front of anyone


def test_no_hint_where_no_solved_strategy_applies() -> None:
    henry = {"everyone-out": "henry"}  # Hi-Lo with the best hands paying: out of reach
    session = _dealt("hi-lo-guts", {0: "As Ad", 1: "3c 2d", 2: "7h 2s"}, henry)
    decision = session.pending()[0]  # type: ignore[attr-defined]
    view = session.view(decision.seat)  # type: ignore[attr-defined]
    assert hint_lines(decision, view, session.rules) == []  # type: ignore[attr-defined]
    assert help_lines(decision, view=view, rules=None)[0].startswith("Legal now:")
