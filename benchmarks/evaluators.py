"""Hand-evaluator benchmark: guts against treys, eval7, phevaluator and pokerkit, in one run.

Install the peers with the ``bench`` extra (``pip install -e '.[bench]'``); this script
installs nothing. Every evaluator ranks the same pre-generated random hands; only the
evaluation calls are timed, and each figure is the median of ``--repeats`` runs. Results
print as a table (each peer's figure and our ratio to it) and are written as JSON.

    python benchmarks/evaluators.py [--hands 200000] [--repeats 5] [--json results.json]

The five- and seven-card rates of guts and every peer are timed in turn within each
repeat, so a change in the machine's load falls on all alike. Exhaustive times of the
per-hand peers are extrapolated from their rates (marked "est."): enumerating 133,784,560
hands one Python call at a time takes them minutes to hours.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial

import numpy as np
from machine import cpu_model

from guts.cards import Card
from guts.rankings.batch_high import compiled_kernels, kernel
from guts.rankings.high import HighRanking
from guts.rankings.tables import high_tables
from guts.rankings.wilds import Wilds

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"


def text_of(code: int) -> str:
    return RANK_CHARS[code >> 2] + SUIT_CHARS[code & 3]


def random_hands(count: int, size: int, seed: int) -> np.ndarray:
    """``count`` random hands of ``size`` distinct cards, as card codes."""
    rng = np.random.default_rng(seed)
    keys = rng.random((count, 52))
    return np.argpartition(keys, size, axis=1)[:, :size].astype(np.uint8)


def race(runs: dict[str, Callable[[], object]], repeats: int) -> dict[str, float]:
    """Median seconds of each run, timed in turn within every repeat so that a change in
    the machine's load falls on all of them alike. Each timed call follows an untimed one,
    so no evaluator is timed with caches the previous one left cold."""
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeats):
        for name, run in runs.items():
            run()
            start = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(spent) for name, spent in times.items()}


def batch(ranking: HighRanking, kernels: str) -> Callable[[np.ndarray], object]:
    """``ranking.strength_batch`` on the ``kernels`` ("numba" or "numpy")."""

    def run(hands: np.ndarray) -> object:
        os.environ["GUTS_KERNELS"] = kernels
        return ranking.strength_batch(hands)

    return run


def median_time(run: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


@dataclass
class Peer:
    """One evaluator: how to convert hands for it and evaluate a list of them."""

    name: str
    prepare: Callable[[np.ndarray], list[object]]
    evaluate_all: Callable[[list[object]], object]
    results: dict[str, float] = field(default_factory=dict)


def peers() -> list[Peer]:
    """The peer evaluators that are installed."""
    found: list[Peer] = []
    try:
        treys = importlib.import_module("treys")
        evaluator = treys.Evaluator()
        new = treys.Card.new
        table = [new(text_of(c)) for c in range(52)]

        def treys_prepare(hands: np.ndarray) -> list[object]:
            return [[table[c] for c in row] for row in hands.tolist()]

        def treys_all(hands: list[object]) -> object:
            evaluate = evaluator.evaluate
            return [evaluate(h[:2], h[2:]) for h in hands]  # type: ignore[index]

        found.append(Peer("treys", treys_prepare, treys_all))
    except ImportError:
        pass
    try:
        eval7 = importlib.import_module("eval7")
        table7 = [eval7.Card(text_of(c)) for c in range(52)]

        def eval7_prepare(hands: np.ndarray) -> list[object]:
            return [[table7[c] for c in row] for row in hands.tolist()]

        def eval7_all(hands: list[object]) -> object:
            evaluate = eval7.evaluate
            return [evaluate(h) for h in hands]

        found.append(Peer("eval7", eval7_prepare, eval7_all))
    except ImportError:
        pass
    try:
        ph = importlib.import_module("phevaluator")

        def ph_prepare(hands: np.ndarray) -> list[object]:
            return hands.tolist()  # phevaluator's ids are rank * 4 + suit, like ours

        def ph_all(hands: list[object]) -> object:
            evaluate = ph.evaluate_cards
            return [evaluate(*h) for h in hands]  # type: ignore[misc]

        found.append(Peer("phevaluator", ph_prepare, ph_all))
    except ImportError:
        pass
    try:
        pk = importlib.import_module("pokerkit")
        hand_type = pk.StandardHighHand

        def pk_prepare(hands: np.ndarray) -> list[object]:
            return ["".join(text_of(c) for c in row) for row in hands.tolist()]

        def pk_all(hands: list[object]) -> object:
            return [hand_type.from_game(h, "") for h in hands]

        found.append(Peer("pokerkit", pk_prepare, pk_all))
    except ImportError:
        pass
    return found


PEAK_PROBES = {
    "treys": "from treys import Card, Evaluator\n"
    "Evaluator().evaluate([Card.new('As'), Card.new('Kd')], [Card.new(c) for c in "
    "('Qh', 'Jc', '9s', '2d', '3c')])",
    "eval7": "import eval7\neval7.evaluate([eval7.Card(c) for c in "
    "('As', 'Kd', 'Qh', 'Jc', '9s', '2d', '3c')])",
    "phevaluator": "import phevaluator\nphevaluator.evaluate_cards(0, 5, 10, 15, 20, 25, 30)",
    "pokerkit": "from pokerkit import StandardHighHand\n"
    "StandardHighHand.from_game('AsKdQhJc9s2d3c', '')",
}
"""A minimal use of each peer, for its peak memory."""


def numba_version() -> str:
    """``, numba X.Y`` where numba is installed, else nothing."""
    try:
        return f", numba {importlib.import_module('numba').__version__}"
    except ImportError:
        return ""


def import_seconds(module: str) -> float:
    """Median wall time of ``import module`` in a fresh interpreter, minus bare startup."""
    def run(code: str) -> float:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        return time.perf_counter() - start

    bare = statistics.median(run("pass") for _ in range(5))
    return max(0.0, statistics.median(run(f"import {module}") for _ in range(5)) - bare)


def peak_memory_mb(code: str, env: dict[str, str] | None = None) -> float:
    """Peak resident memory (MB) of a fresh interpreter running ``code``.

    Read from the kernel's high-water mark (VmHWM), which starts afresh with the new
    program; ``ru_maxrss`` would carry over this big benchmark process's peak.
    """
    probe = (
        f"{code}\n"
        "print([l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')][0])"
    )
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True,
                         text=True, env={**os.environ, **(env or {})}).stdout
    return int(out.strip().splitlines()[-1]) / 1024


def exhaustive_five(evaluate_block: Callable[[np.ndarray], object]) -> float:
    """Seconds to evaluate all 2,598,960 five-card hands in blocks."""
    from guts.census import hands as all_hands

    blocks = list(all_hands(tuple(Card(c) for c in range(52)), 5, chunk=1 << 18))
    start = time.perf_counter()
    for block in blocks:
        evaluate_block(block)
    return time.perf_counter() - start


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", default="benchmarks/results.json")
    parser.add_argument("--skip-exhaustive-7", action="store_true")
    args = parser.parse_args(argv)

    high = HighRanking()
    deuces = HighRanking(wilds=Wilds.of([2]))
    bug = HighRanking(jokers=1)
    five = random_hands(args.hands, 5, 1)
    seven = random_hands(args.hands, 7, 2)
    with_joker = np.where(five == 0, 52, five).astype(np.uint8)  # 2c becomes the joker
    kernels = ["numba", "numpy"] if compiled_kernels() is not None else ["numpy"]
    for name in kernels:  # build the tables and compile the kernels outside the timings
        for ranking, hands in ((high, five), (high, seven), (deuces, five), (bug, with_joker)):
            batch(ranking, name)(hands[:10])
    ours: dict[str, float] = {}
    found = peers()
    count = min(args.hands, 50_000)
    rows: dict[str, dict[str, float]] = {peer.name: peer.results for peer in found}
    for hands, metric in ((five, "5-card/s"), (seven, "7-card/s")):
        runs: dict[str, Callable[[], object]] = {
            name: partial(batch(high, name), hands) for name in kernels
        }
        sizes = dict.fromkeys(kernels, len(hands))
        for peer in found:
            prepared = peer.prepare(hands[: count // 10 if peer.name == "pokerkit" else count])
            runs[peer.name] = partial(peer.evaluate_all, prepared)
            sizes[peer.name] = len(prepared)
        spent = race(runs, args.repeats)
        for name in kernels:
            ours[f"{metric} [{name}]"] = sizes[name] / spent[name]
        for peer in found:
            peer.results[metric] = sizes[peer.name] / spent[peer.name]
    big = random_hands(2_000_000, 5, 3)
    # The floor: one random lookup per hand, timed in turn with ours, in a table of real
    # data (a table of zeros would read one shared zero page) as big as the one that
    # ranks five-card hands here; and, for scale, in a table of one int32 per five-card
    # hand, which an evaluator doing nothing but one lookup per hand would need.
    size = len(high_tables(high.ace_low).five_card[0])
    runs = {name: partial(batch(high, name), big) for name in kernels}
    for name, entries, dtype in (("floor", size, np.int64),
                                 ("per-hand", math.comb(52, 5), np.int32)):  # fmt: skip
        table = np.random.default_rng(4).integers(0, 1 << 30, entries).astype(dtype)
        index = np.random.default_rng(5).integers(0, entries, len(big))
        runs[name] = partial(table.take, index)
    spent = race(runs, args.repeats)
    for name in kernels:
        ours[f"5-card batch 2M/s [{name}]"] = len(big) / spent[name]
    ours["one lookup/s (floor)"] = len(big) / spent["floor"]
    ours["per-hand lookup/s"] = len(big) / spent["per-hand"]
    cards = [[Card(c) for c in row] for row in five[:50_000].tolist()]
    ours["scalar 5-card/s"] = len(cards) / median_time(
        lambda: [high.strength(h) for h in cards], args.repeats
    )
    for ranking, hands, metric in ((deuces, five, "deuces-wild 5-card/s"),
                                   (bug, with_joker, "bug 5-card/s")):  # fmt: skip
        for name in kernels:
            ours[f"{metric} [{name}]"] = len(hands) / median_time(
                partial(batch(ranking, name), hands), args.repeats
            )
    ours[f"exhaustive 5-card s [{kernels[0]}]"] = exhaustive_five(batch(high, kernels[0]))
    if not args.skip_exhaustive_7:
        from guts.census import census

        start = time.process_time()
        census(high, 7)
        ours["exhaustive 7-card s"] = time.process_time() - start
    ours["import s"] = import_seconds("guts")
    ours["tables MB"] = kernel(high.wilds, high.jokers, high.ace_low).table_bytes() / 2**20
    for name in kernels:
        ours[f"peak MB [{name}]"] = peak_memory_mb(
            "import numpy as np\nfrom guts.rankings.high import HighRanking\n"
            "h = HighRanking()\nh.strength_batch(np.arange(7, dtype=np.uint8)[None, :])\n"
            "h.strength_batch(np.arange(5, dtype=np.uint8)[None, :])",
            {"GUTS_KERNELS": name},
        )

    for peer in found:
        peer.results["exhaustive 5-card s"] = 2_598_960 / peer.results["5-card/s"]
        peer.results["exhaustive 7-card s"] = math.comb(52, 7) / peer.results["7-card/s"]
        peer.results["import s"] = import_seconds(peer.name)
        probe = PEAK_PROBES.get(peer.name)
        if probe is not None:
            peer.results["peak MB"] = peak_memory_mb(probe)

    report = {
        "machine": f"{cpu_model()} ({platform.machine()}), "
        f"python {platform.python_version()}, numpy {np.__version__}{numba_version()}",
        "cores": len(os.sched_getaffinity(0)),
        "kernels": kernels,
        "hands": args.hands,
        "guts": ours,
        "peers": rows,
        "max rss of this run MB": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }
    print_table(ours, rows)
    with open(args.json, "w") as out:
        json.dump(report, out, indent=2)
    print(f"\nwritten to {args.json}")


def base_metric(metric: str) -> str:
    """The peers' metric a row of ours compares with: the kernels' tag dropped, and the
    plain five-card rate for the wild, joker, 2M-hand and scalar rows."""
    plain = metric.split(" [")[0]
    if plain in ("deuces-wild 5-card/s", "bug 5-card/s", "5-card batch 2M/s",
                 "scalar 5-card/s"):  # fmt: skip
        return "5-card/s"
    return "peak MB" if plain.startswith("peak MB") else plain


def print_table(ours: dict[str, float], rows: dict[str, dict[str, float]]) -> None:
    """Each metric: our figure, then each peer's figure and our ratio to it."""
    names = list(rows)
    header = f"{'metric':<30}{'guts':>12}" + "".join(f"{n:>24}" for n in names)
    print(header)
    print("-" * len(header))
    for metric, value in ours.items():
        line = f"{metric:<30}{fmt(value):>12}"
        for name in names:
            theirs = rows[name].get(base_metric(metric))
            if theirs is None:
                line += f"{'-':>24}"
                continue
            rate = base_metric(metric).endswith("/s")
            ratio = value / theirs if rate else theirs / max(value, 1e-12)
            est = " est." if metric.startswith("exhaustive") else ""
            line += f"{fmt(theirs) + est + f' ({ratio:,.1f}x)':>24}"
        print(line)
    floor = ours.get("one lookup/s (floor)")
    for metric, batch in ours.items():
        if floor and metric.startswith("5-card batch 2M/s"):
            print(f"\n{metric}: 1/{floor / batch:.1f} of one random lookup per hand in a "
                  "table of real data as big as our five-card table (the floor), and "
                  f"{batch / ours['per-hand lookup/s']:.1f}x one lookup per hand in a table "
                  "with an entry for every five-card hand.")
    print("\nratios: how many times faster guts is (peer time / ours, or our rate / theirs);")
    print("wild and scalar rows compare with the peer's plain 5-card rate. [numba] rows run")
    print("the compiled kernels of the fast extra, [numpy] rows the numpy kernels.")


def fmt(value: float) -> str:
    if value >= 1e6:
        return f"{value / 1e6:,.2f}M"
    if value >= 1e3:
        return f"{value / 1e3:,.1f}k"
    return f"{value:,.3f}"


if __name__ == "__main__":
    main()
