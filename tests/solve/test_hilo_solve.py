"""Hi-Lo Guts heads-up through ``guts solve``, the equilibrium bot and the ``?`` hint:
the table in words, --json with every declaration's chance, --plot, the cache, a clear
refusal for more players than it solves, and advice whose EVs are exact where the rules
make them so."""

from __future__ import annotations

import json
from pathlib import Path
from random import Random

import pytest

from guts.errors import GutsError
from guts.games.guts import new_session, preset
from guts.prompts import hint_lines
from guts.sim import SimSpec, report, simulate
from guts.solve import solve
from guts.solve.bot import EquilibriumPolicy, advice
from guts.solve.hilo_solution import HiLoSolution
from tests.cli_helpers import run

IN_TURN = {"declare": "in-turn"}


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("GUTS_CACHE_DIR", str(tmp_path))
    return tmp_path / "solve"


def test_json_gives_every_declarations_chance_by_position_and_history(
    capsys: pytest.CaptureFixture[str], cache: Path
) -> None:
    code, out, err = run(capsys, "solve", "hi-lo-guts", "-n", "2", "-o", "declare=in-turn",
                         "--json")  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    assert (data["preset"], data["players"], data["declare"]) == ("hi-lo-guts", 2, "in-turn")
    assert data["ways"] == ["high", "low", "both", "out"]
    assert 0 <= data["exploitability"] < 5e-4 and sum(data["ev"]) == pytest.approx(1.0)
    assert [(s["position"], s["before"]) for s in data["strategy"]] == [
        (0, "-"), (1, "high"), (1, "low"), (1, "both"), (1, "out")]  # fmt: skip
    for entry in data["strategy"]:
        for hand, stays in entry["in"].items():
            chances = [entry["ways"][way][hand] for way in data["ways"]]
            assert sum(chances) == pytest.approx(1.0, abs=1e-5)
            assert stays == pytest.approx(1.0 - entry["ways"]["out"][hand], abs=1e-5)
    first = data["strategy"][0]
    assert first["ways"]["low"]["three-two high"] > 0.9  # the best low hand goes low
    assert first["ways"]["out"]["pair of aces"] < 0.01
    assert list(cache.glob("*.npz"))


def test_the_table_names_what_each_stretch_of_hands_declares(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "solve", "hi-lo-guts", "-n", "2", "-o", "declare=in-turn")
    assert code == 0, err
    assert "what each hand declares" in out and "low: three-two high" in out
    assert "never reached" in out  # heads-up nobody goes out first
    assert "exploitability" in out and "exact card removal" in out


def test_hi_lo_is_solved_heads_up_unless_told_otherwise(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "solve", "hi-lo-guts", "--json")
    assert code == 0, err
    assert json.loads(out)["players"] == 2
    code, out, err = run(capsys, "solve", "two-card-guts", "--json", "--iterations", "20",
                         "--deals", "0")  # fmt: skip
    assert code == 0, err
    assert json.loads(out)["players"] == 4


def test_more_than_eight_players_are_refused_saying_why(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "solve", "hi-lo-guts", "-n", "9")
    assert code == 2 and not out
    assert "2 to 8 players" in err and len(err.strip().splitlines()) == 1


def test_plot_draws_the_declarations(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    path = tmp_path / "hilo.png"
    code, _, err = run(capsys, "solve", "hi-lo-guts", "-n", "2", "--plot", str(path), "--json")
    assert code == 0, err
    assert path.read_bytes()[:4] == b"\x89PNG"


def test_the_advice_is_exact_where_the_rules_make_it_so() -> None:
    solution = solve("hi-lo-guts", 2, IN_TURN)
    assert isinstance(solution, HiLoSolution)
    # Ann (seat 1, the dealer's left) went low: Bob, the dealer, going high takes half
    # the pot, whatever he holds (nobody loses, the session ends); out, Ann takes it all
    for hand in (["9d", "7d"], ["As", "Ah"], ["3c", "2d"]):
        view = {"dealt_in": [1, 0], "seat": 0, "hand": hand, "declared": {"1": "low"}}
        told = advice(solution, view)
        assert told.ev["high"] == pytest.approx(0.5, abs=1e-9)  # type: ignore[union-attr]
        assert told.ev["out"] == pytest.approx(0.0, abs=1e-9)  # type: ignore[union-attr]
    view = {"dealt_in": [1, 0], "seat": 0, "hand": ["9d", "7d"], "declared": {"1": "low"}}
    assert advice(solution, view).chances["high"] > 0.98  # type: ignore[union-attr]
    with pytest.raises(GutsError, match="after the dealer's left"):
        advice(solution, {**view, "declared": {}})


def test_the_hint_at_a_hi_lo_prompt_gives_the_ev_of_every_declaration() -> None:
    session = new_session("hi-lo-guts", ["Ann", "Bob"], buy_in=50, options=IN_TURN)
    session.start_deal(session.stacked({1: "Qs Qd", 0: "7h 2s"}))
    (decision,) = session.pending()  # Bob, the dealer's left
    lines = hint_lines(decision, session.view(1), session.rules)
    assert lines[0].startswith("Equilibrium:") and "pair of queens" in lines[0]
    assert all(f"{way} " in lines[1] for way in ("high", "low", "both", "out"))


def test_the_bot_draws_its_declaration_with_the_equilibriums_chances() -> None:
    rules = preset("hi-lo-guts", IN_TURN)
    bot = EquilibriumPolicy(rules, 2)
    session = new_session("hi-lo-guts", ["Ann", "Bob"], buy_in=50, options=IN_TURN)
    session.start_deal(session.stacked({1: "Jh 9c", 0: "7h 2s"}))
    (decision,) = session.pending()
    solution = bot.solution(2)
    assert isinstance(solution, HiLoSolution)
    chances = solution.chances(session.view(1))
    rng = Random(4)
    drawn = [bot.choose(session.view(1), decision, rng) for _ in range(2000)]
    for way, chance in chances.items():
        assert drawn.count(way) / len(drawn) == pytest.approx(chance, abs=0.04)


def _nets(bots: str, sessions: int, seed: int) -> list[list[float]]:
    spec = SimSpec.make("hi-lo-guts", players=2, bots=bots, options=IN_TURN, seed=seed,
                        max_deals=200)  # fmt: skip
    data = report(spec, simulate(spec, sessions=sessions), {"sessions": sessions})
    return [[s["net_per_session"]["mean"], *s["net_per_session"]["ci95"]] for s in data["seats"]]


def test_against_itself_each_seat_wins_what_the_model_says() -> None:
    values = solve("hi-lo-guts", 2, IN_TURN).result.values
    predicted = [float(values[1]) * 2 - 1, float(values[0]) * 2 - 1]  # seat 0 deals first
    for (_mean, low, high), model in zip(_nets("equilibrium", 600, 3), predicted, strict=True):
        assert low <= model <= high
        assert high - low < 0.5


@pytest.mark.parametrize("rival", ["threshold", "sensible"])
def test_no_worse_than_its_seats_value_against_the_other_bots(rival: str) -> None:
    values = solve("hi-lo-guts", 2, IN_TURN).result.values
    predicted = float(values[1]) * 2 - 1  # seat 0 deals first
    high = _nets(f"equilibrium,{rival}", 400, 9)[0][2]
    assert high > predicted  # its edge over its own seat's value is not negative


@pytest.mark.slow
def test_beats_the_threshold_bot() -> None:
    """Against the threshold bot the equilibrium wins more than its seat is worth against
    itself, beyond the 95% interval (2,000 seeded sessions)."""
    values = solve("hi-lo-guts", 2, IN_TURN).result.values
    predicted = float(values[1]) * 2 - 1  # seat 0 deals first
    low = _nets("equilibrium,threshold", 2000, 11)[0][1]
    assert low > predicted
