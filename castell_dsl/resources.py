"""Where the bundled data lives: the grammar and the rule files.

`pip install .` installs `grammar/` and `rules/` inside the package (see pyproject.toml); an
editable install or a source checkout keeps them at the top of the repository. Both layouts are
looked up here, and only here.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


@cache
def data_dir(name: str) -> Path:
    """The directory holding bundled data `name` ("grammar" or "rules")."""
    for candidate in (_PACKAGE_DIR / name, _PACKAGE_DIR.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"bundled '{name}' directory is missing from the installation")


def grammar_path() -> Path:
    return data_dir("grammar") / "castell.lark"


def bundled_rules_dir() -> Path:
    return data_dir("rules")
