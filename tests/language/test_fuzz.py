"""Fuzzing the parser and compiler with generated and mutated rule files.

Property: whatever the input, loading it gives either a rule set or a list of diagnostics, each
with a known code and a position inside the file it names — never an exception.

The normal suite runs a bounded number of examples. A longer campaign:
    HYPOTHESIS_PROFILE=long pytest tests/language/test_fuzz.py
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from castell_dsl.language.diagnostics import CODES
from castell_dsl.runtime.loading import load_report, rule_path

CASTELL = rule_path().find_rules("castell").read_text()
LINES = CASTELL.splitlines(keepends=True)

TOKENS = [
    "{", "}", "[", "]", "(", ")", ",", ":", "=", "..", "-", "+", "*", "//", "%", "==", ">=", "<",
    "when", "in", "not", "and", "or", "for", "if", "true", "false", "include", "extends",
    "override", "remove", "game", "region", "skill", "performance", "table", "round", "turn",
    "scoring", "step", "turns", "action", "category", "Barcelona", "Girona", "balance", "mix",
    "x", "LP01", '"castell"', '"text"', "0", "1", "3", "10", "99999", "1..10", "#c\n", "\n", " ",
]  # fmt: skip

tokens_text = st.lists(st.sampled_from(TOKENS), max_size=60).map(" ".join)


@st.composite
def mutated_castell(draw) -> str:
    """The bundled rules with a few random edits: deletions, insertions, swaps, duplications."""
    lines = list(LINES)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["delete", "insert", "swap", "duplicate", "chars", "number"]))
        i = draw(st.integers(0, len(lines) - 1))
        if kind == "delete":
            del lines[i]
        elif kind == "insert":
            lines.insert(i, draw(tokens_text) + "\n")
        elif kind == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "duplicate":
            lines.insert(i, lines[i])
        elif kind == "chars":
            line = lines[i]
            a = draw(st.integers(0, len(line)))
            b = draw(st.integers(a, min(len(line), a + 8)))
            lines[i] = line[:a] + draw(st.text(max_size=4)) + line[b:]
        else:
            lines[i] = lines[i].replace("3", str(draw(st.integers(-5, 40))), 1)
        if not lines:
            break
    return "".join(lines)


def check_outcome(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    report = load_report(path)
    if report.rules is not None and report.ok:
        return
    assert report.diagnostics, "a failed load must say why"
    for diag in report.diagnostics:
        assert diag.code in CODES
        assert diag.span.line >= 1 and diag.span.column >= 1
        assert (diag.span.end_line, diag.span.end_column) >= (diag.span.line, diag.span.column)
        lines = report.source_lines(diag.span.path)
        if lines is not None:
            assert diag.span.line <= max(1, len(lines)) + 1


fuzz_settings = settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)


@fuzz_settings
@given(text=tokens_text)
def test_generated_token_soup_never_crashes(text, tmp_path_factory):
    check_outcome(tmp_path_factory.mktemp("fuzz") / "soup.castell", text)


@fuzz_settings
@given(text=st.text(max_size=300))
def test_arbitrary_text_never_crashes(text, tmp_path_factory):
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return
    check_outcome(tmp_path_factory.mktemp("fuzz") / "text.castell", text)


@fuzz_settings
@given(text=mutated_castell())
def test_mutated_castell_rules_never_crash(text, tmp_path_factory):
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return
    check_outcome(tmp_path_factory.mktemp("fuzz") / "castell.castell", text)


@fuzz_settings
@given(body=tokens_text)
def test_mutated_variants_never_crash(body, tmp_path_factory):
    check_outcome(tmp_path_factory.mktemp("fuzz") / "variant.castell", 'extends "castell"\n' + body)
