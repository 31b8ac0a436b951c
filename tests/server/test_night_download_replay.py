"""`guts replay` of a downloaded night of dealer's choice, end to end: a night played over
the websocket (Jo and three bots, the choice passing round), downloaded over HTTP as Jo
and as a spectator, and told by `guts replay`: every choice and every game in order, the
stacks each game leaves, the end of the night, the ledger's cash-outs, and no card the
requester could not see."""

from __future__ import annotations

import json
import random
import re
import warnings
from typing import Any

import pytest
from test_replay_download import cards_by_audience, run, shown_cards

from guts.night import Night
from guts.server.actor import Settings
from guts.server.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

GAMES = "two-card-guts,three-five-seven,jacks-or-better,bourre"
OPTIONS = {"games": GAMES, "chooser": "next", "cap": "2", "most-games": "4"}


def play_jo(client: TestClient, table_id: str, secret: str, rng: random.Random) -> str:
    """Jo joins, starts the night and answers every decision at random (a choice: a
    random allowed game, Bourré with a house ante of 2); Jo's device token."""
    token, seq, status = "", 0, "lobby"
    with client.websocket_connect(f"/ws/{table_id}") as jo:
        jo.send_text(json.dumps({"type": "join", "nickname": "Jo"}))
        jo.send_text(json.dumps({"type": "start", "secret": secret}))
        while status != "over":
            frame: dict[str, Any] = jo.receive_json()
            status = frame.get("status", status)
            token = frame.get("token", token)
            decision = frame.get("decision")
            if frame["type"] != "event" or decision is None:
                continue
            action = rng.choice(decision["actions"])
            if frame["game"]["game"] == "night" and action == "bourre":
                action = "bourre ante=2"
            seq += 1
            jo.send_text(json.dumps({"type": "act", "seat": decision["seat"],
                                     "action": action, "client_seq": seq}))  # fmt: skip
    return token


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The night's downloads (Jo's, a spectator's), its engine record and its ledger."""
    folder = tmp_path_factory.mktemp("night")
    url = f"sqlite+aiosqlite:///{folder / 'guts.db'}"
    with TestClient(create_app(url, settings=Settings(0, 0))) as client:
        body = {"preset": "dealers-choice", "options": OPTIONS, "bots": 3, "bot": "random",
                "auto_approve": True, "buy_in": 40}  # fmt: skip
        created = client.post("/api/tables", json=body).json()
        table_id, secret = created["table_id"], created["host_secret"]
        token = play_jo(client, table_id, secret, random.Random(7))
        actor = client.app.state.tables.actors[table_id]  # type: ignore[attr-defined]
        session = actor.session
        assert isinstance(session, Night)
        path = f"/api/tables/{table_id}/history"
        (folder / "jo.jsonl").write_text(
            client.get(path, headers={"authorization": f"Bearer {token}"}).text
        )
        host = {"authorization": f"Bearer {secret}"}
        (folder / "public.jsonl").write_text(client.get(path, headers=host).text)
        ledger = client.get(
            f"/api/tables/{table_id}/ledger", headers={"authorization": f"Bearer {secret}"}
        ).json()
        sessions = list(actor.state.sessions)
        jo = actor.state.night.lineups[0].index(3)
    return {"folder": folder, "night": session, "ledger": ledger, "sessions": sessions,
            "jo": jo}  # fmt: skip


def night_events(night: Night, kind: str) -> list[dict[str, Any]]:
    return [event.to_dict() for event in night.events if event.kind == kind]


@pytest.mark.parametrize("download", ["jo", "public"])
def test_a_downloaded_night_is_told_game_by_game_as_it_was_played(
    night: dict[str, Any], download: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "replay", str(night["folder"] / f"{download}.jsonl"))
    assert code == 0, err
    session: Night = night["night"]
    names = session.table.names
    seen_as = "as Jo saw it" if download == "jo" else "as a spectator saw it"
    assert out.splitlines()[0].startswith(f"({seen_as}: hidden cards left out")
    # every choice, by whom, and every game's heading, in the order they were made
    chosen = night_events(session, "night-game-chosen")
    assert [e["seat"] for e in chosen] == [0, 1, 2, 3]  # chooser=next: the choice goes round
    told = re.findall(r"^(\w+) chooses game (\d+): ([\w-]+)", out, re.MULTILINE)
    assert told == [(names[e["seat"]], str(e["number"]), e["game"]) for e in chosen]
    headings = re.findall(r"^══ Game (\d+): ([\w-]+), (\w+) deals first ══$", out, re.MULTILINE)
    started = night_events(session, "night-game-started")
    assert headings == [(str(e["number"]), e["game"], names[e["button"]]) for e in started]
    # the stacks each game leaves, and the end of the night
    stacks = re.findall(r"^Stacks: (.+)$", out, re.MULTILINE)
    ended = night_events(session, "night-game-ended")
    assert stacks == [", ".join(f"{n} {c}" for n, c in zip(names, e["stacks"], strict=True))
                      for e in ended]  # fmt: skip
    assert out.rstrip().endswith("The night is over: 4 games were played.")
    # the last stacks are the ledger's cash-outs
    cash_out = {row["player_nickname"]: row["buy_out"] for row in night["ledger"]["players"]}
    assert dict(zip(names, ended[-1]["stacks"], strict=True)) == cash_out
    assert sum(row["net"] for row in night["ledger"]["players"]) == 0


def test_jos_downloaded_night_shows_jos_cards_and_no_one_elses_hidden_ones(
    night: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "replay", str(night["folder"] / "jo.jsonl"))
    assert code == 0, err
    seen, hidden = cards_by_audience(night, night["jo"])
    shown = shown_cards(out)
    assert shown & seen and not shown & hidden
    code, public, err = run(capsys, "replay", str(night["folder"] / "public.jsonl"))
    assert code == 0, err
    seen_public, hidden_public = cards_by_audience(night, None)
    assert not shown_cards(public) & hidden_public
    assert shown_cards(public) <= seen_public
