"""Bots for Guts: policies that see only a seat's view and the legal actions.

Each policy has ``choose(view, decision, rng) -> str`` (the :class:`guts.bots.Policy`
protocol), is built from the session's public :class:`GutsRules`, and learns the deal only
from ``view`` (:meth:`GutsSession.view`): its own cards, the face-up and community cards,
the public declarations and the events the seat may see. Neither looks at a session.

**Hand quantile.** ``q`` of a hand is the fraction of all hands of its size (under the
deal's ranking, wild ranks included) that it beats, ties counting half: 0.5 is a median
hand. Under No Peek a seat knows nothing of its cards: ``q = 0.5``.

**ThresholdPolicy.** With ``W`` what winning pays (the pot; half of it in Hi-Lo), ``L``
what losing costs (the pot, capped by max-loss; twice the pot with worst-doubles) and ``m``
the opponents who have not declared out, the expected gain of staying in is about
``w W - (1 - w) L`` where ``w = q ** m`` is the chance of beating ``m`` random hands. So
it stays in when ``q >= X`` with

    X = (L / (W + L)) ** (1 / m)

(two players, pot-sized loss: X = 0.5, the better half of the hands; five players: X ~ 0.84).
Hi-Lo: high when ``q >= X``, low when ``q <= 1 - X``, else out. Pass-left: it passes
its lowest card (wild cards count highest).

**SensiblePolicy.** Estimates the chips each legal action wins by Monte Carlo over the
cards it has not seen: its own unseen and future cards, each live opponent's, the ghost's,
the deck's and the community cards still to come, under the deal's ranking (wild ranks of
one/two low in and wild included). Each opponent is modelled as a threshold player whose
threshold matches how often it has chosen in (high, low) in the session's public
declarations so far, starting from the formula's ``1 - X`` as a prior worth a few
declarations: an opponent yet to declare is in when its sampled hand clears that
threshold (under No Peek: with that probability, whatever it holds), and samples where an
opponent who declared by choice holds a hand that would not have made the choice are
dropped (relaxed step by step if too few are left); automatic declarations (the dealer,
one/two low in and wild) carry no information. Each sample is settled as the engine
settles it (ghost and its ties, lone qualifier, the deck, single loser, worst doubles,
winner takes all, nobody-wins-contested, max loss, the extra ante of a second
declaration, Hi-Lo halves and both-ways; the tests check this against the engine's
showdown functions), and out is charged what the rules charge it (the chicken fee when
everyone would be out, the dropouts' ante). It takes the action with the best mean, out
on a tie.

*Second declaration* (second-declare, high games without community cards to come): at the
first declaration, in is worth, where others stay in, the extra ante less than the
better of out (0: the antes paid are sunk) and in *after seeing the later cards*: for
each sample, the mean settlement of its full hand against the opponents of every sample
with as many opponents in, those opponents declaring again as threshold players on their
full hands (threshold from their second-round habits). Pricing one showdown instead
would ignore the option to drop for just the extra ante. At the second declaration,
opponents still to choose are such threshold players, and those who chose in by choice
condition the samples on their full hands.

Pass-left: it passes the card whose loss leaves the best expected hand (mean quantile
over every card that could arrive from the right).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import import_module
from random import Random
from typing import Any

import numpy as np
from numpy.typing import NDArray

from guts.cards import Card
from guts.errors import OptionError
from guts.games.base import Decision
from guts.games.family import BotKind, random_bot
from guts.games.guts.rules import EveryoneOut, Ghost, GhostTie, GutsRules, Payment, Qualifier
from guts.games.guts.showdown import hi_lo_contests
from guts.games.policy import Policy
from guts.rankings.base import Category, Ranking

__all__ = [
    "BOTS",
    "Quantiles",
    "Seen",
    "SensiblePolicy",
    "ThresholdPolicy",
    "threshold",
]

IntArray = NDArray[np.int64]

_CODE: dict[str, int] = {Card(code).ascii: code for code in range(54)}
_WAYS = ("in", "high", "low", "both")


def threshold(win: float, loss: float, opponents: int) -> float:
    """The quantile X a hand needs to stay in: ``(L / (W + L)) ** (1 / m)``.

    >>> threshold(2, 2, 1), round(threshold(4, 4, 4), 3)
    (0.5, 0.841)
    """
    if loss <= 0:
        return 0.0
    return float((loss / (max(win, 0) + loss)) ** (1 / max(opponents, 1)))


# -- what a seat knows -----------------------------------------------------------------


@dataclass
class Seen:
    """What a seat's view says about the deal in progress, card codes as ints."""

    me: int
    seats: tuple[int, ...]
    pot: int
    hand: list[int] | None
    up: dict[int, list[int]]
    community: list[int]
    wild: tuple[int, ...] = ()
    declarations: dict[int, list[tuple[int, str, bool]]] = field(default_factory=dict)
    passed: tuple[int, int] | None = None  # (to seat, card) this seat passed
    habits: dict[int, dict[str, int]] = field(default_factory=dict)  # seat -> choice -> count
    again_habits: dict[int, dict[str, int]] = field(default_factory=dict)  # second round

    @classmethod
    def of(cls, view: Mapping[str, Any]) -> Seen:
        """Read a :meth:`GutsSession.view` dict."""
        me = int(view["seat"])
        hand = view.get("hand")
        up = {int(s): _codes(cards) for s, cards in dict(view.get("face_up") or {}).items()}
        seen = cls(
            me=me,
            seats=tuple(int(s) for s in view.get("dealt_in") or ()),
            pot=int(view.get("pot", 0)),
            hand=None if hand is None else _codes(hand),
            up=up,
            community=_codes(view.get("community") or ()),
        )
        seen._read_events(view.get("events") or ())
        return seen

    def _read_events(self, events: Sequence[Mapping[str, Any]]) -> None:
        for event in events:
            if event.get("kind") != "declared" or event["automatic"]:
                continue
            book = self.habits if event["round"] == 1 else self.again_habits
            counts = book.setdefault(int(event["seat"]), {})
            counts[str(event["choice"])] = counts.get(str(event["choice"]), 0) + 1
        starts = [i for i, e in enumerate(events) if e.get("kind") == "deal-started"]
        for event in events[starts[-1] if starts else 0 :]:
            kind = event.get("kind")
            if kind == "wild-ranks":
                self.wild = tuple(int(r) for r in event["ranks"])
            elif kind == "declared":
                entry = (int(event.get("round", 1)), str(event["choice"]), bool(event["automatic"]))
                self.declarations.setdefault(int(event["seat"]), []).append(entry)
            elif kind == "passed" and int(event["seat"]) == self.me:
                self.passed = (int(event["to"]), _CODE[str(event["card"])])

    def choice(self, seat: int, round_: int) -> tuple[str, bool] | None:
        """The seat's latest public choice in ``round_`` and whether it was automatic."""
        found = [(c, a) for r, c, a in self.declarations.get(seat, []) if r == round_]
        return found[-1] if found else None

    def opponents(self) -> list[int]:
        """The other seats dealt in, in turn order."""
        return [s for s in self.seats if s != self.me]

    def visible(self) -> set[int]:
        """Every card this seat has seen (its own, face-up, community, the one it passed)."""
        cards = set(self.hand or ()) | set(self.community)
        for codes in self.up.values():
            cards.update(codes)
        if self.passed is not None:
            cards.add(self.passed[1])
        return cards


def _codes(cards: Any) -> list[int]:
    return [_CODE[str(card)] for card in cards or ()]


# -- hand quantiles ----------------------------------------------------------------------


class Quantiles:
    """Hand quantiles per hand size: exact for up to 30,000 hands, else a fixed sample."""

    def __init__(self, rules: GutsRules, samples: int = 20_000) -> None:
        self.rules = rules
        self.samples = samples

    def ranking(self, size: int, wild: tuple[int, ...]) -> Ranking:
        """The ranking of ``size``-card hands with the extra wild ranks."""
        return self.rules.ranking_for(size, wild)

    def table(self, size: int, wild: tuple[int, ...]) -> IntArray:
        """Sorted strengths of every (or a sample of) ``size``-card hand."""
        return _strengths(self.rules, size, wild, self.samples)

    def of(self, strengths: IntArray, size: int, wild: tuple[int, ...]) -> NDArray[np.float64]:
        """Quantiles of hands of ``size`` cards with these strengths."""
        table = self.table(size, wild)
        below = np.searchsorted(table, strengths, side="left")
        upto = np.searchsorted(table, strengths, side="right")
        return np.asarray((below + upto) / (2 * len(table)), dtype=np.float64)

    def hand(self, cards: Sequence[int], wild: tuple[int, ...]) -> float:
        """The quantile of one hand."""
        strength = self.ranking(len(cards), wild).strength_batch(np.array([list(cards)]))
        return float(self.of(strength, len(cards), wild)[0])


@lru_cache(maxsize=256)
def _strengths(rules: GutsRules, size: int, wild: tuple[int, ...], samples: int) -> IntArray:
    """Sorted strengths of every ``size``-card hand under ``rules`` with the extra ``wild``
    ranks, or of ``samples`` of them when there are more than 30,000 (shared by every bot)."""
    ranking = rules.ranking_for(size, wild)
    deck = [card.code for card in ranking.deck.cards]
    if _choose(len(deck), size) <= 30_000:
        hands = np.array(list(itertools.combinations(deck, size)), dtype=np.int64)
    else:
        gen = np.random.default_rng(20_241_201)
        keys = gen.random((samples, len(deck)))
        order = np.argsort(keys, axis=1)[:, :size]
        hands = np.asarray(deck, dtype=np.int64)[order]
    return np.sort(ranking.strength_batch(hands))


def _choose(n: int, k: int) -> int:
    result = 1
    for i in range(k):
        result = result * (n - i) // (i + 1)
    return result


def _stakes(rules: GutsRules, pot: int) -> tuple[float, float]:
    """(what winning pays, what losing costs) at this pot."""
    loss = pot if rules.max_loss is None else min(pot, rules.max_loss)
    if rules.payment is Payment.WORST_DOUBLES:
        loss = 2 * pot if rules.max_loss is None else min(2 * pot, rules.max_loss)
    win = pot / 2 if rules.hi_lo else pot
    return float(win), float(max(loss, 1))


def _is_declaration(decision: Decision) -> bool:
    return "out" in decision.actions and all(a in (*_WAYS, "out") for a in decision.actions)


# -- the threshold bot -----------------------------------------------------------------------


class ThresholdPolicy:
    """Stays in with a hand quantile of at least X (see the module docstring)."""

    def __init__(self, rules: GutsRules) -> None:
        self.rules = rules
        self.quantiles = Quantiles(rules)

    def choose(self, view: Mapping[str, Any], decision: Decision, rng: Random) -> str:
        """The action this policy takes."""
        seen = Seen.of(view)
        if not _is_declaration(decision):
            return _lowest(decision.actions, self.rules, seen.wild)
        live = [s for s in seen.opponents() if not self._out(seen, s)]
        win, loss = _stakes(self.rules, seen.pot)
        x = threshold(win, loss, len(live))
        q = self._quantile(seen)
        actions = decision.actions
        if "in" in actions:
            return "in" if q >= x else "out"
        if q >= max(x, 0.5) and "high" in actions:
            return "high"
        if q <= min(1 - x, 0.5) and "low" in actions:
            return "low"
        return "out"

    @staticmethod
    def _out(seen: Seen, seat: int) -> bool:
        return any(choice == "out" for _, choice, _ in seen.declarations.get(seat, []))

    def _quantile(self, seen: Seen) -> float:
        if seen.hand is None:
            return 0.5
        cards = seen.hand + seen.up.get(seen.me, []) + seen.community
        return self.quantiles.hand(cards, seen.wild)


def _lowest(actions: Sequence[str], rules: GutsRules, wild: tuple[int, ...]) -> str:
    """The lowest card among ``actions`` (card codes); wild cards count highest."""
    wilds = rules.wilds(wild)

    def worth(code: str) -> tuple[int, int]:
        card = Card(_CODE[code])
        if card.is_joker or wilds.is_wild(card):
            return (99, card.code)
        return (int(card.rank or 0), card.code)

    return min(actions, key=worth)


# -- the sensible bot ------------------------------------------------------------------------


@dataclass
class Opponent:
    """How the Monte Carlo treats one live opponent.

    ``way``: its public choice (``in``, ``high``, ``low``, ``both``) or None if it has yet
    to choose; ``informed``: the choice was made knowing the cards (condition on it).
    The opponent is modelled as a threshold player: in (high) with ``q >= high``, low with
    ``q <= low``; ``again``: it has yet to make its second declaration (second-declare),
    where it stays in when the quantile of its full hand is at least ``again_high``.
    """

    seat: int
    way: str | None
    informed: bool
    high: float = 0.5
    low: float = 0.0
    again: bool = False
    again_high: float = 0.5
    again_informed: bool = False


@dataclass
class Samples:
    """Monte Carlo draws: strengths per row (``opponents`` columns follow ``live``)."""

    me: IntArray
    me_own: IntArray
    me_qualifies: NDArray[np.bool_]
    opponents: IntArray
    quantile: NDArray[np.float64]
    final_quantile: NDArray[np.float64]
    ghost: IntArray | None
    deck: IntArray | None
    uniform: NDArray[np.float64]


class SensiblePolicy:
    """Chooses the action with the best Monte Carlo chip estimate (module docstring).

    ``samples``: deals sampled per decision. Each opponent is modelled as a threshold
    player whose threshold matches how often it has chosen in (high, low) so far in the
    session's public declarations, starting from ``1 - X`` (the threshold formula) as a
    prior worth ``prior`` declarations.
    """

    def __init__(self, rules: GutsRules, samples: int = 300, prior: float = 6.0) -> None:
        self.rules = rules
        self.samples = samples
        self.prior = prior
        self.quantiles = Quantiles(rules)

    # -- choosing ----------------------------------------------------------------------

    def choose(self, view: Mapping[str, Any], decision: Decision, rng: Random) -> str:
        """The action this policy takes."""
        seen = Seen.of(view)
        if not _is_declaration(decision):
            if all(a in _CODE for a in decision.actions) and seen.hand:
                return self._pass(seen, decision.actions)
            return rng.choice(decision.actions)
        stage = self._stage(seen)
        live = self._live(seen, stage)
        gen = np.random.default_rng(rng.getrandbits(64))
        samples = self._sample(seen, live, gen)
        ways = self._ways(seen, live, samples)
        keep = self._consistent(live, samples)
        values = {
            action: self._value(action, seen, stage, live, samples, ways, keep)
            for action in decision.actions
        }
        return max(decision.actions, key=lambda a: (values[a], a == "out"))

    def _stage(self, seen: Seen) -> str:
        """``first`` declaration, ``challenge`` (dealer option) or ``again`` (second)."""
        mine = seen.choice(seen.me, 1)
        if mine is not None and mine[0] == "out" and self.rules.dealer_option:
            return "challenge"
        if mine is not None and mine[0] != "out" and self.rules.second_declare:
            return "again"
        return "first"

    def _live(self, seen: Seen, stage: str) -> list[Opponent]:
        """The opponents who are (or may still be) in, with their thresholds."""
        live = self._live_seats(seen, stage)
        win, loss = _stakes(self.rules, seen.pot)
        x = threshold(win, loss, len(seen.seats) - 1)
        start = min(1 - x, 0.5) if self.rules.hi_lo else 1 - x
        for opponent in live:
            counts = seen.habits.get(opponent.seat, {})
            if self.rules.hi_lo:
                opponent.high = 1 - self._rate(counts, start, "high", "both")
                opponent.low = self._rate(counts, start, "low", "both")
            else:
                opponent.high = 1 - self._rate(counts, start, "in")
            again = seen.again_habits.get(opponent.seat, {})
            opponent.again_high = 1 - self._rate(again, start, "in", "high", "low", "both")
        return live

    def _rate(self, counts: Mapping[str, int], start: float, *choices: str) -> float:
        """How often a seat chose one of ``choices``, with ``start`` as the prior."""
        chosen = sum(counts.get(choice, 0) for choice in choices)
        return (chosen + self.prior * start) / (sum(counts.values()) + self.prior)

    def _live_seats(self, seen: Seen, stage: str) -> list[Opponent]:
        live = []
        for seat in seen.opponents():
            first = seen.choice(seat, 1)
            if stage == "first":
                if first is None:
                    live.append(Opponent(seat, None, False))
                elif first[0] != "out":
                    live.append(Opponent(seat, first[0], not first[1]))
                continue
            second = seen.choice(seat, 2)
            if stage == "challenge":
                dealer = seat == seen.seats[-1]
                if dealer and first is not None:
                    live.append(Opponent(seat, "in", not first[1]))
                elif second is None:
                    live.append(Opponent(seat, None, False))
                elif second[0] != "out":
                    live.append(Opponent(seat, second[0], True))
            elif first is not None and first[0] != "out" and (second is None or second[0] != "out"):
                way = first[0] if second is None else second[0]
                informed = second is not None and not second[1]
                opponent = Opponent(seat, way, not first[1], again=second is None)
                opponent.again_informed = informed
                live.append(opponent)
        return live

    # -- sampling ------------------------------------------------------------------------

    def _sample(self, seen: Seen, live: list[Opponent], gen: np.random.Generator) -> Samples:
        rules, n = self.rules, self.samples
        deck = [c.code for c in rules.hand_ranking.deck.cards]
        unseen = np.array([c for c in deck if c not in seen.visible()], dtype=np.int64)
        rows = unseen[np.argsort(gen.random((n, len(unseen))), axis=1)]
        pos = 0

        def draw(k: int) -> IntArray:
            nonlocal pos
            k = max(k, 0)
            block = rows[:, pos : pos + k]
            pos += k
            return block

        def known(codes: Sequence[int]) -> IntArray:
            return np.tile(np.asarray(codes, dtype=np.int64).reshape(1, -1), (n, 1))

        low = 1 if rules.low_in_wild else 0
        pre = rules.cards - (1 if rules.partial_hands else 0)
        post = rules.own_final_size - pre

        def hand(pre_known: list[int], post_known: list[int]) -> tuple[IntArray, IntArray]:
            first = np.hstack([known(pre_known), draw(pre - len(pre_known))])
            later = np.hstack([known(post_known), draw(post - len(post_known))])
            return first, later

        mine = seen.hand or []
        my_up = seen.up.get(seen.me, [])
        my_first, my_later = hand(
            mine[: rules.down_cards] + my_up[:low], mine[rules.down_cards :] + my_up[low:]
        )
        their_first, their_later = [], []
        for opponent in live:
            up = seen.up.get(opponent.seat, [])
            given = [seen.passed[1]] if seen.passed and seen.passed[0] == opponent.seat else []
            first, later = hand(up[:low] + given, up[low:])
            their_first.append(first)
            their_later.append(later)
        batey = 1 if rules.batey else 0
        board = np.hstack(
            [known(seen.community), draw(rules.community + batey - len(seen.community))]
        )
        ghost = draw(rules.own_final_size) if rules.ghost in (Ghost.ALWAYS, Ghost.LONE) else None
        deck_cards = draw(pre) if rules.ghost is Ghost.DECK else None
        final = self.quantiles.ranking(rules.final_size, seen.wild)
        own = self.quantiles.ranking(pre, seen.wild)
        me_final = np.hstack([my_first, my_later, board])
        strengths = [
            final.strength_batch(np.hstack([f, later, board]))
            for f, later in zip(their_first, their_later, strict=True)
        ]
        quantile = [
            self.quantiles.of(
                self.quantiles.ranking(pre + batey, seen.wild).strength_batch(
                    np.hstack([f, board[:, :batey]])
                ),
                pre + batey,
                seen.wild,
            )
            for f in their_first
        ]
        final_quantile = [self.quantiles.of(s, rules.final_size, seen.wild) for s in strengths]
        return Samples(
            me=final.strength_batch(me_final),
            me_own=own.strength_batch(my_first),
            me_qualifies=(
                _pair_or_better(final, me_final)
                if rules.lone_qualifier is Qualifier.PAIR
                else np.ones(n, dtype=bool)
            ),
            opponents=np.stack(strengths, axis=1) if live else np.zeros((n, 0), np.int64),
            quantile=np.stack(quantile, axis=1) if live else np.zeros((n, 0)),
            final_quantile=np.stack(final_quantile, axis=1) if live else np.zeros((n, 0)),
            ghost=None if ghost is None else final.strength_batch(np.hstack([ghost, board])),
            deck=None if deck_cards is None else own.strength_batch(deck_cards),
            uniform=gen.random((n, max(len(live), 1))),
        )

    def _ways(self, seen: Seen, live: list[Opponent], samples: Samples) -> list[list[str]]:
        """Per opponent and row: the way it plays (``out`` if it drops)."""
        ways: list[list[str]] = []
        for column, opponent in enumerate(live):
            if opponent.again:
                q = samples.final_quantile[:, column]
                way = opponent.way or "in"
                ways.append([way if v >= opponent.again_high else "out" for v in q.tolist()])
                continue
            if opponent.way is not None:
                ways.append([opponent.way] * self.samples)
                continue
            q = samples.quantile[:, column]
            if self.rules.no_peek:
                q = samples.uniform[:, column]
            high, low = opponent.high, opponent.low
            if self.rules.hi_lo:
                ways.append(
                    ["high" if v >= high else "low" if v <= low else "out" for v in q.tolist()]
                )
            else:
                ways.append(["in" if v >= high else "out" for v in q.tolist()])
        return ways

    def _consistent(self, live: list[Opponent], samples: Samples) -> NDArray[np.bool_]:
        """Rows where every informed choice fits the opponent's thresholds (relaxed step
        by step until enough rows fit)."""
        keep = np.ones(self.samples, dtype=bool)
        if self.rules.no_peek:
            return keep
        for factor in (1.0, 0.6, 0.3, 0.0):
            keep = np.ones(self.samples, dtype=bool)
            for column, opponent in enumerate(live):
                if not opponent.informed or opponent.way == "both":
                    continue
                q = samples.quantile[:, column]
                if opponent.way == "low":
                    keep &= q <= 1 - factor * (1 - opponent.low)
                else:
                    keep &= q >= factor * opponent.high
                if opponent.again_informed and not self.rules.hi_lo:
                    keep &= samples.final_quantile[:, column] >= factor * opponent.again_high
            if keep.sum() >= max(20, self.samples // 10):
                return keep
        return keep

    # -- valuing -------------------------------------------------------------------------

    def _value(
        self,
        action: str,
        seen: Seen,
        stage: str,
        live: list[Opponent],
        samples: Samples,
        ways: list[list[str]],
        keep: NDArray[np.bool_],
    ) -> float:
        """The mean chips ``action`` wins over the rows kept."""
        rows = np.flatnonzero(keep)
        playing = np.array([[w != "out" for w in column] for column in ways], dtype=bool)
        playing = playing.T[rows] if live else np.zeros((len(rows), 0), dtype=bool)
        if action == "out":
            return self._out_value(stage, playing)
        if not self.rules.hi_lo:
            if stage == "first" and self._declares_again():
                return self._again_value(seen, live, samples, rows, playing)
            return self._in_value(seen, stage, samples, rows, playing)
        if all(opponent.way != "both" for opponent in live):
            return self._hi_lo_fast(action, seen.pot, samples, rows, ways)
        me = samples.me[rows].tolist()
        them = samples.opponents[rows].tolist()
        ghost = None if samples.ghost is None else samples.ghost[rows].tolist()
        total = 0.0
        for i, row in enumerate(rows.tolist()):
            ins = [c for c in range(len(live)) if playing[i, c]]
            strengths = {c + 1: them[i][c] for c in ins}
            choices = {c + 1: ways[c][row] for c in ins}
            g = None if ghost is None else ghost[i]
            total += self._hi_lo_value(seen.pot, action, me[i], strengths, choices, g)
        return total / max(len(rows), 1)

    def _out_value(self, stage: str, playing: NDArray[np.bool_]) -> float:
        """Out costs nothing, but the chicken fee when all are out, or the dropouts' ante."""
        rules = self.rules
        if stage != "first" or not len(playing):
            return 0.0
        count = playing.sum(axis=1)
        value = 0.0
        if rules.everyone_out is EveryoneOut.CHICKEN_FEE and not rules.auto_in:
            value -= rules.ante * float(np.mean(count == 0))
        if rules.dropouts_ante:
            least = 1 if rules.ghost is Ghost.ALWAYS else 2
            value -= rules.ante * float(np.mean(count >= least))
        return value

    def _in_value(
        self,
        seen: Seen,
        stage: str,
        samples: Samples,
        rows: IntArray,
        playing: NDArray[np.bool_],
    ) -> float:
        """The mean chips staying in wins, settled as the engine settles a high showdown."""
        rules = self.rules
        if not len(rows):
            return 0.0
        me = samples.me[rows]
        count = playing.sum(axis=1)
        pot = np.full(len(rows), float(seen.pot))
        cost = 0.0
        if stage == "first" and rules.second_declare:
            pot += rules.ante * (count + 1)
            cost = float(rules.ante)
        ghost = None if samples.ghost is None else samples.ghost[rows]
        contested = self._contested(me, samples.opponents[rows], playing, ghost, pot)
        alone = self._alone_value(samples, rows, me, pot, self._loss_of(pot))
        gains = np.where(count == 0, alone, contested)
        return float(gains.mean()) - cost

    def _declares_again(self) -> bool:
        """Whether the first declaration is followed by a second one that
        :meth:`_again_value` can price (own cards only: no community cards to come)."""
        return self.rules.second_declare and not self.rules.community

    def _again_value(
        self,
        seen: Seen,
        live: list[Opponent],
        samples: Samples,
        rows: IntArray,
        playing: NDArray[np.bool_],
    ) -> float:
        """The mean chips staying in at the first declaration wins when a second one
        follows: alone, the lone player's settlement; else minus the extra ante, plus
        the better of out (0) and in, valued once this seat has seen its later cards.

        The value of in after the later cards of row ``i`` is the mean showdown gain of
        row ``i``'s full hand against the opponents of every kept row with as many
        opponents in (clashes between row ``i``'s later cards and another row's hands are
        ignored); opponents who are in declare again as threshold players on their full
        hands (``again_high``). Out at the second declaration counts 0 (also when everyone
        drops there).
        """
        rules = self.rules
        if not len(rows):
            return 0.0
        count = playing.sum(axis=1)
        final_q = samples.final_quantile[rows]
        highs = np.array([o.again_high for o in live], dtype=np.float64)
        again = np.asarray(playing & (final_q >= highs[None, :]), dtype=bool)
        pot = float(seen.pot) + rules.ante * (count + 1.0)
        me = samples.me[rows]
        alone = self._alone_value(samples, rows, me, pot, self._loss_of(pot))
        gains = alone - rules.ante
        for k in np.unique(count[count > 0]).tolist():
            group = np.flatnonzero(count == k)
            later = self._later_value(samples, rows[group], again[group], float(pot[group[0]]))
            gains[group] = np.maximum(later, 0.0) - rules.ante
        return float(gains.mean())

    def _later_value(
        self, samples: Samples, rows: IntArray, again: NDArray[np.bool_], pot: float
    ) -> NDArray[np.float64]:
        """Per row: the mean gain of its full hand, in at the second declaration, against
        the opponents of every row given (``again``: who stays in there)."""
        n = len(rows)
        mine, theirs = np.repeat(np.arange(n), n), np.tile(np.arange(n), n)
        me = samples.me[rows]
        pots = np.full(n * n, pot)
        ghost = None if samples.ghost is None else samples.ghost[rows][theirs]
        cross = self._contested(
            me[mine], samples.opponents[rows][theirs], again[theirs], ghost, pots
        ).reshape(n, n)
        alone = self._alone_value(samples, rows, me, pots[:n], self._loss_of(pots[:n]))
        nobody = ~np.asarray(again.any(axis=1), dtype=bool)
        cross = np.where(nobody[None, :], alone[:, None], cross)
        return np.asarray(cross.mean(axis=1), dtype=np.float64)

    def _contested(
        self,
        me: IntArray,
        them: IntArray,
        playing: NDArray[np.bool_],
        ghost: IntArray | None,
        pot: NDArray[np.float64],
    ) -> NDArray[np.float64]:
        """Per row: the chips this seat wins at a high showdown with ``playing`` in."""
        rules = self.rules
        loss = self._loss_of(pot)
        low = np.iinfo(np.int64).min
        high = np.iinfo(np.int64).max
        best = np.where(playing, them, low).max(axis=1, initial=low)
        worst = np.where(playing, them, high).min(axis=1, initial=high)
        ties = (playing & (them == me[:, None])).sum(axis=1)
        top = np.maximum(me, best)
        ghost_won = np.zeros(len(me), dtype=bool)
        pushed = np.zeros(len(me), dtype=bool)
        if rules.ghost is Ghost.ALWAYS and ghost is not None:
            ghost_won = (ghost > top) | ((ghost == top) & (rules.ghost_ties is GhostTie.GHOST_WINS))
            pushed = (ghost == top) & (rules.ghost_ties is GhostTie.PUSH)
        winner = (me >= best) & ~ghost_won & ~pushed
        if rules.payment is Payment.MATCH:
            paying = (playing & (them < me[:, None])).sum(axis=1)
            pays = ~winner & ~((me >= best) & pushed)
        else:
            paying = (playing & (them == worst[:, None]) & (worst[:, None] < me[:, None])).sum(
                axis=1
            )
            pays = ~winner & (me <= worst) & ~((me >= best) & pushed)
        share = pot / (1 + ties)
        if rules.winner_takes_all:
            share = share + loss * paying / (1 + ties)
        if rules.nobody_wins_contested:
            share = share * 0
        return np.asarray(np.where(winner, share, 0.0) - np.where(pays, loss, 0.0))

    def _alone_value(
        self,
        samples: Samples,
        rows: IntArray,
        me: IntArray,
        pot: NDArray[np.float64],
        loss: NDArray[np.float64],
    ) -> NDArray[np.float64]:
        """Chips won when no opponent is in: the pot, unless the ghost, the deck or the
        lone qualifier say otherwise."""
        rules = self.rules
        against: IntArray | None = None
        if rules.ghost is Ghost.DECK and samples.deck is not None:
            me, against = samples.me_own[rows], samples.deck[rows]
        elif rules.ghost in (Ghost.ALWAYS, Ghost.LONE) and samples.ghost is not None:
            against = samples.ghost[rows]
        if against is None:
            stake = pot if rules.max_loss is None else np.minimum(pot, rules.max_loss)
            return np.where(samples.me_qualifies[rows], pot, -stake)  # matches, never doubles
        ties = rules.ghost_ties
        win = (me > against) | ((me == against) & (ties is GhostTie.PLAYERS_WIN))
        lose = (me < against) | ((me == against) & (ties is GhostTie.GHOST_WINS))
        return np.where(win, pot, 0.0) - np.where(lose, loss, 0.0)

    def _loss_of(self, pot: NDArray[np.float64]) -> NDArray[np.float64]:
        rules = self.rules
        loss = 2 * pot if rules.payment is Payment.WORST_DOUBLES else pot
        return loss if rules.max_loss is None else np.minimum(loss, rules.max_loss)

    def _loss(self, pot: float) -> float:
        rules = self.rules
        loss = 2 * pot if rules.payment is Payment.WORST_DOUBLES else pot
        return loss if rules.max_loss is None else min(loss, rules.max_loss)

    def _hi_lo_fast(
        self, action: str, pot: int, samples: Samples, rows: IntArray, ways: list[list[str]]
    ) -> float:
        """:meth:`_hi_lo_value` for every row at once, when no opponent goes both ways."""
        if not len(rows):
            return 0.0
        chosen = np.array(ways, dtype=object).T[rows] if ways else np.zeros((len(rows), 0))
        high_in = np.asarray(chosen == "high", dtype=bool)
        low_in = np.asarray(chosen == "low", dtype=bool)
        me, them = samples.me[rows], samples.opponents[rows]
        ghost = None if samples.ghost is None else samples.ghost[rows]
        loss = self._loss(float(pot))
        high_share = np.where(low_in.any(axis=1) | (action == "both"), pot - pot // 2, pot)
        low_share = np.where(high_in.any(axis=1) | (action == "both"), pot // 2, pot)
        if action == "high":
            won, lost, ties = self._way(me, them, high_in, ghost)
            return float(np.mean(np.where(won, high_share / ties, 0.0) - np.where(lost, loss, 0)))
        neg_ghost = None if ghost is None else -ghost
        low_won, low_lost, low_ties = self._way(-me, -them, low_in, neg_ghost)
        if action == "low":
            gain = np.where(low_won, low_share / low_ties, 0.0) - np.where(low_lost, loss, 0)
            return float(np.mean(gain))
        won, _, ties = self._way(me, them, high_in, ghost)
        both = won & low_won
        gain = np.where(both, high_share / ties + low_share / low_ties, -loss)
        return float(np.mean(gain))

    def _way(
        self, me: IntArray, them: IntArray, going: NDArray[np.bool_], ghost: IntArray | None
    ) -> tuple[NDArray[np.bool_], NDArray[np.bool_], IntArray]:
        """One way of a Hi-Lo showdown with this seat in: (wins or ties for it, pays,
        how many share it), bigger strengths better (negate them for low)."""
        rules = self.rules
        low = np.iinfo(np.int64).min
        best = np.where(going, them, low).max(axis=1, initial=low)
        ties = 1 + (going & (them == me[:, None])).sum(axis=1)
        top = np.maximum(me, best)
        ghost_won = np.zeros(len(me), dtype=bool)
        pushed = np.zeros(len(me), dtype=bool)
        if ghost is not None:
            alone = ~going.any(axis=1)
            here = alone if rules.ghost is Ghost.LONE else np.ones(len(me), dtype=bool)
            ghost_won = here & (
                (ghost > top) | ((ghost == top) & (rules.ghost_ties is GhostTie.GHOST_WINS))
            )
            pushed = here & (ghost == top) & (rules.ghost_ties is GhostTie.PUSH)
        on_top = me >= best
        won = on_top & ~ghost_won & ~pushed
        lost = ~won & ~(on_top & pushed)
        return won, lost, ties

    def _hi_lo_value(
        self,
        pot: int,
        action: str,
        mine: int,
        strengths: dict[int, int],
        choices: dict[int, str],
        ghost: int | None,
    ) -> float:
        rules = self.rules
        result = hi_lo_contests(
            {0: action, **choices},
            {0: mine, **strengths},
            ghost,
            rules.ghost is Ghost.LONE,
            rules.ghost_ties,
        )
        halves = [c for c in (result.high, result.low) if c is not None]
        shares = [pot - pot // 2, pot // 2] if len(halves) == 2 else [pot] * len(halves)
        gain, won, lost = 0.0, False, False
        for half, share in zip(halves, shares, strict=False):
            if 0 in half.winners:
                gain += share / len(half.winners)
                won = True
            lost = lost or 0 in half.losers
        if 0 in result.failed or (lost and not won):
            gain -= self._loss(pot)
        return gain

    # -- passing -------------------------------------------------------------------------

    def _pass(self, seen: Seen, actions: Sequence[str]) -> str:
        rules = self.rules
        hand = seen.hand or []
        batey = seen.community[:1] if rules.batey else []
        up = seen.up.get(seen.me, [])[: 1 if rules.low_in_wild else 0]
        unseen = [c.code for c in rules.hand_ranking.deck.cards if c.code not in seen.visible()]
        size = len(hand) + len(up) + len(batey)
        best: tuple[float, str] | None = None
        for action in sorted(actions):
            keep = [c for c in hand if c != _CODE[action]] + up + batey
            rows = np.array([[*keep, card] for card in unseen], dtype=np.int64)
            ranking = self.quantiles.ranking(size, seen.wild)
            value = float(self.quantiles.of(ranking.strength_batch(rows), size, seen.wild).mean())
            if best is None or value > best[0]:
                best = (value, action)
        assert best is not None
        return best[1]


def _pair_or_better(ranking: Ranking, hands: IntArray) -> NDArray[np.bool_]:
    """Per row: a pair or better (the lone qualifier)."""
    order = ranking.categories()
    if Category.PAIR not in order:
        return np.zeros(len(hands), dtype=bool)
    return np.asarray(ranking.category_batch(hands) <= order.index(Category.PAIR))


# -- the family's bot kinds -------------------------------------------------------------------


def _rules(kind: str, rules: Any) -> GutsRules:
    if not isinstance(rules, GutsRules):
        raise OptionError(f"{kind} Guts bots need the session's GutsRules, not {rules!r}")
    return rules


def _threshold(rules: Any, seats: int | None) -> Policy:
    return ThresholdPolicy(_rules("threshold", rules))


def _sensible(rules: Any, seats: int | None) -> Policy:
    return SensiblePolicy(_rules("sensible", rules))


def _equilibrium(rules: Any, seats: int | None) -> Policy:
    """The solver's bot (:mod:`guts.solve.bot`), for ``seats`` players when known. The
    solver sits above the engine and reads the catalog, so it is found by name when a
    bot is built, not imported here."""
    policy: Policy = import_module("guts.solve.bot").EquilibriumPolicy(
        _rules("equilibrium", rules), seats
    )
    return policy


def _solvable(rules: Any) -> str:
    """Why ``guts solve`` cannot solve ``rules`` ('' if it can)."""
    from guts.solve.model import out_of_reach

    if not isinstance(rules, GutsRules):
        return "not a Guts game"
    return out_of_reach(rules)


BOTS: dict[str, BotKind] = {
    "random": random_bot,
    "threshold": BotKind(
        "stays in with a hand quantile of at least (L / (W + L)) ** (1 / m)", _threshold
    ),
    "sensible": BotKind("plays each variant's rules with a Monte Carlo estimate", _sensible),
    "equilibrium": BotKind(
        "plays the equilibrium that guts solve finds (solved once per number of players, "
        "then cached)",
        _equilibrium,
        _solvable,
        "rules guts solve can solve",
    ),
}
"""The Guts family's bot kinds (:attr:`guts.games.family.Family.bots`)."""
