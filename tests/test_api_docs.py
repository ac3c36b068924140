"""docs/api.md documents the whole public API, and its examples run.

The runnable blocks (```python) of docs/api.md and of the README's "Library API" section are
executed here, each in a fresh namespace and an empty working directory, as
tests/docs/test_code_blocks.py runs every page's; this file also checks that no public name
is left out of them and that the event table says what the engine emits.
"""

from __future__ import annotations

import re
import typing
from pathlib import Path

import pytest

import castell_dsl
from castell_dsl.api import observers

ROOT = Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
API_PAGE = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")


def readme_api_section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("## Library API\n")
    return text[start : text.index("\n## ", start + 1)]


def blocks() -> list[tuple[str, str]]:
    out = []
    for page, text in (("docs/api.md", API_PAGE), ("README.md#library-api", readme_api_section())):
        for match in BLOCK.finditer(text):
            line = text.count("\n", 0, match.start()) + 2
            out.append((f"{page}:{line}", match.group(1)))
    return out


BLOCKS = blocks()


@pytest.mark.parametrize(("where", "code"), BLOCKS, ids=[where for where, _ in BLOCKS])
def test_every_example_runs(where, code, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    exec(compile(code, where, "exec"), {"__name__": "__docs__"})


def test_every_public_name_is_shown_in_a_runnable_example_or_the_types_table():
    code = "\n".join(code for where, code in BLOCKS if where.startswith("docs/api.md"))
    table = API_PAGE[API_PAGE.index("## The types a caller meets") :]
    public = set(castell_dsl.__all__) - {"__version__", "hookimpl"}
    missing = [n for n in sorted(public) if not re.search(rf"\b{n}\b", code + table)]
    assert missing == []
    functions = [n for n in public if n[0].islower()]
    assert [n for n in sorted(functions) if not re.search(rf"\b{n}\(", code)] == []


def test_the_readme_points_to_the_api_page_and_uses_the_new_functions():
    section = readme_api_section()
    assert "docs/api.md" in section
    code = "\n".join(code for where, code in BLOCKS if where.startswith("README"))
    for name in ("list_games", "list_variants", "save_game", "load_game", "simulate"):
        assert f"{name}(" in code, name
    assert "observers=" in code


def test_the_event_table_is_the_engines_events_with_their_keys():
    rows = re.findall(r"^\| `(\w+)` \| [^|]+ \| ([^|]*) \|$", API_PAGE, re.M)
    table = {name: set(re.findall(r"`(\w+)`", keys)) for name, keys in rows}
    kinds = {
        "start": observers.StartEvent,
        "round": observers.RoundEvent,
        "turn": observers.TurnEvent,
        "action": observers.ActionEvent,
        "end": observers.EndEvent,
    }
    assert tuple(kinds) == observers.CORE_EVENTS
    for name, kind in kinds.items():
        assert table[name] == set(typing.get_type_hints(kind)) - {"type"}, name
