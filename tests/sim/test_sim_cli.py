"""``guts simulate``: the report, byte-identical JSON for any workers, one-line errors."""

from __future__ import annotations

import json

import pytest
from cli_helpers import run

RUN = ["simulate", "two-card-guts", "--players", "3", "--bots", "threshold,random",
       "--buy-in", "10", "--seed", "4"]  # fmt: skip




def test_json_is_byte_identical_for_one_and_two_workers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, one, err = run(capsys, *RUN, "--sessions", "30", "--json", "--workers", "1")
    assert code == 0 and err == ""
    code, two, _ = run(capsys, *RUN, "--sessions", "30", "--json", "--workers", "2")
    assert code == 0 and two == one
    data = json.loads(one)
    assert data["sessions"] == 30 and data["bots"] == ["threshold", "random", "threshold"]
    assert data["plan"] == {"sessions": 30} and data["seed"] == 4
    assert sum(seat["exact"]["net"]["sum_x"] for seat in data["seats"]) == 0
    assert data["by_bot"]["threshold"]["seats"] == 2
    assert data["pots"]["n"] == data["deals"] and data["pots"]["max"] >= data["pots"]["median"]
    assert set(data["outcomes"]) <= {"nobody-in", "uncontested", "showdown"}
    shares = sum(entry["share"] for entry in data["outcomes"].values())
    assert abs(shares - 1) < 1e-9
    for seat in data["seats"]:
        low, high = seat["net_per_deal"]["ci95"]
        assert low <= seat["net_per_deal"]["mean"] <= high
        assert 0 <= seat["bust"]["share"] <= 1


def test_deals_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, *RUN, "--deals", "25", "--json", "-o", "ante=2",
                       "--max-deals", "5")  # fmt: skip
    data = json.loads(out)
    assert code == 0 and data["deals"] == 25 and data["plan"] == {"deals": 25}
    assert data["options"] == {"ante": "2"} and data["max_deals"] == 5
    assert data["session_deals"]["max"] <= 5 and data["pots"]["min"] >= 6  # three antes of 2


def test_the_text_report(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *RUN, "--sessions", "12")
    assert code == 0 and err == ""  # no progress bar when stderr is not a terminal
    assert "two-card-guts" in out and "12 sessions" in out and "seed 4" in out
    for text in ("Per seat", "Per bot kind", "threshold", "random", "deals per session",
                 "pots:", "outcomes:"):  # fmt: skip
        assert text in out


def test_without_a_seed_the_report_says_which_was_drawn(
    capsys: pytest.CaptureFixture[str],
) -> None:
    base = [arg for arg in RUN if arg not in ("--seed", "4")]
    code, out, _ = run(capsys, *base, "--sessions", "3", "--json")
    seed = json.loads(out)["seed"]
    assert code == 0 and isinstance(seed, int)
    _, again, _ = run(capsys, *base, "--sessions", "3", "--json", "--seed", str(seed))
    assert again == out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "no-such-game", "--sessions", "2"], "unknown game 'no-such-game'"),
        (["simulate", "bourre", "--bots", "threshold", "--sessions", "2"],
         "--bots must be one of random, sensible for bourre games"),
        (["simulate", "two-card-guts", "--bots", "sensible,clever", "--sessions", "2"],
         "--bots must be one of random, threshold, sensible, equilibrium for guts games"),
        (["simulate", "two-card-guts"], "give either --sessions N or --deals N"),
        (["simulate", "two-card-guts", "--sessions", "2", "--deals", "3"],
         "give either --sessions N or --deals N"),
        (["simulate", "two-card-guts", "--sessions", "2", "--workers", "0"],
         "--workers must be at least 1, not 0"),
        (["simulate", "two-card-guts", "--sessions", "0"], "--sessions must be at least 1"),
        (["simulate", "two-card-guts", "--sessions", "2", "--players", "30"],
         "--players must be between 2 and 26"),
        (["simulate", "two-card-guts", "--sessions", "2", "-o", "pot-limit"],
         "option 'pot-limit' must look like KEY=VALUE"),
        (["simulate", "two-card-guts", "--sessions", "2", "--executor", "threads"],
         "--executor must be one of process, dask, ray"),
        (["simulate", "two-card-guts", "--sessions", "2", "--scheduler", "tcp://x:1"],
         "--scheduler is the address of a Dask or Ray cluster"),
        (["simulate", "toh", "--players", "2", "--sessions", "2"], "toh"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("guts: ") and message in err


def test_a_progress_bar_on_a_terminal_and_none_with_json() -> None:
    pexpect = pytest.importorskip("pexpect")
    import re
    import sys

    def screen(*extra: str) -> str:
        child = pexpect.spawn(sys.executable, ["-m", "guts", *RUN, "--sessions", "40", *extra],
                              encoding="utf-8", timeout=60,
                              env={"TERM": "xterm", "COLUMNS": "100", "PATH": ""})  # fmt: skip
        text = child.read()
        child.close()
        assert child.exitstatus == 0
        return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", str(text))

    shown = screen()
    assert "40/40" in shown and "Per seat" in shown
    with_json = screen("--json")
    assert "40/40" not in with_json and with_json.lstrip().startswith("{")
