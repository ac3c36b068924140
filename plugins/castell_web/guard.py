"""What the server checks of every request before a route sees it, and adds to every answer.

- **Security headers on every response** (pages, the API, static files, errors the router or
  the server itself produces): no framing, no sniffing, scripts and connections from this
  origin only, no referrer, and `no-store` for the API (creation answers carry seat tokens).
- **Host.** A server on loopback answers only to loopback host names, so a web page whose
  name is made to resolve to 127.0.0.1 (DNS rebinding) cannot talk to it as if same-origin.
  `castell serve --allowed-host NAME` adds names (a LAN address, the proxy's public name).
- **Origin.** A browser says which page sent a request. A request that changes something
  (any method but GET, HEAD and OPTIONS) and every WebSocket handshake must come from this
  server's own origin (the Origin's host and port are the request's Host) or one configured
  with `--allowed-origin`; a request without Origin is not from a browser page and is allowed.
- **JSON bodies** (`read_json`): only `application/json`, at most `Limits.body_bytes`, read
  within `Limits.request_seconds`, parsed by the project's bounded JSON reader. Anything else is
  a 4xx with an `error` message, never a 500.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from castell_dsl.safejson import JsonLimitError, loads_bounded

from .limits import Limits

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Host names that reach only this machine.
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})
#: Methods that change nothing (no Origin check).
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = tuple(
    (name.lower().encode(), value.encode())
    for name, value in {
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": "DENY",
        "Referrer-Policy": "no-referrer",
        "Content-Security-Policy": (
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
            "connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; "
            "form-action 'self'"
        ),
        "Cross-Origin-Opener-Policy": "same-origin",
        "Cross-Origin-Resource-Policy": "same-origin",
        "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
    }.items()
)
NO_STORE = (b"cache-control", b"no-store")


class BadRequest(Exception):
    """A request refused before its route ran: the status and the reason, for people."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True)
class Policy:
    """Which hosts and origins the server accepts (see the module docstring)."""

    #: Host names accepted in the Host header (None: any; a server on loopback: loopback names).
    hosts: frozenset[str] | None = None
    #: Origins accepted besides the server's own (`https://castell.example.org`).
    origins: frozenset[str] = frozenset()

    @classmethod
    def for_address(
        cls, host: str, allowed_hosts: Iterable[str] = (), allowed_origins: Iterable[str] = ()
    ) -> Policy:
        """The policy of a server listening on `host`: on loopback, only loopback names (and
        the ones given) reach it; on another address any name does unless names are given."""
        names = {h.lower() for h in allowed_hosts}
        if host in LOOPBACK_NAMES:
            names |= LOOPBACK_NAMES
        origins = frozenset(o.rstrip("/").lower() for o in allowed_origins)
        return cls(frozenset(names) if names else None, origins)

    def host_allowed(self, host: str | None) -> bool:
        if self.hosts is None:
            return True
        return host is not None and _hostname(host) in self.hosts

    def origin_allowed(self, origin: str | None, host: str | None) -> bool:
        if origin is None:
            return True  # not sent by a browser page: nothing cross-site to prevent
        origin = origin.strip().lower()
        if origin in self.origins:
            return True
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https", "ws", "wss") or not parts.netloc:
            return False  # `null` (a sandboxed frame, a file), or not an origin at all
        return host is not None and _authority(parts.scheme, parts.netloc) == _authority(
            parts.scheme, host.strip().lower()
        )


def _hostname(host: str) -> str:
    host = host.strip().lower()
    if host.startswith("["):
        return host[: host.find("]") + 1]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _authority(scheme: str, netloc: str) -> str:
    """host:port with the scheme's default port written out (`a` and `a:80` are one)."""
    default = "443" if scheme in ("https", "wss") else "80"
    name = _hostname(netloc)
    port = netloc[len(name) :].lstrip(":") or default
    return f"{name}:{port}"


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers") or ():
        if key.lower() == name:
            return value.decode("latin-1")
    return None


class Guard:
    """The ASGI application around the server's: the checks and headers above. Outermost, so
    even an error response from the framework gets the headers."""

    def __init__(self, app: Any, policy: Policy) -> None:
        self.app = app
        self.policy = policy

    @property
    def state(self) -> Any:
        """The wrapped application's state (its lobby, its limits), as tests reach it."""
        return self.app.state

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = _header(scope, b"host")
        origin = _header(scope, b"origin")
        problem = None
        if not self.policy.host_allowed(host):
            problem = f"this server does not answer to the host name {host!r}"
        elif (kind == "websocket" or scope.get("method") not in SAFE_METHODS) and not (
            self.policy.origin_allowed(origin, host)
        ):
            problem = f"requests from the page at {origin!r} are not accepted"
        if kind == "websocket":
            if problem is not None:
                await receive()  # websocket.connect
                await send({"type": "websocket.close", "code": 1008, "reason": problem[:120]})
                return
            await self.app(scope, receive, send)
            return
        api = str(scope.get("path", "")).startswith("/api/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or [])
                present = {key.lower() for key, _ in headers}
                headers += [h for h in SECURITY_HEADERS if h[0] not in present]
                if api and NO_STORE[0] not in present:
                    headers.append(NO_STORE)
                message["headers"] = headers
            await send(message)

        if problem is not None:
            await _send_error(send_with_headers, 403, problem)
            return
        await self.app(scope, receive, send_with_headers)


async def _send_error(send: Send, status: int, message: str) -> None:
    from castell_dsl.contract.protocol import encode

    body = encode({"error": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def read_json(request: Any, limits: Limits) -> Any:
    """The request's JSON body, bounded (BadRequest with a 4xx status otherwise)."""
    kind = (request.headers.get("content-type") or "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise BadRequest(415, "send the request body as JSON (Content-Type: application/json)")
    declared = request.headers.get("content-length")
    if declared is not None:
        if not declared.isdigit():
            raise BadRequest(400, "the Content-Length header is not a number")
        if int(declared) > limits.body_bytes:
            raise BadRequest(413, f"the request is larger than {limits.body_bytes // 1024} KiB")

    async def body() -> bytes:
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > limits.body_bytes:
                raise BadRequest(413, f"the request is larger than {limits.body_bytes // 1024} KiB")
            chunks.append(chunk)
        return b"".join(chunks)

    try:
        data = await asyncio.wait_for(body(), limits.request_seconds)
    except TimeoutError:
        raise BadRequest(408, "the request body did not arrive in time") from None
    try:
        return loads_bounded(data, max_chars=limits.body_bytes, max_depth=limits.body_depth)
    except JsonLimitError as exc:
        raise BadRequest(400, f"the request body is not usable JSON: {exc}") from None
