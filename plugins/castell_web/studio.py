"""The designer's studio on `castell serve`: its page, its JSON API and its WebSocket.

Routes (docs/studio.md; every body through `guard.read_json`, every limit in `limits.Limits`):

- `GET /studio`, `GET /studio/v/{id}` (a variant's read-only link): the page.
- `GET /api/studio/starts`: the installed rule sets and variants to start from, and the
  language's tokens for highlighting; `GET /api/studio/start?rules=…&variant=…`: a start's text.
- `POST /api/studio/check` `{text, base?}`: diagnostics, rules hash, the diff against the base;
  `POST /api/studio/hover` and `/complete` `{text, line, column}`: the language server's answers.
- `POST /api/studio/variants`: save (`{name, text}` creates, `{id, token, text}` adds a
  version); `GET /api/studio/variants/{id}[?version=n]`; `GET …/{id}/download`: the text as
  a `.castell` file.
- `GET /studio/reports/{key}`: a finished analysis as `castell analyze --html` writes it, for
  the page's sandboxed frame (its own CSP: no script, styles inline only).
- `WS /ws/studio`: `{"type": "analyze", "text", "games", "players", "bots"}` → `queued`,
  `progress`, then `done` (the report's URL) or `error`.

Nothing a page sends is a path: a start is an installed name, a variant an id, and the text is
compiled by `studio_text` (installed `extends` only, no `include`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import re
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from castell_dsl.contract.services import Catalogue, FrontendServices, NotInstalled
from castell_dsl.language.compiler import schema_kinds
from castell_dsl.language.parser import _parser

from .assets import STATIC
from .guard import BadRequest, read_json
from .limits import Limits
from .store import SqliteStore
from .studio_jobs import AnalysisQueue, JobRefused, Page, settings_of
from .studio_store import StudioRefused, Variants, checked_text
from .studio_text import MAX_TEXT, SHOWN, NotPlayable, check, compile_text, complete, hover

#: The report frame's policy: no script at all, the report's inline styles, nothing fetched.
REPORT_CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'; sandbox"
)
KEY = re.compile(r"[0-9a-f]{32}")


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


@functools.cache
def language_tokens(catalogue: Catalogue) -> dict[str, Any]:
    """What the editor highlights, read from the grammar's own terminals (never a kept list):
    its keywords, and the regular expressions of names, strings, numbers and comments; and the
    kinds of definition of every installed mechanics."""
    terminals = _parser().terminals
    keywords = sorted(
        t.pattern.value
        for t in terminals
        if t.pattern.type == "str" and re.fullmatch(r"[A-Za-z_]+", t.pattern.value)
    )
    patterns = {
        t.name.lower(): t.pattern.value
        for t in terminals
        if t.name in ("NAME", "STRING", "INT", "COMMENT")
    }
    kinds: set[str] = set()
    for mechanics in catalogue.installed_mechanics():
        kinds.update(schema_kinds(mechanics))
    return {"keywords": keywords, "patterns": patterns, "kinds": sorted(kinds)}


@functools.cache
def starts(services: Catalogue) -> tuple[dict[str, Any], ...]:
    """The installed rule sets and their file variants, as places to start from."""
    from .lobby import catalogue

    out = []
    for game in catalogue(services):
        out.append({"rules": game["rules"], "variant": None, "title": game["title"]})
        for variant in game["variants"]:
            out.append({"rules": game["rules"], "variant": variant, "title": game["title"]})
    return tuple(out)


def start_text(catalogue: Catalogue, rules: Any, variant: Any) -> str:
    """A start's text: a new variant of an installed rule set, or an installed variant's
    file (read from the installed catalogue only, by name)."""
    try:
        name, chosen = catalogue.check_installed(rules, [variant] if variant else [])
    except NotInstalled as exc:
        raise StudioRefused(str(exc), 404) from None
    if not chosen:
        return f'# A variant of {name}: change what you like below.\nextends "{name}"\n\n'
    file = catalogue.installed_variants(name).get(chosen[0])
    if file is None:  # a plugin's code variant: it has no text to start from
        raise StudioRefused(f"'{chosen[0]}' is written in code, not in the rules language", 404)
    text = file.read_text(encoding="utf-8")[: MAX_TEXT + 1]
    return text


def studio_routes(
    services: FrontendServices, store: SqliteStore, lobby: Any, limits: Limits
) -> tuple[list[BaseRoute], AnalysisQueue]:
    """The studio's routes, and its analysis queue (the lifespan closes it)."""
    variants = Variants(services, store, limits)
    lobby.studio = variants
    queue = AnalysisQueue(services, store, limits)
    checks = asyncio.Semaphore(limits.studio_checks)

    async def page(_request: Request) -> Response:
        return FileResponse(STATIC / "studio.html")

    async def body(request: Request) -> dict[str, Any]:
        found = await read_json(request, limits)
        if not isinstance(found, dict):
            raise BadRequest(400, "send a JSON object")
        return found

    def text_of(found: dict[str, Any]) -> str:
        """A text to check: any length the body allows (past a rule file's cap it is told
        E0107, as `castell validate` tells a file)."""
        text = found.get("text")
        if not isinstance(text, str):
            raise StudioRefused("'text' is the variant's rule text")
        return text

    def position(found: dict[str, Any]) -> tuple[str, int, int]:
        text = text_of(found)
        line, column = found.get("line"), found.get("column")
        for value in (line, column):
            if not isinstance(value, int) or isinstance(value, bool) or not 0 < value <= 10**6:
                raise StudioRefused("'line' and 'column' are numbers from 1")
        return text, int(line), int(column)  # type: ignore[arg-type]

    async def bounded(work: Any, *args: Any) -> Any:
        async with checks:
            return await asyncio.to_thread(work, *args)

    async def list_starts(_request: Request) -> Response:
        found = await asyncio.to_thread(starts, services)
        tokens = await asyncio.to_thread(language_tokens, services)
        return JSONResponse(
            {
                "starts": list(found),
                "tokens": tokens,
                "max_chars": MAX_TEXT,
                "analysis": {"max_games": limits.analysis_games, "bots": ["random", "greedy"]},
            }
        )

    async def one_start(request: Request) -> Response:
        try:
            text = await asyncio.to_thread(
                start_text,
                services,
                request.query_params.get("rules"),
                request.query_params.get("variant"),
            )
        except StudioRefused as exc:
            return _error(exc.status, str(exc))
        return JSONResponse({"text": text})

    async def check_route(request: Request) -> Response:
        try:
            found = await body(request)
            text = text_of(found)
            base = found.get("base")
            if base is not None and not isinstance(base, str):
                raise StudioRefused("'base' is an installed rule set's name")
            result = await bounded(check, services, text, base)
        except BadRequest as exc:
            return _error(exc.status, exc.message)
        except StudioRefused as exc:
            return _error(exc.status, str(exc))
        return JSONResponse(result)

    async def hover_route(request: Request) -> Response:
        try:
            text, line, column = position(await body(request))
            found = await bounded(hover, services, text, line, column)
        except BadRequest as exc:
            return _error(exc.status, exc.message)
        except StudioRefused as exc:
            return _error(exc.status, str(exc))
        return JSONResponse({"markdown": found})

    async def complete_route(request: Request) -> Response:
        try:
            text, line, column = position(await body(request))
            found = await bounded(complete, services, text, line, column)
        except BadRequest as exc:
            return _error(exc.status, exc.message)
        except StudioRefused as exc:
            return _error(exc.status, str(exc))
        return JSONResponse({"items": found[:200]})

    async def save(request: Request) -> Response:
        try:
            found = await body(request)
            saved = await bounded(variants.save, found)
        except BadRequest as exc:
            return _error(exc.status, exc.message)
        except StudioRefused as exc:
            return _error(exc.status, str(exc))
        answer: dict[str, Any] = {
            "id": saved.id,
            "version": saved.version,
            "share_url": f"/studio/v/{saved.id}",
        }
        if saved.token is not None:
            answer["token"] = saved.token
        return JSONResponse(answer, status_code=201 if saved.token else 200)

    def version_of(request: Request) -> int | None:
        given = request.query_params.get("version")
        if given is None:
            return None
        if not given.isdigit() or len(given) > 9:
            raise StudioRefused("'version' is a version number")
        return int(given)

    async def variant_of(request: Request) -> dict[str, Any]:
        """The stored variant (and version) a request names; StudioRefused if none."""
        return await asyncio.to_thread(variants.get, request.path_params["id"], version_of(request))

    async def open_variant(request: Request) -> Response:
        try:
            found = await variant_of(request)
        except StudioRefused as exc:
            return _error(exc.status, str(exc))
        return JSONResponse(found)

    async def download(request: Request) -> Response:
        try:
            found = await variant_of(request)
        except StudioRefused as exc:
            return _error(exc.status, str(exc))
        filename = re.sub(r"[^A-Za-z0-9_.-]+", "-", found["name"]).strip("-.") or "variant"
        return Response(
            found["text"],
            media_type="text/plain; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="{filename}.castell"'},
        )

    async def report(request: Request) -> Response:
        key = request.path_params["key"]
        found = await asyncio.to_thread(queue.stored, key) if KEY.fullmatch(key) else None
        if found is None:
            return _error(404, "no such analysis")
        try:
            html = await asyncio.to_thread(services.report_html, found)
        except Exception:  # a stored report this version cannot render
            return _error(404, "no such analysis")
        return HTMLResponse(
            html,
            headers={
                "Content-Security-Policy": REPORT_CSP,
                "X-Frame-Options": "SAMEORIGIN",
                "Cache-Control": "no-store",
            },
        )

    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        me = Page()
        running: set[asyncio.Task[None]] = set()

        async def send(message: dict[str, Any]) -> None:
            with contextlib.suppress(Exception):
                await websocket.send_text(json.dumps(message))

        async def analyse(message: dict[str, Any]) -> None:
            try:
                text = checked_text(message.get("text"))
                compiled = await bounded(compile_text, services, text)
                if compiled.base is None:
                    raise JobRefused("the text extends no installed rule set: nothing to compare")
                base_hash = await asyncio.to_thread(_base_hash, services, compiled.base)
                settings = settings_of(message, tuple(compiled.rules.game.players), limits)
                key = settings.key(compiled.rules.hash, base_hash)
                reused = await asyncio.to_thread(queue.stored, key) is not None
                await queue.run(me, key, text, settings, send)
                await send({"type": "done", "url": f"/studio/reports/{key}", "reused": reused})
            except (StudioRefused, JobRefused, NotPlayable) as exc:
                await send({"type": "error", "message": str(exc)})

        try:
            while True:
                received = await websocket.receive()
                if received["type"] == "websocket.disconnect":
                    break
                text = received.get("text")
                if text is None or len(text) > limits.ws_message_bytes:
                    await send({"type": "error", "message": "send JSON text frames"})
                    continue
                try:
                    message = json.loads(text)
                except ValueError:
                    message = None
                if not isinstance(message, dict) or message.get("type") != "analyze":
                    await send({"type": "error", "message": 'send {"type": "analyze", …}'})
                    continue
                if me.busy or running:
                    await send({"type": "error", "message": "an analysis is already running"})
                    continue
                task = asyncio.create_task(analyse(message))
                running.add(task)
                task.add_done_callback(running.discard)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            for task in running:
                task.cancel()

    routes: list[BaseRoute] = [
        Route("/studio", page),
        Route("/studio/v/{id}", page),
        Route("/studio/reports/{key}", report),
        Route("/api/studio/starts", list_starts),
        Route("/api/studio/start", one_start),
        Route("/api/studio/check", check_route, methods=["POST"]),
        Route("/api/studio/hover", hover_route, methods=["POST"]),
        Route("/api/studio/complete", complete_route, methods=["POST"]),
        Route("/api/studio/variants", save, methods=["POST"]),
        Route("/api/studio/variants/{id}", open_variant),
        Route("/api/studio/variants/{id}/download", download),
        WebSocketRoute("/ws/studio", socket),
    ]
    return routes, queue


@functools.lru_cache(maxsize=16)
def _base_hash(catalogue: Catalogue, name: str) -> str:
    return str(catalogue.load_installed(name).hash)


__all__ = ["SHOWN", "studio_routes"]
