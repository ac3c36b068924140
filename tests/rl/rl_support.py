"""Shared helpers of the RL tests: skip cleanly without the extras (outside CI, where
`.[test]` installs them), and the codec check every game must pass."""

from __future__ import annotations

import os

import pytest


def need(module: str) -> None:
    """Skip when `module` (an extra's package) is missing — but fail in CI, which installs it."""
    if os.environ.get("CI"):
        __import__(module)
    else:
        pytest.importorskip(
            module, reason=f"{module} missing: pip install 'castell-dsl[rl,openspiel]'"
        )
