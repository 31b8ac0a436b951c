"""The host seats bots where they like from the host panel of a real Chromium: a bot
in the seat picked (the others free), another in the next free seat; the lobby lists the
seats in order, and the game deals them in that order around the table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser_helpers import Person, Server
from play import start


def add_bot_at(host: Person, kind: str, seat: str) -> None:
    """Add a bot of ``kind`` in ``seat`` (a label of the seat selector) from the host panel."""
    page = host.page
    page.click("#tab-host")
    seats = host.value("state.seats.length")
    page.select_option("#bot-kind", kind)
    page.select_option("#bot-seat", label=seat)
    page.click("#add-bot")
    page.wait_for_function(f"window.gutsState.seats.length > {seats}")


def test_the_host_seats_bots_where_they_like(chromium: Any, server: Server, shots: Path) -> None:
    created = server.open_table("two-card-guts", buy_in=50, auto_approve=True, clock=0)
    ann = Person(chromium, "Ann", shots)
    ann.open(created["host_url"])
    ann.join()
    add_bot_at(ann, "threshold", "Seat 4")
    add_bot_at(ann, "random", "next free seat")
    page = ann.page
    offered = page.eval_on_selector_all("#bot-seat option", "all => all.map(o => o.text)")
    assert offered[:3] == ["next free seat", "Seat 3", "Seat 5"], offered
    seats = {seat["seat_id"]: seat for seat in ann.value("state.seats")}
    assert sorted(seats) == [0, 1, 3] and seats[3]["kind"] == "threshold"
    assert seats[1]["kind"] == "random"
    lobby = page.eval_on_selector_all(".lobby-seats li", "all => all.map(li => li.innerText)")
    assert [line.split(" —")[0] for line in lobby] == [
        f"Seat {n + 1} {seats[n]['nickname']}" for n in (0, 1, 3)
    ]
    ann.shot("bots-seated")

    start(ann)
    names = ann.value("state.game.players")
    assert [seats[n]["nickname"] for n in (0, 1, 3)] == names
    assert [seats[n]["kind"] for n in (0, 1, 3)] == ["person", "random", "threshold"]
    page.wait_for_selector(f".seat[data-seat='2']:has-text('{names[2]}') .badge:has-text('bot')")
    ann.shot("dealt-in-seat-order")
    assert not ann.errors, ann.errors
