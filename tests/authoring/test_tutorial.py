"""Item 7: every command of docs/variants.md runs as written, and prints what the page shows.

The page is read in order, in a fresh directory:

- ```castell file=NAME writes NAME (a later block of the same name rewrites it);
- ```sh test [exit=N] runs each line with bash: every line must succeed, except that the
  last one must exit with N when `exit=N` is given;
- ```text output lists lines the previous command's output must contain (a `…` in a line
  stands for any text);
- ```yaml test runs the `castell` commands of a workflow (`run:`) and of a pre-commit hook
  (`entry:`, given the directory's .castell files, as pre-commit does).

`castell` is this checkout's (a shim running `python -m castell_dsl` with this interpreter).
The only change made to a command: `--games N` above 30 is run with 30 games, to keep the
suite quick (the page shows the number a designer should use).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[2] / "docs" / "variants.md"
BLOCK = re.compile(r"^```(\w+)([^\n]*)\n(.*?)^```", re.S | re.M)
MAX_GAMES = 30


def _blocks() -> list[tuple[str, str, str]]:
    return [(m[1], m[2].strip(), m[3]) for m in BLOCK.finditer(PAGE.read_text("utf-8"))]


def _quick(command: str) -> str:
    def fewer(match: re.Match) -> str:
        return f"--games {min(int(match[1]), MAX_GAMES)}"

    return re.sub(r"--games (\d+)", fewer, command)


def _shell(tmp: Path, command: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PATH=f"{tmp / '.bin'}{os.pathsep}{os.environ.get('PATH', '')}")
    env.pop("FORCE_COLOR", None)
    return subprocess.run(
        ["bash", "-c", _quick(command)],
        cwd=tmp,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _expect(output: str, wanted: str) -> None:
    lines = output.splitlines()
    for line in wanted.splitlines():
        if not line.strip():
            continue
        pieces = [re.escape(p) for p in line.strip().split("…")]
        pattern = re.compile(".*".join(pieces))
        assert any(pattern.search(have) for have in lines), f"not in the output: {line!r}"


def test_the_page_has_runnable_blocks():
    kinds = [(kind, info.split()[0] if info else "") for kind, info, _ in _blocks()]
    assert ("sh", "test") in kinds and ("castell", "file=eight-rounds.castell") in kinds
    assert ("yaml", "test") in kinds


@pytest.mark.slow  # each command is a `castell` process
def test_every_command_of_the_tutorial(tmp_path):
    shim = tmp_path / ".bin" / "castell"
    shim.parent.mkdir()
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m castell_dsl "$@"\n')
    shim.chmod(0o755)
    last: subprocess.CompletedProcess | None = None
    ran = 0
    for kind, info, body in _blocks():
        words = info.split()
        if kind == "castell" and words and words[0].startswith("file="):
            (tmp_path / words[0].removeprefix("file=")).write_text(body, encoding="utf-8")
        elif kind == "sh" and "test" in words:
            exit_code = next((int(w[5:]) for w in words if w.startswith("exit=")), 0)
            commands = [c for c in body.splitlines() if c.strip()]
            for index, command in enumerate(commands):
                last = _shell(tmp_path, command)
                ran += 1
                want = exit_code if index == len(commands) - 1 else 0
                assert last.returncode == want, (command, last.stdout, last.stderr)
        elif kind == "text" and "output" in words:
            assert last is not None, "an output block follows a command"
            _expect(last.stdout + last.stderr, body)
        elif kind == "yaml" and "test" in words:
            files = " ".join(sorted(p.name for p in tmp_path.glob("*.castell")))
            for line in body.splitlines():
                found = re.match(r"\s*(?:- )?(run|entry):\s*(castell .*)$", line)
                if found is None:
                    continue
                command = found[2] + (f" {files}" if found[1] == "entry" else "")
                last = _shell(tmp_path, command)
                ran += 1
                assert last.returncode == 0, (command, last.stdout, last.stderr)
    assert ran >= 12
    png = tmp_path / "scores.png"
    if png.exists():  # matplotlib installed
        assert png.read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize("example", ["eight-rounds.castell"])
def test_the_tutorials_final_variant_is_the_tests_one(example, eight_rounds_text):
    """The complete variant shown on the page plays (the other authoring tests use it)."""
    blocks = [b for k, i, b in _blocks() if k == "castell" and i == f"file={example}"]
    assert "override calendar" in blocks[-1]
    assert blocks[-1].count("space {") == eight_rounds_text.count("space {")
