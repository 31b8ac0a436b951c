"""What a night of dealer's choice costs over its games played as bare sessions.

Plays seeded nights (a rotation of one game of each family, random bots, on credit),
then plays the very same games as bare sessions: the same presets and options, the
stacks and dealer button each game starts with, the same shuffling source and the same
bot answers, ending each game where the night did (a Bourré game when its pot is taken).
Every bare game's events are checked equal to the night's record of it, so the two
loops play exactly the same deals. Then the same for replays: ``Night.replay`` of each
record against each game's own replay. Times are CPU seconds of this process (the
machine is shared) and wall seconds.

    .venv/bin/python benchmarks/night.py             # about a minute on a busy machine
    .venv/bin/python benchmarks/night.py --nights 40
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Callable
from random import Random
from typing import Any

from machine import cpu_model

from guts.bots import RandomPolicy
from guts.catalog import FAMILIES, find_game
from guts.games.base import Session
from guts.night import Chooser, Night, NightRules
from guts.night.events import GameStarted
from guts.night.record import game_records

GAMES = ("two-card-guts", "three-five-seven", "jacks-or-better", "bourre")
NAMES = ("Ann", "Bob", "Cat", "Dan")
RULES = NightRules(games=",".join(GAMES), chooser=Chooser.ROTATION, most_games=8, credit=True,
                   cap=30)  # fmt: skip
"""Capped: with random bots on credit a draw pot nobody takes can grow for thousands of
deals (a 100-night run met one)."""


def drive(session: Session, rng: Random, until: Callable[[Session], bool]) -> None:
    """Random legal actions until the session is over or ``until`` says so."""
    bot = RandomPolicy()
    while not session.is_over and not until(session):
        if session.deal_over:
            session.start_deal()
        else:
            decision = session.pending()[0]
            session.act(decision.seat, bot.choose(session.view(decision.seat), decision, rng))


def play_nights(count: int) -> list[Night]:
    """``count`` seeded nights, played to their end."""
    nights = []
    for seed in range(count):
        night = Night(RULES, [(name, 100) for name in NAMES], rng=Random(seed))
        drive(night, Random(seed + 1), lambda _: False)
        nights.append(night)
    return nights


def _taken(session: Session) -> bool:
    """Where the night ends a game that plays on: between deals, nothing in the middle."""
    deals = int(getattr(session, "deals_played", 0))
    return session.deal_over and deals > 0 and not session.table.places


def _capped(session: Session) -> bool:
    return session.deal_over and int(getattr(session, "deals_played", 0)) >= (RULES.cap or 0)


def play_bare(nights: list[Night]) -> int:
    """The nights' games again as bare sessions; returns the deals played."""
    deals = 0
    for seed, night in enumerate(nights):
        rng, bot_rng = Random(seed), Random(seed + 1)
        starts = [event for event in night.events if isinstance(event, GameStarted)]
        for started, record in zip(starts, game_records(night.events), strict=True):
            preset = find_game(started.game)
            session = preset.games_family.new_session(
                started.game, list(started.players), options=RULES.game_options(started.game),
                rng=rng, button=started.button,
            )  # fmt: skip
            drive(session, bot_rng, lambda s: _taken(s) or _capped(s))
            if not session.is_over:
                capped = _capped(session) and not _taken(session)
                session.stop(f"the cap ({RULES.cap} deals) was reached" if capped
                             else "the pot was taken and nothing is owed")  # fmt: skip
            assert session.record()["events"] == record["events"], "not the same game"
            deals += int(getattr(session, "deals_played", 0))
    return deals


def replay_games(records: list[dict[str, Any]]) -> None:
    """Each game's own record through its family's replay."""
    for record in records:
        FAMILIES[record["game"]].replay(record)


def timed(work: Callable[[], Any]) -> tuple[float, float, Any]:
    """CPU and wall seconds of ``work()``, and what it returned."""
    cpu, wall = time.process_time(), time.perf_counter()
    result = work()
    return time.process_time() - cpu, time.perf_counter() - wall, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nights", type=int, default=100)
    count = parser.parse_args().nights
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"load average {load:.1f}")  # fmt: skip
    play_bare(play_nights(2))  # warm up: the rankings' tables load on first use
    cpu_night, wall_night, nights = timed(lambda: play_nights(count))
    cpu_bare, wall_bare, deals = timed(lambda: play_bare(nights))
    games = sum(len(night.results) for night in nights)
    print(f"{count} nights, {games} games, {deals} deals (the same in both loops)")
    print(f"  play   night {cpu_night:6.2f} CPU s ({deals / cpu_night:,.0f} deals/CPU s), "
          f"bare {cpu_bare:6.2f} CPU s: {cpu_night / cpu_bare:.2f}x "
          f"(wall {wall_night:.1f} s / {wall_bare:.1f} s)")  # fmt: skip
    records = [night.record() for night in nights]
    per_game = [game for night in nights for game in game_records(night.events)]
    cpu_replay, wall_replay, _ = timed(lambda: [Night.replay(record) for record in records])
    cpu_games, wall_games, _ = timed(lambda: replay_games(per_game))
    print(f"  replay night {cpu_replay:6.2f} CPU s, its games alone {cpu_games:6.2f} CPU s: "
          f"{cpu_replay / cpu_games:.2f}x (wall {wall_replay:.1f} s / {wall_games:.1f} s)")
    print(f"load average after: {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else "")


if __name__ == "__main__":
    main()
