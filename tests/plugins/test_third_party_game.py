"""A whole new game as a third-party package: docs/examples/castell-pebbles, the example that
docs/new-game.md builds step by step.

The package is built from its own pyproject.toml and installed (not editable, so its rule files
must really ship inside it) into one throw-away virtual environment for the module, which sees
this checkout's castell-dsl through a .pth file (as tests/plugins/test_third_party_plugin.py
does). Then the guide's steps run as commands: `castell plugins`, `validate` (and a broken
variant reporting the game's own code), `simulate`, `--save` and `replay`, `play` with piped
moves, `rules show`. Nothing here imports the game: it is found through its entry point only.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from venvs import venv_with

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "castell-pebbles"


#: These install the example game into a fresh virtual environment.
SLOW = pytest.mark.slow


@pytest.fixture(scope="module")
def venv(tmp_path_factory) -> Path:
    """A new virtual environment that sees this environment's packages (castell-dsl and its
    dependencies, through a .pth file) and has the game installed by pip from a copy."""
    return venv_with(EXAMPLE, tmp_path_factory.mktemp("pebbles"))


@pytest.fixture
def work(tmp_path, monkeypatch) -> Path:
    """A working directory of its own (saves, broken files), with no ./rules folder."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def castell(python: Path, *args: str, input: str | None = None, cwd: Path | None = None):
    environment = {k: v for k, v in os.environ.items() if not k.startswith("CASTELL_")}
    if cwd is not None:
        environment["CASTELL_SAVE_DIR"] = str(cwd / "saves")
    return subprocess.run(
        [str(python), "-m", "castell_dsl", *args],
        capture_output=True, text=True, timeout=300, env=environment, input=input, cwd=cwd,
    )  # fmt: skip


def installed_rules(python: Path) -> Path:
    """The rule folder inside the installed package (site-packages, not this checkout)."""
    out = subprocess.run(
        [str(python), "-c", "import castell_pebbles, pathlib; "
         "print(pathlib.Path(castell_pebbles.__file__).parent / 'rules')"],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    return Path(out.stdout.strip())


@SLOW
def test_castell_plugins_lists_the_game(venv):
    """Step "install": the entry point is found; the plugin registers rules and mechanics."""
    out = castell(venv, "plugins", "--format", "json")
    assert out.returncode == 0, out.stderr
    plugins = {p["name"]: p for p in json.loads(out.stdout)["plugins"]}
    assert plugins["pebbles"]["source"] == "castell-pebbles 0.1.0"
    assert plugins["pebbles"]["hooks"] == ["register_mechanics", "register_rule_paths"]
    assert plugins["castell"]["source"] == "built-in"


@SLOW
def test_validate_passes_and_a_broken_variant_reports_the_games_own_code(venv, work):
    """Step "validate": the shipped rule file and variant are clean; a variant with a heap of
    0 pebbles gets the game's own E0901 at its file:line:col, and the command fails."""
    rules = installed_rules(venv)
    assert "site-packages" in str(rules)
    out = castell(venv, "validate", str(rules), cwd=work)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "2 files checked, 0 errors, 0 warnings" in out.stdout
    (work / "broken.castell").write_text('extends "pebbles"\n\noverride heaps { sizes 0..50 }\n')
    bad = castell(venv, "validate", "broken.castell", cwd=work)
    assert bad.returncode == 1
    assert "broken.castell:3:24: error[E0901]: heap sizes 0..50 are out of range" in bad.stdout
    shown = castell(venv, "validate", "--format", "json", "broken.castell", cwd=work)
    assert '"E0901"' in shown.stdout


@SLOW
def test_simulate_with_the_existing_bots(venv):
    """Step "simulate": 20 random two-player games, and the greedy and MCTS bots on the
    variant; every game runs its rounds and scores by the rule file's categories."""
    out = castell(venv, "simulate", "--rules", "pebbles", "--games", "20", "--players", "2",
                  "--bots", "random", "--format", "jsonl", "--no-progress")  # fmt: skip
    assert out.returncode == 0, out.stderr
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(lines) == 20 and {line["rounds"] for line in lines} == {8}
    assert all(list(p["categories"]) == ["pebbles", "heaps"] for p in lines[0]["players"])
    bots = castell(venv, "simulate", "--rules", "pebbles", "--variant", "big-heaps",
                   "--games", "2", "--players", "3", "--bots", "greedy,mcts,random",
                   "--format", "jsonl", "--no-progress")  # fmt: skip
    assert bots.returncode == 0, bots.stderr
    assert {json.loads(line)["rounds"] for line in bots.stdout.splitlines()} == {10}


@SLOW
def test_a_saved_game_replays(venv, work):
    """Step "replay": a game saved by `simulate --save` is reproduced action by action."""
    out = castell(venv, "simulate", "--rules", "pebbles", "--games", "1", "--players", "2",
                  "--bots", "random", "--save", str(work), "--no-progress")  # fmt: skip
    assert out.returncode == 0, out.stderr
    replayed = castell(venv, "replay", str(work / "game-00000.json"))
    assert replayed.returncode == 0, replayed.stderr
    assert "verified: 16 actions reproduce the saved state (finished)" in replayed.stdout


@SLOW
def test_play_to_the_end_with_piped_moves(venv, work):
    """Step "play": a person against the random bot, typing the first listed action (and one
    illegal take, refused with the game's own reason) until the final scores."""
    moves = "take A 9\n" + "1\n" * 8
    out = castell(venv, "play", "--rules", "pebbles", "--players", "you,random", "--seed", "3",
                  input=moves, cwd=work)  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "Not allowed: take 1 to 3 pebbles (too-many)" in out.stdout
    assert out.stdout.count("seat 0 (you)> 1") == 8
    assert "Final scores" in out.stdout and "Winner:" in out.stdout
    assert "heap A" in out.stdout  # the game's own rendering
    assert "empties heap" in out.stdout  # and its own events, told by `narrate`


@SLOW
def test_rules_show_prints_the_compiled_game(venv):
    """Step "rules show": the compiled rule set, with the variant's changes."""
    out = castell(venv, "rules", "show", "pebbles", "--format", "json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["game"]["mechanics"] == "pebbles" and data["heaps"]["count"] == 3
    big = castell(venv, "rules", "show", "pebbles", "--variant", "big-heaps", "--diff")
    assert big.returncode == 0, big.stderr
    assert "10" in big.stdout and "12" in big.stdout


def test_the_example_uses_only_the_contract():
    """A game is written against `castell_dsl.contract` (and `castell_dsl.hookimpl`), never the
    engine's, the language's or the runtime's internals, which are free to change."""
    imported: list[str] = []
    for path in sorted(EXAMPLE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                imported += [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                if node.module == "castell_dsl":
                    imported += [f"castell_dsl.{alias.name}" for alias in node.names]
                else:
                    imported.append(node.module)
    ours = sorted({name for name in imported if name.split(".")[0] == "castell_dsl"})
    assert ours == ["castell_dsl.contract", "castell_dsl.hookimpl"]
    pyproject = (EXAMPLE / "pyproject.toml").read_text()
    assert 'dependencies = ["castell-dsl"]' in pyproject
    assert 'pebbles = "castell_pebbles"' in pyproject


def test_the_guide_shows_the_examples_real_code():
    """docs/new-game.md walks through the example: each of its toml, castell and py blocks
    is a piece of one of the example's files (up to layout: ruff formats the guide's python
    excerpts on their own), so the guide cannot drift from the code."""
    guide = (EXAMPLE.parents[1] / "new-game.md").read_text()
    files = {
        path.name: re.sub(r"\s+", "", path.read_text())
        for path in EXAMPLE.rglob("*")
        if path.suffix in (".py", ".toml", ".castell")
    }
    blocks = re.findall(r"```(py|toml|castell)\n(.*?)```", guide, re.S)
    assert len(blocks) >= 8
    for _lang, body in blocks:
        squeezed = re.sub(r"\s+", "", body)
        assert any(squeezed in text for text in files.values()), body[:200]
