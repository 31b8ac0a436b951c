"""The vectorized fast path for the Guts family: millions of deals a second.

:func:`fast_batch` plays sessions of a :class:`~guts.sim.runner.SimSpec` in one compiled
loop (:mod:`guts.sim.kernel`, numba) instead of on the engine, and summarizes them into
the same :class:`~guts.sim.summary.Summary`. Hands are ranked by the engine's own
rankings, once: every hand of the game's size is ranked with ``strength_batch`` into a
table of classes the loop reads (the rank of a hand's strength among the distinct
strengths, 0 the worst, so classes compare as strengths do), with per class its quantile
as the threshold bot computes it (:class:`guts.games.guts.bots.Quantiles`) and whether it
is a pair or better, and per hand whether it holds a wild card.

Declaring is done by policies per seat: ``threshold`` (the engine's
:class:`~guts.games.guts.bots.ThresholdPolicy`, exactly), ``random`` (in or out with
even odds, as the engine's random bot) or a :class:`StayTable`: a stay-in probability per
position from the dealer's left, per number of players who declared in before (always 0
when declaring at once) and per hand class, the shape of a solved declaration strategy.

**What it covers**: the :class:`GutsRules` fields listed in :data:`IMPLEMENTED` (any
other field away from its default is refused by :func:`unsupported`, naming it): two- and
three-card Guts with any ranking options (straights, flushes, ace low, Royal Crumpler,
order, wild cards), declared in turn (the dealer in automatically when all others are
out; the dealer's option) or at once, Hi-Lo declared at once by threshold bots (high,
low or out) and random ones (high, low, both if allowed, or out, evenly), No Peek, every
everyone-out rule, every payment (match, single loser, worst doubles), winner takes all,
nobody wins contested, dropouts ante, the ghost (always, lone, the deck) and its ties,
the lone qualifier, pot limit, pot cap, max loss, ante every deal (and the matcher
skipping it), continue after empty, a deal limit and every odd-chips rule, on credit or
at table stakes (``credit=no``: a player pays at most its stack, a player without chips
sits out, the session ends when fewer than two have chips). Presets: two-card-guts,
three-card-guts, simultaneous-guts, ghost-guts, single-loser-guts, no-peek-guts,
winner-takes-all-guts, capped-guts, hi-lo-guts. Bots: threshold, random and
``equilibrium`` (the strategy :func:`guts.solve.solve_rules` finds, where the solver
reaches the rules; at table stakes the solution for as many players as are dealt in).
Not covered (the engine plays them, ``guts simulate`` without ``--fast``): cards dealt
after the declaration or face up (Two Plus One, Four-Two-Two, Four-Two-Three, The Batey,
partial hands, one/two low in and wild), passing, Hi-Lo declared in turn or by other
bots, second declarations, four-card hands, and the sensible bot.

Without numba (``pip install 'guts[fast]'``) the same loop runs uncompiled on numpy
scalars (:data:`guts.sim.kernel.PLAIN` forces it): the same deals and results, about
200 times slower.

The fast path agrees with the engine deal by deal on the same cards (the tests deal the
same decks to both) and in distribution on random ones, but its random streams are its
own: a ``--fast`` run and an engine run of the same seed are different samples of the
same game. Session ``i`` draws from a stream set by the seed and ``i`` alone, so results
do not depend on the batches or the workers.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from random import Random
from typing import Any

import numpy as np
from numpy.typing import NDArray

from guts.errors import OptionError
from guts.games.guts.presets import FAMILY as GUTS
from guts.games.guts.rules import (
    Declare,
    EveryoneOut,
    Ghost,
    GhostTie,
    GutsRules,
    HandRanking,
    Payment,
    Qualifier,
)
from guts.sim.outcomes import OUTCOMES
from guts.sim.runner import SimSpec
from guts.sim.summary import Summary

__all__ = [
    "FAST_BOTS",
    "IMPLEMENTED",
    "FastGame",
    "Policies",
    "StayPolicy",
    "StayTable",
    "Trace",
    "compiled",
    "fast_batch",
    "run_fast",
    "unsupported",
]

FAST_BOTS = ("threshold", "random", "equilibrium")
"""The bot kinds the fast path plays (by name, from ``--bots``)."""

IntArray = NDArray[np.int64]
ClassArray = NDArray[np.int16]

ENGINE = "drop --fast: `guts simulate` on the engine plays it"
"""What a refusal tells the user to do instead."""


def compiled() -> bool:
    """True if the loop runs compiled (numba installed, :data:`kernel.PLAIN` not set);
    otherwise it runs as plain numpy, the same deals far slower."""
    from guts.sim import kernel

    return kernel.COMPILED


IMPLEMENTED: dict[str, frozenset[Any] | None] = {
    "ante": None,
    "ante_every_deal": None,
    "matcher_skips_ante": None,
    "cards": frozenset({2, 3}),
    "no_peek": None,
    "declare": None,
    "last_in_when_all_out": None,
    "dealer_option": None,
    "hi_lo": None,  # declared at once, by threshold and random bots (unsupported says)
    "hi_lo_both": None,
    "ranking": frozenset(HandRanking) - {HandRanking.HIGH},
    "straights": None,
    "flushes": None,
    "ace_low": None,
    "crumpler": None,
    "order": None,
    "wild": None,
    "everyone_out": None,
    "payment": None,
    "winner_takes_all": None,
    "nobody_wins_contested": None,
    "dropouts_ante": None,
    "ghost": None,
    "ghost_ties": None,
    "lone_qualifier": None,
    "pot_limit": None,
    "pot_cap": None,
    "max_loss": None,
    "continue_after_empty": None,
    "max_deals": None,
    "credit": None,
    "odd_chips": None,
}
"""The :class:`GutsRules` fields the fast path's loop implements, each with the values it
plays (None: every value). Any other field is refused by :func:`unsupported` unless it
has its default; a new field is refused until it is listed here (and checked deal by deal
against the engine: ``tests/sim/test_sim_kernel_rules.py`` holds both)."""


def unsupported(rules: GutsRules, bots: Sequence[str] = ()) -> list[str]:
    """Why the fast path cannot play ``rules`` with ``bots`` (empty if it can), each
    reason naming the option (``hi-lo=yes``) or the bot: every option it does not
    implement (:data:`IMPLEMENTED`) that differs from its default, every implemented one
    with a value it does not play."""
    r = rules
    why: list[str] = []
    default = GutsRules()
    for name, value in rules.to_options(default).items():
        field = name.replace("-", "_")
        allowed = IMPLEMENTED.get(field, frozenset())
        if field not in IMPLEMENTED or (allowed is not None and getattr(r, field) not in allowed):
            if field == "cards":
                value += " (the fast path plays 2 or 3 cards)"
            why.append(f"{name}={value}")
    if r.hi_lo and r.declare is not Declare.SIMULTANEOUS:
        why.append("hi-lo=yes declared in turn (the fast path declares Hi-Lo at once)")
    if r.hi_lo and any(kind not in ("threshold", "random") for kind in bots):
        others = ", ".join(sorted({k for k in bots if k not in ("threshold", "random")}))
        why.append(f"hi-lo=yes with the {others} bot (the fast path plays Hi-Lo with "
                   "threshold and random bots)")  # fmt: skip
    for kind in dict.fromkeys(bots):
        if kind not in FAST_BOTS:
            why.append(f"the {kind} bot (it plays {', '.join(FAST_BOTS)})")
        elif kind == "equilibrium":
            why.extend(_equilibrium_unsupported(r))
    return why


def _equilibrium_unsupported(rules: GutsRules) -> list[str]:
    """Why the fast path cannot play the equilibrium bot under ``rules``."""
    from guts.solve.model import out_of_reach

    why = out_of_reach(rules)
    if why:
        return [f"the equilibrium bot ({why})"]
    if rules.dealer_option or rules.hi_lo:
        rule = "hi-lo" if rules.hi_lo else "dealer-option"
        return [f"the equilibrium bot with {rule} (played by the engine only)"]
    capped = rules.pot_cap is not None or rules.pot_limit is not None
    if capped and rules.declare is Declare.IN_TURN:  # at once, every pot plays alike
        rule = "pot-cap" if rules.pot_cap is not None else "pot-limit"
        return [f"the equilibrium bot with {rule} declared in turn (its strategy changes "
                "with the pot; played by the engine only)"]  # fmt: skip
    return []


@lru_cache(maxsize=64)
def check_fast(spec: SimSpec) -> GutsRules:
    """The rules of ``spec`` if the fast path plays it, else an OptionError naming why
    (kept: every batch of a run asks)."""
    if spec.game.games_family is not GUTS:
        raise OptionError(
            f"--fast plays the Guts family, not {spec.preset} ({spec.game.family}): drop --fast"
        )
    rules = getattr(spec.new_session(Random(0)), "rules", None)
    assert isinstance(rules, GutsRules)
    why = unsupported(rules, spec.bots)
    if why:
        raise OptionError(f"--fast does not cover {spec.preset} with {'; '.join(why)}: {ENGINE}")
    return rules


@dataclass(frozen=True)
class StayTable:
    """A declaration policy: ``chances[position, ins_before, hand_class]`` is the chance
    of staying in for the seat ``position`` places from the dealer's left (0 is the
    dealer's left, the dealer last) after ``ins_before`` players declared in (0 when
    declaring at once), holding a hand of ``hand_class`` (:attr:`FastGame.classes`;
    under No Peek every hand is class 0). Chances of 0 and 1 draw nothing at random."""

    chances: NDArray[np.float64]

    @classmethod
    def constant(cls, players: int, classes: int, chance: float) -> StayTable:
        """The same chance everywhere (0.5: the random bot)."""
        return cls(np.full((players, players, classes), float(chance)))

    @classmethod
    def above(cls, players: int, classes: int, lowest: int) -> StayTable:
        """In with a hand of class ``lowest`` or better, wherever and whatever before."""
        chances = np.zeros((players, players, classes))
        chances[:, :, lowest:] = 1.0
        return cls(chances)

    def check(self, players: int, classes: int) -> None:
        """Raise OptionError unless the table fits ``players`` and ``classes``."""
        shape = (players, players, classes)
        if self.chances.shape != shape:
            raise OptionError(f"a stay table for this game has shape {shape}, "
                              f"not {self.chances.shape}")  # fmt: skip
        if not np.all((self.chances >= 0) & (self.chances <= 1)):
            raise OptionError("stay-in chances must lie between 0 and 1")

    def policy(self, rules: GutsRules) -> StayPolicy:
        """This table as an engine bot (:class:`guts.bots.Policy`), to play it on the
        engine against any other bot."""
        return StayPolicy(self, rules)


class StayPolicy:
    """A :class:`StayTable` playing on the engine: it reads its position, the players
    declared in before it and its hand's class from the seat's view alone."""

    def __init__(self, table: StayTable, rules: GutsRules) -> None:
        self.table = table
        self.rules = rules
        ranking = rules.ranking_for(rules.cards)
        hands = np.array(list(itertools.combinations(range(52), rules.cards)), dtype=np.int64)
        self.distinct = np.unique(ranking.strength_batch(hands))
        self.ranking = ranking

    def hand_class(self, codes: Sequence[int]) -> int:
        """The class of a hand (the rank of its strength among every hand's)."""
        strength = self.ranking.strength_batch(np.array([list(codes)], dtype=np.int64))
        return int(np.searchsorted(self.distinct, strength[0]))

    def choose(self, view: Any, decision: Any, rng: Any) -> str:
        """In or out, with the table's chance for this seat, what was declared and hand."""
        from guts.games.guts.bots import Seen

        seen = Seen.of(view)
        position = seen.seats.index(seen.me)
        before = sum(
            1
            for seat in seen.seats[:position]
            if (choice := seen.choice(seat, 1)) is not None and choice[0] != "out"
        )
        hand = 0 if seen.hand is None else self.hand_class(seen.hand)
        chance = float(self.table.chances[position, before, hand])
        stays = chance >= 1 or (chance > 0 and rng.random() < chance)
        return "in" if stays else "out"


class FastGame:
    """A game of the fast path: the rules as the loop's parameters, and the hand tables."""

    def __init__(self, rules: GutsRules, players: int) -> None:
        from guts.sim import kernel

        why = unsupported(rules)
        if why:
            raise OptionError(f"the fast path does not cover {'; '.join(why)}: {ENGINE}")
        self.rules = rules
        self.players = players
        if self.cards_per_deal > 52:
            raise OptionError(f"{self.cards_per_deal} cards a deal for {players} players: "
                              "the pack has 52")  # fmt: skip
        self.kernel = kernel
        self.params = self._params()

    def _params(self) -> IntArray:
        k, r = self.kernel, self.rules
        params = np.zeros(k.P_SIZE, dtype=np.int64)
        auto = r.auto_in
        values = {
            k.P_PLAYERS: self.players,
            k.P_CARDS: r.cards,
            k.P_ANTE: r.ante,
            k.P_SIMULTANEOUS: r.declare is Declare.SIMULTANEOUS,
            k.P_AUTO_IN: auto,
            k.P_NO_PEEK: r.no_peek,
            k.P_EVERYONE_OUT: list(EveryoneOut).index(r.everyone_out),
            k.P_PAYMENT: list(Payment).index(r.payment),
            k.P_WINNER_TAKES_ALL: r.winner_takes_all,
            k.P_NOBODY_WINS_CONTESTED: r.nobody_wins_contested,
            k.P_DROPOUTS_ANTE: r.dropouts_ante,
            k.P_GHOST: list(Ghost).index(r.ghost),
            k.P_GHOST_TIES: list(GhostTie).index(r.ghost_ties),
            k.P_LONE_PAIR: r.lone_qualifier is Qualifier.PAIR,
            k.P_POT_LIMIT: -1 if r.pot_limit is None else r.pot_limit,
            k.P_POT_CAP: -1 if r.pot_cap is None else r.pot_cap * r.ante,
            k.P_MAX_LOSS: -1 if r.max_loss is None else r.max_loss,
            k.P_ANTE_EVERY_DEAL: r.ante_every_deal,
            k.P_MATCHER_SKIPS: r.matcher_skips_ante,
            k.P_CONTINUE: r.continue_after_empty,
            k.P_RULES_MAX_DEALS: -1 if r.max_deals is None else r.max_deals,
            k.P_LEAVE_ODD: r.odd_chips.value == "leave-in-pot",
            k.P_CUT: -1,
            k.P_CREDIT: r.credit,
            k.P_DEALER_OPTION: r.dealer_option,
            k.P_HI_LO: r.hi_lo,
            k.P_HI_LO_BOTH: r.hi_lo_both,
        }
        for index, value in values.items():
            params[index] = int(value)
        return params

    @property
    def cards_per_deal(self) -> int:
        """Cards a deal uses: the hands, then the ghost's or the deck's hand."""
        return self.players * self.rules.cards + (
            self.rules.cards if self.rules.ghost is not Ghost.NEVER else 0
        )

    @cached_property
    def tables(self) -> tuple[NDArray[np.int16], NDArray[np.float64], Any, Any]:
        """Per hand (ordered card codes) its class (the rank of its strength among the
        distinct strengths, 0 the worst); per class its quantile and whether it is a pair
        or better; per hand whether it holds a wild card."""
        from guts.games.guts.bots import Quantiles

        size = self.rules.cards
        ranking = self.rules.ranking_for(size)
        hands = np.array(list(itertools.combinations(range(52), size)), dtype=np.int64)
        strengths = ranking.strength_batch(hands)
        quantiles = Quantiles(self.rules).of(strengths, size, ())
        distinct = np.unique(strengths)
        classes = np.searchsorted(distinct, strengths)
        order = ranking.categories()
        from guts.rankings.base import Category

        if Category.PAIR in order:
            pair_at = order.index(Category.PAIR)
            pairs = ranking.category_batch(hands) <= pair_at
        else:
            pairs = np.zeros(len(hands), dtype=bool)
        wilds = self.rules.wilds(())
        from guts.cards import Card

        wild_card = np.array([wilds.is_wild(Card(code)) for code in range(52)])
        wild = wild_card[hands].any(axis=1)
        entries = 52**size
        if len(distinct) >= 1 << 15:
            raise OptionError(f"{len(distinct)} hand classes: more than the fast path counts")
        out_c = np.zeros(entries, dtype=np.int16)
        out_w = np.zeros(entries, dtype=np.bool_)
        for perm in itertools.permutations(range(size)):
            index = np.zeros(len(hands), dtype=np.int64)
            for column in perm:
                index = index * 52 + hands[:, column]
            out_c[index], out_w[index] = classes, wild
        class_q = np.zeros(len(distinct), dtype=np.float64)
        class_p = np.zeros(len(distinct), dtype=np.bool_)
        class_q[classes], class_p[classes] = quantiles, pairs  # a function of the class
        self.classes = len(distinct)
        return out_c, class_q, class_p, out_w

    @property
    def class_count(self) -> int:
        """How many hand classes there are (distinct strengths)."""
        self.tables  # noqa: B018
        return self.classes

    def policies(self, bots: Sequence[str | StayTable]) -> Policies:
        """The loop's bot kinds and stay tables for one policy per seat (``bots``
        cycled over the seats)."""
        n, classes = self.players, self.class_count
        seats = [bots[seat % len(bots)] for seat in range(n)]
        kinds = np.zeros(n, dtype=np.int64)
        tables: list[StayTable | None] = []
        for seat, bot in enumerate(seats):
            if bot == "threshold":
                kinds[seat] = self.kernel.BOT_THRESHOLD
                tables.append(None)
                continue
            kinds[seat] = self.kernel.BOT_TABLE
            if bot == "equilibrium":
                tables.append(None)
                continue
            table = StayTable.constant(n, classes, 0.5) if bot == "random" else bot
            if not isinstance(table, StayTable):
                raise OptionError(f"the fast path plays {', '.join(FAST_BOTS)} bots, not {bot}")
            table.check(n, classes)
            tables.append(table)
        if self.rules.hi_lo:
            for seat, bot in enumerate(seats):
                if bot == "random":
                    kinds[seat] = self.kernel.BOT_RANDOM_WAYS
                elif bot != "threshold":
                    raise OptionError(
                        "hi-lo=yes: the fast path plays Hi-Lo with threshold and random bots"
                    )
        if "equilibrium" not in seats:
            stay = np.zeros((n, n, n, classes))
            for seat, given in enumerate(tables):
                if given is not None:
                    stay[seat] = given.chances
            return Policies(kinds, stay, self.tables[0], history=0)
        return self._equilibrium_policies(kinds, seats, tables)

    def _equilibrium_policies(
        self, kinds: IntArray, seats: list[str | StayTable], tables: list[StayTable | None]
    ) -> Policies:
        """Stay tables by the solver's hand classes and by which positions declared in
        before (a bit each; at table stakes, after an offset for how many are dealt in):
        the equilibrium's shape; the other tables translated."""
        n = self.players
        strategy, solved = self.equilibrium
        classes = int(solved.max()) + 1
        fast_of = np.zeros(classes, dtype=np.int64)
        fast_of[solved] = self.tables[0]  # each solver class has one strength
        ins_before = np.zeros(strategy.shape[1], dtype=np.int64)
        for dealt, offset in self._history_offsets():
            for bits in range(1 << (dealt - 1)):
                ins_before[offset + bits] = bin(bits).count("1")
        stay = np.zeros((n, *strategy.shape[:2], classes))
        for seat, bot in enumerate(seats):
            table = tables[seat]
            if bot == "equilibrium":
                stay[seat] = strategy
            elif table is not None:
                stay[seat] = table.chances[:, ins_before][:, :, fast_of]
        return Policies(kinds, stay, solved, history=1 if self.rules.credit else 2)

    def _history_offsets(self) -> list[tuple[int, int]]:
        """(players dealt in, where their histories start): all of them on credit; at
        table stakes every number from 2 (the loop's ``2 ** (m - 1) - 2``)."""
        n = self.players
        if self.rules.credit:
            return [(n, 0)]
        return [(m, (1 << (m - 1)) - 2) for m in range(2, n + 1)]

    @cached_property
    def equilibrium(self) -> tuple[NDArray[np.float64], ClassArray]:
        """The solved strategy (``guts.solve``) as ``chance[position, history, class]``
        (history: a bit for each earlier position that declared in, one history when
        declaring at once; at table stakes the histories of each number of players dealt
        in, one solution each, from :meth:`_history_offsets`) and per hand (as the loop
        indexes hands) its solver class."""
        from guts.solve.solving import solve_for_play

        n, size = self.players, self.rules.cards
        offsets = self._history_offsets()
        histories = offsets[-1][1] + (1 << (n - 1))
        strategy = np.zeros((n, histories, 0))
        hand_classes = None
        for dealt, offset in offsets:
            solution = solve_for_play(self.rules, dealt)
            hand_classes = solution.classes
            if not strategy.shape[2]:
                strategy = np.zeros((n, histories, len(hand_classes.count)))
            for position in range(dealt):
                played = np.asarray(solution.result.strategy[position], dtype=np.float64)
                rows = offset + np.arange(played.shape[0])
                strategy[position, rows] = played  # one column under No Peek
        assert hand_classes is not None
        solved = np.zeros(52**size, dtype=np.int16)
        for perm in itertools.permutations(range(size)):
            index = np.zeros(len(hand_classes.hands), dtype=np.int64)
            for column in perm:
                index = index * 52 + hand_classes.hands[:, column]
            solved[index] = hand_classes.of_hand
        return strategy, solved


@dataclass(frozen=True)
class Policies:
    """What the loop reads of the seats' bots: ``kinds`` per seat, ``stay[seat, position,
    history, class]``, the class of each hand the tables read, and what a history is:
    0 how many declared in before, 1 which positions did (a bit each), 2 the same after
    an offset for how many players are dealt in (``2 ** (m - 1) - 2``)."""

    kinds: IntArray
    stay: NDArray[np.float64]
    policy_class: ClassArray
    history: int


@lru_cache(maxsize=64)
def run_key(seed: int) -> np.uint64:
    """The stream key of a run with ``seed`` (SeedSequence's first 64-bit word; kept, as
    every batch of a run asks for it)."""
    return np.uint64(np.random.SeedSequence(seed).generate_state(1, np.uint64)[0])


@dataclass(frozen=True)
class Played:
    """What the loop returns for consecutive sessions (arrays of one row per session;
    ``outcomes[s, k]``: the deals of session ``s`` that came to ``OUTCOMES[k]``)."""

    deals: IntArray
    nets: IntArray
    busted: NDArray[np.bool_]
    left: IntArray
    capped: NDArray[np.bool_]
    overflowed: NDArray[np.bool_]
    outcomes: IntArray
    pots: dict[int, int]


@dataclass(frozen=True)
class Trace:
    """Every deal of a few sessions: ``pots[s, d]``, ``outcomes[s, d]`` (indices into
    :data:`~guts.sim.outcomes.OUTCOMES`) and ``stacks[s, d]`` after deal ``d``."""

    played: Played
    pots: IntArray
    outcomes: IntArray
    stacks: IntArray


def run_fast(
    game: FastGame,
    bots: Sequence[str | StayTable],
    *,
    seed: int,
    first: int,
    count: int,
    buy_in: int,
    max_deals: int,
    cut: int | None = None,
    decks: IntArray | None = None,
    trace: bool = False,
) -> Played | Trace:
    """Play sessions ``first`` to ``first + count - 1`` (the last stopped after ``cut``
    deals); with ``decks`` (sessions, deals, :attr:`FastGame.cards_per_deal`) dealt from
    them, with ``trace`` every deal recorded."""
    kernel = game.kernel
    n = game.players
    classes, quantile, pairs, wild = game.tables
    policies = game.policies(bots)
    params = game.params.copy()
    params[kernel.P_HISTORY] = policies.history
    params[kernel.P_MAX_DEALS] = max_deals
    params[kernel.P_BUY_IN] = buy_in
    params[kernel.P_CUT] = -1 if cut is None else cut
    if decks is None:
        decks = np.zeros((0, 0, 0), dtype=np.int64)
    elif decks.shape[:1] != (count,) or decks.shape[1] < max_deals:
        raise OptionError(f"decks: one row per session and deal, not {decks.shape}")
    rows = count if trace else 0
    trace_pots = np.zeros((rows, max_deals if trace else 0), dtype=np.int64)
    trace_outcomes = np.zeros_like(trace_pots)
    trace_stacks = np.zeros((rows, max_deals if trace else 0, n), dtype=np.int64)
    # every row written by the loop: left as they come (zeroing them is another pass)
    deals = np.empty(count, dtype=np.int64)
    nets = np.empty((count, n), dtype=np.int64)
    busted = np.empty((count, n), dtype=np.bool_)
    left = np.empty(count, dtype=np.int64)
    capped = np.empty(count, dtype=np.bool_)
    overflowed = np.empty(count, dtype=np.bool_)
    outcomes = np.empty((count, len(OUTCOMES)), dtype=np.int64)
    pot_counts = np.zeros(kernel.POT_BINS, dtype=np.int64)
    big = np.zeros(1 + max(4096, max_deals), dtype=np.int64)  # a session always fits
    listed: list[int] = []
    key = run_key(seed)
    done = 0
    while done < count:
        big[0] = 0
        sub = count - done
        if cut is not None:
            params[kernel.P_CUT] = cut
        with np.errstate(over="ignore"):  # uncompiled, the random streams wrap as in C
            result = kernel.run_sessions(
                first + done, sub, key, params, classes, policies.policy_class, quantile,
                pairs, wild, policies.kinds, policies.stay,
                decks[done:] if len(decks) else decks,
                deals[done:], nets[done:], busted[done:], left[done:], capped[done:],
                overflowed[done:], outcomes[done:], pot_counts, big,
                trace_pots[done:] if trace else trace_pots,
                trace_outcomes[done:] if trace else trace_outcomes,
                trace_stacks[done:] if trace else trace_stacks,
            )  # fmt: skip
        listed.extend(int(x) for x in big[1 : 1 + big[0]])
        done += result
    found = np.flatnonzero(pot_counts)
    pots = dict(zip(found.tolist(), pot_counts[found].tolist(), strict=True))
    for value in listed:
        pots[value] = pots.get(value, 0) + 1
    played = Played(deals, nets, busted, left, capped, overflowed, outcomes, pots)
    if trace:
        return Trace(played, trace_pots, trace_outcomes, trace_stacks)
    return played


_GAMES: dict[tuple[GutsRules, int], FastGame] = {}


def fast_game(rules: GutsRules, players: int) -> FastGame:
    """The fast game of ``rules`` for ``players`` (kept: its tables take a moment)."""
    key = (rules, players)
    if key not in _GAMES:
        if len(_GAMES) >= 32:
            _GAMES.clear()
        _GAMES[key] = FastGame(rules, players)
    return _GAMES[key]


def fast_batch(
    spec: SimSpec, first: int, count: int, cut: int | None = None
) -> tuple[Summary, IntArray]:
    """Sessions ``first`` to ``first + count - 1`` of ``spec`` on the fast path (the last
    stopped after ``cut`` deals): their summary, and how many deals each lasted."""
    rules = check_fast(spec)
    game = fast_game(rules, spec.players)
    played = run_fast(
        game, spec.seat_bots, seed=spec.seed, first=first, count=count,
        buy_in=spec.buy_in, max_deals=spec.max_deals, cut=cut,
    )  # fmt: skip
    assert isinstance(played, Played)
    summary = Summary.empty(spec.seat_bots)
    summary.add_arrays(
        played.deals, played.nets, played.busted, played.left, played.capped,
        pots=played.pots, outcomes=played.outcomes,
        overflowed=played.overflowed,
    )  # fmt: skip
    return summary, played.deals
