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


@pytest.fixture(scope="module")
def built_wheel(tmp_path_factory) -> tuple[set[str], Path]:
    """A wheel built from a copy of the sources as `pip install .` builds it (the compiled
    tower search included where a C compiler is), and the folder it is unpacked into: (the
    wheel's file names, that folder)."""
    tmp_path = tmp_path_factory.mktemp("wheel")
    source = tmp_path / "src"
    source.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "build", "node_modules", "*.so")
    for name in _SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=ignore)
        else:
            shutil.copy2(ROOT / name, source / name)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), str(source)],
        check=True, capture_output=True, timeout=600,
    )  # fmt: skip
    (wheel,) = tmp_path.glob("castell_dsl-*.whl")
    installed = tmp_path / "installed"
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        archive.extractall(installed)
    return names, installed


def test_the_installed_package_ships_the_grammar_and_loads_its_parser_tables(built_wheel):
    """The parser tables are package data beside the grammar (setup.py): a wheel built as pip
    builds it has them, and the core imported from that wheel's files finds and loads them
    instead of building the parser (language/parser_tables.py)."""
    names, installed = built_wheel
    tmp_path = installed.parent
    files = ("lark", "tables.json", "concrete.tables.json")
    assert {f"castell_dsl/grammar/castell.{ext}" for ext in files} <= names
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


def test_the_installed_package_compiles_the_tower_search_from_its_one_source(built_wheel):
    """`pip install .` compiles `castell_game/tower_search.py` (typed by its .pxd) where a C
    compiler is, and ships the .py too: the solver of the installed files runs the compiled
    build, and the same file runs as plain Python beside it with the same answer."""
    names, installed = built_wheel
    assert "castell_game/tower_search.py" in names
    compiled = [
        n for n in names if n.startswith("castell_game/tower_search.") and n.endswith(".so")
    ]
    if not compiled:
        if os.environ.get("CI"):
            pytest.fail("CI has a C compiler: the wheel must hold the compiled tower search")
        pytest.skip("no C compiler here: the wheel has only the plain-Python tower search")
    code = (
        "from castell_game import solver, tables; import castell_dsl;"
        "rules = tables.tower_rules(castell_dsl.load_rules('castell'));"
        "team = [9, 9, 8, 8, 7, 6, 5, 4, 3, 2, 1]; ranks = dict.fromkeys(rules.skills, 2);"
        "print(solver.search_backend(), solver._compiled.__file__);"
        "a = solver.best_festival_tower(team, ranks, rules, (8, 3), 4);"
        "solver.use_search_backend('python');"
        "b = solver.best_festival_tower(team, ranks, rules, (8, 3), 4);"
        "print(solver._plain_search().__file__); print(a == b and a is not None)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        check=True, capture_output=True, text=True, cwd=installed.parent,
        env={**os.environ, "PYTHONPATH": str(installed)},
    ).stdout.split("\n")  # fmt: skip
    assert out[0] == f"compiled {installed / compiled[0]}"
    assert out[1] == str(installed / "castell_game" / "tower_search.py")
    assert out[2] == "True"
