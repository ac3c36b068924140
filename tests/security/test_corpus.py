"""The hostile-input corpus: every file gets its expected outcome, in bounded time and memory.

`corpus/expected.json` maps each file to its outcome: for rule files and variants the first
diagnostic code ("ok" for a clean load, "any" for any clean outcome); for YAML configs "ok" or
"error:<words the message contains>"; for cache files how many entries survive reading. Add a
file and its line to extend the corpus.

Bounds are relative to a baseline measured in the same test run under the same conditions
(cold caches, tracemalloc on): CPU time at most SLOWDOWN times the baseline's, traced memory at
most MEMORY_FACTOR times. Set CASTELL_CORPUS_REPORT=path to write every measurement as JSON.
"""

from __future__ import annotations

import json
import os
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from castell_dsl import cache
from castell_dsl.cli.options import ConfigError, read_config
from castell_dsl.language import loader as loader_module
from castell_dsl.language.diagnostics import CODES, render_github, render_text
from castell_dsl.runtime.loading import load_report, rule_path

CORPUS = Path(__file__).parent / "corpus"
EXPECTED: dict[str, Any] = json.loads((CORPUS / "expected.json").read_text(encoding="utf-8"))
#: A case may take this many times the CPU time of the baseline of its kind.
SLOWDOWN = 25
#: ... and this many times its traced peak memory (plus a small allowance for tiny baselines).
MEMORY_FACTOR = 8
MEMORY_ALLOWANCE = 16_000_000
RAW_CONTROLS = ("\x1b", "\x07", "\r", "\x9b", "\u202e", "\x00")

_MEASURED: dict[str, tuple[float, int]] = {}


def _cold() -> None:
    """Forget every per-process cache, so that each case and its baseline start alike."""
    from castell_game import solver

    loader_module._PARSED.clear()
    cache._LOADED.clear()
    solver.clear_cache()


def _measure(run: Callable[[], Any]) -> tuple[Any, float, int]:
    _cold()
    tracemalloc.start()
    start = time.process_time()
    try:
        result = run()
    finally:
        elapsed = time.process_time() - start
        _current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return result, elapsed, peak


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch) -> Path:
    directory = tmp_path / "cache"
    monkeypatch.setenv("CASTELL_CACHE_DIR", str(directory))
    yield directory
    cache._LOADED.clear()


def _baseline(kind: str, run: Callable[[], Any]) -> tuple[float, int]:
    """CPU time and memory of the valid case of a kind: best of two, per test run."""
    if kind not in _MEASURED:
        samples = [_measure(run)[1:] for _ in range(2)]
        _MEASURED[kind] = (min(s[0] for s in samples), min(s[1] for s in samples))
    return _MEASURED[kind]


def _bounded(case: str, kind: str, elapsed: float, peak: int, baseline: tuple[float, int]):
    base_time, base_peak = baseline
    report = os.environ.get("CASTELL_CORPUS_REPORT")
    if report:
        with open(report, "a", encoding="utf-8") as handle:
            handle.write(json.dumps({"case": case, "cpu": elapsed, "peak": peak}) + "\n")
    assert elapsed < SLOWDOWN * max(base_time, 0.01), (case, elapsed, base_time)
    assert peak < MEMORY_FACTOR * base_peak + MEMORY_ALLOWANCE, (case, peak, base_peak)


def _check_diagnostics(report, expected: str) -> None:
    codes = [d.code for d in report.diagnostics]
    if expected == "ok":
        assert report.ok, codes
    elif expected != "any":
        assert codes[:1] == [expected], [(d.code, d.message[:80]) for d in report.diagnostics]
    if not report.ok:
        assert report.diagnostics
    for diag in report.diagnostics:
        assert diag.code in CODES and diag.span.line >= 1 and diag.span.column >= 1
        shown = render_text(diag, report.source_lines(diag.span.path)) + render_github(diag)
        shown += json.dumps(diag.to_json(), ensure_ascii=False)
        for ch in RAW_CONTROLS:
            assert ch not in shown, (diag.code, ch)
        assert len(diag.message) < 2_000


def _cases(prefix: str) -> list[str]:
    return sorted(name for name in EXPECTED if name.startswith(prefix))


def test_every_corpus_file_has_an_expectation_and_the_reverse():
    on_disk = {str(p.relative_to(CORPUS)) for p in CORPUS.rglob("*") if p.is_file()} - {
        "expected.json"
    }
    assert on_disk == set(EXPECTED)


@pytest.mark.parametrize("case", _cases("rules/"))
def test_rule_file(case, fresh_cache, monkeypatch):
    monkeypatch.delenv("CASTELL_ALLOW_OUTSIDE_RULE_PATH", raising=False)
    monkeypatch.chdir(CORPUS / "rules")
    baseline = _baseline("rules", lambda: load_report("valid_variant.castell"))
    report, elapsed, peak = _measure(lambda: load_report(Path(case).name))
    _check_diagnostics(report, EXPECTED[case])
    _bounded(case, "rules", elapsed, peak, baseline)


@pytest.mark.parametrize("case", _cases("variants/"))
def test_variant(case, fresh_cache, monkeypatch, tmp_path):
    monkeypatch.delenv("CASTELL_ALLOW_OUTSIDE_RULE_PATH", raising=False)
    monkeypatch.setenv("CASTELL_RULES_PATH", str(CORPUS / "variants"))
    monkeypatch.chdir(tmp_path)
    rules = rule_path().find_rules("castell")
    baseline = _baseline("variants", lambda: load_report(rules, ("short-season",)))
    report, elapsed, peak = _measure(lambda: load_report(rules, (Path(case).stem,)))
    _check_diagnostics(report, EXPECTED[case])
    _bounded(case, "variants", elapsed, peak, baseline)


def _config_outcome(path: Path) -> str:
    try:
        read_config(str(path), "simulate")
    except ConfigError as exc:
        return "error:" + str(exc)
    return "ok"


def _valid_config_of_size(directory: Path, size: int) -> Path:
    """A valid configuration of about `size` bytes (a long variant list, within the caps):
    the yardstick for a configuration case of that size. Sizes are rounded up to a power of 2."""
    from castell_dsl.cli.options import MAX_CONFIG_NODES

    bucket = 1 << max(8, (size - 1).bit_length())
    path = directory / f"valid-{bucket}.yaml"
    if not path.exists():
        names = min(bucket // 3, MAX_CONFIG_NODES - 50)
        path.write_text("seed: 1\nvariants: [" + ", ".join(["a"] * names) + "]\n")
    return path


@pytest.mark.parametrize("case", _cases("configs/"))
def test_config(case, tmp_path_factory):
    directory = tmp_path_factory.getbasetemp() / "corpus-configs"
    directory.mkdir(exist_ok=True)
    valid = _valid_config_of_size(directory, (CORPUS / case).stat().st_size)
    baseline = _baseline(f"configs-{valid.name}", lambda: _config_outcome(valid))
    outcome, elapsed, peak = _measure(lambda: _config_outcome(CORPUS / case))
    expected = EXPECTED[case]
    if expected == "ok":
        assert outcome == "ok"
    else:
        assert outcome.startswith("error:") and expected[len("error:") :] in outcome, outcome
        assert len(outcome) < 500
        for ch in RAW_CONTROLS:
            assert ch not in outcome
    _bounded(case, "configs", elapsed, peak, baseline)


@pytest.mark.parametrize("case", _cases("caches/"))
def test_cache_file(case, fresh_cache):
    from castell_game.checks import _valid_witness

    fresh_cache.mkdir(mode=0o700)
    (fresh_cache / "feasibility.json").write_bytes((CORPUS / case).read_bytes())
    valid = json.dumps({"version": 1, "entries": {"0" * 64: {"levels": [[1]]}}})
    baseline_dir = fresh_cache.parent / "baseline"
    baseline_dir.mkdir(mode=0o700)
    (baseline_dir / "feasibility.json").write_text(valid)
    baseline = _baseline("caches", lambda: cache._read(baseline_dir, "feasibility", _valid_witness))
    entries, elapsed, peak = _measure(
        lambda: cache._read(fresh_cache, "feasibility", _valid_witness)
    )
    assert len(entries) == EXPECTED[case]
    _bounded(case, "caches", elapsed, peak, baseline)
