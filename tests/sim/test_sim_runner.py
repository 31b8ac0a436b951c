"""One simulated session on the engine: seeds, chips, busts, pots and outcomes."""

from __future__ import annotations

import numpy as np
import pytest

from guts.errors import GutsError, OptionError
from guts.games.bourre.events import HandResult
from guts.games.draw.events import DealEnded as DrawDealEnded
from guts.games.draw.events import Showed
from guts.games.guts.events import CardsShown, Declared, Moved, Outcome
from guts.games.staged.events import PointScored
from guts.sim import SimSpec, Summary, play_session
from guts.sim.outcomes import NOBODY_IN, SHOWDOWN, UNCONTESTED, settlements
from guts.sim.runner import _pot_at_stake
from guts.sim.seeding import session_seeds

# one preset of each family, with bots that play quickly
FAMILIES = [
    ("two-card-guts", "threshold,random"),
    ("ghost-guts", "random"),
    ("three-five-seven", "sensible,random"),
    ("five-card-draw", "sensible,random"),
    ("bourre", "sensible,random"),
]


def test_a_session_depends_only_on_the_seed_and_its_number() -> None:
    spec = SimSpec.make("two-card-guts", players=3, bots="threshold,random", seed=11)
    assert play_session(spec, 4) == play_session(spec, 4)
    assert [play_session(spec, i) for i in range(6)] != [play_session(spec, 0)] * 6


def test_session_seeds_are_the_seed_sequences_children() -> None:
    children = np.random.SeedSequence(99).spawn(5)
    for index, child in enumerate(children):
        words = child.generate_state(2, np.uint64)
        assert session_seeds(99, index) == (int(words[0]), int(words[1]))
    assert session_seeds(99, 0) != session_seeds(98, 0)


@pytest.mark.parametrize(("preset", "bots"), FAMILIES)
def test_chips_are_conserved_every_session(preset: str, bots: str) -> None:
    spec = SimSpec.make(preset, players=4, bots=bots, buy_in=12, seed=5, max_deals=30)
    for index in range(6):
        result = play_session(spec, index)
        assert sum(result.nets) + result.left == 0
        assert len(result.pots) == result.deals <= 30
        assert all(pot >= 0 for pot in result.pots)
        assert result.outcomes and set(result.outcomes) <= {NOBODY_IN, UNCONTESTED, SHOWDOWN}
        if spec.game.family in ("guts", "staged", "draw"):  # what is left is shared out
            assert result.left == 0 and sum(result.nets) == 0


def test_busts_and_the_deal_limit() -> None:
    spec = SimSpec.make("two-card-guts", players=4, bots="random", buy_in=3, seed=2,
                        options={"continue-after-empty": "yes"}, max_deals=8)  # fmt: skip
    results = [play_session(spec, index) for index in range(10)]
    assert any(any(r.busted) for r in results)
    for result in results:
        for net, busted in zip(result.nets, result.busted, strict=True):
            if net == -3:  # lost the whole buy-in: at no chips at the end of a deal
                assert busted
        assert result.deals <= 8 and (result.deals == 8 or not result.capped)
    assert any(r.capped for r in results)
    cut = play_session(spec, 0, cut=2)  # stopped for a wanted number of deals, not capped
    assert cut.deals == 2 and not cut.capped


def test_the_summary_counts_every_seat_and_kind() -> None:
    spec = SimSpec.make("two-card-guts", players=3, bots="threshold,random", seed=8)
    summary = Summary.empty(spec.seat_bots)
    results = [play_session(spec, index) for index in range(5)]
    for result in results:
        summary.add(result)
    assert summary.sessions == 5 and summary.deals == sum(r.deals for r in results)
    assert summary.kinds["threshold"].seats == 2 and summary.kinds["random"].seats == 1
    assert summary.kinds["threshold"].net.x == sum(r.nets[0] + r.nets[2] for r in results)
    assert sum(stats.net.x for stats in summary.seats) == 0
    assert summary.pots.n == summary.deals


@pytest.mark.parametrize(
    ("spec", "error"),
    [
        ({"preset": "no-such-game"}, "unknown game 'no-such-game'"),
        ({"preset": "bourre", "bots": "threshold"}, "--bots must be one of random, sensible"),
        ({"players": 1}, "--players must be between 2 and 26"),
        ({"buy_in": 0}, "--buy-in must be at least 1"),
        ({"seed": -1}, "--seed must not be negative"),
        ({"max_deals": 0}, "--max-deals must be at least 1"),
        ({"bots": "random,"}, "--bots needs a bot kind"),
        ({"options": {"ante": "lots"}}, "ante"),
    ],
)
def test_a_bad_spec_is_refused_by_name(spec: dict[str, object], error: str) -> None:
    arguments: dict[str, object] = {"preset": "two-card-guts", **spec}
    with pytest.raises(GutsError, match=error):
        SimSpec.make(**arguments)  # type: ignore[arg-type]


def test_the_rules_player_counts_are_checked_up_front() -> None:
    with pytest.raises(OptionError):
        SimSpec.make("toh", players=2, bots="random")


def test_the_pot_at_stake_is_the_pot_before_the_first_payout() -> None:
    def moved(source: int | str, destination: int | str, amount: int) -> Moved:
        return Moved(source=source, destination=destination, amount=amount, reason="ante")

    antes = [moved(seat, "pot", 1) for seat in range(4)]
    showdown = [moved("pot", 0, 6), moved(1, "pot", 6), moved(2, "pot", 6)]
    assert _pot_at_stake(2, antes + showdown) == 6
    assert _pot_at_stake(0, antes) == 4
    assert _pot_at_stake(5, [moved("pot", "aside", 3), moved(0, "pot", 1)]) == 5


def test_guts_and_staged_outcomes_come_from_the_declarations() -> None:
    def declared(seat: int, choice: str) -> Declared:
        return Declared(seat=seat, choice=choice)

    def shown(seat: int) -> CardsShown:
        return CardsShown(seat=seat, cards=(), description="")

    everyone_out = [declared(0, "out"), declared(1, "out"), Outcome(text="Everyone is out")]
    alone = [declared(0, "in"), declared(1, "out"), Outcome(text="alone", winners=(0,))]
    ghost = [declared(0, "in"), declared(1, "out"), shown(0), shown(-1), Outcome(text="")]
    hi_lo = [declared(0, "high"), declared(1, "low"), shown(0), shown(1), Outcome(text="")]
    wimp = [declared(0, "out"), declared(1, "out"), shown(0), shown(1), Outcome(text="")]
    assert settlements("guts", everyone_out) == [NOBODY_IN]
    assert settlements("guts", alone) == [UNCONTESTED]
    assert settlements("guts", ghost + hi_lo + wimp) == [SHOWDOWN, SHOWDOWN, NOBODY_IN]
    point = PointScored(seat=0, points=3, target=3, word="leg", card="")
    leg_won = [*alone[:2], Outcome(text="alone", winners=(0,)), point, Moved(
        source="pot", destination=0, amount=9, reason="win"), Outcome(text="takes the pot")]
    assert settlements("staged", leg_won + everyone_out) == [UNCONTESTED, NOBODY_IN]


def test_draw_and_bourre_outcomes() -> None:
    def ended(result: str) -> DrawDealEnded:
        return DrawDealEnded(result=result, won=(), reason="")

    def showed(seat: int, live: bool = True) -> Showed:
        return Showed(seat=seat, cards=(), description="", live=live)

    deals = [ended("thrown-in"), showed(2), ended("won"), showed(0), showed(1), ended("won"),
             showed(0), showed(1, live=False), ended("pot-stays")]  # fmt: skip
    assert settlements("draw", deals) == [NOBODY_IN, UNCONTESTED, SHOWDOWN, UNCONTESTED]
    hands = [HandResult(tricks=(), winner=None), HandResult(tricks=(), winner=2),
             HandResult(tricks=((0, 3), (1, 2)), winner=0)]  # fmt: skip
    assert settlements("bourre", hands) == [NOBODY_IN, UNCONTESTED, SHOWDOWN]


def test_every_preset_simulates_with_one_settlement_a_deal_or_more() -> None:
    from guts.catalog import games

    for name, game in games().items():
        spec = SimSpec.make(name, bots="random", buy_in=10, seed=1, max_deals=6)
        for index in range(2):
            result = play_session(spec, index)
            assert sum(result.nets) + result.left == 0, name
            if game.family == "staged":  # a settlement for each stage played
                assert len(result.outcomes) >= result.deals, name
            else:
                assert len(result.outcomes) == result.deals, name
