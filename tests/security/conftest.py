"""Helpers for the security tests: run the real CLI in a subprocess with a chosen environment.

A subprocess gives each check a fresh process (no in-memory cache of an earlier test) and lets
a test bound its memory with resource limits.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def run_castell(
    args: list[str], cwd: Path, env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess:
    """`castell ARGS` as a user would run it; stdout and stderr as text."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "castell_dsl", *args],
        cwd=cwd,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.fixture
def castell_cli():
    return run_castell
