"""The studio's analyses: one server-wide queue, a few worker processes, a deadline each, and
reports reused by what they are of.

An analysis plays games, which takes seconds to minutes of a core, so it never runs in the
server's process: each is one worker process (`studio_worker.main`, started with the
command line the host's `WorkerStartup` service gives, so it exits with the server), at most
`Limits.analysis_workers` at once; the others wait in a queue of at most
`Limits.analysis_queue` (more are refused), and a page has at most one analysis waiting or
running (`Page`). A worker past `Limits.analysis_seconds` is ended and the page told so.

A report is kept in the store under its key: the variant's rules hash, the base's, and the
settings (games, players, bots, seed). The same text analysed again, by anyone, is answered at
once from the store; a different text that compiles to the same rules is too.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from castell_dsl.contract.services import WorkerStartup
from castell_dsl.safejson import JsonLimitError, loads_bounded

from .limits import Limits
from .store import SqliteStore

log = logging.getLogger("castell_web")

#: Longest line a worker may write (a report), in bytes.
MAX_REPORT = 8 * 1024 * 1024
#: What an analysis' worker process runs (with the services), by `module:function`.
WORKER_ENTRY = "castell_web.studio_worker:main"
#: The bots an analysis may use (the cheap ones: the ladder is not run on a server).
ANALYSIS_BOTS = ("random", "greedy")

Progress = Callable[[dict[str, Any]], Awaitable[None]]


class JobRefused(ValueError):
    """An analysis that cannot be queued or did not finish; the message is for people."""


@dataclass(frozen=True)
class Settings:
    """What one analysis plays (checked: `settings_of`)."""

    games: int
    players: int
    bots: str
    seed: int

    def key(self, rules_hash: str, base_hash: str) -> str:
        text = json.dumps([rules_hash, base_hash, self.games, self.players, self.bots, self.seed])
        return hashlib.sha256(text.encode()).hexdigest()[:32]


def settings_of(request: dict[str, Any], players: tuple[int, int], limits: Limits) -> Settings:
    """The settings a page asked for, within the server's limits and the rules' players."""
    games = request.get("games", 20)
    wanted = request.get("players", players[0])
    bots = request.get("bots", "random")
    seed = request.get("seed", 0)
    for value, what in ((games, "games"), (wanted, "players"), (seed, "seed")):
        if not isinstance(value, int) or isinstance(value, bool):
            raise JobRefused(f"'{what}' is a whole number")
    if not 1 <= games <= limits.analysis_games:
        raise JobRefused(f"an analysis on this server plays 1 to {limits.analysis_games} games")
    if not players[0] <= wanted <= players[1]:
        raise JobRefused(f"this game is for {players[0]} to {players[1]} players")
    if bots not in ANALYSIS_BOTS:
        raise JobRefused(f"'bots' is one of {', '.join(ANALYSIS_BOTS)}")
    if not 0 <= seed < 2**31:
        raise JobRefused("'seed' is a whole number from 0 to 2**31 - 1")
    return Settings(games, wanted, bots, seed)


class Page:
    """One studio page's connection: at most one analysis of its own at a time."""

    def __init__(self) -> None:
        self.busy = False


class AnalysisQueue:
    """The server-wide queue of analyses (see the module docstring)."""

    def __init__(self, workers: WorkerStartup, store: SqliteStore, limits: Limits) -> None:
        self.workers = workers
        self.store = store
        self.limits = limits
        self.running = asyncio.Semaphore(limits.analysis_workers)
        self.waiting = 0
        self.processes: set[asyncio.subprocess.Process] = set()

    def stored(self, key: str) -> dict[str, Any] | None:
        text = self.store.studio_analysis(key)
        if text is None:
            return None
        try:
            report = loads_bounded(text, max_chars=MAX_REPORT, max_depth=32)
        except JsonLimitError:
            return None
        return report if isinstance(report, dict) else None

    async def run(
        self, page: Page, key: str, text: str, settings: Settings, progress: Progress
    ) -> dict[str, Any]:
        """The report of `text` with `settings` (from the store if it was made before)."""
        found = await asyncio.to_thread(self.stored, key)
        if found is not None:
            return found
        if page.busy:
            raise JobRefused("this page already has an analysis running: wait for it")
        if self.waiting >= self.limits.analysis_queue:
            raise JobRefused("the server has too many analyses waiting: try again later")
        page.busy = True
        self.waiting += 1
        queued = True
        try:
            await progress({"type": "queued", "ahead": self.waiting - 1})
            async with self.running:
                self.waiting -= 1
                queued = False
                report = await self._work(text, settings, progress)
        finally:
            if queued:  # the page left while waiting
                self.waiting -= 1
            page.busy = False
        encoded = json.dumps(report, ensure_ascii=False)
        await asyncio.to_thread(
            self.store.studio_keep_analysis, key, encoded, self.limits.analyses_kept
        )
        return report

    async def _work(self, text: str, settings: Settings, progress: Progress) -> dict[str, Any]:
        job = {"text": text, **settings.__dict__}
        process = await asyncio.create_subprocess_exec(
            *self.workers.worker_command(WORKER_ENTRY),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL, limit=MAX_REPORT,
        )  # fmt: skip
        self.processes.add(process)
        try:
            assert process.stdin is not None and process.stdout is not None
            process.stdin.write((json.dumps(job) + "\n").encode())
            await process.stdin.drain()
            process.stdin.close()
            return await asyncio.wait_for(
                self._read(process.stdout, progress), self.limits.analysis_seconds
            )
        except TimeoutError:
            raise JobRefused(
                f"the analysis took longer than {self.limits.analysis_seconds:.0f} s, this "
                "server's limit: ask for fewer games"
            ) from None
        except ValueError:  # a line longer than MAX_REPORT
            raise JobRefused("the analysis' report is larger than this server accepts") from None
        finally:
            self.processes.discard(process)
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            with contextlib.suppress(Exception):
                await process.wait()

    @staticmethod
    async def _read(stream: asyncio.StreamReader, progress: Progress) -> dict[str, Any]:
        while True:
            line = await stream.readline()
            if not line:
                raise JobRefused("the analysis stopped without a report")
            try:
                message = loads_bounded(line.decode(), max_chars=MAX_REPORT, max_depth=32)
            except (JsonLimitError, UnicodeDecodeError):
                raise JobRefused("the analysis answered something unreadable") from None
            if not isinstance(message, dict):
                continue
            if "report" in message and isinstance(message["report"], dict):
                return message["report"]
            if "error" in message:
                raise JobRefused(f"the analysis failed: {message['error']}")
            if isinstance(message.get("done"), int) and isinstance(message.get("total"), int):
                await progress(
                    {"type": "progress", "done": message["done"], "total": message["total"]}
                )

    async def close(self) -> None:
        for process in list(self.processes):
            with contextlib.suppress(ProcessLookupError):
                process.kill()
