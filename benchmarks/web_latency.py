"""Web server latency: many concurrent matches over loopback, browser-less protocol clients.

    python benchmarks/web_latency.py [--matches 20] [--rules castell]

Starts `castell serve` on a free loopback port with a fresh database, creates `--matches`
matches of two `you` seats and a random bot each, and connects two protocol clients per match
(the `websockets` library, no browser). Each client plays a random legal action whenever it is
its turn, to the end of the game. Reported: p50/p95 of the time from a client
sending an action to it receiving the next `state` (the server applied it, stored it, and, when
a bot is next, the bot moved), and the server's resident memory. Not a timed test: figures
depend on the machine (the README records one run).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def workers_rss_mib(pid: int) -> float:
    """The resident memory of the server's bot worker processes (its children), together."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if entry.name.isdigit() and int(fields[1]) == pid:
            total += rss_mib(int(entry.name))
    return total


def create(base: str, rules: str, seed: int) -> dict:
    body = json.dumps({"rules": rules, "players": ["you", "you", "random"], "seed": seed})
    request = urllib.request.Request(
        base + "/api/matches", data=body.encode(), headers={"Content-Type": "application/json"}
    )
    return json.load(urllib.request.urlopen(request, timeout=60))


async def client(url: str, seed: int, latencies: list[float]) -> int:
    import websockets

    rng = random.Random(seed)
    played = 0
    sent_at: float | None = None
    async with websockets.connect(url, max_size=2**22) as ws:
        async for raw in ws:
            message = json.loads(raw)
            if message["type"] == "result":
                break
            if message["type"] != "state":
                continue
            if sent_at is not None:
                latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if message["legal_actions"]:
                action = rng.choice(message["legal_actions"])
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"action": action, "version": message["version"]}))
                played += 1
    return played


async def main_async(args: argparse.Namespace) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    db = Path(tempfile.mkdtemp(prefix="castell-bench-")) / "server.db"
    server = subprocess.Popen(
        [sys.executable, "-m", "castell_dsl", "serve", "--port", str(port), "--db", str(db)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(base + "/api/matches", timeout=1)
                break
            except OSError:
                await asyncio.sleep(0.1)
        idle = rss_mib(server.pid)
        matches = [create(base, args.rules, seed) for seed in range(args.matches)]
        latencies: list[float] = []
        started = time.perf_counter()
        tasks = []
        for n, match in enumerate(matches):
            for seat in match["seats"]:
                if "token" in seat:
                    url = f"ws://127.0.0.1:{port}/ws/matches/{match['id']}?token={seat['token']}"
                    tasks.append(client(url, n * 10 + seat["seat"], latencies))
        played = await asyncio.gather(*tasks)
        elapsed = time.perf_counter() - started
        peak = rss_mib(server.pid)
        workers = workers_rss_mib(server.pid)
        ms = sorted(x * 1000 for x in latencies)
        p95 = ms[int(0.95 * (len(ms) - 1))]
        clients = f"{len(tasks)} clients, {sum(played)} actions"
        print(f"{args.matches} matches of {args.rules}, {clients}")
        print(f"in {elapsed:.1f} s: p50 {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms")
        print(f"server memory (RSS): {idle:.0f} MiB idle, {peak:.0f} MiB with the matches")
        print(f"bot worker processes (RSS, together): {workers:.0f} MiB")
    finally:
        server.terminate()
        server.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--rules", default="castell")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
