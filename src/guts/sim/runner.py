"""Playing one simulated session on the engine, with a bot in every seat.

A :class:`SimSpec` says what to simulate (the game, its options, the players and their
bots, the buy-in, the seed, the longest session); :func:`play_session` plays session
number ``index`` of it to its end and returns a :class:`SessionResult`: how many deals
it lasted, each seat's net, who went bust, each deal's pot and outcomes. It depends on
nothing but the spec and the index (:mod:`guts.sim.seeding`), so any worker may play it.

>>> spec = SimSpec("two-card-guts", players=3, bots=("threshold", "random"), seed=1)
>>> result = play_session(spec, 0)
>>> sum(result.nets) + result.left, len(result.pots) == result.deals
(0, True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from random import Random
from typing import Any

from guts.catalog import Game, find_game
from guts.errors import GutsError, OptionError
from guts.games.base import Decision, Event, Session
from guts.games.session import MovedEvent
from guts.sim.outcomes import settlements
from guts.sim.seeding import session_rngs

__all__ = ["SessionResult", "SimSpec", "play_session"]

MAX_PLAYERS = 26


@dataclass(frozen=True)
class SimSpec:
    """What to simulate. ``bots`` are cycled over the seats (``("sensible", "random")``
    for four players is sensible, random, sensible, random); ``max_deals`` stops a session
    that has not ended by then (the players stop, and what is left is shared out as the
    game's rules say); ``fast`` plays the sessions on the vectorized Guts path
    (:mod:`guts.sim.vector`: the same game, its own random streams)."""

    preset: str
    players: int = 4
    bots: tuple[str, ...] = ("sensible",)
    options: tuple[tuple[str, str], ...] = ()
    buy_in: int = 100
    seed: int = 0
    max_deals: int = 1000
    fast: bool = False

    @classmethod
    def make(
        cls,
        preset: str,
        *,
        players: int = 4,
        bots: str | Sequence[str] = "sensible",
        options: Mapping[str, str] | None = None,
        buy_in: int = 100,
        seed: int = 0,
        max_deals: int = 1000,
        fast: bool = False,
    ) -> SimSpec:
        """A checked spec; ``bots`` may be comma-separated (``"sensible,threshold"``);
        ``fast``: on the vectorized Guts path (:mod:`guts.sim.vector`), not the engine."""
        kinds = bots.split(",") if isinstance(bots, str) else list(bots)
        spec = cls(
            preset,
            players,
            tuple(kind.strip() for kind in kinds),
            tuple(sorted((options or {}).items())),
            buy_in,
            seed,
            max_deals,
            fast,
        )
        spec.check()
        return spec

    @cached_property
    def game(self) -> Game:
        """The game (an unknown preset is an OptionError naming the games)."""
        return find_game(self.preset)

    @property
    def seat_bots(self) -> tuple[str, ...]:
        """Each seat's bot kind."""
        return tuple(self.bots[seat % len(self.bots)] for seat in range(self.players))

    @property
    def names(self) -> list[str]:
        """The players' names at the table."""
        from guts.play import PlayConfig, seat_names

        return seat_names(PlayConfig(players=self.players, watch=True))

    def check(self) -> None:
        """Raise a GutsError naming the first thing wrong with this spec: the game, the
        numbers, a bot kind the family has not, or options and players the rules refuse
        (found by seating a table once)."""
        from guts.bots import check_bot_kind

        game = self.game
        if not 2 <= self.players <= MAX_PLAYERS:
            raise OptionError(f"--players must be between 2 and {MAX_PLAYERS}, not {self.players}")
        if self.buy_in < 1:
            raise OptionError(f"--buy-in must be at least 1, not {self.buy_in}")
        if self.max_deals < 1:
            raise OptionError(f"--max-deals must be at least 1, not {self.max_deals}")
        if self.seed < 0:
            raise OptionError(f"--seed must not be negative, not {self.seed}")
        if not self.bots or not all(self.bots):
            raise OptionError("--bots needs a bot kind for the seats, e.g. sensible,random")
        for kind in self.bots:
            check_bot_kind(kind, game.family)
        self.new_session(Random(0))

    @cached_property
    def table_stakes(self) -> bool:
        """Whether the game is played at table stakes (a player pays at most its stack,
        so a net lies between minus the buy-in and the others' buy-ins)."""
        return not self.new_session(Random(0)).table.credit

    def new_session(self, rng: Random) -> Session:
        """A new session of this spec's game, dealt from ``rng``."""
        return self.game.new_session(
            self.names, options=dict(self.options), buy_in=self.buy_in, rng=rng
        )


@dataclass(frozen=True)
class SessionResult:
    """One played session: its deals, each seat's net and whether it went bust (its stack
    at no more than zero at the end of a deal), the chips left on the table (in the pot or
    elsewhere off the seats) at the end, whether it was stopped at the spec's ``max_deals``, each
    deal's pot (the most it held before anything was paid out of it) and the outcome of
    each settlement (:mod:`guts.sim.outcomes`)."""

    deals: int
    nets: tuple[int, ...]
    busted: tuple[bool, ...]
    left: int
    capped: bool
    pots: tuple[int, ...]
    outcomes: tuple[str, ...]


def _policies(spec: SimSpec, session: Session) -> list[Any]:
    from guts.bots import RandomPolicy, policy_for

    family = spec.game.family
    # the random bot of guts.bots draws from the rng it is handed (the session's own), so
    # every family's random seats replay from the seed
    return [
        RandomPolicy() if kind == "random" else policy_for(kind, family, session)
        for kind in spec.seat_bots
    ]


def play_session(
    spec: SimSpec,
    index: int,
    cut: int | None = None,
    *,
    on_deal: Callable[[Session], None] | None = None,
) -> SessionResult:
    """Play session ``index`` of ``spec`` to its end, or stop it after ``max_deals``
    deals (or ``cut``, if fewer); ``on_deal`` is shown the session after each deal."""
    deck_rng, bot_rng = session_rngs(spec.seed, index)
    session = spec.new_session(deck_rng)
    policies = _policies(spec, session)
    limit = spec.max_deals if cut is None else min(cut, spec.max_deals)
    family = spec.game.family
    table = session.table
    seats = range(spec.players)
    busted = [False] * spec.players
    pots: list[int] = []
    outcomes: list[str] = []
    deals = 0
    capped = False
    while not session.is_over:
        if deals >= limit:
            session.stop(f"the simulation stopped after {deals} deals")
            capped = deals >= spec.max_deals
            break
        pot = table.pot
        start = len(session.events)
        session.start_deal()
        deals += 1
        _play_deal(session, policies, bot_rng)
        events = session.events[start:]
        pots.append(_pot_at_stake(pot, events))
        outcomes.extend(settlements(family, events))
        for seat in seats:
            if table.stack(seat) <= 0:
                busted[seat] = True
        if on_deal is not None:
            on_deal(session)
    nets = tuple(table.net(seat) for seat in seats)
    left = sum(table.places.values())
    if sum(nets) + left != 0:
        raise GutsError(f"session {index}: chips not conserved: nets {nets}, {left} on the table")
    return SessionResult(deals, nets, tuple(busted), left, capped, tuple(pots), tuple(outcomes))


def _play_deal(session: Session, policies: Sequence[Any], rng: Random) -> None:
    """Play the current deal out: simultaneous decisions are all chosen before any is
    applied, so no choice can depend on another made at the same time."""
    while not session.deal_over and not session.is_over:
        pending = session.pending()
        if not pending:
            raise GutsError("the deal is waiting for no one: it cannot go on")
        now: Sequence[Decision] = (
            [d for d in pending if d.simultaneous] if pending[0].simultaneous else pending[:1]
        )
        choices = [(d.seat, policies[d.seat].choose(session.view(d.seat), d, rng)) for d in now]
        for seat, action in choices:
            session.act(seat, action)


def _pot_at_stake(pot: int, events: Sequence[Event]) -> int:
    """The most the pot held in a deal (starting from ``pot``) before the first chips were
    paid out of it to a seat: the pot the deal was played for."""
    most = pot
    for event in events:
        if not isinstance(event, MovedEvent):
            continue
        if event.source == "pot":
            if isinstance(event.destination, int):
                break
            pot -= event.amount
        elif event.destination == "pot":
            pot += event.amount
            most = max(most, pot)
    return most
