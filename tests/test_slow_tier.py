"""The slow tier (`pytest -m "not slow"` is the quick loop): its module list names real
modules, so a renamed module cannot silently return to the quick loop or leave it."""

from __future__ import annotations

import importlib.util
from pathlib import Path

HERE = Path(__file__).parent


def _slow_modules() -> dict[str, str]:
    spec = importlib.util.spec_from_file_location("_tests_conftest", HERE / "conftest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return dict(module.SLOW_MODULES)


SLOW_MODULES = _slow_modules()


def test_every_slow_module_exists() -> None:
    missing = [name for name in SLOW_MODULES if not (HERE / name).is_file()]
    assert not missing, f"SLOW_MODULES names modules that do not exist: {missing}"


def test_the_marker_is_declared() -> None:
    pyproject = (HERE.parent / "pyproject.toml").read_text()
    assert '"slow: ' in pyproject
