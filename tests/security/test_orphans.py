"""Worker processes never outlive their parent (issue 27, point 15).

`simulate --jobs 2`, `compare --jobs 2` and `analyze --jobs 2` (and tournaments, which are
simulations) play in a process pool (`simulation.run_tasks`); `castell serve` thinks for bots
in worker processes. Whatever stops the parent (SIGTERM, SIGKILL, SIGINT), its workers exit
within a few of their parent-watch intervals (`castell_dsl.runtime.workers.WATCH_INTERVAL`),
never to keep playing games for nobody.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from castell_dsl.runtime.workers import WATCH_INTERVAL

pytestmark = pytest.mark.slow  # each case starts a command and its workers

#: The workers must be gone within this many parent-watch intervals (10 s): "within seconds"
#: on a machine three times slower than a developer's, not "eventually".
WITHIN = 50 * WATCH_INTERVAL

COMMANDS = {
    "analyze": [
        "analyze",
        "castell",
        "--games",
        "400",
        "--players",
        "2",
        "--bots",
        "mcts",
        "--jobs",
        "2",
        "--no-skill",
    ],
    "simulate": [
        "simulate",
        "--games",
        "400",
        "--players",
        "2",
        "--bots",
        "mcts,mcts",
        "--jobs",
        "2",
    ],
    "compare": [
        "compare",
        "castell",
        "castell+short-season",
        "--games",
        "400",
        "--players",
        "2",
        "--bots",
        "mcts",
        "--jobs",
        "2",
    ],
    "tournament": [
        "tournament",
        "--bots",
        "mcts,greedy",
        "-n",
        "400",
        "--jobs",
        "2",
    ],
}


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _start(args: list[str], **options: object) -> subprocess.Popen[bytes]:
    def default_sigint() -> None:  # a test runner may ignore SIGINT, and children inherit it
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    return subprocess.Popen(
        [sys.executable, "-m", "castell_dsl", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        preexec_fn=default_sigint,
        **options,  # type: ignore[call-overload]
    )


def _wait_for_workers(parent: subprocess.Popen[bytes], count: int) -> list[int]:
    for _ in range(600):
        workers = _children(parent.pid)
        if len(workers) >= count:
            time.sleep(0.5)  # let them start working
            return _children(parent.pid)
        assert parent.poll() is None, "the command ended before its workers started"
        time.sleep(0.1)
    raise AssertionError("no workers started")


def _gone_after(workers: list[int]) -> float:
    start = time.monotonic()
    while any(_alive(pid) for pid in workers):
        if time.monotonic() - start > WITHIN:
            break
        time.sleep(0.02)
    return time.monotonic() - start


def _stop_and_check(
    parent: subprocess.Popen[bytes], workers: list[int], sig: signal.Signals, what: str
) -> None:
    """Stop the parent with `sig`; its workers must be gone within WITHIN."""
    os.kill(parent.pid, sig)
    parent.wait(timeout=30)
    took = _gone_after(workers)
    assert not any(_alive(pid) for pid in workers), f"{what}: workers outlived {sig!r}"
    assert took <= WITHIN


def _clean_up(parent: subprocess.Popen[bytes], workers: list[int]) -> None:
    """Whatever the outcome, leave no process of this test behind (a failing test's orphans
    would play on)."""
    if parent.poll() is None:
        parent.kill()
        parent.wait()
    for pid in [*workers, *_children(parent.pid)]:
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the process table from /proc")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL, signal.SIGINT], ids=str)
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_pool_workers_exit_with_their_parent(command: str, sig: signal.Signals) -> None:
    parent = _start(COMMANDS[command])
    workers: list[int] = []
    try:
        workers = _wait_for_workers(parent, 2)
        _stop_and_check(parent, workers, sig, command)
    finally:
        _clean_up(parent, workers)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the process table from /proc")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL, signal.SIGINT], ids=str)
def test_the_servers_bot_workers_exit_with_it(tmp_path: Path, sig: signal.Signals) -> None:
    pytest.importorskip("uvicorn")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = _start(
        ["serve", "--port", str(port), "--db", str(tmp_path / "s.db"), "--bot-workers", "2"]
    )
    workers: list[int] = []
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(300):
            try:
                urllib.request.urlopen(base + "/api/games", timeout=5)
                break
            except OSError:
                time.sleep(0.1)
        for seed in range(2):
            body = {"rules": "castell", "players": ["mcts:time=2", "mcts:time=2"], "seed": seed}
            request = urllib.request.Request(
                base + "/api/matches",
                data=json.dumps(body).encode(),
                headers={"Content-Type": "application/json"},
            )
            urllib.request.urlopen(request, timeout=30)
        workers = _wait_for_workers(server, 2)
        _stop_and_check(server, workers, sig, "serve")
    finally:
        _clean_up(server, workers)


def test_a_worker_re_parented_before_it_watches_exits_too() -> None:
    """A worker that starts slowly may be re-parented before it first asks for its parent:
    the parent's pid is handed to it, so it sees at once that its parent is gone."""
    code = (
        "import time; from castell_dsl.runtime.workers import exit_with_parent; "
        "exit_with_parent(1); time.sleep(60)"  # 1 stands for a parent that already went
    )
    done = subprocess.run([sys.executable, "-c", code], timeout=WITHIN + 30)
    assert done.returncode == 1
