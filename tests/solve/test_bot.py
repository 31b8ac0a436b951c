"""The equilibrium bot: registered with the other bots, plays the solved strategy from a
seat's view, and in seeded engine sessions (guts.sim) wins what the model says its seat
is worth against itself, and at least that against the threshold and sensible bots."""

from __future__ import annotations

from pathlib import Path
from random import Random

import pytest

from guts.bots import FAMILY_BOTS, make_bot, play_out, policy_for
from guts.errors import OptionError
from guts.games.guts import new_session, preset
from guts.sim import SimSpec, report, simulate
from guts.solve import solve
from guts.solve.bot import EquilibriumPolicy, advice


@pytest.fixture(autouse=True)
def _cache(shared_solve_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GUTS_CACHE_DIR", str(shared_solve_cache))


def test_registered_for_guts_only_where_the_rules_can_be_solved() -> None:
    assert "equilibrium" in FAMILY_BOTS["guts"]
    assert isinstance(make_bot("equilibrium", "guts", preset("ghost-guts")), EquilibriumPolicy)
    with pytest.raises(OptionError, match="after the declaration"):
        make_bot("equilibrium", "guts", preset("two-plus-one"))
    henry = {"everyone-out": "henry"}
    with pytest.raises(OptionError, match="hi-lo with everyone-out=henry"):
        policy_for("equilibrium", "guts", new_session("hi-lo-guts", ["A", "B", "C"], options=henry))
    with pytest.raises(OptionError, match="one of random, sensible for bourre"):
        policy_for("equilibrium", "bourre", new_session("two-card-guts", ["A", "B"]))


def test_plays_the_strategy_of_its_position_history_and_hand() -> None:
    session = new_session("two-card-guts", ["Ann", "Bob", "Cy"], buy_in=50)
    bot = make_bot("equilibrium", "guts", session.rules)
    session.start_deal(session.stacked({1: "As Ad", 2: "3c 2d", 0: "7h 2s"}))
    solution = solve("two-card-guts", 3)
    (first,) = session.pending()  # Bob, the dealer's left
    assert advice(solution, session.view(1)).p_in == pytest.approx(1.0, abs=1e-3)
    assert {bot.choose(session.view(1), first, Random(s)) for s in range(20)} == {"in"}
    session.act(1, "in")
    (second,) = session.pending()  # Cy, facing Bob's in with three-two high
    told = advice(solution, session.view(2))
    assert told.p_in < 0.01 and told.ev_in < told.ev_out
    assert {bot.choose(session.view(2), second, Random(s)) for s in range(20)} == {"out"}
    assert "go out" in told.lines(session.table.pot)[0]


def _seat_nets(
    bots: str, players: int, sessions: int, seed: int, fast: bool = False
) -> list[list[float]]:
    """Each seat's net per session (mean, 95% interval) in seeded sessions: on the engine,
    or with ``fast`` on the vectorized path (guts.sim.vector, which plays the same
    strategies; tests/sim hold it to the engine)."""
    spec = SimSpec.make("two-card-guts", players=players, bots=bots, seed=seed, max_deals=200,
                        fast=fast)  # fmt: skip
    data = report(spec, simulate(spec, sessions=sessions), {"sessions": sessions})
    return [[s["net_per_session"]["mean"], *s["net_per_session"]["ci95"]] for s in data["seats"]]


def _predicted(players: int) -> list[float]:
    """Each seat's net per session by the model: seat 0 deals first (the last position),
    seat s > 0 is position s - 1; a session's first pot is one ante each."""
    values = solve("two-card-guts", players).result.values
    positions = [players - 1, *range(players - 1)]
    return [float(values[p]) * players - 1 for p in positions]


def test_against_itself_each_seat_wins_what_the_model_says() -> None:
    predicted = _predicted(2)
    nets = _seat_nets("equilibrium", 2, 400, seed=21)
    for (_mean, low, high), model in zip(nets, predicted, strict=True):
        assert low <= model <= high
        assert high - low < 0.6  # chips: a tight enough interval to mean something


def test_three_seats_against_themselves_win_the_real_games_values() -> None:
    """Three equilibrium bots (the exact card-removal solve, whose values are the real
    game's): each seat's net per session within its 95% interval of the model's, over
    enough sessions (the vectorized path) that the interval is a tenth of a chip."""
    predicted = _predicted(3)
    nets = _seat_nets("equilibrium", 3, 40_000, seed=23, fast=True)
    for (mean, low, high), model in zip(nets, predicted, strict=True):
        # three seats each inside its 95% interval would fail one seed in seven by chance:
        # each within its 99.9% interval (3.29 standard errors) instead
        assert abs(model - mean) <= (high - low) / 2 * 3.29 / 1.96
        assert high - low < 0.1


@pytest.mark.slow
def test_three_seats_against_themselves_on_the_engine() -> None:
    """The engine's sessions of the above (covered by
    test_three_seats_against_themselves_win_the_real_games_values, on the vectorized
    path that tests/sim holds to the engine)."""
    predicted = _predicted(3)
    nets = _seat_nets("equilibrium", 3, 600, seed=23)
    for (_mean, low, high), model in zip(nets, predicted, strict=True):
        assert low <= model <= high


@pytest.mark.parametrize(("rival", "sessions", "fast"),
                         [("threshold", 20_000, True), ("sensible", 120, False)])  # fmt: skip
def test_no_worse_against_the_other_bots(rival: str, sessions: int, fast: bool) -> None:
    predicted = _predicted(3)[0]
    high = _seat_nets(f"equilibrium,{rival},{rival}", 3, sessions, seed=8, fast=fast)[0][2]
    assert high > predicted  # its edge over its own seat's value is not negative


@pytest.mark.slow
@pytest.mark.parametrize("rival", ["threshold", "sensible"])
def test_beats_the_other_bots(rival: str) -> None:
    predicted = _predicted(3)[0]
    low = _seat_nets(f"equilibrium,{rival},{rival}", 3, 3000, seed=11)[0][1]
    assert low > predicted  # a positive edge, beyond the interval


def test_plays_whole_sessions_of_every_solvable_preset() -> None:
    for name in ("three-card-guts", "ghost-guts", "winner-takes-all-guts", "no-peek-guts"):
        session = new_session(name, ["A", "B", "C"], buy_in=30, rng=Random(2))
        bots = [make_bot("equilibrium", "guts", session.rules) for _ in range(3)]
        play_out(session, bots, Random(3), max_deals=6)
        assert session.is_over
        assert sum(seat.stack for seat in session.table.seats) == 90


def test_a_solution_for_play_is_read_once_a_process() -> None:
    from guts.solve.solving import ready_for_play, solve_for_play

    rules = preset("two-card-guts")
    first = solve_for_play(rules, 2)
    assert solve_for_play(rules, 2) is first  # kept: each new bot reads no file
    ready_for_play.cache_clear()
    again = solve_for_play(rules, 2)  # read from the cache on disk again
    assert again is not first
    assert again.result.values.tolist() == first.result.values.tolist()
