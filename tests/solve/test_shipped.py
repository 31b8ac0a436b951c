"""The solutions shipped with the package (guts.solve.shipped, made by python -m
guts.solve.ship): every default sampled solve is shipped and current, a stale one is never
read, a request that matches one is answered without solving (guts solve, the bot, the
hint), and the shipped strategies are within the issue's aim in the real game, measured
on deals neither the solve nor the ship script saw."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from guts.cards import parse_cards
from guts.games.guts import preset
from guts.solve import shipped
from guts.solve.cache import MODEL_VERSION, key
from guts.solve.ship import targets
from guts.solve.solution import sampled_part

pytest.importorskip("numba", reason="sampled deals' sums need numba (pip install 'guts[solve]')")

AIM = 1e-3
"""Issue 28's aim for two-card Guts, three to six players, and three-card Guts for three:
exploitability per player in the real game below this (pot units)."""

AIMED = ("two-card-guts", "simultaneous-guts", "three-card-guts")
"""The presets the aim is for."""


def _no_solving(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make any solve fail: what is asked must be read."""
    import guts.solve.solution as solution

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("solved instead of reading the shipped solution")

    monkeypatch.setattr(solution, "solve_deal", refuse)


def _no_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make drawing a sampled solve's deals fail: what a hint needs must be kept."""
    from guts.solve.sampled import SampledDeal

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("drew the deals instead of reading what was kept")

    monkeypatch.setattr(SampledDeal, "__init__", refuse)


def test_every_default_sampled_solve_is_shipped_and_current() -> None:
    """One shipped file per preset's default rules and player count that a sampled solve
    settles (two-card Guts in turn for four to seven players, ...), no other, each current:
    a model change (MODEL_VERSION) or new defaults fail here until ``python -m
    guts.solve.ship`` ships them again."""
    wanted = {t.key: t for t in targets()}
    assert {(t.preset, t.players) for t in wanted.values()} >= {
        ("two-card-guts", 4), ("two-card-guts", 5), ("two-card-guts", 6), ("two-card-guts", 7),
        ("ghost-guts", 7), ("simultaneous-guts", 5), ("simultaneous-guts", 6),
        ("three-card-guts", 3),
    }  # fmt: skip
    found = {path.stem: path for path in shipped.files()}
    assert set(found) == set(wanted)
    for name, path in found.items():
        facts = shipped.provenance(path)
        assert not shipped.stale(path), path.name
        assert facts["model_version"] == MODEL_VERSION
        target = wanted[name]
        assert (facts["preset"], facts["players"], facts["deals"]) == (
            target.preset, target.players, target.deals)  # fmt: skip
        assert facts["real_game"]["seed"] != facts["deal_seed"]
        if target.preset in AIMED:
            assert facts["real_game"]["upper"] < AIM, (target.preset, target.players)
        result = shipped.load(name, target.players)  # what the hints read: kept with it
        assert result is not None and result.evs is not None, path.name
        for p, (evs, stay) in enumerate(zip(result.evs, result.strategy, strict=True)):
            assert evs.shape == (stay.shape[0], 2, stay.shape[1]), (path.name, p)
            assert np.isfinite(evs).all()
    assert sum(path.stat().st_size for path in found.values()) < 1_000_000


def test_every_preset_whose_default_samples_is_shipped() -> None:
    """A preset whose default solve samples real deals for some player count (a new one,
    or new defaults) is among those ``python -m guts.solve.ship`` ships."""
    from guts.errors import GutsError
    from guts.games.guts.presets import PRESETS
    from guts.solve.ship import SHIPPED_PRESETS
    from guts.solve.solving import default_deals

    sampling = set()
    for name, (rules, _) in PRESETS.items():
        try:
            if any(default_deals(rules, n) for n in range(2, 9)):
                sampling.add(name)
        except GutsError:
            continue  # rules the solver does not reach
    assert sampling == set(SHIPPED_PRESETS)


def test_a_stale_shipped_file_is_never_read(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A shipped file is read under its key while its provenance gives that key under the
    current model version; another version, or a provenance naming other rules, and it is
    solved again."""
    from guts.solve.solving import solve_rules

    monkeypatch.setenv("GUTS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(shipped, "FOLDER", tmp_path / "solved")
    rules = preset("two-card-guts")
    solved = solve_rules(rules, 4, iterations=3, deals=3000, cache=False)
    name = key(rules, 4, 3, 1e-4, sampled_part(3000))
    facts = {"options": {}, "players": 4, "iterations_budget": 3, "tolerance": 1e-4,
             "part": sampled_part(3000)}  # fmt: skip
    path = shipped.write(name, solved.result, facts, shipped.FOLDER)
    assert not shipped.stale(path)
    with monkeypatch.context() as inner:
        _no_solving(inner)
        found = solve_rules(rules, 4, iterations=3, deals=3000)
    np.testing.assert_array_equal(found.result.strategy[3], solved.result.strategy[3])
    for changed in ({"model_version": MODEL_VERSION - 1}, {"options": {"declare": "simultaneous"}}):
        with np.load(path) as data:
            arrays = {k: np.asarray(data[k]) for k in data.files}
        arrays["provenance"] = np.asarray(json.dumps({**shipped.provenance(path), **changed}))
        np.savez_compressed(path, **arrays)
        assert shipped.stale(path)
        assert shipped.load(name, 4) is None
        with monkeypatch.context() as inner:
            _no_solving(inner)
            with pytest.raises(AssertionError, match="solved instead"):
                solve_rules(rules, 4, iterations=3, deals=3000)


def test_the_first_six_player_solve_reads_the_shipped_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``guts solve two-card-guts -n 6`` on a fresh cache: the shipped real-game solve,
    read, not solved (sampled on its default deals), its deals not even drawn."""
    from guts.solve import solve
    from guts.solve.solving import SAMPLED_DEALS

    monkeypatch.setenv("GUTS_CACHE_DIR", str(tmp_path))
    _no_solving(monkeypatch)
    solution = solve("two-card-guts", 6)
    assert solution.deals == SAMPLED_DEALS[6]  # type: ignore[union-attr]
    assert solution.result.exploitability <= 1e-4
    # the expected next pot is kept with it: the footer draws no deals; it is the deals'
    kept = solution.expected_next_pot  # type: ignore[union-attr]
    assert "deal" not in vars(solution)
    assert kept == pytest.approx(solution.deal.growth(solution.result.strategy), abs=1e-12)


def test_the_bot_and_the_hint_play_the_shipped_real_game_strategy(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Five seats of two-card Guts on a fresh cache: the equilibrium bot and the hint play
    the shipped sampled solve at once; a sampled request that is neither shipped nor
    cached still plays on independent hands (``TABLE_DEALS``)."""
    from guts.games.guts import new_session
    from guts.solve.bot import EquilibriumPolicy, advice, solve_for_play

    monkeypatch.setenv("GUTS_CACHE_DIR", str(tmp_path))
    session = new_session("two-card-guts", list("ABCDE"), buy_in=30)
    hands = {1: "Ah Kd", 2: "9s 8d", 3: "Qs Qd", 4: "7h 2s", 0: "5c 4c"}
    session.start_deal(session.stacked(hands))
    session.act(1, "out")
    with monkeypatch.context() as inner:
        _no_solving(inner)
        _no_drawing(inner)  # the first hint at once: its EVs shipped with the strategy
        solution = EquilibriumPolicy(session.rules).solution(5)
        told = advice(solution, session.view(2))
    module = solve_for_play.__globals__  # the module the bot reads
    assert solution.deals == module["SAMPLED_DEALS"][5]  # type: ignore[union-attr]
    assert np.isfinite(told.ev_in) and np.isfinite(told.ev_out)  # type: ignore[union-attr]
    assert told.ev_in != told.ev_out  # type: ignore[union-attr]
    monkeypatch.setitem(module["SAMPLED_DEALS"], 5, 3000)
    assert solve_for_play(session.rules, 5).deals == 0  # type: ignore[union-attr]


def test_a_sampled_solve_keeps_the_evs_its_hints_read(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A sampled solve keeps each information set's EVs with its strategy (in the disk
    cache, as in a shipped file): read back, the hint gives them without drawing the
    deals again, and they are what the deals give (the counterfactual values over the
    chance of the declarations before, on the solve's own deals), to single precision."""
    from guts.games.guts import new_session
    from guts.solve.bot import advice
    from guts.solve.sampled import SampledDeal
    from guts.solve.solution import information_set_evs
    from guts.solve.solving import solve_rules

    monkeypatch.setenv("GUTS_CACHE_DIR", str(tmp_path))
    rules = preset("two-card-guts")
    solved = solve_rules(rules, 4, iterations=5, deals=3000)  # solved, kept in the cache
    session = new_session("two-card-guts", list("ABCD"), buy_in=30)
    session.start_deal(session.stacked({1: "Ah Kd", 2: "9s 8d", 3: "Qs Qd", 0: "7h 2s"}))
    session.act(1, "out")
    session.act(2, "in")
    with monkeypatch.context() as inner:
        _no_solving(inner)
        _no_drawing(inner)
        read = solve_rules(rules, 4, iterations=5, deals=3000)
        told = advice(read, session.view(3))
    deal = SampledDeal(read.model, read.classes, 3000)  # type: ignore[union-attr]
    strategy, continuation = read.result.strategy, read.result.continuation
    want = information_set_evs(deal, strategy, deal.counterfactual(strategy, continuation))
    assert read.result.evs is not None
    for kept, found in zip(read.result.evs, want, strict=True):
        np.testing.assert_allclose(kept, found, rtol=1e-6, atol=1e-7)
    cls = read.classes.class_of(parse_cards("Qs Qd"))  # type: ignore[union-attr]
    assert told.ev_in == pytest.approx(want[2][0b10, 1, cls], rel=1e-6)  # type: ignore[union-attr]
    assert told.ev_out == pytest.approx(want[2][0b10, 0, cls], rel=1e-6)  # type: ignore[union-attr]
    assert solved.result.evs is not None


def test_the_ship_script_records_the_solve_cpu_also_read_from_the_cache(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A solve keeps the CPU seconds it took with its result (in the disk cache), so the
    ship script records them where it reads the solve from the cache too, as it does
    when it solves (it recorded the 0.0 s of reading, as for six players in turn)."""
    from guts.solve import solving
    from guts.solve.ship import Target, ship

    monkeypatch.setenv("GUTS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setitem(solving.SAMPLED_DEALS, 4, 20_000)
    target = Target("two-card-guts", preset("two-card-guts"), 4, 20_000)
    solved = shipped.provenance(ship(target, 4000, tmp_path / "solved"))["cpu_seconds"]
    with monkeypatch.context() as inner:
        _no_solving(inner)  # read from the cache
        read = shipped.provenance(ship(target, 4000, tmp_path / "read"))["cpu_seconds"]
    assert solved["solve"] > 0
    assert read["solve"] == solved["solve"]


def _measured(target_key: str, deals: int, seed: int) -> tuple[float, float, float]:
    from guts.solve.sampled import sampled_nash_conv
    from guts.solve.solution import Solution
    from guts.solve.solving import solve_rules

    target = {t.key: t for t in targets()}[target_key]
    solution = solve_rules(target.rules, target.players)
    assert isinstance(solution, Solution)
    result = solution.result
    found = sampled_nash_conv(solution.deal, result.strategy, result.continuation,
                              deals=deals, seed=seed)  # fmt: skip
    lower, upper = found.per_player
    return lower, upper, found.lower_error / target.players


def _key_of(preset_name: str, players: int) -> str:
    return next(t.key for t in targets() if (t.preset, t.players) == (preset_name, players))


def test_the_shipped_four_player_strategy_is_within_the_aim_on_other_deals(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Two-card Guts in turn, four players, measured on 1,000,000 deals of another seed
    (11) than the solve's (1) and the ship script's (7): the lower estimate, a few
    standard errors wide, is below the aim (hands independent it is 3.4e-3 to 4.1e-3)."""
    monkeypatch.setenv("GUTS_CACHE_DIR", str(tmp_path))
    lower, upper, error = _measured(_key_of("two-card-guts", 4), 1_000_000, 11)
    assert error < AIM / 4
    assert lower + 2 * error < AIM
    assert upper >= lower


@pytest.mark.slow
@pytest.mark.parametrize("target_key", [t.key for t in targets() if t.preset in AIMED])
def test_every_shipped_strategy_is_below_the_aim_on_other_deals(
    target_key: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Each shipped solution the aim is for, on 2,000,000 deals of seed 11 (three-card
    Guts: 8,000,000, its 1,755 classes held in few deals each): the pooled best
    response's upper estimate (biased up) is below the aim."""
    monkeypatch.setenv("GUTS_CACHE_DIR", str(tmp_path))
    three = {t.key: t for t in targets()}[target_key].rules.cards == 3
    _, upper, error = _measured(target_key, 8_000_000 if three else 2_000_000, 11)
    assert error < AIM / 10
    assert upper < AIM
