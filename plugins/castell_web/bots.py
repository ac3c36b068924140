"""The server's bot budget: bots (and hints) think in a few worker processes, never in the
event loop and never without a deadline.

A match asks the pool for one bot turn at a time (`Work`: the match's rules by installed name,
options, log, the seat and its bot spec). Requests wait in one queue, served in order of
arrival within their priority (a person's hint before bots' turns), so every match with a bot
to move gets a turn in its order: a match whose bot thinks long delays the others by one turn
at most, not by a game. At most `workers` requests are thought at once, each in its own worker
process, so thinking never competes with the event loop for the interpreter, and a bot that
overruns `turn_seconds` is stopped by ending its process (a thread could not be stopped).

A worker rebuilds the position from the rules and the log, keeping the last positions it saw
so that the next turn of the same match only applies the new actions. A worker is started
with the command line the host's services give (`WorkerStartup.worker_command`), so it
exits by itself when the server is gone and receives the services itself: it starts games
and makes bots through them, as the server does.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import os
import select
import subprocess
import sys
import threading
import time
from collections import OrderedDict, deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from typing import Any

from castell_dsl.contract import PlayableGame
from castell_dsl.contract.commands import hint_lines
from castell_dsl.contract.services import FrontendServices, WorkerStartup

from .refusals import stored_rules

log = logging.getLogger("castell_web")

#: Positions a worker keeps between turns (one per match it served last).
CACHED_GAMES = 32
#: Longest reply a worker may send (hint lines, an action text), in bytes.
MAX_REPLY = 1 << 20
#: Priorities: lower is served first.
HINT, TURN = 0, 1
#: What a worker process runs (with the services), by `module:function`.
WORKER_ENTRY = "castell_web.bots:worker_main"


@dataclass(frozen=True)
class Work:
    """One thing to think about: a bot's action for `seat`, or the hints for `seat`."""

    kind: str  # "choose" or "hints"
    match: str
    rules: dict[str, Any]  # the match's rules identity (`saves.rules_identity`), by names
    players: int
    seed: int
    log: tuple[str, ...]
    seat: int
    spec: str = ""


class BotTimeout(Exception):
    """The work took longer than its deadline; its worker was stopped."""


class BotFailed(Exception):
    """The work failed in the worker (the message says how) or the worker died."""


# ---- in the worker process -----------------------------------------------------------------------


def _position(
    services: FrontendServices, games: OrderedDict[str, PlayableGame], work: Work
) -> PlayableGame:
    """The game of `work` at the end of its log, from the cache when the log extends it."""
    game = games.pop(work.match, None)
    if game is None or tuple(game.log) != work.log[: len(game.log)]:
        rules = stored_rules(services, work.rules)
        game = services.start_game(rules, work.players, work.seed, record_events=False)
    for text in work.log[len(game.log) :]:
        game.apply(text)
    games[work.match] = game
    while len(games) > CACHED_GAMES:
        games.popitem(last=False)
    return game


def _think(services: FrontendServices, games: OrderedDict[str, PlayableGame], work: Work) -> Any:
    game = _position(services, games, work)
    if work.kind == "hints":  # the hint command's own advice (the one dispatcher's)
        return hint_lines(game.clone(), work.seat)
    if game.current_player != work.seat:
        raise BotFailed(f"it is not seat {work.seat}'s turn")
    bot = services.make_bot(work.spec, game.rules, work.seat, work.seed)
    position = game.clone()
    try:
        action = bot.choose(position)
    finally:
        # a program (`cmd:`) is started per decision, then stopped
        services.finish_bots([bot], position)
    return action if isinstance(action, str) else action.text


def worker_main(services: FrontendServices) -> None:
    """A worker's life (`WORKER_ENTRY`, started by the host with its services, exiting with
    the server): answer one `Work` per line of standard input with one JSON line, until the
    server closes the pipe. Replies go to a copy of the original standard output; anything a
    bot or plugin prints goes to standard error."""
    replies = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    games: OrderedDict[str, Any] = OrderedDict()
    for line in sys.stdin:
        try:
            fields = json.loads(line)
            fields["log"] = tuple(fields["log"])
            reply: dict[str, Any] = {"ok": _think(services, games, Work(**fields))}
        except Exception as exc:  # told to the server, which logs it; the worker goes on
            reply = {"error": f"{type(exc).__name__}: {exc}"[:500]}
        replies.write(json.dumps(reply) + "\n")
        replies.flush()


# ---- in the server ---------------------------------------------------------------------------


class _Worker:
    """One worker process (a fresh interpreter: nothing of the threaded server is forked)
    and the server's ends of its pipes. Work and replies are JSON lines: no pickles."""

    def __init__(self, workers: WorkerStartup) -> None:
        self.process = subprocess.Popen(
            workers.worker_command(WORKER_ENTRY),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            close_fds=True,
        )
        self._pending = b""

    def call(self, work: Work, seconds: float) -> Any:
        """Blocking: send the work and wait for the answer at most `seconds`."""
        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            self.process.stdin.write(json.dumps(asdict(work)).encode() + b"\n")
            self.process.stdin.flush()
        except OSError as exc:
            self.stop()
            raise BotFailed(f"the worker process ended ({exc.strerror or exc})") from None
        deadline = time.monotonic() + seconds
        out = self.process.stdout.fileno()
        while b"\n" not in self._pending:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.stop()
                raise BotTimeout(f"no answer within {seconds:g} s")
            ready, _, _ = select.select([out], [], [], remaining)
            if not ready:
                continue
            chunk = os.read(out, 1 << 16)
            if not chunk or len(self._pending) > MAX_REPLY:
                self.stop()
                raise BotFailed("the worker process ended")
            self._pending += chunk
        line, _, self._pending = self._pending.partition(b"\n")
        reply = json.loads(line)
        if "error" in reply:
            raise BotFailed(reply["error"])
        return reply["ok"]

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> None:
        for pipe in (self.process.stdin, self.process.stdout):
            with contextlib.suppress(Exception):
                pipe.close()  # type: ignore[union-attr]
        if self.process.poll() is None:
            self.process.kill()
        with contextlib.suppress(Exception):
            self.process.wait(timeout=5)


class BotPool:
    """The server-wide budget for bots and hints (see the module docstring)."""

    def __init__(
        self, services: WorkerStartup, workers: int, turn_seconds: float, hint_seconds: float
    ) -> None:
        self.services = services
        self.workers = max(1, workers)
        self.turn_seconds = turn_seconds
        self.hint_seconds = hint_seconds
        self._queue: asyncio.PriorityQueue[tuple[int, int, Work, asyncio.Future[Any]]] | None
        self._queue = None
        self._order = itertools.count()
        self._runners: list[asyncio.Task[None]] = []
        self._threads = ThreadPoolExecutor(self.workers, thread_name_prefix="castell-bots")
        self._live: set[_Worker] = set()
        self._lock = threading.Lock()
        #: The matches served, in order (the most recent thousand): fairness shows here.
        self.history: deque[str] = deque(maxlen=1000)

    @property
    def waiting(self) -> int:
        """Requests not yet being thought about."""
        return self._queue.qsize() if self._queue is not None else 0

    async def run(self, work: Work) -> Any:
        """Think about `work` in a worker: the action text, or the hint lines. Raises
        BotTimeout or BotFailed; the event loop only waits for the answer."""
        loop = asyncio.get_running_loop()
        if self._queue is None:
            self._queue = asyncio.PriorityQueue()
            self._runners = [loop.create_task(self._serve()) for _ in range(self.workers)]
        answer: asyncio.Future[Any] = loop.create_future()
        priority = HINT if work.kind == "hints" else TURN
        self._queue.put_nowait((priority, next(self._order), work, answer))
        return await answer

    async def _serve(self) -> None:
        """One runner: one worker process, one request at a time, in queue order."""
        assert self._queue is not None
        loop = asyncio.get_running_loop()
        worker: _Worker | None = None
        while True:
            _priority, _n, work, answer = await self._queue.get()
            if answer.done():  # its match stopped waiting
                continue
            seconds = self.hint_seconds if work.kind == "hints" else self.turn_seconds
            self.history.append(work.match)
            try:
                if worker is None or not worker.alive:
                    worker = await loop.run_in_executor(self._threads, self._start)
                result = await loop.run_in_executor(self._threads, worker.call, work, seconds)
            except (BotTimeout, BotFailed) as exc:
                if worker is not None and not worker.alive:
                    self._forget(worker)
                    worker = None
                if not answer.done():
                    answer.set_exception(exc)
                continue
            except Exception as exc:  # starting a process failed: say so, keep serving
                log.exception("bot worker failed to start")
                if not answer.done():
                    answer.set_exception(BotFailed(str(exc)))
                continue
            if not answer.done():
                answer.set_result(result)

    def _start(self) -> _Worker:
        worker = _Worker(self.services)
        with self._lock:
            self._live.add(worker)
        return worker

    def _forget(self, worker: _Worker) -> None:
        with self._lock:
            self._live.discard(worker)

    async def close(self) -> None:
        """Stop the runners and the worker processes (work in progress is abandoned)."""
        for runner in self._runners:
            runner.cancel()
        for runner in self._runners:
            with contextlib.suppress(BaseException):
                await runner
        self._runners = []
        self._queue = None
        with self._lock:
            live, self._live = list(self._live), set()
        for worker in live:
            worker.stop()
        self._threads.shutdown(wait=False, cancel_futures=True)
