"""Paying out a Guts deal: the lone player, everyone out, the showdown, the pot limit.

Each function moves chips on the deal's table (every movement a ledger transfer) and
emits an :class:`~guts.games.guts.events.Outcome` saying what happened in words.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Protocol

from guts.cards import Card, Deck
from guts.games.base import Event
from guts.games.guts.events import DECK, GHOST, Outcome
from guts.games.guts.rules import EveryoneOut, Ghost, GutsRules, Payment, Qualifier
from guts.games.guts.showdown import Contest, contest, hi_lo_contests, payers
from guts.grammar import agree, each, who
from guts.rankings.base import Category, Ranking
from guts.table import POT, Place, Reason, Table, capped

__all__ = [
    "ASIDE",
    "SettledDeal",
    "contest_outcome",
    "contest_result",
    "everyone_out",
    "hi_lo_result",
    "lone_against_deck",
    "lone_in",
    "lone_outcome",
    "normalize_pot",
]

ASIDE = Place("aside")
"""Where chips over the pot cap wait to become the next pot."""

_KEPT = 1 << 12
"""How many outcomes of each kind are kept: the same few (Ann takes the pot (4); Bob pays
4 into the pot) come again and again, so each is worded and made once."""


class SettledDeal(Protocol):
    """What settling needs of a deal (a :class:`~guts.games.guts.deal.GutsDeal` is one):
    who was dealt in, dropped, declared which way and was shown, the table, the deck
    (for a lone player against the deck), and the event record."""

    rules: GutsRules
    table: Table
    emit: Callable[[Event], None]
    deck: Deck
    seats: tuple[int, ...]
    dropped: set[int]
    matched: set[int]
    shown: dict[int, tuple[Card, ...]]
    ways: dict[int, str]
    extra_wild: tuple[int, ...]

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds."""
        ...

    def playing_cards(self, seat: int) -> tuple[Card, ...]:
        """The seat's cards plus the community cards."""
        ...

    def ranking(self, size: int) -> Ranking:
        """The ranking for hands of ``size`` cards in this deal."""
        ...

    def show(self, seat: int, cards: Sequence[Card]) -> int:
        """Show a hand face up; its strength."""
        ...

    def name(self, seat: int) -> str:
        """The seat's name (the ghost and the deck included)."""
        ...


def loser_stake(deal: SettledDeal) -> int:
    """What a loser pays: the pot, up to the maximum loss."""
    return capped(deal.table.pot, deal.rules.max_loss)


def pay_in(
    deal: SettledDeal, seats: Sequence[int], amount: int, reason: Reason, note: str = ""
) -> None:
    """Each of ``seats`` (distinct) pays ``amount`` into the pot, in turn."""
    deal.table.pay_each(seats, POT, amount, reason, note)


def award(deal: SettledDeal, winners: Sequence[int], note: str = "") -> None:
    """The pot to the winner, or shared among the winners."""
    if len(winners) == 1:
        deal.table.collect(POT, winners[0], note=note)
    elif winners:
        deal.table.split(POT, list(winners), note=note)


def lone_in(deal: SettledDeal, seat: int) -> None:
    """One player in (no ghost): takes the pot unshown, or must show a pair or better."""
    if deal.rules.lone_qualifier is Qualifier.PAIR:
        name = [deal.name(seat)]
        alone = f"{who(name)} {agree(name, 'is')} alone"
        cards = deal.playing_cards(seat)
        deal.show(seat, cards)
        if not _pair_or_better(deal.ranking(len(cards)), cards):
            stake = loser_stake(deal)
            pay_in(deal, [seat], stake, Reason.MATCH, "no pair")
            deal.matched.add(seat)
            text = f"{alone} without a pair and {agree(name, 'matches')} the pot ({stake})"
            deal.emit(Outcome(text=text, payers=(seat,)))
            return
    pot = deal.table.pot
    award(deal, [seat])
    deal.emit(lone_outcome(deal, seat, pot))


def lone_outcome(deal: SettledDeal, seat: int, pot: int) -> Outcome:
    """The outcome of ``seat`` alone in taking ``pot`` ("Ann is alone in and takes the pot
    (4)"), made once per names, seat and pot."""
    return _lone_outcome(deal.table.names, seat, pot)


@lru_cache(maxsize=_KEPT)
def _lone_outcome(players: tuple[str, ...], seat: int, pot: int) -> Outcome:
    name = [players[seat]]
    text = f"{who(name)} {agree(name, 'is')} alone in and {agree(name, 'takes')} the pot ({pot})"
    return Outcome(text=text, winners=(seat,))


def lone_against_deck(deal: SettledDeal, seat: int) -> None:
    """A lone player's cards against as many cards off the stock (ghost=deck)."""
    cards = deal.hand(seat)
    mine = deal.show(seat, cards)
    theirs = deal.show(DECK, deal.deck.deal(len(cards)))
    result = contest({seat: mine}, theirs, deal.rules.ghost_ties)
    contest_result(deal, result, {seat: mine}, [seat])


def everyone_out(deal: SettledDeal) -> None:
    """Nobody stayed in: the pot stays, with the everyone-out rule applied."""
    rules = deal.rules
    rule = rules.everyone_out
    text = "Everyone is out: the pot stays"
    if rule is EveryoneOut.CHICKEN_FEE:
        deal.table.pay_each(deal.seats, POT, rules.ante, Reason.ANTE, "chicken fee")
        text += " and everyone pays the chicken fee"
    elif rule is not EveryoneOut.POT_STAYS:
        strengths = {s: deal.show(s, deal.playing_cards(s)) for s in deal.seats}
        best = max(strengths.values())
        top = [s for s in deal.seats if strengths[s] == best]
        if rule is EveryoneOut.WIMP:
            pay_in(deal, top, rules.ante * len(deal.seats), Reason.ANTE, "wimp rule")
            hands = "best hand" if len(top) == 1 else "best hands"
            text += f"; {who(names(deal, top), start=False)} ({hands}) "
            text += f"{agree(names(deal, top), 'antes')} for everyone"
        else:
            wild = (
                [s for s in deal.seats if s not in top and holds_wild(deal, s)]
                if rule is EveryoneOut.BEST_AND_WILDS_MATCH
                else []
            )
            stake = loser_stake(deal)
            pay_in(deal, top + wild, stake, Reason.MATCH, rule.value)
            deal.matched.update(top + wild)
            text += f"; {says(deal, top + wild, 'matches', start=False)} the pot ({stake})"
        deal.emit(Outcome(text=text + ".", payers=tuple(top)))
        return
    deal.emit(Outcome(text=text + "."))


def holds_wild(deal: SettledDeal, seat: int) -> bool:
    """True if ``seat`` holds a wild card."""
    wilds = deal.rules.wilds(deal.extra_wild)
    return any(wilds.is_wild(card) for card in deal.hand(seat))


def contest_result(
    deal: SettledDeal, result: Contest, strengths: dict[int, int], ins: list[int]
) -> None:
    """Pay out a high-only showdown (or the lone player against the deck)."""
    rules = deal.rules
    stake = loser_stake(deal)
    pot = deal.table.pot
    takes = bool(result.winners) and not (rules.nobody_wins_contested and len(ins) > 1)
    paying = payers(result.losers, strengths, rules.payment)
    amount = stake
    if rules.payment is Payment.WORST_DOUBLES:
        amount = capped(2 * deal.table.pot, rules.max_loss)
    if takes:
        award(deal, result.winners)
    reason = Reason.DOUBLE if rules.payment is Payment.WORST_DOUBLES else Reason.MATCH
    pay_in(deal, paying, amount, reason)
    deal.matched.update(paying)
    if takes and rules.winner_takes_all and deal.table.pot:
        award(deal, result.winners, "winner takes all")
    if len(ins) > 1 or result.losers or result.pushed or result.ghost_won:
        dropouts_ante(deal)  # a lone player who beats the ghost or the deck ends the game
    deal.emit(contest_outcome(deal, result, takes, pot, paying, amount))


def contest_outcome(
    deal: SettledDeal, result: Contest, takes: bool, pot: int, paying: tuple[int, ...], amount: int
) -> Outcome:
    """The outcome of a contest (its words by :func:`contest_words`), made once per
    everything the words and fields come from."""
    shown = deal.shown
    rival = deal.name(GHOST) if GHOST in shown else deal.name(DECK) if DECK in shown else ""
    return _contest_outcome(deal.table.names, rival, result, takes, pot, paying, amount)


@lru_cache(maxsize=_KEPT)
def _contest_outcome(
    players: tuple[str, ...],
    rival: str,
    result: Contest,
    takes: bool,
    pot: int,
    paying: tuple[int, ...],
    amount: int,
) -> Outcome:
    return Outcome(
        text=contest_words(Players(players), rival, result, takes, pot, paying, amount),
        winners=result.winners if takes else (),
        payers=paying,
    )


def contest_words(
    named: Named,
    rival: str,
    result: Contest,
    takes: bool,
    pot: int,
    paying: Sequence[int],
    amount: int,
) -> str:
    """The outcome of a contest in words ("Cat beats the ghost and takes the pot (8)"), the
    players named by ``named`` and their ``rival`` (the ghost, the deck, or "")."""
    parts = []
    if result.ghost_won:
        parts.append(f"{rival or 'the ghost'} wins")
    elif takes:
        winners = names(named, result.winners)
        beat = f"{agree(winners, 'beats')} {rival} and " if rival else ""
        verb = agree(winners, "takes") if len(winners) == 1 else "share"
        parts.append(f"{who(winners)} {beat}{verb} the pot ({pot})")
    elif result.winners:
        parts.append(f"{says(named, result.winners, 'wins')} but nobody takes the pot")
    if result.pushed:
        pushed = says(named, result.pushed, "ties", start=not parts)
        parts.append(f"{pushed} {rival or 'the ghost'}")
    if paying:
        paid = f"{amount}{each(paying)} into the pot"
        parts.append(f"{says(named, paying, 'pays', start=not parts)} {paid}")
    text = "; ".join(parts)
    return text[:1].upper() + text[1:] + "."


class Named(Protocol):
    """Whatever names seats (a deal, or the players' names alone)."""

    def name(self, seat: int) -> str:
        """The seat's name."""
        ...


class Players:
    """The players' names by seat, as a :class:`Named`."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names

    def name(self, seat: int) -> str:
        """The player's name at ``seat``."""
        return self.names[seat]


def names(named: Named, seats: Sequence[int]) -> list[str]:
    """The names of ``seats`` (the ghost's and the deck's too, when a deal names them)."""
    return [named.name(seat) for seat in seats]


def says(named: Named, seats: Sequence[int], verb: str, *, start: bool = True) -> str:
    """``seats`` by name and ``verb`` agreeing with them: "Ann pays", "You and Bob pay"."""
    subject = names(named, seats)
    return f"{who(subject, start=start)} {agree(subject, verb)}"


def hi_lo_result(deal: SettledDeal, strengths: dict[int, int], ghost: int | None) -> None:
    """Pay out a Hi-Lo showdown: a half each way, losers match the pot once."""
    rules = deal.rules
    result = hi_lo_contests(
        deal.ways, strengths, ghost, rules.ghost is Ghost.LONE, rules.ghost_ties
    )
    stake, pot = loser_stake(deal), deal.table.pot
    halves = [c for c in (result.high, result.low) if c is not None]
    shares = [pot - pot // 2, pot // 2] if len(halves) == 2 else [pot] * len(halves)
    winners: list[int] = []
    texts: list[str] = []
    for label, half, share in zip(("high", "low"), halves, shares, strict=False):
        if half.winners and share:
            deal.table.split(POT, list(half.winners), amount=share, note=label)
            winners += [s for s in half.winners if s not in winners]
            texts.append(f"{says(deal, half.winners, 'wins', start=not texts)} {label} ({share})")
    losers = list(result.failed)
    for half in halves:
        losers += [s for s in half.losers if s not in losers and s not in winners]
    pay_in(deal, losers, stake, Reason.MATCH)
    deal.matched.update(losers)
    dropouts_ante(deal)
    if losers:
        paid = f"{stake}{each(losers)} into the pot"
        texts.append(f"{says(deal, losers, 'pays', start=not texts)} {paid}")
    deal.emit(
        Outcome(
            text=("; ".join(texts) or "Nobody wins") + ".",
            winners=tuple(winners),
            payers=tuple(losers),
        )
    )


def dropouts_ante(deal: SettledDeal) -> None:
    """dropouts-ante: the players who dropped out pay a new ante."""
    if deal.rules.dropouts_ante:
        out = [s for s in deal.seats if s in deal.dropped]
        deal.table.pay_each(out, POT, deal.rules.ante, Reason.ANTE, "dropped out")


def normalize_pot(deal: SettledDeal) -> None:
    """After the payments: the pot limit (reserve) or the pot cap (aside)."""
    rules, table = deal.rules, deal.table
    if rules.pot_limit is not None:
        if table.pot > rules.pot_limit:
            table.apply_pot_limit(rules.pot_limit)
        else:
            table.refill_pot_from_reserve(rules.pot_limit)
    if rules.pot_cap is not None:
        cap = rules.pot_cap * rules.ante
        if table.pot > cap:
            table.apply_pot_limit(cap, reserve=ASIDE)
        elif table.pot == 0 and table.chips_in(ASIDE):
            table.refill_pot_from_reserve(cap, reserve=ASIDE)


def _pair_or_better(ranking: Ranking, cards: Sequence[Card]) -> bool:
    order = ranking.categories()
    category = ranking.category(cards)
    return Category.PAIR in order and order.index(category) <= order.index(Category.PAIR)
