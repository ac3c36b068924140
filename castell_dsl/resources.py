"""Where shipped data lives: the grammar and its parser tables, and (for plugins) their rule
files.

`pip install .` installs `grammar/` inside the package and each game's `rules/GAME/` inside that
game's package (see setup.py); an editable install or a source checkout keeps them at the top
of the repository. Both layouts are looked up here, and only here.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


@cache
def data_dir(name: str) -> Path:
    """The directory holding the core's bundled data `name` (the grammar)."""
    for candidate in (_PACKAGE_DIR / name, _PACKAGE_DIR.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"bundled '{name}' directory is missing from the installation")


def grammar_path() -> Path:
    return data_dir("grammar") / "castell.lark"


def parser_tables_path(kind: str = "language") -> Path:
    """A parser generated from the grammar, shipped beside it (`language/parser_tables.py`):
    the language's, or with `kind` "concrete" the formatter's (`tools/cst.py`)."""
    name = "castell.tables.json" if kind == "language" else f"castell.{kind}.tables.json"
    return data_dir("grammar") / name


def shipped_dir(package_file: str, installed: str, checkout: str) -> Path:
    """A plugin's data folder, found in both layouts: installed (`installed`, a folder inside
    the package, e.g. `"rules"`) or a source checkout (`checkout`, relative to the folder that
    holds the package's folder, e.g. `"../rules/castell"`).

    First-party games keep their rule files in the repository's `rules/GAME/` (the user's
    layout) and ship them inside their package; a third-party game usually keeps them inside
    its package, where both arguments name the same folder.
    """
    package = Path(package_file).resolve().parent
    for candidate in (package / installed, package.parent / checkout):
        if candidate.is_dir():
            return candidate.resolve()
    raise FileNotFoundError(f"'{installed}' is missing from the installation of {package.name}")
