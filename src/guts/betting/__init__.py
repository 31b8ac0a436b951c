"""Betting in rounds for any game that bets: structures, forced bets, rounds and pots.

A game posts antes with :func:`post_antes`, runs each :class:`BettingRound` by asking
:meth:`~BettingRound.pending` and applying :meth:`~BettingRound.act`, then builds the pots
from :attr:`BettingRound.totals` with :func:`side_pots` and pays them with
:func:`award_pots`.
"""

from guts.betting.actions import Action, Bet, Call, Check, Fold, Legal, Raise, action_from_dict
from guts.betting.pots import Pot, award_pots, side_pots
from guts.betting.round import BETS, BettingRound, clockwise_from, post_antes
from guts.betting.structure import Blinds, Limit, Stakes, Structure

__all__ = [
    "BETS",
    "Action",
    "Bet",
    "BettingRound",
    "Blinds",
    "Call",
    "Check",
    "Fold",
    "Legal",
    "Limit",
    "Pot",
    "Raise",
    "Stakes",
    "Structure",
    "action_from_dict",
    "award_pots",
    "clockwise_from",
    "post_antes",
    "side_pots",
]
