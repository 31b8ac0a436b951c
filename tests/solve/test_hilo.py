"""Hi-Lo Guts: the settlement against the engine's own Hi-Lo contests and
against whole engine deals played with stacked hands, and the solved deal
(exploitability, the pot shared out, the rules that change it)."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from guts.errors import GutsError
from guts.games.guts import preset
from guts.games.guts.rules import GhostTie
from guts.games.guts.showdown import hi_lo_contests
from guts.solve.hilo import HiLoDeal, HiLoModel, hi_lo_model, settle, solve_hi_lo

WAYS = ("high", "low", "both", "out")


def _engine(ways: tuple[str, ...], strengths: tuple[int, ...]) -> list[float]:
    """Gains and the next pot in pot units, as guts.games.guts.settle.hi_lo_result pays
    (halves of 1/2 each: the odd chip ignored)."""
    n = len(ways)
    ins = [j for j in range(n) if ways[j] != "out"]
    gains = [0.0] * n
    if not ins:
        return [*gains, 1.0]
    if len(ins) == 1:
        gains[ins[0]] = 1.0
        return [*gains, 0.0]
    result = hi_lo_contests(
        {j: ways[j] for j in ins}, {j: strengths[j] for j in ins}, None, False,
        GhostTie.GHOST_WINS,
    )  # fmt: skip
    halves = [c for c in (result.high, result.low) if c is not None]
    next_pot = 0.0 if halves else 1.0
    winners: list[int] = []
    for half in halves:
        for j in half.winners:
            gains[j] += 1.0 / len(halves) / len(half.winners)
            winners.append(j)
    losers = set(result.failed)
    for half in halves:
        losers |= {j for j in half.losers if j not in winners}
    for j in losers:
        gains[j] -= 1.0
    return [*gains, next_pot + len(losers)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_settle_pays_as_the_engine(players: int) -> None:
    model = HiLoModel(players, False, WAYS, 0.0, 0.0)
    rng = random.Random(players)
    for ways in itertools.product(WAYS, repeat=players):
        for _ in range(12):
            strengths = tuple(rng.randrange(4) for _ in range(players))
            levels = [np.array(float(s)) for s in strengths]
            got = settle(model, ways, levels)
            assert got.tolist() == pytest.approx(_engine(ways, strengths)), (ways, strengths)


def test_settle_conserves_the_pot() -> None:
    """What the players win and pay plus the next pot is the pot they played for."""
    model = HiLoModel(3, False, WAYS, 1 / 3, 1 / 3)
    rng = random.Random(7)
    for ways in itertools.product(WAYS, repeat=3):
        levels = [np.array(float(rng.randrange(3))) for _ in range(3)]
        out = settle(model, ways, levels)
        assert float(out.sum()) == pytest.approx(1.0)


@pytest.mark.parametrize(
    "options", [{}, {"declare": "in-turn"}, {"hi-lo-both": "no"}, {"everyone-out": "chicken-fee"}]
)
def test_solved_hi_lo_is_near_an_equilibrium(options: dict[str, str]) -> None:
    deal = HiLoDeal.of(preset("hi-lo-guts", options))
    result = solve_hi_lo(deal, 1000, tolerance=5e-4)
    assert result.exploitability <= 5e-4
    assert result.residual <= 5e-4
    assert float(result.values.sum()) == pytest.approx(1.0, abs=1e-3)
    for s in result.strategy:
        assert np.allclose(s.sum(axis=1), 1.0)


def test_in_turn_declaring_changes_the_game() -> None:
    """At once the two seats are worth the same; in turn the dealer, who hears the
    dealer's left first, is worth more."""
    at_once = solve_hi_lo(HiLoDeal.of(preset("hi-lo-guts")), 1000, tolerance=5e-4)
    in_turn = solve_hi_lo(
        HiLoDeal.of(preset("hi-lo-guts", {"declare": "in-turn"})), 1000, tolerance=5e-4
    )
    assert at_once.values[0] == pytest.approx(0.5, abs=2e-3)
    assert in_turn.values[1] > in_turn.values[0] + 0.05


def test_best_hands_go_their_way() -> None:
    """A pair of aces goes high (or both), three-two high goes low."""
    deal = HiLoDeal.of(preset("hi-lo-guts", {"hi-lo-both": "no"}))
    result = solve_hi_lo(deal, 1000, tolerance=5e-4)
    aces, worst = len(deal.prior) - 1, 0
    assert result.strategy[0][0, 0, aces] > 0.95  # high
    assert result.strategy[0][0, 1, worst] > 0.95  # low


def test_out_of_reach_rules_are_refused() -> None:
    with pytest.raises(GutsError, match="ghost"):
        HiLoDeal.of(preset("hi-lo-guts", {"ghost": "always"}))
    with pytest.raises(GutsError, match="2 to 8 players"):
        HiLoDeal.of(preset("hi-lo-guts"), 9)
    with pytest.raises(GutsError, match="two-player deal"):
        HiLoDeal.of(preset("hi-lo-guts"), 3)
    for rule in ("henry", "wimp"):  # everyone out, the best hands pay: not in this model
        with pytest.raises(GutsError, match=f"everyone-out={rule}"):
            HiLoDeal.of(preset("hi-lo-guts", {"everyone-out": rule}))


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize(
    "options",
    [
        {},
        {"declare": "in-turn"},
        {"everyone-out": "chicken-fee"},
        {"hi-lo-both": "no", "dropouts-ante": "yes"},
        {"cards": "3", "declare": "in-turn"},
    ],
)
def test_settle_pays_as_engine_deals(options: dict[str, str], players: int) -> None:
    """Whole engine deals, hands stacked and every combination of declarations made at
    the table (two and three players): the chips each seat wins and the pot left equal
    hilo.settle's pot units times the pot."""
    from guts.cards import parse_card
    from guts.games.guts import new_session

    options = {**options, "ante": "4"}  # a pot of 12 for three: every split is whole
    rules = preset("hi-lo-guts", options)
    model = hi_lo_model(rules, players)
    rng = random.Random(len(options) + players)
    codes = [f"{r}{s}" for r in "23456789TJQKA" for s in "cdhs"]
    names = ["Ann", "Bob", "Cy"][:players]
    for ways in itertools.product(model.ways, repeat=players):
        for _ in range(6 if players == 2 else 2):
            cards = rng.sample(codes, players * rules.cards)
            session = new_session("hi-lo-guts", names, buy_in=50, options=options)
            hands = {s: " ".join(cards[s * rules.cards : (s + 1) * rules.cards])
                     for s in range(players)}  # fmt: skip
            session.start_deal(session.stacked(hands))
            pot = session.table.pot
            before = [seat.stack for seat in session.table.seats]
            order = [int(s) for s in session.view(0)["dealt_in"]]  # from the dealer's left
            for position, seat in enumerate(order):
                session.act(seat, ways[position])
            gained = [session.table.seats[s].stack - before[s] for s in order]
            levels = [
                np.array(
                    float(rules.hand_ranking.strength([parse_card(c) for c in hands[s].split()]))
                )
                for s in order
            ]
            want = settle(model, ways, levels) * pot
            assert [*gained, session.table.pot] == pytest.approx(want.tolist()), (ways, hands)
