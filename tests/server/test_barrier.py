"""The information barrier, tested as an attacker would: every frame the server sends to
every seat and spectator, over random full sessions of every preset with bots in every
seat, is scanned for card codes, and none may name a card its client has not been shown
by then; every update carries exactly the events the client may see; and a simultaneous
choice cannot be told apart by anyone else from what the server sends them.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from typing import Any

import pytest
from server_helpers import NullStorage, Recorder, bot_table, settle, sit

from guts.catalog import games
from guts.games.base import Event
from guts.server.actor import Settings, TableActor
from guts.server.protocol import Act, Join, Resume, Start
from guts.server.storage import Storage
from guts.server.tables import Tables

FAST = Settings(bot_delay=0, deal_delay=0, clock=lambda: 0.0)  # clocks stand still
CARD = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9TJQKA])[cdhs♣♦♥♠](?![0-9A-Za-z])")
"""A card named anywhere in a payload: ``As``, ``Td``, ``10h``, ``K♠``."""

SHUFFLE = re.compile(r'"kind": "(\w+-)?shuffled"')
"""A shuffle event of any family (not a draw game's public ``draw-reshuffled``)."""


def cards_in(text: str) -> set[str]:
    """Every card a text names, as its code (``10h`` read as ``Th``)."""
    suits = dict(zip("♣♦♥♠", "cdhs", strict=True))
    return {
        ("T" + m[-1] if m.startswith("10") else m[0]).upper()[0] + suits.get(m[-1], m[-1])
        for m in CARD.findall(text)
    }


def as_json(value: Any) -> Any:
    return json.loads(json.dumps(value))


class Attacker(Recorder):
    """A client of one lobby seat (``seat_id``; None: a spectator) that checks every frame
    as it arrives against what the engine says that seat may see at that moment (its
    number in each session, None in a session it is not dealt into)."""

    def __init__(self, actor: TableActor, seat_id: int | None) -> None:
        super().__init__()
        self.actor = actor
        self.seat_id = seat_id
        self.shown: set[str] = set()
        self._read: dict[int, int] = {}
        self.checked = 0

    def number_in(self, index: int) -> int | None:
        """This seat's number in session ``index`` of the table."""
        lineup = self.actor.state.night.lineups[index]
        return lineup.index(self.seat_id) if self.seat_id in lineup else None

    @property
    def number(self) -> int | None:
        """This seat's number in the session in play."""
        sessions = self.actor.state.sessions
        return self.number_in(len(sessions) - 1) if sessions else None

    def _catch_up(self) -> None:
        """The cards of every event this seat may see so far, in every session."""
        for index, session in enumerate(self.actor.state.sessions):
            events = session.events
            number = self.number_in(index)
            for event in events[self._read.get(index, 0) :]:
                if event.visible_to(number):
                    self.shown |= cards_in(json.dumps(event.to_dict()))
            self._read[index] = len(events)

    def send(self, message: dict[str, Any]) -> None:
        super().send(message)
        self._catch_up()
        text = json.dumps(message, ensure_ascii=False)
        leaked = cards_in(text) - self.shown
        assert not leaked, f"seat {self.number} is sent {sorted(leaked)}: {text[:300]}"
        # no shuffle (shuffled, draw-shuffled, pile-shuffled) reaches a client, nor any
        # deck (a draw game's public draw-reshuffled, its discards made a new stub, says
        # only how many cards)
        assert '"deck"' not in text and not SHUFFLE.search(text)
        state = self.actor.state
        session = state.session
        if message["type"] == "event":
            assert session is not None
            entry = state.log[-1]
            made = state.sessions[entry.session].events[entry.start : entry.end]
            assert message["events"] == self._visible(made), "not exactly the visible events"
            own = [d.to_dict() for d in session.pending() if d.seat == self.number]
            assert message["decision"] == as_json(own[0] if own else None)
        elif message["type"] == "snapshot" and session is not None:
            seen = session.public_view() if self.number is None else session.view(self.number)
            assert message["game"] == as_json(seen)
        self.checked += 1

    def _visible(self, events: tuple[Event, ...]) -> list[Any]:
        return [as_json(event.to_dict()) for event in events if event.visible_to(self.number)]


async def _attack(
    storage: Storage, preset: str, seed: int, options: dict[str, str] | None = None
) -> int:
    rng = random.Random(seed)
    tables = Tables(storage, FAST)
    bots = 4
    wanted = {"max-deals": "3"} if options is None else options
    actor, secret = await bot_table(tables, preset, bots, wanted, start=False)
    attackers = [Attacker(actor, seat_id) for seat_id in (None, *range(bots))]
    for attacker in attackers:
        sit(actor, attacker, attacker.seat_id)  # every bot's seat has a listener
    await actor.call(Start(type="start", secret=secret))
    while actor.status != "over":
        await actor.query(lambda: None)
        if rng.random() < 0.05:  # now and then someone reloads: a snapshot
            who = rng.choice(attackers)
            await actor.call(Resume(type="resume", last_seq=rng.choice([None, actor.seq])), who)
    await settle(actor)
    await tables.close()
    return sum(attacker.checked for attacker in attackers)


@pytest.mark.parametrize("preset", sorted(games()))
def test_no_frame_shows_a_card_its_client_may_not_see(sqlite_url: str, preset: str) -> None:
    async def run() -> None:
        storage = await Storage.open(sqlite_url)
        assert await _attack(storage, preset, seed=len(preset)) > 20
        await storage.close()

    asyncio.run(run())


NIGHTS = [
    "two-card-guts,three-five-seven,jacks-or-better,bourre",
    "simultaneous-guts,three-five-seven-simultaneous,wild-widow,toh,no-peek-guts",
]
"""The games of the nights attacked: every family, and the simultaneous ones."""


@pytest.mark.parametrize("games", NIGHTS)
def test_no_frame_of_a_night_shows_a_card_its_client_may_not_see(
    sqlite_url: str, games: str
) -> None:
    """Across every game of a night of dealer's choice, the choices and the games' own
    deals (a seat's cards of one game are never shown in the next, nor anyone else's)."""

    async def run() -> None:
        storage = await Storage.open(sqlite_url)
        options = {"games": games, "cap": "2", "most-games": "6"}
        assert await _attack(storage, "dealers-choice", len(games), options) > 100
        await storage.close()

    asyncio.run(run())


SIMULTANEOUS = [
    "simultaneous-guts",
    "hi-lo-guts",
    "no-peek-guts",
    "three-five-seven-simultaneous",
    "nuts",
]


async def _frames_after(stored: Any, seat_ids: list[int], acting: int, action: str) -> list[str]:
    """What everyone but seat ``acting`` is sent when it takes ``action``, on a copy of
    the table rebuilt from ``stored``."""
    copy = TableActor(stored.table, NullStorage(stored), FAST)  # type: ignore[arg-type]
    copy.load(stored)
    others = [Recorder() for _ in range(len(seat_ids))]  # a spectator and the other seats
    for listener, seat_id in zip(others, [None, *seat_ids], strict=False):
        if seat_id != acting:
            sit(copy, listener, seat_id)
    actor_client = Recorder()
    sit(copy, actor_client, acting)
    last = copy.state.client_seqs.get(acting, (0, 0))[0]
    copy.start()
    await copy.call(Act(type="act", seat=acting, action=action, client_seq=last + 1), actor_client)
    await copy.close()
    return [json.dumps(listener.frames) for listener in others]


NIGHT_OF_SIMULTANEOUS = {"games": "simultaneous-guts,hi-lo-guts,nuts", "cap": "2",
                         "most-games": "4"}  # fmt: skip


@pytest.mark.parametrize("preset", [*SIMULTANEOUS, "dealers-choice"])
def test_a_simultaneous_choice_cannot_be_told_apart_by_others(sqlite_url: str, preset: str) -> None:
    async def run() -> None:
        rng = random.Random(preset)
        storage = await Storage.open(sqlite_url)
        tables = Tables(storage, FAST)
        options = NIGHT_OF_SIMULTANEOUS if preset == "dealers-choice" else {"max-deals": "2"}
        actor, secret = await tables.create(preset, dict(options), 50, auto_approve=True)
        players = [Recorder() for _ in range(4)]
        for number, player in enumerate(players):
            await actor.call(Join(type="join", nickname=f"P{number}"), player)
        await actor.call(Start(type="start", secret=secret))
        numbers, forks, acted = [0, 1, 2, 3], 0, [0, 0, 0, 0]
        while actor.status != "over":
            await settle(actor)
            session = actor.session
            assert session is not None
            pending = session.pending()
            if not pending:
                continue
            decision = rng.choice(pending)
            if decision.simultaneous and len(pending) > 1 and len(decision.actions) > 1:
                stored = await storage.load(actor.id)
                first, second = decision.actions[:2]
                seen = [
                    await _frames_after(stored, numbers, decision.seat, a) for a in (first, second)
                ]
                assert seen[0] == seen[1], f"{first!r} and {second!r} can be told apart"
                forks += 1
            acted[decision.seat] += 1
            message = Act(
                type="act",
                seat=decision.seat,
                action=rng.choice(decision.actions),
                client_seq=acted[decision.seat],
            )
            await actor.call(message, players[decision.seat])
        assert forks > 0
        await tables.close()
        await storage.close()

    asyncio.run(run())
