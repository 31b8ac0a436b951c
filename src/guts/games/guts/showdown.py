"""Who wins and who pays at a Guts showdown: pure functions of hand strengths.

>>> contest({0: 5, 1: 9, 2: 9}, None, GhostTie.GHOST_WINS)
Contest(winners=(1, 2), losers=(0,), pushed=(), ghost_won=False)
>>> contest({0: 5}, 7, GhostTie.GHOST_WINS)
Contest(winners=(), losers=(0,), pushed=(), ghost_won=True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import compress, repeat
from operator import eq, ne

from guts.games.guts.rules import GhostTie, Payment

__all__ = ["Contest", "contest", "hi_lo_contests", "payers"]


@dataclass(frozen=True)
class Contest:
    """The result of one comparison: winners share, losers pay, pushed neither."""

    winners: tuple[int, ...]
    losers: tuple[int, ...]
    pushed: tuple[int, ...] = ()
    ghost_won: bool = False


def contest(strengths: Mapping[int, int], ghost: int | None, ties: GhostTie) -> Contest:
    """Compare the players' ``strengths`` (seat order kept) and the ghost's, if it plays."""
    seats, values = tuple(strengths), strengths.values()
    best = max(values)
    top = tuple(compress(seats, map(eq, values, repeat(best))))  # strengths[s] == best
    rest = tuple(compress(seats, map(ne, values, repeat(best))))
    if ghost is None or ghost < best:
        return Contest(top, rest)
    if ghost > best or ties is GhostTie.GHOST_WINS:
        return Contest((), seats, ghost_won=True)
    if ties is GhostTie.PLAYERS_WIN:
        return Contest(top, rest)
    return Contest((), rest, pushed=top)


def payers(
    losers: Sequence[int], strengths: Mapping[int, int], payment: Payment
) -> tuple[int, ...]:
    """The losers who pay: all of them, or (single loser) those with the worst hand."""
    if not losers or payment is Payment.MATCH:
        return tuple(losers)
    worst = min(strengths[s] for s in losers)
    return tuple(s for s in losers if strengths[s] == worst)


@dataclass(frozen=True)
class HiLo:
    """Both halves of a Hi-Lo showdown; a half is None when nobody played that way."""

    high: Contest | None
    low: Contest | None
    failed: tuple[int, ...]  # both-ways players who did not win both ways


def hi_lo_contests(
    choices: Mapping[int, str],
    strengths: Mapping[int, int],
    ghost: int | None,
    ghost_lone: bool,
    ties: GhostTie,
) -> HiLo:
    """Hi-Lo: the high and low contests. Low strength is the negated high strength.

    ``ghost`` is the ghost's high strength (None: no ghost); with ``ghost_lone`` it plays a
    way only when exactly one player goes that way.
    """

    def way(seats: Sequence[int], low: bool) -> Contest | None:
        if not seats:
            return None
        sign = -1 if low else 1
        ghost_here = ghost is not None and (not ghost_lone or len(seats) == 1)
        return contest(
            {s: sign * strengths[s] for s in seats},
            sign * ghost if ghost_here else None,  # type: ignore[operator]
            ties,
        )

    high = [s for s in choices if choices[s] in ("high", "both")]
    low = [s for s in choices if choices[s] in ("low", "both")]
    full_high, full_low = way(high, False), way(low, True)
    failed = tuple(
        s
        for s in choices
        if choices[s] == "both"
        and not (
            full_high is not None
            and s in full_high.winners
            and full_low is not None
            and s in full_low.winners
        )
    )
    high = [s for s in high if s not in failed]
    low = [s for s in low if s not in failed]
    return HiLo(way(high, False), way(low, True), failed)
