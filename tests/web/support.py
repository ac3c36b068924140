"""Helpers for the web tests: the server as `castell serve` builds it, in this process."""

from __future__ import annotations

from typing import Any

from castell_web.app import create_app
from castell_web.guard import Policy


def web_app(store: Any, **options: Any) -> Any:
    """The server as on loopback, also answering to Starlette's test client's host name
    (`testserver`, which its WebSocket connections always use)."""
    options.setdefault("policy", Policy.for_address("127.0.0.1", ["testserver"]))
    return create_app(store, **options)
