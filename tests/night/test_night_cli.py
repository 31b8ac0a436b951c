"""``guts play dealers-choice`` and ``guts replay`` of a night, through the CLI."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from cli_helpers import run
from rich.console import Console

from guts.night import Night, NightRules
from guts.play import PlayConfig, play_night

GAMES = "two-card-guts,three-five-seven,jacks-or-better,bourre"


def test_a_watched_night_is_narrated_recorded_and_replayed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    history = tmp_path / "night.jsonl"
    code, out, err = run(capsys, "play", "dealers-choice", "--games", GAMES, "--watch",
                         "--seed", "3", "--history", str(history))  # fmt: skip
    assert code == 0, err
    chosen = [line for line in out.splitlines() if " chooses game " in line]
    assert len(chosen) == 4  # a game per player unless most-games says otherwise
    assert {line.rsplit(": ", 1)[1] for line in chosen} <= set(GAMES.split(","))
    assert "The night is over: 4 games were played." in out and "to settle up" in out
    assert "buys in" not in out  # a game seats the stacks carried: no buy-in to tell
    header = json.loads(history.read_text().splitlines()[0])
    assert header["preset"] == "dealers-choice" and header["game"] == "night"
    code, replayed, err = run(capsys, "replay", str(history))
    assert code == 0, err
    told = [line for line in out.splitlines() if " chooses game " in line or "══" in line]
    assert [line for line in replayed.splitlines() if " chooses game " in line or "══" in line
            ] == told  # fmt: skip
    code, seen_by_ann, _ = run(capsys, "replay", str(history), "--seat", "Ann")
    assert code == 0 and "Ann is dealt" in seen_by_ann and "Bob is dealt" not in seen_by_ann
    assert "Bob is dealt" in run(capsys, "replay", str(history), "--seat", "Bob")[1]


def test_the_same_seed_plays_the_same_night(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("play", "dealers-choice", "--games", "two-card-guts,bourre", "--players", "3",
            "--watch", "--seed", "8", "--option", "most-games=3")  # fmt: skip
    assert run(capsys, *args)[1] == run(capsys, *args)[1]


def test_night_options_and_house_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "play", "dealers-choice", "--games",
                         "two-card-guts ante=2,bourre", "--players", "3", "--watch", "--seed",
                         "4", "--option", "chooser=rotation", "--option", "cap=2")  # fmt: skip
    assert code == 0, err
    assert "with chooser=rotation, cap=2, most-games=2" in out
    assert "Next in the rotation, game 1: two-card-guts" in out
    assert "Next in the rotation, game 2: bourre" in out
    assert "antes 2" in out


@pytest.mark.parametrize(("args", "message"), [
    (("--games", "two-card-guts,hold-em"), "unknown game 'hold-em'"),
    (("--games", "jacks-or-better", "--players", "3"), "jacks-or-better: this game takes 4"),
    (("--option", "cap=0"), "cap: expected at least 1"),
    (("--bots", "threshold"), "--bots must be one of random, sensible for staged games"),
    (("--players", "1"), "--players must be between 2 and 26"),
])  # fmt: skip
def test_bad_nights_fail_in_one_line(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    code, out, err = run(capsys, "play", "dealers-choice", "--watch", *args)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1
    assert "Game 1" not in out


def test_games_is_only_for_dealers_choice(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "play", "bourre", "--games", "bourre")
    assert code == 2 and "--games is for dealers-choice" in err


def test_a_person_chooses_and_plays_a_night_with_typed_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # "1" is the first choice, the first card to throw or play, a bet's first size: a
    # legal answer at every prompt of every family; a bad answer gets a new prompt
    monkeypatch.setattr(sys, "stdin", io.StringIO("nonsense\n" + "1\n" * 600))
    history = tmp_path / "mine.jsonl"
    code, out, err = run(capsys, "play", "dealers-choice", "--games", GAMES, "--seed", "5",
                         "--bots", "random", "--history", str(history))  # fmt: skip
    assert code == 0, err
    assert "▶ Your turn — choose game 1" in out
    assert "✗ 'nonsense' is not a choice here" in out
    assert "You choose game 1: two-card-guts" in out and "you deal first" in out
    assert "The night's chips" in out
    assert run(capsys, "replay", str(history), "--seat", "You")[0] == 0


def test_leaving_a_night_mid_game_shows_what_is_in_the_middle() -> None:
    output = io.StringIO()
    answers = io.StringIO("three-five-seven ante=2\n")  # then the input ends
    night = play_night(NightRules(games="two-card-guts,three-five-seven"),
                       PlayConfig(players=3, seed=2), Console(file=output, width=80),
                       answers)  # fmt: skip
    text = output.getvalue()
    assert "You choose game 1: three-five-seven (ante=2)" in text
    assert "You leave the table" in text and "still in the middle of game 1" in text
    assert isinstance(night, Night) and not night.is_over and night.ledger.in_play == 6


def test_games_lists_the_night_and_rules_describes_it(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "games")
    assert code == 0 and "night\n  dealers-choice" in out
    code, out, _ = run(capsys, "rules", "dealers-choice", "-o", "chooser=next")
    assert code == 0 and "chooser = next" in out and "capped-pot = split" in out
    code, _, err = run(capsys, "rules", "dealers-choice", "-o", "cap=x")
    assert code == 2 and "cap" in err
