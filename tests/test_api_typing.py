"""A program using the public API type-checks: the lazily exported names (PEP 562
`__getattr__` in `castell_dsl/__init__.py`) have their real types under mypy, and a mistake
against them is an error. The package ships `py.typed` (PEP 561) so installed copies are
checked too."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

#: Runs mypy: the quick loop (`-m "not slow"`) skips it.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent

PROGRAM = """
from castell_dsl import (
    Action, ActionError, GameObserver, ObservedGame, Rejection, RuleError, RuleSet,
    list_games, list_variants, load_game, load_rules, new_game, save_game, simulate,
)
from castell_dsl.api.observers import GameEvent


def watch(game: ObservedGame, event: GameEvent) -> None:
    print(game.round, event["type"])


observer: GameObserver = watch
game = new_game("castell", 2, observers=[watch])
reveal_type(game.legal_actions())
reveal_type(list_games()[0].players)
reveal_type(list_variants("castell")[0].players)
reveal_type(simulate("castell").records)
reveal_type(load_rules("castell"))
why: Rejection | None = game.explain("end")
wrong: int = save_game(game, "x.json")
"""


def test_the_public_names_have_their_types_under_mypy(tmp_path):
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed (it is in the `test` extra)")
    assert (ROOT / "castell_dsl" / "py.typed").is_file()
    program = tmp_path / "uses_the_api.py"
    program.write_text(PROGRAM, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent",
         "--no-error-summary", "--cache-dir", str(tmp_path / "cache"), str(program)],
        cwd=tmp_path,
        env={**os.environ, "MYPYPATH": os.pathsep.join([str(ROOT), str(ROOT / "plugins")])},
        capture_output=True,
        text=True,
        timeout=600,
    )  # fmt: skip
    lines = run.stdout.splitlines()
    revealed = [  # older mypy versions spell `int` as `builtins.int`
        line.split("Revealed type is ")[1].replace("builtins.", "")
        for line in lines
        if "Revealed type" in line
    ]
    assert revealed == [
        '"list[castell_dsl.contract.actions.Action]"',
        '"tuple[int, int]"',
        '"tuple[int, int] | None"',
        '"list[dict[str, Any]]"',
        '"castell_dsl.language.ruleset.RuleSet"',
    ], run.stdout
    errors = [line for line in lines if ": error:" in line]
    assert len(errors) == 1 and '"Path", variable has type "int"' in errors[0], run.stdout
