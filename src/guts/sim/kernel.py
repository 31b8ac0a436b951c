"""The compiled loop of the vectorized Guts path: whole sessions, deal after deal.

Imported by :mod:`guts.sim.vector` (and :mod:`guts.sim.summary`). Every function is
compiled with numba (``pip install 'guts[fast]'``) where it is installed, and otherwise
runs as written on numpy scalars (the same code, so the same results, far slower). It
works on plain arrays: the rules come as the integer parameters named by the ``P_*``
indices, hands as indices into a table made by :mod:`guts.sim.vector` from the engine's
own rankings (a two-card hand ``(a, b)`` dealt in that order is entry ``52 a + b``, a
three-card hand ``2704 a + 52 b + c``) of hand classes: the rank of the hand's strength
among all strengths, so that classes compare as strengths do, and index the small tables
of what the class means (its quantile, whether it is a pair or better). A class fits in
16 bits, so the table stays in the caches.

Each session plays from its own random stream: SplitMix64 started at ``key + i * STEP``
(``key`` from the run's seed, ``i`` the session's number), so a session's deals depend on
nothing but the seed and its number, whichever call or worker plays it (the streams of
different sessions are stretches of one 2**64-long sequence, far apart). The stream's
counter lives in a local variable, not an array, so that the compiler keeps it in a
register. A deal is a partial Fisher-Yates shuffle of only the cards it deals, four from
each 32-bit word (two words from each 64-bit output; a word left over at the end of a
deal is not used) as the digits of one uniform draw (Brackett-Rocha and Lemire's batched
bounded integers, exact), from the pack as the session's previous deal left it (in order
at the session's start): so every deal is a uniform draw of distinct cards in dealing
order, and no card is drawn twice. A stay table's mixed choice takes a 53-bit uniform
from one output.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
from numpy.typing import NDArray

__all__ = ["COMPILED", "deal_sessions", "run_sessions"]

Function = TypeVar("Function", bound=Callable[..., Any])

PLAIN = "GUTS_SIM_PLAIN"
"""Set (to anything but 0 or empty) to run the loop as plain numpy even where numba is
installed: the same code, interpreted, so the same deals and results (and far slower)."""


def _compiler(counted: bool) -> tuple[Callable[[Function], Function], bool]:
    """numba's ``njit`` where numba is installed (and :data:`PLAIN` is not set), else
    nothing: the functions run as written, on numpy scalars. ``counted``: with numba's
    reference counting of arrays, which a function needs to make an array; without it,
    a function may only read and write the arrays it is given. No function is inlined by
    numba itself: LLVM inlines the small ones into their callers all the same, and code
    numba inlines into a counted function counts its arrays on every call."""
    if os.environ.get(PLAIN, "") not in ("", "0"):
        return (lambda function: function), False
    try:
        import numba
    except ImportError:
        return (lambda function: function), False
    # _nrt: numba's own option for reference counting (not in its type stubs)
    options: dict[str, Any] = {"_nrt": counted}
    jit = numba.njit(cache=True, nogil=True, error_model="numpy", **options)
    return cast(Callable[[Function], Function], jit), True


_compile, COMPILED = _compiler(counted=True)
"""The loop's entry points, which make their own arrays."""
_step, _ = _compiler(counted=False)
"""The loop's steps: they work on the arrays they are given, and uncounted (numba's
``_nrt=False``) they pay nothing for them. Counted, each call of a step that hands an
array on to another step took and dropped a reference to it, an atomic increment and
decrement, and those were a third of the loop's time."""


def plain_reason() -> str | None:
    """Why the loop runs uncompiled (None where it is compiled): :data:`PLAIN` set, or
    numba not installed."""
    if COMPILED:
        return None
    return (
        f"{PLAIN} is set"
        if os.environ.get(PLAIN, "") not in ("", "0")
        else ("numba is not installed")
    )


# -- the rules, as integer parameters ---------------------------------------------------------
P_PLAYERS = 0
P_CARDS = 1
P_ANTE = 2
P_SIMULTANEOUS = 3
P_AUTO_IN = 4
P_NO_PEEK = 5
P_EVERYONE_OUT = 6  # 0 pot-stays, 1 chicken-fee, 2 wimp, 3 henry, 4 best-and-wilds-match
P_PAYMENT = 7  # 0 match, 1 single-loser, 2 worst-doubles
P_WINNER_TAKES_ALL = 8
P_NOBODY_WINS_CONTESTED = 9
P_DROPOUTS_ANTE = 10
P_GHOST = 11  # 0 never, 1 always, 2 lone, 3 deck
P_GHOST_TIES = 12  # 0 ghost-wins, 1 players-win, 2 push
P_LONE_PAIR = 13
P_POT_LIMIT = 14  # -1: none
P_POT_CAP = 15  # in chips; -1: none
P_MAX_LOSS = 16  # -1: none
P_ANTE_EVERY_DEAL = 17
P_MATCHER_SKIPS = 18
P_CONTINUE = 19
P_RULES_MAX_DEALS = 20  # -1: none
P_LEAVE_ODD = 21  # odd chips of a split stay in the pot
P_MAX_DEALS = 22  # the simulation's limit
P_BUY_IN = 23
P_CUT = 24  # the last session of the call stops after this many deals (-1: no cut)
P_CREDIT = 25  # 0: table stakes (pay at most the stack; no chips, no play)
P_HISTORY = 26  # stay tables by 0: how many declared in before, 1: which (a bit each),
# 2: which, after 2 ** (m - 1) - 2 for the m players dealt in (one solution per m)
P_DEALER_OPTION = 27
P_HI_LO = 28  # declared high, low, both or out, at once (threshold bots: never both)
P_HI_LO_BOTH = 29
P_SIZE = 30

# -- bots -------------------------------------------------------------------------------------
BOT_THRESHOLD = 0
BOT_TABLE = 1  # a stay-in probability per seat, position, ins before and hand class
BOT_RANDOM_WAYS = 2  # Hi-Lo: each way (high, low, both if allowed, out) equally likely

# -- outcomes (guts.sim.outcomes.OUTCOMES order) ---------------------------------------------
NOBODY_IN = 0
UNCONTESTED = 1
SHOWDOWN = 2

POT_BINS = 4096
"""Pots below this are counted in place; larger ones are listed."""
POT_OVERFLOW = 1 << 60
"""A pot beyond this stops its session after the deal (int64 chips would soon overflow):
the players stop, as at a deal limit, and the session is reported as stopped so."""

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
STEP = np.uint64(0xD1B54A32D192ED03)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_S11 = np.uint64(11)
_LOW32 = np.uint64(0xFFFFFFFF)
_UNIT = 1.0 / 9007199254740992.0  # 2 ** -53
_TWO32 = np.uint64(1 << 32)
GROUP = 4
"""Cards dealt from one 32-bit word (52 * 51 * 50 * 49 < 2**23: a word is rarely refused)."""


@_step
def _mix(z: np.uint64) -> np.uint64:
    """SplitMix64's output for the counter ``z`` (the stream adds :data:`_GAMMA` to its
    counter before each output)."""
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return np.uint64(z ^ (z >> _S31))


@_step
def _group(deck: NDArray[np.int64], j: int, word: np.uint64) -> bool:
    """Deal cards ``j`` to ``j + 3`` of ``deck`` by a partial Fisher-Yates shuffle, from
    one 32-bit ``word``: the places picked among the ``52 - j``, ``51 - j``, ... cards
    left are the digits of one draw below their product ``P`` (Brackett-Rocha and
    Lemire's batched bounded integers: each digit the high half of the remainder times
    the range), exactly uniform unless the last remainder falls below ``2**32 mod P``:
    then (less than 0.2% of words) the word is refused, returning False. The swaps are
    made all the same: the pack is still a permutation, its cards from ``j`` on not yet
    dealt, and the caller deals the same four places again from the next word."""
    rest = word
    product = np.uint64(1)
    for k in range(GROUP):
        left = np.uint64(52 - j - k)
        x = rest * left
        i = j + k
        pick = i + int(x >> _S32)
        card = deck[pick]
        deck[pick] = deck[i]
        deck[i] = card
        rest = x & _LOW32
        product *= left
    return not (rest < product and rest < (_TWO32 - product) % product)


@_step
def _deal(deck: NDArray[np.int64], needed: int, counter: np.uint64) -> np.uint64:
    """Deal at least ``needed`` distinct cards, in dealing order, to the top of ``deck``
    (a permutation of the 52 cards) by a partial Fisher-Yates shuffle from the stream at
    ``counter``; return the counter after. Each 64-bit output deals :data:`GROUP` cards
    from its high half, then :data:`GROUP` from its low half if more are needed (a half
    left over is not used; a half refused, the next one deals the same places)."""
    j = 0
    while j < needed:
        counter += _GAMMA
        bits = _mix(counter)
        if _group(deck, j, bits >> _S32):
            j += GROUP
        if j < needed and _group(deck, j, bits & _LOW32):
            j += GROUP
    return counter


@_step
def _stream(key: np.uint64, index: int) -> np.uint64:
    """The counter that starts session ``index``'s random stream."""
    return key + np.uint64(index) * STEP


@_step
def _new_pack(deck: NDArray[np.int64]) -> None:
    """The pack in order: a session deals its first deal from it."""
    for c in range(52):
        deck[c] = c


@_compile
def deal_sessions(
    key: np.uint64, first: int, count: int, deals: int, needed: int
) -> NDArray[np.int64]:
    """The cards dealt to the top of the pack in ``deals`` deals of ``needed`` cards in
    each of sessions ``first`` to ``first + count - 1`` of the run with stream ``key``,
    as :func:`run_sessions` deals them when nothing else draws from the streams
    (threshold bots on credit): ``cards[session, deal]``."""
    cards = np.empty((count, deals, needed), dtype=np.int64)
    deck = np.empty(52, dtype=np.int64)
    for s in range(count):
        counter = _stream(key, first + s)
        _new_pack(deck)
        for d in range(deals):
            counter = _deal(deck, needed, counter)
            cards[s, d] = deck[:needed]
    return cards


@_step
def _unit(counter: np.uint64) -> float:
    """A uniform float in ``[0, 1)`` with 53 random bits: the output at ``counter``."""
    return float(_mix(counter) >> _S11) * _UNIT


@_step
def _index(cards: NDArray[np.int64], start: int, stride: int, size: int) -> int:
    """The table index of the hand ``cards[start], cards[start + stride]`` and, of three
    cards (``size``), ``cards[start + 2 * stride]``."""
    index = int(cards[start] * 52 + cards[start + stride])
    return index * 52 + int(cards[start + 2 * stride]) if size == 3 else index


@_step
def _capped(amount: int, cap: int) -> int:
    """guts.table.capped: ``amount`` under a maximum loss (-1: none)."""
    return amount if cap < 0 else min(amount, cap)


@_step
def _split(
    stacks: NDArray[np.int64],
    seat_of: NDArray[np.int64],
    winners: NDArray[np.bool_],
    amount: int,
    leave_odd: bool,
) -> int:
    """Table.split among the winning positions (nearest the dealer's left first, which is
    also the order the deal lists them); returns the chips paid out."""
    count = 0
    for p in range(winners.shape[0]):
        if winners[p]:
            count += 1
    share = amount // count
    odd = amount % count
    extra = 0 if leave_odd else odd
    paid = 0
    k = 0
    for p in range(winners.shape[0]):
        if winners[p]:
            chips = share + (1 if k < extra else 0)
            stacks[seat_of[p]] += chips
            paid += chips
            k += 1
    return paid


@_step
def _pay(stacks: NDArray[np.int64], seat: int, amount: int, credit: bool) -> int:
    """Table.pay: ``seat`` pays ``amount`` (at table stakes at most its stack); returns
    what it paid."""
    paid = amount if credit else min(amount, stacks[seat])
    stacks[seat] -= paid
    return paid


@_step
def _in_by_chance(chance: float) -> int:
    """A stay table's choice where no draw is needed: 1 in, 0 out, -1 draw."""
    if chance >= 1.0:
        return 1
    return 0 if chance <= 0.0 else -1


@_step
def _half(
    playing: NDArray[np.bool_],
    power: NDArray[np.int64],
    sign: int,
    rival: int,
    ghost_lone: bool,
    ghost_ties: int,
    won: NDArray[np.bool_],
    lost: NDArray[np.bool_],
) -> int:
    """showdown.contest for one way of a Hi-Lo showdown among the positions ``playing``
    (``sign`` -1: low, the ranking reversed) against the ghost's class ``rival`` (-1: no
    ghost; ``ghost_lone``: it plays only against one player): marks who won and who lost;
    returns how many won, -1 if nobody plays this way."""
    best = -(1 << 20)
    many = 0
    for p in range(playing.shape[0]):
        won[p] = False
        lost[p] = False
        if playing[p]:
            best = max(best, sign * power[p])
            many += 1
    if many == 0:
        return -1
    ghost_won = False
    pushed = False
    if rival >= 0 and (not ghost_lone or many == 1) and sign * rival >= best:
        ghost_won = sign * rival > best or ghost_ties == 0
        pushed = not ghost_won and ghost_ties == 2
    winning = 0
    for p in range(playing.shape[0]):
        if playing[p]:
            top = sign * power[p] == best
            won[p] = top and not (ghost_won or pushed)
            lost[p] = ghost_won or not top
            if won[p]:
                winning += 1
    return winning


@_step
def _stays_by_chance(chance: float, counter: np.uint64) -> tuple[bool, np.uint64]:
    """A stay table's choice with the chance ``chance`` of staying in, drawing from the
    stream at ``counter`` only when the chance is neither 0 nor 1; returns the choice and
    the counter after."""
    sure = _in_by_chance(chance)
    if sure < 0:
        counter += _GAMMA
        return _unit(counter) < chance, counter
    return sure == 1, counter


@_step
def _threshold_bars(
    cached_class: NDArray[np.int32],
    cached_blind: NDArray[np.bool_],
    cached_low: NDArray[np.int32],
    quantile: NDArray[np.float64],
    row: int,
    opponents: int,
    ratio: float,
    hi_lo: bool,
) -> None:
    """bots.threshold's bar against ``opponents`` for the pot of cache row ``row``
    (``ratio``: L / (W + L)): the bar is ``ratio ** (1 / opponents)``; quantiles grow
    with the class, so the first class in is the first at the bar (Hi-Lo: high from
    max(X, 1/2), low up to min(1 - X, 1/2)); a hand unseen is in if the bar is at most
    1/2. Written to the caches at ``[row, opponents]``."""
    bar = ratio ** (1.0 / opponents)
    high = max(bar, 0.5) if hi_lo else bar
    cached_class[row, opponents] = np.searchsorted(quantile, high)
    cached_low[row, opponents] = np.searchsorted(quantile, min(1.0 - bar, 0.5), side="right")
    cached_blind[row, opponents] = bar <= 0.5


@_step
def _challenge(
    kinds: NDArray[np.int64],
    stay: NDArray[np.float64],
    policy_class: NDArray[np.int16],
    hand: NDArray[np.int64],
    power: NDArray[np.int64],
    seat_of: NDArray[np.int64],
    ins: NDArray[np.bool_],
    cached_class: NDArray[np.int32],
    cached_blind: NDArray[np.bool_],
    quantile: NDArray[np.float64],
    row: int,
    ratio: float,
    no_peek: bool,
    m: int,
    taken: int,
    best_in: int,
    counter: np.uint64,
) -> tuple[int, int, np.uint64]:
    """GutsDeal._after_declare: the dealer alone declared in, and the others may challenge
    in turn (the threshold bot sees one live opponent, the dealer; a stay table reads its
    first history). Returns how many are in, the best class in and the stream's counter."""
    if cached_class[row, 0] < 0:
        cached_class[row, 0] = np.searchsorted(quantile, ratio)
        cached_blind[row, 0] = ratio <= 0.5
    for p in range(m - 1):
        seat = seat_of[p]
        if kinds[seat] == BOT_THRESHOLD:
            stays = cached_blind[row, 0] if no_peek else power[p] >= cached_class[row, 0]
        else:
            grade = 0 if no_peek else policy_class[hand[p]]
            stays, counter = _stays_by_chance(stay[seat, p, 0, grade], counter)
        if stays:
            ins[p] = True
            taken += 1
            best_in = max(best_in, power[p])
    return taken, best_in, counter


@_step
def _everyone_out(
    params: NDArray[np.int64],
    stacks: NDArray[np.int64],
    seat_of: NDArray[np.int64],
    power: NDArray[np.int64],
    holds_wild: NDArray[np.bool_],
    hand: NDArray[np.int64],
    matched: NDArray[np.bool_],
    m: int,
    pot: int,
) -> int:
    """settle.everyone_out: nobody of the ``m`` dealt in declared in; the pot stays, or
    a fee, the wimp's or the best hands' match goes in. Returns the pot after."""
    rule = params[P_EVERYONE_OUT]
    ante = params[P_ANTE]
    max_loss = params[P_MAX_LOSS]
    credit = params[P_CREDIT] != 0
    if rule == 1:
        for p in range(m):
            pot += _pay(stacks, seat_of[p], ante, credit)
    elif rule >= 2:
        best = power[0]
        for p in range(m):
            best = max(best, power[p])
        if rule == 2:
            for p in range(m):
                if power[p] == best:
                    pot += _pay(stacks, seat_of[p], ante * m, credit)
        else:
            stake = _capped(pot, max_loss)
            for p in range(m):
                if power[p] == best or (rule == 4 and holds_wild[hand[p]]):
                    pot += _pay(stacks, seat_of[p], stake, credit)
                    matched[p] = True
    return pot


@_step
def _lone_in(
    params: NDArray[np.int64],
    stacks: NDArray[np.int64],
    seat_of: NDArray[np.int64],
    power: NDArray[np.int64],
    pair_plus: NDArray[np.bool_],
    matched: NDArray[np.bool_],
    lone: int,
    pot: int,
) -> tuple[int, bool]:
    """settle.lone_in: position ``lone`` alone declared in and takes the pot, unless it
    lacks the lone qualifier (then it matches the pot). Returns the pot after and whether
    chips were paid out of it."""
    max_loss = params[P_MAX_LOSS]
    credit = params[P_CREDIT] != 0
    if params[P_LONE_PAIR] and not pair_plus[power[lone]]:
        stake = _capped(pot, max_loss)
        pot += _pay(stacks, seat_of[lone], stake, credit)
        matched[lone] = True
        return pot, False
    stacks[seat_of[lone]] += pot
    return 0, pot > 0


@_step
def _hi_lo_showdown(
    params: NDArray[np.int64],
    stacks: NDArray[np.int64],
    seat_of: NDArray[np.int64],
    power: NDArray[np.int64],
    ins: NDArray[np.bool_],
    ways: NDArray[np.int64],
    losers: NDArray[np.bool_],
    matched: NDArray[np.bool_],
    halves: NDArray[np.bool_],
    m: int,
    pot: int,
    most: int,
    rival: int,
) -> tuple[int, bool, int]:
    """settle.hi_lo_result for the positions in (``ways``: 1 high, 2 low, 3 both) against
    the ghost's class ``rival`` (-1: none). ``halves`` is scratch space, a row each for
    who plays, won and lost high and low. Returns the pot after, whether chips were paid
    out of it, and the most it held."""
    n = params[P_PLAYERS]
    ante = params[P_ANTE]
    max_loss = params[P_MAX_LOSS]
    credit = params[P_CREDIT] != 0
    ghost_lone = params[P_GHOST] == 2
    ghost_ties = params[P_GHOST_TIES]
    dropouts_ante = params[P_DROPOUTS_ANTE]
    leave_odd = params[P_LEAVE_ODD] != 0
    high_in, low_in = halves[0], halves[1]
    high_won, low_won = halves[2], halves[3]
    high_lost, low_lost = halves[4], halves[5]
    # settle.hi_lo_result: a half of the pot each way (the ghost plays both
    # ways; ghost=lone: a way with one player), losers match the pot once
    stake = _capped(pot, max_loss)
    for p in range(n):
        high_in[p] = p < m and ins[p] and (ways[p] == 1 or ways[p] == 3)
        low_in[p] = p < m and ins[p] and (ways[p] == 2 or ways[p] == 3)
    highs = _half(high_in, power, 1, rival, ghost_lone, ghost_ties, high_won,
                  high_lost)  # fmt: skip
    lows = _half(low_in, power, -1, rival, ghost_lone, ghost_ties, low_won, low_lost)
    # showdown.hi_lo_contests: both ways must win (or tie) both, or fail
    failed = False
    for p in range(m):
        fails = ins[p] and ways[p] == 3 and not (high_won[p] and low_won[p])
        losers[p] = fails
        if fails:
            failed = True
            high_in[p] = False
            low_in[p] = False
    if failed:
        highs = _half(high_in, power, 1, rival, ghost_lone, ghost_ties, high_won,
                      high_lost)  # fmt: skip
        lows = _half(low_in, power, -1, rival, ghost_lone, ghost_ties, low_won,
                     low_lost)  # fmt: skip
    high_share = pot - pot // 2 if highs >= 0 and lows >= 0 else pot
    low_share = pot // 2 if highs >= 0 and lows >= 0 else pot
    paid = 0
    if highs > 0 and high_share:
        paid += _split(stacks, seat_of, high_won, high_share, leave_odd)
    if lows > 0 and low_share:
        paid += _split(stacks, seat_of, low_won, low_share, leave_odd)
    paid_out = paid > 0
    if paid_out:
        most = max(most, pot)
    pot -= paid
    for p in range(m):
        won = high_won[p] or low_won[p]
        if losers[p] or ((high_lost[p] or low_lost[p]) and not won):
            pot += _pay(stacks, seat_of[p], stake, credit)
            matched[p] = True
    if dropouts_ante:
        for p in range(m):
            if not ins[p]:
                pot += _pay(stacks, seat_of[p], ante, credit)
    if not paid_out:
        most = max(most, pot)
    return pot, paid_out, most


@_step
def _contest(
    params: NDArray[np.int64],
    stacks: NDArray[np.int64],
    seat_of: NDArray[np.int64],
    power: NDArray[np.int64],
    ins: NDArray[np.bool_],
    winners: NDArray[np.bool_],
    losers: NDArray[np.bool_],
    matched: NDArray[np.bool_],
    m: int,
    taken: int,
    best_in: int,
    rival: int,
    challenged: bool,
    pot: int,
    most: int,
) -> tuple[int, bool, int]:
    """GutsDeal._showdown (or settle.lone_against_deck), showdown.contest and
    settle.contest_result: the ``taken`` positions in, the best of them ``best_in``,
    against the ghost's or the deck's class ``rival`` (-1: none); ``challenged``: the
    dealer was challenged. Returns the pot after, whether chips were paid out of it, and
    the most it held."""
    n = params[P_PLAYERS]
    ante = params[P_ANTE]
    max_loss = params[P_MAX_LOSS]
    credit = params[P_CREDIT] != 0
    payment = params[P_PAYMENT]
    ghost_ties = params[P_GHOST_TIES]
    nobody_wins_contested = params[P_NOBODY_WINS_CONTESTED]
    winner_takes_all = params[P_WINNER_TAKES_ALL]
    dropouts_ante = params[P_DROPOUTS_ANTE]
    leave_odd = params[P_LEAVE_ODD] != 0
    has_rival = rival >= 0
    best = best_in
    ghost_won = False
    pushed = False
    if has_rival and rival >= best:
        ghost_won = rival > best or ghost_ties == 0
        pushed = not ghost_won and ghost_ties == 2
    # winners: the best hands in (none if the ghost or the deck won, or pushed
    # them); losers: the others in (all in if the ghost or the deck won)
    winning = 0
    any_loser = False
    worst = best
    for p in range(m):
        top = ins[p] and power[p] == best
        winners[p] = top and not (ghost_won or pushed)
        losers[p] = ins[p] and (ghost_won or not top)
        if winners[p]:
            winning += 1
        if losers[p]:
            any_loser = True
            worst = min(worst, power[p])
    takes = winning > 0 and not (nobody_wins_contested and taken > 1)
    amount = _capped(2 * pot if payment == 2 else pot, max_loss)
    # the pot to the winners (Table.split: nearest the dealer's left first),
    # then each paying loser matches it (all, or the worst hands)
    # (one winner, the usual case, needs no division)
    share = (pot if winning == 1 else pot // winning) if takes else 0
    extra = 0 if leave_odd or not takes or winning == 1 else pot % winning
    if takes:
        most = max(most, pot)
    paid = 0
    added = 0
    k = 0
    for p in range(m):
        if takes and winners[p]:
            chips = share + (1 if k < extra else 0)
            stacks[seat_of[p]] += chips
            paid += chips
            k += 1
        elif losers[p] and (payment == 0 or power[p] == worst):
            added += _pay(stacks, seat_of[p], amount, credit)
            matched[p] = True
    paid_out = paid > 0
    pot += added - paid
    if not paid_out:
        most = max(most, pot)
    if takes and winner_takes_all and pot:
        for p in range(m, n):
            winners[p] = False
        pot -= _split(stacks, seat_of, winners, pot, leave_odd)
    if dropouts_ante and (taken > 1 or any_loser or pushed or ghost_won):
        # settle.dropouts_ante: whoever declared out (after a challenge of
        # the dealer, every challenger too: they declared out first)
        for p in range(m):
            if not ins[p] or (challenged and p < m - 1):
                pot += _pay(stacks, seat_of[p], ante, credit)
        if not paid_out:
            most = max(most, pot)
    return pot, paid_out, most


@_step
def _normalize_pot(
    pot: int, reserve: int, aside: int, pot_limit: int, pot_cap: int
) -> tuple[int, int, int]:
    """settle.normalize_pot: a pot over its limit puts the rest in the reserve (and takes
    from it while under), a pot over its cap sets the rest aside (and takes it back when
    empty). Returns the pot, the reserve and what is set aside."""
    if pot_limit >= 0:
        if pot > pot_limit:
            reserve += pot - pot_limit
            pot = pot_limit
        else:
            moved = min(pot_limit - pot, reserve)
            if moved > 0:
                reserve -= moved
                pot += moved
    cap = pot_cap
    if cap >= 0:
        if pot > cap:
            aside += pot - cap
            pot = cap
        elif pot == 0 and aside:
            moved = min(cap, aside)
            aside -= moved
            pot += moved
    return pot, reserve, aside


@_compile
def run_sessions(
    first: int,
    count: int,
    key: np.uint64,
    params: NDArray[np.int64],
    hand_class: NDArray[np.int16],
    policy_class: NDArray[np.int16],
    quantile: NDArray[np.float64],
    pair_plus: NDArray[np.bool_],
    holds_wild: NDArray[np.bool_],
    kinds: NDArray[np.int64],
    stay: NDArray[np.float64],
    decks: NDArray[np.int64],
    out_deals: NDArray[np.int64],
    out_nets: NDArray[np.int64],
    out_bust: NDArray[np.bool_],
    out_left: NDArray[np.int64],
    out_capped: NDArray[np.bool_],
    out_overflow: NDArray[np.bool_],
    out_outcomes: NDArray[np.int64],
    pot_counts: NDArray[np.int64],
    big_pots: NDArray[np.int64],
    trace_pots: NDArray[np.int64],
    trace_outcomes: NDArray[np.int64],
    trace_stacks: NDArray[np.int64],
) -> int:
    """Play sessions ``first`` to ``first + count - 1``; return how many were played
    (fewer when ``big_pots`` might not hold the next session's large pots: call again
    from there, with ``big_pots`` longer than a session's deals, so that a call always
    plays one).

    Per session ``s`` of the call it writes the deals, each seat's net and whether it went
    bust, the chips left on the table, whether the simulation's deal limit stopped it or
    a pot past :data:`POT_OVERFLOW` did (``out_overflow``), and
    how many deals came to each outcome (``out_outcomes[s]``); it adds each deal's pot to
    ``pot_counts`` (or, when not below :data:`POT_BINS`, to ``big_pots``, whose entry 0
    holds how many follow). With
    ``decks`` of shape ``(count, max deals, cards)`` the deals are dealt from it instead of
    the stream; with trace arrays of ``count`` rows it records every deal's pot, outcome
    and stacks after it. Stay tables (``stay[seat, position, history, class]``) read the
    hand's class in ``policy_class`` (the threshold bot reads ``hand_class``)."""
    # the rules as locals, read once (array reads are reloaded after every store)
    ante = params[P_ANTE]
    ante_every_deal = params[P_ANTE_EVERY_DEAL]
    auto_in = params[P_AUTO_IN]
    buy_in = params[P_BUY_IN]
    play_on = params[P_CONTINUE]
    credit = params[P_CREDIT] != 0
    cut = params[P_CUT]
    dealer_option = params[P_DEALER_OPTION]
    ghost = params[P_GHOST]
    hi_lo = params[P_HI_LO] != 0
    choices = 4 if params[P_HI_LO_BOTH] != 0 else 3  # the random bot's Hi-Lo actions
    history_kind = params[P_HISTORY]
    matcher_skips = params[P_MATCHER_SKIPS]
    max_deals = params[P_MAX_DEALS]
    max_loss = params[P_MAX_LOSS]
    no_peek = params[P_NO_PEEK]
    payment = params[P_PAYMENT]
    pot_cap = params[P_POT_CAP]
    pot_limit = params[P_POT_LIMIT]
    rules_max_deals = params[P_RULES_MAX_DEALS]
    simultaneous = params[P_SIMULTANEOUS]
    n = params[P_PLAYERS]
    size = params[P_CARDS]
    leave_odd = params[P_LEAVE_ODD] != 0
    stacked = decks.shape[0] > 0
    tracing = trace_pots.shape[0] > 0
    cards = np.empty(52, dtype=np.int64)  # the pack, dealt from the top (_deal)
    stacks = np.empty(n, dtype=np.int64)
    seat_of = np.empty(n, dtype=np.int64)
    hand = np.empty(n, dtype=np.int64)
    power = np.empty(n, dtype=np.int64)
    ins = np.zeros(n, dtype=np.bool_)
    winners = np.zeros(n, dtype=np.bool_)
    losers = np.zeros(n, dtype=np.bool_)
    skip = np.zeros(n, dtype=np.bool_)
    matched = np.zeros(n, dtype=np.bool_)
    # the threshold bot's bars, kept per pot (a row per pot below POT_BINS, the last row
    # for the current larger pot) and per live opponents (column 0: the dealer's option):
    # the first class in (-1 until worked out), whether a hand unseen is in, the last low
    cached_class = np.full((POT_BINS + 1, n + 1), -1, dtype=np.int32)
    cached_blind = np.zeros((POT_BINS + 1, n + 1), dtype=np.bool_)
    cached_low = np.zeros((POT_BINS + 1, n + 1), dtype=np.int32)
    row = POT_BINS
    ways = np.zeros(n, dtype=np.int64)  # Hi-Lo: 0 out, 1 high, 2 low, 3 both
    halves = np.zeros((6, n), dtype=np.bool_)  # Hi-Lo: who plays, won, lost high and low
    last_pot = -1
    ratio = 0.0
    for s in range(count):
        index = first + s
        counter = _stream(key, index)
        _new_pack(cards)
        for seat in range(n):
            stacks[seat] = buy_in
            out_bust[s, seat] = False
            skip[seat] = False
        for k in range(out_outcomes.shape[1]):
            out_outcomes[s, k] = 0
        pot = 0
        reserve = 0
        aside = 0
        button = 0
        deals = 0
        limit = max_deals
        if cut >= 0 and s == count - 1:
            limit = min(limit, cut)
        if big_pots[0] + limit >= big_pots.shape[0]:
            return s  # perhaps no room for its large pots: call again from this session
        capped_here = False
        overflowed = False
        while True:
            if deals >= limit:
                # the players stop (GutsSession.stop): everything is shared out among the
                # seats with chips (every seat on credit), from the dealer's left
                pot += reserve + aside
                reserve = 0
                aside = 0
                if pot:
                    anyone = False
                    for p in range(n):
                        seat_of[p] = (button + 1 + p) % n
                        winners[p] = credit or stacks[seat_of[p]] > 0
                        anyone = anyone or winners[p]
                    if not anyone:
                        for p in range(n):
                            winners[p] = True
                    pot -= _split(stacks, seat_of, winners, pot, leave_odd)
                capped_here = deals >= max_deals
                break
            # -- GutsSession.start_deal: the seats with chips, from the dealer's left ------
            m = 0
            seat = button
            for _ in range(n):
                seat = seat + 1 if seat + 1 < n else 0
                if credit or stacks[seat] > 0:
                    seat_of[m] = seat
                    m += 1
            # -- GutsDeal.start: antes, the deal ------------------------------------------
            if pot == 0 or ante_every_deal:
                for p in range(m):
                    seat = seat_of[p]
                    if ante_every_deal and matcher_skips and skip[seat]:
                        continue
                    pot += _pay(stacks, seat, ante, credit)
            most = pot
            hands_cards = m * size
            needed = hands_cards + (size if ghost != 0 else 0)
            if stacked:
                for j in range(needed):
                    cards[j] = decks[s, deals, j]
            else:
                counter = _deal(cards, needed, counter)
            for p in range(m):
                hand[p] = _index(cards, p, m, size)
                power[p] = hand_class[hand[p]]
                matched[p] = False
            # -- declaring (DeclareRound; ThresholdPolicy or a stay table) ----------------
            if pot != last_pot:  # bots.threshold's W and L: the pot, capped or doubled
                last_pot = pot
                loss = 2 * pot if payment == 2 else pot
                loss = max(_capped(loss, max_loss), 1)
                win = 0.5 * float(pot) if hi_lo else float(pot)  # a half in Hi-Lo
                ratio = float(loss) / (win + float(loss))
                row = pot if pot < POT_BINS else POT_BINS
                if row == POT_BINS:
                    for j in range(n + 1):
                        cached_class[row, j] = -1
            outs = 0
            taken = 0
            bits = 0
            best_in = -1  # the best class declared in (classes are never negative)
            last_in = 0  # the last position declared in
            for p in range(m):
                seat = seat_of[p]
                if not simultaneous and auto_in and p == m - 1 and outs == m - 1:
                    ins[p] = True  # the dealer is in automatically
                    taken += 1
                    best_in = max(best_in, power[p])
                    last_in = p
                    continue
                kind = kinds[seat]
                if kind == BOT_THRESHOLD:
                    opponents = m - 1 if simultaneous else m - 1 - outs
                    o = max(opponents, 1)
                    if cached_class[row, o] < 0:
                        _threshold_bars(cached_class, cached_blind, cached_low, quantile, row, o,
                                        ratio, hi_lo)  # fmt: skip
                    bar_class = cached_class[row, o]
                    stays = cached_blind[row, o] if no_peek else power[p] >= bar_class
                    if hi_lo:  # high first; a hand unseen (quantile 1/2) is never low
                        ways[p] = 1 if stays else 0
                        if not stays and not no_peek and power[p] < cached_low[row, o]:
                            ways[p] = 2
                            stays = True
                elif kind == BOT_RANDOM_WAYS:  # RandomPolicy: any action, evenly
                    counter += _GAMMA
                    pick = min(int(_unit(counter) * choices), choices - 1)
                    ways[p] = pick + 1 if pick < choices - 1 else 0
                    stays = ways[p] != 0
                else:
                    history = 0 if simultaneous else (bits if history_kind else taken)
                    if history_kind == 2:
                        history += (1 << (m - 1)) - 2
                    grade = 0 if no_peek else policy_class[hand[p]]
                    stays, counter = _stays_by_chance(stay[seat, p, history, grade], counter)
                ins[p] = stays
                if stays:
                    taken += 1
                    bits |= 1 << p
                    best_in = max(best_in, power[p])
                    last_in = p
                else:
                    outs += 1
            challenged = dealer_option and taken == 1 and ins[m - 1] and m > 1
            if challenged:
                taken, best_in, counter = _challenge(
                    kinds, stay, policy_class, hand, power, seat_of, ins, cached_class,
                    cached_blind, quantile, row, ratio, no_peek, m, taken, best_in, counter,
                )  # fmt: skip
            # -- GutsDeal._resolve ---------------------------------------------------------
            paid_out = False
            outcome = SHOWDOWN
            ghost_plays = (ghost == 1 and taken >= 1) or (ghost == 2 and taken == 1)
            if taken == 0:
                outcome = NOBODY_IN
                pot = _everyone_out(params, stacks, seat_of, power, holds_wild, hand, matched,
                                    m, pot)  # fmt: skip
                most = max(most, pot)
            elif taken == 1 and ghost != 3 and not ghost_plays:
                outcome = UNCONTESTED
                pot, paid_out = _lone_in(params, stacks, seat_of, power, pair_plus, matched,
                                         last_in, pot)  # fmt: skip
                if not paid_out:
                    most = max(most, pot)
            else:
                # the ghost (Hi-Lo: plays both ways) or, one player in, the deck
                rival = -1
                if (
                    (ghost == 1 or ghost == 2)
                    if hi_lo
                    else (ghost == 3 and taken == 1) or ghost_plays
                ):
                    rival = int(hand_class[_index(cards, hands_cards, 1, size)])
                if hi_lo:
                    pot, paid_out, most = _hi_lo_showdown(
                        params, stacks, seat_of, power, ins, ways, losers, matched, halves, m,
                        pot, most, rival,
                    )  # fmt: skip
                else:
                    pot, paid_out, most = _contest(
                        params, stacks, seat_of, power, ins, winners, losers, matched, m, taken,
                        best_in, rival, challenged, pot, most,
                    )  # fmt: skip
            pot, reserve, aside = _normalize_pot(pot, reserve, aside, pot_limit, pot_cap)
            if not paid_out:
                most = max(most, pot)

            # -- the deal is counted (guts.sim.runner.play_session) -------------------------
            if most > POT_OVERFLOW or pot > POT_OVERFLOW or reserve > POT_OVERFLOW:
                overflowed = True  # this deal counts; then the players stop
            out_outcomes[s, outcome] += 1
            if most < POT_BINS:
                pot_counts[most] += 1
            else:
                listed = big_pots[0]  # room for every deal of the session (checked above)
                big_pots[listed + 1] = most
                big_pots[0] = listed + 1
            for p in range(m):
                skip[seat_of[p]] = matched[p]
            with_chips = 0
            for seat in range(n):
                if stacks[seat] <= 0:
                    out_bust[s, seat] = True
                else:
                    with_chips += 1
            if tracing:
                trace_pots[s, deals] = most
                trace_outcomes[s, deals] = outcome
                for seat in range(n):
                    trace_stacks[s, deals, seat] = stacks[seat]
            deals += 1
            if overflowed:
                limit = deals
            # -- GutsSession._after_step: the deal passes left, to a player with chips -------
            button = button + 1 if button + 1 < n else 0
            if not credit and with_chips >= 2:
                while stacks[button] <= 0:
                    button = button + 1 if button + 1 < n else 0
            empty = pot == 0 and reserve == 0 and aside == 0
            if empty and not play_on:
                break
            if rules_max_deals >= 0 and deals >= rules_max_deals:
                break
            if not credit and with_chips < 2:
                break  # SHORT_OF_PLAYERS
        out_deals[s] = deals
        for seat in range(n):
            out_nets[s, seat] = stacks[seat] - buy_in
        out_left[s] = pot + reserve + aside
        out_capped[s] = capped_here
        out_overflow[s] = overflowed
    return count


@_compile
def session_sums(
    nets: NDArray[np.int64],
    deals: NDArray[np.int64],
    busted: NDArray[np.bool_],
    outcomes: NDArray[np.int64],
    kind_of: NDArray[np.int64],
    kinds: int,
) -> tuple[NDArray[np.int64], NDArray[np.int64], int]:
    """Over the sessions (a row each), per column (each seat, then each of the ``kinds``
    bot kinds: the sum of the seats ``kind_of`` gives it) the sums of the nets, their
    squares, their products with the deals, of the busts and their squares, as
    ``sums[column]``; then ``sums[-1, :2]`` the sums of the deals and their squares. Per
    outcome ``k`` (``outcomes[s, k]``: how many of session ``s``'s settlements came to it)
    the sum of the counts, of their squares and of their products with the session's
    settlements (``counted[k]``), then the same of the settlements (``counted[-1, 1]``
    the sum of their squares). With the largest value in absolute value: the sums are
    exact (no int64 overflow) if its square times the sessions is below ``2**62``.

    Each sum is kept in a local over one column at a time (a sum kept in an array is
    stored and loaded again at every step)."""
    sessions = deals.shape[0]
    seats = nets.shape[1]
    sums = np.zeros((seats + kinds + 1, 5), dtype=np.int64)
    counted = np.zeros((outcomes.shape[1] + 1, 3), dtype=np.int64)
    largest = 0
    y1 = y2 = 0
    for s in range(sessions):
        y = deals[s]
        largest = max(largest, abs(y))
        y1 += y
        y2 += y * y
    sums[-1, 0], sums[-1, 1] = y1, y2
    for column in range(seats + kinds):
        x1 = x2 = xy = b1 = b2 = 0
        for s in range(sessions):
            x = 0
            b = 0
            if column < seats:
                x = nets[s, column]
                b = int(busted[s, column])
            else:  # a bot kind: its seats together
                for seat in range(seats):
                    if kind_of[seat] == column - seats:
                        x += nets[s, seat]
                        b += int(busted[s, seat])
            largest = max(largest, abs(x))
            x1 += x
            x2 += x * x
            xy += x * deals[s]
            b1 += b
            b2 += b * b
        sums[column, 0], sums[column, 1], sums[column, 2] = x1, x2, xy
        sums[column, 3], sums[column, 4] = b1, b2
    ways = outcomes.shape[1]
    for k in range(ways + 1):  # each outcome, then the settlements of every outcome
        c1 = c2 = ct = 0
        for s in range(sessions):
            t = 0
            for j in range(ways):
                t += outcomes[s, j]
            c = outcomes[s, k] if k < ways else t
            largest = max(largest, t)
            c1 += c
            c2 += c * c
            ct += c * t
        counted[k, 0], counted[k, 1], counted[k, 2] = c1, c2, ct
    return sums, counted, largest
