"""Packaging: every folder of Python code is a real package, so a non-editable install (what CI
and users get from `pip install .`) ships it. An `__init__.py` missing from a folder imports fine
from a checkout (a namespace package) and is silently left out of the wheel by discovery."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_code_folder_is_a_package():
    missing = []
    for top in (ROOT / "castell_dsl", *sorted((ROOT / "plugins").iterdir())):
        if not top.is_dir() or top.name.startswith((".", "__")):
            continue
        for folder in [top, *(p for p in top.rglob("*") if p.is_dir())]:
            if "__pycache__" in folder.parts:
                continue
            if any(folder.glob("*.py")) and not (folder / "__init__.py").exists():
                missing.append(str(folder.relative_to(ROOT)))
    assert missing == []
