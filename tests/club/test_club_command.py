"""``guts club`` against the server's app in process: a host starts a club, sees its
members and exports the CSV the page downloads; a wrong secret is refused, saying so."""

from __future__ import annotations

import csv
import io
import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from cli_helpers import run
from club_helpers import device, play_night

from guts.server.actor import Settings
from guts.server.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


@pytest.fixture
def server(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """The app in process, answering the CLI's requests to http://testserver."""
    with TestClient(create_app(sqlite_url, settings=Settings(0, 0))) as client:

        def relay(method: str) -> Any:
            def call(url: str, **kwargs: Any) -> httpx.Response:
                assert url.startswith("http://testserver/")
                kwargs.pop("timeout", None)
                return client.request(method, url.removeprefix("http://testserver"), **kwargs)

            return call

        monkeypatch.setattr(httpx, "post", relay("POST"))
        monkeypatch.setattr(httpx, "get", relay("GET"))
        yield client


def test_a_host_starts_shows_and_exports_a_club(
    capsys: pytest.CaptureFixture[str], server: TestClient, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    code, out, _ = run(capsys, "club", "new", "http://testserver", "--name", "Friday", "--json")
    assert code == 0
    made = json.loads(out)
    club = {"club_id": made["club_id"], "club_secret": made["club_secret"]}
    night = play_night(server, club, device(), "Jo", deals=2)
    monkeypatch.setenv("GUTS_CLUB_SECRET", made["club_secret"])
    code, out, _ = run(capsys, "club", "show", "http://testserver", made["club_id"])
    assert code == 0 and "Friday: 1 members, 1 tables" in out
    assert "Jo" in out and f"{night['net']:+d}" in out
    target = tmp_path / "club.csv"
    code, out, _ = run(capsys, "club", "export", "http://testserver", made["club_id"],
                       "--out", str(target))  # fmt: skip
    assert code == 0 and out.strip() == f"wrote {target}"
    rows = list(csv.DictReader(io.StringIO(target.read_text())))
    assert [(r["name"], r["nights"], int(r["net"])) for r in rows] == [("Jo", "1", night["net"])]
    code, out, _ = run(capsys, "club", "export", "http://testserver", made["club_id"], "--nights")
    assert code == 0 and out.startswith("member_id,name,table_id,game,date")


def test_a_wrong_secret_is_refused_saying_so(
    capsys: pytest.CaptureFixture[str], server: TestClient
) -> None:
    code, out, _ = run(capsys, "club", "new", "http://testserver", "--json")
    club_id = json.loads(out)["club_id"]
    code, out, _ = run(capsys, "club", "show", "http://testserver", club_id, "--secret", "nope")
    assert code == 1 and "the server refused: a club is its host's" in out
