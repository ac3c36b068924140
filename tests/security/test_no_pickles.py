"""Regression: nothing Castell DSL reads from disk is unpickled (docs/security.md, "caches").

Lark's `cache=True` stored the parser as a pickle in the shared temporary directory under a name
every user computes alike; another local user who planted that file ran code in the next
`castell validate`. The parser is now loaded from JSON tables shipped with the package
(`language/parser_tables.py`) or built in memory, and no module of the product loads pickles.
"""

from __future__ import annotations

import ast
import pickle
import subprocess
import sys
from pathlib import Path

import castell_dsl

ROOT = Path(castell_dsl.__file__).resolve().parent.parent
SOURCE_DIRS = [ROOT / "castell_dsl", ROOT / "plugins"]


def _python_files() -> list[Path]:
    return [p for d in SOURCE_DIRS if d.is_dir() for p in d.rglob("*.py")]


def test_no_module_unpickles_or_asks_lark_for_its_pickle_cache():
    offenders = []
    for path in _python_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names]
                module = getattr(node, "module", None) or ""
                if {"pickle", "cPickle", "dill", "shelve"} & {module, *names}:
                    offenders.append(f"{path}:{node.lineno} imports a pickle module")
            if isinstance(node, ast.keyword) and node.arg == "cache":
                offenders.append(f"{path}:{node.lineno} passes cache= (lark's pickle cache)")
    assert offenders == []


def test_a_planted_lark_cache_file_is_never_loaded(tmp_path):
    """Plant a pickle cache file in the temporary directory; building the parser must neither
    execute it nor write a cache of its own there (which is what `cache=True` did)."""
    marker = tmp_path / "pwned"

    class Payload:
        def __reduce__(self):
            return (Path.touch, (marker,))

    env_tmp = tmp_path / "tmp"
    env_tmp.mkdir()
    (env_tmp / ".lark_cache_planted.tmp").write_bytes(pickle.dumps(Payload()))
    code = (
        "from castell_dsl.language.parser import _parser; _parser();"
        "import tempfile, pathlib;"
        "print(sorted(p.name for p in pathlib.Path(tempfile.gettempdir()).glob('.lark_cache_*')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={"TMPDIR": str(env_tmp), "PATH": "/usr/bin:/bin"},
        check=True,
    )
    assert not marker.exists()
    # and building the parser writes no cache of its own into the temporary directory
    assert out.stdout.strip() == "['.lark_cache_planted.tmp']"
