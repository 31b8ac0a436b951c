"""A club's members: a device is the member its first seat made; a host's code lets a
new device claim a member, once, for a short time, with wrong codes bounded; the host
merges two members into one."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from guts.club.members import (
    CODE_ALPHABET,
    CODE_LIFETIME,
    MAX_FAILURES,
    ClaimError,
    Roster,
    new_code,
    normal_code,
)

NOW = datetime(2026, 12, 4, 20, 0, tzinfo=UTC)


def two_devices() -> Roster:
    """Jo sat on a laptop (t1) and, as 'Jojo', on a phone (t2): two members."""
    roster = Roster()
    roster.seat(("t1", 0), "laptop", "Jo", new_id="jo")
    roster.seat(("t2", 1), "phone", "Jojo", new_id="jojo")
    return roster


def test_a_device_that_sat_is_the_member_it_made_at_every_later_table() -> None:
    roster = Roster()
    first = roster.seat(("t1", 2), "laptop", "Jo", new_id="m1", now=NOW)
    again = roster.seat(("t2", 0), "laptop", "Joanna", new_id="m2")
    assert (first.id, first.name, again.id) == ("m1", "Jo", "m1")
    assert sorted(roster.seats_of("m1")) == [("t1", 2), ("t2", 0)]
    assert list(roster.members) == ["m1"]


def test_a_seat_already_known_stays_its_member() -> None:
    roster = two_devices()
    assert roster.seat(("t1", 0), "phone", "Jo", new_id="x").id == "jo"


def test_a_code_lets_a_new_device_claim_a_member_and_folds_the_member_it_made_alone() -> None:
    roster = two_devices()
    roster.issue("jo", "hash-1", NOW)
    member = roster.redeem("hash-1", "phone", NOW + timedelta(minutes=1))
    assert member.id == "jo"
    assert list(roster.members) == ["jo"]
    assert sorted(roster.seats_of("jo")) == [("t1", 0), ("t2", 1)]
    assert roster.member_of_device("phone") == roster.members["jo"]


def test_a_claimed_member_with_another_device_is_not_folded() -> None:
    roster = two_devices()
    roster.issue("jojo", "h", NOW)
    roster.redeem("h", "tablet", NOW)  # the tablet is Jojo's too
    roster.issue("jo", "h2", NOW)
    roster.redeem("h2", "phone", NOW)  # the phone goes to Jo; the tablet keeps Jojo
    assert sorted(roster.members) == ["jo", "jojo"]
    assert roster.devices == {"laptop": "jo", "phone": "jo", "tablet": "jojo"}


def test_a_code_is_used_once() -> None:
    roster = two_devices()
    roster.issue("jo", "h", NOW)
    roster.redeem("h", "phone", NOW)
    with pytest.raises(ClaimError, match="wrong or expired"):
        roster.redeem("h", "tablet", NOW)


def test_a_code_expires() -> None:
    roster = two_devices()
    roster.issue("jo", "h", NOW)
    with pytest.raises(ClaimError) as refused:
        roster.redeem("h", "phone", NOW + CODE_LIFETIME)
    assert refused.value.code == "wrong-code"
    assert roster.member_of_device("phone") is not None and roster.devices["phone"] == "jojo"


def test_wrong_codes_are_bounded_until_the_host_issues_another() -> None:
    roster = two_devices()
    roster.issue("jo", "right", NOW)
    for _ in range(MAX_FAILURES):
        with pytest.raises(ClaimError, match="wrong"):
            roster.redeem("guess", "phone", NOW)
    with pytest.raises(ClaimError) as locked:
        roster.redeem("right", "phone", NOW)  # even the right code, now
    assert locked.value.code == "locked"
    roster.issue("jo", "fresh", NOW)
    assert roster.redeem("fresh", "phone", NOW).id == "jo"


def test_the_host_merges_two_members_keeping_one_id_and_name() -> None:
    roster = two_devices()
    kept = roster.merge("jo", "jojo")
    assert (kept.id, kept.name) == ("jo", "Jo")
    assert roster.devices == {"laptop": "jo", "phone": "jo"}
    assert sorted(roster.seats_of("jo")) == [("t1", 0), ("t2", 1)]
    with pytest.raises(ClaimError):
        roster.merge("jo", "jo")
    with pytest.raises(ClaimError) as gone:
        roster.merge("jo", "jojo")
    assert gone.value.code == "no-such-member"


def test_a_member_is_renamed_only_to_a_printable_name() -> None:
    roster = two_devices()
    assert roster.rename("jo", "  Jo   Smith ").name == "Jo Smith"
    for bad in ("", "   ", "x" * 41, "a\x00b"):
        with pytest.raises(ClaimError):
            roster.rename("jo", bad)


def test_codes_are_read_back_as_typed() -> None:
    code = new_code()
    assert len(code) == 11 and code[5] == "-"
    assert set(code.replace("-", "")) <= set(CODE_ALPHABET)
    assert normal_code(code.lower().replace("-", " ")) == code.replace("-", "")


@given(st.lists(st.tuples(st.sampled_from(["seat", "merge", "claim"]),
                          st.integers(0, 5), st.integers(0, 5)), max_size=40))  # fmt: skip
def test_every_seat_and_device_belongs_to_a_member_whatever_happens(
    steps: list[tuple[str, int, int]],
) -> None:
    roster = Roster()
    seen_seats = set()
    for n, (what, a, b) in enumerate(steps):
        try:
            if what == "seat":
                roster.seat((f"t{a}", b), f"dev{a}", f"P{a}", new_id=f"m{n}")
                seen_seats.add((f"t{a}", b))
            elif what == "merge":
                roster.merge(f"m{a}", f"m{b}")
            else:
                roster.claim(f"dev{a}", f"m{b}")
        except ClaimError:
            pass
        assert set(roster.devices.values()) <= set(roster.members)
        assert set(roster.seats.values()) <= set(roster.members)
        assert set(roster.seats) == seen_seats  # a seat, once known, is never lost
