"""Engine benchmark: guts sessions against PokerKit, in one run, then where guts spends it.

Install PokerKit with the ``bench`` extra (``pip install -e '.[bench]'``); this script
installs nothing. Two workloads, each played by bots that pick uniformly at random (one
seeded ``random.Random``) among the actions a decision offers:

- six-player fixed-limit five-card draw hands: the guts preset ``five-card-draw`` against
  the same game built from PokerKit's ``State`` (PokerKit 0.7 has no high five-card draw
  class, only lowball ones, so the streets are declared here; see ``pokerkit_state``);
- four-player two-card Guts deals (the preset ``two-card-guts``), guts alone.

Both guts workloads run on this process's guts (the Python source, as a rule) and, with
``--compiled SITE``, on the compiled build too (``GUTS_COMPILE=1``: SITE is a folder
holding the compiled wheel's files, which ``python tests/compiled_build.py`` builds and
names), in a process of its own with SITE first on its path. Within every repeat the runs
are timed in turn for ``--seconds`` each, so a change in the machine's load falls on all
alike; each figure is the median over ``--repeats``.
Then the guts side of both workloads is profiled twice: by sampling the stack (inclusive
shares of named parts of the engine, without the per-call cost cProfile adds) and with
cProfile (call counts, cumulative and own time of the top functions).

    python benchmarks/engine.py [--seconds 2] [--repeats 5] [--profile-seconds 5]
                                [--compiled "$(python tests/compiled_build.py)"]

With ``--count N --workload draw|pokerkit|guts`` it plays exactly N deals of one workload
and exits, for instruction counts that the machine's load does not move: under
``valgrind --tool=callgrind`` (with ``PYTHONHASHSEED=0 PYTHONDONTWRITEBYTECODE=1`` and
``setarch x86_64 -R``: string hashes, compiling and addresses move the counts otherwise),
run it for two counts and divide the difference by the difference of the counts.
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import importlib.machinery
import importlib.metadata
import inspect
import json
import os
import platform
import pstats
import random
import re
import statistics
import subprocess
import sys
import threading
import time
import types
import warnings
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from machine import cpu_model

import guts
from guts.catalog import find_game

DRAW_PRESET = "five-card-draw"
"""Ante 1, fixed limit 1/2, a bet and four raises a round, draw 0-3, one draw."""
GUTS_PRESET = "two-card-guts"
DRAW_PLAYERS = 6
GUTS_PLAYERS = 4
STACK = 1000
"""Every seat's chips: deep enough that nobody goes all in during a session."""
DRAW_TARGET = 4.0
"""The plain Python engine at least 4x PokerKit's draw hands per second (issue 31: the
aim for an engine with one implementation of each rule; the compiled build aims at 10x)."""
DEALS_TARGET = 15_000
"""The plain Python engine at least 15,000 two-card Guts deals per second (issue 31)."""
COMPILED_DRAW_TARGET = 10.0
"""The compiled build at least 10x PokerKit's draw hands per second (issue 31)."""
COMPILED_DEALS_TARGET = 50_000
"""The compiled build at least 50,000 two-card Guts deals per second (issue 31)."""


@dataclass
class Run:
    """What one timed run did."""

    hands: int = 0
    actions: int = 0
    sessions: int = 0
    events: int = 0
    transfers: int = 0
    seconds: float = 0.0
    cpu: float = 0.0
    """CPU seconds of this process over the run (the machine may be shared)."""

    @property
    def rate(self) -> float:
        return self.hands / self.seconds

    @property
    def cpu_rate(self) -> float:
        return self.hands / self.cpu

    @property
    def action_rate(self) -> float:
        return self.actions / self.seconds


# -- the guts side -------------------------------------------------------------------------


def guts_hands(
    preset: str, players: int, seconds: float, seed: int, count: int | None = None
) -> Run:
    """Play whole deals of ``preset`` for ``seconds`` (or exactly ``count`` deals); a
    session that ends (a pot won) is replaced by a new one. The clock is read between
    deals, so every deal counted is whole.
    """
    rng = random.Random(seed)
    choice = rng.choice
    game = find_game(preset)
    names = [f"p{i}" for i in range(players)]
    run = Run()
    session = None
    cpu = time.process_time()
    start = time.perf_counter()
    end = start + seconds
    while True:
        if session is None or session.is_over:
            if session is not None:
                run.events += len(session.events)
                run.transfers += len(session.table.ledger)
            session = game.new_session(names, buy_in=STACK, rng=rng)
            run.sessions += 1
        session.start_deal()
        while not session.deal_over:
            decision = session.pending()[0]
            session.act(decision.seat, choice(decision.actions))
            run.actions += 1
        run.hands += 1
        now = time.perf_counter()
        if run.hands == count or (count is None and now >= end):
            break
    run.seconds, run.cpu = now - start, time.process_time() - cpu
    if session is not None:
        run.events += len(session.events)
        run.transfers += len(session.table.ledger)
    return run


def guts_draw(seconds: float, seed: int) -> Run:
    return guts_hands(DRAW_PRESET, DRAW_PLAYERS, seconds, seed)


def guts_deals(seconds: float, seed: int) -> Run:
    return guts_hands(GUTS_PRESET, GUTS_PLAYERS, seconds, seed)


# -- the PokerKit side ----------------------------------------------------------------------
#
# The closest PokerKit game to guts' five-card-draw, built from its State: a standard deck,
# standard high hands, antes of 1 from each of six players (trimmed, no blinds), fixed
# limit, first street five cards down and a bet of 1, second street a draw then a bet of 2,
# each street capped at a bet and four raises (guts' raise-cap=4; PokerKit's fixed-limit
# classes cap at 4 bets in all). Stacks of 1000, so nobody goes all in. Random actions are
# chosen as in guts: fold, check-or-call, and bet-or-raise when allowed, each with equal
# odds; a draw picks one of the 26 discards of 0 to 3 cards.
#
# What differs, and why it does not favour guts:
# - guts offers "fold" even when a player could check; PokerKit refuses that in tournament
#   mode, so it runs in cash-game mode, where such a fold only warns (the warning is
#   filtered out here: a small cost on PokerKit's side). The odds of each action, hence
#   the length of the hands, stay alike; the table prints actions per hand for both.
# - guts throws the cards in when nobody bets in the first round (the pot carries to the
#   next deal); PokerKit plays such a hand to the draw and a showdown. A thrown-in guts deal
#   is shorter and counts as a hand; the actions/s row compares the work done per action.
# - guts' session ends when a pot is won and a new one is opened (new Table, rules parsed
#   from the preset, the full event record kept); PokerKit makes a new State per hand.
# - PokerKit burns a card before the draw, and lets player 0 act and draw first (it has no
#   button); guts starts from the dealer's left. The driver of the PokerKit side enumerates
#   the legal discards itself, which guts' pending() does inside the engine.


def pokerkit_state_factory() -> Callable[[], Any]:
    """A function making a new PokerKit State of six-player fixed-limit five-card draw."""
    pk = importlib.import_module("pokerkit")
    automations = (
        pk.Automation.ANTE_POSTING,
        pk.Automation.BET_COLLECTION,
        pk.Automation.BLIND_OR_STRADDLE_POSTING,
        pk.Automation.CARD_BURNING,
        pk.Automation.HOLE_DEALING,
        pk.Automation.BOARD_DEALING,
        pk.Automation.RUNOUT_COUNT_SELECTION,
        pk.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        pk.Automation.HAND_KILLING,
        pk.Automation.CHIPS_PUSHING,
        pk.Automation.CHIPS_PULLING,
    )
    cap = 5  # a bet and four raises
    streets = (
        pk.Street(False, (False,) * 5, 0, False, pk.Opening.POSITION, 1, cap),
        pk.Street(True, (), 0, True, pk.Opening.POSITION, 2, cap),
    )
    state_class, deck, hand = pk.State, pk.Deck.STANDARD, (pk.StandardHighHand,)
    structure, mode = pk.BettingStructure.FIXED_LIMIT, pk.Mode.CASH_GAME
    stacks = (STACK,) * DRAW_PLAYERS

    def new_state() -> Any:
        return state_class(
            automations,
            deck,
            hand,
            streets,
            structure,
            True,
            1,
            0,
            0,
            stacks,
            DRAW_PLAYERS,
            mode=mode,
        )

    return new_state


def pokerkit_draw(seconds: float, seed: int, count: int | None = None) -> Run:
    """Play whole PokerKit hands for ``seconds`` (or exactly ``count`` hands; PokerKit
    shuffles with the global ``random``, seeded here)."""
    new_state = pokerkit_state_factory()
    random.seed(seed)
    rng = random.Random(seed)
    choice = rng.choice
    run = Run()
    cpu = time.process_time()
    start = time.perf_counter()
    end = start + seconds
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "there is no reason for this player to fold"
        while True:
            state = new_state()
            run.sessions += 1
            while state.status:
                if state.actor_index is not None:
                    moves = ["fold", "call", "raise"]
                    if not state.can_complete_bet_or_raise_to():
                        moves.pop()
                    move = choice(moves)
                    if move == "fold":
                        state.fold()
                    elif move == "call":
                        state.check_or_call()
                    else:
                        state.complete_bet_or_raise_to()
                elif state.stand_patter_or_discarder_index is not None:
                    hole = state.hole_cards[state.stand_patter_or_discarder_index]
                    state.stand_pat_or_discard(
                        choice([c for n in range(4) for c in combinations(hole, n)])
                    )
                else:
                    raise RuntimeError("PokerKit is waiting for something not automated")
                run.actions += 1
            run.hands += 1
            now = time.perf_counter()
            if run.hands == count or (count is None and now >= end):
                break
    run.seconds, run.cpu = now - start, time.process_time() - cpu
    return run


# -- timing ------------------------------------------------------------------------------------


def race(
    runs: dict[str, Callable[[float, int], Run]],
    seconds: float,
    repeats: int,
    seed: int,
    compiled: str | None = None,
) -> dict[str, list[Run]]:
    """Every run for ``seconds``, in turn within each repeat (after an untimed warm-up);
    with ``compiled``, then both guts workloads on the compiled build in a process of
    its own (one per repeat, started before its clock does)."""
    for run in runs.values():
        run(min(0.3, seconds), seed)
    results: dict[str, list[Run]] = {name: [] for name in runs}
    for repeat in range(repeats):
        for name, run in runs.items():
            results[name].append(run(seconds, seed + repeat))
        if compiled is not None:
            for name, timed in on_compiled(compiled, seconds, seed + repeat).items():
                results.setdefault(name, []).append(timed)
    return results


COMPILED_RUNS: dict[str, Callable[[float, int], Run]] = {
    "compiled draw": guts_draw,
    "compiled deals": guts_deals,
}


def on_compiled(site: str, seconds: float, seed: int) -> dict[str, Run]:
    """:data:`COMPILED_RUNS` in a Python with ``site`` (the compiled wheel's files) first
    on its path, which this script runs as a worker (``--worker``)."""
    command = [sys.executable, __file__, "--worker", "--seconds", str(seconds),
               "--seed", str(seed)]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([site, os.path.dirname(__file__)])}
    ran = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if ran.returncode != 0:
        raise SystemExit(f"the compiled build's worker failed:\n{ran.stderr[-3000:]}")
    return {name: Run(**fields) for name, fields in json.loads(ran.stdout).items()}


def worker(seconds: float, seed: int) -> None:
    """The compiled side of :func:`race`: refuse to run on the source, warm up, then
    print each of :data:`COMPILED_RUNS` as JSON."""
    import guts.cards
    import guts.table

    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    for module in (guts.cards, guts.table):
        if not (module.__file__ or "").endswith(suffixes):
            raise SystemExit(f"{module.__name__} is not compiled here: {module.__file__}")
    for run in COMPILED_RUNS.values():
        run(min(0.3, seconds), seed)
    timed = {name: dataclasses.asdict(run(seconds, seed)) for name, run in COMPILED_RUNS.items()}
    print(json.dumps(timed))


def median_rate(runs: Sequence[Run], attribute: str = "rate") -> float:
    return float(statistics.median(getattr(run, attribute) for run in runs))


# -- profiling ---------------------------------------------------------------------------------


def dataclass_inits() -> dict[types.CodeType, str]:
    """The generated methods (``__init__``, ``__eq__``, ``__hash__`` ...) of every dataclass
    in guts, by code object, to ``Class.method`` (they all read ``<string>:__init__`` and
    the like otherwise)."""
    names: dict[types.CodeType, str] = {}
    for name, module in list(sys.modules.items()):
        if not (name == "guts" or name.startswith("guts.")) or module is None:
            continue
        for value in vars(module).values():
            if inspect.isclass(value) and dataclasses.is_dataclass(value):
                for method, function in vars(value).items():
                    code = getattr(function, "__code__", None)
                    if code is not None and code.co_filename == "<string>":
                        names[code] = f"{value.__qualname__}.{method}"
    return names


def event_classes() -> set[str]:
    """The names of every Event subclass loaded (for the event-creation share)."""
    from guts.games.base import Event

    found: set[str] = set()
    todo = [Event]
    while todo:
        cls = todo.pop()
        found.add(cls.__qualname__)
        todo.extend(cls.__subclasses__())
    return found


class Sampler:
    """Samples the main thread's stack every ``interval`` seconds from a second thread.

    A sample is the tuple of code objects from the innermost frame out. Unlike cProfile it
    adds no cost per call, so the shares of many small functions are not inflated.
    """

    def __init__(self, interval: float = 0.0005) -> None:
        self.interval = interval
        self.samples: list[tuple[types.CodeType, ...]] = []
        self._target = threading.get_ident()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._switch = sys.getswitchinterval()

    def __enter__(self) -> Sampler:
        sys.setswitchinterval(self.interval / 2)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        sys.setswitchinterval(self._switch)

    def _run(self) -> None:
        frames = sys._current_frames
        while not self._stop.is_set():
            time.sleep(self.interval)
            frame = frames().get(self._target)
            stack = []
            while frame is not None:
                stack.append(frame.f_code)
                frame = frame.f_back
            self.samples.append(tuple(stack))


def module_names() -> dict[str, str]:
    """Each loaded module's file, to its name without the leading ``guts.``."""
    names = {}
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None)
        if path:
            names[path] = name.removeprefix("guts.")
    return names


def code_name(
    code: types.CodeType, inits: dict[types.CodeType, str], modules: dict[str, str]
) -> str:
    """``module:Class.method`` (the dataclass for its generated methods)."""
    if code in inits:
        return inits[code]
    path = code.co_filename
    module = modules.get(path) or os.path.basename(path).removesuffix(".py")
    return f"{module}:{code.co_qualname}"


PARTS: list[tuple[str, str]] = [
    ("new session (Table, rules from the preset)", r"new_session|Session\.__init__|preset"),
    ("start_deal (antes, shuffle, dealing)", r"start_deal"),
    ("pending() called by the bot", "<driver>pending"),
    ("act() called by the bot", "<driver>act"),
    (
        "  act: checking the action (canonical/can_act/legal_actions)",
        r":(\w+\.)?(canonical|can_act|legal_actions)$",
    ),
    ("  pending() called again inside act()", "<in-act>pending"),
    (
        "discard strings (discard_text, draw_choices, discards_of, parse_discard, Discard)",
        r":(discard_text|(\w+\.)?draw_choices|discards_of|parse_discard|Discard\.\w+)$",
    ),
    ("Decision objects (built per pending())", r"Decision\.|decision:"),
    ("betting round (guts.betting)", r"^betting\."),
    ("Table ledger transfers (guts.table, Transfer, Place)", r"^table:|^(Transfer|Place)\."),
    ("event creation (Event dataclasses, from_transfer)", "<event>"),
    ("_emit (the record's emit)", r":(\w+\._emit|_Record\.emit)$"),
    ("_sync (ledger -> Moved events)", r":(\w+\._sync|_Record\.sync)$"),
    ("showdown and hand ranking", r"showdown|^rankings\.|settle|contest"),
    ("the bot itself (random choice, loop)", "<driver-self>"),
]
"""Named parts of the engine: (label, pattern); ``<...>`` patterns are computed."""


def part_shares(
    samples: Sequence[tuple[types.CodeType, ...]], driver: types.CodeType
) -> tuple[list[tuple[str, float]], list[tuple[str, float, float]], int]:
    """Inclusive share of each part, and the top functions by inclusive and own share,
    over the samples taken inside ``driver``."""
    inits, modules = dataclass_inits(), module_names()
    events = {f"{name}.__init__" for name in event_classes()}
    inside = [s[: s.index(driver)] for s in samples if driver in s]
    total = len(inside) or 1
    hits: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    patterns = [(label, re.compile(p) if not p.startswith("<") else p) for label, p in PARTS]
    for stack in inside:
        names = [code_name(code, inits, modules) for code in stack]  # innermost first
        if names:
            own[names[0]] += 1
        else:
            own["<the bot loop itself>"] += 1
        for name in set(names):
            inclusive[name] += 1
        outer = names[-1] if names else ""  # what the bot called
        in_act = outer.endswith(".act")
        for label, pattern in patterns:
            if pattern == "<driver>pending":
                hit = outer.endswith(".pending")
            elif pattern == "<driver>act":
                hit = outer.endswith(".act")
            elif pattern == "<in-act>pending":
                hit = in_act and any(n.endswith(".pending") for n in names[:-1])
            elif pattern == "<event>":
                hit = any(n in events or n.endswith("from_transfer") for n in names)
            elif pattern == "<driver-self>":
                hit = not names or outer.startswith("random:")
            else:
                assert isinstance(pattern, re.Pattern)
                hit = any(pattern.search(n) for n in names)
            if hit:
                hits[label] += 1
    shares = [(label, hits[label] / total) for label, _ in PARTS]
    top = [(name, inclusive[name] / total, own[name] / total) for name in inclusive]
    return shares, top, len(inside)


def cprofile_top(
    run: Callable[[], Run], count: int
) -> tuple[Run, list[tuple[str, float, float, float]], float]:
    """cProfile ``run``: the top ``count`` functions by cumulative time, each with calls
    per hand, cumulative and own share of the run."""
    profile = cProfile.Profile()
    result = profile.runcall(run)
    stats = pstats.Stats(profile)
    entries = stats.stats  # type: ignore[attr-defined]
    total = max((ct for (_, _, _, ct, _) in entries.values()), default=1.0)
    rows = []
    modules = module_names()
    for (path, line, name), (_, calls, own, cumulative, _) in entries.items():
        if path == "~":
            label = name
        else:
            module = modules.get(path) or os.path.basename(path)
            label = f"{module}:{line}({name})"
        rows.append((label, calls / max(result.hands, 1), cumulative / total, own / total))
    rows.sort(key=lambda row: -row[2])
    skip = ("__main__:", "engine:", "cProfile", "<method 'disable'")
    top = [row for row in rows if not any(s in row[0] for s in skip)][:count]
    by_own = sorted(rows, key=lambda row: -row[3])[:count]
    return result, [*top, ("", 0, 0, 0), *by_own], total


def profile_workload(
    name: str, workload: Callable[[float, int], Run], seconds: float, top: int, seed: int
) -> None:
    """Print where the guts side of ``workload`` spends its time."""
    print(f"\n== profile: {name} ==")
    with Sampler() as sampler:
        run = workload(seconds, seed)
    shares, functions, count = part_shares(sampler.samples, guts_hands.__code__)
    print(
        f"sampled {count:,} stacks over {run.hands:,} deals ({run.rate:,.0f}/s while "
        f"sampled); per deal: {run.actions / run.hands:.1f} actions, "
        f"{run.events / run.hands:.1f} events, {run.transfers / run.hands:.1f} ledger "
        f"transfers, {run.hands / run.sessions:.2f} deals a session"
    )
    print("\ninclusive share of named parts (a stack counts for every part on it):")
    for label, share in shares:
        print(f"  {share:6.1%}  {label}")
    print(f"\ntop {top} functions by inclusive share (sampled):")
    print(f"  {'incl.':>6} {'own':>6}  function")
    for label, inclusive, own in sorted(functions, key=lambda f: -f[1])[:top]:
        print(f"  {inclusive:6.1%} {own:6.1%}  {label}")
    print(f"\ntop {top} functions by own share (sampled):")
    for label, inclusive, own in sorted(functions, key=lambda f: -f[2])[:top]:
        print(f"  {inclusive:6.1%} {own:6.1%}  {label}")

    result, rows, total = cprofile_top(lambda: workload(seconds, seed), top)
    print(
        f"\ncProfile ({result.hands:,} deals in {total:.2f} s of profiled time, "
        f"{result.hands / total:,.0f}/s under the profiler): top {top} by cumulative, "
        f"then by own time"
    )
    print(f"  {'calls/deal':>10} {'cum.':>6} {'own':>6}  function")
    for label, calls, cumulative, own in rows:
        if not label:
            print(f"  {'':>10} {'':>6} {'':>6}  -- by own time --")
            continue
        print(f"  {calls:10.1f} {cumulative:6.1%} {own:6.1%}  {label}")


# -- the report --------------------------------------------------------------------------------


def version(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def spread(runs: Sequence[Run], attribute: str = "rate") -> str:
    values = [getattr(run, attribute) for run in runs]
    return f"{fmt(min(values))}-{fmt(max(values))}"


def fmt(value: float) -> str:
    if value >= 1e6:
        return f"{value / 1e6:,.2f}M"
    if value >= 1e4:
        return f"{value / 1e3:,.1f}k"
    return f"{value:,.0f}"


def play_count(workload: str, count: int, seed: int) -> None:
    """Play exactly ``count`` deals of ``workload``, untimed (for instruction counts)."""
    if workload == "pokerkit":
        pokerkit_draw(0.0, seed, count)
    elif workload == "draw":
        guts_hands(DRAW_PRESET, DRAW_PLAYERS, 0.0, seed, count)
    else:
        guts_hands(GUTS_PRESET, GUTS_PLAYERS, 0.0, seed, count)


def report_compiled(results: dict[str, list[Run]], width: int) -> None:
    """The compiled build's rows: its draw hands/s against PokerKit's, its Guts deals/s,
    and both against the Python build's."""
    draw, deals = results["compiled draw"], results["compiled deals"]
    rate, deal_rate = median_rate(draw), median_rate(deals)
    print("\ncompiled build (GUTS_COMPILE=1)")
    theirs = results.get("pokerkit draw")
    if theirs:
        ratio = rate / median_rate(theirs)
        status = (
            "met" if ratio >= COMPILED_DRAW_TARGET
            else f"missed ({COMPILED_DRAW_TARGET / ratio:.1f}x short)"
        )  # fmt: skip
        print(
            f"{'6-player fixed-limit draw hands/s':<{width}}{fmt(rate):>12}"
            f"{fmt(median_rate(theirs)):>12}{ratio:>8.2f}x  >= {COMPILED_DRAW_TARGET:g}x: {status}"
        )
    status = (
        "met" if deal_rate >= COMPILED_DEALS_TARGET
        else f"missed ({COMPILED_DEALS_TARGET / deal_rate:.1f}x short)"
    )  # fmt: skip
    print(
        f"{'4-player two-card Guts deals/s':<{width}}{fmt(deal_rate):>12}{'-':>12}{'-':>9}"
        f"  >= {COMPILED_DEALS_TARGET:,}: {status}"
    )
    cpu_draw, cpu_deals = median_rate(draw, "cpu_rate"), median_rate(deals, "cpu_rate")
    print(f"{'  hands, deals per CPU second':<{width}}{fmt(cpu_draw):>12}{fmt(cpu_deals):>12}")
    if theirs:
        cpu_ratio = cpu_draw / median_rate(theirs, "cpu_rate")
        print(f"{'  draw hands per CPU second / PokerKit':<{width}}{cpu_ratio:>11.2f}x")
    print(f"{'  spread of hands/s, deals/s':<{width}}{spread(draw):>12}{spread(deals):>12}")
    plain_draw, plain_deals = median_rate(results["guts draw"]), median_rate(results["guts deals"])
    print(
        f"{'  compiled / Python build: draw, deals':<{width}}{rate / plain_draw:>11.2f}x"
        f"{deal_rate / plain_deals:>11.2f}x"
    )
    plain_draw = median_rate(results["guts draw"], "cpu_rate")
    plain_deals = median_rate(results["guts deals"], "cpu_rate")
    print(
        f"{'    the same per CPU second':<{width}}{cpu_draw / plain_draw:>11.2f}x"
        f"{cpu_deals / plain_deals:>11.2f}x"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per measurement")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--profile-seconds", type=float, default=5.0, help="per profiled workload (0: no profile)"
    )
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument(
        "--count", type=int, help="play exactly this many deals of --workload, then exit"
    )
    parser.add_argument("--workload", choices=("draw", "pokerkit", "guts"), default="draw")
    parser.add_argument(
        "--compiled", metavar="SITE", help="the compiled wheel's files: race that build too"
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.seconds, args.seed)
        return
    if args.count is not None:
        play_count(args.workload, args.count, args.seed)
        return

    have_pokerkit = version("pokerkit") != "not installed"
    runs: dict[str, Callable[[float, int], Run]] = {"guts draw": guts_draw}
    if have_pokerkit:
        runs["pokerkit draw"] = pokerkit_draw
    runs["guts deals"] = guts_deals
    print(
        f"machine: {cpu_model()} ({platform.machine()}), "
        f"{len(os.sched_getaffinity(0))} cores, Python {platform.python_version()}, "
        f"pokerkit {version('pokerkit')}"
    )
    print(f"guts from {os.path.dirname(guts.__file__ or '')}, load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}")  # fmt: skip
    if args.compiled:
        print(f"the compiled build from {args.compiled}")
    print(
        f"{args.seconds:g} s per measurement, median of {args.repeats}, "
        "the runs timed in turn within each repeat\n"
    )
    results = race(runs, args.seconds, args.repeats, args.seed, args.compiled)

    ours, deals = results["guts draw"], results["guts deals"]
    theirs = results.get("pokerkit draw")
    rate, deal_rate = median_rate(ours), median_rate(deals)
    width = 44
    print(f"{'metric':<{width}}{'guts':>12}{'pokerkit':>12}{'ratio':>9}  target")
    print("-" * (width + 12 + 12 + 9 + 24))
    if theirs:
        peer = median_rate(theirs)
        ratio = rate / peer
        status = "met" if ratio >= DRAW_TARGET else f"missed ({DRAW_TARGET / ratio:.1f}x short)"
        print(
            f"{'6-player fixed-limit draw hands/s':<{width}}{fmt(rate):>12}{fmt(peer):>12}"
            f"{ratio:>8.2f}x  >= {DRAW_TARGET:g}x: {status}"
        )
        cpu_ratio = median_rate(ours, "cpu_rate") / median_rate(theirs, "cpu_rate")
        print(
            f"{'  hands per CPU second':<{width}}{fmt(median_rate(ours, 'cpu_rate')):>12}"
            f"{fmt(median_rate(theirs, 'cpu_rate')):>12}{cpu_ratio:>8.2f}x"
        )
        action_ratio = median_rate(ours, "action_rate") / median_rate(theirs, "action_rate")
        print(
            f"{'  actions/s':<{width}}{fmt(median_rate(ours, 'action_rate')):>12}"
            f"{fmt(median_rate(theirs, 'action_rate')):>12}{action_ratio:>8.2f}x"
        )
        per_hand = [sum(r.actions for r in rs) / sum(r.hands for r in rs) for rs in (ours, theirs)]
        print(f"{'  actions per hand':<{width}}{per_hand[0]:>12.1f}{per_hand[1]:>12.1f}")
        print(
            f"{'  spread of hands/s over the repeats':<{width}}{spread(ours):>12}"
            f"{spread(theirs):>12}"
        )
    else:
        print(
            f"{'6-player fixed-limit draw hands/s':<{width}}{fmt(rate):>12}"
            f"{'-':>12}{'-':>9}  (pokerkit not installed: pip install -e '.[bench]')"
        )
    status = (
        "met" if deal_rate >= DEALS_TARGET else f"missed ({DEALS_TARGET / deal_rate:.1f}x short)"
    )
    print(
        f"{'4-player two-card Guts deals/s':<{width}}{fmt(deal_rate):>12}{'-':>12}{'-':>9}"
        f"  >= {DEALS_TARGET:,}: {status}"
    )
    print(f"{'  deals per CPU second':<{width}}{fmt(median_rate(deals, 'cpu_rate')):>12}")
    actions = sum(r.actions for r in deals) / sum(r.hands for r in deals)
    sessions = sum(r.hands for r in deals) / sum(r.sessions for r in deals)
    print(
        f"{'  actions per deal / deals per session':<{width}}"
        f"{f'{actions:.1f} / {sessions:.1f}':>12}"
    )
    print(f"{'  spread of deals/s over the repeats':<{width}}{spread(deals):>12}")
    if args.compiled:
        report_compiled(results, width)
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")

    if args.profile_seconds > 0:
        profile_workload(
            "six-player fixed-limit five-card draw (guts)",
            guts_draw,
            args.profile_seconds,
            args.top,
            args.seed,
        )
        profile_workload(
            "four-player two-card Guts (guts)",
            guts_deals,
            args.profile_seconds,
            args.top,
            args.seed,
        )


if __name__ == "__main__":
    main()
