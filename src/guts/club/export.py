"""A club's stats as CSV: one row per member, and one row per member's night.

The cells are guarded as the ledger's are: a name a spreadsheet would read as a formula
(``=``, ``+``, ``-``, ``@``...) is written with a leading quote.

>>> from datetime import datetime, UTC
>>> from guts.club.members import Member
>>> from guts.club.stats import MemberNight, MemberStats
>>> jo = MemberStats(Member("m1", "=Jo"), [MemberNight("t", "two-card-guts",
...                  datetime(2026, 12, 4, tzinfo=UTC), "Jo", -5)])
>>> print(members_csv([jo]), end="")
member_id,name,nights,net,first_night,last_night,guts_deals,guts_in,guts_declared,guts_biggest_pot,draw_hands,draw_showdowns,draw_showdowns_won,other_deals,other_net
m1,'=Jo,1,-5,2026-12-04,2026-12-04,0,0,0,0,0,0,0,0,0
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

from guts.club.stats import MemberStats

__all__ = ["MEMBER_COLUMNS", "NIGHT_COLUMNS", "member_nights_csv", "members_csv"]

MEMBER_COLUMNS = ("member_id", "name", "nights", "net", "first_night", "last_night",
                  "guts_deals", "guts_in", "guts_declared", "guts_biggest_pot",
                  "draw_hands", "draw_showdowns", "draw_showdowns_won",
                  "other_deals", "other_net")  # fmt: skip
NIGHT_COLUMNS = ("member_id", "name", "table_id", "game", "date", "nickname", "net",
                 "running_net")  # fmt: skip
GUTS_FAMILIES = ("guts", "staged")
"""The families whose declarations are in or out (Guts and Three Five Seven)."""
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: Any) -> Any:
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def _write(columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_cell(value) for value in row])
    return out.getvalue()


def _member_row(stats: MemberStats) -> list[Any]:
    fams = stats.families
    guts = [fams[f] for f in GUTS_FAMILIES if f in fams]
    draw = fams.get("draw")
    others = [f for name, f in fams.items() if name not in (*GUTS_FAMILIES, "draw")]
    dates = [night.when.date().isoformat() for night in stats.nights]
    return [stats.member.id, stats.member.name, len(stats.nights), stats.net,
            dates[0] if dates else "", dates[-1] if dates else "",
            sum(f.deals for f in guts), sum(f.ins for f in guts),
            sum(f.declared for f in guts), max((f.biggest_pot for f in guts), default=0),
            draw.deals if draw else 0, draw.showdowns if draw else 0,
            draw.showdowns_won if draw else 0,
            sum(f.deals for f in others), sum(f.net for f in others)]  # fmt: skip


def members_csv(members: Iterable[MemberStats]) -> str:
    """One row per member: nights, net, and the per-family counts."""
    return _write(MEMBER_COLUMNS, (_member_row(stats) for stats in members))


def member_nights_csv(members: Iterable[MemberStats]) -> str:
    """One row per member's night, oldest first, with the running net."""
    rows = []
    for stats in members:
        for night, running in zip(stats.nights, stats.running_net(), strict=True):
            rows.append(
                [
                    stats.member.id,
                    stats.member.name,
                    night.table_id,
                    night.preset,
                    night.when.date().isoformat(),
                    night.nickname,
                    night.net,
                    running,
                ]
            )
    return _write(NIGHT_COLUMNS, rows)
