"""Packaging: every folder of Python code is a real package, so a non-editable install (what CI
and users get from `pip install .`) ships it. An `__init__.py` missing from a folder imports fine
from a checkout (a namespace package) and is silently left out of the wheel by discovery."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

#: Builds a wheel and a fresh virtual environment: the quick loop (`-m "not slow"`) skips it.
pytestmark = pytest.mark.slow

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


#: What `pip install .` builds from (setup.py, pyproject.toml and the folders they map).
_SOURCES = ["setup.py", "pyproject.toml", "README.md", "castell_dsl", "grammar", "plugins", "rules"]


def test_the_installed_package_ships_the_grammar_and_loads_its_parser_tables(tmp_path):
    """The parser tables are package data beside the grammar (setup.py): a wheel built as pip
    builds it has them, and the core imported from that wheel's files finds and loads them
    instead of building the parser (language/parser_tables.py)."""
    source = tmp_path / "src"
    source.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "build", "node_modules")
    for name in _SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=ignore)
        else:
            shutil.copy2(ROOT / name, source / name)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), str(source)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    (wheel,) = tmp_path.glob("castell_dsl-*.whl")
    installed = tmp_path / "installed"
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        files = ("lark", "tables.json", "concrete.tables.json")
        assert {f"castell_dsl/grammar/castell.{ext}" for ext in files} <= names
        archive.extractall(installed)
    shipped = installed / "castell_dsl" / "grammar" / "castell.tables.json"
    for name in ("castell.tables.json", "castell.concrete.tables.json"):
        assert (shipped.parent / name).read_bytes() == (ROOT / "grammar" / name).read_bytes()
    code = (
        "import castell_dsl; from castell_dsl.language import parser_tables as t;"
        "from castell_dsl.resources import grammar_path, parser_tables_path;"
        "print(castell_dsl.__file__); print(parser_tables_path());"
        "g = grammar_path().read_text(encoding='utf-8');"
        "print(t.load(g) is not None and t.load(g, kind='concrete') is not None)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        check=True, capture_output=True, text=True, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(installed)},
    ).stdout.split("\n")  # fmt: skip
    assert out[0].startswith(str(installed))
    assert out[1] == str(shipped)
    assert out[2] == "True"
