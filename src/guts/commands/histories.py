"""``guts replay`` and ``guts export``: a recorded session told again, or draw poker deals
as PHH files."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from guts.commands.common import console
from guts.errors import OptionError

if TYPE_CHECKING:
    from guts.history import History


def replay_command(
    path: Annotated[str, typer.Argument(help="A hand history (--history, or a download).")],
    seat: Annotated[
        str | None, typer.Option("--seat", help="Replay from this player's side.")
    ] = None,
    step: Annotated[bool, typer.Option("--step", help="Wait for Enter after each deal.")] = False,
) -> None:
    """Step through a recorded session (replayed and checked event by event).

    A server's download (every session of a table, as one player saw it) is told as
    recorded: it has no deck orders, so it cannot be re-dealt and checked."""
    histories = _read_histories_file(path)
    for number, history in enumerate(histories, start=1):
        if len(histories) > 1:
            console.print(f"━━ Session {number} of {len(histories)} ━━", markup=False)
        _tell_history(history, seat, step=step)


def _tell_history(history: History, seat: str | None, *, step: bool) -> None:
    """Narrate one history from ``seat``'s side (None: a download as it was recorded,
    a whole record as a spectator saw it)."""
    from guts.history import replay, told_events
    from guts.narrate import Narrator
    from guts.night import Night
    from guts.night.narrate import NightNarrator

    over: str | None = None
    if history.redacted:
        names = history.names
        told = told_events(history)
        if history.viewer is not None and not 0 <= history.viewer < len(names):
            raise OptionError(f"the history's viewer {history.viewer} is not one of its seats")
        saw = "a spectator" if history.viewer is None else names[history.viewer]
        note = f"(as {saw} saw it: hidden cards left out, told as recorded)"
    else:
        session = replay(history)
        names, told = list(session.table.names), list(session.events)
        if not isinstance(session, Night) or not session.is_over:  # a night tells its end
            over = session.over_reason or "the record ends here"
        note = None
    viewer = None
    if seat is not None:
        if seat not in names:
            raise OptionError(f"no player {seat!r} in this history: {', '.join(names)}")
        viewer = names.index(seat)
    if note is not None:
        console.print(note, markup=False, highlight=False)
    narrator = NightNarrator(names) if history.record.get("game") == Night.game else Narrator(names)
    for event in told:
        shown = (seat is None and history.redacted) or event.visible_to(viewer)
        line = narrator.tell(event) if shown else None
        if line is None:
            continue
        console.print(line, markup=False, highlight=False)
        if step and event.kind.endswith("deal-ended") and sys.stdin.isatty():
            input("-- Enter for the next deal --")
    if over is not None:
        console.print(over, markup=False, highlight=False)


def export_command(
    path: Annotated[str, typer.Argument(help="A draw poker hand history (--history).")],
    deal: Annotated[int | None, typer.Option("--deal", help="Only this deal (1, 2, ...).")] = None,
    out: Annotated[
        str | None, typer.Option("--out", help="Write deal-N.phh files into this folder.")
    ] = None,
) -> None:
    """Export draw poker deals to PHH, the TOML-based Poker Hand History format."""
    from pathlib import Path

    from guts.catalog import FAMILIES
    from guts.games.draw.events import DealStarted
    from guts.games.draw.phh import PhhError
    from guts.history import replay, told_events

    history = _read_history_file(path)
    family = FAMILIES.get(str(history.record.get("game")))
    deal_to_phh = family.deal_to_phh if family is not None else None
    if family is None or deal_to_phh is None:
        raise PhhError("PHH export is for draw poker histories (five-card-draw and its family)")
    # a download has no decks to re-deal (its cards are what one seat saw); a record that
    # replays is whole
    events = told_events(history) if history.redacted else list(replay(history).events)
    started = sum(1 for event in events if isinstance(event, DealStarted))
    if deal is not None and not 1 <= deal <= started:
        raise PhhError(f"--deal must be between 1 and {started}, not {deal}")
    numbers = [deal] if deal is not None else list(range(1, started + 1))
    game = history.preset or family.name
    texts = {n: deal_to_phh(history.record, n, game=game) for n in numbers}
    if out is None:
        print("\n".join(f"# deal {n}\n{text}" for n, text in texts.items()))
        return
    folder = Path(out)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for n, text in texts.items():
            (folder / f"deal-{n}.phh").write_text(text, encoding="utf-8")
    except OSError as error:
        raise OptionError(f"--out: cannot write into {out}: {error.strerror or error}") from None
    console.print(f"{len(texts)} PHH file(s) written to {folder}")


def _read_history_file(path: str) -> History:
    """The one hand history in file ``path``; a missing, unreadable or malformed file is
    a HistoryError naming it."""
    histories = _read_histories_file(path)
    if len(histories) > 1:
        from guts.history import HistoryError

        raise HistoryError(f"{path}: the file holds {len(histories)} histories, not one")
    return histories[0]


def _read_histories_file(path: str) -> list[History]:
    """Every hand history in file ``path`` (a server's download holds one per session)."""
    from guts.history import HistoryError, read_histories

    try:
        with open(path, encoding="utf-8") as source:
            return read_histories(source)
    except OSError as error:
        raise HistoryError(f"cannot read {path}: {error.strerror or error}") from None
    except HistoryError as error:
        raise HistoryError(f"{path}: {error}") from None


def register(app: typer.Typer) -> None:
    """Add ``guts replay`` and ``guts export`` to ``app``."""
    app.command("replay")(replay_command)
    app.command("export")(export_command)
