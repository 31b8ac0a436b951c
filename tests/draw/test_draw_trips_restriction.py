"""Trips to Win: the players who folded stay out until the carried pot is won.

Section of the draw poker rule text held here: Jacks or Better with Trips to Win, its
paragraph on a pot nobody wins with three of a kind.
"""

from __future__ import annotations

from draw_helpers import play, stacked, table_session

from guts.games.draw import DrawSession, preset
from guts.games.draw.events import DealStarted

# Dealing order P1, P2, P3, P0 (P0 deals first).
FOUR = ["Js Jh 7c 5h 2s", "Ts Th Ac Kd Qs", "9c 8d 6h 4s 3c", "Ks Qd Jc 4h 6d"]
REST = "Tc Td 9s 9d 9h 8s 8c 7d 7h 7s 5c 5d 5s 4c 4d 3d 3h 3s"


def dealt_in(session: DrawSession) -> set[int]:
    """The seats dealt into the latest deal."""
    started = [e for e in session.events if isinstance(e, DealStarted)][-1]
    return set(started.seats)


def test_the_players_out_of_the_game_stay_out_through_a_thrown_in_deal() -> None:
    # "If no one has a hand as good as three of a kind after the draw, the pot remains,
    # but the players who folded before the draw are out of the game. The players who did
    # not fold ante again and there is a new deal involving just these players."
    session = table_session(preset("trips-to-win"), 4)
    session.start_deal(stacked(FOUR, REST))
    play(session, (1, "bet 1"), (2, "call"), (3, "fold"), (0, "call"))  # P3 folds
    play(session, (1, "discard 7c 5h 2s"), (2, "stand pat"), (0, "stand pat"))
    play(session, (1, "check"), (2, "check"), (0, "check"))  # no trips: the pot stays
    assert session.table.pot == 7
    session.start_deal()
    assert dealt_in(session) == {0, 1, 2}
    play(session, (2, "check"), (0, "check"), (1, "check"))  # nobody opens: thrown in
    assert session.deal is not None and session.deal.result == "thrown-in"
    assert session.table.pot == 10 and not session.is_over
    session.start_deal()  # the carried pot is still not won: P3 is still out
    assert dealt_in(session) == {0, 1, 2}
    assert session.table.pot == 13 and session.table.stack(3) == 99


def test_everyone_is_back_once_the_carried_pot_is_won() -> None:
    session = table_session(preset("trips-to-win", {"max-deals": "9"}), 4)
    session.start_deal(stacked(FOUR, REST))
    play(session, (1, "bet 1"), (2, "call"), (3, "fold"), (0, "call"))
    play(session, (1, "discard 7c 5h 2s"), (2, "stand pat"), (0, "stand pat"))
    play(session, (1, "check"), (2, "check"), (0, "check"))
    session.start_deal()
    play(session, (2, "check"), (0, "check"), (1, "check"))  # thrown in: P3 still out
    # P2 deals to P0, P1, P2: P0's three queens open and take the pot uncontested.
    session.start_deal(stacked(["Qs Qd Qh 4c 5d", "9c 8d 6h 4s 3c", "Ks Jd Jc 4h 6d"]))
    assert dealt_in(session) == {0, 1, 2}
    play(session, (0, "bet 1"), (1, "fold"), (2, "fold"))
    assert session.deal is not None and session.deal.result == "won"
    session.start_deal()
    assert dealt_in(session) == {0, 1, 2, 3}
