"""The narration's grammar: sentences agree with their subject, "You" is the player.

Each family's seeded deal is told exactly, once to a spectator (third person) and once
to the player sitting as "You" (second person); then many seeded games of every preset,
watched and played, must never say "You pays", "Bob pay 4 each" and the like.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from random import Random
from typing import Any

import pytest
from rich.console import Console

import guts.narrate
import guts.play
from guts.catalog import find_game, games
from guts.errors import OptionError
from guts.games.base import Event
from guts.games.bourre.events import PileShuffled, Reneged
from guts.games.draw.events import Acted as DrawActed
from guts.games.draw.events import DealEnded as DrawDealEnded
from guts.games.draw.events import OpenersShown
from guts.games.draw.events import SessionEnded as DrawSessionEnded
from guts.games.guts.events import (
    Chose,
    CommunityDealt,
    DealStarted,
    Declared,
    GhostDealt,
    Looked,
    Moved,
    Passed,
    WildRanks,
)
from guts.games.staged.events import ModeChosen, StageStarted
from guts.narrate import Narrator, agree, each, narrate, second_person, who
from guts.play import PlayConfig, play, policy_for, seat_names

# -- the grammar ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("names", "verb", "expected"),
    [
        (["Ann"], "pays", "pays"),
        (["You"], "pays", "pay"),
        (["Ann", "Bob"], "pays", "pay"),
        (["You"], "is", "are"),
        (["You"], "has", "have"),
        (["Ann", "You"], "matches", "match"),
        (["You"], "passes", "pass"),
        (["You"], "ties", "tie"),
        (["You"], "antes", "ante"),
        (["the ghost"], "wins", "wins"),
        (["You"], "cannot", "cannot"),
    ],
)
def test_verbs_agree_with_their_subject(names: list[str], verb: str, expected: str) -> None:
    assert agree(names, verb) == expected


def test_names_join_with_and_and_the_player_is_you() -> None:
    assert who(["Ann"]) == "Ann"
    assert who(["Ann", "Bob"]) == "Ann and Bob"
    assert who(["You", "Ann", "Bob"]) == "You, Ann and Bob"
    assert who(["Ann", "You"]) == "Ann and you"
    assert who(["You"], start=False) == "you"
    assert each(["Ann"]) == "" and each(["Ann", "Bob"]) == " each"


def test_second_person_leaves_agreeing_lines_alone() -> None:
    assert second_person("You pay 3 to Ann") == "You pay 3 to Ann"
    assert second_person("Youssef wins trick 1") == "Youssef wins trick 1"


# -- one deal of each family, told exactly ----------------------------------------------------


def told(
    game: str, names: Sequence[str], viewer: int | None, seed: int, prefs: dict[int, list[str]]
) -> list[str]:
    """One seeded deal of ``game``, each seat taking its first preferred legal action (else
    the first legal one), told as ``viewer`` sees it (None: a spectator)."""
    session = find_game(game).new_session([(n, 100) for n in names], rng=Random(seed))
    session.start_deal()
    while not session.deal_over:
        decision = session.pending()[0]
        wanted = prefs.get(decision.seat, [])
        action = next((a for a in wanted if a in decision.actions), decision.actions[0])
        session.act(decision.seat, action)
    narrator = Narrator(session.table.names)
    return [line for e in session.visible_events(viewer) if (line := narrator.tell(e))]


STORIES = [
    (
        "two-card-guts",
        4,
        3,
        {0: ["in"], 1: ["out"], 2: ["in"]},
        [
            "— Deal 1, dealer Ann —",
            "Bob antes 1",
            "Cat antes 1",
            "Ann antes 1",
            "Bob: out",
            "Cat: in",
            "Ann: in",
            "Cat shows 7♥ 6♣: Seven-six high",
            "Ann shows J♠ A♠: Ace-jack high",
            "Ann takes the pot (3); Cat pays 3 into the pot.",
            "End of deal 1: pot 3",
        ],
        [
            "— Deal 1, your deal —",
            "Bob antes 1",
            "Cat antes 1",
            "You ante 1",
            "You are dealt J♠ A♠",
            "Bob: out",
            "Cat: in",
            "You: in",
            "Cat shows 7♥ 6♣: Seven-six high",
            "You show J♠ A♠: Ace-jack high",
            "You take the pot (3); Cat pays 3 into the pot.",
            "End of deal 1: pot 3",
        ],
    ),
    (
        "two-card-guts",
        3,
        3,
        {0: ["in"], 1: ["out"], 2: ["in"]},
        [
            "— Deal 1, dealer Ann —",
            "Bob antes 1",
            "Cat antes 1",
            "Ann antes 1",
            "Bob: out",
            "Cat: in",
            "Ann: in",
            "Cat shows 9♣ 9♦: Pair of nines",
            "Ann shows 2♠ 8♥: Eight-two high",
            "Cat takes the pot (3); Ann pays 3 into the pot.",
            "End of deal 1: pot 3",
        ],
        [
            "— Deal 1, your deal —",
            "Bob antes 1",
            "Cat antes 1",
            "You ante 1",
            "You are dealt 2♠ 8♥",
            "Bob: out",
            "Cat: in",
            "You: in",
            "Cat shows 9♣ 9♦: Pair of nines",
            "You show 2♠ 8♥: Eight-two high",
            "Cat takes the pot (3); you pay 3 into the pot.",
            "End of deal 1: pot 3",
        ],
    ),
    (
        "two-card-guts",
        1,
        3,
        {0: ["in"], 1: ["in"], 2: ["in"]},
        [
            "— Deal 1, dealer Ann —",
            "Bob antes 1",
            "Cat antes 1",
            "Ann antes 1",
            "Bob: in",
            "Cat: in",
            "Ann: in",
            "Bob shows A♦ 7♥: Ace-seven high",
            "Cat shows 4♦ 2♥: Four-two high",
            "Ann shows J♦ J♥: Pair of jacks",
            "Ann takes the pot (3); Bob and Cat pay 3 each into the pot.",
            "End of deal 1: pot 6",
        ],
        [
            "— Deal 1, your deal —",
            "Bob antes 1",
            "Cat antes 1",
            "You ante 1",
            "You are dealt J♦ J♥",
            "Bob: in",
            "Cat: in",
            "You: in",
            "Bob shows A♦ 7♥: Ace-seven high",
            "Cat shows 4♦ 2♥: Four-two high",
            "You show J♦ J♥: Pair of jacks",
            "You take the pot (3); Bob and Cat pay 3 each into the pot.",
            "End of deal 1: pot 6",
        ],
    ),
    (
        "ghost-guts",
        4,
        3,
        {0: ["in"], 1: ["out"], 2: ["out"]},
        [
            "— Deal 1, dealer Ann —",
            "Bob antes 1",
            "Cat antes 1",
            "Ann antes 1",
            "The ghost is dealt 2 cards face down",
            "Bob: out",
            "Cat: out",
            "Ann: in",
            "Ann shows J♠ A♠: Ace-jack high",
            "The ghost shows 9♣ A♥: Ace-nine high",
            "Ann beats the ghost and takes the pot (3).",
            "End of deal 1: pot 0",
            "The session is over: the pot was won",
        ],
        [
            "— Deal 1, your deal —",
            "Bob antes 1",
            "Cat antes 1",
            "You ante 1",
            "You are dealt J♠ A♠",
            "The ghost is dealt 2 cards face down",
            "Bob: out",
            "Cat: out",
            "You: in",
            "You show J♠ A♠: Ace-jack high",
            "The ghost shows 9♣ A♥: Ace-nine high",
            "You beat the ghost and take the pot (3).",
            "End of deal 1: pot 0",
            "The session is over: the pot was won",
        ],
    ),
    (
        "hi-lo-guts",
        3,
        3,
        {0: ["low"], 1: ["high"], 2: ["high"]},
        [
            "— Deal 1, dealer Ann —",
            "Bob antes 1",
            "Cat antes 1",
            "Ann antes 1",
            "Bob has chosen",
            "Cat has chosen",
            "Ann has chosen",
            "Bob: high",
            "Cat: high",
            "Ann: low",
            "Bob shows 5♦ 6♠: Six-five high",
            "Cat shows 9♣ 9♦: Pair of nines",
            "Ann shows 2♠ 8♥: Eight-two high",
            "Cat wins high (2); Ann wins low (1); Bob pays 3 into the pot.",
            "End of deal 1: pot 3",
        ],
        [
            "— Deal 1, your deal —",
            "Bob antes 1",
            "Cat antes 1",
            "You ante 1",
            "You are dealt 2♠ 8♥",
            "Bob has chosen",
            "Cat has chosen",
            "You have chosen",
            "Bob: high",
            "Cat: high",
            "You: low",
            "Bob shows 5♦ 6♠: Six-five high",
            "Cat shows 9♣ 9♦: Pair of nines",
            "You show 2♠ 8♥: Eight-two high",
            "Cat wins high (2); you win low (1); Bob pays 3 into the pot.",
            "End of deal 1: pot 3",
        ],
    ),
    (
        "no-peek-guts",
        3,
        3,
        {0: ["in"], 1: ["in"], 2: ["out"]},
        [
            "— Deal 1, dealer Ann —",
            "Bob antes 1",
            "Cat antes 1",
            "Ann antes 1",
            "Bob has chosen",
            "Cat has chosen",
            "Ann has chosen",
            "Bob: in",
            "Cat: out",
            "Ann: in",
            "Bob shows 5♦ 6♠: Six-five high",
            "Ann shows 2♠ 8♥: Eight-two high",
            "Ann takes the pot (3); Bob pays 3 into the pot.",
            "End of deal 1: pot 3",
        ],
        [
            "— Deal 1, your deal —",
            "Bob antes 1",
            "Cat antes 1",
            "You ante 1",
            "Bob has chosen",
            "Cat has chosen",
            "You have chosen",
            "Bob: in",
            "Cat: out",
            "You: in",
            "You look at your cards: 2♠ 8♥",
            "Bob shows 5♦ 6♠: Six-five high",
            "You show 2♠ 8♥: Eight-two high",
            "You take the pot (3); Bob pays 3 into the pot.",
            "End of deal 1: pot 3",
        ],
    ),
    (
        "three-five-seven",
        4,
        3,
        {0: ["in"], 1: ["out"], 2: ["in"]},
        [
            "Announced: the first to 3 legs takes the pot",
            "— Deal 1, dealer Ann —",
            "Bob antes 1",
            "Cat antes 1",
            "Ann antes 1",
            "— Stage 1: 3-card hands, high, threes wild, compared privately —",
            "Bob: out",
            "Cat: in",
            "Ann: in",
            "Cat and Ann compare privately: Ann has the best hand. Cat pays 3 to Ann.",
            "— Stage 2: 5-card hands, high, fives wild, compared privately —",
            "Bob: out",
            "Cat: in",
            "Ann: in",
            "Cat and Ann compare privately: Ann has the best hand. Cat pays 3 to Ann.",
            "— Stage 3: 7-card hands, high, sevens wild, shown to all —",
            "Bob: out",
            "Cat: in",
            "Ann: in",
            "Cat shows 7♥ 6♣ A♥ 3♠ J♥ 4♥ 8♠: Pair of aces",
            "Ann shows J♠ A♠ Q♥ 5♦ Q♣ 2♥ K♦: Pair of queens",
            "Cat and Ann show their hands: Cat has the best hand. Ann pays 3 to Cat.",
            "End of deal 1: pot 3",
        ],
        [
            "Announced: the first to 3 legs takes the pot",
            "— Deal 1, your deal —",
            "Bob antes 1",
            "Cat antes 1",
            "You ante 1",
            "— Stage 1: 3-card hands, high, threes wild, compared privately —",
            "You are dealt J♠ A♠ Q♥",
            "Bob: out",
            "Cat: in",
            "You: in",
            "Cat shows 7♥ 6♣ A♥: Ace-seven-six high",
            "You show J♠ A♠ Q♥: Ace-queen-jack high",
            "Cat and you compare privately: you have the best hand. Cat pays 3 to you.",
            "— Stage 2: 5-card hands, high, fives wild, compared privately —",
            "You are dealt 5♦ Q♣",
            "Bob: out",
            "Cat: in",
            "You: in",
            "Cat shows 7♥ 6♣ A♥ 3♠ J♥: Ace high",
            "You show J♠ A♠ Q♥ 5♦ Q♣: Three of a kind, queens",
            "Cat and you compare privately: you have the best hand. Cat pays 3 to you.",
            "— Stage 3: 7-card hands, high, sevens wild, shown to all —",
            "You are dealt 2♥ K♦",
            "Bob: out",
            "Cat: in",
            "You: in",
            "Cat shows 7♥ 6♣ A♥ 3♠ J♥ 4♥ 8♠: Pair of aces",
            "You show J♠ A♠ Q♥ 5♦ Q♣ 2♥ K♦: Pair of queens",
            "Cat and you show your hands: Cat has the best hand. You pay 3 to Cat.",
            "End of deal 1: pot 3",
        ],
    ),
    (
        "toh",
        5,
        4,
        {0: ["in"], 1: ["out"], 2: ["out"], 3: ["out"]},
        [
            "Announced: the first to 5 points takes the pot",
            "— Hand 1, dealer Ann —",
            "Ann seeds the pot with 1",
            "Bob: out",
            "Cat: out",
            "Dan: out",
            "Ann: in",
            "Bob: out (again)",
            "Cat: out (again)",
            "Dan: out (again)",
            "Ann is alone in.",
            "Ann scores a point with J♥ (1 of 5)",
            "End of hand 1: pot 1",
        ],
        [
            "Announced: the first to 5 points takes the pot",
            "— Hand 1, your deal —",
            "You seed the pot with 1",
            "You are dealt J♥",
            "Bob: out",
            "Cat: out",
            "Dan: out",
            "You: in",
            "Bob: out (again)",
            "Cat: out (again)",
            "Dan: out (again)",
            "You are alone in.",
            "You score a point with J♥ (1 of 5)",
            "End of hand 1: pot 1",
        ],
    ),
    (
        "five-card-draw",
        3,
        3,
        {
            0: ["call", "check", "stand"],
            1: ["bet 1", "call", "stand"],
            2: ["raise 2", "call", "stand"],
        },
        [
            "Ann buys in for 100",
            "Bob buys in for 100",
            "Cat buys in for 100",
            "— Deal 1, dealer Ann —",
            "Bob antes 1",
            "Cat antes 1",
            "Ann antes 1",
            "Betting round 1",
            "Bob bets 1",
            "Cat raises to 2",
            "Ann calls 2",
            "Bob calls 1",
            "The bets go into the pot (6)",
            "Bob stands pat",
            "Cat stands pat",
            "Ann stands pat",
            "Betting round 2",
            "Bob folds",
            "Cat folds",
            "Ann collects 9",
            "Ann wins 9 uncontested",
            "The session is over.",
        ],
        [
            "You buy in for 100",
            "Bob buys in for 100",
            "Cat buys in for 100",
            "— Deal 1, your deal —",
            "Bob antes 1",
            "Cat antes 1",
            "You ante 1",
            "You get 2♠ 8♥ J♣ 3♥ 10♦",
            "Betting round 1",
            "Bob bets 1",
            "Cat raises to 2",
            "You call 2",
            "Bob calls 1",
            "The bets go into the pot (6)",
            "Bob stands pat",
            "Cat stands pat",
            "You stand pat",
            "Betting round 2",
            "Bob folds",
            "Cat folds",
            "You collect 9",
            "You win 9 uncontested",
            "The session is over.",
        ],
    ),
    (
        "bourre",
        3,
        3,
        {},
        [
            "Ann buys in for 100",
            "Bob buys in for 100",
            "Cat buys in for 100",
            "— Deal 1, dealer Ann —",
            "Bob antes 1",
            "Cat antes 1",
            "Ann antes 1",
            "Trumps: diamonds (10♦ turned up)",
            "Bob: play",
            "Cat: play",
            "Ann: play",
            "Bob stands pat",
            "Cat stands pat",
            "Ann stands pat",
            "Bob plays 5♦",
            "Cat plays 9♦",
            "Ann plays 10♦",
            "Ann wins trick 1 with 10♦",
            "Ann plays 2♠",
            "Bob plays 6♠",
            "Cat plays 6♦",
            "Cat wins trick 2 with 6♦",
            "Cat plays 9♣",
            "Ann plays J♣",
            "Bob plays A♠",
            "Ann wins trick 3 with J♣",
            "Ann plays 8♥",
            "Bob plays 4♥",
            "Cat plays 7♥",
            "Ann wins trick 4 with 8♥",
            "Ann plays 3♥",
            "Bob plays 4♠",
            "Cat plays 10♣",
            "Ann wins trick 5 with 3♥",
            "Ann wins 4 tricks and takes the pot (3); Bob took no trick and matches the pot (3)",
            "End of deal 1: pot 3",
        ],
        [
            "You buy in for 100",
            "Bob buys in for 100",
            "Cat buys in for 100",
            "— Deal 1, your deal —",
            "Bob antes 1",
            "Cat antes 1",
            "You ante 1",
            "You are dealt 2♠ 8♥ J♣ 3♥ 10♦",
            "Trumps: diamonds (10♦ turned up)",
            "Bob: play",
            "Cat: play",
            "You: play",
            "Bob stands pat",
            "Cat stands pat",
            "You stand pat",
            "Bob plays 5♦",
            "Cat plays 9♦",
            "You play 10♦",
            "You win trick 1 with 10♦",
            "You play 2♠",
            "Bob plays 6♠",
            "Cat plays 6♦",
            "Cat wins trick 2 with 6♦",
            "Cat plays 9♣",
            "You play J♣",
            "Bob plays A♠",
            "You win trick 3 with J♣",
            "You play 8♥",
            "Bob plays 4♥",
            "Cat plays 7♥",
            "You win trick 4 with 8♥",
            "You play 3♥",
            "Bob plays 4♠",
            "Cat plays 10♣",
            "You win trick 5 with 3♥",
            "You win 4 tricks and take the pot (3); Bob took no trick and matches the pot (3)",
            "End of deal 1: pot 3",
        ],
    ),
]
"""(game, seed, players, preferred actions by seat, told to a spectator of Ann, Bob, ...,
told to You in Ann's seat)."""


@pytest.mark.parametrize(("game", "seed", "players", "prefs", "third", "second"), STORIES)
def test_a_deal_is_told_in_the_third_and_the_second_person(
    game: str,
    seed: int,
    players: int,
    prefs: dict[int, list[str]],
    third: list[str],
    second: list[str],
) -> None:
    assert told(game, ["Ann", "Bob", "Cat", "Dan"][:players], None, seed, prefs) == third
    assert told(game, ["You", "Bob", "Cat", "Dan"][:players], 0, seed, prefs) == second


# -- events told in their own words -----------------------------------------------------------

NAMES = ["You", "Ann", "Bob"]


@pytest.mark.parametrize(
    ("event", "line"),
    [
        (Chose(seat=0), "You have chosen"),
        (Chose(seat=1), "Ann has chosen"),
        (GhostDealt(count=2), "The ghost is dealt 2 cards face down"),
        (CommunityDealt(cards=("6s",)), "Community card: 6♠"),
        (CommunityDealt(cards=("6s", "7h", "8d")), "Community cards: 6♠ 7♥ 8♦"),
        (Looked(seat=0, cards=("As", "Kd")), "You look at your cards: A♠ K♦"),
        (WildRanks(ranks=(3,), forced_in=()), "Threes are wild"),
        (
            WildRanks(ranks=(3, 5), forced_in=(1,)),
            "Threes and fives are wild: Ann holds one and must stay in",
        ),
        (
            WildRanks(ranks=(3,), forced_in=(0, 2)),
            "Threes are wild: you and Bob hold one and must stay in",
        ),
        (Passed(seat=1, to=0, card="2c"), "Ann passes 2♣ to you"),
        (Passed(seat=0, to=1, card="2c"), "You pass 2♣ to Ann"),
        (ModeChosen(dealer=0, mode="simultaneous"), "You choose simultaneous declarations"),
        (
            Reneged(seat=1, card="4c", reason="you must follow suit", retracted=True),
            "Ann reneges with 4♣ (the rule: you must follow suit): the card is taken back",
        ),
        (
            PileShuffled(pile="folded", cards=12),
            "The stock ran out: the folded hands (12 cards) are shuffled",
        ),
        (DealStarted(deal=2, dealer=0, seats=(0, 1, 2)), "— Deal 2, your deal —"),
        (DealStarted(deal=2, dealer=2, seats=(0, 1, 2)), "— Deal 2, dealer Bob —"),
        (
            StageStarted(
                stage=1,
                count=1,
                size=1,
                low=False,
                wild=(),
                private=False,
                label="1-card hands, high, shown to all",
            ),
            None,
        ),
        (DrawActed(seat=0, action="check"), "You check"),
        (DrawActed(seat=1, action="raise 6"), "Ann raises to 6"),
        (DrawActed(seat=1, action="call"), None),  # its chips say it: "Ann calls 2"
        (DrawActed(seat=0, action="declare flush"), None),  # told by the declaration
        (
            OpenersShown(seat=0, cards=("Js", "Jd"), kept_apart=(), proved=True),
            "You prove openers with J♠ J♦",
        ),
        (
            OpenersShown(seat=1, cards=("Js", "Td"), kept_apart=(), proved=False),
            "Ann cannot prove openers with J♠ 10♦: a dead hand",
        ),
        (
            DrawDealEnded(result="won", won=((0, 9),), reason="you win 9 uncontested"),
            "You win 9 uncontested",
        ),
    ],
)
def test_events_told_in_their_own_words(event: Event, line: str | None) -> None:
    assert narrate(event, NAMES) == line


def moved(**fields: Any) -> Moved:
    return Moved(**{"note": "", "shortfall": 0, **fields})


@pytest.mark.parametrize(
    ("event", "line"),
    [
        (moved(source=0, destination="pot", amount=1, reason="ante"), "You ante 1"),
        (
            moved(source=1, destination="pot", amount=1, reason="ante", note="chicken fee"),
            "Ann antes 1 (chicken fee)",
        ),
        (
            moved(source=0, destination="pot", amount=1, reason="ante", note="seed"),
            "You seed the pot with 1",
        ),
        (moved(source="bank", destination=0, amount=100, reason="buy-in"), "You buy in for 100"),
        (moved(source=0, destination="bets", amount=2, reason="call"), "You call 2"),
        (
            moved(source=1, destination="bets", amount=1, reason="blind", note="small blind"),
            "Ann posts the small blind (1)",
        ),
        (moved(source=1, destination="bets", amount=4, reason="raise"), None),
        (
            moved(source=1, destination="bets", amount=3, reason="call", shortfall=2),
            "Ann calls 3 (short by 2)",
        ),
        (
            moved(source="bets", destination="pot", amount=9, reason="release"),
            "The bets go into the pot (9)",
        ),
        (
            moved(source="bets", destination=0, amount=2, reason="refund", note="uncalled bet"),
            "You get 2 back (uncalled bet)",
        ),
        (
            moved(source="pot", destination=1, amount=16, reason="win", note="winner takes all"),
            "Ann collects 16 (winner takes all)",
        ),
        # a pot won and losers' payments are the outcome line's to tell
        (moved(source="pot", destination=1, amount=4, reason="win"), None),
        (moved(source=0, destination="pot", amount=4, reason="match"), None),
        (moved(source=0, destination=1, amount=4, reason="pay-winner"), None),
        (
            moved(source="pot", destination="reserve", amount=3, reason="to-reserve"),
            "The pot → the reserve: 3 (to-reserve)",
        ),
    ],
)
def test_chips_told_as_sentences(event: Event, line: str | None) -> None:
    assert narrate(event, NAMES) == line


def test_draw_poker_tells_a_pot_won_by_its_chips() -> None:
    from guts.games.draw.events import Moved as DrawMoved

    won = DrawMoved(source="pot", destination=0, amount=9, reason="win", note="", shortfall=0)
    assert narrate(won, NAMES) == "You collect 9"


def test_the_narrator_says_again_for_a_second_declaration_only() -> None:
    guts = Narrator(NAMES)
    assert guts.tell(Declared(seat=1, choice="in", round=1)) == "Ann: in"
    assert guts.tell(Declared(seat=1, choice="out", round=2)) == "Ann: out (again)"
    staged = Narrator(NAMES)
    staged.tell(StageStarted(stage=2, count=2, size=5, low=False, wild=(), private=True,
                             label="5-card hands, high, compared privately"))  # fmt: skip
    assert staged.tell(Declared(seat=0, choice="in", round=2)) == "You: in"


def test_the_end_of_the_session_is_not_told_twice() -> None:
    narrator = Narrator(NAMES)
    reason = "Ann wins 9 uncontested"
    assert narrator.tell(DrawDealEnded(result="won", won=((1, 9),), reason=reason)) == reason
    assert narrator.tell(DrawSessionEnded(reason=reason)) == "The session is over."
    assert Narrator(NAMES).tell(DrawSessionEnded(reason=reason)) == f"The session is over: {reason}"


def test_watch_mode_seats_no_bot_called_you() -> None:
    assert seat_names(PlayConfig(players=3)) == ["You", "Ann", "Bob"]
    assert seat_names(PlayConfig(players=3, seat_name="Bob")) == ["Bob", "Ann", "Cat"]
    assert seat_names(PlayConfig(players=3, watch=True)) == ["Ann", "Bob", "Cat"]
    crowd = seat_names(PlayConfig(players=14, watch=True))
    assert len(set(crowd)) == 14 and "You" not in crowd


def test_a_player_named_otherwise_is_told_in_the_third_person() -> None:
    lines = told("two-card-guts", ["Zed", "Bob", "Cat"], 0, 4, {0: ["in"], 1: ["out"], 2: ["in"]})
    assert "Zed takes the pot (3); Cat pays 3 into the pot." in lines
    assert "Zed is dealt J♠ A♠" in lines


# -- every preset, watched and played ---------------------------------------------------------

_NAMES = "Ann|Bob|Cat|Dan|Eve|Fay|Gus|Hal|Ivy|Jo|Kit|The ghost|the ghost|The deck|the deck"
_PLURAL_VERBS = (
    "pay|take|win|have|are|match|tie|score|ante|show|play|draw|beat|collect|get"
    "|stand|call|check|fold|bet|raise|look|choose|hold|receive|renege|seed|post"
)
_BAD = [
    re.compile(rf"(?<!and )(?<!, )\b(?:{_NAMES}) (?:{_PLURAL_VERBS})\b"),  # "Bob pay"
    re.compile(r"\b(?:pays|matches|antes) \d+ each\b"),  # "each" for one payer
    re.compile(r"\(count\b|\bwild ranks \(|\bcommunity dealt\b|\bghost dealt\b"),  # debug words
    re.compile(r"\w \(\w[\w ]* [^()]*\[\d"),  # a fallback's "(ranks [3], ...)"
]


def _wrong_for_you(line: str) -> bool:
    """True if "You"/"you" is followed by a verb in the third person ("You pays")."""
    for match in re.finditer(r"\b[Yy]ou ([a-z]+)\b", line):
        word = match.group(1)
        if word in ("is", "has", "was", "does") or (word.endswith("s") and not word.endswith("ss")):
            return True
    return False


def _fallback(kind: str, data: dict[str, Any], names: Sequence[str]) -> str:
    raise AssertionError(f"no teller for {kind} events: {data}")


@pytest.mark.parametrize("name", sorted(games()))
def test_every_preset_reads_well_watched_and_played(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    told_lines: list[list[str]] = []

    class Recording(Narrator):
        def tell(self, event: Event) -> str | None:
            line = super().tell(event)
            if line:
                told_lines[-1].append(line)
            return line

    monkeypatch.setattr(guts.play, "Narrator", Recording)
    monkeypatch.setattr(guts.narrate, "_fallback", _fallback)
    game = find_game(name)
    played = 0
    for seed in (1, 2, 3):
        for watch in (True, False):
            told_lines.append([])
            config = PlayConfig(players=4 + seed % 2, seed=seed, watch=watch, deals=6,
                                bots="random")  # fmt: skip
            try:
                play(game, config, lambda kind, g, s: policy_for(kind, g.family, s),
                     Console(file=io.StringIO(), width=400), io.StringIO("1\n" * 400))  # fmt: skip
            except OptionError:  # this game does not seat that many
                continue
            played += 1
            lines = told_lines[-1]
            for before, line in zip(["", *lines], lines, strict=False):
                assert line != before, f"{name} seed {seed}: told twice: {line!r}"
                assert not any(bad.search(line) for bad in _BAD), f"{name}: {line!r}"
                assert not _wrong_for_you(line), f"{name}: {line!r}"
                if watch:
                    assert not re.search(r"\b[Yy]ou\b", line), f"{name} watched: {line!r}"
    assert played >= 2


def test_the_settling_up_agrees_with_you() -> None:
    settling: list[str] = []
    for seed in range(1, 11):  # until you end in debt and pay someone
        output = io.StringIO()
        config = PlayConfig(players=3, seed=seed, stack=1, deals=4)
        play(find_game("bourre"), config, lambda kind, g, s: policy_for(kind, g.family, s),
             Console(file=output, width=200), io.StringIO("1\n" * 300))  # fmt: skip
        settling += [line for line in output.getvalue().splitlines() if "up: you" in line]
    assert settling and all(line.startswith("to settle up: you pay ") for line in settling)
