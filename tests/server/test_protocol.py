"""The protocol: every inbound message is validated, anything else is an error with a
code and one line; ``docs/protocol.md`` is the models' current document."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from guts.client import terminal
from guts.server.protocol import (
    CLIENT_MESSAGES,
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    SERVER,
    Act,
    AddBot,
    Join,
    ProtocolError,
    protocol_document,
    read_message,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"

REFUSED: list[tuple[Any, str]] = [
    ("", "bad-json"),
    ("{", "bad-json"),
    ("[1, 2]", "bad-json"),
    ('"act"', "bad-json"),
    (b"\xff\xfe", "bad-json"),
    ('{"type": "act", "seat": 0, "action": "in", "client_seq": NaN}', "bad-json"),
    ('{"type": "chat", "text": "\\ud800"}', "bad-json"),  # a lone surrogate
    ('{"type": "act", "seat": 0, "action": "in", "client_seq": 1} x', "bad-json"),
    ('{"type": "act", "seat": 0, "action": "in", "client_seq": 1' + "0" * 30 + "}", "invalid"),
    ("{}", "unknown-type"),
    ('{"type": 3}', "unknown-type"),
    ('{"type": "Act", "seat": 0, "action": "in", "client_seq": 1}', "unknown-type"),
    ('{"type": "act", "seat": 0, "action": "in"}', "invalid"),
    ('{"type": "act", "seat": 0, "action": "in", "client_seq": 1, "extra": 1}', "invalid"),
    ('{"type": "act", "seat": "0", "action": "in", "client_seq": 1}', "invalid"),
    ('{"type": "act", "seat": true, "action": "in", "client_seq": 1}', "invalid"),
    ('{"type": "act", "seat": 0, "action": "in", "client_seq": 1.0}', "invalid"),
    ('{"type": "act", "seat": 0, "action": "in", "client_seq": 0}', "invalid"),
    ('{"type": "act", "seat": -1, "action": "in", "client_seq": 1}', "invalid"),
    ('{"type": "act", "seat": 0, "action": "", "client_seq": 1}', "invalid"),
    ('{"type": "act", "seat": 0, "action": ["in"], "client_seq": 1}', "invalid"),
    ('{"type": "join", "nickname": "   "}', "invalid"),
    ('{"type": "join", "nickname": "Jo\\u0000"}', "invalid"),
    ('{"type": "join", "nickname": "Jo\\u202eoJ"}', "invalid"),
    ('{"type": "join", "nickname": "' + "x" * 25 + '"}', "invalid"),
    ('{"type": "join", "nickname": "Jo", "buy_in": 0}', "invalid"),
    ('{"type": "join", "nickname": "Jo", "buy_in": "50"}', "invalid"),
    ('{"type": "chat", "text": "hi\\nthere"}', "invalid"),
    ('{"type": "start"}', "invalid"),
    ('{"type": "add_bot", "secret": "s", "bot": "clever"}', "invalid"),
    ('{"type": "resume", "last_seq": -1}', "invalid"),
    ('{"type": "join", "nickname": "' + "x" * MAX_MESSAGE_BYTES + '"}', "too-large"),
]


@pytest.mark.parametrize(("text", "code"), REFUSED)
def test_malformed_messages_are_refused_with_a_code_and_one_line(text: Any, code: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        read_message(text)
    error = caught.value.to_dict()
    assert error["code"] == code
    assert "\n" not in error["message"] and 0 < len(error["message"]) <= 200
    assert SERVER.validate_python(error)  # the error is itself a valid server message


def test_well_formed_messages_are_read() -> None:
    assert read_message('{"type": "join", "nickname": "  Jo  "}') == Join(
        type="join", nickname="Jo"
    )
    act = read_message(json.dumps({"type": "act", "seat": 2, "action": "r 20", "client_seq": 9}))
    assert act == Act(type="act", seat=2, action="r 20", client_seq=9)
    bot = read_message('{"type": "add_bot", "secret": "s"}')
    assert bot == AddBot(type="add_bot", secret="s", bot="sensible", nickname=None)


def test_the_protocol_document_is_current() -> None:
    assert DOC.read_text(encoding="utf-8") == protocol_document(), (
        "docs/protocol.md is stale: python -m guts.server.protocol > docs/protocol.md"
    )
    text = protocol_document()
    assert f"Protocol version: **{PROTOCOL_VERSION}**" in text
    for model in CLIENT_MESSAGES:
        kind = model.model_fields["type"].annotation.__args__[0]  # type: ignore[union-attr]
        assert f"### `{kind}`" in text


def test_the_terminal_client_and_the_page_speak_the_servers_version() -> None:
    page = Path(__file__).resolve().parents[2] / "src/guts/web/static/js/table.js"
    assert terminal.PROTOCOL == PROTOCOL_VERSION
    assert f"const PROTOCOL = {PROTOCOL_VERSION};" in page.read_text(encoding="utf-8")
