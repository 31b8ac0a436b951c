"""The night's ledger: each player's buy-in, markers, stack and net across every game.

A :class:`NightLedger` is a snapshot (the night hands out a new one when asked): the
chips each seat brought, the markers it took on credit, its stack now, and each game's
result, from which the nets and the settlement follow.

>>> ledger = NightLedger(("Ann", "Bob"), (50, 50), (0, 20), (85, 35), 0, ())
>>> ledger.net                  # Bob owes his marker of 20 too
(35, -35)
>>> ledger.settlement().payments
(('Bob', 'Ann', 35),)
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from guts.table import Settlement, TableError, settling_payments

__all__ = ["GameResult", "NightLedger"]


@dataclass(frozen=True)
class GameResult:
    """One finished game: its number, preset, who chose it (None: the rotation), how
    many deals it lasted, why it ended, and what each seat won or lost in it."""

    number: int
    game: str
    chooser: int | None
    deals: int
    reason: str
    change: tuple[int, ...]


@dataclass(frozen=True)
class NightLedger:
    """The night's chips: ``buy_ins`` (what each seat sat down with), ``markers`` (debts
    taken on credit, owed like buy-ins), ``stacks`` (now), ``in_play`` (chips in the
    middle of a game in progress) and the finished ``games``."""

    names: tuple[str, ...]
    buy_ins: tuple[int, ...]
    markers: tuple[int, ...]
    stacks: tuple[int, ...]
    in_play: int
    games: tuple[GameResult, ...]

    @property
    def net(self) -> tuple[int, ...]:
        """Each seat's result so far: its stack less its buy-in and markers."""
        return tuple(
            stack - bought - owed
            for stack, bought, owed in zip(self.stacks, self.buy_ins, self.markers, strict=True)
        )

    def settlement(self) -> Settlement:
        """Each player's net and the fewest payments that square them
        (:func:`~guts.table.settling_payments`); TableError while chips are in the middle
        of a game."""
        if self.in_play:
            raise TableError(
                f"{self.in_play} chips are in the middle of a game; finish or stop it first"
            )
        net = dict(zip(self.names, self.net, strict=True))
        return Settlement(net, settling_payments(net))

    def to_csv(self) -> str:
        """The ledger as CSV: one row per player, a column per finished game (that game's
        win or loss), then buy-in, markers, stack and net."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        games = [f"{result.number} {result.game}" for result in self.games]
        writer.writerow(["player", *games, "buy_in", "markers", "stack", "net"])
        for seat, name in enumerate(self.names):
            changes = [result.change[seat] for result in self.games]
            shown = "'" + name if name.startswith(("=", "+", "-", "@")) else name
            writer.writerow([shown, *changes, self.buy_ins[seat], self.markers[seat],
                             self.stacks[seat], self.net[seat]])  # fmt: skip
        return out.getvalue()
