"""Four-Two-Two's dropouts-ante after a showdown that all who stayed in tie.

Section of the Guts rule text held here: the numbered variants of Four-Two-Two and
Four-Two-Three (those who dropped pay a fresh ante), with Four-Two-Two's own end (the game
is over once one player stays in alone).
"""

from __future__ import annotations

from guts_helpers import declare_all, session, shown, start

from guts.games.guts.presets import preset


def test_dropouts_ante_after_a_showdown_that_all_who_stayed_in_tie() -> None:
    # "Players who dropped out must pay a new ante while losers who stayed in match the
    # pot": A and B stay in with the same hand (K-K-Q-8-7), share the 3-chip pot, and C,
    # who dropped out, antes anew, so the game goes on for that ante.
    s = session(preset("four-two-two", {"dropouts-ante": "yes"}), 3)
    start(s, ["Ks Kd 7c 8h", "Kh Kc 7d 8s", "4s 5s 6d 9d"], then="Qs Qh 3h 3d")
    declare_all(s, ["in", "in", "out"])
    assert shown(s) == [0, 1]  # a showdown
    assert s.table.stack(0) + s.table.stack(1) == 99 + 99 + 3  # they share the pot
    assert s.table.stack(2) == 99 - 1 and s.table.pot == 1
    assert not s.is_over


def test_a_lone_player_who_beats_the_deck_still_ends_the_game() -> None:
    s = session(preset("four-two-two", {"dropouts-ante": "yes", "ghost": "deck"}), 3)
    start(s, ["As Ad Ah 5h", "Ks Kd 3h 4c", "7s 8d 9c 3c"], then="Qs Qd Jc 6d")
    declare_all(s, ["in", "out", "out"])
    assert s.is_over and s.table.stack(0) == 102 and s.table.pot == 0
