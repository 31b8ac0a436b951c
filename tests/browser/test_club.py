"""A club in the page, as a host and a player would use it: the host starts a club in the
lobby and the tables it opens count for it; a player who sits at two of its tables (with
two nicknames, on one phone) is one member, sees their own nights and net plotted; the
host sees every member, issues a code, and downloads the CSV; on a new phone the player
claims their membership with that code. The club pages run under the server's own
Content-Security-Policy, with no request refused and no script error."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import httpx
from browser_helpers import PHONE, WAIT, Person, Server
from play import play, start


def strict(chromium: Any, name: str, shots: Path, viewport: tuple[int, int] = (1280, 800)
           ) -> tuple[Person, list[str]]:  # fmt: skip
    """A person whose page runs under the server's policy, and the policy's refusals."""
    person = Person(chromium, name, shots, viewport, strict_csp=True)
    refused: list[str] = []
    person.page.on("console", lambda message: refused.append(message.text)
                   if "Content Security Policy" in message.text else None)  # fmt: skip
    return person, refused


def play_a_night(server: Server, jo: Person, nickname: str, club: dict[str, str]) -> None:
    """A table of two bots counted for the club; ``jo`` sits as ``nickname`` (the host
    of the table) and plays it to its end by clicking, going in where asked."""
    created = server.open_table("two-card-guts", buy_in=50, auto_approve=True, bots=2,
                                bot="random", options={"max-deals": "3"})  # fmt: skip
    body = {"table_id": created["table_id"], "host_secret": created["host_secret"]}
    attached = httpx.post(f"{server.url}/api/clubs/{club['id']}/tables", json=body,
                          headers={"authorization": f"Bearer {club['secret']}"},
                          timeout=WAIT)  # fmt: skip
    assert attached.status_code == 200, attached.text
    jo.name = nickname
    jo.open(created["host_url"])
    jo.join()
    start(jo)

    def choose(person: Person, found: dict[str, Any]) -> bool:
        if not found:
            return False
        found["in" if "in" in found else sorted(found)[0]].click()
        return True

    play([jo], choose, lambda: jo.status() == "over", seconds=120)
    link = jo.page.locator("#club-link")
    link.wait_for()  # the seat counted for the club
    assert link.inner_text() == "Club"
    assert link.get_attribute("title") == "Friday game: the club's page (your nights and stats)"
    link.scroll_into_view_if_needed()
    box = link.bounding_box()
    assert box is not None and box["x"] + box["width"] <= jo.page.viewport_size["width"]  # type: ignore[index]
    jo.shot(f"table-over-{nickname}")


def seated_member(server: Server, club: dict[str, str], nickname: str) -> str:
    """A member made by a seat (its own device) at a new club table, not played; its id."""
    import secrets

    from websockets.sync.client import connect

    created = server.open_table("two-card-guts", buy_in=50, auto_approve=True, start=False)
    body = {"table_id": created["table_id"], "host_secret": created["host_secret"]}
    httpx.post(f"{server.url}/api/clubs/{club['id']}/tables", json=body,
               headers={"authorization": f"Bearer {club['secret']}"}, timeout=WAIT)  # fmt: skip
    with connect(f"ws://127.0.0.1:{server.port}/ws/{created['table_id']}") as ws:
        ws.send(json.dumps({"type": "join", "nickname": nickname}))
        for _ in range(50):
            frame = json.loads(ws.recv(timeout=WAIT))
            if frame["type"] == "welcome":
                break
    seat = {"authorization": f"Bearer {frame['token']}"}
    device = {"device": secrets.token_urlsafe(32)}
    path = f"/api/tables/{created['table_id']}/club"
    linked = httpx.post(server.url + path, json=device, headers=seat, timeout=WAIT)
    assert linked.status_code == 200, linked.text
    member: str = linked.json()["member"]["id"]
    return member


def test_a_club_from_the_lobby_to_a_claim_on_a_new_phone(
    chromium: Any, server: Server, shots: Path
) -> None:
    host, host_refused = strict(chromium, "Host", shots)
    page = host.page
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready=yes]")
    host.shot("lobby-without-a-club")
    page.fill("#club-name", "Friday game")
    page.click("#club-start")
    page.locator("#club-use").wait_for()
    assert page.is_checked("#club-use")
    page.click("#open")
    page.get_by_text("This table counts for Friday game.").wait_for()
    host.shot("lobby-table-counted")
    club = json.loads(page.evaluate("localStorage.getItem('guts:hosted-club')"))
    assert page.get_attribute("#club-page", "href") == f"/c/{club['id']}"

    jo = Person(chromium, "Jo", shots, PHONE)  # one phone, two nights, two nicknames
    play_a_night(server, jo, "Jo", club)
    play_a_night(server, jo, "Joanna", club)
    jo.page.click("#club-link")
    jo.page.get_by_text("You are Jo here.").wait_for()
    assert jo.page.locator("#members tbody tr").count() == 1
    nights = jo.page.locator("#nights tbody tr")
    assert nights.count() == 2 and "Joanna" in nights.first.inner_text()  # newest first
    assert jo.page.locator("#net-plot .night-dot").count() == 2  # a point a night
    assert jo.page.locator("#games table[data-family=guts]").count() == 1
    key = jo.page.evaluate("localStorage.getItem('guts:device')")
    mine = httpx.get(f"{server.url}/api/clubs/{club['id']}/me",
                     headers={"authorization": f"Bearer {key}"}, timeout=WAIT).json()  # fmt: skip
    positions = {row[0] for f in mine["members"][0]["families"] for row in f["by_position"]}
    assert positions and jo.page.locator("#positions-plot .position-bar").count() == len(positions)
    assert jo.page.locator("#claim-box").is_hidden()
    jo.shot("member-view-phone")
    jo.page.screenshot(path=str(shots / "member-view-phone-whole.png"), full_page=True)

    page.goto(f"{server.url}/c/{club['id']}")
    page.get_by_text("You host this club").wait_for()
    rows = page.locator("#members tbody tr")
    assert rows.count() == 1 and "Jo" in rows.first.inner_text()
    cells = rows.first.locator("td")
    assert cells.nth(1).inner_text() == "2"  # nights
    with page.expect_download() as downloaded:
        page.click("#csv-members")
    text = Path(downloaded.value.path()).read_text()
    members = list(csv.DictReader(io.StringIO(text)))
    assert [(m["name"], m["nights"]) for m in members] == [("Jo", "2")]
    assert cells.nth(2).inner_text() == f"{int(members[0]['net']):+d}".replace("+0", "0")
    page.click(".code-button")
    code = page.locator("#code-line .code").inner_text()
    assert len(code) == 11
    host.shot("host-view-laptop")
    page.screenshot(path=str(shots / "host-view-laptop-whole.png"), full_page=True)

    phone, phone_refused = strict(chromium, "Jo-new-phone", shots, PHONE)
    phone.page.goto(f"{server.url}/c/{club['id']}")
    phone.page.locator("#claim-box").wait_for()
    phone.page.get_by_text("not a member of this club yet").wait_for()
    phone.shot("not-yet-a-member")
    phone.page.fill("#code", code.lower())
    phone.page.click("#claim button[type=submit]")
    phone.page.get_by_text("You are Jo here.").wait_for()
    phone.page.get_by_text("This device is Jo at Friday game from now on.").wait_for()
    phone.shot("claimed-on-a-new-phone")

    page.reload()
    page.get_by_text("You host this club").wait_for()
    assert page.locator("#members tbody tr td").nth(3).inner_text() == "2"  # two devices

    al = seated_member(server, club, "Al")  # the same person, before a claim: the host merges
    page.reload()
    page.locator("#merge-box").wait_for()
    jo_id = page.locator("#merge-keep option", has_text="Jo (").get_attribute("value")
    page.select_option("#merge-keep", value=jo_id)
    page.select_option("#merge-gone", value=al)
    host.shot("before-the-merge")
    page.click("#merge button[type=submit]")
    page.locator("#merge-box").wait_for(state="hidden")  # one member left: nothing to merge
    assert page.locator("#members tbody tr").count() == 1
    assert page.locator("#members tbody tr td").nth(3).inner_text() == "3"  # Al's device too
    assert not host_refused and not phone_refused, host_refused + phone_refused
    for person in (host, jo, phone):
        assert not person.errors, person.errors
        person.close()
