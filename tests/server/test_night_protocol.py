"""The night's part of the protocol (``docs/protocol.md``, "Dealer's choice nights"):
every frame of real nights, to people and to a spectator, holds to its JSON Schema — the
table between games, the night in every view, the chooser's decision, the night's events.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError
from server_helpers import Clock, Recorder, settle

from guts.bots import RandomPolicy
from guts.night import Night, NightRules
from guts.server.actor import Settings, TableActor
from guts.server.night_protocol import NIGHT_EVENTS, GameChoice, NightState, NightTable
from guts.server.protocol import Act, AddBot, Join, ProtocolError, Resume, Start
from guts.server.storage import Storage
from guts.server.tables import Tables

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
GAMES = "two-card-guts,three-five-seven,jacks-or-better,bourre"


def holds(model: type[BaseModel], data: Any) -> None:
    """``data``, as a websocket carries it, is valid under ``model``'s schema."""
    model.model_validate_json(json.dumps(data))


def check_frame(frame: dict[str, Any]) -> list[str]:
    """Hold one frame's night parts to their models; the night event kinds it carried."""
    game = frame.get("game")
    if isinstance(game, dict):
        if game.get("game") == "night":
            holds(NightTable, game)
        else:
            holds(NightState, game["night"])
        if game.get("game") == "night" and frame["type"] == "event" and frame["decision"]:
            holds(GameChoice, frame["decision"])
    kinds = []
    for event in frame.get("events", []):
        if event["kind"].startswith("night-"):
            holds(NIGHT_EVENTS[event["kind"]], event)
            kinds.append(event["kind"])
    return kinds


def latest_decision(client: Recorder) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The client's last frame with a game view, and the decision it holds (if any)."""
    for frame in reversed(client.frames):
        if frame["type"] == "event":
            return (frame, frame["decision"]) if frame["decision"] else None
        if frame["type"] == "snapshot" and frame["game"] is not None:
            pending = frame["game"].get("pending") or []
            return (frame, pending[0]) if pending else None
    return None


async def play(actor: TableActor, people: list[Recorder], rng: random.Random) -> None:
    """Answer the people's decisions at random (a choice: a random allowed game) until
    the night is over."""
    for _ in range(20_000):
        await settle(actor)
        if actor.status == "over":
            return
        for client in people:
            found = latest_decision(client)
            if found is None:
                continue
            _, decision = found
            seq = actor.state.client_seqs.get(client.seat_id or 0, (0, 0))[0] + 1
            act = Act(type="act", seat=decision["seat"], action=rng.choice(decision["actions"]),
                      client_seq=seq)  # fmt: skip
            try:
                await actor.call(act, client)
            except ProtocolError as error:  # a decision that passed while another acted
                assert error.code in ("illegal", "wrong-seat", "not-now"), error
            break
    raise AssertionError("the night did not end")


def test_every_frame_of_a_served_night_holds_to_the_night_schemas(sqlite_url: str) -> None:
    async def run() -> None:
        storage = await Storage.open(sqlite_url)
        tables = Tables(storage, Settings(bot_delay=0, deal_delay=0, clock=Clock()))
        try:
            options = {"games": GAMES, "cap": "2", "most-games": "5"}
            actor, secret = await tables.create(
                "dealers-choice", options, 60, auto_approve=True, clocks={"clock": 0}
            )
            spectator = Recorder()
            actor.attach(spectator)
            await actor.call(Resume(type="resume"), spectator)  # a spectator's snapshot
            people = []
            for name in ("Jo", "Al"):
                client = Recorder()
                actor.attach(client)
                await actor.call(Join(type="join", nickname=name), client)
                people.append(client)
            for _ in range(2):
                await actor.call(AddBot(type="add_bot", secret=secret, bot="random"))
            await actor.call(Start(type="start", secret=secret))
            await play(actor, people, random.Random(11))
            for client in [*people, spectator]:
                kinds = [kind for frame in client.frames for kind in check_frame(frame)]
                assert kinds.count("night-game-chosen") == 5
                assert kinds.count("night-game-started") == kinds.count("night-game-ended") == 5
                assert kinds[-1] == "night-ended"
            # the people were asked to choose, with the games allowed, and the spectator
            # saw the tables between games too
            asked = [d for client in people for frame in client.of("event")
                     if (d := frame["decision"]) and frame["game"]["game"] == "night"]  # fmt: skip
            assert asked and all(d["options"]["words"] == GAMES.split(",") for d in asked)
            views = [f["game"] for f in spectator.frames if isinstance(f.get("game"), dict)]
            between = [view for view in views if view["game"] == "night"]
            assert between and all(view["pending"] == [] for view in between)
        finally:
            await tables.close()
            await storage.close()

    asyncio.run(run())


def test_the_night_events_of_seeded_nights_hold_to_their_schemas() -> None:
    """Every kind of night event (the markers of a night on credit, the refunds of a
    capped pot), as the engine writes it, holds to its schema."""
    seen: set[str] = set()
    bot = RandomPolicy()
    for seed in range(6):
        rules = NightRules.from_options(None, {
            "games": "two-card-guts,bourre", "cap": "1", "capped-pot": "refund",
            "credit": "yes", "most-games": "4",
        })  # fmt: skip
        night = Night(rules, [("Ann", 3), ("Bob", 3), ("Cat", 3)], rng=random.Random(seed))
        rng = random.Random(seed)
        for _ in range(5000):
            if night.is_over:
                break
            if night.deal_over:
                night.start_deal()
                continue
            decision = night.pending()[0]
            action = (rng.choice(decision.actions) if night.session is None
                      else bot.choose(night.view(decision.seat), decision, rng))  # fmt: skip
            night.act(decision.seat, action)
        assert night.is_over
        for event in night.events:
            if event.kind.startswith("night-"):
                holds(NIGHT_EVENTS[event.kind], event.to_dict())
                seen.add(event.kind)
        for seat in range(3):
            holds(NightState, night.view(seat)["night"])
    assert seen == set(NIGHT_EVENTS)


def test_the_schemas_refuse_what_the_night_does_not_send() -> None:
    choice = {"seat": 0, "kind": "choose", "actions": ["bourre"], "prompt": "choose game 1",
              "simultaneous": False, "options": {"words": ["bourre"]}}  # fmt: skip
    holds(GameChoice, choice)
    for wrong in ({**choice, "kind": "bet"}, {**choice, "seat": "0"}, {**choice, "extra": 1},
                  {**choice, "simultaneous": True}):  # fmt: skip
        with pytest.raises(ValidationError):
            holds(GameChoice, wrong)
    ended = {"kind": "night-ended", "audience": None, "reason": "done", "stopped": False}
    holds(NIGHT_EVENTS["night-ended"], ended)
    for wrong in ({**ended, "audience": [0]}, {**ended, "kind": "night-game-ended"},
                  {k: v for k, v in ended.items() if k != "stopped"}):  # fmt: skip
        with pytest.raises(ValidationError):
            holds(NIGHT_EVENTS["night-ended"], wrong)


def test_the_protocol_document_has_the_night_section_with_each_schema() -> None:
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## Dealer's choice nights") :]
    for title in ("`NightTable`", "`NightState`", "`GameChoice`",
                  *(f"`{kind}` event" for kind in NIGHT_EVENTS)):  # fmt: skip
        assert f"### {title}" in section
