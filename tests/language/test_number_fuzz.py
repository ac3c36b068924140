"""Numbers of any length, anywhere: the outcome is a rule set or diagnostics, never a crash.

Python refuses to convert integer strings longer than its int-string limit (4300 digits) and
raises ValueError; a rule file, a YAML config or a cache file can hold such a number, so each
reader must turn it into a diagnostic. A longer campaign: HYPOTHESIS_PROFILE=long.
"""

from __future__ import annotations

import sys

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from castell_dsl.language.diagnostics import CODES
from castell_dsl.runtime.loading import load_report, rule_path

LINES = rule_path().find_rules("castell").read_text(encoding="utf-8").splitlines(True)
LIMIT = getattr(sys, "get_int_max_str_digits", lambda: 4300)() or 4300

numbers = st.one_of(
    st.integers(1, LIMIT + 50).map(lambda n: "9" * n),
    st.integers(-(10**40), 10**40).map(str),
    st.sampled_from(["-0", "00000000000000000001", "1_000", "1e5", "0x10", "١٢٣", "²", ".."]),
    st.tuples(st.integers(-(10**20), 10**20), st.integers(-(10**20), 10**20)).map(
        lambda t: f"{t[0]}..{t[1]}"
    ),
)
PLACES = [
    "override game {{ rounds {n} }}\n",
    "override game {{ players {n} }}\n",
    "override bag {{ {n}: 3 }}\n",
    "override bag {{ 1..10: {n} }}\n",
    "override tower {{ sizes {n} width_limit {n} }}\n",
    "override skill mix {{ max_rank {n} }}\n",
    "override performance LP01 {{ shape [{n}, {n}] points {n} }}\n",
    "override scoring {{ category best_tower = {n} * {n} + {n} }}\n",
    "override setup {{ castellers_per_region {{ {n}: {n} }} }}\n",
    "table t {{ {n}: [{n}] }}\n",
]


@st.composite
def rule_files(draw) -> str:
    lines = ['extends "castell"\n']
    if draw(st.booleans()):
        lines = list(LINES)  # a digit of the bundled rules replaced by the number
        i = draw(
            st.sampled_from([i for i, line in enumerate(lines) if any(map(str.isdigit, line))])
        )
        line = lines[i]
        k = draw(st.sampled_from([k for k, c in enumerate(line) if c.isdigit()]))
        lines[i] = line[:k] + draw(numbers) + line[k + 1 :]
    for _ in range(draw(st.integers(1, 3))):
        lines.append(draw(st.sampled_from(PLACES)).format(n=draw(numbers)))
    return "".join(lines)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(rule_files())
def test_numbers_end_in_rules_or_diagnostics(tmp_path, monkeypatch, text):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "numbers.castell"
    path.write_text(text, encoding="utf-8")
    report = load_report(path)
    if report.rules is None or not report.ok:
        assert report.diagnostics
    for diag in report.diagnostics:
        assert diag.code in CODES
        assert diag.span.line >= 1 and diag.span.column >= 1
        assert len(diag.message) < 2_000
