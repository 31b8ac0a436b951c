"""One episode of a preset for the research adapters: a session from reset to its end.

An :class:`Episode` owns a session of one preset, starts each deal by itself, stops the
session at the deal cap, and makes sure that when it ends no chips are left in the pot
(what the rules leave there is shared out the way the family's ``stop`` shares it, and
Bourré is played with ``end-pot=split``), so that each seat's chip changes over an
episode sum to zero. It imports no research library.

>>> from random import Random
>>> episode = Episode("two-card-guts", 3, max_deals=4)
>>> episode.start(Random(1))
>>> seat = episode.to_act
>>> deltas = episode.act(seat, int(episode.mask(seat).argmax()))
>>> len(deltas), episode.layout.names
(3, ('in', 'out', 'high', 'low', 'both'))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import suppress
from random import Random
from typing import Any

import numpy as np
import numpy.typing as npt

from guts.catalog import family_of, find_game
from guts.envs.encoding import Encoder, Layout
from guts.errors import GutsError, IllegalAction, OptionError
from guts.games.base import Decision
from guts.games.session import RecordedSession

__all__ = [
    "DEAL_CAP",
    "Episode",
    "check_render_mode",
    "episode_options",
    "no_choice",
    "seat_names",
]

_TRIES = 100

DEAL_CAP = "the episode's deal cap was reached"
"""Why a session stopped at the deal cap."""


def seat_names(players: int | Sequence[str]) -> list[str]:
    """The players' names: ``player_0`` ... for a count, or the names given."""
    if isinstance(players, bool):
        raise OptionError(f"players: a count or names, not {players}")
    if isinstance(players, int):
        if players < 2:
            raise OptionError(f"players: at least 2, not {players}")
        return [f"player_{i}" for i in range(players)]
    names = [str(name) for name in players]
    if len(set(names)) != len(names) or len(names) < 2:
        raise OptionError(f"players: at least two different names, not {names}")
    return names


def episode_options(family: str, options: Mapping[str, str] | None) -> dict[str, str]:
    """The options with what an episode needs: a session that shares the pot out when it
    stops (the family's ``end_option``, as Bourré's end-pot=split)."""
    chosen = {str(k): str(v) for k, v in (options or {}).items()}
    end = family_of(family).end_option
    if end is not None:
        option, value = end
        key = next((k for k in chosen if k.strip().lower().replace("_", "-") == option),
                   option)  # fmt: skip
        if chosen.get(key, value) != value:
            raise OptionError(f"{option}: an episode ends with the pot shared out: use {value}")
        chosen[key] = value
    return chosen


def check_render_mode(mode: str | None, modes: Sequence[str]) -> str | None:
    """``mode`` if an environment offers it (None: no rendering); OptionError if not."""
    if mode is not None and mode not in modes:
        raise OptionError(f"render_mode: one of {', '.join(modes)} or None, not {mode!r}")
    return mode


def no_choice(preset: str, rules: object, players: int) -> str:
    """Why ``rules`` leave ``players`` players nothing ever to decide ('' if they leave
    a choice): with at least as many low-in-wild ranks as players, every player holds one
    of them, so everyone is in every deal."""
    forced = int(getattr(rules, "low_in_wild", 0))
    if forced and players <= forced:
        return (
            f"{preset} for {players} players: the {forced} lowest face-up ranks are in and "
            f"wild, so every player is in every deal and nobody ever decides anything: "
            f"play it with at least {forced + 1} players"
        )
    return ""


class Episode:
    """Sessions of ``preset`` for ``players`` (a count or names) with ``options``, each
    bought in for ``buy_in``; an episode stops after ``max_deals`` deals (None: when the
    session ends by its rules)."""

    def __init__(
        self,
        preset: str,
        players: int | Sequence[str] = 4,
        options: Mapping[str, str] | None = None,
        *,
        buy_in: int = 100,
        max_deals: int | None = 10,
    ) -> None:
        self.game = find_game(preset)
        self.names = seat_names(players)
        if max_deals is not None and (isinstance(max_deals, bool) or max_deals < 1):
            raise OptionError(f"max_deals: at least 1 deal or None, not {max_deals!r}")
        if buy_in < 1:
            raise OptionError(f"buy_in: at least 1 chip, not {buy_in}")
        self.buy_in = buy_in
        self.options = episode_options(self.game.family, options)
        self.rules = self.game.rules(self.options)
        self._new_session(Random(0))  # the family refuses a count of players it cannot seat
        why = no_choice(preset, self.rules, len(self.names))
        if why:
            raise OptionError(why)
        self.max_deals = max_deals
        self.layout = Layout.for_rules(self.game.family, self.rules, len(self.names))
        self.encoder = Encoder(self.layout, buy_in * len(self.names), max_deals)
        self._session: RecordedSession[Any, Any] | None = None
        self._reported: list[int] = []
        self.truncated = False

    def _new_session(self, rng: Random) -> RecordedSession[Any, Any]:
        """A session of these rules (built once, so what they compute is kept)."""
        session: RecordedSession[Any, Any] = self.game.games_family.session_class(
            self.rules, self.names, buy_in=self.buy_in, rng=rng
        )
        return session

    @property
    def session(self) -> RecordedSession[Any, Any]:
        """The session of this episode (after :meth:`start`)."""
        if self._session is None:
            raise GutsError("the episode has not started: call start (reset) first")
        return self._session

    @property
    def family(self) -> str:
        """The preset's game family."""
        return self.game.family

    def start(self, rng: Random) -> None:
        """A new session, shuffled by ``rng``, up to the first decision. A session that
        ends before anyone decides anything (two players both forced in by a low-in-wild
        card, say) is no episode: another one is dealt from the same ``rng``."""
        for _ in range(_TRIES):
            self._session = self._new_session(rng)
            self.truncated = False
            self._reported = self.stacks()  # the buy-ins: the first antes count in a reward
            self._advance()
            if not self.over:
                return
        raise GutsError(
            f"{self.game.name} for {len(self.names)} players: {_TRIES} sessions in a "
            "row ended before anyone decided anything (do the rules leave a choice?)"
        )

    @property
    def over(self) -> bool:
        """True once the episode has ended (by the rules or at the deal cap)."""
        return self.session.is_over

    def stacks(self) -> list[int]:
        """Each seat's chips now."""
        return [seat.stack for seat in self.session.table.seats]

    @property
    def pending(self) -> tuple[Decision, ...]:
        """The decisions awaited now."""
        return () if self.over else self.session.pending()

    @property
    def deciding(self) -> tuple[Decision, ...]:
        """The decisions to make now, together: every seat declaring at once, or the one
        seat whose turn it is (nothing when the episode is over)."""
        pending = self.pending
        if not pending:
            return ()
        if pending[0].simultaneous:
            return tuple(d for d in pending if d.simultaneous)
        return pending[:1]

    @property
    def to_act(self) -> int | None:
        """The first seat awaited (None when the episode is over)."""
        pending = self.pending
        return pending[0].seat if pending else None

    def decision(self, seat: int) -> Decision | None:
        """``seat``'s decision now, if any."""
        return None if self.over else self.session.decision(seat)

    def mask(self, seat: int) -> npt.NDArray[np.int8]:
        """``seat``'s action mask now."""
        return self.layout.mask(self.decision(seat))

    def observe(self, seat: int) -> npt.NDArray[np.float32]:
        """``seat``'s encoded view now."""
        return self.encoder.encode(self.session.view(seat, events=False), seat)

    def act(self, seat: int, number: int) -> list[int]:
        """Take action ``number`` for ``seat`` (IllegalAction if it is not legal now), go
        on to the next decision, and return each seat's change of chips since the last
        action (the first action's includes the antes of the first deal)."""
        decision = self.decision(seat)
        if decision is None:
            raise IllegalAction(f"{self.names[seat]} (seat {seat}) has nothing to decide now")
        return self.act_text(seat, self.layout.action(decision, number))

    def act_text(self, seat: int, action: str) -> list[int]:
        """Take the engine action ``action`` for ``seat``, as :meth:`act` does."""
        self.session.act(seat, action)
        self._advance()
        now, before = self.stacks(), self._reported
        self._reported = now
        return [after - then for after, then in zip(now, before, strict=True)]

    def _advance(self) -> None:
        """Start deals until a decision is awaited; stop at the deal cap; share out what
        is left on the table when the session is over."""
        session = self.session
        while not session.is_over:
            if not session.deal_over:
                if session.pending():
                    return
                raise GutsError("the deal waits for no one: it cannot go on")
            if self.max_deals is not None and session.deals_played >= self.max_deals:
                session.stop(DEAL_CAP)
                self.truncated = True
            else:
                session.start_deal()
        if sum(self.stacks()) != self.buy_in * len(self.names):
            with suppress(IllegalAction):  # Bourre has shared it out (end-pot=split)
                session.stop("the episode ended")  # shares out what the rules left
