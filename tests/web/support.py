"""Helpers for the web tests: the server as `castell serve` builds it, in this process."""

from __future__ import annotations

from typing import Any

from castell_web.app import create_app
from castell_web.guard import Policy

from castell_dsl.cli.services import HostServices

#: The host's services, as `castell serve` is handed them.
SERVICES = HostServices()


def web_app(store: Any, **options: Any) -> Any:
    """The server as on loopback, also answering to Starlette's test client's host name
    (`testserver`, which its WebSocket connections always use), on the host's services."""
    options.setdefault("policy", Policy.for_address("127.0.0.1", ["testserver"]))
    options.setdefault("services", SERVICES)
    return create_app(store, **options)
