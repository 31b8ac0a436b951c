"""The terminal table, hand histories and replays, driven end to end."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from cli_helpers import run
from rich.console import Console

from guts.catalog import find_game, games
from guts.history import HistoryError, read_history, replay
from guts.play import PlayConfig, play, policy_for


def test_games_lists_every_family_one_line_each(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "games")
    assert code == 0
    for name in ("two-card-guts", "four-two-three", "hi-lo-guts", "bourre", "jacks-or-better"):
        assert any(line.split()[0] == name for line in out.splitlines() if line.startswith("  "))
    listed = [line.split()[0] for line in out.splitlines() if line.startswith("  ")]
    assert listed == [*games(), "dealers-choice"]  # every preset, then the night


def test_rules_prints_options_with_values(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "bourre", "--option", "pot-limit=20")
    assert code == 0 and "pot-limit" in out and "20" in out


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("rules", "no-such-game"), "unknown game 'no-such-game'"),
        (("rules", "bourre", "--option", "nonsense=1"), "nonsense"),
        (("play", "bourre", "--bots", "genius"), "--bots must be one of"),
        (("play", "bourre", "--players", "1"), "--players"),
        (("replay", "/nonexistent/history.jsonl"), "cannot read"),
    ],
)
def test_bad_play_input_is_one_line(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], needle: str
) -> None:
    code, _, err = run(capsys, *args)
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1


def test_watch_bourre_writes_a_history_that_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bourre.jsonl"
    code, out, _ = run(capsys, "play", "bourre", "--watch", "--deals", "3", "--seed", "4",
                       "--players", "4", "--history", str(path))
    assert code == 0 and "wins trick" in out and "Chips" in out
    lines = path.read_text().splitlines()
    assert json.loads(lines[0])["format"] == "guts-history/1"
    with path.open() as source:
        session = replay(read_history(source))
    assert session.table.snapshot() is not None
    code, out, _ = run(capsys, "replay", str(path), "--seat", "Ann")
    assert code == 0 and "wins trick" in out


def test_same_seed_same_game(capsys: pytest.CaptureFixture[str]) -> None:
    first = run(capsys, "play", "bourre", "--watch", "--deals", "2", "--seed", "9")[1]
    again = run(capsys, "play", "bourre", "--watch", "--deals", "2", "--seed", "9")[1]
    assert first == again


def test_a_person_plays_bourre_with_scripted_answers() -> None:
    game = find_game("bourre")
    # Keep answering "1": the first choice, the first card to discard, the first card
    # that may be played (only those are numbered); a bad answer gets a new prompt.
    answers = io.StringIO("nonsense\n" + "1\n" * 200)
    output = io.StringIO()
    console = Console(file=output, width=120)
    config = PlayConfig(players=3, seed=5, deals=2, bots="random")
    session = play(game, config, lambda kind, g, s: policy_for(kind, g.family, s),
                   console, answers)
    text = output.getvalue()
    assert "✗ 'nonsense' is not a choice here: choose play" in text  # (or fold)
    assert "your cards:" in text and session.deal_over


def test_end_of_input_leaves_cleanly_with_a_summary() -> None:
    output = io.StringIO()
    config = PlayConfig(players=3, seed=1)
    play(find_game("bourre"), config, lambda kind, g, s: policy_for(kind, g.family, s),
         Console(file=output, width=120), io.StringIO(""))
    text = output.getvalue()
    assert "You leave the table" in text and "Chips" in text


def test_a_tampered_history_does_not_replay(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "h.jsonl"
    run(capsys, "play", "bourre", "--watch", "--deals", "1", "--seed", "2",
        "--history", str(path))
    lines = path.read_text().splitlines()
    events = [json.loads(line) for line in lines[1:]]
    for event in events:
        if event["kind"] == "acted" and event["action"] in ("play", "fold"):
            event["action"] = "fold" if event["action"] == "play" else "play"
            break
    else:
        raise AssertionError("no intent to tamper with")
    path.write_text("\n".join([lines[0], *(json.dumps(e) for e in events)]) + "\n")
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2 and err.startswith("guts:")
    with pytest.raises(HistoryError):
        read_history(io.StringIO("not json\n"))


@pytest.mark.parametrize("game", ["jacks-or-better", "deuces-wild", "seven-card-draw"])
def test_watch_draw_stops_after_the_deals_and_replays(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "draw.jsonl"
    code, out, _ = run(capsys, "play", game, "--watch", "--deals", "2", "--seed", "3",
                       "--players", "3", "--option", "min-players=2",  # Jacks or Better: 4+
                       "--history", str(path))
    assert code == 0 and "Chips" in out
    with path.open() as source:
        session = replay(read_history(source))
    assert session.is_over and session.table.pot == 0
    assert sum(seat.stack for seat in session.table.seats) == 300


def test_a_person_plays_two_card_guts_end_to_end() -> None:
    """Scripted answers: a bad one, then short answers; the session ends cleanly."""
    output = io.StringIO()
    answers = io.StringIO("maybe\n" + "i\n" * 50)
    config = PlayConfig(players=3, seed=11, bots="threshold",
                        options={"continue-after-empty": "yes"}, deals=4)
    session = play(find_game("two-card-guts"), config,
                   lambda kind, g, s: policy_for(kind, g.family, s),
                   Console(file=output, width=160), answers)
    text = output.getvalue()
    assert "✗ 'maybe' is not a choice here: choose in or out" in text
    assert "your cards:" in text and "pot" in text
    assert "You: in" in text
    assert session.is_over and "Chips" in text
    assert sum(seat.stack for seat in session.table.seats) == 300


def test_main_command_leaves_cleanly_without_input(capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code, out, _ = run(capsys, "play", "two-card-guts", "--seed", "1")
    assert code == 0 and "Chips" in out


@pytest.mark.parametrize("game", ["three-five-seven", "toh", "nuts", "napalm", "hi-lo-guts",
                                  "four-two-three"])
def test_watch_other_games(game: str, tmp_path: Path,
                           capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "h.jsonl"
    code, out, _ = run(capsys, "play", game, "--watch", "--deals", "2", "--seed", "5",
                       "--history", str(path))
    assert code == 0 and "Chips" in out
    with path.open() as source:
        assert replay(read_history(source)).is_over


def test_export_draw_history_to_phh(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import tomllib

    path = tmp_path / "draw.jsonl"
    run(capsys, "play", "five-card-draw", "--watch", "--deals", "3", "--seed", "2",
        "--history", str(path))
    code, _out, _ = run(capsys, "export", str(path), "--out", str(tmp_path / "phh"))
    assert code == 0
    files = sorted((tmp_path / "phh").glob("deal-*.phh"))
    assert files
    for file in files:
        data = tomllib.loads(file.read_text())
        assert data["variant"] == "F5CD" and data["_game"] == "five-card-draw"
        assert {"antes", "starting_stacks", "actions"} <= set(data)
        assert data["actions"][0].startswith("d dh p1 ")
    code, _, err = run(capsys, "export", str(path), "--deal", "99")
    assert code == 2 and "--deal must be between 1 and" in err
    bourre = tmp_path / "b.jsonl"
    run(capsys, "play", "bourre", "--watch", "--deals", "1", "--seed", "1",
        "--history", str(bourre))
    code, _, err = run(capsys, "export", str(bourre))
    assert code == 2 and "draw poker histories" in err


def test_ctrl_c_leaves_cleanly_with_a_summary(capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupt(prompt: str = "") -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr("builtins.input", interrupt)
    monkeypatch.setattr("sys.stdin.isatty", lambda: True, raising=False)
    code, out, _ = run(capsys, "play", "two-card-guts", "--seed", "2", "--players", "3")
    assert code == 0 and "You leave the table" in out and "Chips" in out


def test_replay_a_person_played_guts_history_from_a_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "guts.jsonl"
    game = find_game("two-card-guts")
    config = PlayConfig(players=3, seed=8, bots="threshold", deals=3, history=str(path),
                        options={"continue-after-empty": "yes"})
    play(game, config, lambda kind, g, s: policy_for(kind, g.family, s),
         Console(file=io.StringIO(), width=120), io.StringIO("i\n" * 10))
    code, mine, _ = run(capsys, "replay", str(path), "--seat", "You", "--step")
    assert code == 0 and "You are dealt" in mine
    code, theirs, _ = run(capsys, "replay", str(path), "--seat", "Ann")
    dealt_to_you = [line for line in mine.splitlines() if line.startswith("You are dealt")]
    assert all(line not in theirs for line in dealt_to_you)  # Ann never sees your cards
    code, _, err = run(capsys, "replay", str(path), "--seat", "Zed")
    assert code == 2 and "no player 'Zed'" in err


def test_passing_and_stopping_are_told_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "play", "two-card-guts", "--watch", "--seed", "3", "--deals", "2",
                       "--option", "pass-left=yes", "--option", "cards=3",
                       "--option", "continue-after-empty=yes")
    assert code == 0 and "The players stop: 2 deals were played" in out


@pytest.mark.parametrize(("players", "target"), [("4", 5), ("6", 4), ("8", 3)])
def test_toh_announces_its_target_in_advance(players: str, target: int,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "play", "toh", "--watch", "--deals", "1", "--seed", "1",
                       "--players", players)
    lines = [line for line in out.splitlines() if line.strip()]
    announced = next(i for i, line in enumerate(lines) if line.startswith("Announced"))
    first_deal = next(i for i, line in enumerate(lines) if line.startswith("— Hand 1,"))
    assert code == 0 and announced < first_deal
    assert f"the first to {target} points takes the pot" in lines[announced]
