"""``guts review``: each declaration against the equilibrium, its cost the difference of
the EVs the hint shows, and what it cannot judge counted and named."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from guts.games.guts import new_session
from guts.history import read_histories, write_history
from guts.prompts import help_lines
from guts.solve.review import review
from tests.cli_helpers import run


@pytest.fixture(autouse=True)
def _cache(shared_solve_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GUTS_CACHE_DIR", str(shared_solve_cache))


def _evs(line: str) -> tuple[float, float]:
    found = re.fullmatch(r"EV in ([-+][\d.]+) pot \(.*\), out ([-+][\d.]+) pot .*", line)
    assert found is not None, line
    return float(found[1]), float(found[2])


def _night(path: Path) -> list[tuple[float, float]]:
    """One deal of three-handed two-card Guts, in turn: Bob (dealer's left) stays in with
    three-two high, Cy goes out with a pair of aces, Ann (the dealer) calls with a king;
    written to ``path``. Returns the hint's EVs (in, out) at each declaration."""
    session = new_session("two-card-guts", ["Ann", "Bob", "Cy"], buy_in=50)
    session.start_deal(session.stacked({1: "3c 2d", 2: "As Ad", 0: "Kh 9s"}))
    shown = []
    for seat, action in ((1, "in"), (2, "out"), (0, "in")):
        (decision,) = session.pending()
        assert decision.seat == seat
        lines = help_lines(decision, view=session.view(seat), rules=session.rules)
        shown.append(_evs(lines[1]))
        session.act(seat, action)
    with path.open("w") as out:
        write_history(out, session, "two-card-guts")
    return shown


def test_the_cost_of_a_decision_is_the_difference_of_the_hints_evs(tmp_path: Path) -> None:
    path = tmp_path / "night.jsonl"
    shown = _night(path)
    with path.open() as source:
        found = review(read_histories(source))
    assert [(d.name, d.action) for d in found.judged] == [("Bob", "in"), ("Cy", "out"),
                                                          ("Ann", "in")]  # fmt: skip
    bob, cy, _ = found.judged
    assert (bob.best, bob.hand, bob.before) == ("out", "three-two high", "-")
    (ev_in, ev_out), (cy_in, cy_out) = shown[0], shown[1]
    assert bob.cost == pytest.approx(ev_out - ev_in, abs=1e-3) and bob.cost > 0
    assert (cy.best, cy.before) == ("in", "in")
    assert cy.cost == pytest.approx(cy_in - cy_out, abs=1e-3)
    assert bob.cost_chips == pytest.approx(bob.cost * 3)  # the pot of three antes
    assert found.total()[0] == pytest.approx(sum(d.cost for d in found.judged))
    assert found.costliest(1)[0] is cy  # folding aces is the night's worst
    assert not found.unjudged


def test_the_command_prints_totals_json_and_a_plot(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "night.jsonl"
    _night(path)
    code, out, err = run(capsys, "review", str(path), "--seat", "Cy", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert [d["name"] for d in data["decisions"]] == ["Cy"]
    assert data["decisions"][0]["equilibrium"]["in"] > 0.98
    assert data["total"]["cost_chips"] == pytest.approx(data["decisions"][0]["cost_chips"])
    target = tmp_path / "cost.png"
    code, out, err = run(capsys, "review", str(path), "--plot", str(target))
    assert code == 0, err
    assert "Costliest decisions" in out and "Cy" in out
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    code, _, err = run(capsys, "review", str(path), "--seat", "Zed")
    assert code == 2 and "Zed" in err


def test_decisions_it_cannot_judge_are_counted_and_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    session = new_session("two-plus-one", ["Ann", "Bob"], buy_in=50)  # a card after
    session.start_deal()
    while session.pending() and len(session.events) < 200:
        decision = session.pending()[0]
        session.act(decision.seat, decision.actions[-1])
    buffer = io.StringIO()
    write_history(buffer, session, "two-plus-one")
    buffer.seek(0)
    found = review(read_histories(buffer))
    assert not found.judged and found.unjudged
    (reason,) = found.reasons()
    assert "out of the solver's reach" in reason and "after the declaration" in reason
    path = tmp_path / "other.jsonl"
    path.write_text(buffer.getvalue())
    code, out, _ = run(capsys, "review", str(path))
    assert code == 0 and f"Not judged: {len(found.unjudged)} decisions" in out


def test_a_night_of_dealers_choice_is_judged_game_by_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "night.jsonl"
    code, _, err = run(
        capsys, "play", "dealers-choice", "-n", "3", "--watch", "--seed", "4", "--deals", "12",
        "--games", "two-card-guts,three-five-seven", "--history", str(path),
    )  # fmt: skip
    assert code == 0, err
    with path.open() as source:
        histories = read_histories(source)
    found = review(histories)
    assert found.judged and found.unjudged
    started = [e for e in histories[0].record["events"] if e["kind"] == "night-game-started"]
    guts_games = {e["number"] for e in started if e["family"] == "guts"}
    assert {d.game for d in found.judged} == guts_games
    assert set(found.reasons()) == {"three-five-seven: not a Guts game (guts solve covers Guts)"}
