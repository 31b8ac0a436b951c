"""The downloads of a night: each session's hand history as JSON lines, redacted for
whoever asks (a seat sees its own cards and what is public; a spectator only what is
public; nobody the shuffles), and PHH for draw poker, over HTTP in process."""

from __future__ import annotations

import io
import json
import random
import re
import tomllib
import warnings
from typing import Any

from server_helpers import whole_night

from guts.history import read_history
from guts.server.actor import Settings
from guts.server.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

CARD = re.compile(r"\b(?:[2-9TJQKA][cdhs])\b")


def play_night(client: TestClient, preset: str) -> tuple[str, str, str]:
    """A night of ``preset``, Jo and three bots, two deals; its id, host secret and
    Jo's token."""
    body = {"preset": preset, "options": {"max-deals": "2"}, "bots": 3, "bot": "random",
            "auto_approve": True, "buy_in": 40}  # fmt: skip
    created = client.post("/api/tables", json=body).json()
    rng, token, seq = random.Random(preset), "", 0
    with client.websocket_connect(f"/ws/{created['table_id']}") as jo:
        jo.send_text(json.dumps({"type": "join", "nickname": "Jo"}))
        jo.send_text(json.dumps({"type": "start", "secret": created["host_secret"]}))
        status = "lobby"
        while status != "over":
            frame: dict[str, Any] = jo.receive_json()
            status = frame.get("status", status)
            token = frame.get("token", token)
            decision = frame.get("decision")
            if frame["type"] == "event" and decision is not None:
                seq += 1
                action = rng.choice(decision["actions"])
                jo.send_text(json.dumps({"type": "act", "seat": decision["seat"],
                                         "action": action, "client_seq": seq}))  # fmt: skip
    return created["table_id"], created["host_secret"], token


def sessions_of(text: str) -> list[list[dict[str, Any]]]:
    """The history's sessions, each its header and events."""
    blocks: list[list[dict[str, Any]]] = []
    for line in text.splitlines():
        data = json.loads(line)
        if "format" in data:
            blocks.append([])
        blocks[-1].append(data)
    return blocks


def test_a_history_shows_each_requester_only_what_it_could_see(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url, settings=Settings(0, 0))) as client:
        table_id, secret, token = play_night(client, "jacks-or-better")
        storage = client.app.state.tables.storage  # type: ignore[attr-defined]
        assert client.portal is not None
        night = client.portal.call(whole_night, storage, table_id)
        url = f"/api/tables/{table_id}/history"
        mine = client.get(url, headers={"authorization": f"Bearer {token}"})
        public = client.get(url, headers={"authorization": f"Bearer {secret}"})
        assert mine.status_code == public.status_code == 200
        assert client.get(url, headers={"authorization": "Bearer forged"}).status_code == 403
        assert client.get(url).status_code == 403  # no token: no history
        # the host's secret shows what a spectator sees
        sessions = night.sessions
        mine_blocks, public_blocks = sessions_of(mine.text), sessions_of(public.text)
        assert len(mine_blocks) == len(public_blocks) == len(sessions)
        hidden_elsewhere = False
        for number, (session, own, seen) in enumerate(
            zip(sessions, mine_blocks, public_blocks, strict=True)
        ):
            jo = night.night.lineups[number].index(3)
            header = own[0]
            assert header["redacted"] is True and header["viewer"] == jo
            assert header["session"] == number + 1 and seen[0]["viewer"] is None
            assert own[1:] == [e.to_dict() for e in session.events if e.visible_to(jo)]
            assert seen[1:] == [e.to_dict() for e in session.events if e.visible_to(None)]
            full = json.dumps([e.to_dict() for e in session.events])
            allowed = set(CARD.findall(json.dumps(own[1:])))
            hidden_elsewhere |= bool(set(CARD.findall(full)) - allowed)
            lines = "\n".join(json.dumps(line) for line in own)
            assert read_history(io.StringIO(lines)).preset == "jacks-or-better"
        assert hidden_elsewhere  # others' cards were dealt, and Jo's history has none
        assert "shuffled" not in mine.text and '"deck"' not in mine.text
        phh = client.get(url + "?format=phh", headers={"authorization": f"Bearer {token}"})
        documents = [d for d in phh.text.split("# session ")[1:]]
        assert len(documents) == sum(s.deals_played for s in sessions)
        for document in documents:
            parsed = tomllib.loads(document.split("\n", 1)[1])
            assert "Jo" in parsed["players"] and parsed["variant"] == "F5CD"


def test_phh_is_for_draw_poker(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url, settings=Settings(0, 0))) as client:
        table_id, secret, _ = play_night(client, "two-card-guts")
        refused = client.get(f"/api/tables/{table_id}/history?format=phh",
                             headers={"authorization": f"Bearer {secret}"})  # fmt: skip
        assert refused.status_code == 400 and refused.json()["code"] == "invalid"
        assert client.get("/api/tables/nope/history").status_code == 404
