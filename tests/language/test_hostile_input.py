"""A rule file is data: hostile input gets a diagnostic quickly, never a traceback or a hang.

Each case is checked through the same entry point `castell validate` uses. "Quickly" is relative,
never an absolute number of seconds (which fails on a loaded CI machine): the CPU time of a case
is compared with the CPU time of parsing a valid rule file of the same size, measured in the
same test, so that both run under the same load.
"""

from __future__ import annotations

import time

import pytest

from castell_dsl.language.diagnostics import CODES, Diagnostics
from castell_dsl.language.parser import parse
from castell_dsl.language.source import Source
from castell_dsl.runtime.loading import load_report, rule_path

#: A hostile case may cost this many times the parse of a valid file of its size.
SLOWDOWN = 20
#: Largest valid file parsed for the baseline.
BASELINE_BYTES = 200_000


def _best_parse_cpu(text: str, rounds: int = 3) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        parse(Source("baseline", text), Diagnostics())
        best = min(best, time.process_time() - start)
    return best


def baseline_cpu(size: int) -> float:
    """CPU seconds to parse a valid rule file of `size` bytes (at least the bundled rules; at
    most BASELINE_BYTES, since a larger hostile file is refused before parsing): the yardstick
    for "quickly", best of three."""
    bundled = rule_path().find_rules("castell").read_text(encoding="utf-8")
    size = min(size, BASELINE_BYTES)
    valid = "x [" + ", ".join(["1..10"] * (size // 7 + 1)) + "]\n"
    return max(_best_parse_cpu(bundled), _best_parse_cpu(valid), 0.005)


CASES = {
    "empty": (b"", "E0110"),
    "only_comments": (b"# nothing here\n# at all\n", "E0110"),
    "binary_garbage": (bytes(range(256)) * 40, "E0108"),
    "invalid_utf8": ('game x { title "caf\u00e9" }'.encode("latin-1"), "E0108"),
    "nul_byte": (b"game x {\x00}", "E0108"),
    "ten_megabytes": (b"# filler\n" * (10 * 1024 * 1024 // 9), "E0107"),
    "nested_brackets": (b"x " + b"[" * 10_000 + b"]" * 10_000, "E0106"),
    "nested_parentheses": (b"x = " + b"(" * 10_000 + b"1" + b")" * 10_000, "E0106"),
    "ten_thousand_digits": (b"x " + b"9" * 10_000, "E0109"),
    "deep_expression": (
        b'extends "castell"\noverride scoring { category best_tower = '
        + b"not " * 10_000
        + b"true }",
        "E0106",
    ),
    "long_sum": (
        b'extends "castell"\noverride scoring { category best_tower = 1' + b" + 1" * 15_000 + b" }",
        "E0106",
    ),
    "python_code": (b'__import__("os").system("echo pwned")', "E0105"),
    "yaml_tag": (b"!!python/object/apply:os.system [echo pwned]", "E0101"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_hostile_file_gets_a_diagnostic_quickly(name, tmp_path, monkeypatch):
    data, code = CASES[name]
    monkeypatch.chdir(tmp_path)
    path = tmp_path / f"{name}.castell"
    path.write_bytes(data)
    start = time.process_time()
    report = load_report(path)
    elapsed = time.process_time() - start
    assert report.rules is None
    assert [d.code for d in report.diagnostics][:1] == [code]
    assert all(
        d.code in CODES and d.span.line >= 1 and d.span.column >= 1 for d in report.diagnostics
    )
    limit = SLOWDOWN * baseline_cpu(len(data))
    assert elapsed < limit, f"{name} took {elapsed:.2f}s CPU, over {limit:.2f}s"


def test_include_of_a_device_is_refused(tmp_path, monkeypatch):
    """A rule file cannot make the validator read from /dev/zero or a FIFO forever."""
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "dev.castell"
    path.write_text('extends "castell"\ninclude "/dev/zero"\n')
    report = load_report(path)
    assert report.rules is None
    assert report.diagnostics[0].code == "E0271"


def test_nothing_in_a_rule_file_is_evaluated_as_python(tmp_path, monkeypatch):
    """Expressions compile to closures over a fixed set of functions; dunder names are just
    unknown names."""
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "evil.castell"
    path.write_text(
        'extends "castell"\noverride scoring { category best_tower = __import__("os") }\n'
    )
    report = load_report(path)
    assert [d.code for d in report.diagnostics] == ["E0290"]
