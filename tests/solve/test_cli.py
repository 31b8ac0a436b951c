"""``guts solve``: the table, --json, the cache, --plot and clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_helpers import run


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("GUTS_CACHE_DIR", str(tmp_path))
    return tmp_path / "solve"


def test_json_has_the_preset_players_exploitability_ev_and_strategy(
    capsys: pytest.CaptureFixture[str], cache: Path
) -> None:
    code, out, err = run(capsys, "solve", "two-card-guts", "--players", "3", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert (data["preset"], data["players"], data["declare"]) == ("two-card-guts", 3, "in-turn")
    assert 0 <= data["exploitability"] < 1e-3
    assert len(data["ev"]) == 3 and sum(data["ev"]) == pytest.approx(1.0)
    assert data["ev"][2] > data["ev"][0]  # the dealer declares last, with most known
    assert 0 < data["expected_next_pot"] < 1  # sessions end: pots shrink on average
    assert len(data["strategy"]) == 1 + 2 + 4  # histories of each position in turn
    first = data["strategy"][0]
    assert first["position_name"] == "dealer's left" and first["before"] == "-"
    assert first["in"]["pair of aces"] == pytest.approx(1.0, abs=1e-3)
    assert len(first["in"]) == 91
    automatic = [s for s in data["strategy"] if s["automatic"]]
    assert [(s["position"], s["before"]) for s in automatic] == [(2, "out, out")]
    assert list(cache.glob("*.npz"))  # kept for next time


def test_a_second_solve_reads_the_cache(capsys: pytest.CaptureFixture[str], cache: Path) -> None:
    args = ("solve", "simultaneous-guts", "-n", "3", "--json")
    first = json.loads(run(capsys, *args)[1])
    (stored,) = cache.glob("*.npz")
    stamp = stored.stat().st_mtime_ns
    second = json.loads(run(capsys, *args)[1])
    assert second == first and stored.stat().st_mtime_ns == stamp
    assert [s["before"] for s in first["strategy"]] == ["all at once"] * 3


def test_table_by_position_and_declarations(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "two-card-guts", "-n", "2", "--no-cache")
    assert code == 0
    assert "weakest hand in" in out and "in automatically" in out
    assert "EV per position" in out and "exploitability" in out and "exact card removal" in out


def test_plot_draws_a_png(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "thresholds.png"
    code, _, err = run(capsys, "solve", "ghost-guts", "-n", "2", "--plot", str(target), "--json")
    assert code == 0, err
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("game", "says"),
    [
        ("batey-guts", "batey"),
        ("four-two-two", "after the declaration"),
        ("three-five-seven", "staged game"),
        ("bourre", "trick-taking"),
    ],
)
def test_presets_out_of_reach_say_why(
    capsys: pytest.CaptureFixture[str], game: str, says: str
) -> None:
    code, out, err = run(capsys, "solve", game)
    assert code == 2 and not out
    assert says in err and len(err.strip().splitlines()) == 1


def test_bad_player_counts_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert "2 to 8 players" in run(capsys, "solve", "two-card-guts", "-n", "9")[2]
    assert "ghost" in run(capsys, "solve", "two-card-guts", "-o", "ghost=sometimes")[2]


def test_a_progress_bar_on_a_terminal_and_none_with_json(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    import re
    import sys

    def screen(*extra: str) -> str:
        args = ["-m", "guts", "solve", "simultaneous-guts", "-n", "3", "--no-cache",
                "--iterations", "40", "--tolerance", "0", *extra]  # fmt: skip
        env = {"TERM": "xterm", "COLUMNS": "100", "PATH": "", "GUTS_CACHE_DIR": str(tmp_path)}
        child = pexpect.spawn(sys.executable, args, encoding="utf-8", timeout=120, env=env)
        text = child.read()
        child.close()
        assert child.exitstatus == 0, text
        return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", str(text))

    shown = screen()
    assert "iterations" in shown and "/40" in shown and "weakest hand in" in shown
    with_json = screen("--json")
    assert "/40" not in with_json and with_json.lstrip().startswith("{")


def test_heads_up_at_once_prints_the_pure_jack_seven_threshold(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The exact equilibrium of two-card Guts at once, two players, is the pure J-7
    threshold: the default tolerance must be tight enough to print it, mixing nothing."""
    code, out, err = run(capsys, "solve", "simultaneous-guts", "-n", "2", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["converged"] and data["exploitability"] <= data["tolerance"] <= 1e-6
    stay = data["strategy"][0]["in"]
    names = list(stay)
    weakest = next(name for name in names if stay[name] >= 0.5)
    assert weakest == "jack-seven high"
    assert all(x < 0.02 or x > 0.98 for x in stay.values())  # pure
    assert all(stay[name] > 0.98 for name in names[names.index(weakest) :])
    code, out, _ = run(capsys, "solve", "simultaneous-guts", "-n", "2", "--no-cache")
    assert "jack-seven high" in out and "not converged" not in out


def test_a_run_stopped_short_of_its_tolerance_says_so(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ("solve", "simultaneous-guts", "-n", "2", "--iterations", "5", "--no-cache")
    code, out, _ = run(capsys, *args)
    assert code == 0 and "not converged" in out
    data = json.loads(run(capsys, *args, "--json")[1])
    assert data["converged"] is False and data["exploitability"] > data["tolerance"]


def test_play_help_lists_the_equilibrium_bot(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "play", "--help")
    assert code == 0 and "equilibrium" in out


def test_real_game_brackets_the_exploitability_where_hands_are_independent(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(
        capsys, "solve", "simultaneous-guts", "-n", "4", "--real-game", "8000", "--json"
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["card_removal"] == "independent hands"
    real = data["real_game"]
    assert real["deals"] == 8000 and real["lower"] <= real["upper"] and real["lower_error"] > 0
    code, out, err = run(capsys, "solve", "simultaneous-guts", "-n", "2", "--real-game", "100",
                         "--json")  # fmt: skip
    assert code == 0 and "real_game" not in json.loads(out)  # exact: already the real game's


def test_four_players_solve_on_sampled_real_deals(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("solve", "simultaneous-guts", "-n", "4", "--deals", "4000", "--json")
    code, out, err = run(capsys, *args, "--no-cache")
    assert code == 0, err
    data = json.loads(out)
    assert data["card_removal"] == "sampled (4000 deals)" and data["converged"]
    code, _, err = run(capsys, "solve", "hi-lo-guts", "-n", "3", "--deals", "100")
    assert code == 2 and "--deals" in err
