"""The host takes a table off the club, removes a member (and their devices' links) and
deletes the club, with the club secret only; on SQLite and PostgreSQL."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa

with warnings.catch_warnings():  # Starlette would rather have httpx2, not on PyPI here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from club_helpers import bearer, device, make_club, play_night

from guts.server.actor import Settings
from guts.server.app import create_app

QUICK = Settings(bot_delay=0, deal_delay=0)
CLUB_ROWS = ("club_codes", "club_seats", "club_devices", "club_members", "club_tables")


@pytest.fixture
def any_client(database_url: str) -> Iterator[TestClient]:
    """The app on SQLite, and on PostgreSQL."""
    with TestClient(create_app(database_url, settings=QUICK)) as test_client:
        yield test_client


def rows(client: TestClient, club_id: str, table_id: str) -> dict[str, int]:
    """How many rows of each club table the server's database keeps for the club (and
    the kept counts of its table ``table_id``)."""

    def count(connection: Any) -> dict[str, int]:
        counted = {name: connection.execute(sa.text(
            f"select count(*) from {name} where club_id = :c"), {"c": club_id}).scalar_one()
            for name in CLUB_ROWS}  # fmt: skip
        counted["clubs"] = connection.execute(
            sa.text("select count(*) from clubs where id = :c"), {"c": club_id}
        ).scalar_one()
        counted["club_nights"] = connection.execute(
            sa.text("select count(*) from club_nights where table_id = :t"), {"t": table_id}
        ).scalar_one()
        return counted

    storage = client.app.state.tables.storage  # type: ignore[attr-defined]
    found: dict[str, int] = client.portal.call(storage.run, count)  # type: ignore[union-attr]
    return found


def test_the_host_takes_a_table_off_the_club(any_client: TestClient) -> None:
    client = any_client
    club = make_club(client)
    club_id, host = club["club_id"], bearer(club["club_secret"])
    key = device()
    first = play_night(client, club, key, "Jo", deals=1)
    second = play_night(client, club, key, "Jo", deals=1)
    view = client.get(f"/api/clubs/{club_id}", headers=host).json()
    assert [t["table_id"] for t in view["table_list"]] == [first["table_id"], second["table_id"]]
    assert view["table_list"][0]["preset"] == "two-card-guts"
    assert [len(m["nights"]) for m in view["members"]] == [2]
    gone = client.delete(f"/api/clubs/{club_id}/tables/{first['table_id']}", headers=host)
    assert gone.status_code == 200, gone.text
    view = client.get(f"/api/clubs/{club_id}", headers=host).json()
    assert view["tables"] == 1 and [t["table_id"] for t in view["table_list"]] == [
        second["table_id"]
    ]
    (jo,) = view["members"]
    assert [n["table_id"] for n in jo["nights"]] == [second["table_id"]]
    assert jo["net"] == second["net"]  # the night taken off counts no more
    mine = client.get(f"/api/clubs/{club_id}/me", headers=bearer(key)).json()["members"][0]
    assert len(mine["nights"]) == 1  # the member's own view too
    again = client.delete(f"/api/clubs/{club_id}/tables/{first['table_id']}", headers=host)
    assert again.status_code == 404 and again.json()["code"] == "no-such-table"
    assert client.get(f"/api/tables/{first['table_id']}").status_code == 200  # it stays
    linked = client.post(f"/api/tables/{first['table_id']}/club", json={"device": key},
                         headers=bearer(first["token"]))  # fmt: skip
    assert linked.status_code == 404 and linked.json()["code"] == "no-club"
    other = make_club(client, "Another")  # its host may count it for another club now
    table_host = client.get(f"/api/clubs/{club_id}", headers=host)  # (unchanged)
    assert table_host.json()["tables"] == 1
    assert other["club_id"] != club_id


def test_the_host_removes_a_member_and_their_devices(any_client: TestClient) -> None:
    client = any_client
    club = make_club(client)
    club_id, host = club["club_id"], bearer(club["club_secret"])
    jo_key, al_key = device(), device()
    jo = play_night(client, club, jo_key, "Jo", deals=1)["linked"].json()["member"]
    al = play_night(client, club, al_key, "Al", deals=1)["linked"].json()["member"]
    code = client.post(f"/api/clubs/{club_id}/codes", json={"member_id": jo["id"]},
                       headers=host).json()["code"]  # fmt: skip
    removed = client.delete(f"/api/clubs/{club_id}/members/{jo['id']}", headers=host)
    assert removed.status_code == 200 and removed.json()["member"]["name"] == "Jo"
    members = client.get(f"/api/clubs/{club_id}", headers=host).json()["members"]
    assert [m["id"] for m in members] == [al["id"]]
    assert client.get(f"/api/clubs/{club_id}/me", headers=bearer(jo_key)).status_code == 403
    claimed = client.post(f"/api/clubs/{club_id}/claim", json={"code": code, "device": device()})
    assert claimed.status_code == 403  # the removed member's open code went with it
    again = client.delete(f"/api/clubs/{club_id}/members/{jo['id']}", headers=host)
    assert again.status_code == 404 and again.json()["code"] == "no-such-member"
    back = play_night(client, club, jo_key, "Jo", deals=1)["linked"].json()["member"]
    assert back["id"] not in (jo["id"], al["id"])  # the device is a new member now
    members = client.get(f"/api/clubs/{club_id}", headers=host).json()["members"]
    assert sorted(len(m["nights"]) for m in members) == [1, 1]


def test_the_host_deletes_the_club(any_client: TestClient) -> None:
    client = any_client
    club, kept = make_club(client), make_club(client, "Kept")
    club_id, host = club["club_id"], bearer(club["club_secret"])
    key = device()
    night = play_night(client, club, key, "Jo", deals=1)
    play_night(client, kept, key, "Jo", deals=1)
    member = night["linked"].json()["member"]["id"]
    client.post(f"/api/clubs/{club_id}/codes", json={"member_id": member}, headers=host)
    client.get(f"/api/clubs/{club_id}", headers=host)  # keeps the finished night's counts
    assert all(rows(client, club_id, night["table_id"]).values())  # a row of each kind to delete
    deleted = client.delete(f"/api/clubs/{club_id}", headers=host)
    assert deleted.status_code == 200 and deleted.json()["deleted"] is True
    assert set(rows(client, club_id, night["table_id"]).values()) == {0}
    assert client.get(f"/api/clubs/{club_id}", headers=host).status_code == 403
    assert client.get(f"/api/clubs/{club_id}/me", headers=bearer(key)).status_code == 403
    assert client.delete(f"/api/clubs/{club_id}", headers=host).status_code == 403
    linked = client.post(f"/api/tables/{night['table_id']}/club", json={"device": key},
                         headers=bearer(night["token"]))  # fmt: skip
    assert linked.status_code == 404  # the table counts for no club, and stays
    assert client.get(f"/api/tables/{night['table_id']}").status_code == 200
    other = client.get(f"/api/clubs/{kept['club_id']}", headers=bearer(kept["club_secret"]))
    assert [len(m["nights"]) for m in other.json()["members"]] == [1]  # untouched
    mine = client.get(f"/api/clubs/{kept['club_id']}/me", headers=bearer(key))
    assert mine.status_code == 200


def test_removals_ask_for_the_club_secret_and_bounded_ids(any_client: TestClient) -> None:
    client = any_client
    club, other = make_club(client), make_club(client, "Another")
    club_id = club["club_id"]
    key = device()
    night = play_night(client, club, key, "Jo", deals=1)
    member = night["linked"].json()["member"]["id"]
    paths = [f"/api/clubs/{club_id}/tables/{night['table_id']}",
             f"/api/clubs/{club_id}/members/{member}", f"/api/clubs/{club_id}"]  # fmt: skip
    for credential in (None, other["club_secret"], key, night["token"]):
        headers = bearer(credential) if credential else {}
        for path in paths:
            answer = client.delete(path, headers=headers)
            assert answer.status_code == 403 and answer.json()["code"] == "not-host", path
    host = bearer(club["club_secret"])
    for kind in ("tables", "members"):
        path = f"/api/clubs/{club_id}/{kind}/{'x' * 65}"
        answer = client.delete(path, headers=host)
        assert answer.status_code == 400 and answer.json()["code"] == "invalid"
    view = client.get(f"/api/clubs/{club_id}", headers=host).json()
    assert view["tables"] == 1 and len(view["members"]) == 1  # nothing was removed
