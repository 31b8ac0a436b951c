"""The CLI on bad hand-history paths and files: one line on stderr, exit status 2."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import run

from guts.cli import main


def one_line_error(code: int, err: str, needle: str) -> None:
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("guts: ") and needle in err, err
    assert "Traceback" not in err


@pytest.fixture(scope="module")
def draw_history(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The lines of a real draw poker history (two deals, four players)."""
    path = tmp_path_factory.mktemp("histories") / "draw.jsonl"
    code = 0
    try:
        main(["play", "jacks-or-better", "--watch", "--deals", "2", "--seed", "3",
              "--players", "4", "--history", str(path)])  # fmt: skip
    except SystemExit as stop:
        code = int(stop.code or 0)
    assert code == 0
    return path.read_text().splitlines()


def _header(change: Callable[[dict[str, object]], object]) -> Callable[[list[str]], list[str]]:
    def corrupt(lines: list[str]) -> list[str]:
        header = json.loads(lines[0])
        change(header)
        return [json.dumps(header), *lines[1:]]

    return corrupt


def _event(field: str, value: object) -> Callable[[list[str]], list[str]]:
    """Set ``field`` of the first event that has it."""

    def corrupt(lines: list[str]) -> list[str]:
        number = next(n for n, line in enumerate(lines) if n and f'"{field}"' in line)
        event = json.loads(lines[number])
        event[field] = value
        return [*lines[:number], json.dumps(event), *lines[number + 1 :]]

    return corrupt


CORRUPT_FILES: list[tuple[str, Callable[[list[str]], list[str]], str]] = [
    ("rules-a-list", _header(lambda h: h.update(rules=["ante", "1"])), "rules must be an object"),
    ("rules-a-string", _header(lambda h: h.update(rules="ante=1")), "rules must be an object"),
    ("rule-a-number", _header(lambda h: h.update(rules={"ante": 1})), "rule 'ante' must be"),
    ("players-null", _header(lambda h: h.update(players=None)), "players must be a list"),
    ("no-button", _header(lambda h: h.pop("button")), "missing button"),
    ("seat-a-string", _event("seat", "1"), "must be an integer"),
    ("seat-a-bool", _event("seat", True), "must be an integer, not true"),
    ("audience-a-string", _event("audience", "0"), "'audience' must be"),
    ("event-a-number", lambda lines: [lines[0], "5", *lines[2:]], "line 2 is not a JSON object"),
    ("truncated-line", lambda lines: [lines[0], lines[1][:-3], *lines[2:]], "line 2 is not JSON"),
    ("no-header", lambda lines: lines[1:], "not a guts-history/1 header"),
]


@pytest.mark.parametrize("command", ["replay", "export"])
@pytest.mark.parametrize(
    ("name", "corrupt", "needle"), CORRUPT_FILES, ids=[c[0] for c in CORRUPT_FILES]
)
def test_a_corrupt_history_is_one_line(
    command: str,
    name: str,
    corrupt: Callable[[list[str]], list[str]],
    needle: str,
    draw_history: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / f"{name}.jsonl"
    path.write_text("\n".join(corrupt(list(draw_history))) + "\n")
    code, _, err = run(capsys, command, str(path))
    one_line_error(code, err, needle)


@pytest.mark.parametrize("command", ["replay", "export"])
@pytest.mark.parametrize(
    ("name", "content", "needle"),
    [
        ("empty", b"", "the history file is empty"),
        ("blank", b"\n \n", "the history file is empty"),
        ("not-utf8", b'{"format": "guts-history/1"}\n\xff\xfe\xfa\n', "not UTF-8"),
        ("latin1", '{"format": "guts-history/1", "x": "é"}'.encode("latin-1"), "not UTF-8"),
        ("not-json", b"hello\n", "line 1 is not JSON"),
        ("json-list", b"[1, 2, 3]\n", "line 1 is not a JSON object"),
    ],
)
def test_a_bad_file_is_one_line(
    command: str,
    name: str,
    content: bytes,
    needle: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / f"{name}.jsonl"
    path.write_bytes(content)
    code, _, err = run(capsys, command, str(path))
    one_line_error(code, err, needle)
    assert str(path) in err


@pytest.mark.parametrize("command", ["replay", "export"])
def test_a_missing_file_or_a_directory_is_one_line(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, command, str(tmp_path / "missing.jsonl"))
    one_line_error(code, err, "cannot read")
    code, _, err = run(capsys, command, str(tmp_path))
    one_line_error(code, err, "cannot read")


def test_export_of_a_good_history_still_works(
    draw_history: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "draw.jsonl"
    path.write_text("\n".join(draw_history) + "\n")
    code, out, _ = run(capsys, "export", str(path))
    deals = sum('"draw-deal-started"' in line for line in draw_history)
    assert code == 0 and out.count("# deal ") == deals >= 1
    code, _, err = run(capsys, "export", str(path), "--deal", str(deals + 1))
    one_line_error(code, err, f"--deal must be between 1 and {deals}")
    code, _, err = run(capsys, "export", str(path), "--out", str(path / "phh"))
    one_line_error(code, err, "--out: cannot write")


def test_export_of_another_family_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bourre.jsonl"
    code, _, _ = run(capsys, "play", "bourre", "--watch", "--deals", "1", "--seed", "2",
                     "--history", str(path))  # fmt: skip
    assert code == 0
    code, _, err = run(capsys, "export", str(path))
    one_line_error(code, err, "PHH export is for draw poker")


@pytest.mark.parametrize("where", ["missing-dir", "a-directory", "under-a-file"])
def test_play_checks_the_history_path_before_playing(
    where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "file").write_text("x")
    target = {
        "missing-dir": tmp_path / "no" / "such" / "h.jsonl",
        "a-directory": tmp_path,
        "under-a-file": tmp_path / "file" / "h.jsonl",
    }[where]
    code, out, err = run(capsys, "play", "bourre", "--watch", "--deals", "1", "--seed", "2",
                         "--history", str(target))  # fmt: skip
    one_line_error(code, err, "--history: cannot write")
    assert out == ""  # nothing was played


def test_the_history_check_leaves_the_path_as_it_was(tmp_path: Path) -> None:
    from guts.cli import _check_writable

    path = tmp_path / "h.jsonl"
    _check_writable(str(path))
    assert not path.exists()
    path.write_text("kept")
    _check_writable(str(path))
    assert path.read_text() == "kept"
