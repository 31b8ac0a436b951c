"""The information barrier, tested as an attacker would: every frame the server sends to
every seat and spectator, over random full sessions of every preset with bots in every
seat, is scanned for cards by code (``Qh``, ``Q♥``, ``Jk``) and by name (``queen of
hearts``, ``the joker``), and for the ranks that the names of hands give (``Pair of
queens``), and none may name a card its client has not been shown by then, nor a hand by
a rank of which it was shown no card; every update carries exactly the events the client
may see; and a simultaneous choice cannot be told apart by anyone else from what the
server sends them.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from server_helpers import NullStorage, Recorder, bot_table, settle, sit

from guts.cards import Rank, Suit, parse_card
from guts.catalog import games
from guts.games.base import Event
from guts.server.actor import Settings, TableActor
from guts.server.protocol import Act, Join, Resume, Start
from guts.server.storage import Storage
from guts.server.tables import Tables

FAST = Settings(bot_delay=0, deal_delay=0, clock=lambda: 0.0)  # clocks stand still
CARD = re.compile(r"(?<![0-9A-Za-z])(?:(?:10|[2-9TJQKA])[cdhs♣♦♥♠]|Jk)(?![0-9A-Za-z])")
"""A card's code anywhere in a payload: ``As``, ``Td``, ``10h``, ``K♠``, ``Jk`` (either
joker: the scan cannot tell them apart)."""

RANKS = {
    **{rank.word: rank.symbol for rank in Rank},
    **{rank.plural: rank.symbol for rank in Rank},
    "deuces": "2",
    "treys": "3",
}
"""Every rank in words, as the engine writes them (``ten``, ``tens``, ``sixes``)."""
_ONE = "|".join(rank.word for rank in Rank)
_MANY = "|".join(word for word in RANKS if word not in _ONE.split("|"))
NAMED_CARD = re.compile(
    rf"\b({_ONE}) of ({'|'.join(suit.name.lower() for suit in Suit)})\b|"
    r"(?:^|\b(?:the|a) )(joker)\b",
    re.IGNORECASE,
)
"""A card by its name (:attr:`guts.cards.Card.name`): ``ace of spades``, ``Ten of clubs``,
``the joker`` (or ``Joker`` alone, as the single-card ranking describes it)."""
HAND_NAME = re.compile(
    rf"\b(?:pair|three of a kind|four of a kind|five of a kind)(?:,| of) ({_MANY})\b"
    rf"|\btwo pair, ({_MANY}) and ({_MANY})\b"
    rf"|\bfull house, ({_MANY}) over ({_MANY})\b"
    rf"|\b({_ONE}) kicker\b"
    rf"|\b((?:{_ONE})(?:-(?:{_ONE}))*) (?:high|low)\b"
    rf"|\bflush, ((?:{_ONE})(?:-(?:{_ONE}))+)\b",
    re.IGNORECASE,
)
"""The ranks a hand's name gives (:mod:`guts.rankings`' descriptions): ``Pair of kings``,
``Two pair, queens and tens, seven kicker``, ``Full house, eights over fives``,
``King-jack low``, ``Straight, six high``, ``Flush, ace-ten-nine``."""

SHUFFLE = re.compile(r'"kind": "(\w+-)?shuffled"')
"""A shuffle event of any family (not a draw game's public ``draw-reshuffled``)."""


def cards_in(text: str) -> set[str]:
    """Every card a text names by its code, as that code (``10h`` read as ``Th``)."""
    suits = dict(zip("♣♦♥♠", "cdhs", strict=True))
    return {
        ("T" + m[-1] if m.startswith("10") else m[0]).upper()[0] + suits.get(m[-1], m[-1])
        for m in CARD.findall(text)
    }


def _strings(value: Any) -> Iterator[str]:
    """The strings of a JSON value (its keys left out: the names of fields and options)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def named_in(value: Any) -> tuple[set[str], set[str]]:
    """The cards a JSON value names in words (as codes) and the ranks the names of hands
    in it give (as symbols)."""
    suits = {suit.name.lower(): suit.letter for suit in Suit}
    cards, ranks = set(), set()
    for text in _strings(value):
        for rank, suit, joker in NAMED_CARD.findall(text):
            cards.add("Jk" if joker else RANKS[rank.lower()] + suits[suit.lower()])
        for match in HAND_NAME.findall(text):
            for words in match:
                ranks |= {RANKS[word.lower()] for word in words.split("-") if word}
    return cards, ranks


def seen_in(value: Any) -> tuple[set[str], set[str]]:
    """The cards a JSON value names, by code or in words, and the ranks it names (those
    of those cards, and those the names of hands give)."""
    cards, ranks = named_in(value)
    cards |= cards_in(json.dumps(value, ensure_ascii=False))
    return cards, ranks | {card[0] for card in cards if card != "Jk"}


def leaks(value: Any, shown: set[str], shown_ranks: set[str]) -> set[str]:
    """What a JSON value names that was not shown: cards (codes), and ranks of hands
    (``rank kings``) of which no card was shown or named."""
    cards, ranks = seen_in(value)
    return (cards - shown) | {f"rank {RANK_NAMES[r]}" for r in ranks - shown_ranks}


RANK_NAMES = {rank.symbol: rank.plural for rank in Rank}


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
        self.shown_ranks: set[str] = set()
        self._read: dict[int, int] = {}
        self.checked = 0

    def number_in(self, index: int) -> int | None:
        """This seat's number in session ``index`` of the table (one it keeps)."""
        state = self.actor.state
        lineup = state.night.lineups[index - state.sessions_before]
        return lineup.index(self.seat_id) if self.seat_id in lineup else None

    @property
    def number(self) -> int | None:
        """This seat's number in the session in play."""
        state = self.actor.state
        return self.number_in(state.session_number) if state.sessions else None

    def _catch_up(self) -> None:
        """The cards of every event this seat may see so far, in every session (those
        the table no longer keeps were read while it did)."""
        state = self.actor.state
        for index, session in enumerate(state.sessions, start=state.sessions_before):
            events = session.events
            number = self.number_in(index)
            for event in events[self._read.get(index, 0) :]:
                if event.visible_to(number):
                    cards, ranks = seen_in(event.to_dict())
                    self.shown |= cards
                    self.shown_ranks |= ranks
            self._read[index] = len(events)

    def send(self, message: dict[str, Any]) -> None:
        super().send(message)
        self._catch_up()
        text = json.dumps(message, ensure_ascii=False)
        leaked = leaks(message, self.shown, self.shown_ranks)
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
            made = state.events_of(entry)
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


def test_the_scanner_catches_a_hidden_card_written_by_name(sqlite_url: str) -> None:
    """The attacker's scan is no weaker than a leak: a frame naming another seat's hidden
    card in words (``the queen of hearts``), or a hand by a rank nobody was shown
    (``a pair of kings``), is caught; the seat's own cards named so are not."""

    async def run() -> None:
        storage = await Storage.open(sqlite_url)
        tables = Tables(storage, FAST)
        actor, secret = await bot_table(tables, "two-card-guts", 3, start=False)
        spy = Attacker(actor, None)
        actor.attach(spy)
        await actor.call(Join(type="join", nickname="Spy"), spy)  # seat 3, after the bots
        assert spy.seat_id == 3
        await actor.call(Start(type="start", secret=secret))
        await settle(actor)  # the bots wait for the spy to declare: nothing is shown yet
        session = actor.session
        assert session is not None and spy.number is not None
        assert session.decision(spy.number) is not None
        own = session.view(spy.number)["hand"]
        hidden = [code for n in range(4) if n != spy.number for code in session.view(n)["hand"]]
        assert set(own) <= spy.shown and not set(hidden) & spy.shown
        ranks = [code[0] for code in hidden if code[0] not in spy.shown_ranks]
        assert ranks  # (six cards of others, none of the spy's two ranks: all but sure)

        def chat(text: str) -> dict[str, Any]:
            return {"type": "chat", "seq": actor.seq, "seat_id": 0, "nickname": "Ann",
                    "text": text}  # fmt: skip

        card = parse_card(hidden[0])
        spy.send(chat(f"I hold the {parse_card(own[0]).name}"))  # its own card: no leak
        with pytest.raises(AssertionError, match=f"is sent .*'{hidden[0]}'"):
            spy.send(chat(f"Ann holds the {card.name}"))
        with pytest.raises(AssertionError, match=f"is sent .*'{hidden[0]}'"):
            spy.send(chat(f"{card.name.capitalize()}!"))
        rank = next(r for r in Rank if r.symbol == ranks[0])
        with pytest.raises(AssertionError, match=f"rank {rank.plural}"):
            spy.send(chat(f"Bob wins with Pair of {rank.plural}, ace kicker"))
        await tables.close()
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
