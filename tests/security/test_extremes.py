"""Extreme and failing inputs that used to end in an internal error (issue 27, points 10, 14).

- An expression that fails while a game is played (a division by zero, an index out of range)
  is a located rule error (E0293) in every command that plays (`simulate`, `compare`, `play`),
  and `validate` finds a division whose divisor is a constant 0.
- A loop of symbolic links in `include`, `extends` or a directory is a located error.
- `castell tower` refuses extreme arguments with a message (exit 2), and the tower API
  (`castell_game.api`) checks its arguments once, with the same answers from both searches.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from castell_dsl.cli import main

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    capsys.readouterr()
    code = main(list(args))
    captured = capsys.readouterr()
    text = captured.out + captured.err
    assert "internal error" not in text and "Traceback" not in text, text
    return code, text


def variant(tmp_path: Path, name: str, category: str) -> str:
    path = tmp_path / f"{name}.castell"
    path.write_text(
        f'extends "castell"\noverride scoring {{\n  category size_tokens = {category}\n}}\n'
    )
    return str(path)


# ---- run-time failures of expressions (C-10.5's category, changed) --------------------------

FAILING = {
    "division": "2 * distinct(size_tokens) // (count(size_tokens) - count(size_tokens))",
    "modulo": "distinct(size_tokens) % (count(size_tokens) * 0)",
    "index": "[1, 2][count(size_tokens) + 5]",
}


@pytest.mark.parametrize("kind", sorted(FAILING))
@pytest.mark.parametrize("command", ["simulate", "compare", "play"])
def test_an_expression_failing_in_a_game_is_a_located_rule_error(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    kind,
    command,
) -> None:
    monkeypatch.chdir(tmp_path)
    file = variant(tmp_path, kind, FAILING[kind])
    code, text = run(capsys, "validate", file)
    assert code == 0  # not constant: only a game shows it
    args = {
        "simulate": ["simulate", "--rules", file, "--games", "2", "--players", "2"],
        "compare": ["compare", file, "castell", "--games", "2", "--jobs", "2"],
        "play": ["play", "--rules", file, "--players", "random,random", "--frontend", "jsonl"],
    }[command]
    code, text = run(capsys, *args)
    assert code == 1, text
    assert f"{kind}.castell:3:" in text and "error[E0293]" in text, text


@pytest.mark.parametrize("divisor", ["0", "(3 - 3)", "-(2 * 0)", "(7 % 7)"])
@pytest.mark.parametrize("op", ["//", "%"])
def test_validate_finds_a_constant_division_by_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, op, divisor
) -> None:
    monkeypatch.chdir(tmp_path)
    file = variant(tmp_path, "constant", f"distinct(size_tokens) {op} {divisor}")
    code, text = run(capsys, "validate", file)
    assert code == 1
    assert "constant.castell:3:" in text and "error[E0293]" in text and "division by zero" in text


def test_a_nonzero_constant_divisor_is_fine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    file = variant(tmp_path, "fine", "distinct(size_tokens) // (3 - 2) + 10 % 3")
    assert run(capsys, "validate", file)[0] == 0
    assert run(capsys, "simulate", "--rules", file, "--games", "1", "--players", "2")[0] == 0


# ---- loops of symbolic links ---------------------------------------------------------------


@pytest.fixture
def loops(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    os.symlink("loop-b.castell", tmp_path / "loop-a.castell")
    os.symlink("loop-a.castell", tmp_path / "loop-b.castell")
    os.symlink("self.castell", tmp_path / "self.castell")
    return tmp_path


@pytest.mark.parametrize(
    "text, shown",
    [
        ('extends "castell"\ninclude "loop-a.castell"\n', "included file 'loop-a.castell'"),
        ('extends "castell"\ninclude "self.castell"\n', "included file 'self.castell'"),
        ('extends "./loop-a.castell"\n', "rule file './loop-a.castell'"),
    ],
)
def test_a_symlink_loop_is_a_located_error(
    loops: Path, capsys: pytest.CaptureFixture[str], text: str, shown: str
) -> None:
    (loops / "main.castell").write_text(text)
    code, out = run(capsys, "validate", "main.castell")
    assert code == 1
    assert f"main.castell:{text.count(chr(10))}:1: error[E0271]: {shown} is a loop" in out, out


def test_symlink_loops_given_on_the_command_line_are_refused(
    loops: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (loops / "dir").mkdir()
    os.symlink("../self.castell", loops / "dir" / "linked.castell")
    for args in (
        ["validate", "loop-a.castell"],
        ["validate", "dir"],
        ["play", "--rules", "./self.castell"],
        ["play", "--variant", "./loop-a.castell"],
        ["simulate", "--rules", "./loop-b.castell", "--games", "1"],
        ["fmt", "self.castell"],
    ):
        code, _out = run(capsys, *args)
        assert code in (0, 1, 2), args


def test_the_language_server_analyses_a_document_including_a_loop(loops: Path) -> None:
    from castell_dsl.tools.analysis import analyze

    analysis = analyze(loops / "doc.castell", 'extends "castell"\ninclude "loop-a.castell"\n')
    assert any(d.code == "E0271" and d.span.line == 2 for d in analysis.diagnostics)


# ---- castell tower -----------------------------------------------------------------------------

TOWER_ARGS = [
    ["check", "²"],
    ["check", "9" * 5000],
    ["check", "6,6,6", "--rules", "calico"],
    ["check", "6,6,6", "--rank", "balance=" + "9" * 5000],
    ["check", "6,6,6", "--rank", "balance=1e9"],
    ["check", "6,6,6", "--shape", "²-1"],
    ["check", "6,6,6", "--shape", "9" * 5000],
    ["best", "--team", "²"],
    ["best", "--team", "9" * 5000],
    ["best", "--team", ",".join(["6"] * 20_000)],
    ["best", "--team", ",".join(["1", "2", "3", "4", "5", "6"] * 30), "--rank", "balance=3"],
    ["best", "--team", "6,6,99"],
    ["best", "--team", "6,6", "--rules", "calico"],
    ["best", "--team", "6,6", "--min-levels", "9" * 30],
    ["best", "--team", "6,6", "--size", "9" * 30],
    ["best", "--team", "6,6", "--shape", "9" * 9],
    ["best", "--team", "6,6", "--needs", "balance,nope"],
]


@pytest.mark.parametrize("args", TOWER_ARGS, ids=lambda a: " ".join(a)[:40])
def test_extreme_tower_arguments_are_refused_or_answered(
    capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    code, text = run(capsys, "tower", *args)
    assert code in (1, 2), text  # 2: refused with a message; 1: no such tower
    if code == 2:
        assert "error:" in text and len(text) < 1000


# ---- the tower API: arguments checked once, both searches alike -------------------------------

VALUES = st.one_of(
    st.integers(-3, 8),
    st.integers(),
    st.floats(allow_nan=True),
    st.booleans(),
    st.none(),
    st.text(max_size=3),
    st.lists(st.integers(0, 8), max_size=3),
)


def _answer(call: Any) -> tuple[str, Any]:
    from castell_game.api import TowerArgumentError

    try:
        return "ok", call()
    except TowerArgumentError as exc:
        return "refused", str(exc)
    except ValueError as exc:  # a casteller number the game does not have
        return "value", str(exc)


@settings(max_examples=150, deadline=None)
@given(
    team=st.lists(st.integers(1, 6) | VALUES, max_size=8),
    rank=st.sampled_from(["balance", "width", "nope"]),
    value=VALUES,
    min_levels=VALUES,
    sizes=st.lists(st.integers(1, 6) | VALUES, max_size=2),
)
def test_the_tower_api_answers_the_same_from_both_searches(team, rank, value, min_levels, sizes):
    from castell_game import solver
    from castell_game.api import best_tower, check_tower

    def ask() -> list[tuple[str, Any]]:
        return [
            _answer(lambda: best_tower(team, {rank: value}, sizes, min_levels)),
            _answer(lambda: check_tower([team[:3], team[3:5], team[5:]], {rank: value})),
        ]

    answers = {}
    for backend in ("python", "compiled"):
        previous = solver.use_search_backend(backend)
        try:
            answers[backend] = ask()
        finally:
            solver.use_search_backend(previous)
    assert answers["python"] == answers["compiled"]
    for status, _answer_value in answers["python"]:
        assert status in ("ok", "refused", "value")


@pytest.mark.parametrize(
    "call",
    [
        lambda api: api.best_tower([6, 6, 6, 5, 5, 4], {"balance": 2**30}),
        lambda api: api.best_tower([6, 6, 6], {"balance": 1.5}),
        lambda api: api.best_tower([6, 6, 6], {"balance": True}),
        lambda api: api.best_tower([6.5, 6, 6]),
        lambda api: api.best_tower([6, 6, 6], sizes=(6.0,)),
        lambda api: api.best_tower([6, 6, 6], min_levels=2.5),
        lambda api: api.best_tower([6, 6, 6], rules="calico"),
        lambda api: api.check_tower([[6, 6, 6]], rules="calico"),
        lambda api: api.check_tower([[6, 6, 6]], {"nope": 1}),
        lambda api: api.check_tower([[6]] * 20_000),
        lambda api: api.best_tower([6] * 10_000, sizes=(6,)),  # 800 MB of tables, once
        lambda api: api.best_tower("666"),
    ],
)
def test_unusable_tower_arguments_are_refused(call) -> None:
    from castell_game import api

    with pytest.raises(api.TowerArgumentError):
        call(api)


def test_impossible_tower_questions_are_answered_without_a_search() -> None:
    import tracemalloc

    from castell_game.api import best_tower

    tracemalloc.start()
    for found in (best_tower([6, 6, 6], min_levels=10**30), best_tower([6, 6], shape=[10**9])):
        assert found["found"] is False
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 50 * 1024 * 1024


# ---- the size of rule files: parse time stays within seconds -------------------------------


def test_a_file_over_the_cap_is_refused_with_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from castell_dsl.language.source import MAX_FILE_BYTES

    monkeypatch.chdir(tmp_path)
    body = 'extends "castell"\noverride region Girona { adjacent [Barcelona'
    path = tmp_path / "big.castell"
    path.write_text(body + ", Barcelona" * (MAX_FILE_BYTES // 11) + "] }\n")
    code, text = run(capsys, "validate", "big.castell")
    assert code == 1 and "big.castell:1:1: error[E0107]: file is larger than 64 KB" in text


def test_the_files_of_one_load_are_capped_in_all(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """256 includes of files each within the cap would parse for minutes: the total is capped."""
    from castell_dsl.language.source import MAX_FILE_BYTES, MAX_LOAD_BYTES

    monkeypatch.chdir(tmp_path)
    count = MAX_LOAD_BYTES // (MAX_FILE_BYTES - 1000) + 1
    for n in range(count):
        (tmp_path / f"part{n}.castell").write_text("# filler\n" * ((MAX_FILE_BYTES - 1000) // 9))
    includes = "".join(f'include "part{n}.castell"\n' for n in range(count))
    (tmp_path / "main.castell").write_text('extends "castell"\n' + includes)
    code, text = run(capsys, "validate", "main.castell")
    assert code == 1 and "error[E0107]" in text and "in all" in text, text
