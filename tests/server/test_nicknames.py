"""Nicknames that deceive are refused: normalised (NFKC), never blank to the eye, no
stacks of marks or line separators, and a name that looks like one at the table (its
Unicode confusable skeleton) is taken.

The audit: ``"\\u3164"`` and ``"\\u2800"`` showed as nothing; ``"Раt"`` (a Cyrillic Р),
fullwidth ``Ｐａｔ`` and ``"Pat\\ufe0f"`` passed as a second "Pat"; stacked combining
marks and U+2028 broke the layout.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from server_helpers import Recorder

from guts.server.actor import Settings, TableActor
from guts.server.names import skeleton
from guts.server.protocol import AddBot, Join, ProtocolError, read_message
from guts.server.storage import Storage
from guts.server.tables import Tables


def join_text(nickname: str) -> str:
    return json.dumps({"type": "join", "nickname": nickname})


@pytest.mark.parametrize(
    ("nickname", "why"),
    [
        ("\u3164", "show as nothing"),
        ("\u2800", "show as nothing"),
        ("\u3164Pat", "show as nothing"),
        ("Pa\u2028t", "show as nothing"),
        ("Pat\u2029x", "show as nothing"),
        ("Z\u0301\u0302\u0303\u0304", "at most 2 marks"),  # NFKC takes one into the Z
        ("\u0301\u0301", "show something"),
        ("\u200b", "control"),
        ("   ", "empty"),
        ("\u3000", "empty"),  # an ideographic space: NFKC makes it a space, then trimmed
    ],
)
def test_names_that_show_badly_are_refused(nickname: str, why: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        read_message(join_text(nickname))
    assert refused.value.code == "invalid" and why in refused.value.message


def test_names_are_normalised() -> None:
    message = read_message(join_text("  Ｐａｔ "))
    assert isinstance(message, Join) and message.nickname == "Pat"
    message = read_message(join_text("Jose\u0301"))  # two marks at most: one is fine
    assert isinstance(message, Join) and message.nickname == "José"


def test_skeletons_fold_what_looks_alike_and_keep_what_does_not() -> None:
    pat = skeleton("Pat")
    for alike in ("Раt", "Ｐａｔ", "Pat\ufe0f", "PAT", "pat", "P\u200bat"):
        assert skeleton(alike) == pat, alike
    assert skeleton("Al") == skeleton("AI")  # an l and a capital I
    for other in ("Pam", "Bob", "Sos", "Jo", "Ann"):
        assert skeleton(other) != pat


def test_a_name_that_looks_like_one_at_the_table_is_taken(sqlite_url: str) -> None:
    async def run() -> None:
        storage = await Storage.open(sqlite_url)
        tables = Tables(storage, Settings(bot_delay=0, deal_delay=3600))
        actor, secret = await tables.create("two-card-guts", {}, 50, auto_approve=True)
        try:
            await join(actor, "Pat")
            for alike in ("Раt", "Ｐａｔ", "Pat\ufe0f", "PAT"):
                with pytest.raises(ProtocolError, match=r"^taken:.*looks like 'Pat'|^taken:"):
                    await join(actor, alike)
            with pytest.raises(ProtocolError, match=r"^taken:"):
                await actor.call(AddBot(type="add_bot", secret=secret, bot="random",
                                        nickname="Раt"))  # fmt: skip
            await join(actor, "Pam")
            assert [s["nickname"] for s in actor.seat_list()] == ["Pat", "Pam"]
        finally:
            await tables.close()
            await storage.close()

    async def join(actor: TableActor, name: str) -> Any:
        client = Recorder()
        actor.attach(client)
        message = read_message(join_text(name))
        await actor.call(message, client)

    asyncio.run(run())
