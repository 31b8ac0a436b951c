"""Wrong claim codes are counted per device and per address: a guesser is stopped after
its own few, and nobody else is (guts.club.guesses)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from guts.club.guesses import ADDRESS_TRIES, DEVICE_TRIES, Guesses

DEVICES = st.sampled_from([f"dev-{n}" for n in range(6)])
ADDRESSES = st.sampled_from(["10.0.0.1", "10.0.0.2", "10.0.0.3"])
CLUBS = st.sampled_from(["k1", "k2"])


@given(st.lists(st.tuples(CLUBS, DEVICES, ADDRESSES), max_size=300))
def test_no_guesser_locks_out_another_device_at_another_address(
    tries: list[tuple[str, str, str]],
) -> None:
    guesses = Guesses()
    wrong: dict[tuple[str, str], int] = {}
    for club, device, address in tries:
        if guesses.may_try(club, device, address):
            guesses.wrong(club, device, address)
            wrong[club, device] = wrong.get((club, device), 0) + 1
    for club in ("k1", "k2"):
        assert guesses.may_try(club, "a-fresh-device", "192.0.2.1")  # nobody else is stopped
    assert all(count <= DEVICE_TRIES for count in wrong.values())  # each is stopped itself


def test_a_device_is_stopped_after_its_tries_and_an_address_after_its_own() -> None:
    guesses = Guesses()
    left = [guesses.wrong("k1", "griefer", "10.0.0.1") for _ in range(DEVICE_TRIES)]
    assert left == list(range(DEVICE_TRIES - 1, -1, -1))
    assert not guesses.may_try("k1", "griefer", "10.0.0.1")
    assert not guesses.may_try("k1", "griefer", "10.0.0.9")  # the device, from anywhere
    assert guesses.may_try("k2", "griefer", "10.0.0.1")  # another club counts its own
    for n in range(ADDRESS_TRIES - DEVICE_TRIES):  # fresh devices from the same address
        assert guesses.may_try("k1", f"fresh-{n}", "10.0.0.1")
        guesses.wrong("k1", f"fresh-{n}", "10.0.0.1")
    assert not guesses.may_try("k1", "another-fresh-one", "10.0.0.1")
    assert guesses.may_try("k1", "player", "10.0.0.2")
    guesses.reset("k1")  # the host issued a new code
    assert guesses.may_try("k1", "griefer", "10.0.0.1")


def test_the_counts_stay_bounded_and_a_guessers_own_count_is_kept() -> None:
    guesses = Guesses(device_tries=3, address_tries=5, capacity=50)
    for n in range(200):  # one address, each guess a fresh device: the address stays counted
        if guesses.may_try("k1", f"dev-{n}", "10.0.0.1"):
            guesses.wrong("k1", f"dev-{n}", "10.0.0.1")
    assert len(guesses.counts) <= 50
    assert not guesses.may_try("k1", "dev-new", "10.0.0.1")
    for n in range(200):  # many addresses: the oldest counts go, the memory stays bounded
        guesses.wrong("k1", f"d{n}", f"192.0.2.{n}")
    assert len(guesses.counts) == 50
