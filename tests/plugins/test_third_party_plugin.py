"""A third-party plugin, for real: built from its own pyproject.toml and installed into a
throw-away virtual environment next to the project, found through the entry point.

The plugin is the example of docs/plugins.md (docs/examples/castell-quick).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from venvs import venv_with

#: Installs the example plugin into a fresh virtual environment.
pytestmark = pytest.mark.slow

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "castell-quick"


@pytest.fixture(scope="module")
def venv(tmp_path_factory) -> Path:
    """A new virtual environment that sees this environment's packages (castell-dsl and its
    dependencies, through a .pth file) and has the plugin installed by pip."""
    return venv_with(EXAMPLE, tmp_path_factory.mktemp("thirdparty"), keep_source=True)


def castell(python: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("CASTELL_")}
    environment.update(env)
    return subprocess.run(
        [str(python), "-m", "castell_dsl", *args],
        capture_output=True, text=True, timeout=300, env=environment,
    )  # fmt: skip


def test_castell_plugins_lists_the_installed_plugin(venv):
    out = castell(venv, "plugins", "--format", "json")
    assert out.returncode == 0, out.stderr
    plugins = {p["name"]: p for p in json.loads(out.stdout)["plugins"]}
    assert plugins["quick"]["source"] == "castell-quick 0.1.0"
    assert plugins["quick"]["hooks"] == ["register_variants"]
    assert plugins["castell"]["source"] == "built-in"


def test_its_variant_changes_a_game(venv):
    out = castell(venv, "simulate", "--variant", "quick", "--games", "2", "--format", "jsonl")
    assert out.returncode == 0, out.stderr
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert [line["rounds"] for line in lines] == [6, 6]


def test_disabling_or_no_plugins_removes_it(venv):
    disabled = castell(venv, "simulate", "--variant", "quick", "--games", "1",
                       CASTELL_DISABLE_PLUGINS="quick")  # fmt: skip
    assert disabled.returncode == 1
    assert "unknown variant 'quick'" in disabled.stderr
    listed = castell(venv, "--no-plugins", "plugins", "--format", "json")
    names = [p["name"] for p in json.loads(listed.stdout)["plugins"]]
    assert "quick" not in names and "castell" in names
