"""A host's club: the people who come back to the host's tables night after night.

A club is a host's tables and nights. Its members are the people who played at them: a
member has a stable id and a display name, and is known by the devices that claimed it
(:mod:`guts.club.members`). The club's stats are computed from the tables' public
records, each member's nights, net and per-game counts (:mod:`guts.club.stats`), and
written as CSV (:mod:`guts.club.export`). Pure Python: the server stores and serves it.
"""

from guts.club.export import member_nights_csv, members_csv
from guts.club.members import (
    ClaimCode,
    ClaimError,
    Member,
    Roster,
    new_code,
)
from guts.club.stats import (
    FamilyStats,
    MemberStats,
    NightRecord,
    SeatResult,
    SessionRecord,
    club_stats,
)

__all__ = [
    "ClaimCode",
    "ClaimError",
    "FamilyStats",
    "Member",
    "MemberStats",
    "NightRecord",
    "Roster",
    "SeatResult",
    "SessionRecord",
    "club_stats",
    "member_nights_csv",
    "members_csv",
    "new_code",
]
