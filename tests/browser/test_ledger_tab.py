"""The ledger tab while a deal is on: the antes are in the pot, so the nets do not add up
to zero and the page shows no settlement but why (the server's ``unsettled`` line)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser_helpers import Person, Server, buttons
from play import add_bot, ledger_shows, server_rows, start


def test_the_ledger_says_why_there_is_no_settlement_mid_deal(
    chromium: Any, server: Server, shots: Path
) -> None:
    created = server.open_table("two-card-guts", buy_in=50, auto_approve=True, clock=0)
    ann = Person(chromium, "Ann", shots)
    ann.open(created["host_url"])
    ann.join()
    add_bot(ann, "threshold")
    start(ann)
    page = ann.page
    page.wait_for_function("window.gutsState.decision !== null")  # Ann to declare
    assert buttons(page), "Ann has a decision to make"
    secret = created["host_url"].split("#host=")[1]
    ledger = server.ledger(created["table_id"], secret)
    assert ledger["settlement"] == [] and "still in the pot" in ledger["unsettled"]
    ledger_shows(ann, server_rows(ledger))
    page.wait_for_selector("#ledger p.unsettled")
    shown = page.inner_text("#ledger p.unsettled")
    assert shown == f"No settlement yet: {ledger['unsettled']}."
    assert page.locator("#ledger ul.settlement").count() == 0
    ann.shot("ledger-mid-deal")
    assert not ann.errors, ann.errors
