"""``python -m guts.solve.ship``: solve the presets' default rules that a sampled solve
settles, measure them in the real game, and ship them (:mod:`guts.solve.shipped`).

For every player count of the presets it ships (:data:`SHIPPED_PRESETS`) whose default
solve samples real deals (:func:`guts.solve.solving.default_deals`), it solves as ``guts
solve PRESET -n N`` does (reading ``$GUTS_CACHE_DIR`` first, so a solve already made is
not made again), measures the solution in the real game on other deals
(:func:`guts.solve.sampled.sampled_nash_conv` and, over the whole session,
:func:`guts.solve.sampled.sampled_session`), and writes it to ``guts/solve/solved/`` with
that provenance. Shipped files no target names any more (stale: another model version,
other defaults) are removed.

    python -m guts.solve.ship                       # every target
    python -m guts.solve.ship --only two-card-guts -n 5 --real-deals 400000
    python -m guts.solve.ship --table               # what is shipped, measured
"""

from __future__ import annotations

import argparse
import datetime
import json
import platform
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from guts.games.guts.rules import GutsRules
from guts.solve import cache, shipped
from guts.solve.cache import key
from guts.solve.cfr import Result
from guts.solve.sampled import SampledSession, sampled_nash_conv, sampled_session
from guts.solve.solution import Solution, kept_with, sampled_part
from guts.solve.solving import ITERATIONS, default_deals, default_tolerance, solve_rules

__all__ = [
    "REAL_DEALS",
    "REAL_SEED",
    "SHIPPED_PRESETS",
    "Target",
    "keep_evs",
    "main",
    "ship",
    "table",
    "targets",
]

REAL_DEALS = 4_000_000
"""How many real deals measure a shipped solution (its lower estimate's standard error
about 7e-5 of the pot per player)."""

REAL_SEED = 7
"""The seed of the measuring deals (the solve's own are seed 1)."""


@dataclass(frozen=True)
class Target:
    """A preset's default rules for a player count, solved on ``deals`` sampled deals."""

    preset: str
    rules: GutsRules
    players: int
    deals: int

    @property
    def tolerance(self) -> float:
        return default_tolerance(self.rules, self.players)

    @property
    def key(self) -> str:
        """The disk cache's key of the default solve (and the shipped file's name)."""
        return key(self.rules, self.players, ITERATIONS, self.tolerance, sampled_part(self.deals))


SHIPPED_PRESETS = (
    "two-card-guts",
    "simultaneous-guts",
    "three-card-guts",
    "ghost-guts",
    "winner-takes-all-guts",
)
"""The presets whose default sampled solves are shipped: every Guts preset whose default
solve samples real deals."""


def targets() -> list[Target]:
    """Every player count of :data:`SHIPPED_PRESETS` whose default solve samples real
    deals, once per rules (the first preset naming them)."""
    from guts.errors import GutsError
    from guts.games.guts.presets import PRESETS

    found: dict[str, Target] = {}
    for name in SHIPPED_PRESETS:
        rules = PRESETS[name][0]
        for players in range(2, 9):
            try:
                deals = default_deals(rules, players)
            except GutsError:
                break  # rules the solver does not reach
            if deals:
                target = Target(name, rules, players, deals)
                found.setdefault(target.key, target)
    return list(found.values())


def ship(target: Target, real_deals: int = REAL_DEALS, folder: Path = shipped.FOLDER) -> Path:
    """Solve ``target`` (from the cache where it is there), measure it in the real game on
    ``real_deals`` deals, and write it with its provenance into ``folder``."""
    started = time.process_time()

    def report(t: int, gap: float, residual: float, seconds: float) -> None:
        print(f"  {t} iterations: exploitability {gap:.2e}, residual {residual:.1e}, "
              f"{time.process_time() - started:.0f} s of CPU", flush=True)  # fmt: skip

    solution = solve_rules(target.rules, target.players, game=target.preset, report=report)
    assert isinstance(solution, Solution)
    solved = time.process_time() - started
    cost = _solve_cpu(solution.result)
    print(f"  solved: {solution.result.iterations} iterations, "
          f"{'?' if cost is None else f'{cost:.0f}'} s of CPU; "
          f"measuring on {real_deals} deals ...", flush=True)  # fmt: skip
    facts = provenance(target, solution, real_deals)
    measured = time.process_time() - started - solved
    facts["cpu_seconds"] = {"solve": cost, "measure": round(measured, 1)}
    kept = kept_with(solution.result, solution.deal)  # read without drawing deals
    return shipped.write(target.key, kept, facts, folder)


def _solve_cpu(result: Result) -> float | None:
    """The CPU seconds ``result``'s solve took, as kept with it: also where it is read
    from the cache, which costs nothing now; None where a cache made before did not keep
    them."""
    seconds = result.cpu_seconds
    return round(seconds, 1) if seconds == seconds else None


def keep_evs(target: Target, folder: Path = shipped.FOLDER) -> bool:
    """Add the information sets' EVs (on the solve's own deals) to ``target``'s shipped
    file where they are not in it, its strategy and provenance unchanged; whether it
    did."""
    path = folder / f"{target.key}.npz"
    result = cache.load(target.key, target.players, folder)
    if result is None or result.evs is not None:
        return False
    solution = solve_rules(target.rules, target.players, game=target.preset)
    assert isinstance(solution, Solution)
    kept = kept_with(result, solution.deal)
    shipped.write(target.key, kept, shipped.provenance(path), folder)
    return True


def provenance(target: Target, solution: Solution, real_deals: int) -> dict[str, Any]:
    """What was solved and how, and what it measures in the real game."""
    result = solution.result
    deal = solution.deal
    real = sampled_nash_conv(deal, result.strategy, result.continuation, deals=real_deals,
                             seed=REAL_SEED)  # fmt: skip
    session = sampled_session(deal, result.strategy, deals=real_deals, seed=REAL_SEED)
    n = target.players
    lower, upper = real.per_player
    return {
        "preset": target.preset,
        "options": target.rules.to_options(),
        "players": n,
        "declare": "in-turn" if solution.model.in_turn else "simultaneous",
        "deals": target.deals,
        "deal_seed": getattr(deal, "seed", None),
        "part": sampled_part(target.deals),
        "iterations_budget": ITERATIONS,
        "tolerance": target.tolerance,
        "iterations": result.iterations,
        "exploitability": result.exploitability,
        "session_exploitability": _number(result.session_exploitability),
        "real_game": {
            "deals": real_deals,
            "seed": REAL_SEED,
            "lower": lower,
            "upper": upper,
            "lower_error": real.lower_error / n,
        },
        "real_session": _session_facts(session, real_deals),
        "command": "python -m guts.solve.ship " + " ".join(sys.argv[1:]),
        "made": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": platform.processor() or platform.machine(),
    }


def _session_facts(session: SampledSession | None, deals: int) -> dict[str, Any] | None:
    if session is None:
        return None  # pots that grow on average: no whole-session value
    lower, upper = session.per_player
    halves = [h / session.players for h in session.halves]
    error = session.lower_error / session.players
    return {"deals": deals, "seed": REAL_SEED, "lower": lower, "upper": upper, "halves": halves,
            "lower_error": error}  # fmt: skip


def _number(x: float) -> float | None:
    return x if x == x else None  # NaN: not defined


def table() -> list[str]:
    """What is shipped, a row per file (per player, pot units): its own game's
    exploitability in one deal and over the session, the real game's bracket with the
    lower estimate's standard error, and the whole session's in the real game (with its
    lower estimate's, where it was taken)."""
    rows = [
        "| game | n | deals | iterations | own game (session) | real game, lower to upper (s.e.)"
        " | whole session, real game, lower to upper (s.e.) | measured on | measure CPU |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    found = [shipped.provenance(path) for path in shipped.files()]
    for f in sorted(found, key=lambda f: (f["preset"], f["players"])):
        real, whole = f["real_game"], f["real_session"]
        own = f"{f['exploitability']:.1e} ({_short(f['session_exploitability'])})"
        bracket = f"{real['lower']:.1e} to {real['upper']:.1e} ({real['lower_error']:.1e})"
        session = "growing pots" if whole is None else (
            f"{whole['lower']:.1e} to {whole['upper']:.1e}{_error(whole)}")  # fmt: skip
        measure = f.get("cpu_seconds", {}).get("measure", "?")
        rows.append(
            f"| {f['preset']} | {f['players']} | {f['deals']:,} | {f['iterations']} | {own} "
            f"| {bracket} | {session} | {real['deals']:,} | {measure} s |"
        )
    return rows


def _error(whole: dict[str, Any]) -> str:
    """`` (s.e.)`` of a whole-session measure, where it was taken."""
    error = whole.get("lower_error")
    return "" if error is None else f" ({error:.1e})"


def _short(x: float | None) -> str:
    return "-" if x is None else f"{x:.1e}"


def main(argv: Sequence[str] | None = None) -> None:
    """Ship every target (or those asked for), then remove the stale files."""
    parser = argparse.ArgumentParser(prog="python -m guts.solve.ship", description=__doc__)
    parser.add_argument("--only", help="one preset's targets")
    parser.add_argument("-n", "--players", type=int, help="one player count's targets")
    parser.add_argument("--real-deals", type=int, default=REAL_DEALS,
                        help="real deals measuring each solution")  # fmt: skip
    parser.add_argument("--again", action="store_true",
                        help="measure again what is shipped and current")  # fmt: skip
    parser.add_argument("--table", action="store_true",
                        help="print what is shipped as a Markdown table, and stop")  # fmt: skip
    args = parser.parse_args(argv)
    if args.table:
        print("\n".join(table()))
        return
    chosen = targets()
    names = {t.key for t in chosen}
    for target in chosen:
        if args.only not in (None, target.preset) or args.players not in (None, target.players):
            continue
        path = shipped.FOLDER / f"{target.key}.npz"
        if path.is_file() and not shipped.stale(path) and not args.again:
            print(f"{target.preset} -n {target.players}: shipped already ({path.name})")
            if keep_evs(target):
                print("  its information sets' EVs added", flush=True)
            continue
        print(f"{target.preset} -n {target.players} on {target.deals} deals ...", flush=True)
        path = ship(target, args.real_deals)
        print(json.dumps(shipped.provenance(path), sort_keys=True), flush=True)
    for path in shipped.files():
        if path.stem not in names:
            print(f"removing {path.name}: no target names it (stale)")
            path.unlink()


if __name__ == "__main__":
    main()
