"""Moved to `castell_dsl.contract.protocol` (front-ends import the contract); kept here so
that `castell_dsl.runtime.protocol` still imports."""

from __future__ import annotations

from ..contract.protocol import (
    MAX_DEPTH,
    MAX_MESSAGE,
    PROTOCOL,
    ProtocolError,
    checked,
    encode,
    error,
    event,
    hello,
    hint,
    presence,
    read_client,
    rejection,
    result,
    saved,
    state,
    undone,
)

__all__ = [
    "MAX_DEPTH",
    "MAX_MESSAGE",
    "PROTOCOL",
    "ProtocolError",
    "checked",
    "encode",
    "error",
    "event",
    "hello",
    "hint",
    "presence",
    "read_client",
    "rejection",
    "result",
    "saved",
    "state",
    "undone",
]
