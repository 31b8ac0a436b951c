"""The terminal table driven as a person drives it: the real ``guts play`` in a
pseudo-terminal (pexpect), one full game of each family, answers typed after reading what
the screen shows, and assertions on the screen.

The person reads the prompt (``choose>``, ``bet>``, ``draw>``, ``play>``), the panel above
it (whose turn, the status line, the numbered hand, the legal choices) and answers as a
player would: short forms, positions, cards by name, a few wrong answers on the way to see
the one-line refusals and the help. Every line on the screen must fit 80 columns.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

ROOT = Path(__file__).resolve().parents[2]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b[=>]")
PROMPT = re.compile(r"(choose|bet|draw|play)> ")
CARD = r"(?:10|[2-9JQKA])[♣♦♥♠]"
COLOUR = re.compile(r"\x1b\[[0-9;]*3[0-9]m")


def plain(text: str) -> str:
    return ANSI.sub("", text).replace("\r\n", "\n").replace("\r", "")


def environment(**extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items()
           if key not in ("NO_COLOR", "FORCE_COLOR", "COLUMNS", "LINES", "TERM")}  # fmt: skip
    env.update(TERM="dumb", COLUMNS="80", LINES="50", PYTHONIOENCODING="utf-8")
    env.update(extra)
    return env


@dataclass
class Turn:
    """One prompt: its kind, the screen since the last answer, the whole screen so far,
    and what the person typed."""

    kind: str
    screen: str
    full: str
    answer: str = ""


@dataclass
class Table:
    """``guts play ARGS`` in a pseudo-terminal of 80 columns."""

    args: list[str]
    env: dict[str, str] = field(default_factory=environment)
    turns: list[Turn] = field(default_factory=list)
    raw: str = ""

    def play(self, person: Callable[[Turn, list[Turn]], str], limit: int = 400) -> int:
        child = pexpect.spawn(sys.executable, ["-m", "guts", "play", *self.args], env=self.env,
                              cwd=str(ROOT), encoding="utf-8", dimensions=(50, 80),
                              timeout=60)  # fmt: skip
        try:
            for _ in range(limit):
                index = child.expect([PROMPT, pexpect.EOF])
                self.raw += child.before + (child.after if index == 0 else "")
                if index == 1:
                    break
                turn = Turn(child.match.group(1), plain(child.before), plain(self.raw))
                turn.answer = person(turn, self.turns)
                self.turns.append(turn)
                child.sendline(turn.answer)
            else:
                child.sendeof()
                child.expect(pexpect.EOF)
                self.raw += child.before
        finally:
            child.close()
        return int(child.exitstatus or 0)

    @property
    def screen(self) -> str:
        return plain(self.raw)


def panel(turn: Turn) -> str:
    """The decision panel a prompt answers, from its heading to the first prompt (after a
    refused answer the prompt comes again without a new panel)."""
    start = turn.full.rfind("▶ Your turn")
    end = turn.full.find(f"{turn.kind}> ", start)
    return turn.full[start:end]


def hand(turn: Turn) -> list[tuple[int | None, str]]:
    """The numbered hand of the panel: (number or None for an unplayable card, card)."""
    line = next(line for line in panel(turn).splitlines() if "your hand:" in line)
    cards = []
    for token in line.split("your hand:")[1].split():
        number, _, card = token.rpartition(":")
        cards.append((int(number) if number else None, card.strip("()")))
    return cards


def ascii_card(card: str) -> str:
    """``10♦`` -> ``10d``, as a person types it."""
    return card[:-1] + "cdhs"["♣♦♥♠".index(card[-1])]


def check_screen(table: Table) -> None:
    """What every game's screen must show: a heading for every decision, the status line
    with the pot and your chips, nothing wider than 80 columns, a clean end."""
    for turn in table.turns:
        shown = panel(turn)
        assert shown.startswith("▶ Your turn"), turn.screen[-400:]
        assert re.search(r"deal \d+ · pot \d+", shown) and re.search(r"\bYou -?\d+", shown)
    lines = table.screen.splitlines()
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    assert "Chips" in table.screen and "Traceback" not in table.screen


def test_two_card_guts(tmp_path: Path) -> None:
    table = Table(["two-card-guts", "--seed", "4", "--history", str(tmp_path / "h.jsonl")])

    def person(turn: Turn, before: list[Turn]) -> str:
        assert turn.kind == "choose"
        return ["maybe", "h", "3"][len(before)] if len(before) < 3 else ["i", "in", "1"][
            len(before) % 3
        ]

    assert table.play(person) == 0
    check_screen(table)
    first, helped, wrong = table.turns[:3]
    assert "▶ Your turn — declare in or out" in panel(first)
    assert re.search(rf"your cards: {CARD} {CARD}\n", panel(first))
    assert "[i]n / [o]ut  (or 1-2; h for help)" in panel(first)
    assert "✗ 'maybe' is not a choice here: choose in or out" in helped.screen
    assert "Or its number: 1 in, 2 out." in wrong.screen
    assert "✗ there is no choice 3: choose 1 to 2" in table.turns[3].screen
    assert "You: in" in table.screen
    assert "the pot was won" in table.screen


def test_three_five_seven() -> None:
    table = Table(["three-five-seven", "--seed", "2"])
    stages: list[str] = []

    def person(turn: Turn, before: list[Turn]) -> str:
        heading = panel(turn).splitlines()[0]
        stages.append(heading)
        return ["in", "i", "1"][len(before) % 3]

    assert table.play(person) == 0
    check_screen(table)
    screens = [panel(turn) for turn in table.turns]
    assert any(h.startswith("▶ Your turn — stage 1: in or out") for h in stages)
    assert any("threes wild" in s and re.search(rf"your cards: ({CARD} ?){{3}}\n", s)
               for s in screens)  # fmt: skip
    assert any("fives wild" in s for s in screens) and any("sevens wild" in s for s in screens)
    assert all(re.search(r"legs: .*\(3 to win\)", s) for s in screens)
    assert re.search(r"took the pot with 3 legs", table.screen)


def test_toh() -> None:
    table = Table(["toh", "--seed", "3"])

    def person(turn: Turn, before: list[Turn]) -> str:
        return "o" if len(before) % 4 == 3 else "i"

    assert table.play(person) == 0
    check_screen(table)
    screens = [panel(turn) for turn in table.turns]
    assert all(re.search(rf"your cards: {CARD}\n", s) for s in screens)
    assert all("(5 to win)" in s for s in screens)
    assert any(re.search(r"points: \w+ [1-4]", s) for s in screens)
    assert "You: out" in table.screen and "You: in" in table.screen
    assert re.search(r"took the pot with 5 points", table.screen)


def test_jacks_or_better() -> None:
    table = Table(["jacks-or-better", "--seed", "3", "--deals", "8"])
    tried: set[str] = set()

    def person(turn: Turn, before: list[Turn]) -> str:
        shown = panel(turn)
        if turn.kind == "bet":
            if "r 999" not in tried and "Call" in shown:
                tried.add("r 999")
                return "r 999"
            return "k" if "Check" in shown else "c"
        assert turn.kind == "draw"
        cards = [card for _, card in hand(turn)]
        if "absent" not in tried:
            tried.add("absent")
            absent = next(c for c in ("8♦", "9♠", "7♣", "2♥", "3♠") if c not in cards)
            return ascii_card(absent) + " " + ascii_card(cards[0])
        if "too many" not in tried:
            tried.add("too many")
            return "1 2 3 4"
        if "help" not in tried:
            tried.add("help")
            return "h"
        ranks = [card[:-1] for card in cards]
        singles = [str(i) for i, rank in enumerate(ranks, start=1) if ranks.count(rank) == 1]
        return " ".join(singles[-3:]) or "pat"

    assert table.play(person) == 0
    check_screen(table)
    draws = [turn for turn in table.turns if turn.kind == "draw"]
    assert draws, "the person never drew"
    first = panel(draws[0])
    assert "▶ Your turn to draw" in first
    assert re.search(rf"your hand: 1:{CARD} 2:{CARD} 3:{CARD} 4:{CARD} 5:{CARD}\n", first)
    assert "Stand pat or discard 1 to 3 cards" in first
    assert re.search(r"✗ you hold no (8♦|9♠|7♣|2♥|3♠) \(cards or positions 1-5, or pat",
                     table.screen)  # fmt: skip
    assert "✗ at most 3 cards may be thrown" in table.screen
    assert "'3 4 5' or '345'" in table.screen  # the help
    bets = [panel(turn) for turn in table.turns if turn.kind == "bet"]
    assert any(re.search(r"to bet \(\d+ to call\)", b) for b in bets)
    assert re.search(r"✗ legal now: fold, call \d+", table.screen)
    assert re.search(r"You (draw \d cards?|stand pat)", table.screen)


def test_bourre() -> None:
    table = Table(["bourre", "--seed", "4", "--option", "max-deals=2"])
    refused: list[str] = []

    def person(turn: Turn, before: list[Turn]) -> str:
        if turn.kind == "choose":
            return "p"
        if turn.kind == "draw":
            return "pat" if len(before) % 2 else "1 2"
        assert turn.kind == "play"
        cards = hand(turn)
        barred = [card for number, card in cards if number is None]
        if barred and not refused:
            refused.append(barred[0])
            return ascii_card(barred[0])
        playable = [(number, card) for number, card in cards if number is not None]
        number, card = playable[-1]
        return ascii_card(card) if len(before) % 2 else str(number)

    assert table.play(person) == 0
    check_screen(table)
    plays = [panel(turn) for turn in table.turns if turn.kind == "play"]
    assert plays and all("trump " in p for p in plays)
    assert any("on the table: " in p for p in plays)
    assert any(re.search(r"your hand: (\(?\d?:?" + CARD + r"\)? ?){5}\n", p) for p in plays)
    assert refused, "never held a card it could not play"
    assert re.search(rf"✗ cannot play {refused[0]}: you (must|have no)", table.screen)
    assert re.search(r"not playable: .*: you (must|have no)", table.screen)
    assert "the deal limit (2) was reached" in table.screen


def test_hi_lo_declares_at_once() -> None:
    table = Table(["hi-lo-guts", "--seed", "2", "--players", "3", "--deals", "2"])
    assert table.play(lambda turn, before: ["hi", "lo", "b"][len(before) % 3]) == 0
    check_screen(table)
    assert "everyone chooses at once" in panel(table.turns[0])
    assert "[hi]gh / [l]ow / [b]oth / [o]ut" in panel(table.turns[0])
    assert "You: high" in table.screen


def test_colours_on_a_terminal_and_none_under_no_color() -> None:
    coloured = Table(["two-card-guts", "--seed", "4"],
                     env=environment(TERM="xterm-256color"))  # fmt: skip
    coloured.play(lambda turn, before: "i")
    assert re.search(r"\x1b\[[0-9;]*31m(10|[2-9JQKA])[♥♦]", coloured.raw)
    assert "\x1b[1;36m▶ Your turn" in coloured.raw
    bare = Table(["two-card-guts", "--seed", "4"],
                 env=environment(TERM="xterm-256color", NO_COLOR="1"))  # fmt: skip
    bare.play(lambda turn, before: "i")
    assert not COLOUR.search(bare.raw) and "▶ Your turn" in bare.raw
    assert plain(bare.raw).count("▶ Your turn") == plain(coloured.raw).count("▶ Your turn")


def test_the_quick_start_with_piped_input() -> None:
    """The README's first command, answered through a pipe: plain text, answers echoed."""
    done = subprocess.run(
        [sys.executable, "-m", "guts", "play", "two-card-guts", "-o", "continue-after-empty=yes",
         "--seed", "5"],
        input="i\no\nx\ni\n" * 3, capture_output=True, text=True, encoding="utf-8",
        env=environment(TERM="xterm-256color"), cwd=str(ROOT), timeout=120, check=False,
    )  # fmt: skip
    out = done.stdout
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in out
    assert "choose> i\nYou: in" in out and "choose> o\nYou: out" in out
    assert "choose> x\n  ✗ 'x' is not a choice here: choose in or out" in out
    assert "You leave the table." in out and "Chips" in out
    assert all(len(line) <= 80 for line in out.splitlines())
