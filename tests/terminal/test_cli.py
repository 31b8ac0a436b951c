"""The command line: output, JSON, and one-line errors with exit status 2."""

from __future__ import annotations

import json

import pytest
from cli_helpers import run


def test_eval_prints_category_description_and_playing_cards(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "eval", "high", "Kh", "Kd", "Ks", "5c", "5d", "2h", "2s")
    assert code == 0
    assert "Full house, kings over fives" in out and "full-house" in out
    assert "plays: K♥ K♦ K♠ 5♣ 5♦" in out


def test_eval_shows_what_a_wild_stands_for(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "eval", "high", "Ah2c9h8h4h", "--wild", "2")
    assert code == 0 and "Flush, ace high" in out and "2♣ stands for K♥" in out


def test_compare_orders_and_marks_ties(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "compare", "high", "Kh Kd 2c 3c 4c", "As Ad 2d 3d 4d",
                       "Ah Ac 2h 3h 4h")
    assert code == 0
    lines = [line for line in out.splitlines() if line.strip()]
    assert lines[0].startswith(" 1=") and lines[1].startswith(" 1=")
    assert lines[2].startswith(" 3 ") and "Pair of kings" in lines[2]


def test_census_json_for_three_card(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "census", "three-card", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["total"] == 22100 and data["cards"] == 3 and data["deck"] == "52"
    assert sum(data["categories"].values()) == 22100
    assert set(data) >= {"ranking", "cards", "deck", "total", "classes", "categories"}


def test_census_sample_reports_intervals(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "census", "two-card", "--sample", "2000", "--seed", "3", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["sampled"] is True and data["total"] == 2000
    low, high = data["intervals"]["pair"]
    assert 0 <= low < 78 / 1326 < high <= 1


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("eval", "high", "As", "Kd", "1x"), "'1x' is not a card"),
        (("eval", "nope", "As"), "unknown ranking 'nope'"),
        (("eval", "high", "As", "as", "Kd", "Qd", "2c"), "duplicate card As"),
        (("census", "high", "--option", "foo=bar"), "unknown option 'foo'"),
        (("census", "high", "--option", "ace-low=perhaps"), "yes or no"),
        (("census", "high", "--option", "ace-low"), "KEY=VALUE"),
        (("census", "high", "--joker", "sometimes"), "'bug' or 'wild'"),
        (("census", "high", "--wild", "2,Xx"), "'Xx' is not a wild rank or card"),
        (("census", "high", "--jokers", "3"), "0, 1 or 2"),
        (("census", "high", "--cards", "9"), "not 9"),
        (("compare", "high", "As Kd Qh Jc 2c", "As 3d 4h 5c 6c"), "As is in hand 1 and hand 2"),
        (("census", "high", "--seed", "3"), "--seed only applies"),
        (("census", "high", "--jokers", "0", "--joker", "wild"), "--jokers 0 puts none"),
        (("census", "high", "--cards", "abc"), "Invalid value for '--cards'"),
        (("census",), "Missing argument"),
        (("--bogus",), "No such option"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], needle: str
) -> None:
    code, _, err = run(capsys, *args)
    assert code == 2
    assert needle in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_wild_jokers_are_wild_without_other_wild_cards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "eval", "high", "5s", "5h", "5d", "5c", "jk", "--joker", "wild")
    assert code == 0 and "Five of a kind, fives" in out
    code, out, _ = run(capsys, "eval", "high", "5s", "5h", "5d", "5c", "jk", "--joker", "bug")
    assert code == 0 and "Four of a kind, fives" in out
