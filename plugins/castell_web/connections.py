"""Connections that cannot be held open for nothing: uvicorn's HTTP protocol with deadlines
and a per-address limit.

uvicorn closes an idle keep-alive connection after a few seconds, but a connection that sends
half a request (slowloris: a header line every few seconds, or a body that never ends) is kept
for as long as the client likes, so a few hundred of them take every file descriptor and
nobody else is served. `guarded_protocol` returns uvicorn's h11 protocol with:

- a deadline on every request: from the connection's first byte (or its opening, or the end
  of the previous response) until the whole request, headers and body, has arrived, at most
  `Limits.request_seconds`; past it the connection is closed;
- at most `Limits.connections_per_client` open connections (HTTP and WebSocket alike) from one
  client address, beyond which a new connection is closed at once.

uvicorn's own settings do the rest (`castell serve` passes them): `limit_concurrency` (the
server-wide number of connections, kept below the open-file limit), `timeout_keep_alive`,
`h11_max_incomplete_event_size` (the largest request head), the WebSocket message size and
its ping timeout.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from .limits import Limits

#: States of the client's side in which the whole request has arrived (or is no longer read).
RECEIVED = (h11.DONE, h11.MUST_CLOSE, h11.CLOSED, h11.SWITCHED_PROTOCOL, h11.ERROR)


def guarded_protocol(limits: Limits) -> type[H11Protocol]:
    """uvicorn's h11 protocol class with the deadlines and limits above (one per server: it
    counts that server's connections per address)."""
    per_address: Counter[str] = Counter()

    class GuardedH11Protocol(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None
        _address: str | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            address = self.client[0] if self.client else None
            if limits.connections_per_client and address is not None:
                if per_address[address] >= limits.connections_per_client:
                    transport.close()
                    return
                per_address[address] += 1
                self._address = address
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            self._release()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            self._arm()  # a request is (still) arriving
            super().data_received(data)
            if self.conn.their_state in RECEIVED:
                self._disarm()

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            self._disarm()
            super().handle_websocket_upgrade(event)
            # The WebSocket protocol now owns the connection: free the address's slot when
            # it ends, since this protocol's connection_lost will not be called.
            protocol: Any = self.transport.get_protocol()
            if protocol is not self and self._address is not None:
                address, self._address = self._address, None
                lost = protocol.connection_lost

                def connection_lost(exc: Exception | None) -> None:
                    _release(address)
                    lost(exc)

                protocol.connection_lost = connection_lost

        def _arm(self) -> None:
            if self._deadline is None and not self.transport.is_closing():
                self._deadline = self.loop.call_later(limits.request_seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if self.conn.their_state not in RECEIVED and not self.transport.is_closing():
                self.transport.close()

        def _release(self) -> None:
            if self._address is not None:
                _release(self._address)
                self._address = None

    def _release(address: str) -> None:
        per_address[address] -= 1
        if per_address[address] <= 0:
            del per_address[address]

    return GuardedH11Protocol
