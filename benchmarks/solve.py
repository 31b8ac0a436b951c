"""``guts solve``: time and exploitability against iterations.

For two-card and three-card Guts, declared in turn and simultaneously, with the dealer's
option and the Henry rule, and Hi-Lo, 2 to 8 players (three-card Hi-Lo to 4), and the
pot cap's chain of pots for 3 to 8 (CPU seconds and the worst pot's exploitability):
discounted CFR's exploitability (NashConv per player, pot units) and the seconds taken
at each fixed-point step (every 10 iterations), until ``--iterations``, and the CPU
seconds of the whole solve, and the whole-session exploitability at the end (a
stationary best response, guts.solve.session). Three players are solved with exact card
removal as ``guts solve`` solves them (guts.solve.removal), so their figures are the real
game's; ``--real`` compares, for three players, the independent-hands equilibrium's
exploitability in the real game with the exact solve's. Then what ignoring card removal
between four or more players costs: each position's value over real deals from one pack
(guts.solve.check) against the model's. Prints a table and writes JSON (``--out``). Run:
``python benchmarks/solve.py [--quick] [--players 2,3] [--real]``.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any

from guts.games.guts import preset
from guts.solve.cfr import Deal, solve_deal
from guts.solve.hands import HandClasses
from guts.solve.hilo import HiLoGame, hi_lo_model, solve_hi_lo
from guts.solve.hilo_solution import hi_lo_deal
from guts.solve.model import model_of
from guts.solve.removal import DeckDeal, deck_exact_fits
from guts.solve.solution import deal_of

GAMES = {
    "two-card, in turn": ("two-card-guts", {}),
    "two-card, simultaneous": ("simultaneous-guts", {}),
    "three-card, in turn": ("three-card-guts", {}),
    "three-card, simultaneous": ("three-card-guts", {"declare": "simultaneous"}),
    "two-card, dealer's option": ("two-card-guts", {"dealer-option": "yes"}),
    "simultaneous, henry": ("simultaneous-guts", {"everyone-out": "henry"}),
    "hi-lo, at once": ("hi-lo-guts", {}),
    "hi-lo, in turn": ("hi-lo-guts", {"declare": "in-turn"}),
    "hi-lo, three-card": ("hi-lo-guts", {"cards": "3"}),
}
"""Each game's label: its preset and options."""
MARKS = (10, 30, 100, 300, 1000)


def run_one(game: str, options: dict[str, str], players: int, iterations: int) -> dict[str, Any]:
    """Solve one game for ``players``, recording each fixed-point step."""
    rules = preset(game, options)
    started, cpu = time.perf_counter(), time.process_time()
    classes = HandClasses.of(rules.hand_ranking)
    exact = players == 2 or (
        not rules.hi_lo and deck_exact_fits(model_of(rules, players), classes)
    )
    deal: Deal | HiLoGame = (
        hi_lo_deal(hi_lo_model(rules, players), classes) if rules.hi_lo
        else deal_of(model_of(rules, players), classes, exact)
    )  # fmt: skip
    setup = time.perf_counter() - started
    steps: list[dict[str, float]] = []

    def report(t: int, gap: float, residual: float, seconds: float) -> None:
        steps.append({"iterations": t, "exploitability": gap, "residual": residual,
                      "seconds": round(setup + seconds, 3)})  # fmt: skip

    if isinstance(deal, Deal):
        result = solve_deal(deal, iterations, report=report)
    else:
        result = solve_hi_lo(deal, iterations, report=report)
    return {
        "players": players,
        "setup_seconds": round(setup, 3),
        "steps": steps,
        "final": {
            "iterations": result.iterations,
            "exploitability": result.exploitability,
            "session_exploitability": result.session_exploitability,
            "card_removal": "exact" if exact else "independent hands",
            "seconds": round(setup + result.seconds, 3),
            "cpu_seconds": round(time.process_time() - cpu, 3),
        },
        "values": [round(float(v), 5) for v in result.values],
    }


def run_chain(game: str, options: dict[str, str], players: int) -> dict[str, Any]:
    """Solve a preset with a pot cap or limit as ``guts solve`` does (tolerance 5e-4, no
    cache): every pot of the chain, the CPU seconds in all, the worst exploitability."""
    from guts.solve.chain import ChainSolution, solve_chain_rules

    cpu = time.process_time()
    solution: ChainSolution = solve_chain_rules(preset(game, options), players, cache=False)
    return {
        "players": players,
        "pots": [s.pot for s in solution.states],
        "iterations": [s.result.iterations for s in solution.states],
        "worst_exploitability": max(s.result.exploitability for s in solution.states),
        "cpu_seconds": round(time.process_time() - cpu, 3),
        "first_ev": [round(float(v), 5) for v in solution.result.values],
    }


CHAINS = {
    "two-card in turn, pot cap 50": ("two-card-guts", {"pot-cap": "50"}),
    "capped-guts (at once, 50)": ("capped-guts", {}),
}
"""The pot cap's cases: each solved for 3 to 8 players."""


def first_below(steps: list[dict[str, float]], level: float) -> dict[str, float] | None:
    """The first step at or below ``level`` of exploitability."""
    return next((s for s in steps if s["exploitability"] <= level), None)


def removal(deals: int) -> list[dict[str, Any]]:
    """The model's values against real deals (independent hands, 3+ players)."""
    from guts.solve import solve
    from guts.solve.check import dealt_values, hi_lo_dealt_values
    from guts.solve.hilo_solution import HiLoSolution

    rows = []
    for game, players, options in (
        ("two-card-guts", 3, {}), ("two-card-guts", 6, {}), ("three-card-guts", 4, {}),
        ("ghost-guts", 4, {}), ("hi-lo-guts", 3, {"declare": "in-turn"}), ("hi-lo-guts", 3, {}),
        ("hi-lo-guts", 5, {}),
    ):  # fmt: skip
        solution = solve(game, players, options, cache=False)
        dealt = (
            hi_lo_dealt_values(solution, deals=deals, seed=9)
            if isinstance(solution, HiLoSolution)
            else dealt_values(solution, deals=deals, seed=9)
        )
        rows.append({"game": game, "options": options, "players": players, "deals": deals,
                     "gap": dealt.gap,
                     "standard_error": float(dealt.errors.max()),
                     "model": dealt.model.round(4).tolist(),
                     "dealt": dealt.values.round(4).tolist()})  # fmt: skip
    return rows


def real_game(iterations: int) -> list[dict[str, Any]]:
    """Three players: the independent-hands equilibrium valued in the real game (every
    hand from one pack: exact best responses over guts.solve.removal's joint), against
    the exact solve's own figures."""
    rows = []
    for game in ("two-card-guts", "simultaneous-guts"):
        rules = preset(game)
        model, classes = model_of(rules, 3), HandClasses.of(rules.hand_ranking)
        cpu = time.process_time()
        independent = solve_deal(Deal(model, classes, exact=False), iterations, tolerance=1e-4)
        real = DeckDeal(model, classes)
        carry = real.fixed_point(independent.strategy)
        played = independent.strategy
        mine, best = real.values(played, real.counterfactual(played, carry))
        cpu_independent = time.process_time() - cpu
        cpu = time.process_time()
        exact = solve_deal(real, iterations, tolerance=1e-4)
        rows.append({
            "game": game, "players": 3,
            "independent_in_real_game": float((best - mine).sum() / 3),
            "independent_values_real": mine.round(4).tolist(),
            "independent_cpu_seconds": round(cpu_independent, 2),
            "exact_exploitability": exact.exploitability,
            "exact_session_exploitability": exact.session_exploitability,
            "exact_iterations": exact.iterations,
            "exact_values": exact.values.round(4).tolist(),
            "exact_cpu_seconds": round(time.process_time() - cpu, 2),
        })  # fmt: skip
        row = rows[-1]
        print(f"{game} 3p real game: independent-hands equilibrium exploitable by "
              f"{row['independent_in_real_game']:.1e}; exact solve "
              f"{row['exact_exploitability']:.1e} "
              f"(session {row['exact_session_exploitability']:.1e}) in {exact.iterations} "
              f"iterations, {row['exact_cpu_seconds']:.1f} s CPU", flush=True)  # fmt: skip
    return rows


def sampled(counts: tuple[int, ...], deals: int, real_deals: int) -> list[dict[str, Any]]:
    """Four or more players: the independent-hands solve and the solve on ``deals``
    sampled real deals (guts.solve.sampled.SampledDeal), each measured in the real game
    on ``real_deals`` other real deals (the pooled best response's upper estimate, the
    half-chosen, half-valued lower one and its standard error over the deals), with the
    CPU seconds of each solve and measure."""
    from guts.solve import solve
    from guts.solve.sampled import sampled_nash_conv

    rows = []
    for game in ("two-card-guts", "simultaneous-guts"):
        for players in counts:
            row: dict[str, Any] = {"game": game, "players": players}
            for label, sample in (("independent", 0), ("sampled", deals)):
                cpu = time.process_time()
                solution = solve(game, players, cache=False, deals=sample)
                solved = time.process_time() - cpu
                result = solution.result
                cpu = time.process_time()
                found = sampled_nash_conv(solution.deal, result.strategy, result.continuation,
                                          deals=real_deals, seed=7)  # fmt: skip
                lower, upper = found.per_player
                row[label] = {
                    "deals": sample, "iterations": result.iterations,
                    "model": result.exploitability,
                    "session": result.session_exploitability,
                    "real_lower": lower, "real_upper": upper,
                    "real_error": found.lower_error / players,
                    "solve_cpu_seconds": round(solved, 1),
                    "measure_cpu_seconds": round(time.process_time() - cpu, 1),
                }  # fmt: skip
                cell = row[label]
                print(f"{game} {players}p {label} ({sample} deals): {cell['iterations']} "
                      f"iterations, own game {cell['model']:.1e} (session "
                      f"{cell['session']:.1e}), real game {lower:.1e} to {upper:.1e} "
                      f"(s.e. {cell['real_error']:.1e}; {real_deals} deals), solve "
                      f"{solved:.1f} s CPU, measure {cell['measure_cpu_seconds']} s",
                      flush=True)  # fmt: skip
            rows.append(row)
    return rows


def pruning(counts: tuple[int, ...], deals: int, iterations: int) -> list[dict[str, Any]]:
    """Two-card Guts in turn on ``deals`` sampled deals, ``iterations`` of CFR (no early
    stop), solved with the compiled sums pruned (the leaves whose values are all zero
    skipped: guts.solve.sampled.PRUNED) and with the full walk, one after the other in
    this process: the CPU seconds of each, and whether the strategies are the same to the
    bit (they must be)."""
    import numpy as np

    from guts.solve import sampled

    rules = preset("two-card-guts")
    classes = HandClasses.of(rules.hand_ranking)
    rows = []
    for players in counts:
        model = model_of(rules, players)
        solve_deal(sampled.SampledDeal(model, classes, 200), 3)  # numba's compiling first
        row: dict[str, Any] = {"players": players, "deals": deals, "iterations": iterations}
        found = {}
        for pruned in (True, False):
            sampled.PRUNED = pruned
            deal = sampled.SampledDeal(model, classes, deals)  # no pass kept from before
            cpu = time.process_time()
            found[pruned] = solve_deal(deal, iterations)
            row["pruned" if pruned else "full"] = round(time.process_time() - cpu, 2)
        sampled.PRUNED = True
        pairs = zip(found[True].strategy, found[False].strategy, strict=True)
        row["same"] = all(np.array_equal(a, b) for a, b in pairs)
        print(f"two-card in turn {players}p, {deals} deals, {iterations} iterations: pruned "
              f"{row['pruned']} s, full walk {row['full']} s of CPU "
              f"({row['full'] / row['pruned']:.2f}x), same strategy: {row['same']}", flush=True)
        rows.append(row)
    return rows


def main() -> None:
    """Run the benchmark and print its table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer players and iterations")
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--deals", type=int, default=200_000)
    parser.add_argument("--out", default="benchmarks/results-solve.json")
    parser.add_argument("--only", default="", help="the games whose label has this text")
    parser.add_argument("--no-removal", action="store_true", help="skip the real-deals check")
    parser.add_argument("--players", default="", help="player counts, comma-separated")
    parser.add_argument("--real", action="store_true", help="three players in the real game")
    sampled_help = "player counts (4 to 8) solved on sampled real deals, in the real game"
    parser.add_argument("--sampled", default="", help=sampled_help)
    parser.add_argument("--sampled-deals", type=int, default=200_000)
    parser.add_argument("--real-deals", type=int, default=400_000)
    parser.add_argument("--pruning", default="",
                        help="player counts: a sampled solve pruned and not (--sampled-deals, "
                        "--iterations), then stop")  # fmt: skip
    args = parser.parse_args()
    if args.pruning:
        counts = tuple(int(n) for n in args.pruning.split(","))
        load = os.getloadavg()
        print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
        pruning(counts, args.sampled_deals, args.iterations)
        return
    counts = (2, 4) if args.quick else tuple(range(2, 9))
    if args.players:
        counts = tuple(int(n) for n in args.players.split(","))
    iterations = 30 if args.quick else args.iterations
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; up to {iterations} iterations")
    marks = " ".join(f"{'@' + str(m):>17}" for m in MARKS if m <= iterations)
    print(f"{'game':26} {'n':>2} {marks} {'<1e-3 at':>14} {'<1e-2 at':>14} {'cpu':>7} "
          f"{'session':>8}")  # fmt: skip
    runs: dict[str, list[dict[str, Any]]] = {}
    for label, (game, options) in GAMES.items():
        if args.only not in label:
            continue
        for players in counts:
            three = game.startswith("three") or options.get("cards") == "3"
            if three and game.startswith("hi-lo") and players > 4:
                continue  # three-card Hi-Lo: its 1,755 classes' levels times 4 ** players
            many = players >= 6 and (three or game.startswith("hi-lo"))
            most = min(iterations, 100) if many else iterations
            run = run_one(game, options, players, most)
            runs.setdefault(label, []).append(run)
            cells = []
            for mark in MARKS:
                if mark > iterations:
                    continue
                step = next((s for s in run["steps"] if s["iterations"] == mark), None)
                cells.append("-" if step is None else
                             f"{step['exploitability']:.1e} {step['seconds']:5.1f}s")  # fmt: skip
            below = [first_below(run["steps"], level) for level in (1e-3, 1e-2)]
            ends = [("-" if b is None else f"{int(b['iterations'])} {b['seconds']:.1f}s")
                    for b in below]  # fmt: skip
            cpu = f"{run['final']['cpu_seconds']:.1f}s"
            whole = f"{run['final']['session_exploitability']:.1e}"
            print(f"{label:26} {players:>2} " + " ".join(f"{c:>17}" for c in cells)
                  + f" {ends[0]:>14} {ends[1]:>14} {cpu:>7} {whole:>8}", flush=True)  # fmt: skip
    chains: dict[str, list[dict[str, Any]]] = {}
    for label, (game, options) in CHAINS.items():
        if args.only not in label:
            continue
        for players in counts[1:] if counts[0] == 2 else counts:
            found = run_chain(game, options, players)
            chains.setdefault(label, []).append(found)
            print(f"{label:30} {players} players: {len(found['pots'])} pots, worst "
                  f"exploitability {found['worst_exploitability']:.1e}, "
                  f"{found['cpu_seconds']:.1f} s CPU", flush=True)  # fmt: skip
    real = real_game(args.iterations) if args.real else []
    sampled_counts = tuple(int(n) for n in args.sampled.split(",") if n)
    measured = sampled(sampled_counts, args.sampled_deals, args.real_deals)
    checks = [] if args.no_removal else removal(20_000 if args.quick else args.deals)
    print("card removal (3+ players): model vs real deals, pot units")
    for row in checks:
        print(f"  {row['game']} {row['options']} {row['players']}p: gap {row['gap']:.4f} "
              f"(standard error {row['standard_error']:.4f}, {row['deals']} deals)")  # fmt: skip
    with open(args.out, "w") as out:
        json.dump({"load": load, "runs": runs, "chains": chains, "removal": checks,
                   "real_game": real, "sampled": measured}, out, indent=1)  # fmt: skip
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
