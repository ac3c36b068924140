"""Throw-away virtual environments for tests that install a third-party package, as a user
would, beside this environment's castell-dsl: the one recipe the plugin, game and RL tests share.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path


def venv_with(package: Path, root: Path, *, keep_source: bool = False) -> Path:
    """A new virtual environment under `root` that sees this environment's packages (castell-dsl
    and its dependencies, through a .pth file) and has `package` (a folder with a
    pyproject.toml) installed by pip from a copy; returns its python. Unless `keep_source`,
    the copy is deleted afterwards, so the installed package must stand on its own (its rule
    files shipped inside it)."""
    env = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(env)], check=True, timeout=120)
    python = env / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip
    parent = sysconfig.get_paths()["purelib"]
    Path(site, "castell_parent.pth").write_text(f"import site; site.addsitedir({parent!r})\n")
    source = root / package.name
    shutil.copytree(package, source, ignore=shutil.ignore_patterns("*.egg-info", "build"))
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", str(source)],
        check=True, timeout=300, capture_output=True,
    )  # fmt: skip
    if not keep_source:
        shutil.rmtree(source)
    return python
