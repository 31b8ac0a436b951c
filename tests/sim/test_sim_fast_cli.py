"""``guts simulate --fast``, ``--plot``, ``--compare-option`` and ``guts census --plot``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from cli_helpers import run

pytest.importorskip("numba")

FAST = ["simulate", "two-card-guts", "--players", "4", "--bots", "threshold,random",
        "--seed", "7", "--fast"]  # fmt: skip


def test_fast_json_is_byte_identical_for_one_and_two_workers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, one, err = run(capsys, *FAST, "--sessions", "3000", "--json")
    assert code == 0 and err == ""
    code, two, _ = run(capsys, *FAST, "--sessions", "3000", "--json", "--workers", "2")
    assert code == 0 and two == one
    data = json.loads(one)
    assert data["path"] == "fast" and data["sessions"] == 3000
    assert sum(seat["exact"]["net"]["sum_x"] for seat in data["seats"]) == 0
    assert (
        data["pots"]["n"]
        == data["deals"]
        == sum(entry["count"] for entry in data["outcomes"].values())
    )
    # threshold bots beat random ones
    assert data["by_bot"]["threshold"]["net_per_deal"]["ci95"][0] > 0


def test_fast_deals_plan_stops_the_last_session(capsys: pytest.CaptureFixture[str]) -> None:
    code, one, _ = run(capsys, *FAST, "--deals", "5000", "--json")
    code2, two, _ = run(capsys, *FAST, "--deals", "5000", "--json", "--workers", "2")
    assert code == code2 == 0 and one == two
    assert json.loads(one)["deals"] == 5000


def test_fast_refuses_what_it_does_not_cover(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "simulate", "hi-lo-guts", "--bots", "threshold,equilibrium",
                       "--fast", "--sessions", "5")  # fmt: skip
    assert code == 2 and "hi-lo" in err and "drop --fast" in err
    assert len(err.strip().splitlines()) == 1
    code, _, err = run(capsys, "simulate", "two-card-guts", "--fast", "--sessions", "5")
    assert code == 2 and "sensible bot" in err


def test_plots_and_a_comparison(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    code, out, _ = run(capsys, *FAST, "--sessions", "400", "--plot", str(tmp_path),
                       "--compare-option", "max-loss=4")  # fmt: skip
    assert code == 0
    assert "A: as given" in out and "B: with max-loss=4" in out
    names = ["bankroll", "pots", "ev", "b-bankroll", "b-pots", "b-ev", "compare"]
    for name in names:
        path = tmp_path / f"{name}.png"
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name
        assert f"wrote {path}" in out.replace("\n", "")  # (a long path is wrapped)


def test_a_comparison_in_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, *FAST, "--sessions", "50", "--json", "--compare-option", "ante=2")
    data = json.loads(out)
    assert code == 0 and data["compare"] == {"ante": "2"}
    assert data["a"]["options"] == {} and data["b"]["options"] == {"ante": "2"}
    assert data["b"]["pots"]["min"] >= 8 > data["a"]["pots"]["min"]


def test_plots_of_an_engine_run(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    code, _, _ = run(capsys, "simulate", "three-five-seven", "--players", "3", "--bots",
                     "random", "--sessions", "3", "--seed", "1", "--max-deals", "20",
                     "--plot", str(tmp_path))  # fmt: skip
    assert code == 0
    assert {p.name for p in tmp_path.iterdir()} == {"bankroll.png", "pots.png", "ev.png"}


def test_census_plot(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    path = tmp_path / "three.png"
    code, out, _ = run(capsys, "census", "three-card", "--plot", str(path))
    assert code == 0 and f"wrote {path}" in out.replace("\n", "")  # (a long path is wrapped)
    assert path.read_bytes()[:4] == b"\x89PNG"
    code, _, err = run(capsys, "census", "three-card", "--plot", str(tmp_path / "x.jpg"))
    assert code == 2 and ".png or .svg" in err
    code, _, _ = run(capsys, "census", "two-card", "--json", "--plot", str(tmp_path / "t.svg"))
    svg = (tmp_path / "t.svg").read_text()
    assert code == 0 and svg.lstrip().startswith("<?xml") and "<svg" in svg


def test_plot_format_is_checked(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, *FAST, "--sessions", "5", "--plot", str(tmp_path),
                       "--plot-format", "gif")  # fmt: skip
    assert code == 2 and "png or svg" in err


def test_missing_extras_are_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from guts.sim import kernel

    for module in ("matplotlib", "matplotlib.figure"):
        monkeypatch.setitem(sys.modules, module, None)  # as if not installed
    monkeypatch.setattr(kernel, "COMPILED", False)  # as if numba were not installed
    monkeypatch.delenv("GUTS_SIM_PLAIN", raising=False)
    code, _, err = run(capsys, *FAST, "--sessions", "5")
    assert code == 0 and "runs its loop uncompiled" in err and "pip install 'guts[fast]'" in err
    assert "numba is not installed" in err
    engine = [arg for arg in FAST if arg != "--fast"]
    code, _, err = run(capsys, *engine, "--sessions", "2", "--plot", str(tmp_path))
    assert code == 2 and "--plot needs matplotlib: pip install 'guts[plot]'" in err
    code, _, err = run(capsys, "census", "two-card", "--plot", str(tmp_path / "c.png"))
    assert code == 2 and "guts[plot]" in err and not (tmp_path / "c.png").exists()


def test_equilibrium_bots_on_the_fast_path(capsys: pytest.CaptureFixture[str]) -> None:
    command = ["simulate", "two-card-guts", "--players", "3", "--bots", "equilibrium,threshold",
               "--seed", "4", "--fast", "--sessions", "20000", "--json"]  # fmt: skip
    code, out, err = run(capsys, *command)
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["path"] == "fast" and set(data["by_bot"]) == {"equilibrium", "threshold"}
    code, again, _ = run(capsys, *command, "--workers", "2")
    assert code == 0 and again == out


def test_equilibrium_bots_are_refused_where_the_solver_does_not_reach(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run(capsys, "simulate", "capped-guts", "--bots", "equilibrium", "--fast",
                       "--option", "ante-every-deal=yes", "--sessions", "5")  # fmt: skip
    assert code == 2 and "equilibrium bot" in err and "pot-cap" in err
    assert "drop --fast" in err and "engine" in err


def test_table_stakes_on_the_fast_path(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "two-card-guts", "--bots", "threshold,random",
                       "--buy-in", "4", "--option", "credit=no", "--option",
                       "continue-after-empty=yes", "--fast", "--sessions", "500", "--json",
                       "--seed", "2")  # fmt: skip
    assert code == 0
    data = json.loads(out)
    # every session plays on until one player holds every chip (or the deal limit)
    busts = sum(seat["bust"]["count"] for seat in data["seats"])
    assert busts == 3 * (data["sessions"] - data["stopped_at_max_deals"])


def test_a_pot_past_two_to_the_sixty_stops_its_session_not_the_run(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # a lone player without a pair matches the pot, and those out ante: pots double on
    command = ["simulate", "two-card-guts", "--players", "6", "--bots", "threshold,random",
               "-o", "lone-qualifier=pair", "-o", "dropouts-ante=yes", "--fast",
               "--sessions", "200", "--seed", "1"]  # fmt: skip
    code, out, err = run(capsys, *command, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["sessions"] == 200 and data["stopped_at_pot_overflow"] >= 1
    assert data["pots"]["max"] > 1 << 60
    left = data["left_on_table"]["mean"] * data["sessions"]
    assert sum(seat["exact"]["net"]["sum_x"] for seat in data["seats"]) == -round(left)
    code, out, _ = run(capsys, *command)
    assert code == 0 and "stopped after a pot passed 2**60 chips" in out
