"""The recursive game that ``guts solve`` solves, read from a preset's :class:`GutsRules`.

Stakes are in units of the pot: a deal played at pot ``P`` is the deal at pot 1 scaled by
``P``, so one deal's strategy serves every deal of the session (see ``docs/solve.md``).
A deal ends in an :class:`Payoff`: what each player in it wins or pays now, and the size
of the next pot in units of this one (0 when the session ends). What the next pot is
worth to a player is ``next * v[position after the button moves]``, the continuation
value per pot unit, a fixed point of the solver.

With ``payment=single-loser`` only the worst hand in pays; :meth:`Model.payoff` then
covers one or no player in, and the solver prices two or more from the chances of the
best and the worst hands (:mod:`guts.solve.cfr`).

A pot cap or pot limit makes the stakes depend on the pot in chips: the chain of pots
(:mod:`guts.solve.chain`) solves it, each pot's deal being this model's without the cap. Maximum
loss, cards dealt after the declaration and a second declaration are out of reach:
:func:`model_of` raises a GutsError naming the rule and why (Hi-Lo has a model of its
own, :mod:`guts.solve.hilo`). The dealer's option (a
second chance to challenge a lone dealer) is solved, by :mod:`guts.solve.option`.

>>> from guts.games.guts import preset
>>> model = model_of(preset("two-card-guts"), 3)
>>> model.payoff(2, 1, "players")   # two in, one wins: the loser matches, a pot of 1 next
Payoff(top=1.0, loser=-1.0, out=0.0, next=1.0)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from guts.errors import GutsError
from guts.games.guts.rules import EveryoneOut, Ghost, GhostTie, GutsRules, Payment, Qualifier

__all__ = [
    "MOST_HI_LO_CLASSES",
    "MOST_HI_LO_PLAYERS",
    "OUTCOMES",
    "Model",
    "Payoff",
    "model_of",
    "out_of_reach",
    "pot_cap_chips",
]

OUTCOMES = ("players", "ghost", "push")
"""How the best hand in fares against the ghost: beats it (or no ghost), loses, ties and
pushes."""


@dataclass(frozen=True)
class Payoff:
    """One deal's result in pot units: each top hand's gain, each other hand in's gain,
    each player out's gain, and the next pot (0: the session is over)."""

    top: float
    loser: float
    out: float
    next: float


@dataclass(frozen=True)
class Model:
    """The one-deal game of a Guts preset for ``players`` players, stakes in pot units.

    ``ante_share``: one ante as a share of the pot, for the antes that enter during a
    session (chicken fee, ante every deal, dropouts' ante); the opening pot of one ante
    each (``1 / players``) unless given. ``dealer_option``: a dealer alone in may be
    challenged in a second round (:mod:`guts.solve.option`). ``best_pays``: when nobody
    is in, what each best hand pays into the pot (0: nobody pays; the Henry rule: the
    pot, ``best_matches``; the wimp rule: an ante for every player). ``stake``: what each
    loser who pays pays when two or more are in, in pots (``payment=worst-doubles``: the
    single worst hand pays 2).
    """

    players: int
    in_turn: bool
    auto_in: bool
    ghost: Ghost
    ghost_ties: GhostTie
    qualifier: bool
    winner_takes_all: bool
    nobody_wins_contested: bool
    chicken_fee: bool
    ante_every_deal: bool
    matcher_skips_ante: bool
    dropouts_ante: bool
    ante_share: float
    single_loser: bool = False
    no_peek: bool = False
    dealer_option: bool = False
    best_pays: float = 0.0
    best_matches: bool = False
    stake: float = 1.0

    def ghost_plays(self, ins: int) -> bool:
        """Whether the ghost (or the deck) plays against ``ins`` players in."""
        if self.ghost is Ghost.ALWAYS:
            return ins >= 1
        return self.ghost in (Ghost.LONE, Ghost.DECK) and ins == 1

    def payoff(self, ins: int, top: int, outcome: str) -> Payoff:
        """The result when ``ins`` players are in, ``top`` of them share the best hand,
        and that hand fares ``outcome`` (:data:`OUTCOMES`) against the ghost (or, for a
        lone player who must qualify: ``ghost`` when the hand does not)."""
        fee = self.ante_share
        if ins == 0:
            chicken = fee if self.chicken_fee else 0.0
            return self._antes(Payoff(0.0, 0.0, -chicken, 1.0 + self.players * chicken), 0)
        losers = ins - top
        if outcome == "ghost":
            base, paid = Payoff(-1.0, -1.0, 0.0, 1.0 + ins), ins
        elif outcome == "push" or (ins > 1 and self.nobody_wins_contested):
            base, paid = Payoff(0.0, -1.0, 0.0, 1.0 + losers), losers
        elif self.winner_takes_all or losers == 0:
            base, paid = Payoff((1.0 + losers) / top, -1.0, 0.0, 0.0), losers
        else:
            base, paid = Payoff(1.0 / top, -self.stake, 0.0, self.stake * losers), losers
        showdown = ins > 1 or self.ghost_plays(ins)
        if self.dropouts_ante and showdown and not (ins == 1 and base.next == 0):
            out = self.players - ins
            base = Payoff(base.top, base.loser, base.out - fee, base.next + out * fee)
        return self._antes(base, paid, top_paid=outcome == "ghost")

    def everyone_out(self, payers: int) -> Payoff:
        """Nobody in, and ``payers`` best hands pay ``best_pays`` each (Henry, wimp):
        ``top`` is a payer's gain, ``out`` the others', and the next pot."""
        stake = self.best_pays
        base = Payoff(-stake, 0.0, 0.0, 1.0 + payers * stake)
        paid = payers if self.best_matches else 0
        return self._antes(base, paid, top_paid=self.best_matches)

    def _antes(self, base: Payoff, paid: int, *, top_paid: bool = False) -> Payoff:
        """Ante every deal: everyone antes the next pot, but (usually) who matched."""
        if not self.ante_every_deal or base.next == 0:
            return base
        fee = self.ante_share
        skip = self.matcher_skips_ante
        anteing = self.players - (paid if skip else 0)
        return Payoff(
            base.top - (0.0 if skip and top_paid else fee),
            base.loser - (0.0 if skip else fee),
            base.out - fee,
            base.next + anteing * fee,
        )


def out_of_reach(rules: GutsRules, players: int | None = None) -> str:
    """Why ``guts solve`` cannot solve these rules, for ``players`` if given ('' if it
    can). Hi-Lo is solved by :mod:`guts.solve.hilo`."""
    if rules.hi_lo:
        return _hi_lo_out_of_reach(rules, players)
    reasons = [
        (
            rules.has_second_deal,
            "cards dealt after the declaration (draw-to-in, community, "
            "partial hands): a hand's worth changes after it is declared",
        ),
        (rules.batey, "batey: a shared face-up card makes the hands dependent"),
        (rules.low_in_wild > 0, "low-in-wild: face-up cards and wild ranks change per deal"),
        (rules.pass_left, "pass-left: passing a card is a decision before the declaration"),
        (rules.second_declare, "second-declare: a second declaration"),
        (
            rules.dealer_option and rules.no_peek,
            "dealer-option with no-peek: the second chance comes after the players looked",
        ),
        (
            rules.payment is not Payment.MATCH
            and (
                rules.ghost is not Ghost.NEVER
                or rules.winner_takes_all
                or rules.nobody_wins_contested
                or rules.dropouts_ante
            ),
            f"payment={rules.payment.value} is solved without a ghost, winner-takes-all, "
            "nobody-wins-contested or dropouts-ante",
        ),
        (
            rules.everyone_out is EveryoneOut.BEST_AND_WILDS_MATCH and bool(rules.wild),
            "everyone-out=best-and-wilds-match with wild cards: who holds a wild card is not "
            "in the hand classes",
        ),
        (
            rules.everyone_out in _BEST_PAYS and rules.payment is not Payment.MATCH,
            f"everyone-out={rules.everyone_out.value} is solved with payment=match",
        ),
        (
            (rules.pot_limit is not None or rules.pot_cap is not None) and _antes_enter(rules),
            "pot-cap and pot-limit are solved when every next pot is a whole number of pots "
            "(no chicken fee, henry, wimp, ante every deal, dropouts' ante or single loser)",
        ),
        (rules.max_loss is not None, "max-loss: stakes would depend on the pot in chips"),
        (rules.continue_after_empty, "continue-after-empty: the session never ends"),
        (rules.final_size not in (2, 3), "only two- and three-card hands are solved"),
    ]
    return next((why for bad, why in reasons if bad), "")


MOST_HI_LO_PLAYERS = 8
"""The most players Hi-Lo is solved for (``ways ** players`` leaves a deal)."""

MOST_HI_LO_CLASSES = 2000
"""The most hand classes Hi-Lo is solved for (three comparison matrices of this size
squared)."""


def _hi_lo_out_of_reach(rules: GutsRules, players: int | None) -> str:
    """Why these Hi-Lo rules cannot be solved, for ``players`` if given ('' if they can)."""
    reasons = [
        (
            players is not None and not 2 <= players <= MOST_HI_LO_PLAYERS,
            f"hi-lo is solved for 2 to {MOST_HI_LO_PLAYERS} players",
        ),
        (rules.ghost is not Ghost.NEVER, "hi-lo with a ghost: its one hand plays both ways"),
        (rules.lone_qualifier is not Qualifier.NONE, "hi-lo with a lone qualifier"),
        (rules.ante_every_deal, "hi-lo with ante-every-deal: not in the hi-lo model yet"),
        (
            rules.pot_cap is not None or rules.pot_limit is not None,
            "hi-lo with a pot cap or limit: not in the hi-lo model yet",
        ),
        (rules.no_peek, "hi-lo with no-peek: declaring unseen is not in the hi-lo model yet"),
        (
            rules.everyone_out not in (EveryoneOut.POT_STAYS, EveryoneOut.CHICKEN_FEE),
            f"hi-lo with everyone-out={rules.everyone_out.value}: only pot-stays and "
            "chicken-fee are in the hi-lo model yet",
        ),
    ]
    why = next((text for bad, text in reasons if bad), "")
    why = why or out_of_reach(replace(rules, hi_lo=False))
    if not why and rules.final_size == 3 and rules.wild:
        from guts.solve.hands import HandClasses

        count = len(HandClasses.of(rules.hand_ranking).count)
        if count > MOST_HI_LO_CLASSES:
            why = f"hi-lo with {count:,} hand classes (wild cards that tell suits apart)"
    return why


def _antes_enter(rules: GutsRules) -> bool:
    """Whether a next pot may not be a whole number of pots: antes entering during a
    session, the best hands paying when nobody is in, a single loser's pricing."""
    return (
        rules.everyone_out is not EveryoneOut.POT_STAYS
        or rules.ante_every_deal
        or rules.dropouts_ante
        or rules.payment is not Payment.MATCH
    )


def pot_cap_chips(rules: GutsRules) -> int | None:
    """The most chips the pot holds (the pot cap in chips, or the pot limit), None if
    unlimited."""
    if rules.pot_cap is not None:
        return rules.pot_cap * rules.ante
    return rules.pot_limit


def model_of(rules: GutsRules, players: int, ante_share: float | None = None) -> Model:
    """The model of one deal of ``rules`` for ``players`` players (GutsError if out of
    reach; Hi-Lo has its own model, :func:`guts.solve.hilo.hi_lo_model`; a pot cap or
    limit, the chain of pots of :mod:`guts.solve.chain`, each pot's deal this model's)."""
    why = out_of_reach(rules, players)
    if not why and rules.hi_lo:
        why = "hi-lo is solved by its own model (guts.solve.hilo), not this one"
    if not why and pot_cap_chips(rules) is not None:
        why = "pot-cap and pot-limit are solved as a chain of pots (guts.solve.chain)"
    if why:
        raise GutsError(f"guts solve cannot solve these rules: {why}")
    if not 2 <= players <= 8:
        raise GutsError(f"guts solve solves 2 to 8 players, not {players}")
    rules.check_players(players)
    share = 1.0 / players if ante_share is None else ante_share
    return Model(
        players=players,
        in_turn=rules.declare.value == "in-turn",
        auto_in=rules.auto_in,
        ghost=rules.ghost,
        ghost_ties=rules.ghost_ties,
        qualifier=rules.lone_qualifier is Qualifier.PAIR,
        winner_takes_all=rules.winner_takes_all,
        nobody_wins_contested=rules.nobody_wins_contested,
        chicken_fee=rules.everyone_out is EveryoneOut.CHICKEN_FEE,
        ante_every_deal=rules.ante_every_deal,
        matcher_skips_ante=rules.matcher_skips_ante,
        dropouts_ante=rules.dropouts_ante,
        ante_share=share,
        single_loser=rules.payment is not Payment.MATCH,
        stake=2.0 if rules.payment is Payment.WORST_DOUBLES else 1.0,
        no_peek=rules.no_peek,
        dealer_option=rules.dealer_option,
        best_pays=_best_pays(rules, players, share),
        best_matches=rules.everyone_out in (EveryoneOut.HENRY, EveryoneOut.BEST_AND_WILDS_MATCH),
    )


_BEST_PAYS = (EveryoneOut.WIMP, EveryoneOut.HENRY, EveryoneOut.BEST_AND_WILDS_MATCH)


def _best_pays(rules: GutsRules, players: int, ante_share: float) -> float:
    """What each best hand pays when nobody is in, in pot units: the pot (Henry;
    best-and-wilds-match without wild cards is the same), or an ante for every player
    (wimp: an ante as a share of the pot, as for the other antes during a session)."""
    if rules.everyone_out is EveryoneOut.WIMP:
        return players * ante_share
    return 1.0 if rules.everyone_out in _BEST_PAYS else 0.0
