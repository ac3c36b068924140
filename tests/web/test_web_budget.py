"""The server cannot be stalled (issue 27, points 2 and 4): bots think within a server-wide
budget while the event loop stays free; connections have deadlines and limits; a match's
watchers are limited and joining costs O(N).

Times are never compared with absolute seconds: a latency under load is compared with the same
latency measured without load in the same test, and with the bots' own thinking time.
"""

from __future__ import annotations

import asyncio
import json
import socket
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
import warnings
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
pytest.importorskip("starlette")
pytest.importorskip("httpx")

from castell_web.bots import BotPool  # noqa: E402
from castell_web.limits import Limits  # noqa: E402
from castell_web.lobby import Lobby  # noqa: E402
from castell_web.matches import Connection  # noqa: E402

from castell_dsl.runtime import protocol  # noqa: E402

from .conftest import free_port  # noqa: E402
from .support import SERVICES, web_app  # noqa: E402

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx.*")
    from starlette.testclient import TestClient

#: A bot turn from the network takes this long (mcts:time=…), so a stalled loop would show.
THINK = 1.0


def _create(client: TestClient, players: list[str], seed: int = 1) -> dict[str, Any]:
    response = client.post(
        "/api/matches", json={"rules": "castell", "players": players, "seed": seed}
    )
    assert response.status_code == 201, response.text
    return response.json()


def _latencies(client: TestClient, rounds: int) -> tuple[list[float], list[float]]:
    """(creating a match, a person's action answered with the new state), `rounds` times."""
    creating, acting = [], []
    for n in range(rounds):
        start = time.perf_counter()
        match = _create(client, ["you", "you"], seed=100 + n)
        creating.append(time.perf_counter() - start)
        tokens = [seat["token"] for seat in match["seats"]]
        turn = client.get(f"/api/matches/{match['id']}").json()["turn"]
        with client.websocket_connect(f"/ws/matches/{match['id']}?token={tokens[turn]}") as ws:
            while json.loads(ws.receive_text())["type"] != "state":
                pass
            start = time.perf_counter()
            ws.send_text("move Girona")
            while json.loads(ws.receive_text())["type"] != "state":
                pass
            acting.append(time.perf_counter() - start)
    return creating, acting


def test_served_bot_settings_are_capped() -> None:
    with TestClient(web_app(None)) as c:
        for spec, words in [
            ("mcts:time=60", "2.0"),
            ("mcts:iterations=20000", "2000"),
            ("mcts:rollout=1000", "50"),
            ("greedy:max_actions=1000", "100"),
        ]:
            response = c.post("/api/matches", json={"rules": "castell", "players": ["you", spec]})
            assert response.status_code == 400 and words in response.json()["error"], spec
        _create(c, ["you", f"mcts:time={THINK}"])  # within the caps


def test_bots_thinking_never_delay_people_and_matches_take_turns() -> None:
    """Six bot-only matches whose bots think THINK seconds a move, one bot worker: creating a
    match and answering a person's action stay as fast as when nothing thinks (the old server
    ran bots in the default thread pool, which they filled, and creating waited for a turn to
    end), and the matches' bots are served in turn."""
    limits = replace(Limits(), bot_workers=1)
    with TestClient(web_app(None, limits=limits, rate=(1000, 1000))) as c:
        pool: BotPool = c.app.state.bots
        _latencies(c, 1)  # warm up: rules compiled, code loaded
        quiet = _latencies(c, 5)
        spec = f"mcts:time={THINK}"
        busy_ids = [_create(c, [spec, spec], seed=n)["id"] for n in range(6)]
        while len([m for m in pool.history if m in busy_ids]) < 2:  # a worker is thinking
            time.sleep(0.05)
        loaded = _latencies(c, 5)
        for name, calm, busy in zip(("create", "act"), quiet, loaded, strict=True):
            calm_median, busy_median = statistics.median(calm), statistics.median(busy)
            assert busy_median < 15 * calm_median + 0.05 * THINK, (name, calm, busy)
            assert busy_median < THINK / 2, (name, busy)  # a bot's turn would be THINK
        while len([m for m in pool.history if m in busy_ids]) < 2 * len(busy_ids):
            time.sleep(0.1)
    served = [m for m in pool.history if m in busy_ids]
    first, second = served[: len(busy_ids)], served[len(busy_ids) : 2 * len(busy_ids)]
    assert sorted(first) == sorted(busy_ids)  # every match had a turn before any had two
    assert second == first  # and in the same order: round robin


def test_a_bot_past_its_deadline_is_stopped_and_a_random_action_played() -> None:
    limits = replace(Limits(), bot_workers=1, bot_turn_seconds=0.2)
    with TestClient(web_app(None, limits=limits)) as c:
        spec = f"mcts:time={THINK}"
        match = _create(c, [spec, spec])
        with c.websocket_connect(f"/ws/matches/{match['id']}") as ws:
            for _ in range(200):
                message = json.loads(ws.receive_text())
                if message["type"] == "error":
                    assert message["code"] == "bot-failed"
                    break
        for _ in range(400):
            if c.get(f"/api/matches/{match['id']}").json()["actions"] >= 3:
                break
            time.sleep(0.05)
        else:
            raise AssertionError("the match did not go on")
        pool: BotPool = c.app.state.bots
        assert len(pool._live) <= limits.bot_workers


def test_a_match_has_a_limited_number_of_connections() -> None:
    limits = replace(Limits(), sockets_per_match=3)
    with TestClient(web_app(None, limits=limits)) as c:
        match = _create(c, ["you", "you"])
        url = f"/ws/matches/{match['id']}"
        with (
            c.websocket_connect(url),
            c.websocket_connect(url),
            c.websocket_connect(url),
            c.websocket_connect(url) as fourth,
        ):
            assert json.loads(fourth.receive_text())["code"] == "too-many-connections"
        with c.websocket_connect(url) as again:  # freed when they left
            assert json.loads(again.receive_text())["type"] == "hello"


def _joining_cost(watchers: int, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """(messages encoded, messages queued) for `watchers` spectators joining one match."""
    encoded = [0]
    real = protocol.encode

    def counting(message: dict[str, Any]) -> str:
        encoded[0] += 1
        return real(message)

    monkeypatch.setattr(protocol, "encode", counting)

    async def run() -> int:
        pool = BotPool(SERVICES, 1, 1, 1)
        lobby = Lobby(SERVICES, None, pool)
        new = lobby.create({"rules": "castell", "players": ["you", "you"], "seed": 1})
        for _ in range(watchers):

            async def send(_text: str) -> None:
                return None

            conn = Connection(send, None, outbox=asyncio.Queue())
            new.match.join(conn, None)
        await asyncio.sleep(0.6)  # the announcement of who is here
        queued = sum(c.outbox.qsize() for c in new.match.connections)
        await pool.close()
        return queued

    encoded[0] = 0
    with ThreadPoolExecutor(1) as thread:  # a loop of its own, whatever ran before
        queued = thread.submit(asyncio.run, run()).result()
    return encoded[0], queued


def test_joining_watchers_cost_linear_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """N watchers joining: O(N) messages encoded and queued (it was O(N²): each join told
    every watcher, and each message was encoded once per connection)."""
    small_encoded, small_queued = _joining_cost(100, monkeypatch)
    large_encoded, large_queued = _joining_cost(800, monkeypatch)
    assert large_encoded <= 8 * small_encoded + 20, (small_encoded, large_encoded)
    assert large_queued <= 8 * small_queued + 20, (small_queued, large_queued)
    assert large_queued <= 3 * 800  # hello, state and one announcement each


# ---- connections: a real `castell serve` on loopback ---------------------------------------


class Serve:
    def __init__(self, tmp_path: Path, *options: str) -> None:
        self.port = free_port()
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "castell_dsl",
                "serve",
                "--port",
                str(self.port),
                "--db",
                str(tmp_path / "server.db"),
                *options,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        for _ in range(300):
            if self.answers():
                return
            time.sleep(0.1)
        raise RuntimeError(self.process.stderr.read().decode() if self.process.stderr else "")

    def answers(self) -> bool:
        try:
            url = f"http://127.0.0.1:{self.port}/api/games"
            return urllib.request.urlopen(url, timeout=5).status == 200
        except (OSError, urllib.error.URLError):
            return False

    def half_request(self, body: bool = False) -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", self.port))
        if body:
            sock.sendall(
                b"POST /api/matches HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"
            )
        else:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1\r\n")
        return sock

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


def _closed(sock: socket.socket, wait: float) -> bool:
    """Whether the server closed the connection within `wait` seconds."""
    sock.settimeout(wait)
    try:
        sock.recv(1024)  # the end of the stream, or a refusal (503) before it
        return True
    except TimeoutError:
        return False
    except OSError:
        return True


@pytest.fixture
def serve(tmp_path: Path):
    started: list[Serve] = []

    def start(*options: str) -> Serve:
        started.append(Serve(tmp_path, *options))
        return started[-1]

    yield start
    for server in started:
        server.stop()


def test_half_sent_requests_are_closed_and_others_served(serve) -> None:
    """Slowloris: connections that never finish their request are closed after the request
    deadline, so they cannot hold the server's connections; everyone else is served."""
    timeout = 1.0
    server = serve(
        "--request-timeout",
        str(timeout),
        "--connections-per-client",
        "0",
        "--max-connections",
        "60",
    )
    slow = [server.half_request(body=n % 2 == 1) for n in range(120)]
    silent = socket.create_connection(("127.0.0.1", server.port))  # says nothing at all
    assert all(_closed(sock, 10 * timeout) for sock in [*slow, silent])
    assert server.answers()
    for sock in [*slow, silent]:
        sock.close()


def test_one_address_holds_a_limited_number_of_connections(serve) -> None:
    server = serve("--request-timeout", "30", "--connections-per-client", "10")
    held = [server.half_request() for _ in range(10)]
    time.sleep(0.3)
    extra = socket.create_connection(("127.0.0.1", server.port))
    assert _closed(extra, 5)  # over the limit: closed at once, well before the deadline
    assert not any(_closed(sock, 0.01) for sock in held)
    for sock in held:
        sock.close()
    for _ in range(100):  # freed as they go
        if server.answers():
            break
        time.sleep(0.05)
    else:
        raise AssertionError("the address's connections were not freed")
