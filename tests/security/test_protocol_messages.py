"""One reader for every front-end's incoming messages (JSON lines and WebSocket alike): bounded in
size and nesting, so a hostile peer gets a protocol error, never a crash (docs/security.md)."""

from __future__ import annotations

import pytest

from castell_dsl.runtime.protocol import MAX_MESSAGE, ProtocolError, read_client


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("[" * 5_000 + "]" * 5_000, "bad-json"),  # deep nesting: no RecursionError
        ('{"a": ' * 20 + "1" + "}" * 20, "bad-json"),
        ('{"action": 1' + "0" * 5_000 + "}", "bad-json"),  # past Python's int-string limit
        ("x" * (MAX_MESSAGE + 1), "too-large"),
        ("[1, 2]", "bad-message"),
        ("{not json", "bad-json"),
        ("   ", "bad-message"),
    ],
)
def test_hostile_messages_are_protocol_errors(text, code):
    with pytest.raises(ProtocolError) as refused:
        read_client(text)
    assert refused.value.code == code


def test_plain_text_is_an_action_and_objects_pass_through():
    assert read_client("move Girona\n") == {"action": "move Girona"}
    assert read_client('{"command": "hint"}') == {"command": "hint"}
