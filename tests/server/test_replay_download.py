"""`guts replay` and `guts export` read a table's downloaded hand history: every session
of the night, as the requester saw it (no deck orders), told as recorded; a malformed
download is one line on stderr naming the line."""

from __future__ import annotations

import io
import json
import re
import tomllib
import warnings
from pathlib import Path

import pytest
from test_records import play_night

from guts.cards import format_cards, parse_cards
from guts.cli import main
from guts.history import HistoryError, read_histories, read_history, told_events
from guts.server.actor import Settings
from guts.server.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

SYMBOLS = re.compile(r"(?:10|[2-9JQKA])[♠♥♦♣]")


@pytest.fixture(scope="module")
def downloads(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """A jacks-or-better night of Jo and three bots: Jo's download, a spectator's, and
    the server's whole events (to know what was hidden)."""
    folder = tmp_path_factory.mktemp("downloads")
    url = f"sqlite+aiosqlite:///{folder / 'guts.db'}"
    with TestClient(create_app(url, settings=Settings(0, 0))) as client:
        table_id, secret, token = play_night(client, "jacks-or-better")
        actor = client.app.state.tables.actors[table_id]  # type: ignore[attr-defined]
        path = f"/api/tables/{table_id}/history"
        mine = client.get(path, headers={"authorization": f"Bearer {token}"}).text
        public = client.get(path, headers={"authorization": f"Bearer {secret}"}).text
        jo = actor.state.night.lineups[0].index(3)
        sessions = list(actor.state.sessions)
    (folder / "jo.jsonl").write_text(mine)
    (folder / "public.jsonl").write_text(public)
    (folder / "both.jsonl").write_text(mine + public)
    return {"folder": folder, "jo": jo, "sessions": sessions}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = 0
    try:
        main(list(argv))
    except SystemExit as stop:
        code = int(stop.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def shown_cards(text: str) -> set[str]:
    return set(SYMBOLS.findall(text))


def cards_by_audience(downloads: dict[str, object], seat: int | None) -> tuple[set[str], set[str]]:
    """The cards (as the narration writes them) in events ``seat`` could see, and those
    only in events it could not."""
    seen: set[str] = set()
    hidden: set[str] = set()
    for session in downloads["sessions"]:  # type: ignore[attr-defined]
        for event in session.events:
            codes = set(re.findall(r"\b[2-9TJQKA][cdhs]\b", json.dumps(event.to_dict())))
            (seen if event.visible_to(seat) else hidden).update(codes)
    return ({format_cards(parse_cards(c)) for c in seen},
            {format_cards(parse_cards(c)) for c in hidden - seen})  # fmt: skip


def test_a_seats_download_is_told_with_its_own_cards_and_no_one_elses(
    downloads: dict[str, object], capsys: pytest.CaptureFixture[str]
) -> None:
    folder = downloads["folder"]
    assert isinstance(folder, Path)
    code, out, err = run(capsys, "replay", str(folder / "jo.jsonl"))
    assert code == 0, err
    assert out.startswith("(as Jo saw it: hidden cards left out, told as recorded)")
    assert "Jo gets " in out and "The session is over" in out
    dealt = [line for line in out.splitlines() if re.search(r" gets \S+[♠♥♦♣]", line)]
    assert dealt and all(line.startswith("Jo gets") for line in dealt), dealt
    seat = downloads["jo"]
    assert isinstance(seat, int)
    seen, hidden = cards_by_audience(downloads, seat)
    assert hidden  # others' cards were dealt ...
    assert shown_cards(out) <= seen and not shown_cards(out) & hidden  # ... and never told


def test_a_spectators_download_shows_only_public_cards(
    downloads: dict[str, object], capsys: pytest.CaptureFixture[str]
) -> None:
    folder = downloads["folder"]
    assert isinstance(folder, Path)
    code, out, _ = run(capsys, "replay", str(folder / "public.jsonl"))
    assert code == 0
    assert out.startswith("(as a spectator saw it")
    assert not re.search(r" gets \S+[♠♥♦♣]", out)
    seen, hidden = cards_by_audience(downloads, None)
    assert hidden and shown_cards(out) <= seen


def test_every_session_of_a_download_is_told_in_order(
    downloads: dict[str, object], capsys: pytest.CaptureFixture[str]
) -> None:
    folder = downloads["folder"]
    assert isinstance(folder, Path)
    code, out, _ = run(capsys, "replay", str(folder / "both.jsonl"))
    assert code == 0
    assert out.index("━━ Session 1 of 2 ━━") < out.index("(as Jo saw it")
    assert out.index("(as Jo saw it") < out.index("━━ Session 2 of 2 ━━")
    assert out.index("━━ Session 2 of 2 ━━") < out.index("(as a spectator saw it")
    with open(folder / "both.jsonl", encoding="utf-8") as source:
        histories = read_histories(source)
    assert [h.viewer for h in histories] == [downloads["jo"], None]
    assert all(h.redacted for h in histories)
    with (
        open(folder / "both.jsonl", encoding="utf-8") as source,
        pytest.raises(HistoryError, match="holds 2 histories"),
    ):
        read_history(source)


def test_seat_narrows_a_download_to_what_both_could_see(
    downloads: dict[str, object], capsys: pytest.CaptureFixture[str]
) -> None:
    folder = downloads["folder"]
    assert isinstance(folder, Path)
    _, as_jo, _ = run(capsys, "replay", str(folder / "jo.jsonl"))
    code, as_ann, _ = run(capsys, "replay", str(folder / "jo.jsonl"), "--seat", "Ann")
    assert code == 0
    dealt_jo = re.compile(r"Jo gets \S+[♠♥♦♣]")
    assert dealt_jo.search(as_jo) and not dealt_jo.search(as_ann)
    code, _, err = run(capsys, "replay", str(folder / "jo.jsonl"), "--seat", "Zed")
    assert code == 2 and "no player 'Zed'" in err


def test_a_malformed_event_in_a_download_names_its_line(
    downloads: dict[str, object], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = downloads["folder"]
    assert isinstance(folder, Path)
    lines = (folder / "jo.jsonl").read_text().splitlines()
    broken = json.loads(lines[4])
    broken["kind"] = "no-such-event"
    lines[4] = json.dumps(broken)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    code, out, err = run(capsys, "replay", str(bad))
    assert code == 2 and out == ""
    assert err.startswith("guts: ") and "line 5" in err and "no-such-event" in err
    assert len(err.strip().splitlines()) == 1
    with pytest.raises(HistoryError, match="line 5"):
        told_events(read_history(io.StringIO("\n".join(lines))))


def test_a_seats_draw_download_exports_to_phh(
    downloads: dict[str, object], capsys: pytest.CaptureFixture[str]
) -> None:
    folder = downloads["folder"]
    assert isinstance(folder, Path)
    code, out, err = run(capsys, "export", str(folder / "jo.jsonl"), "--deal", "1")
    assert code == 0, err
    assert 'variant = "F5CD"' in out and '"Jo"' in out
    code, _, err = run(capsys, "export", str(folder / "both.jsonl"))
    assert code == 2 and "holds 2 histories" in err


def test_a_downloads_phh_deals_every_seat_with_unknown_cards_for_the_unseen(
    downloads: dict[str, object], capsys: pytest.CaptureFixture[str]
) -> None:
    folder = downloads["folder"]
    assert isinstance(folder, Path)
    for session in downloads["sessions"]:  # type: ignore[attr-defined]
        for deal in range(1, session.deals_played + 1):
            code, out, err = run(capsys, "export", str(folder / "jo.jsonl"), "--deal", str(deal))
            assert code == 0, err
            parsed = tomllib.loads(out.split("\n", 1)[1])
            names, actions = parsed["players"], parsed["actions"]
            first = actions[: len(names)]
            assert [a.split()[2] for a in first] == [f"p{k + 1}" for k in range(len(names))]
            for name, action in zip(names, first, strict=True):
                cards = action.split()[3]
                assert len(cards) == 10 and (cards == "?" * 10) == (name != "Jo"), action
            drew = [e for e in deal_events(session, deal) if e.kind == "draw-drew"]
            draws = [a for a in actions if " sd" in a]
            assert len(draws) == len(drew)  # every draw, seen or not
            for action, event in zip(draws, drew, strict=True):
                who, _, *cards = action.split()
                assert names[int(who[1:]) - 1] == names[parsed["seats"].index(event.seat + 1)]
                unseen = names[int(who[1:]) - 1] != "Jo"
                assert len(cards[0]) == 2 * event.count if cards else event.count == 0
                assert not cards or ("?" in cards[0]) == unseen, action


def deal_events(session: object, deal: int) -> list[object]:
    """The events of deal ``deal`` (1 first) of ``session``."""
    events: list[object] = []
    number = 0
    for event in session.events:  # type: ignore[attr-defined]
        if event.kind == "draw-deal-started":
            number = event.deal
        if number == deal:
            events.append(event)
    return events
