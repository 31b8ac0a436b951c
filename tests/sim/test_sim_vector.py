"""The vectorized Guts path against the engine: deal by deal on the same cards, and in
distribution on random ones; what it covers and refuses; its summaries."""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Any

import numpy as np
import pytest

from guts.bots import policy_for
from guts.cards import Card, Deck
from guts.catalog import find_game
from guts.errors import OptionError
from guts.games.guts.presets import preset
from guts.games.guts.session import GutsSession
from guts.sim import SimSpec, simulate
from guts.sim.outcomes import OUTCOMES, settlements
from guts.sim.runner import _pot_at_stake
from guts.sim.summary import Summary
from guts.sim.vector import (
    FastGame,
    Played,
    StayTable,
    Trace,
    fast_batch,
    fast_game,
    run_fast,
    unsupported,
)

pytest.importorskip("numba")

ASCII = [Card(code).ascii for code in range(52)]

# (preset, options, players): together they reach every branch of the settlement
CASES: list[tuple[str, dict[str, str], int]] = [
    ("two-card-guts", {"continue-after-empty": "yes"}, 4),
    ("two-card-guts", {}, 2),
    ("three-card-guts", {"continue-after-empty": "yes"}, 3),
    ("simultaneous-guts", {"continue-after-empty": "yes", "odd-chips": "leave-in-pot"}, 5),
    ("ghost-guts", {"continue-after-empty": "yes"}, 4),
    ("ghost-guts", {"ghost-ties": "push", "ghost": "lone", "crumpler": "yes"}, 3),
    ("two-card-guts", {"ghost": "deck", "ghost-ties": "players-win", "declare": "simultaneous",
                       "continue-after-empty": "yes"}, 3),
    ("single-loser-guts", {"continue-after-empty": "yes", "max-loss": "7"}, 4),
    ("no-peek-guts", {"continue-after-empty": "yes"}, 3),
    ("winner-takes-all-guts", {"continue-after-empty": "yes"}, 4),
    ("capped-guts", {"pot-cap": "3", "continue-after-empty": "yes"}, 4),
    ("simultaneous-guts", {"everyone-out": "wimp", "continue-after-empty": "yes"}, 4),
    ("simultaneous-guts", {"everyone-out": "henry", "max-deals": "12"}, 4),
    ("simultaneous-guts", {"everyone-out": "best-and-wilds-match", "wild": "2",
                           "continue-after-empty": "yes"}, 4),
    ("two-card-guts", {"payment": "worst-doubles", "max-loss": "9", "straights": "yes",
                       "flushes": "yes", "continue-after-empty": "yes"}, 4),
    ("simultaneous-guts", {"nobody-wins-contested": "yes", "dropouts-ante": "yes",
                           "continue-after-empty": "yes"}, 4),
    ("two-card-guts", {"lone-qualifier": "pair", "last-in-when-all-out": "no",
                       "continue-after-empty": "yes"}, 4),
    ("simultaneous-guts", {"pot-limit": "6", "continue-after-empty": "yes", "ante": "2"}, 5),
    ("single-loser-guts", {"matcher-skips-ante": "no", "ghost": "always",
                           "continue-after-empty": "yes"}, 3),
    ("two-card-guts", {"dealer-option": "yes", "continue-after-empty": "yes"}, 4),
    ("hi-lo-guts", {"continue-after-empty": "yes"}, 4),
    ("hi-lo-guts", {"continue-after-empty": "yes", "odd-chips": "leave-in-pot"}, 5),
    ("hi-lo-guts", {"continue-after-empty": "yes", "ghost": "always", "ghost-ties": "push"}, 3),
    ("hi-lo-guts", {"continue-after-empty": "yes", "ghost": "lone", "dropouts-ante": "yes",
                    "max-loss": "6"}, 4),
    ("hi-lo-guts", {"continue-after-empty": "yes", "ghost": "always",
                    "ghost-ties": "players-win"}, 3),
    ("hi-lo-guts", {"continue-after-empty": "yes", "lone-qualifier": "pair"}, 3),
    ("hi-lo-guts", {"continue-after-empty": "yes", "ghost": "lone", "ghost-ties": "push"}, 6),
    ("hi-lo-guts", {"continue-after-empty": "yes", "no-peek": "yes"}, 4),
    ("hi-lo-guts", {"continue-after-empty": "yes", "cards": "3", "everyone-out": "chicken-fee"},
     4),
    ("two-card-guts", {"dealer-option": "yes", "last-in-when-all-out": "no",
                       "dropouts-ante": "yes", "ghost": "lone",
                       "continue-after-empty": "yes"}, 3),
]  # fmt: skip

# table stakes (credit=no) with a small buy-in, so that stacks run short and players bust:
# (preset, options, players, buy-in)
TABLE_STAKES: list[tuple[str, dict[str, str], int, int]] = [
    ("two-card-guts", {"credit": "no", "continue-after-empty": "yes"}, 4, 7),
    ("two-card-guts", {"credit": "no", "continue-after-empty": "yes", "ante": "2"}, 5, 9),
    ("three-card-guts", {"credit": "no", "continue-after-empty": "yes"}, 3, 6),
    ("simultaneous-guts", {"credit": "no", "everyone-out": "wimp",
                           "continue-after-empty": "yes"}, 4, 8),
    ("simultaneous-guts", {"credit": "no", "everyone-out": "chicken-fee", "ante": "3",
                           "dropouts-ante": "yes", "continue-after-empty": "yes"}, 4, 10),
    ("simultaneous-guts", {"credit": "no", "everyone-out": "henry", "odd-chips": "leave-in-pot",
                           "continue-after-empty": "yes"}, 5, 6),
    ("ghost-guts", {"credit": "no", "continue-after-empty": "yes"}, 4, 5),
    ("two-card-guts", {"credit": "no", "ghost": "deck", "continue-after-empty": "yes"}, 3, 6),
    ("single-loser-guts", {"credit": "no", "continue-after-empty": "yes"}, 4, 6),
    ("two-card-guts", {"credit": "no", "payment": "worst-doubles",
                       "continue-after-empty": "yes"}, 4, 9),
    ("winner-takes-all-guts", {"credit": "no", "continue-after-empty": "yes"}, 4, 6),
    ("capped-guts", {"credit": "no", "pot-cap": "2", "continue-after-empty": "yes"}, 4, 7),
    ("two-card-guts", {"credit": "no", "pot-limit": "5", "ante-every-deal": "yes",
                       "matcher-skips-ante": "yes", "continue-after-empty": "yes"}, 4, 8),
    ("two-card-guts", {"credit": "no", "dealer-option": "yes", "lone-qualifier": "pair",
                       "continue-after-empty": "yes"}, 4, 6),
    ("simultaneous-guts", {"credit": "no", "everyone-out": "best-and-wilds-match", "wild": "2",
                           "continue-after-empty": "yes"}, 4, 7),
    ("hi-lo-guts", {"credit": "no", "continue-after-empty": "yes"}, 4, 6),
    ("hi-lo-guts", {"credit": "no", "ghost": "always", "continue-after-empty": "yes"}, 3, 7),
]  # fmt: skip


def _decks(count: int, deals: int, cards: int, seed: int) -> np.ndarray:
    """Random deals: the first ``cards`` of a shuffled pack, per session and deal."""
    gen = np.random.default_rng(seed)
    packs = gen.permuted(np.tile(np.arange(52), (count * deals, 1)), axis=1)
    return packs.reshape(count, deals, 52)


def _engine(
    preset_name: str, options: dict[str, str], bots: list[Any], decks: np.ndarray, limit: int,
    buy_in: int = 50,
) -> dict[str, Any]:  # fmt: skip
    """One engine session dealt from ``decks`` (one pack per deal): every deal's pot at
    stake, outcome and stacks after it, and the nets and chips left at the end."""
    game = find_game(preset_name)
    names = [f"P{i}" for i in range(len(bots))]
    session = game.new_session(names, options=options, buy_in=buy_in, rng=Random(0))
    assert isinstance(session, GutsSession)
    rng = Random(1)
    pots: list[int] = []
    outcomes: list[int] = []
    stacks: list[list[int]] = []
    while not session.is_over:
        if len(pots) >= limit:
            session.stop("enough")
            break
        pot, start = session.table.pot, len(session.events)
        session.start_deal(Deck.stacked([ASCII[c] for c in decks[len(pots)]]))
        while not session.deal_over:
            pending = session.pending()
            now = [d for d in pending if d.simultaneous] if pending[0].simultaneous else pending[:1]
            chosen = [(d.seat, bots[d.seat].choose(session.view(d.seat), d, rng)) for d in now]
            for seat, action in chosen:
                session.act(seat, action)
        events = session.events[start:]
        pots.append(_pot_at_stake(pot, events))
        (outcome,) = settlements("guts", events)
        outcomes.append(OUTCOMES.index(outcome))
        stacks.append([session.table.stack(s) for s in range(len(bots))])
    nets = [session.table.net(s) for s in range(len(bots))]
    return {"pots": pots, "outcomes": outcomes, "stacks": stacks, "nets": nets,
            "left": sum(session.table.places.values())}  # fmt: skip


def _compare(preset_name: str, options: dict[str, str], players: int,
             bots: list[Any], fast_bots: list[Any], sessions: int, seed: int,
             buy_in: int = 50, game: Any = None) -> int:  # fmt: skip
    """Deal the same packs to both; assert they agree deal by deal; the deals compared."""
    rules = preset(preset_name, options)
    game = game or fast_game(rules, players)
    limit = 30
    decks = _decks(sessions, limit, 52, seed)
    dealt = decks[:, :, : game.cards_per_deal]
    trace = run_fast(game, fast_bots, seed=0, first=0, count=sessions, buy_in=buy_in,
                     max_deals=limit, decks=dealt, trace=True)  # fmt: skip
    assert isinstance(trace, Trace)
    compared = 0
    for s in range(sessions):
        engine = _engine(preset_name, options, bots, decks[s], limit, buy_in)
        deals = int(trace.played.deals[s])
        assert deals == len(engine["pots"]), (s, engine["outcomes"])
        assert trace.pots[s, :deals].tolist() == engine["pots"], s
        assert trace.outcomes[s, :deals].tolist() == engine["outcomes"], s
        assert trace.stacks[s, :deals].tolist() == engine["stacks"], s
        assert trace.played.nets[s].tolist() == engine["nets"]
        assert int(trace.played.left[s]) == engine["left"]
        compared += deals
    return compared


@pytest.mark.parametrize(("preset_name", "options", "players"), CASES)
def test_threshold_bots_agree_with_the_engine_deal_by_deal(
    preset_name: str, options: dict[str, str], players: int
) -> None:
    rules = preset(preset_name, options)
    session = find_game(preset_name).new_session(["a", "b"], options=options, buy_in=1)
    bots = [policy_for("threshold", "guts", session) for _ in range(players)]
    assert rules == session.rules
    compared = _compare(preset_name, options, players, bots, ["threshold"], 6, seed=players)
    assert compared >= 6


@pytest.mark.parametrize(("preset_name", "options", "players", "buy_in"), TABLE_STAKES)
def test_table_stakes_agree_with_the_engine_deal_by_deal(
    preset_name: str, options: dict[str, str], players: int, buy_in: int
) -> None:
    session = find_game(preset_name).new_session(["a", "b"], options=options, buy_in=1)
    bots = [policy_for("threshold", "guts", session) for _ in range(players)]
    compared = _compare(preset_name, options, players, bots, ["threshold"], 12,
                        seed=players + buy_in, buy_in=buy_in)  # fmt: skip
    assert compared >= 12


def test_table_stakes_bust_players_and_end_sessions() -> None:
    # at table stakes nobody goes below zero; sessions end with one player holding chips
    spec = SimSpec.make("two-card-guts", players=4, bots="threshold,random", seed=4, buy_in=5,
                        options={"credit": "no", "continue-after-empty": "yes"})  # fmt: skip
    game = fast_game(preset("two-card-guts", dict(spec.options)), 4)
    played = run_fast(game, spec.seat_bots, seed=4, first=0, count=2000, buy_in=5,
                      max_deals=1000)  # fmt: skip
    assert isinstance(played, Played)
    assert (played.nets >= -5).all()
    short = ~played.capped
    assert short.any() and (played.busted[short].sum(axis=1) == 3).all()
    assert ((played.nets + 5 > 0).sum(axis=1)[short] == 1).all()
    assert (played.nets.sum(axis=1) + played.left == 0).all()


def test_stay_tables_agree_with_the_engine_deal_by_deal() -> None:
    options = {"continue-after-empty": "yes"}
    rules = preset("two-card-guts", options)
    game = fast_game(rules, 4)
    classes = game.class_count
    # in with a hand in the better third; the dealer's right also with anything once
    # someone is in, everyone else by a different bar
    tight = StayTable.above(4, classes, 2 * classes // 3)
    loose = StayTable.above(4, classes, classes // 3)
    loose.chances[2, 1:, :] = 1.0
    tables = [tight, loose, tight, loose]
    bots = [table.policy(rules) for table in tables]
    assert _compare("two-card-guts", options, 4, bots, tables, 6, seed=9) >= 30


def test_the_random_bot_and_threshold_mix_agrees_in_distribution() -> None:
    stats = pytest.importorskip("scipy.stats")
    spec = SimSpec.make("two-card-guts", players=4, bots="threshold,random", seed=3,
                        options={"max-loss": "6"})  # fmt: skip
    engine = simulate(spec, sessions=1000)
    fast, _ = fast_batch(spec, 0, 60_000)
    counters: list[Callable[[Summary], list[int]]] = [
        lambda s: [s.outcomes.counts.get(name, 0) for name in OUTCOMES],
        lambda s: [s.lengths.counts.get(k, 0) for k in (1, 2, 3)]
        + [sum(c for k, c in s.lengths.counts.items() if k >= 4)],
        lambda s: [sum(c for p, c in s.pots.counts.items() if low <= p < high)
                   for low, high in ((0, 5), (5, 9), (9, 17), (17, 10**9))],
    ]  # fmt: skip
    for counts in counters:
        table = np.array([counts(engine), counts(fast)])
        table = table[:, table.sum(axis=0) > 0]
        assert stats.chi2_contingency(table).pvalue > 0.001, table
    # the mean nets per session agree within their intervals (Welch's t)
    for seat in range(4):
        a, b = engine.seats[seat].net.x_moments(), fast.seats[seat].net.x_moments()
        assert a.mean is not None and b.mean is not None and a.variance and b.variance
        t = float(a.mean - b.mean) / float(a.variance / a.n + b.variance / b.n) ** 0.5
        assert abs(t) < 3.3, (seat, t)


def test_sessions_depend_only_on_the_seed_and_their_number() -> None:
    spec = SimSpec.make("ghost-guts", players=5, bots="threshold,random", seed=12)
    whole, lengths = fast_batch(spec, 0, 500)
    parts = [fast_batch(spec, first, count) for first, count in ((0, 123), (123, 300), (423, 77))]
    merged = parts[0][0]
    for part, _ in parts[1:]:
        merged.merge(part)
    assert merged == whole
    assert np.concatenate([p[1] for p in parts]).tolist() == lengths.tolist()
    assert (
        sum(stats.net.x for stats in whole.seats) + sum(x * c for x, c in whole.left.counts.items())
        == 0
    )
    other = SimSpec.make("ghost-guts", players=5, bots="threshold,random", seed=13)
    assert fast_batch(other, 0, 500)[0] != whole


def test_the_summary_matches_one_by_one_counting() -> None:
    spec = SimSpec.make("two-card-guts", players=3, bots="random", seed=2, max_deals=4,
                        options={"continue-after-empty": "yes"})  # fmt: skip
    summary, lengths = fast_batch(spec, 0, 50, cut=2)
    assert lengths.tolist()[:-1] == [4] * 49 and lengths[-1] == 2
    assert summary.capped == 49 and summary.deals == 49 * 4 + 2
    assert summary.outcomes.total == summary.deals == summary.pots.n
    assert summary.kinds["random"].seats == 3
    assert summary.kinds["random"].net.x == 0


@pytest.mark.parametrize(
    ("preset_name", "bots", "words"),
    [
        ("four-two-two", "threshold", "cards=4"),
        ("hi-lo-guts", "threshold,equilibrium", "hi-lo=yes with the equilibrium bot"),
        ("hi-lo-guts", "equilibrium", "hi-lo"),
        ("two-plus-one", "threshold", "draw-to-in=1"),
        ("two-card-guts", "sensible", "the sensible bot"),
        ("three-five-seven", "random", "the Guts family"),
    ],
)
def test_what_it_does_not_cover_is_refused_by_name(preset_name: str, bots: str, words: str) -> None:
    spec = SimSpec.make(preset_name, players=3, bots=bots)
    with pytest.raises(OptionError, match=words):
        fast_batch(spec, 0, 1)


def test_what_it_covers_now() -> None:
    assert unsupported(preset("two-card-guts", {"credit": "no"})) == []
    assert unsupported(preset("two-card-guts", {"dealer-option": "yes"})) == []
    assert unsupported(preset("capped-guts", {})) == []
    assert unsupported(preset("two-card-guts", {"credit": "no"}), ["equilibrium"]) == []
    # the equilibrium bot where guts solve reaches: a pot cap, but not with a new ante
    # every deal
    assert unsupported(preset("capped-guts", {}), ["equilibrium"]) == []
    capped = preset("capped-guts", {"ante-every-deal": "yes"})
    assert "pot-cap" in unsupported(capped, ["equilibrium"])[0]
    # declared in turn, the solved strategy is one per pot: the engine plays it
    for option in ("pot-cap", "pot-limit"):
        in_turn = preset("two-card-guts", {option: "40"})
        assert unsupported(in_turn) == []
        (why,) = unsupported(in_turn, ["equilibrium"])
        assert f"{option} declared in turn" in why


def test_more_cards_than_the_pack_holds_are_refused() -> None:
    # the loop deals from one pack: 17 ghost hands of three cards would need 54
    assert fast_game(preset("ghost-guts", {"cards": "3"}), 16).cards_per_deal == 51
    with pytest.raises(OptionError, match="54 cards a deal for 17 players"):
        FastGame(preset("ghost-guts", {"cards": "3"}), 17)


def test_a_stay_table_of_the_wrong_shape_is_refused() -> None:
    game = fast_game(preset("two-card-guts", {}), 3)
    with pytest.raises(OptionError, match="shape"):
        run_fast(game, [StayTable.constant(4, 3, 0.5)], seed=1, first=0, count=1,
                 buy_in=10, max_deals=5)  # fmt: skip


def _rounded_equilibrium(rules: Any, players: int) -> tuple[Any, FastGame]:
    """The engine's equilibrium bot and a fast game whose equilibrium both stay in
    exactly where the solved strategy does at least half the time (so that the same
    cards give the same choices)."""
    from guts.solve.bot import EquilibriumPolicy

    policy = EquilibriumPolicy(rules)
    for dealt in range(2, players + 1):  # at table stakes fewer may be dealt in
        strategy = policy.solution(dealt).result.strategy
        for position, played in enumerate(strategy):
            strategy[position] = np.where(played >= 0.5, 1.0, 0.0)
    game = FastGame(rules, players)
    chances, solved = game.equilibrium
    game.__dict__["equilibrium"] = (np.where(chances >= 0.5, 1.0, 0.0), solved)
    return policy, game


@pytest.mark.parametrize(
    ("preset_name", "options", "players"),
    [
        ("two-card-guts", {}, 4),
        ("three-card-guts", {}, 3),
        ("simultaneous-guts", {"everyone-out": "chicken-fee"}, 3),
        # slow: its exact card-removal solve for three players takes a CPU quarter-minute;
        # straights and flushes on the fast path are held by the threshold bots' case of
        # them (test_threshold_bots_agree_with_the_engine_deal_by_deal), and the
        # equilibrium's hand classes by the plain two-card and the three-card cases here
        pytest.param("two-card-guts", {"flushes": "yes", "straights": "yes"}, 3,
                     marks=pytest.mark.slow),
        ("no-peek-guts", {}, 3),
        ("capped-guts", {}, 4),
    ],
)
def test_the_equilibrium_bot_agrees_with_the_engine_deal_by_deal(
    preset_name: str, options: dict[str, str], players: int
) -> None:
    """The equilibrium bot on the fast path plays as the engine's, deal by deal (its
    straights-and-flushes case is slow: see the note on its parameters)."""
    rules = preset(preset_name, options)
    policy, game = _rounded_equilibrium(rules, players)
    session = find_game(preset_name).new_session(["a", "b"], options=options, buy_in=1)
    threshold = policy_for("threshold", "guts", session)
    bots = [policy if seat % 2 == 0 else threshold for seat in range(players)]
    compared = _compare(preset_name, options, players, bots, ["equilibrium", "threshold"], 12,
                        seed=21, game=game)  # fmt: skip
    assert compared >= 12


@pytest.mark.parametrize(
    ("preset_name", "options", "players", "buy_in"),
    [
        ("two-card-guts", {"credit": "no"}, 4, 3),
        ("simultaneous-guts", {"credit": "no", "everyone-out": "chicken-fee"}, 4, 4),
    ],
)
def test_the_equilibrium_bot_at_table_stakes_agrees_deal_by_deal(
    preset_name: str, options: dict[str, str], players: int, buy_in: int
) -> None:
    # as players go bust, the rest play the solution for as many as are dealt in
    rules = preset(preset_name, options)
    policy, game = _rounded_equilibrium(rules, players)
    session = find_game(preset_name).new_session(["a", "b"], options=options, buy_in=1)
    threshold = policy_for("threshold", "guts", session)
    bots = [policy if seat % 2 == 0 else threshold for seat in range(players)]
    compared = _compare(preset_name, options, players, bots, ["equilibrium", "threshold"], 40,
                        seed=23, buy_in=buy_in, game=game)  # fmt: skip
    assert compared >= 40


def test_the_equilibrium_bot_agrees_in_distribution() -> None:
    # mixed strategies included: the solved chances, drawn from each side's own stream
    stats = pytest.importorskip("scipy.stats")
    spec = SimSpec.make("two-card-guts", players=3, bots="equilibrium,threshold", seed=8)
    engine = simulate(spec, sessions=800)
    fast, _ = fast_batch(spec, 0, 80_000)
    _agree_in_distribution(stats, engine, fast, 3)


def test_table_stakes_and_the_dealer_option_agree_in_distribution() -> None:
    stats = pytest.importorskip("scipy.stats")
    spec = SimSpec.make("two-card-guts", players=4, bots="threshold,random", seed=5, buy_in=3,
                        options={"credit": "no", "dealer-option": "yes"})  # fmt: skip
    engine = simulate(spec, sessions=1000)
    fast, _ = fast_batch(spec, 0, 60_000)
    _agree_in_distribution(stats, engine, fast, 4)
    busts = np.array([[engine.seats[s].busts.total, fast.seats[s].busts.total] for s in range(4)]).T
    assert busts.min() > 0
    sessions = np.array([[engine.sessions], [fast.sessions]])
    assert stats.chi2_contingency(np.hstack([busts, sessions - busts])).pvalue > 0.001


def _agree_in_distribution(stats: Any, engine: Any, fast: Any, players: int) -> None:
    """Chi-squared tests on outcomes, session lengths and pots; Welch's t on the nets."""
    counters: list[Callable[[Summary], list[int]]] = [
        lambda s: [s.outcomes.counts.get(name, 0) for name in OUTCOMES],
        lambda s: [s.lengths.counts.get(k, 0) for k in (1, 2, 3)]
        + [sum(c for k, c in s.lengths.counts.items() if k >= 4)],
        lambda s: [sum(c for p, c in s.pots.counts.items() if low <= p < high)
                   for low, high in ((0, 4), (4, 7), (7, 13), (13, 10**9))],
    ]  # fmt: skip
    for counts in counters:
        table = np.array([counts(engine), counts(fast)])
        table = table[:, table.sum(axis=0) > 0]
        assert stats.chi2_contingency(table).pvalue > 0.001, table
    for seat in range(players):
        a, b = engine.seats[seat].net.x_moments(), fast.seats[seat].net.x_moments()
        assert a.mean is not None and b.mean is not None and a.variance and b.variance
        t = float(a.mean - b.mean) / float(a.variance / a.n + b.variance / b.n) ** 0.5
        assert abs(t) < 3.3, (seat, t)


@pytest.mark.parametrize(
    ("bots", "options"),
    [
        ("threshold", {}),
        # the random bot goes high, low, both or out evenly: both ways must win both
        ("threshold,random", {}),
        ("random", {"ghost": "lone", "credit": "no"}),
        ("random,threshold", {"hi-lo-both": "no", "odd-chips": "leave-in-pot"}),
    ],
)
def test_hi_lo_agrees_in_distribution(bots: str, options: dict[str, str]) -> None:
    stats = pytest.importorskip("scipy.stats")
    # sessions of at most 10 deals: the pot bins count deals, which are not independent
    # within a session (a long one doubles its pot again and again)
    spec = SimSpec.make("hi-lo-guts", players=4, bots=bots, seed=7, max_deals=10,
                        options=options, buy_in=20)  # fmt: skip
    engine = simulate(spec, sessions=1500)
    fast, _ = fast_batch(spec, 0, 60_000)
    _agree_in_distribution(stats, engine, fast, 4)
