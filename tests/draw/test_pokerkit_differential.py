"""Differential test: guts's draw poker against PokerKit, hand by hand (issue 11).

Each hand is dealt from one stacked deck to both engines: a seeded shuffle gives every
seat its five cards (``DrawSession.stacked``) and then the stock the draws take from; the
cards each guts seat draws are dealt to the same PokerKit player. A seeded random bot picks
every action among those legal in guts (fold, check, call, bet, raise; a discard of a
legal size, or standing pat) and the same action is taken in PokerKit. Before each betting
action both engines must agree on who acts, that folding is possible, what a check or call
costs, whether a bet or raise is possible and its least and largest amount (a round total,
as both engines count it). The draws of one drawing round must be made by the same players
(in the same order where both engines draw in the same order, see below). At the end every
player's stack must be the same in both engines, to the chip.

Covered: two to six players; the preset five-card-draw's fixed limit (ante 1, bets of 1
and then 2, a bet and four raises, the cap heads-up too); two drawing rounds (the preset
two-draws); blinds instead of the ante (the preset draw-with-blinds, 1/2, bets of 2 and 4);
no limit and pot limit (with the ante, and no-limit with the blinds); short stacks with
all-ins and side pots under fixed limit (with one-chip bets, see below), no limit and pot
limit.

Rule differences, left out by design (the games differ, so there is nothing to compare):

- guts throws the cards in when nobody bets in the first round; PokerKit plays on to the
  draw and the showdown. Such a hand is compared up to the throw-in (PokerKit must then
  be at its draw too) and its stacks are not compared.
- guts's preset starts the betting after the draw with the opener (later-bets-from=opener);
  PokerKit always starts from the first position (dealer's left, or after the button
  heads-up). The ante games are therefore played with later-bets-from=dealer-left. With
  blinds, guts's opener is the big blind: heads-up, PokerKit's first position after the
  draw is the big blind too, so heads-up blind games keep later-bets-from=opener, and
  three or more players use dealer-left.
- Heads-up with blinds, PokerKit makes the button the small blind and lets the big blind
  draw first; guts's small blind (dealer's left) draws first. Those two draws are compared
  as a set, not in order.
- Split pots: guts gives one odd chip each to the winners nearest the dealer's left,
  PokerKit the whole remainder to the first. A split three or more ways with two or more odd
  chips therefore differs; such a hand is told apart (Hand.odd_chip_split), its winners
  and total compared, not each stack (none came up in 81,000 random hands; one is built
  by hand below, test_a_three_way_split_with_two_odd_chips).
- Fixed limit with a short all-in raise: guts lets the next raise go to the last full
  level plus one bet ("completing" the short raise, whatever its size), PokerKit to the
  all-in amount plus one bet, and PokerKit counts the short raise toward the cap where
  guts does not. The random short-stack fixed-limit hands use one-chip bets in both
  rounds, where every all-in raise is a full one; the difference itself is pinned by a
  strict xfail below (test_fixed_limit_short_all_in_raise).
- No and pot limit, who may raise after a bet or raise all in for less than a full one.
  guts follows the TDA's rule 47 (reading "already acted" as including a check): such a
  wager does not reopen the betting for a seat that has acted, unless the bet has risen
  by a full raise since it acted (several short all-ins may add up to that). PokerKit
  reopens the betting for a seat that checked when the round's first bet is a short
  all-in, and after short all-ins that add up to a full raise it counts afresh, so a
  further short all-in closes the betting again for a seat facing more than a full raise.
  In a round that has seen a short all-in, a turn where only one engine allows a raise is
  counted (Hand.reopening), not failed, and the bot then does not raise; both cases are
  pinned by strict xfails below (test_check_then_short_all_in_bet,
  test_short_all_in_raises_adding_up). Everything else about such a turn (who acts, fold,
  check, the call) is still compared.
- PokerKit asks a player to check when everyone else in the hand is all in (or folded)
  and nothing was bet; guts skips that turn, as there is nothing to decide. Such a check
  is made in PokerKit alone (Hand.idle_checks), only where it is PokerKit's sole choice.
- Openers (Jacks or Better and its variations), jokers, wild cards, declarations, lowball
  (Jacks Back), Diablo, the 32-card pack, Bosnian draws and All for One: PokerKit has none
  of these. Seven Card Draw's second-round minimum of twice the last bet is not modelled by
  PokerKit either. Nor are spread limit, check-raise=no and cap-heads-up=no (PokerKit
  always allows a check-raise and caps heads-up too). Only variants without them are
  played.

PokerKit runs in cash-game mode: guts lets a player fold when checking is free, which
PokerKit allows there with a warning (filtered out here).
"""

from __future__ import annotations

import random
import warnings
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache

import pokerkit as pk
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guts.betting import Legal, Limit
from guts.cards import DeckKind, deck_cards
from guts.games.decision import Decision, Discard, Wager
from guts.games.draw import BetsFrom, DrawRules, DrawSession, Phase, preset

# -- the variants ------------------------------------------------------------------------------

_ANTE = replace(preset("five-card-draw"), later_bets_from=BetsFrom.DEALER_LEFT)
_BLINDS = preset("draw-with-blinds")


@dataclass(frozen=True)
class Variant:
    """A game both engines play alike, and the stacks its hands start with."""

    name: str
    rules: DrawRules
    low: int = 100
    """The least starting stack (each stack is drawn from ``low`` to ``high``)."""
    high: int = 100

    def rules_for(self, players: int) -> DrawRules:
        """The rules for ``players``: blind games heads-up start the later rounds with the
        opener (the big blind), as PokerKit does (see the module's docstring)."""
        if self.rules.blind and players == 2:
            return replace(self.rules, later_bets_from=BetsFrom.OPENER)
        return self.rules


VARIANTS = (
    Variant("fixed", _ANTE),
    Variant("fixed-two-draws", replace(_ANTE, draws=2)),
    Variant("fixed-blinds", replace(_BLINDS, later_bets_from=BetsFrom.DEALER_LEFT)),
    Variant("fixed-short", replace(_ANTE, big_bet=1), low=2, high=14),
    Variant("no-limit", replace(_ANTE, limit=Limit.NO_LIMIT, raise_cap=None), 20, 200),
    Variant("no-limit-short", replace(_ANTE, limit=Limit.NO_LIMIT, raise_cap=None), 2, 30),
    Variant("pot-limit", replace(_ANTE, limit=Limit.POT, raise_cap=None), 20, 200),
    Variant("pot-limit-short", replace(_ANTE, limit=Limit.POT, raise_cap=None), 2, 30),
    Variant(
        "no-limit-blinds",
        replace(
            _BLINDS, limit=Limit.NO_LIMIT, raise_cap=None, later_bets_from=BetsFrom.DEALER_LEFT
        ),
        4,
        60,
    ),
)
BY_NAME = {variant.name: variant for variant in VARIANTS}

# -- PokerKit's side ---------------------------------------------------------------------------

_AUTOMATIONS = (
    pk.Automation.ANTE_POSTING,
    pk.Automation.BET_COLLECTION,
    pk.Automation.BLIND_OR_STRADDLE_POSTING,
    pk.Automation.RUNOUT_COUNT_SELECTION,
    pk.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    pk.Automation.HAND_KILLING,
    pk.Automation.CHIPS_PUSHING,
    pk.Automation.CHIPS_PULLING,
)  # the cards are dealt by hand (the stacked deck's), nothing is burnt
_STRUCTURES = {
    Limit.FIXED: pk.BettingStructure.FIXED_LIMIT,
    Limit.POT: pk.BettingStructure.POT_LIMIT,
    Limit.NO_LIMIT: pk.BettingStructure.NO_LIMIT,
}


def pokerkit_state(rules: DrawRules, stacks: Sequence[int]) -> pk.State:
    """A PokerKit State playing ``rules`` among ``stacks`` (PokerKit's player order: the
    first position first), before any card is dealt."""
    blinds = rules.blinds()
    first_cap = later_cap = None
    if rules.limit is Limit.FIXED:
        assert rules.raise_cap is not None
        # guts: a bet and raise_cap raises, the big blind counting as the bet; PokerKit
        # counts the bets and raises made in the street, blinds not included
        later_cap = rules.raise_cap + 1
        first_cap = later_cap - (1 if blinds is not None else 0)
    else:
        assert rules.raise_cap is None
    big_bet = rules.big_bet if rules.big_bet is not None else 2 * rules.bet
    position = pk.Opening.POSITION
    streets = [
        pk.Street(False, (False,) * rules.hand_size, 0, False, position, rules.bet, first_cap),
        # one Street object per drawing round: PokerKit tells the last street by identity
        *[pk.Street(False, (), 0, True, position, big_bet, later_cap) for _ in range(rules.draws)],
    ]
    return pk.State(
        _AUTOMATIONS,
        pk.Deck.STANDARD,
        (pk.StandardHighHand,),
        tuple(streets),
        _STRUCTURES[rules.limit],
        True,  # antes count toward the side pots, as in guts
        rules.ante,
        blinds.amounts if blinds is not None else 0,
        0,
        tuple(stacks),
        len(stacks),
        mode=pk.Mode.CASH_GAME,
    )


def pokerkit_order(rules: DrawRules, seats: Sequence[int]) -> dict[int, int]:
    """Each guts seat's PokerKit player index. ``seats`` is the guts deal's order from the
    dealer's left, PokerKit's first position first; heads-up with blinds PokerKit's player
    0 posts the big blind, which in guts is the dealer, second from the dealer's left."""
    order = list(seats)
    if rules.blind and len(order) == 2:
        order.reverse()
    return {seat: index for index, seat in enumerate(order)}


# -- the bot -----------------------------------------------------------------------------------

Chooser = Callable[[Decision, bool], str]
"""Picks an action for a decision; the flag says whether it may bet or raise (False when
only guts allows it, see :func:`compare_betting`)."""


def random_bot(rng: random.Random) -> Chooser:
    """A chooser picking among guts's legal actions: fold (rarely when checking is free),
    check or call, bet or raise (the least, the most or a size between)."""

    def choose(decision: Decision, may_raise: bool) -> str:
        options = decision.options
        if isinstance(options, Discard):
            count = rng.choice(options.counts)
            return options.text(tuple(sorted(rng.sample(options.hand, count),
                                             key=options.hand.index)))  # fmt: skip
        assert isinstance(options, Wager)
        legal = options.legal
        moves = ["fold", "stay", "stay"] if legal.can_call else ["stay", "stay", "stay"]
        if legal.can_check and rng.random() < 0.1:
            moves.append("fold")
        if may_raise and (legal.can_bet or legal.can_raise):
            moves += ["more", "more"]
        move = rng.choice(moves)
        if move == "fold":
            return "fold"
        if move == "stay":
            return "check" if legal.can_check else "call"
        low, high = bet_range(legal)
        amount = rng.choice((low, high, rng.randint(low, high)))
        return f"{'bet' if legal.can_bet else 'raise'} {amount}"

    return choose


def bet_range(legal: Legal) -> tuple[int, int]:
    """The least and most a bet or raise may make the seat's bet in the round."""
    if legal.can_bet:
        assert legal.min_bet is not None and legal.max_bet is not None
        return legal.min_bet, legal.max_bet
    assert legal.min_raise_to is not None and legal.max_raise_to is not None
    return legal.min_raise_to, legal.max_raise_to


def scripted(actions: Sequence[str]) -> Chooser:
    """A chooser taking ``actions`` in turn (for hands built by hand)."""
    queue = list(actions)

    def choose(decision: Decision, may_raise: bool) -> str:
        del decision, may_raise
        return queue.pop(0)

    return choose


# -- one hand in both engines ------------------------------------------------------------------


class Disagreement(AssertionError):
    """The engines disagree; the message tells the hand and the actions so far."""


@dataclass
class Hand:
    """One hand played in both engines (what the test reports and checks)."""

    description: str
    log: list[str] = field(default_factory=list)
    result: str = ""
    odd_chip_split: bool = False
    pots: int = 0
    """The pots PokerKit paid out (main and side pots; 0 for a thrown-in hand)."""
    idle_checks: int = 0
    """Checks PokerKit asked for where guts asks nothing (see :func:`idle_checks`)."""
    reopening: Counter[str] = field(default_factory=Counter)
    """Turns where only one engine lets the seat raise after a short all-in (by which)."""
    guts_stacks: dict[int, int] = field(default_factory=dict)
    pokerkit_stacks: dict[int, int] = field(default_factory=dict)

    def fail(self, what: str) -> Disagreement:
        return Disagreement(f"{what}\n  hand: {self.description}\n  actions: "
                            + "; ".join(self.log))  # fmt: skip


@dataclass
class Round:
    """What a betting round has seen, to tell the known reopening difference: the size of
    a full raise so far, and whether a bet or raise went all in for less."""

    full: int
    short_all_in: bool = False


def compare_betting(
    hand: Hand, legal: Legal, state: pk.State, player: int, betting: Round, tolerant: bool
) -> bool:
    """Both engines agree on the seat to act and on what it may do; return whether it may
    bet or raise in both.

    After a bet or raise all in for less than a full one (``betting.short_all_in``), the
    engines reopen the betting differently (see the module's docstring): when ``tolerant``
    that difference alone is counted in ``hand.reopening``, not raised."""
    if state.actor_index != player:
        raise hand.fail(f"to act: guts player {player}, PokerKit {state.actor_index}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "there is no reason for this player to fold"
        can_fold = state.can_fold()
    call = state.checking_or_calling_amount
    theirs: tuple[object, ...] = (can_fold, call == 0, call)
    ours: tuple[object, ...] = (legal.can_fold, legal.can_check, legal.call_amount)
    same = ours == theirs
    can_raise = state.can_complete_bet_or_raise_to()
    ours += (legal.can_bet or legal.can_raise,)
    theirs += (can_raise,)
    if can_raise:
        theirs += (state.min_completion_betting_or_raising_to_amount,
                   state.max_completion_betting_or_raising_to_amount)  # fmt: skip
    if legal.can_bet or legal.can_raise:
        ours += bet_range(legal)
    if ours == theirs:
        return can_raise
    if same and tolerant and betting.short_all_in and ours[3] != theirs[3]:
        hand.reopening["guts" if ours[3] else "pokerkit"] += 1
        hand.log.append(f"(only {'guts' if ours[3] else 'PokerKit'} lets player {player} raise)")
        return False
    raise hand.fail(f"legal for player {player}: guts {legal} (fold, check, call, raise, "
                    f"from, to = {ours}), PokerKit {theirs}")  # fmt: skip


def idle_checks(hand: Hand, state: pk.State, player: int | None) -> None:
    """PokerKit asks a player whose opponents are all folded or all in to check even when
    nobody bet: guts skips that turn (there is nothing to decide). Check for it in
    PokerKit, unless ``player`` is the one guts asks to act (None: guts asks no bettor)."""
    while state.actor_index is not None and state.actor_index != player:
        if state.checking_or_calling_amount or state.can_complete_bet_or_raise_to():
            return  # a real decision guts does not ask for: compare_betting reports it
        hand.log.append(f"(PokerKit: player {state.actor_index} checks, nothing to decide)")
        hand.idle_checks += 1
        state.check_or_call()


def apply_betting(state: pk.State, action: str, betting: Round) -> None:
    """Take guts's betting ``action`` (canonical spelling) in PokerKit, noting in
    ``betting`` a full raise's size or a short all-in."""
    word, _, amount = action.partition(" ")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if word == "fold":
            state.fold()
        elif word in ("check", "call"):
            state.check_or_call()
        else:
            player, before = state.actor_index, max(state.bets)
            assert player is not None
            state.complete_bet_or_raise_to(int(amount))
            raised = int(amount) - before
            if raised >= betting.full:
                betting.full = raised
            elif not state.stacks[player]:
                betting.short_all_in = True


def play_hand(
    rules: DrawRules,
    stacks: Sequence[int],
    *,
    button: int,
    deck: Sequence[str],
    choose: Chooser,
    description: str = "",
    tolerant: bool = True,
) -> Hand:
    """Play one hand of ``rules`` in both engines from the stacked ``deck`` (card codes:
    the seats' hands in seat order, then the stock), each action chosen by ``choose``
    among guts's legal ones; raise a Disagreement where they differ (``tolerant``: but
    for the known reopening difference, see :func:`compare_betting`)."""
    players = len(stacks)
    hand = Hand(description or f"{players} players, stacks {list(stacks)}, button {button}")
    session = DrawSession(rules, [(f"P{seat}", chips) for seat, chips in enumerate(stacks)],
                          button=button, rng=random.Random(0))  # fmt: skip
    size = rules.hand_size
    hands = {seat: deck[size * seat : size * (seat + 1)] for seat in range(players)}
    session.start_deal(session.stacked(hands, deck[size * players :]))
    deal = session.deal
    assert deal is not None
    index = pokerkit_order(rules, deal.seats)
    ordered = sorted(range(players), key=index.__getitem__)
    state = pokerkit_state(rules, [stacks[seat] for seat in ordered])
    for seat in ordered:
        state.deal_hole("".join(hands[seat]), index[seat])
    hand.log.append("dealt " + ", ".join(f"P{s}: {' '.join(hands[s])}" for s in deal.seats))
    big_bet = rules.big_bet if rules.big_bet is not None else 2 * rules.bet
    betting, rounds = Round(rules.bet), 0
    while not deal.over:
        (decision,) = session.pending()
        if deal.rounds != rounds:
            betting, rounds = Round(big_bet), deal.rounds
        in_betting = deal.phase is Phase.BETTING
        idle_checks(hand, state, index[decision.seat] if in_betting else None)
        if deal.phase is Phase.DRAWING:
            draw_round(hand, session, state, index, choose)
            continue
        options = decision.options
        assert isinstance(options, Wager), f"unexpected decision {decision}"
        may_raise = compare_betting(hand, options.legal, state, index[decision.seat],
                                    betting, tolerant)  # fmt: skip
        action = options.canonical(choose(decision, may_raise))
        hand.log.append(f"P{decision.seat} {action}")
        session.act(decision.seat, action)
        apply_betting(state, action, betting)
    idle_checks(hand, state, None)
    hand.result = deal.result
    if deal.result == "thrown-in":
        if state.stand_patter_or_discarder_index is None:
            raise hand.fail("guts threw the cards in, PokerKit is not at its draw")
        return hand
    if state.status:
        raise hand.fail(f"guts's hand is over ({deal.result}), PokerKit's is not")
    hand.guts_stacks = {seat: session.table.stack(seat) for seat in range(players)}
    hand.pokerkit_stacks = {seat: state.stacks[index[seat]] for seat in range(players)}
    pushes = [op for op in state.operations if isinstance(op, pk.ChipsPushing)]
    hand.pots = 1 + max(op.pot_index for op in pushes) if pushes else 0
    hand.odd_chip_split = any(
        isinstance(op, pk.ChipsPushing)
        and sum(1 for a in op.amounts if a) >= 3
        and sum(op.amounts) % sum(1 for a in op.amounts if a) >= 2
        for op in state.operations
    )
    if hand.odd_chip_split:  # only the odd chips may differ (see the module's docstring)
        winners = {seat for seat, chips in deal.won.items() if chips}
        theirs = {s for s in range(players) if any(op.amounts[index[s]] for op in pushes)}
        same = winners == theirs and sum(hand.guts_stacks.values()) == sum(stacks)
        if not same or sum(hand.pokerkit_stacks.values()) != sum(stacks):
            raise hand.fail(f"a split pot: {hand.guts_stacks} in guts, "
                            f"{hand.pokerkit_stacks} in PokerKit")  # fmt: skip
    elif hand.guts_stacks != hand.pokerkit_stacks:
        raise hand.fail(f"final stacks: guts {hand.guts_stacks}, PokerKit "
                        f"{hand.pokerkit_stacks}")  # fmt: skip
    return hand


def draw_round(
    hand: Hand,
    session: DrawSession,
    state: pk.State,
    index: dict[int, int],
    choose: Chooser,
) -> None:
    """One drawing round: every guts drawer draws, then PokerKit's players discard the
    same cards, in its order, and are dealt the cards guts dealt them."""
    deal = session.deal
    assert deal is not None
    done = deal.draws_done
    drawn: dict[int, tuple[tuple[str, ...], tuple[str, ...]]] = {}  # seat -> kept, thrown
    while deal.draws_done == done and deal.phase is Phase.DRAWING:
        (decision,) = session.pending()
        options = decision.options
        assert isinstance(options, Discard)
        action = options.canonical(choose(decision, False))
        thrown = options.cards(action)
        kept = tuple(code for code in options.hand if code not in thrown)
        drawn[decision.seat] = kept, thrown
        hand.log.append(f"P{decision.seat} {action}")
        session.act(decision.seat, action)
    guts_order = [index[seat] for seat in drawn]
    theirs: list[int] = []
    by_player = {index[seat]: seat for seat in drawn}
    while state.stand_patter_or_discarder_index is not None:
        player = state.stand_patter_or_discarder_index
        theirs.append(player)
        if player not in by_player:
            raise hand.fail(f"PokerKit's player {player} draws, guts's drawers {guts_order}")
        state.stand_pat_or_discard("".join(drawn[by_player[player]][1]))
    if heads_up_blinds(session):  # the two engines draw in opposite orders
        theirs.sort(key=guts_order.index)
    if theirs != guts_order:
        raise hand.fail(f"drawers: guts {guts_order}, PokerKit {theirs}")
    for seat, (kept, thrown) in drawn.items():
        new = [card.ascii for card in deal.hands[seat] if card.ascii not in kept]
        assert len(new) == len(thrown)
        if new:
            hand.log.append(f"P{seat} draws {' '.join(new)}")
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # a reshuffled discard "not recommended"
                state.deal_hole("".join(new), index[seat])


def heads_up_blinds(session: DrawSession) -> bool:
    """Whether the two engines draw in opposite orders (heads-up with blinds)."""
    deal = session.deal
    return deal is not None and bool(session.rules.blind) and len(deal.seats) == 2


# -- random hands ------------------------------------------------------------------------------

_PACK = tuple(card.ascii for card in deck_cards(DeckKind.STANDARD))


def random_hand(variant: Variant, seed: int) -> Hand:
    """A hand of ``variant`` from ``seed``: 2-6 players, stacks, button, deck and bot."""
    rng = random.Random(f"{variant.name}:{seed}")
    players = rng.randint(2, 6)
    stacks = [rng.randint(variant.low, variant.high) for _ in range(players)]
    button = rng.randrange(players)
    deck = list(_PACK)
    rng.shuffle(deck)
    description = (f"variant {variant.name}, seed {seed}: {players} players, stacks {stacks}, "
                   f"button {button}")  # fmt: skip
    return play_hand(variant.rules_for(players), stacks, button=button, deck=deck,
                     choose=random_bot(rng), description=description)  # fmt: skip


HANDS_PER_VARIANT = 120


@cache
def seeded_hands(name: str) -> tuple[Hand, ...]:
    """The default seeds' hands of variant ``name`` (played once, read by two tests)."""
    return tuple(random_hand(BY_NAME[name], seed) for seed in range(HANDS_PER_VARIANT))


@pytest.mark.parametrize("variant", VARIANTS, ids=[v.name for v in VARIANTS])
def test_seeded_hands_agree(variant: Variant) -> None:
    """HANDS_PER_VARIANT seeded hands of each variant: the same legal actions at every
    step and the same final stacks; most hands are compared to the end, and the known
    reopening difference (see the module's docstring) is rare."""
    hands = seeded_hands(variant.name)
    compared = [hand for hand in hands if hand.result != "thrown-in"]
    assert len(compared) >= HANDS_PER_VARIANT * 3 // 4
    if variant.rules.blind:
        assert len(compared) == len(hands)  # the big blind opens: never thrown in
    assert all(hand.result == "won" for hand in compared)
    assert sum(bool(hand.reopening) for hand in hands) <= HANDS_PER_VARIANT // 20


def test_short_stacks_go_all_in_with_side_pots() -> None:
    """The short-stack variants do reach all-ins and side pots (not only deep play), and
    the pots are the same in both engines (their stacks are compared hand by hand)."""
    for name in ("fixed-short", "no-limit-short", "pot-limit-short", "no-limit-blinds"):
        hands = seeded_hands(name)
        busted = sum(1 for hand in hands if 0 in hand.guts_stacks.values())
        side_pots = sum(1 for hand in hands if hand.pots >= 2)
        assert busted >= HANDS_PER_VARIANT // 5, name
        assert side_pots >= HANDS_PER_VARIANT // 20, name


@settings(max_examples=40, deadline=None)
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(HANDS_PER_VARIANT, 2**32 - 1))
def test_any_seed_agrees(variant: Variant, seed: int) -> None:
    """Any seed of any variant (hypothesis picks them; a failure names the seed)."""
    random_hand(variant, seed)


# -- hands built by hand -----------------------------------------------------------------------


def pack(*hands: str) -> list[str]:
    """A deck dealing ``hands`` to seats 0, 1 ... and then the rest of the pack in order."""
    dealt = " ".join(hands).split()
    return dealt + [code for code in _PACK if code not in dealt]


_DECK = pack("As Ad Ac 7h 2d", "Ks Kd Kc 8h 3d", "Qs Qd Qc 9h 4d")


def test_a_three_way_side_pot_by_hand() -> None:
    """Three players all in for different amounts under no limit: the main pot and two
    side pots are paid alike (the best hand has the smallest stack)."""
    rules = BY_NAME["no-limit"].rules
    moves = ["bet 9", "raise 29", "call", *["stand pat"] * 3]
    hand = play_hand(rules, [10, 30, 60], button=2, deck=_DECK, choose=scripted(moves))
    assert hand.guts_stacks == {0: 30, 1: 40, 2: 30}


@pytest.mark.xfail(strict=True, raises=Disagreement,
                   reason="fixed limit after a short all-in raise: guts raises to the last "
                          "full level plus a bet, PokerKit to the all-in plus a bet")  # fmt: skip
def test_fixed_limit_short_all_in_raise() -> None:
    """Round two (bets of 2): seat 0 bets 2, seat 1 goes all in for 3 (a short raise of
    half a bet), seat 2 may raise to 4 in guts (completing the raise) but to 5 in PokerKit."""
    play_hand(_ANTE, [50, 5, 50], button=2, deck=_DECK, tolerant=False,
              choose=scripted(["bet 1", "call", "call", *["stand pat"] * 3,
                               "bet 2", "raise 3", "raise 4", "call"]))  # fmt: skip


_NO_LIMIT = BY_NAME["no-limit"].rules


@pytest.mark.xfail(strict=True, raises=Disagreement,
                   reason="no limit: a seat that checked, facing an all-in bet below the "
                          "minimum, may only call in guts, may raise in PokerKit")  # fmt: skip
def test_check_then_short_all_in_bet() -> None:
    """Round two (minimum bet 2): seats 0 and 1 check, seat 2 bets its last chip. guts
    counts the check as having acted, so the short bet does not reopen the betting for
    seat 0; PokerKit lets it raise (the bet is the round's first wager)."""
    play_hand(_NO_LIMIT, [50, 50, 3], button=2, deck=_DECK, tolerant=False,
              choose=scripted(["bet 1", "call", "call", *["stand pat"] * 3,
                               "check", "check", "bet 1", "call", "call"]))  # fmt: skip


@pytest.mark.xfail(strict=True, raises=Disagreement,
                   reason="no limit: three short all-in raises add up to more than a full "
                          "raise over seat 0's bet; guts reopens the betting for seat 0, "
                          "PokerKit does not (its running sum restarts after two)")  # fmt: skip
def test_short_all_in_raises_adding_up() -> None:
    """Seat 0 bets 2; seats 1, 2 and 3 go all in to 3, 4 and 5 (short raises of 1 each),
    seat 4 calls. Seat 0 faces 3 more than its bet, more than a full raise (2): guts lets
    it raise; PokerKit does not."""
    play_hand(_NO_LIMIT, [100, 4, 5, 6, 100], button=4, deck=_DECK, tolerant=False,
              choose=scripted(["bet 2", "raise 3", "raise 4", "raise 5", "call", "call",
                               *["stand pat"] * 5, "check", "check"]))  # fmt: skip


def test_a_three_way_split_with_two_odd_chips() -> None:
    """Three aces-high straights split 14 chips (a folder's 2 are in the pot): guts gives
    one odd chip each to the two winners nearest the dealer's left (5, 5, 4), PokerKit
    both to the first (6, 4, 4); the hand is told apart and its winners compared."""
    deck = pack("Ts Jh Qd Kc As", "Th Jd Qc Ks Ah", "Td Jc Qs Kh Ad", "2c 3d 4h 7s 8c")
    moves = ["bet 1", "call", "call", "call", *["stand pat"] * 4, "bet 2", "call", "call", "fold"]
    hand = play_hand(_ANTE, [20, 20, 20, 20], button=3, deck=deck, choose=scripted(moves))
    assert hand.odd_chip_split
    assert hand.guts_stacks == {0: 21, 1: 21, 2: 20, 3: 18}
    assert hand.pokerkit_stacks == {0: 22, 1: 20, 2: 20, 3: 18}
