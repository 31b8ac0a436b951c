"""A night at the real terminal: ``guts play dealers-choice`` in a pseudo-terminal of 80
columns, a person choosing each of their games by name and answering every prompt."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

ROOT = Path(__file__).resolve().parents[2]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b[=>]")
PROMPT = re.compile(r"(choose|bet|draw|play)> ")


def test_a_person_names_games_and_plays_the_night_at_a_terminal(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items()
           if key not in ("NO_COLOR", "FORCE_COLOR", "COLUMNS", "LINES", "TERM")}  # fmt: skip
    env.update(TERM="dumb", COLUMNS="80", LINES="50", PYTHONIOENCODING="utf-8")
    history = tmp_path / "night.jsonl"
    args = ["-m", "guts", "play", "dealers-choice", "--games",
            "two-card-guts,three-five-seven,bourre", "--players", "3", "--seed", "6",
            "--option", "chooser=next", "--history", str(history)]  # fmt: skip
    child = pexpect.spawn(sys.executable, args, env=env, cwd=str(ROOT), encoding="utf-8",
                          dimensions=(50, 80), timeout=60)  # fmt: skip
    screen, choices = "", []
    try:
        for _ in range(400):
            if child.expect([PROMPT, pexpect.EOF]) == 1:
                screen += child.before
                break
            screen += child.before + child.after
            shown = ANSI.sub("", screen)
            if "Your turn — choose game" in shown[shown.rfind("▶") :]:
                answer = "three-five-seven ante=2"
                choices.append(answer)
            else:
                answer = "1"  # the first choice, card or size: always legal
            child.sendline(answer)
    finally:
        child.close()
    text = ANSI.sub("", screen).replace("\r\n", "\n").replace("\r", "")
    assert child.exitstatus == 0, text[-2000:]
    assert choices == ["three-five-seven ante=2"]  # chooser=next: then Ann, then Bob
    assert "You choose game 1: three-five-seven (ante=2)" in text
    assert "[tw]o card guts / [th]ree five seven / [b]ourre" in text
    assert "The night is over: 3 games were played." in text and "The night's chips" in text
    lines = text.splitlines()
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    assert history.exists() and "Traceback" not in text
