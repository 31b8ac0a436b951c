"""The fast path without numba: the same loop, uncompiled on numpy, the same results."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from guts.sim import SimSpec, report
from guts.sim.vector import fast_batch

pytest.importorskip("numba")

# (preset, bots, options, sessions): short sessions, long ones at table stakes, the ghost,
# the dealer's option and the equilibrium's mixed strategies
RUNS = [
    ("two-card-guts", "threshold,random,equilibrium", {}, 300),
    ("ghost-guts", "threshold,random", {"credit": "no", "continue-after-empty": "yes"}, 40),
    ("two-card-guts", "random,threshold", {"dealer-option": "yes", "pot-limit": "6",
                                           "continue-after-empty": "yes"}, 30),
]  # fmt: skip

SCRIPT = """
import json, sys
sys.modules["numba"] = None  # as if numba were not installed
import guts.sim
from guts.sim import SimSpec
from guts.sim.vector import compiled, fast_batch
preset, bots, options, sessions = json.loads(sys.argv[1])
spec = SimSpec.make(preset, players=4, bots=bots, options=options, seed=11, max_deals=60,
                    fast=True)
summary, lengths = fast_batch(spec, 0, sessions)
report = guts.sim.report(spec, summary, {"sessions": sessions})
print(json.dumps({"compiled": compiled(), "summary": report,
                  "lengths": lengths.tolist()}))
"""


@pytest.mark.parametrize(("preset_name", "bots", "options", "sessions"), RUNS)
def test_without_numba_the_same_sessions(
    preset_name: str, bots: str, options: dict[str, str], sessions: int
) -> None:
    spec = SimSpec.make(preset_name, players=4, bots=bots, options=options, seed=11,
                        max_deals=60, fast=True)  # fmt: skip
    summary, lengths = fast_batch(spec, 0, sessions)
    env = {k: v for k, v in os.environ.items() if k != "GUTS_SIM_PLAIN"}
    argument = json.dumps([preset_name, bots, options, sessions])
    done = subprocess.run([sys.executable, "-c", SCRIPT, argument], capture_output=True,
                          text=True, env=env, timeout=600, check=True)  # fmt: skip
    plain = json.loads(done.stdout)
    assert plain["compiled"] is False
    assert plain["lengths"] == lengths.tolist()
    assert plain["summary"] == json.loads(json.dumps(report(spec, summary, {"sessions": sessions})))
    assert summary.deals > sessions


def test_the_environment_variable_forces_the_plain_loop() -> None:
    code = "from guts.sim import kernel; print(kernel.COMPILED)"
    for value, compiled in (("1", "False"), ("0", "True"), ("", "True")):
        env = os.environ | {"GUTS_SIM_PLAIN": value}
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              env=env, timeout=300, check=True)  # fmt: skip
        assert done.stdout.strip() == compiled, value


def test_the_environment_variable_is_named_not_a_missing_numba() -> None:
    env = os.environ | {"GUTS_SIM_PLAIN": "1"}
    command = [sys.executable, "-m", "guts", "simulate", "two-card-guts", "--fast",
               "--bots", "threshold", "--sessions", "5", "--seed", "1", "--json"]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300,
                          check=True)  # fmt: skip
    assert "GUTS_SIM_PLAIN is set" in done.stderr and "unset GUTS_SIM_PLAIN" in done.stderr
    assert "not installed" not in done.stderr
    assert json.loads(done.stdout)["sessions"] == 5
