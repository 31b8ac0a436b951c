"""A player whose ante puts them all in: with nobody else able to bet against them the
first round has no bet, yet the hand is not thrown in (no one could open) but played out
to the showdown, so the pot is won and no chip is left on a table that cannot go on."""

from __future__ import annotations

import random

import pytest

from guts.games.draw.presets import preset
from guts.games.draw.session import DrawSession

ACES = "As Ad Ah Ac Ks"
LOW = "2c 3d 4h 5s 7c"


def play_out(session: DrawSession) -> None:
    """Everyone stands pat, checks or calls (the first action that is not a fold)."""
    while not session.is_over and not session.deal_over:
        decision = session.pending()[0]
        action = next(a for a in decision.actions if a != "fold")
        session.act(decision.seat, action)


@pytest.mark.parametrize(("short_hand", "other_hand", "winner"), [(ACES, LOW, 0), (LOW, ACES, 1)])
def test_heads_up_all_in_on_the_ante_goes_to_the_showdown(
    short_hand: str, other_hand: str, winner: int
) -> None:
    session = DrawSession(preset("five-card-draw"), [("A", 1), ("B", 50)], rng=random.Random(1))
    session.start_deal(session.stacked({0: short_hand, 1: other_hand}))
    assert session.table.stack(0) == 0  # all in on the ante
    play_out(session)
    ended = [e.to_dict() for e in session.events if e.to_dict()["kind"] == "draw-deal-ended"]
    assert ended[-1]["result"] == "won"
    assert ended[-1]["won"] == [[winner, 2]]
    assert session.table.pot == 0
    assert sum(session.table.stacks) == 51
    assert session.table.stacks == ([2, 49] if winner == 0 else [0, 51])


def test_two_players_with_chips_who_both_check_still_throw_it_in() -> None:
    session = DrawSession(preset("five-card-draw"), [("A", 1), ("B", 50), ("C", 50)],
                          rng=random.Random(1))  # fmt: skip
    session.start_deal()
    for _ in range(2):  # B and C check: they could have opened and did not
        decision = session.pending()[0]
        session.act(decision.seat, "check")
    ended = session.events[-1].to_dict()
    assert ended["kind"] == "draw-deal-ended" and ended["result"] == "thrown-in"
    assert session.table.pot == 3
