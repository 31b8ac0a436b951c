"""The club routes, in process: a host makes a club and counts tables for it; a player's
device becomes a member by sitting, or on a new device by the host's code; the host
reads every member's stats and the CSV, a member only their own; every route refuses
what lacks its credential."""

from __future__ import annotations

import csv
import io
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

with warnings.catch_warnings():  # Starlette would rather have httpx2, not on PyPI here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from club_helpers import bearer, device, make_club, play_night

from guts.server.actor import Settings
from guts.server.app import create_app
from guts.server.clubs import CLUB_BODY_BYTES

QUICK = Settings(bot_delay=0, deal_delay=0)


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url, settings=QUICK)) as test_client:
        yield test_client


@pytest.fixture
def any_client(database_url: str) -> Iterator[TestClient]:
    """The app on SQLite, and on PostgreSQL."""
    with TestClient(create_app(database_url, settings=QUICK)) as test_client:
        yield test_client


def test_a_member_is_known_across_nights_and_the_stats_are_the_ledgers(
    any_client: TestClient,
) -> None:
    client = any_client
    club = make_club(client)
    laptop = device()
    first = play_night(client, club, laptop, "Jo")
    assert first["linked"].status_code == 200, first["linked"].text
    member = first["linked"].json()["member"]
    assert member["name"] == "Jo"
    second = play_night(client, club, laptop, "Joanna")  # another night, another nickname
    assert second["linked"].json()["member"]["id"] == member["id"]
    outside = play_night(client, None, laptop, "Jo")  # a table of no club counts for none
    assert outside["linked"].status_code == 404 and outside["linked"].json()["code"] == "no-club"

    view = client.get(f"/api/clubs/{club['club_id']}", headers=bearer(club["club_secret"]))
    assert view.status_code == 200, view.text
    body = view.json()
    assert body["tables"] == 2 and [m["name"] for m in body["members"]] == ["Jo"]
    jo = body["members"][0]
    assert [n["table_id"] for n in jo["nights"]] == [first["table_id"], second["table_id"]]
    assert [n["net"] for n in jo["nights"]] == [first["net"], second["net"]]
    assert jo["net"] == first["net"] + second["net"]
    assert jo["nights"][-1]["running"] == jo["net"]
    guts = next(f for f in jo["families"] if f["family"] == "guts")
    assert guts["in"] == guts["declared"] == first["ins"] + second["ins"]
    assert guts["deals"] == first["deals"] + second["deals"] > 0
    assert jo["devices"] == 1

    mine = client.get(f"/api/clubs/{club['club_id']}/me", headers=bearer(laptop))
    assert mine.status_code == 200 and mine.json()["members"][0]["net"] == jo["net"]
    assert "devices" not in mine.json()["members"][0]
    exported = client.get(f"/api/clubs/{club['club_id']}/export?kind=members",
                          headers=bearer(club["club_secret"]))  # fmt: skip
    rows = list(csv.DictReader(io.StringIO(exported.text)))
    assert exported.headers["content-type"].startswith("text/csv")
    assert [(r["name"], int(r["nights"]), int(r["net"])) for r in rows] == [("Jo", 2, jo["net"])]
    nights = client.get(f"/api/clubs/{club['club_id']}/me?format=csv", headers=bearer(laptop))
    assert [int(r["running_net"]) for r in csv.DictReader(io.StringIO(nights.text))] == [
        n["running"] for n in jo["nights"]
    ]


def test_a_new_device_claims_its_member_with_the_hosts_code(any_client: TestClient) -> None:
    client = any_client
    club = make_club(client)
    club_id, host = club["club_id"], bearer(club["club_secret"])
    laptop, phone = device(), device()
    jo = play_night(client, club, laptop, "Jo", deals=1)["linked"].json()["member"]
    play_night(client, club, phone, "Jo phone", deals=1)  # a second member, for now
    assert len(client.get(f"/api/clubs/{club_id}", headers=host).json()["members"]) == 2
    code = client.post(f"/api/clubs/{club_id}/codes", json={"member_id": jo["id"]}, headers=host)
    assert code.status_code == 201, code.text
    typed = code.json()["code"].lower().replace("-", " ")  # as a person types it
    claimed = client.post(f"/api/clubs/{club_id}/claim", json={"code": typed, "device": phone})
    assert claimed.status_code == 200 and claimed.json()["member"]["id"] == jo["id"]
    members = client.get(f"/api/clubs/{club_id}", headers=host).json()["members"]
    assert [(m["id"], len(m["nights"]), m["devices"]) for m in members] == [(jo["id"], 2, 2)]
    again = client.post(f"/api/clubs/{club_id}/claim", json={"code": typed, "device": device()})
    assert again.status_code == 403 and again.json()["code"] == "wrong-code"  # used once


def test_the_host_merges_and_renames_members(client: TestClient) -> None:
    club = make_club(client)
    club_id, host = club["club_id"], bearer(club["club_secret"])
    one = play_night(client, club, device(), "Al", deals=1)["linked"].json()["member"]
    two = play_night(client, club, device(), "Albert", deals=1)["linked"].json()["member"]
    merged = client.post(f"/api/clubs/{club_id}/merge", json={"keep": one["id"], "gone": two["id"]},
                         headers=host)  # fmt: skip
    assert merged.status_code == 200, merged.text
    renamed = client.post(f"/api/clubs/{club_id}/rename",
                          json={"member_id": one["id"], "name": "Al B."}, headers=host)  # fmt: skip
    assert renamed.json()["member"]["name"] == "Al B."
    members = client.get(f"/api/clubs/{club_id}", headers=host).json()["members"]
    assert [(m["name"], len(m["nights"]), m["devices"]) for m in members] == [("Al B.", 2, 2)]
    gone = client.post(f"/api/clubs/{club_id}/merge", json={"keep": one["id"], "gone": two["id"]},
                       headers=host)  # fmt: skip
    assert gone.status_code == 404


def test_every_club_route_asks_for_its_credential(client: TestClient) -> None:
    club = make_club(client)
    club_id = club["club_id"]
    other = make_club(client, "Another")
    key = device()
    night = play_night(client, club, key, "Jo", deals=1)
    member = night["linked"].json()["member"]["id"]
    host_routes = [
        ("get", f"/api/clubs/{club_id}", None),
        ("get", f"/api/clubs/{club_id}/export", None),
        ("post", f"/api/clubs/{club_id}/codes", {"member_id": member}),
        ("post", f"/api/clubs/{club_id}/merge", {"keep": member, "gone": member}),
        ("post", f"/api/clubs/{club_id}/rename", {"member_id": member, "name": "X"}),
        ("post", f"/api/clubs/{club_id}/tables", {"table_id": night["table_id"],
                                                  "host_secret": "x"}),
    ]  # fmt: skip
    for credential in (None, other["club_secret"], key, night["token"]):
        headers = bearer(credential) if credential else {}
        for method, path, body in host_routes:
            answer = client.request(method, path, json=body, headers=headers)
            assert answer.status_code == 403, (path, credential, answer.text)
            assert answer.json()["code"] == "not-host"
    for credential in (None, club["club_secret"], night["token"], device()):
        headers = bearer(credential) if credential else {}
        answer = client.get(f"/api/clubs/{club_id}/me", headers=headers)
        assert answer.status_code == 403 and answer.json()["code"] == "not-member"
    assert client.get(f"/api/clubs/{other['club_id']}/me", headers=bearer(key)).status_code == 403
    for credential in (None, club["club_secret"], key):
        headers = bearer(credential) if credential else {}
        answer = client.post(f"/api/tables/{night['table_id']}/club", json={"device": key},
                             headers=headers)  # fmt: skip
        assert answer.status_code == 403 and answer.json()["code"] == "not-seated"
    # a table counts for one club only, and only its host may count it
    taken = client.post(f"/api/clubs/{other['club_id']}/tables",
                        json={"table_id": night["table_id"], "host_secret": "wrong"},
                        headers=bearer(other["club_secret"]))  # fmt: skip
    assert taken.status_code == 403


def test_wrong_codes_are_bounded_and_bodies_are_bounded(client: TestClient) -> None:
    club = make_club(client)
    club_id = club["club_id"]
    host = bearer(club["club_secret"])
    member = play_night(client, club, device(), "Jo", deals=1)["linked"].json()["member"]["id"]
    code = client.post(f"/api/clubs/{club_id}/codes", json={"member_id": member},
                       headers=host).json()["code"]  # fmt: skip
    phone = device()
    answers = [client.post(f"/api/clubs/{club_id}/claim", json={"code": f"WRONG{n}",
                                                                "device": phone}).status_code
               for n in range(10)]  # fmt: skip
    assert answers == [403] * 10
    locked = client.post(f"/api/clubs/{club_id}/claim", json={"code": code, "device": phone})
    assert locked.status_code == 429 and locked.json()["code"] == "locked"
    big = {"name": "x" * (CLUB_BODY_BYTES + 10)}
    assert client.post("/api/clubs", json=big).status_code == 413
    for body in ({"name": ""}, {"name": "a", "extra": 1}, {"name": 5}, []):
        assert client.post("/api/clubs", json=body).status_code == 400
    short = client.post(f"/api/clubs/{club_id}/claim", json={"code": code, "device": "short"})
    assert short.status_code == 400  # a device key has at least 128 bits


def test_the_club_page_is_served_under_the_policy(client: TestClient) -> None:
    page = client.get("/c/anything")
    assert page.status_code == 200 and "club.js" in page.text
    assert "script-src 'self'" in page.headers["content-security-policy"]


def test_the_stats_are_replayed_off_the_event_loop_and_a_finished_night_once(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    from guts.server import clubs

    threads: list[int] = []
    replay = clubs.night_record

    def spied(stored: Any) -> Any:
        threads.append(threading.get_ident())
        return replay(stored)

    monkeypatch.setattr(clubs, "night_record", spied)
    with TestClient(create_app(sqlite_url, settings=QUICK)) as client:
        club = make_club(client)
        play_night(client, club, device(), "Jo", deals=2)
        host = bearer(club["club_secret"])
        views = [client.get(f"/api/clubs/{club['club_id']}", headers=host) for _ in range(3)]
        assert [view.status_code for view in views] == [200] * 3
        loop_thread = client.portal.call(threading.get_ident)  # type: ignore[union-attr]
    assert len(threads) == 1 and threads[0] != loop_thread  # replayed once, in a thread
    with TestClient(create_app(sqlite_url, settings=QUICK)) as client:  # after a restart
        again = client.get(f"/api/clubs/{club['club_id']}", headers=host)
        assert again.json() == views[0].json()
    assert len(threads) == 1  # the finished night's counts were kept


def test_club_secrets_device_keys_and_codes_are_kept_only_as_hashes(
    client: TestClient, sqlite_url: str
) -> None:
    import sqlite3

    club = make_club(client)
    key = device()
    night = play_night(client, club, key, "Jo", deals=1)
    member = night["linked"].json()["member"]["id"]
    code = client.post(f"/api/clubs/{club['club_id']}/codes", json={"member_id": member},
                       headers=bearer(club["club_secret"])).json()["code"]  # fmt: skip
    path = sqlite_url.partition(":///")[2]
    with sqlite3.connect(path) as database:
        dump = "\n".join(database.iterdump())
    assert club["club_id"] in dump and member in dump
    for secret in (club["club_secret"], key, code, code.replace("-", "")):
        assert secret not in dump
