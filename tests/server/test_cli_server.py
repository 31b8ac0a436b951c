"""``guts host`` and ``guts serve`` on the command line (``guts host`` against the app in
process; the crash tests run ``guts serve`` itself as a subprocess)."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from cli_helpers import run

from guts.server.actor import Settings
from guts.server.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


@pytest.fixture
def server(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """The app in process, answering the CLI's HTTP requests to http://testserver."""
    with TestClient(create_app(sqlite_url, settings=Settings(0, 3600))) as client:

        def post(url: str, **kwargs: Any) -> httpx.Response:
            assert url.startswith("http://testserver/")
            kwargs.pop("timeout", None)
            return client.post(url.removeprefix("http://testserver"), **kwargs)

        monkeypatch.setattr(httpx, "post", post)
        yield client


def test_host_prints_the_links_as_json(
    capsys: pytest.CaptureFixture[str], server: TestClient
) -> None:
    code, out, err = run(
        capsys,
        "host",
        "two-card-guts",
        "--bots",
        "3",
        "--bot",
        "random",
        "--start",
        "--json",
        "--server",
        "http://testserver",
        "-o",
        "continue-after-empty=yes",
    )
    assert code == 0, err
    links = json.loads(out)
    assert sorted(links) == ["host_url", "join_url", "table_id"]
    assert links["host_url"].startswith(links["join_url"] + "#host=")
    summary = server.get(f"/api/tables/{links['table_id']}").json()
    assert summary["status"] == "playing" and len(summary["seats"]) == 3
    assert summary["options"] == {"continue-after-empty": "yes"}


def test_host_prints_the_links_for_people(
    capsys: pytest.CaptureFixture[str], server: TestClient
) -> None:
    code, out, _ = run(
        capsys,
        "host",
        "bourre",
        "--buy-in",
        "40",
        "--auto-approve",
        "--clock",
        "45",
        "--time-bank",
        "0",
        "--server",
        "http://testserver/",
    )
    assert code == 0
    assert "Send the players this link: http://testserver/t/" in out
    assert "#host=" in out
    table_id = out.split("/t/")[1].split()[0].split("#")[0]
    table = server.get(f"/api/tables/{table_id}").json()
    assert (table["clock"], table["time_bank"]) == (45, 0)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["no-such-game"], "unknown game"),
        (["two-card-guts", "-o", "ghost=sometimes"], "ghost"),
        (["two-card-guts", "-o", "ghost"], "KEY=VALUE"),
        (["jacks-or-better", "--bots", "2", "--start"], "refused"),
        (["five-card-draw", "--bots", "1", "--bot", "threshold"], "refused"),
        (["two-card-guts", "--clock", "-1"], "--clock"),
    ],
)
def test_host_refusals_are_one_line(
    capsys: pytest.CaptureFixture[str], server: TestClient, args: list[str], message: str
) -> None:
    code, out, err = run(capsys, "host", *args, "--server", "http://testserver")
    assert code == 2 and out == ""
    assert err.startswith("guts: ") and message in err and err.count("\n") == 1


def test_host_without_a_server_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "host", "two-card-guts", "--server", "http://127.0.0.1:9")
    assert code == 2 and "cannot reach a guts server" in err and "guts serve" in err


def test_serve_refuses_bad_flags(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "serve", "--port", "70000")
    assert code == 2 and "--port" in err
    code, _, err = run(capsys, "serve", "--bot-delay", "-1")
    assert code == 2 and "negative" in err
    code, _, err = run(capsys, "serve", "--database", "guts.db", "--port", "8001")
    assert code == 2 and "not a database URL" in err


def answer_gets_from(server: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """``httpx.get`` of ``http://testserver/...`` answered by the in-process ``server``."""

    def get(url: str, **kwargs: Any) -> httpx.Response:
        kwargs.pop("timeout", None)
        return server.get(url.removeprefix("http://testserver"), **kwargs)

    monkeypatch.setattr(httpx, "get", get)


def test_ledger_prints_the_table_and_the_csv(
    capsys: pytest.CaptureFixture[str], server: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    answer_gets_from(server, monkeypatch)
    code, out, _ = run(
        capsys,
        "host",
        "two-card-guts",
        "--bots",
        "2",
        "--bot",
        "random",
        "--start",
        "--json",
        "--server",
        "http://testserver",
    )
    links = json.loads(out)
    code, out, err = run(capsys, "ledger", links["host_url"])
    assert code == 0, err
    assert "Ann" in out and "Bob" in out and "net" in out
    code, out, _ = run(capsys, "ledger", links["host_url"], "--csv")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == (
        "player_nickname,player_id,session_start_at,session_end_at,buy_in,buy_out,stack,net,"
        "settled_by"
    )
    assert [line.split(",")[0] for line in lines[1:]] == ["Ann", "Bob"]
    code, _, err = run(capsys, "ledger", links["join_url"])  # no secret in it
    assert code == 2 and "host link" in err
    code, _, err = run(capsys, "ledger", links["join_url"] + "#host=wrong")
    assert code == 2 and "host secret" in err


def test_ledger_prints_nicknames_as_written_and_no_settlement_while_chips_are_in_the_pot(
    capsys: pytest.CaptureFixture[str], server: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    answer_gets_from(server, monkeypatch)
    created = server.post("/api/tables", json={"preset": "two-card-guts", "bots": 2,
                                               "bot": "random", "auto_approve": True,
                                               "clock": 0}).json()  # fmt: skip
    table_id, secret, host_url = created["table_id"], created["host_secret"], created["host_url"]
    ledger_url = f"/api/tables/{table_id}/ledger"
    auth = {"authorization": f"Bearer {secret}"}
    with server.websocket_connect(f"/ws/{table_id}") as mal:
        mal.send_json({"type": "join", "nickname": "[red]Mal[/red]"})
        while mal.receive_json()["type"] != "welcome":
            pass
        code, out, err = run(capsys, "ledger", host_url)  # bought in, not yet dealt
        assert code == 0, err
        assert "[red]Mal[/red]" in out and "No settlement" not in out and " pays " not in out
        assert server.get(ledger_url, headers=auth).json()["unsettled"] is None
        mal.send_json({"type": "start", "secret": secret})
        while mal.receive_json()["type"] != "event":
            pass  # the antes are in the pot and Mal has to decide
        pot = server.get(f"/api/tables/{table_id}").json()["pot"]
        assert pot == 3
        ledger = server.get(ledger_url, headers=auth).json()
        assert sum(row["net"] for row in ledger["players"]) == -pot
        assert ledger["settlement"] == []
        assert ledger["unsettled"] == "3 chips are still in the pot: settle once it is won"
        code, out, err = run(capsys, "ledger", host_url)
        assert code == 0, err
        assert "[red]Mal[/red]" in out and " pays " not in out
        assert "No settlement yet: 3 chips are still in the pot: settle once it is won." in out
