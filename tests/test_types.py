"""The type checker passes: `mypy` (configured in pyproject.toml) finds no error.

CI runs `mypy` itself too (`.ci/run`); this test makes the normal suite catch a type error as
well. It runs mypy in a subprocess from the checkout, with mypy's incremental cache in the
checkout's `.mypy_cache` (the one a plain `mypy` uses), so after the first run it takes well
under a second; a cold run takes a few seconds.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

#: Runs mypy over the project: the quick loop (`-m "not slow"`) skips it.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_finds_no_type_error():
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed (it is in the `test` extra): type check not run")
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-error-summary", "--no-color-output"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, f"mypy found type errors:\n{run.stdout}{run.stderr}"
