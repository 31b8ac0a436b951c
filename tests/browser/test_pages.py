"""The page's routes in process (no browser): the lobby API's catalog and option schemas
come from the engine's rules, the narration is the terminal's, the standings need a seat's
token, and the static files are the package's own with no external reference."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from guts.catalog import find_game, games
from guts.narrate import Narrator
from guts.night import NightRules
from guts.server.app import create_app
from guts.server.pages import static_folder


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite+aiosqlite:///{tmp_path / 'guts.db'}")) as running:
        yield running


def test_the_catalog_lists_every_preset_with_its_summary(client: TestClient) -> None:
    listed = client.get("/api/games").json()["games"]
    assert [game["name"] for game in listed] == [*games(), "dealers-choice"]
    for game in listed[:-1]:
        assert game["summary"] == find_game(game["name"]).description
    assert listed[-1]["family"] == "night"


def test_a_night_has_its_options_schema_and_the_games_it_allows(client: TestClient) -> None:
    detail = client.get("/api/games/dealers-choice?games=two-card-guts,bourre%20ante%3D2").json()
    schema = {entry["name"]: entry for entry in detail["options"]}
    assert list(schema) == list(NightRules().option_names())
    assert schema["games"]["default"] == "two-card-guts,bourre ante=2"
    assert schema["chooser"]["allowed"] == ["dealer", "next", "rotation"]
    for name in ("two-card-guts", "bourre"):
        assert f"{find_game(name).description}" in detail["rules"]
    refused = client.get("/api/games/dealers-choice?games=two-card-guts&default=bourre")
    assert refused.status_code == 400
    assert refused.json()["message"] == "default: 'bourre' is not one of the games (two-card-guts)"


@pytest.mark.parametrize(
    "preset", ["two-card-guts", "three-five-seven", "jacks-or-better", "bourre"]
)
def test_a_game_has_its_rules_text_and_options_schema(client: TestClient, preset: str) -> None:
    detail = client.get(f"/api/games/{preset}").json()
    rules = find_game(preset).rules()
    assert detail["rules"] == rules.describe()
    schema = {entry["name"]: entry for entry in detail["options"]}
    assert list(schema) == list(rules.option_names())
    for name, (allowed, meaning) in rules.option_help().items():
        entry = schema[name]
        assert entry["default"] == rules.options()[name]
        assert entry["doc"] == meaning
        if entry["type"] == "choice":
            assert "|".join(entry["allowed"]) == allowed.removesuffix("|none")
        else:
            assert {"bool": "yes|no", "int": "a number", "text": "text"}[entry["type"]] in allowed
        assert entry["optional"] == allowed.endswith(("|none", "|auto"))


def test_options_in_the_query_change_the_rules_or_are_refused(client: TestClient) -> None:
    changed = client.get("/api/games/two-card-guts?ante=3").json()
    assert changed["rules"] == find_game("two-card-guts").rules({"ante": "3"}).describe()
    refused = client.get("/api/games/two-card-guts?ante=lots")
    assert refused.status_code == 400
    assert refused.json()["message"] == "ante: expected a whole number, not 'lots'"
    assert client.get("/api/games/no-such-game").status_code == 404


def test_narration_is_the_terminal_narrators(client: TestClient) -> None:
    session = find_game("three-five-seven").new_session(
        ["Ann", "Bob"], buy_in=20, rng=random.Random(4)
    )
    session.start_deal()
    while session.pending():
        decision = session.pending()[0]
        session.act(decision.seat, "in")
    names = ["You", "Bob"]
    seen = [event for event in session.events if event.visible_to(0)]
    narrator = Narrator(names)
    expected = [narrator.tell(event) for event in seen]
    answer = client.post(
        "/api/narrate", json={"names": names, "events": [e.to_dict() for e in seen]}
    )
    assert answer.json()["lines"] == expected
    assert any(line and line.startswith("You are dealt") for line in expected)
    bad = client.post("/api/narrate", json={"names": [], "events": [{"kind": "no-such"}]})
    assert bad.status_code == 400


def test_standings_are_for_the_seated_and_the_host(client: TestClient) -> None:
    created = client.post(
        "/api/tables", json={"preset": "two-card-guts", "bots": 2, "bot": "random", "start": True}
    ).json()
    path = f"/api/tables/{created['table_id']}/standings"
    assert client.get(path).status_code == 403
    assert client.get(path, headers={"authorization": "Bearer nope"}).status_code == 403
    host = client.get(path, headers={"authorization": f"Bearer {created['host_secret']}"})
    ledger = client.get(
        f"/api/tables/{created['table_id']}/ledger",
        headers={"authorization": f"Bearer {created['host_secret']}"},
    )
    assert host.status_code == 200
    assert host.json()["players"] == ledger.json()["players"]
    with client.websocket_connect(f"/ws/{created['table_id']}") as socket:
        socket.send_json({"type": "join", "nickname": "Zed Quill"})
        welcome = socket.receive_json()
        assert welcome["type"] == "welcome", welcome
    seated = client.get(path, headers={"authorization": f"Bearer {welcome['token']}"})
    assert seated.status_code == 200


def test_the_pages_are_served_and_reach_nothing_outside(client: TestClient) -> None:
    assert client.get("/").headers["content-type"].startswith("text/html")
    created = client.post("/api/tables", json={"preset": "bourre"}).json()
    assert "table.js" in client.get(f"/t/{created['table_id']}").text
    assert client.get("/t/no-such-table").status_code == 404
    files = [path for path in static_folder().rglob("*") if path.is_file()]
    assert {path.suffix for path in files} >= {".html", ".css", ".js"}
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", text), path
        assert client.get(f"/static/{path.relative_to(static_folder())}").status_code == 200
