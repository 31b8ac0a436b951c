"""A club host's housekeeping and a refused joiner, in the page, on a laptop and a phone:
the host takes a table off the club, removes a member and deletes the club (each asked
first); a player whose seat the host refused asks again, is seated, and then counts for
the club. Under the server's own Content-Security-Policy, with no script error."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
from browser_helpers import PHONE, WAIT, Person, Server
from test_club import seated_member


def club_of(server: Server, name: str = "Friday game") -> dict[str, str]:
    made = httpx.post(f"{server.url}/api/clubs", json={"name": name}, timeout=WAIT)
    assert made.status_code == 201, made.text
    return {"id": made.json()["club_id"], "secret": made.json()["club_secret"], "name": name}


def host_view(server: Server, club: dict[str, str]) -> httpx.Response:
    secret = {"authorization": f"Bearer {club['secret']}"}
    return httpx.get(f"{server.url}/api/clubs/{club['id']}", headers=secret, timeout=WAIT)


def fits(person: Person) -> bool:
    """Nothing of the page runs past the right edge of its screen."""
    width: int = person.page.evaluate("document.documentElement.scrollWidth")
    return width <= person.page.viewport_size["width"]  # type: ignore[index]


def test_the_host_takes_a_table_off_removes_a_member_and_deletes_the_club(
    chromium: Any, server: Server, shots: Path
) -> None:
    club = club_of(server)
    jo, al = seated_member(server, club, "Jo"), seated_member(server, club, "Al")
    host = Person(chromium, "Host", shots, strict_csp=True)
    page = host.page
    answers: list[bool] = [False]  # the first question is dismissed: nothing happens
    asked: list[str] = []

    def answer(dialog: Any) -> None:
        asked.append(dialog.message)
        if answers.pop(0) if answers else True:
            dialog.accept()
        else:
            dialog.dismiss()

    page.on("dialog", answer)
    page.goto(f"{server.url}/c/{club['id']}#host={club['secret']}")
    page.get_by_text("You host this club: 2 members, 2 tables.").wait_for()
    assert page.locator("#club-tables tbody tr").count() == 2
    host.shot("host-tables-and-members")
    al_row = page.locator(f"#members tbody tr[data-member='{al}']")
    al_row.locator(".remove-button").click()
    assert "Remove Al from the club?" in asked[-1]
    assert page.locator("#members tbody tr").count() == 2  # dismissed: Al stays
    al_row.locator(".remove-button").click()
    page.get_by_text("Al is no longer a member.").wait_for()
    assert page.locator("#members tbody tr").count() == 1
    assert [m["id"] for m in host_view(server, club).json()["members"]] == [jo]

    phone = Person(chromium, "Host-phone", shots, PHONE, strict_csp=True)
    phone.page.on("dialog", lambda dialog: dialog.accept())
    phone.page.goto(f"{server.url}/c/{club['id']}#host={club['secret']}")
    phone.page.get_by_text("You host this club: 1 member, 2 tables.").wait_for()
    assert fits(phone)
    phone.page.locator("#tables-box").scroll_into_view_if_needed()
    phone.shot("host-tables-on-a-phone")
    untable = phone.page.locator("#club-tables tbody tr .untable-button").first  # the newest
    box = untable.bounding_box()
    assert box is not None and box["x"] + box["width"] <= PHONE[0]  # in reach on the phone
    untable.click()
    phone.page.get_by_text("no longer counts for the club").wait_for()
    assert phone.page.locator("#club-tables tbody tr").count() == 1
    assert host_view(server, club).json()["tables"] == 1
    phone.shot("a-table-taken-off")

    page.reload()
    page.get_by_text("You host this club: 1 member, 1 table.").wait_for()
    page.click("#danger summary")
    host.shot("before-deleting-the-club")
    page.click("#delete-club")
    assert "Delete Friday game for good?" in asked[-1]
    page.get_by_text("Friday game is deleted").wait_for()
    assert page.locator("#members-box").is_hidden() and page.locator("#tables-box").is_hidden()
    kept = page.evaluate(f"localStorage.getItem('guts:club-secret:{club['id']}')")
    assert kept is None  # the browser forgets the secret of a club that is no more
    assert host_view(server, club).status_code == 403
    host.shot("the-club-deleted")
    for person in (host, phone):
        assert not person.errors, person.errors
        person.close()


def test_a_refused_joiner_asks_again_and_counts_for_the_club(
    chromium: Any, server: Server, shots: Path
) -> None:
    club = club_of(server, "Tuesday game")
    created = server.open_table("two-card-guts", buy_in=50, bots=2, bot="random", start=False)
    body = {"table_id": created["table_id"], "host_secret": created["host_secret"]}
    secret = {"authorization": f"Bearer {club['secret']}"}
    attached = httpx.post(f"{server.url}/api/clubs/{club['id']}/tables", json=body,
                          headers=secret, timeout=WAIT)  # fmt: skip
    assert attached.status_code == 200, attached.text
    host = Person(chromium, "Host", shots)
    host.open(created["host_url"])
    kim = Person(chromium, "Kim", shots, PHONE)
    kim.open(created["join_url"])
    kim.join()
    refuse = host.page.locator(".request-notice button.refuse")
    refuse.click()
    kim.page.get_by_text("The host did not give you a seat.").wait_for()
    again = kim.page.locator("#ask-again")
    assert again.is_visible() and fits(kim)
    kim.shot("refused-with-ask-again")
    again.click()
    kim.page.locator("#join-form").wait_for()
    assert kim.page.input_value("#nickname") == "Kim"  # the nickname is kept for the new ask
    kim.shot("asking-again")
    kim.page.click("#join-form button[type=submit]")
    kim.page.get_by_text("Waiting for the host to approve Kim").wait_for()
    host.page.locator(".request-notice button.approve").click()
    kim.page.get_by_text("You are seated as Kim").wait_for()
    kim.page.locator("#club-link").wait_for()  # the new seat counts for the club
    seats = server.summary(created["table_id"])["seats"]
    assert [s["status"] for s in seats if s["nickname"] == "Kim"] == ["approved"]
    members = host_view(server, club).json()["members"]
    assert [m["name"] for m in members] == ["Kim"]
    key = kim.page.evaluate("localStorage.getItem('guts:device')")
    mine = httpx.get(f"{server.url}/api/clubs/{club['id']}/me",
                     headers={"authorization": f"Bearer {key}"}, timeout=WAIT)  # fmt: skip
    assert mine.status_code == 200
    kim.shot("seated-after-asking-again")
    for person in (host, kim):
        assert not person.errors, person.errors
        person.close()
