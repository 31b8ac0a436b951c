"""Bots for the staged games: policies that see only a seat's view.

A bot's ``choose(view)`` returns one of the seat's actions (``view["pending"]``).
:class:`RandomBot` picks uniformly. :class:`SensibleBot` plays every staged game the
same way: it ranks its hand against random hands of the stage (a cached sample, so a
percentile), stays in with a good one (a better one when others are already in), always
takes a free point when it declares last in turn and everyone before it is out, and picks
in-turn when it is the dealer's choice (the dealer then declares last).

>>> import random
>>> from guts.games.staged.presets import new_session
>>> session = new_session("nuts", ["Ann", "Bob", "Cy"], rng=random.Random(4),
...                       options={"max-deals": "5"})
>>> play_session(session, [SensibleBot(), RandomBot(random.Random(1)), RandomBot()])
>>> session.is_over, session.table.pot + sum(s.stack for s in session.table.seats)
(True, 0)
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence
from functools import cache
from random import Random
from typing import Any

from guts.cards import Card, DeckKind, deck_cards, parse_cards
from guts.errors import OptionError
from guts.games.family import BotKind
from guts.games.policy import RandomBot, ViewBot, ViewOnly
from guts.games.staged.deal import MODES
from guts.games.staged.rules import StagedRules
from guts.games.staged.session import StagedSession
from guts.rankings.base import Ranking

__all__ = ["BOTS", "RandomBot", "SensibleBot", "make_bot", "percentile", "play_session"]


class SensibleBot:
    """Stays in with hands at the ``threshold`` percentile or better (see the module);
    each player already in this stage adds ``step`` to the threshold (defaults 0.7 and
    0.1). In Toh it goes in when its chance to beat the expected challengers is at least
    ``threshold`` (default one half)."""

    def __init__(self, threshold: float | None = None, step: float | None = None) -> None:
        self.threshold = threshold
        self.step = step

    def choose(self, view: Mapping[str, Any]) -> str:
        """The action this policy takes."""
        actions = tuple(view["pending"][0]["actions"])
        if set(actions) == set(MODES):
            return "in-turn"
        if "in" not in actions:
            return str(actions[0])
        rules = _rules(tuple(sorted(view["rules"].items())))
        ranking = rules.stages()[int(view["stage"]["number"]) - 1].ranking
        rank = percentile(ranking, parse_cards(view["hand"]))
        if rules.is_toh:
            return self._toh(view, rank)
        declared: dict[str, str] = view["declared"]
        ins = sum(1 for choice in declared.values() if choice == "in")
        if not view["simultaneous"] and ins == 0 and len(declared) == len(view["dealt_in"]) - 1:
            return "in"  # last to declare and everyone else out: a free point
        threshold = 0.7 if self.threshold is None else self.threshold
        step = 0.1 if self.step is None else self.step
        needed = min(0.97, threshold + step * ins)
        return "in" if rank >= needed else "out"

    def _toh(self, view: Mapping[str, Any], rank: float) -> str:
        """In when the card should beat the expected challengers (half of those yet to
        speak, and in a second chance the dealer): a contested win earns only a point,
        a loss matches the pot."""
        declared: dict[str, str] = view["declared"]
        seats = len(view["dealt_in"])
        if view["phase"] == "second-chance":
            opponents = 1.0
        else:
            ins = sum(1 for choice in declared.values() if choice == "in")
            later = seats - len(declared) - 1
            dealer = view["seat"] == view["dealer"]
            opponents = ins + 0.5 * (later if not (dealer and ins == 0) else seats - 1)
        needed = 0.5 if self.threshold is None else self.threshold
        return "in" if rank**opponents >= needed else "out"


def percentile(ranking: Ranking, hand: Sequence[Card]) -> float:
    """The share of random hands of the same size that ``hand`` beats or ties (from a
    fixed sample of 400 hands, so it is deterministic)."""
    sample = _sample(ranking, len(hand))
    return bisect_left(sample, ranking.strength(hand) + 1) / len(sample)


@cache
def _rules(options: tuple[tuple[str, str], ...]) -> StagedRules:
    return StagedRules.from_options(None, dict(options))


@cache
def _sample(ranking: Ranking, size: int) -> tuple[int, ...]:
    rng = Random(size)
    pack = list(deck_cards(DeckKind.STANDARD))
    return tuple(sorted(ranking.strength(rng.sample(pack, size)) for _ in range(400)))


def make_bot(kind: str, rules: StagedRules | None = None) -> ViewBot:
    """A bot of ``kind`` (random or sensible) for the terminal table."""
    if kind == "random":
        return RandomBot()
    if kind == "sensible":
        return SensibleBot()
    raise OptionError(f"unknown staged-game bot {kind!r}: random or sensible")


def play_session(
    session: StagedSession,
    bots: Sequence[ViewBot] | Mapping[int, ViewBot],
    deals: int | None = None,
) -> None:
    """Play ``session`` to its end with a bot in each seat; with ``deals``, stop after that
    many deals (sharing out the pot)."""
    session.play_out(lambda d: bots[d.seat].choose(session.view(d.seat)), deals)
    if session.table.pot:
        session.stop("the deal limit left chips in the pot")


BOTS: dict[str, BotKind] = {
    "random": BotKind("any legal action, uniformly at random (every game)",
                      lambda rules, seats: ViewOnly(make_bot("random", rules))),
    "sensible": BotKind("stays in with a hand that beats enough of the hands it could face",
                        lambda rules, seats: ViewOnly(make_bot("sensible", rules))),
}  # fmt: skip
"""The staged family's bot kinds (:attr:`guts.games.family.Family.bots`)."""
