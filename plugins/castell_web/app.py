"""The ASGI application: the JSON API, the match WebSockets, the pages and their assets.

Routes (docs/web.md):

- `GET /` lobby, `GET /play/{id}` play (a seat's token in the URL fragment), `GET /watch/{id}`,
  `GET /replay` and `GET /replay/{id}`: static pages, the same for everyone.
- `GET /api/games`; `POST /api/matches`, `GET /api/matches`, `GET /api/matches/{id}`,
  `GET /api/matches/{id}/save` (once the match is over), `GET /api/matches/{id}/steps`,
  `POST /api/replay`.
- `WS /ws/matches/{id}?token=…`: the protocol (docs/protocol.md, "Over WebSocket").
- `/studio`, `/api/studio/…`, `/ws/studio`: the designer's studio (`studio.py`, docs/studio.md).

Every request first passes `guard.Guard` (Host, Origin, security headers); every body is read
by `guard.read_json`; every limit is in `limits.Limits` (docs/security.md, "The web server").
What the server needs of the host (installed games, sessions, saves, bots, worker processes)
it asks of the `FrontendServices` it is created with, and hands on to its parts.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from castell_dsl.contract import protocol as m
from castell_dsl.contract.services import FrontendServices

from .assets import STATIC, game_assets, renderer_url
from .bots import BotPool
from .guard import BadRequest, Guard, Policy, read_json
from .limits import Limits
from .lobby import Lobby, catalogue
from .matches import RATE_BURST, RATE_PER_SECOND, Connection, Refused
from .replays import steps_of
from .store import MatchStore, SqliteStore
from .studio import studio_routes

log = logging.getLogger("castell_web")


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def create_app(
    store: MatchStore | None = None,
    rate: tuple[float, float] = (RATE_BURST, RATE_PER_SECOND),
    *,
    services: FrontendServices,
    limits: Limits | None = None,
    policy: Policy | None = None,
) -> Guard:
    """The server for one store (None: matches live in memory only, for tests), running on
    the host's `services`. `rate` is each connection's message budget: a burst, then so many
    per second (`app.state.rate`, read at each new connection). `policy`: the hosts and
    origins accepted (by default, those of a server on loopback)."""
    limits = limits or Limits()
    bots = BotPool(services, limits.bot_workers, limits.bot_turn_seconds, limits.hint_seconds)
    lobby = Lobby(services, store, bots, limits)
    assets = game_assets(services)
    sockets = {"open": 0}
    # The studio keeps its variants in the server's database (in memory when it has none).
    studio, analyses = studio_routes(
        services,
        store if isinstance(store, SqliteStore) else SqliteStore(":memory:"),
        lobby,
        limits,
    )

    def page(name: str) -> Any:
        async def endpoint(_request: Request) -> Response:
            return FileResponse(STATIC / name)

        return endpoint

    async def games(_request: Request) -> Response:
        found = [
            {**game, "renderer": renderer_url(assets, game["mechanics"])}
            for game in await asyncio.to_thread(catalogue, services)
        ]
        # A program is offered only as one the administrator allowed (`--allow-agent`).
        bots = [name for name in services.bot_names() if name != "cmd"]
        bots += [f"cmd:{command}" for command in limits.agent_commands]
        return JSONResponse({"games": found, "bots": bots})

    async def body_of(request: Request) -> Any:
        try:
            return await read_json(request, limits)
        except ClientDisconnect:
            raise BadRequest(400, "the request body did not arrive") from None

    async def create(request: Request) -> Response:
        try:
            body = await body_of(request)
            new = await asyncio.to_thread(lobby.create, body)
        except BadRequest as exc:
            return _error(exc.status, exc.message)
        except Refused as exc:
            return _error(400, str(exc))
        match = new.match
        seats = []
        for seat, (spec, token) in enumerate(zip(match.session.seats, new.tokens, strict=True)):
            item: dict[str, Any] = {"seat": seat, "kind": spec}
            if token is not None:
                item["token"] = token
                item["url"] = f"/play/{match.id}#seat={seat}&token={token}"
            seats.append(item)
        match.kick()
        return JSONResponse(
            {"id": match.id, "seats": seats, "watch_url": f"/watch/{match.id}"}, status_code=201
        )

    async def list_matches(_request: Request) -> Response:
        return JSONResponse({"matches": [match.summary() for match in lobby.matches.values()]})

    def _match(request: Request) -> Any:
        return lobby.matches.get(request.path_params["id"])

    async def status(request: Request) -> Response:
        match = _match(request)
        if match is None:
            return _error(404, "no such match")
        return JSONResponse(match.summary())

    async def save(request: Request) -> Response:
        match = _match(request)
        if match is None:
            return _error(404, "no such match")
        if not match.game.is_over():
            return _error(
                403,
                "a save holds the match's seed, which tells future draws: it can be "
                "downloaded when the match is over",
            )
        async with match.lock:
            record = lobby.save(match.id)
        return JSONResponse(
            record,
            headers={"Content-Disposition": f'attachment; filename="castell-{match.id}.json"'},
        )

    async def steps(request: Request) -> Response:
        match = _match(request)
        if match is None:
            return _error(404, "no such match")
        async with match.lock:
            record = lobby.save(match.id)
            names = [match.label(i) for i in range(len(match.session.seats))]
            stood_in = list(match.seating.stood_in)
            # A studio variant has no installed name: the match's own rules replay it.
            own = match.game.rules if "studio" in match.record.rules else None
        return await _steps_response(record, names, stood_in, own)

    async def upload(request: Request) -> Response:
        try:
            record = await body_of(request)
        except BadRequest as exc:
            return _error(exc.status, exc.message)
        return await _steps_response(record)

    async def _steps_response(
        record: Any,
        names: list[str] | None = None,
        stood_in: list[int] | None = None,
        rules: Any = None,
    ) -> Response:
        """The replay's steps; `names`, `stood_in` (which actions a stand-in played) and
        `rules` come from a match on this server, not from an uploaded file."""
        try:
            found = await asyncio.to_thread(steps_of, services, record, names, rules)
        except Refused as exc:
            return _error(400, str(exc))
        found["stood_in"] = stood_in or []
        for_game = found.get("mechanics", "")
        found["renderer"] = renderer_url(assets, for_game)
        return JSONResponse(found)

    async def play_socket(websocket: WebSocket) -> None:
        match = lobby.matches.get(websocket.path_params["id"])
        if sockets["open"] >= limits.connections:
            await websocket.close(code=1013)  # try again later
            return
        await websocket.accept()
        if match is None:
            await websocket.send_text(m.encode(m.error("no-match", "no such match")))
            await websocket.close(code=4404)
            return
        token = websocket.query_params.get("token")
        try:
            if token is not None and len(token) > 100:
                raise Refused("this link's token is not a seat of this match")
            seat = match.seat_of(token)
        except Refused as exc:
            await websocket.send_text(m.encode(m.error("bad-token", str(exc))))
            await websocket.close(code=4403)
            return
        if len(match.connections) >= limits.sockets_per_match:
            message = f"this match has {limits.sockets_per_match} connections, its most"
            await websocket.send_text(m.encode(m.error("too-many-connections", message)))
            await websocket.close(code=4429)
            return
        burst, per_second = websocket.app.state.rate
        conn = Connection(
            websocket.send_text,
            seat,
            (burst, per_second),
            outbox=asyncio.Queue(limits.outbox_messages),
            allowance=burst,
        )
        pump = asyncio.create_task(conn.pump())
        sockets["open"] += 1
        match.join(conn, renderer_url(assets, match.mechanics))
        try:
            while not conn.closed:
                received = await websocket.receive()
                if received["type"] == "websocket.disconnect":
                    break
                text = received.get("text")
                if text is None:
                    conn.put(m.error("bad-message", "send text frames of JSON"))
                    continue
                await match.receive(conn, text)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            sockets["open"] -= 1
            match.leave(conn)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(pump, timeout=1)
            pump.cancel()
            with contextlib.suppress(Exception):
                await websocket.close()

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        for problem in await asyncio.to_thread(lobby.restore):
            log.warning(problem)
        for match in lobby.matches.values():
            match.kick()
        yield
        for match in list(lobby.matches.values()):
            await match.stop()
        await analyses.close()
        await bots.close()

    routes = [
        Route("/", page("lobby.html")),
        Route("/play/{id}", page("play.html")),
        Route("/watch/{id}", page("play.html")),
        Route("/replay", page("replay.html")),
        Route("/replay/{id}", page("replay.html")),
        Route("/api/games", games),
        Route("/api/matches", create, methods=["POST"]),
        Route("/api/matches", list_matches),
        Route("/api/matches/{id}", status),
        Route("/api/matches/{id}/save", save),
        Route("/api/matches/{id}/steps", steps),
        Route("/api/replay", upload, methods=["POST"]),
        WebSocketRoute("/ws/matches/{id}", play_socket),
        *studio,
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        *(
            Mount(f"/games/{name}", StaticFiles(directory=found.directory), name=f"game-{name}")
            for name, found in sorted(assets.items())
        ),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.lobby = lobby
    app.state.rate = rate
    app.state.limits = limits
    app.state.bots = bots
    app.state.analyses = analyses
    return Guard(app, policy or Policy.for_address("127.0.0.1"))
