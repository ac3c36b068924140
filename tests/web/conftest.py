"""Browser-test fixtures: a real `castell serve` on a free loopback port, one Chromium per
session (Playwright), a fresh browser context per test.

Outside CI the browser tests skip with the reason when Playwright or /usr/bin/chromium is
missing; under `CI=true` they fail instead, so CI cannot pass without having run them.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("CASTELL_CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "images"


def _browser_missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install playwright)"
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`castell serve` in a child process, on its own port and database."""

    def __init__(self, db: Path, port: int | None = None):
        self.db = db
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Server:
        env = {**os.environ, "CASTELL_SAVE_DIR": str(self.db.parent)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "castell_dsl", "serve", "--port", str(self.port),
             "--db", str(self.db)],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )  # fmt: skip
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.base + "/api/matches", timeout=1).read()
                return self
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError(self.process.stderr.read().decode()) from None
                time.sleep(0.1)
        raise RuntimeError("castell serve did not start in 30 s")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None

    def create(self, **body: Any) -> dict[str, Any]:
        request = urllib.request.Request(
            self.base + "/api/matches",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        return json.load(urllib.request.urlopen(request, timeout=30))

    def get(self, path: str) -> Any:
        return json.load(urllib.request.urlopen(self.base + path, timeout=30))


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("serve") / "server.db").start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium, for one test module. Not for the session: Playwright's sync API keeps an
    event loop running in the worker's thread while it is open, and the asyncio tests of
    another module (the language server's) cannot start their own loop beside it."""
    missing = _browser_missing()
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"browser tests must run in CI: {missing}")
        pytest.skip(f"browser tests skipped: {missing}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox"]
        )
        yield launched
        launched.close()


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    made = browser.new_context(viewport={"width": 1400, "height": 900})
    made.set_default_timeout(15_000)
    yield made
    made.close()


@pytest.fixture
def screenshot() -> Any:
    """Write docs/images/NAME.png when CASTELL_UPDATE_SCREENSHOTS=1 (the README's pictures)."""

    def take(page: Any, name: str) -> None:
        if os.environ.get("CASTELL_UPDATE_SCREENSHOTS") == "1":
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.locator("[data-testid=board]").screenshot(path=str(SCREENSHOTS / f"{name}.png"))

    return take
